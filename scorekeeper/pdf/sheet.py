"""One game's printed score sheet, from the game page's own snapshot (``GameView``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from flask import current_app

from .. import operations
from ..games.snapshot import GameView, game_snapshot
from .render import Printed, write_pdf
from .urls import static_url

#: Paper sizes a document can be printed on; the first is the default.
PAPERS = ("letter", "a4")


class BadPaper(ValueError):
    """A paper size we do not print on."""


def paper_size(requested: str | None = None) -> str:
    """Choose the paper: the one asked for, else the PDF_PAPER setting, else US Letter."""
    value = requested if requested not in (None, "") else current_app.config.get("PDF_PAPER")
    paper = str(value or PAPERS[0]).strip().lower()
    if paper not in PAPERS:
        raise BadPaper(
            f"{str(value)[:40]!r} is not a paper size we print on; use one of: {', '.join(PAPERS)}"
        )
    return paper


def long_date(moment: datetime) -> str:
    """Write a date as a sheet does: ``Saturday 14 March 2026, 19:05``."""
    return f"{moment:%A} {moment.day} {moment:%B %Y}, {moment:%H:%M}"


def printed_now() -> datetime:
    # The app stores naive UTC times; the sheet prints them as stored, and so this one.
    return datetime.now(UTC).replace(tzinfo=None)


def document_context(paper: str, **extra: Any) -> dict[str, Any]:
    """What every printed template gets besides its data: paper, static links, date words."""
    return {
        "paper": paper,
        "pdf_static": static_url,
        "long_date": long_date,
        "printed_at": printed_now(),
        **extra,
    }


def render_printed(template: str, **context: Any) -> str:
    """Render a printed template with exactly ``context`` (needs only an app context).

    Flask's ``render_template`` would also run the app's context processors, which
    may read the request or the session; a printed page needs neither, and a history
    is rendered on a background thread that has no request.
    """
    return current_app.jinja_env.get_template(template).render(context)


def sheet_context(game: GameView) -> dict[str, Any]:
    """The plain values one sheet renders: the game's view and its point marks."""
    marks: Mapping[str, str] = dict(game.point_marks)

    def marked(keys: Iterable[str]) -> str:
        """Write the points a side took as marks: ``H L J`` (thin spaces between)."""
        return "\u2009".join(marks[key] for key in keys)

    return {"game": game, "marks": marks, "marked": marked}


def sheet_html(game: GameView, *, paper: str, bundled: bool = False) -> str:
    """Render one game's sheet as HTML for WeasyPrint (needs an app context).

    A sheet on its own draws the score progression beside the result. In a history
    (``bundled``) the sheets leave it out: it adds about a quarter to the layout time
    of a short game, and the history's point is the scores and who owes whom.
    """
    return render_printed(
        "pdf/sheet.html",
        **document_context(paper, bundled=bundled),
        **sheet_context(game),
        charts=not bundled,
    )


def sheets_html(games: Sequence[GameView], *, paper: str) -> str:
    """Render several games' sheets as one HTML document, each from a new page, no charts."""
    return render_printed(
        "pdf/sheets.html",
        **document_context(paper, bundled=True),
        sheets=[sheet_context(game) for game in games],
        charts=False,
    )


def sheet_anchor(game_id: int) -> str:
    """The id of a game's sheet in a printed document (``_sheet.html`` sets it)."""
    return f"game-{game_id}"


def game_sheet(game_id: int, *, paper: str) -> Printed:
    """Print game ``game_id``'s sheet; raise operations.NotFound if there is no such game."""
    game = game_snapshot(operations.load(game_id))
    return write_pdf(sheet_html(game, paper=paper), current_app.static_folder or "static")
