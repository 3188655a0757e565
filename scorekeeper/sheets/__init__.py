"""A game as a page shows it: one model for the web sheet, the board, the PDFs and the history,
and every renderer that needs no web library.

- ``model``: ``game_snapshot`` takes the frozen values a page, the board, a printed sheet or
  the history's list shows (``GameView``, its ``SideView``/``HandRow``/``PaymentView``) from a
  replayed game (the engine's ``GameResult``) and its stored row.
- ``words``: the words a sheet says about a hand, a win or a changed house rule, and a hand
  in a sentence, from the engine's own (``rules``: ``WIN_WORDS``, ``SALE_WORDS``,
  ``SWITCH_WORDS``, ``Point.mark``).
- ``hand``: one hand's own page, from the game's model; ``names``: names shortened for a
  phone's narrow columns, kept distinct.
- ``rules_card``: a game's rules, one sentence each; ``charts``: the score chart as SVG.
- ``terminal``: the command line's score sheet (``scorekeeper score``).

The other renderers: ``templates/games/`` (web sheet and board) and ``pdf/printed_sheet.py``.
"""
