"""Printed score sheets and score histories: HTML from Jinja templates, laid out by WeasyPrint.

- ``fetcher``: the URL fetcher that loads only the app's static files.
- ``render``: HTML to PDF (WeasyPrint) and PDFs put together (pypdf); no Flask.
- ``sheet``: one game's sheet, rendered from the same ``GameView`` as the game page.
- ``pool``: the worker processes that lay out every PDF (one kept, a pool per history).
- ``history``: a history: a summary table then every game's sheet, laid out on every core.
- ``jobs``: long printing runs in the background; pages poll its progress.
- ``views``: ``GET /games/<id>/sheet.pdf``; ``cli``: ``scorekeeper pdf GAME_ID -o FILE``.
"""
