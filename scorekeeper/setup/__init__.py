"""Setting up a game: the variant, the seats, the house rules and the stake."""
