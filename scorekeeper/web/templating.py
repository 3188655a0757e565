"""Template filters: how scores read on a page (money, numbers and dates, in the language), and
the words the table wrote kept apart from the page's own (names, teams, notes)."""

from __future__ import annotations

from typing import Any

from flask import Flask
from markupsafe import Markup, escape

from ..i18n import gettext, isolated
from ..rules import in_the_hole
from ..serving.join import board_code


def ringed(score: int) -> Markup:
    """Show a score, with a ring around it when it is in the hole."""
    # Plain string building: a sheet rings hundreds of scores, and Markup.format is slow.
    if in_the_hole(score):
        title = escape(gettext("in the hole"))
        return Markup(f'<span class="ring" title="{title}">&minus;{escape(str(-score))}</span>')
    return escape(str(score))


def bdi(text: object) -> Markup:
    """Words the table wrote (a name, a team, a night, a note), isolated from the page's own
    words around them: a name written right to left, or with a direction override in it,
    cannot reorder what follows it (``<bdi>``: its own direction, from its first letter)."""
    # Plain string building, as ringed: a sheet isolates hundreds of names.
    return Markup(f"<bdi>{escape(text)}</bdi>")


def init_app(app: Flask) -> None:
    app.jinja_env.filters["ringed"] = ringed
    app.jinja_env.filters["bdi"] = bdi
    app.jinja_env.filters["isolated"] = isolated
    app.jinja_env.globals["board_join_code"] = board_code

    @app.context_processor
    def base_context() -> dict[str, Any]:
        return {}
