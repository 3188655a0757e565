"""Security headers on every response.

A Content-Security-Policy with no inline script (all scripts are files in
static/), no framing, no MIME sniffing. flask-talisman is unmaintained; these
few lines are all we need.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import IO
from urllib.parse import unquote_to_bytes, urlsplit

import flask
from flask import Flask, abort, request
from flask.sessions import SecureCookieSessionInterface
from flask_babel import lazy_gettext as _l
from itsdangerous import URLSafeTimedSerializer
from werkzeug.wrappers.response import Response

from ..serving.network import host_is_served

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}


def safe_target(target: str | None, default: str = "/") -> str:
    """Where to send the browser back to (``?next=``): ``target`` if it is a path on this
    site, else ``default``.

    Never another site (no scheme or host, no ``//``, no backslash, which browsers read
    as a slash), and only printable text: a line break cannot go into a Location header.
    """
    if (
        not target
        or not target.startswith("/")
        or target.startswith("//")
        or "\\" in target
        or not target.isprintable()
    ):
        return default
    parts = urlsplit(target)
    return default if parts.scheme or parts.netloc else target


def _has_nul(values: Iterable[tuple[str, str]]) -> bool:
    return any("\x00" in key or "\x00" in value for key, value in values)


def _not_text(raw: bytes) -> str | None:
    """Name the first field of a query or form body (``a=1&b=2``) whose name or value is not
    UTF-8 once unescaped, or None. (Werkzeug would keep such bytes as ``%FF`` text.)"""
    for pair in raw.split(b"&"):
        name, _, value = pair.partition(b"=")
        for part in (name, value):
            try:
                unquote_to_bytes(part.replace(b"+", b" ")).decode()
            except UnicodeDecodeError:
                return unquote_to_bytes(name.replace(b"+", b" ")).decode(errors="replace")
    return None


#: U+FFFD: what a multipart form's field holds where its bytes were not UTF-8.
REPLACEMENT = "\ufffd"
FORM_BODIES = ("application/x-www-form-urlencoded", "multipart/form-data")


def _refuse_bytes_that_are_not_text() -> None:
    """Refuse a query or form field that is not UTF-8 text, before the form is read: no
    browser sends one, and kept as it comes it would be stored as ``%FF`` or ``\ufffd``."""
    field = _not_text(request.query_string)
    if field is None and request.method == "POST":
        if request.mimetype == FORM_BODIES[0]:
            field = _not_text(request.get_data(cache=True))  # the form is then read from it
        elif request.mimetype == FORM_BODIES[1]:
            field = next(
                (key for key, value in request.form.items(multi=True) if REPLACEMENT in value),
                None,
            )
    if field is not None:
        abort(
            400,
            _l(
                'The field "%(field)s" is not valid text (UTF-8), so it was refused and '
                "nothing was saved.",
                field=field[:40],
            ),
        )


def _refuse_fields_without_a_name() -> None:
    """Refuse a multipart form with a part that names no field: no browser sends one, and
    Werkzeug keeps it under no name at all (``name="\\"`` is a quote left open, so no name),
    which nothing reading a form expects."""
    if request.method != "POST" or request.mimetype != FORM_BODIES[1]:
        return
    if None in request.form or None in request.files:
        abort(
            400,
            _l(
                "A part of the form has no field name, so the form was refused and nothing "
                "was saved."
            ),
        )


class Request(flask.Request):
    """Flask's request, closing every file it opened for an upload when it ends: Werkzeug
    closes the files of the parts it finished, but leaves a part that a cut-short body never
    finished to the garbage collector, open until then."""

    def _get_file_stream(
        self,
        total_content_length: int | None,
        content_type: str | None,
        filename: str | None = None,
        content_length: int | None = None,
    ) -> IO[bytes]:
        stream = super()._get_file_stream(
            total_content_length, content_type, filename, content_length
        )
        self.__dict__.setdefault("_opened_files", []).append(stream)
        return stream

    def close(self) -> None:
        super().close()
        for stream in self.__dict__.get("_opened_files", ()):
            stream.close()


class SignedCookieSessions(SecureCookieSessionInterface):
    """Flask's signed cookie session, its signing serializer made once for the app's keys
    (Flask makes one on every request, and every page and hand reads the session)."""

    def __init__(self) -> None:
        self._made: tuple[tuple[object, ...], URLSafeTimedSerializer | None] | None = None

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        keys = (app.secret_key, *(app.config.get("SECRET_KEY_FALLBACKS") or ()))
        made = self._made
        if made is None or made[0] != keys:
            made = self._made = (keys, super().get_signing_serializer(app))
        return made[1]


def init_app(app: Flask) -> None:
    app.request_class = Request
    app.session_interface = SignedCookieSessions()

    @app.before_request
    def refuse_other_hosts() -> None:
        """Answer only as the hosts the app is served as: a page elsewhere that points its
        own name at this machine (DNS rebinding) still sends its own name as the Host."""
        hosts = app.config.get("SERVED_HOSTS")
        if hosts is not None and not host_is_served(request.headers.get("Host"), hosts):
            abort(
                400,
                _l(
                    "This address is not one the scorekeeper is served as. Open it by the "
                    "address the organiser gave you."
                ),
            )

    @app.before_request
    def refuse_what_no_text_can_hold() -> None:
        """Refuse bytes that are not text, a form field with no name, and a NUL character
        anywhere in a form or query: no database text can hold one."""
        _refuse_fields_without_a_name()
        _refuse_bytes_that_are_not_text()
        if _has_nul(request.args.items(multi=True)) or (
            request.method == "POST"
            and request.mimetype in FORM_BODIES
            and _has_nul(request.form.items(multi=True))
        ):
            abort(
                400,
                _l(
                    "The form contained a NUL character, which nothing here can hold. "
                    "Nothing was saved."
                ),
            )

    @app.after_request
    def add_security_headers(response: Response) -> Response:
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        return response
