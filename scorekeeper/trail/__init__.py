"""A game's trail at the table: a hand confirmed or disputed by the other side, the result
signed by every side, a signed game opened again by the organiser; who acts, said once per
request for every change the request makes."""
