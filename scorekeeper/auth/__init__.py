"""The organiser's login: its page, the session it sets, and the guard on what only the
organiser may do."""
