"""Security headers on every response.

A Content-Security-Policy with no inline script (all scripts are files in
static/), no framing, no MIME sniffing. flask-talisman is unmaintained; these
few lines are all we need.
"""

from __future__ import annotations

from collections.abc import Iterable

from flask import Flask, abort, request
from flask_babel import lazy_gettext as _l
from werkzeug.wrappers.response import Response

from .network import host_is_served

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


def _has_nul(values: Iterable[tuple[str, str]]) -> bool:
    return any("\x00" in key or "\x00" in value for key, value in values)


def init_app(app: Flask) -> None:
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
