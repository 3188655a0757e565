"""One game's printed score sheet, from the game page's own snapshot (``GameView``)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from flask import current_app
from markupsafe import Markup

from .. import i18n, operations
from ..sheets import charts
from ..sheets.model import GameView, game_snapshot
from .render import Printed, write_pdf
from .urls import static_url

#: Paper sizes a document can be printed on.
PAPERS = ("letter", "a4")
#: The paper each language's tables use: US Letter in (US) English, A4 in Romania.
PAPER_BY_LOCALE = {"en": "letter", "ro": "a4"}


class BadPaper(ValueError):
    """A paper size we do not print on."""


def paper_size(requested: str | None = None) -> str:
    """Choose the paper: the one asked for (``?paper=``), else the PDF_PAPER setting, else
    the language's (A4 in Romanian, US Letter in English). Every PDF chooses it so."""
    value = requested if requested not in (None, "") else current_app.config.get("PDF_PAPER")
    if value in (None, ""):
        return PAPER_BY_LOCALE.get(i18n.current_locale(), "a4")
    paper = str(value).strip().lower()
    if paper not in PAPERS:
        raise BadPaper(
            i18n.gettext(
                "%(paper)s is not a paper size we print on; use one of: %(papers)s",
                paper=repr(str(value)[:40]),
                papers=", ".join(PAPERS),
            )
        )
    return paper


def long_date(moment: datetime) -> str:
    """Write a date and time in full, as the language does: ``Saturday, March 14, 2026, 7:05 PM``
    (``sâmbătă, 14 martie 2026, 19:05``)."""
    return f"{i18n.day(moment, 'full')}, {i18n.clock(moment)}"


def _css_string(text: str) -> str:
    """Quote ``text`` as a CSS string (safe inside a ``<style>`` element)."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("<", "\\3c ")
    return '"' + escaped.replace("\n", "\\a ") + '"'


def page_of_pages() -> Markup:
    """The CSS ``content`` of the page-number footer, in the current language:
    ``"page " counter(page) " of " counter(pages)``."""
    # The counters stand in as two control characters while the words are translated.
    words = i18n.gettext("page %(page)s of %(pages)s", page="\x01", pages="\x02")
    parts = []
    for piece in re.split("([\x01\x02])", words):
        if piece == "\x01":
            parts.append("counter(page)")
        elif piece == "\x02":
            parts.append("counter(pages)")
        elif piece:
            parts.append(_css_string(piece))
    return Markup(" ".join(parts))


_SUPERSCRIPT_DIGITS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def superscript(number: int) -> str:
    """Write a number in superscript digits: ``12`` is ``¹²`` (small, with no element)."""
    return str(number).translate(_SUPERSCRIPT_DIGITS)


def printed_now() -> datetime:
    # The app stores naive UTC times; the sheet prints them as stored, and so this one.
    return datetime.now(UTC).replace(tzinfo=None)


def document_context(paper: str, **extra: Any) -> dict[str, Any]:
    """What every printed template gets besides its data: paper, static links, words for
    dates and numbers."""
    return {
        "paper": paper,
        "lang": i18n.current_locale(),
        "pdf_static": static_url,
        "long_date": long_date,
        "superscript": superscript,
        "isolated": i18n.isolated,
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


#: The chart's lettering: the print stylesheet's own families, so that a sheet embeds no
#: other font (an inline SVG does not inherit the page's CSS). WenQuanYi Micro Hei draws the
#: names DejaVu has no letters for (Chinese, Japanese, Korean); DejaVu Sans has Arabic.
CHART_FONT = "DejaVu Sans Condensed, DejaVu Sans, WenQuanYi Micro Hei, sans-serif"


def progression_chart(game: GameView) -> Markup:
    """Draw the score progression for print: the game page's chart, in fewer elements."""
    if len(game.rows) < 2:
        return Markup()
    return Markup(
        charts.progression_chart(
            [side.name for side in game.sides],
            [row.scores for row in game.rows],
            game.target,
            winner=game.winner,
            winning_hand=game.winning_hand,
            chart_id=f"progress-{game.id}",
            compact=True,
            font_family=CHART_FONT,
        )
    )


def sheet_context(game: GameView, *, chart: bool = False) -> dict[str, Any]:
    """The plain values one sheet renders: the game's view, its point marks, maybe its chart."""
    marks: Mapping[str, str] = dict(game.point_marks)

    def marked(keys: Iterable[str]) -> str:
        """Write the points a side took as marks: ``H L J`` (thin spaces between)."""
        return "\u2009".join(marks[key] for key in keys)

    return {
        "game": game,
        "marks": marks,
        "marked": marked,
        "chart": progression_chart(game) if chart else Markup(),
    }


def sheet_html(game: GameView, *, paper: str, bundled: bool = False) -> str:
    """Render one game's sheet as HTML for WeasyPrint (needs an app context).

    A sheet on its own draws the score progression beside the result. In a history
    (``bundled``) the sheets leave it out: even drawn compact it adds a fifth to the
    layout time of a short game, and the history's point is the scores and who owes whom.
    """
    return render_printed(
        "pdf/sheet.html",
        **document_context(paper, bundled=bundled),
        **sheet_context(game, chart=not bundled),
    )


def sheets_html(games: Sequence[GameView], *, paper: str) -> str:
    """Render several games' sheets as one HTML document, each from a new page, no charts."""
    return render_printed(
        "pdf/sheets.html",
        **document_context(paper, bundled=True),
        sheets=[sheet_context(game) for game in games],
    )


def sheet_anchor(game_id: int) -> str:
    """The id of a game's sheet in a printed document (``_sheet.html`` sets it on its title)."""
    return f"game-{game_id}"


def sheet_key(loaded: operations.rows.Loaded) -> tuple[object, ...]:
    """What a game's printed sheet depends on: the game (its id and when it was made, for a
    reused id) and its version, which every change to it bumps."""
    return ("sheet", loaded.row.id, str(loaded.row.created_at), loaded.row.version)


def game_sheet(game_id: int, *, paper: str) -> Printed:
    """Print game ``game_id``'s sheet; raise operations.errors.NotFound if there is no such game."""
    # The snapshot's own chart is the game page's; the sheet draws a compact one.
    game = game_snapshot(operations.loading.load(game_id), chart=False)
    return write_pdf(sheet_html(game, paper=paper), current_app.static_folder or "static")
