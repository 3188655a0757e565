"""Friendly error pages: no traceback ever reaches a player."""

from __future__ import annotations

import logging

from flask import Flask, jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, InternalServerError
from werkzeug.wrappers.response import Response

log = logging.getLogger(__name__)

TITLES = {
    400: "That request did not make sense",
    403: "Not allowed",
    404: "Not found",
    405: "Not allowed here",
    409: "Someone else changed this game",
    413: "That file is too large",
    500: "Something went wrong on our side",
}


def _wants_json() -> bool:
    return (
        request.path.endswith(".json")
        or request.mimetype == "application/json"
        or request.accept_mimetypes.best == "application/json"
    )


def render_error(code: int, message: str) -> tuple[str | Response, int]:
    """Render an error page (or JSON) with a plain message."""
    if _wants_json():
        return jsonify(error=message), code
    title = TITLES.get(code, "Error")
    return render_template("error.html", code=code, title=title, message=message), code


def init_app(app: Flask) -> None:
    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError) -> tuple[str | Response, int]:
        return render_error(
            400,
            "This form had expired or came from elsewhere, so nothing was saved. "
            "Go back, reload the page and try again.",
        )

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> tuple[str | Response, int] | HTTPException:
        if error.code is None or error.code < 400:
            return error
        if isinstance(error, InternalServerError):
            return internal_error(error)
        if error.code == 413:
            message = "That upload is too large; a game record is a small JSON file."
        else:
            message = error.description or TITLES.get(error.code, "Error")
        return render_error(error.code, message)

    @app.errorhandler(Exception)
    def internal_error(error: Exception) -> tuple[str | Response, int]:
        log.exception("unhandled error on %s %s", request.method, request.path)
        return render_error(
            500, "Nothing was lost: what was saved before is still there. Please try again."
        )
