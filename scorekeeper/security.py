"""Security headers on every response.

A Content-Security-Policy with no inline script (all scripts are files in
static/), no framing, no MIME sniffing. flask-talisman is unmaintained; these
few lines are all we need.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

from flask import Flask, abort, request
from flask_babel import lazy_gettext as _l
from werkzeug.wrappers.response import Response

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


def init_app(app: Flask) -> None:
    @app.before_request
    def refuse_nul_characters() -> None:
        """Refuse a NUL character anywhere in a form or query: no database text can hold one."""
        if _has_nul(request.args.items(multi=True)) or (
            request.method == "POST"
            and request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data")
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
