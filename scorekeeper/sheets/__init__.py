"""A game as a page shows it: one model for the web sheet, the board, the PDFs and the history.

- ``model``: ``game_snapshot`` takes the frozen values a page, the board, a printed sheet or
  the history's list shows (``GameView``, its ``SideView``/``HandRow``/``PaymentView``) from a
  replayed game (the engine's ``GameResult``) and its stored row.
- ``words``: the few words a sheet says about a hand, a win or a changed house rule, from the
  engine's own (``rules``: ``WIN_WORDS``, ``SALE_WORDS``, ``SWITCH_WORDS``, ``Point.mark``).
  It needs no web library, so the terminal sheet (``terminal_sheet``) uses it too.

Renderers: ``templates/games/`` (web sheet and board), ``pdf/printed_sheet.py`` (PDFs),
``terminal_sheet.py`` (the command line's ``score``).
"""
