"""Who may change the score sheets.

On 127.0.0.1 the app is open. An organiser who serves it to a network can set a
password (``SCOREKEEPER_PASSWORD`` in the environment, ``ORGANISER_PASSWORD`` in
instance/config.py, or ``scorekeeper set-password``, which stores only a hash in
the instance folder). Then every write (any POST) and every page that exists only
to write needs a login; the games, the scoreboard and the sheets stay readable.
"""

from __future__ import annotations

import hmac
import os
import threading
import time
from collections import defaultdict, deque
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from flask import Flask, current_app, redirect, request, session, url_for
from werkzeug.security import check_password_hash
from werkzeug.wrappers.response import Response

from ..errors import render_error

F = TypeVar("F", bound=Callable[..., Any])

PASSWORD_HASH_FILE = "organiser_password_hash"
#: Endpoints that anyone may POST to (logging in is how one gets permission; anyone may
#: pick their language).
OPEN_POSTS = {"auth.login", "language.switch"}
#: GET pages that exist only to change something: with a password set they need a login.
ORGANISER_PAGES = {
    "games.choose_variant",
    "games.new_game",
    "games.edit_hand",
    "games.undo",
    "games.delete",
    "games.import_game",
}


def organiser_page(view: F) -> F:
    """Mark a GET page that exists only to change something (a form), so it needs a login."""
    view.organiser_page = True  # type: ignore[attr-defined]
    return view


def password_hash_path(app: Flask) -> Path:
    return Path(app.instance_path) / PASSWORD_HASH_FILE


def password_required(app: Flask | None = None) -> bool:
    """Say whether an organiser password is set (so writes need a login)."""
    app = app or current_app._get_current_object()  # type: ignore[attr-defined]
    return bool(
        os.environ.get("SCOREKEEPER_PASSWORD")
        or app.config.get("ORGANISER_PASSWORD")
        or password_hash_path(app).exists()
    )


def check_password(candidate: str) -> bool:
    """Compare a login attempt with the organiser password, in constant time."""
    app = current_app
    plain = os.environ.get("SCOREKEEPER_PASSWORD") or app.config.get("ORGANISER_PASSWORD")
    if plain:
        return hmac.compare_digest(candidate.encode(), str(plain).encode())
    path = password_hash_path(app)
    if path.exists():
        return check_password_hash(path.read_text().strip(), candidate)
    return False


def can_write() -> bool:
    return not password_required() or bool(session.get("organiser"))


class LoginLimiter:
    """Refuse logins from an address after too many failures in a window (per process)."""

    def __init__(self, attempts: int = 5, window_seconds: float = 300.0) -> None:
        self.attempts = attempts
        self.window = window_seconds
        self._failures: dict[str, deque[float]] = defaultdict(deque)
        self._lock = threading.Lock()

    def _recent(self, key: str, now: float) -> deque[float]:
        failures = self._failures[key]
        while failures and now - failures[0] > self.window:
            failures.popleft()
        return failures

    def blocked_for(self, key: str) -> float:
        """Return how many seconds ``key`` must wait before trying again (0 if it may)."""
        now = time.monotonic()
        with self._lock:
            failures = self._recent(key, now)
            if len(failures) < self.attempts:
                return 0.0
            return max(0.0, self.window - (now - failures[0]))

    def failed(self, key: str) -> None:
        with self._lock:
            self._recent(key, time.monotonic()).append(time.monotonic())

    def succeeded(self, key: str) -> None:
        with self._lock:
            self._failures.pop(key, None)


def init_app(app: Flask) -> None:
    app.extensions["login_limiter"] = LoginLimiter(
        attempts=app.config.get("LOGIN_ATTEMPTS", 5),
        window_seconds=app.config.get("LOGIN_WINDOW_SECONDS", 300.0),
    )

    @app.before_request
    def require_organiser() -> Response | tuple[Any, int] | None:
        if not password_required(app) or session.get("organiser"):
            return None
        endpoint = request.endpoint or ""
        view = app.view_functions.get(endpoint)
        writes = request.method not in ("GET", "HEAD", "OPTIONS")
        page_only_writes = endpoint in ORGANISER_PAGES or getattr(view, "organiser_page", False)
        if endpoint in OPEN_POSTS or not (writes or page_only_writes):
            return None
        if writes and request.mimetype == "application/json":
            return render_error(403, "Log in as the organiser to change the score sheets.")
        target = request.full_path if request.method == "GET" else (request.referrer or "/")
        return redirect(url_for("auth.login", next=target))

    @app.context_processor
    def access_context() -> dict[str, Any]:
        return {"can_write": can_write(), "password_required": password_required(app)}
