"""Game nights: the games played at one sitting, and one settlement for all of them."""
