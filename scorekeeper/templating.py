"""Template filters and globals: how scores, money and sides read on a page."""

from __future__ import annotations

from typing import Any

from flask import Flask
from markupsafe import Markup, escape

from .i18n import gettext
from .sheet import WIN_WORDS


def ringed(score: int) -> Markup:
    """Show a score, with a ring around it when it is in the hole."""
    # Plain string building: a sheet rings hundreds of scores, and Markup.format is slow.
    if score < 0:
        title = escape(gettext("in the hole"))
        return Markup(f'<span class="ring" title="{title}">&minus;{escape(str(-score))}</span>')
    return escape(str(score))


def plural(count: int, word: str, many: str | None = None) -> str:
    return f"{count} {word if count == 1 else (many or word + 's')}"


def init_app(app: Flask) -> None:
    app.jinja_env.filters["ringed"] = ringed
    app.jinja_env.globals["plural"] = plural
    app.jinja_env.globals["WIN_WORDS"] = WIN_WORDS

    @app.context_processor
    def base_context() -> dict[str, Any]:
        return {}
