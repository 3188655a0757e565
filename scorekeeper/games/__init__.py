"""A game at the table: its page, the hand form, corrections, the board, import and export."""
