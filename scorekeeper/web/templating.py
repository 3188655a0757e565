"""Template filters: how scores read on a page (money, numbers and dates, in the language)."""

from __future__ import annotations

from typing import Any

from flask import Flask
from markupsafe import Markup, escape

from ..i18n import gettext
from ..rules import in_the_hole
from ..serving.join import board_code


def ringed(score: int) -> Markup:
    """Show a score, with a ring around it when it is in the hole."""
    # Plain string building: a sheet rings hundreds of scores, and Markup.format is slow.
    if in_the_hole(score):
        title = escape(gettext("in the hole"))
        return Markup(f'<span class="ring" title="{title}">&minus;{escape(str(-score))}</span>')
    return escape(str(score))


def init_app(app: Flask) -> None:
    app.jinja_env.filters["ringed"] = ringed
    app.jinja_env.globals["board_join_code"] = board_code

    @app.context_processor
    def base_context() -> dict[str, Any]:
        return {}
