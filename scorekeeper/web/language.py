"""The web app's language: Flask-Babel set up on our catalogue, and the switch on every page.

The language is the one picked with the switch (remembered in the session), else the
best match for the browser's Accept-Language, else English. Templates get ``_`` and
``ngettext`` (Flask-Babel installs them), ``lang`` for ``<html lang>``, and the
locale-aware filters ``number``, ``money``, ``day``, ``moment`` and ``clock``.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, abort, g, has_request_context, redirect, request, session
from flask_babel import Babel, Domain
from markupsafe import Markup, escape
from werkzeug.wrappers.response import Response

from .. import i18n
from .security import safe_target

bp = Blueprint("language", __name__)

#: Where the language picked with the switch is kept in the session.
SESSION_KEY = "lang"


def select_locale() -> str:
    """The request's language: the switch, else Accept-Language, else English.

    Outside a request (a command, a background job) it is the one set with i18n.use_locale.
    """
    if not has_request_context():
        return i18n.current_locale()
    chosen = session.get(SESSION_KEY)
    if chosen in i18n.LANGUAGES:
        return str(chosen)
    return request.accept_languages.best_match(list(i18n.LANGUAGES)) or i18n.DEFAULT_LOCALE


class CatalogueDomain(Domain):
    """Flask-Babel's domain (its lazy_gettext, used by forms), reading i18n's catalogue in
    i18n's language, so there is one language in use and misses are reported."""

    def get_translations(self) -> Any:
        return i18n.active_translations()


class ScorekeeperBabel(Babel):
    @property
    def domain_instance(self) -> Domain:
        return _DOMAIN


_DOMAIN = CatalogueDomain(translation_directories=[str(i18n.TRANSLATIONS)])


@bp.post("/language")
def switch() -> Response:
    """Remember the language picked with the switch, and go back to the page."""
    lang = request.form.get("lang", "")
    if lang not in i18n.LANGUAGES:
        abort(400, i18n.gettext("There is no language %(lang)s here.", lang=lang[:20]))
    session[SESSION_KEY] = lang
    return redirect(safe_target(request.form.get("next")), 303)


def template_gettext(message: str, /, **variables: Any) -> Markup:
    """The templates' ``_``, as Jinja's new-style gettext: the translation is trusted HTML,
    the variables are escaped, and ``%`` is always a placeholder (``%%`` a sign).

    Jinja's own passes the template's context along, twice, and derives a new context
    for a call in a loop: about 20 µs a string, where a game page has ninety strings.
    """
    text = i18n.active_translations().ugettext(message)
    return _filled(text, variables) if "%" in text else Markup(text)


def template_ngettext(singular: str, plural: str, num: int, /, **variables: Any) -> Markup:
    """The templates' ``ngettext``, as Jinja's new-style one; ``%(num)s`` is the count."""
    variables.setdefault("num", num)
    return _filled(i18n.active_translations().ungettext(singular, plural, num), variables)


def _filled(text: str, variables: dict[str, Any]) -> Markup:
    """``Markup(text) % variables``, in a third of the time: each variable is escaped once
    here (a number is left a number, for ``%d``), where Markup wraps each in a helper."""
    return Markup(
        text
        % {
            name: value if isinstance(value, int | float) else escape(value)
            for name, value in variables.items()
        }
    )


def init_app(app: Flask) -> None:
    """Set up the language first, so every later hook and error page speaks it."""

    @app.before_request
    def speak_the_requests_language() -> None:
        g.language_token = i18n.set_locale(select_locale())

    @app.teardown_request
    def stop_speaking_it(_error: BaseException | None) -> None:
        token = g.pop("language_token", None)
        if token is not None:
            i18n.reset_locale(token)

    ScorekeeperBabel(app, locale_selector=i18n.current_locale)
    # The templates' _ and ngettext read the catalogue straight from i18n: one context
    # variable and a dict lookup per string, where Flask-Babel's look the request up each time.
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]  # added by the i18n extension
        gettext=lambda message: i18n.active_translations().ugettext(message),
        ngettext=lambda one, many, n: i18n.active_translations().ungettext(one, many, n),
        newstyle=True,
    )
    # What templates call: ``_`` and ``ngettext`` without Jinja's context passing.
    app.jinja_env.globals.update(_=template_gettext, ngettext=template_ngettext)
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
