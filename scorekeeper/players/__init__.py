"""The roster: a page per player with their statistics, rename and merge."""
