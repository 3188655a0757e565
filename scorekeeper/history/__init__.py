"""The score history: every game, newest first, filtered, paged, and printed as one PDF."""
