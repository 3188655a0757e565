"""Friendly error pages: no traceback ever reaches a player.

A page says what went wrong in the reader's language; a JSON answer (the export, the
scoreboard's poll, an import posted as JSON) stays in English, as the record format does.
So a message is given lazily (``lazy_gettext``) and spoken in English for JSON.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, jsonify, render_template, request
from flask_babel import lazy_gettext as _l
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, InternalServerError
from werkzeug.wrappers.response import Response

from ..data.database import DBAPIError, busy, recover, unavailable
from ..i18n import N_, gettext, use_locale
from ..operations.errors import NotFound, explain, message

log = logging.getLogger(__name__)

TITLES = {
    400: N_("That request did not make sense"),
    403: N_("Not allowed"),
    404: N_("Not found"),
    405: N_("Not allowed here"),
    409: N_("Someone else changed this game"),
    503: N_("Busy for a moment"),
    413: N_("That file is too large"),
    429: N_("Too many requests"),
    500: N_("Something went wrong on our side"),
}
ERROR = N_("Error")
#: Seconds a client is asked to wait before trying a save again that met a busy database.
BUSY_RETRY_AFTER = 2
#: ... and one that found the database away (restarting, its disk full): longer.
AWAY_RETRY_AFTER = 5
BUSY = _l(
    "Another program is writing to the database (an import, or a backup), so nothing was "
    "saved. Try again in a moment."
)
AWAY = _l(
    "The database cannot be reached or written to just now (it may be restarting, or its "
    "disk may be full), so nothing was saved. Try again in a moment."
)

#: Werkzeug's own descriptions of the errors it raises itself (an unknown address, a method
#: a page does not take), marked so a page can show them translated.
WERKZEUG_DESCRIPTIONS = frozenset(
    {
        N_("The browser (or proxy) sent a request that this server could not understand."),
        N_(
            "You don't have the permission to access the requested resource. It is either"
            " read-protected or not readable by the server."
        ),
        N_(
            "The requested URL was not found on the server. If you entered the URL manually"
            " please check your spelling and try again."
        ),
        N_("The method is not allowed for the requested URL."),
        N_(
            "A conflict happened while processing the request. The resource might have been"
            " modified while the request was being processed."
        ),
        N_("The data value transmitted exceeds the capacity limit."),
    }
)


def _wants_json() -> bool:
    return (
        request.path.endswith(".json")
        or request.mimetype == "application/json"
        or request.accept_mimetypes.best == "application/json"
    )


def render_error(code: int, message: Any) -> tuple[str | Response, int]:
    """Render an error page (or JSON) with a plain message.

    ``message`` is a string, or a lazy one (``lazy_gettext``): the page shows it in the
    reader's language, JSON in English.
    """
    if _wants_json():
        with use_locale("en"):
            return jsonify(error=str(message)), code
    title = gettext(TITLES.get(code, ERROR))
    # str(): a lazy string would otherwise reach the page as markup, unescaped.
    return render_template("error.html", code=code, title=title, message=str(message)), code


def _description(error: HTTPException) -> Any:
    """What the error says: ours (maybe lazy), or Werkzeug's own, translated for a page."""
    description = error.description
    if not description:
        return _l(TITLES.get(error.code or 500, ERROR))
    if isinstance(description, str) and description in WERKZEUG_DESCRIPTIONS:
        return _l(description)
    return description


def init_app(app: Flask) -> None:
    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError) -> tuple[str | Response, int]:
        return render_error(
            400,
            _l(
                "This form had expired or came from elsewhere, so nothing was saved. "
                "Go back, reload the page and try again."
            ),
        )

    @app.errorhandler(NotFound)
    def not_found(error: NotFound) -> tuple[str | Response, int]:
        # Every "not found" a view lets through, said from its code (operations/errors.py).
        if _wants_json():
            return jsonify(error=message(error)), 404
        return render_error(404, explain(error))

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> tuple[str | Response, int] | HTTPException:
        if error.code is None or error.code < 400:
            return error
        if isinstance(error, InternalServerError):
            return internal_error(error)
        if error.code == 413:
            message = _l("That upload is too large; a game record is a small JSON file.")
        else:
            message = _description(error)
        return render_error(error.code, message)

    @app.errorhandler(DBAPIError)
    def database_away(error: DBAPIError) -> tuple[str | Response, int] | Response:
        # Another writer was in the way (SQLite gave up waiting for an import or a backup;
        # PostgreSQL broke a deadlock), or the database is not there for a moment (a restart,
        # a lost connection, a full disk, a read-only file): the change was rolled back whole,
        # so say so and ask for a retry (a phone's queue sends it again), never a 500.
        if busy(error):
            status, said, wait = "busy", BUSY, BUSY_RETRY_AFTER
        elif unavailable(error):
            status, said, wait = "unavailable", AWAY, AWAY_RETRY_AFTER
        else:
            return internal_error(error)
        log.warning("database %s on %s %s: %s", status, request.method, request.path, error.orig)
        recover()  # a lost connection goes back broken; the next request takes a sound one
        if _wants_json():  # a phone's queue: "send it again in ``retry_after`` seconds"
            with use_locale("en"):
                body: str | Response = jsonify(status=status, error=str(said), retry_after=wait)
        else:
            body, _ = render_error(503, said)
        response = app.make_response((body, 503))
        response.headers["Retry-After"] = str(wait)
        return response

    @app.errorhandler(Exception)
    def internal_error(error: Exception) -> tuple[str | Response, int]:
        log.exception("unhandled error on %s %s", request.method, request.path)
        return render_error(
            500, _l("Nothing was lost: what was saved before is still there. Please try again.")
        )
