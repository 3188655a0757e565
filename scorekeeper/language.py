"""The web app's language: Flask-Babel set up on our catalogue, and the switch on every page.

The language is the one picked with the switch (remembered in the session), else the
best match for the browser's Accept-Language, else English. Templates get ``_`` and
``ngettext`` (Flask-Babel installs them), ``lang`` for ``<html lang>``, and the
locale-aware filters ``number``, ``money``, ``day``, ``moment`` and ``clock``.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, Flask, abort, has_request_context, redirect, request, session
from flask_babel import Babel, Domain
from werkzeug.wrappers.response import Response

from . import i18n

bp = Blueprint("language", __name__)

#: Where the language picked with the switch is kept in the session.
SESSION_KEY = "lang"


def select_locale() -> str:
    """The request's language: the switch, else Accept-Language, else English.

    Outside a request (a command, a background job) it is the one set with i18n.use_locale.
    """
    if not has_request_context():
        return i18n.outside_locale()
    chosen = session.get(SESSION_KEY)
    if chosen in i18n.LANGUAGES:
        return str(chosen)
    return request.accept_languages.best_match(list(i18n.LANGUAGES)) or i18n.DEFAULT_LOCALE


class CatalogueDomain(Domain):
    """Flask-Babel's domain, reading our catalogue through i18n (so misses are reported)."""

    def get_translations(self) -> Any:
        import flask_babel

        locale = flask_babel.get_locale()
        return i18n.translations_for(str(locale) if locale is not None else i18n.DEFAULT_LOCALE)


class ScorekeeperBabel(Babel):
    @property
    def domain_instance(self) -> Domain:  # type: ignore[override]
        return _DOMAIN


_DOMAIN = CatalogueDomain(translation_directories=[str(i18n.TRANSLATIONS)])


def _back_to(target: str | None) -> str:
    """Go back to the page the switch was on; only ever a local path."""
    if not target:
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return "/"
    return target


@bp.post("/language")
def switch() -> Response:
    """Remember the language picked with the switch, and go back to the page."""
    lang = request.form.get("lang", "")
    if lang not in i18n.LANGUAGES:
        abort(400, i18n.gettext("There is no language %(lang)s here.", lang=lang[:20]))
    session[SESSION_KEY] = lang
    return redirect(_back_to(request.form.get("next")), 303)


def init_app(app: Flask) -> None:
    ScorekeeperBabel(app, locale_selector=select_locale)
    app.register_blueprint(bp)
    filters = {
        "number": i18n.number,
        "money": i18n.money,
        "day": i18n.day,
        "moment": i18n.moment,
        "clock": i18n.clock,
    }
    app.jinja_env.filters.update(filters)

    @app.context_processor
    def language_context() -> dict[str, Any]:
        return {"lang": i18n.current_locale(), "languages": i18n.LANGUAGES}
