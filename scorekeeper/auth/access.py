"""Who may change the score sheets.

On 127.0.0.1 the app is open. An organiser who serves it to a network can set a
password (``SCOREKEEPER_PASSWORD`` in the environment, ``ORGANISER_PASSWORD`` in
instance/config.py, or ``scorekeeper set-password``, which stores only a hash in
the instance folder). Then every write (any POST) and every page that exists only
to write needs a login; the games, the scoreboard and the sheets stay readable. An event's
director (``directors``) needs none for that event and its games.

A login holds only while nothing has changed since: the session keeps an HMAC (under
the secret key) of the password as it stands (its stored hash, or the plain setting)
and of the install's login generation, a random value in ``instance/organiser_logins``.
Every request works it out again and compares. So setting a new password ends every
earlier login at once, and logging out, which draws a new generation, ends every
login on every device, a copied cookie's included. Workers that share the instance
folder share the generation.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from flask import Flask, current_app, has_request_context, redirect, request, session, url_for
from werkzeug.security import check_password_hash
from werkzeug.wrappers.response import Response

from ..web.errors import render_error

F = TypeVar("F", bound=Callable[..., Any])

PASSWORD_HASH_FILE = "organiser_password_hash"
#: The install's login generation: logging out draws a new one, ending every login.
LOGIN_GENERATION_FILE = "organiser_logins"
#: The session key that holds the organiser's proof of login.
SESSION_KEY = "organiser"
#: Endpoints that anyone may POST to (logging in is how one gets permission; anyone may
#: pick their language; a player confirms, disputes or signs on their own phone: that
#: changes no score, and the trail keeps who did; a device becomes an event's director by
#: the code the director gave it).
OPEN_POSTS = {
    "auth.login",
    "language.switch",
    "trail.answer",
    "trail.sign",
    "events.become_director",
}
#: GET pages that exist only to change something: with a password set they need a login.
ORGANISER_PAGES = {
    "setup.choose_variant",
    "setup.new_game",
    "games.edit_hand",
    "games.undo",
    "games.delete",
    "games.import_game",
}


def organiser_page(view: F) -> F:
    """Mark a GET page that exists only to change something (a form), so it needs a login."""
    view.organiser_page = True  # type: ignore[attr-defined]  # a mark on the view function
    return view


def password_hash_path(app: Flask) -> Path:
    return Path(app.instance_path) / PASSWORD_HASH_FILE


#: Where a request keeps whether a password is set, once looked up (its WSGI environ).
PASSWORD_SET_NOW = "scorekeeper.password_required"


def password_required(app: Flask | None = None) -> bool:
    """Say whether an organiser password is set (so writes need a login). A request looks
    once and keeps the answer for its own length (its checks, its page and its words then
    agree); ``scorekeeper set-password`` in another process is seen by the next request."""
    app = app or current_app._get_current_object()  # type: ignore[attr-defined]  # a LocalProxy hides it
    environ = request.environ if has_request_context() and current_app == app else None
    if environ is not None and PASSWORD_SET_NOW in environ:
        return bool(environ[PASSWORD_SET_NOW])
    found = bool(
        os.environ.get("SCOREKEEPER_PASSWORD")
        or app.config.get("ORGANISER_PASSWORD")
        or password_hash_path(app).exists()
    )
    if environ is not None:
        environ[PASSWORD_SET_NOW] = found
    return found


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


def _password_as_it_stands(app: Flask) -> str | None:
    """The organiser password as set now: the plain setting, or the stored hash."""
    plain = os.environ.get("SCOREKEEPER_PASSWORD") or app.config.get("ORGANISER_PASSWORD")
    if plain:
        return "plain:" + str(plain)
    try:
        return "hash:" + password_hash_path(app).read_text().strip()
    except FileNotFoundError:
        return None


def _generation_path(app: Flask) -> Path:
    return Path(app.instance_path) / LOGIN_GENERATION_FILE


def login_generation(app: Flask) -> str:
    """The install's login generation, drawn on first use (two workers at once agree)."""
    path = _generation_path(app)
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text().strip()
    value = secrets.token_hex(16)
    with os.fdopen(fd, "w") as handle:
        handle.write(value)
    return value


def end_every_login(app: Flask) -> None:
    """Draw a new login generation: every organiser login made before it no longer holds."""
    path = _generation_path(app)
    partial = path.with_name(f"{path.name}.{secrets.token_hex(4)}.part")
    partial.write_text(secrets.token_hex(16))
    partial.chmod(0o600)
    partial.replace(path)  # atomic: a request reads the old generation or the new one


def login_proof(app: Flask) -> str | None:
    """What the session of a login made now holds: tied to the password and the generation."""
    password = _password_as_it_stands(app)
    if password is None:
        return None
    message = f"{password}\0{login_generation(app)}".encode()
    key = str(app.config["SECRET_KEY"]).encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def is_organiser(app: Flask | None = None) -> bool:
    """Say whether this session holds a login that still stands."""
    app = app or current_app._get_current_object()  # type: ignore[attr-defined]  # a LocalProxy hides it
    held = session.get(SESSION_KEY)
    if not isinstance(held, str):
        return False
    proof = login_proof(app)
    return proof is not None and hmac.compare_digest(held, proof)


def can_write() -> bool:
    return not password_required() or is_organiser()


def init_app(app: Flask) -> None:
    @app.before_request
    def require_organiser() -> Response | tuple[Any, int] | None:
        if not password_required(app) or is_organiser(app):
            return None
        endpoint = request.endpoint or ""
        view = app.view_functions.get(endpoint)
        writes = request.method not in ("GET", "HEAD", "OPTIONS")
        page_only_writes = endpoint in ORGANISER_PAGES or getattr(view, "organiser_page", False)
        if endpoint in OPEN_POSTS or not (writes or page_only_writes):
            return None
        from .directors import director_request

        if director_request():  # an event's director, on that event and its games
            return None
        if writes and request.mimetype == "application/json":
            return render_error(403, "Log in as the organiser to change the score sheets.")
        target = request.full_path if request.method == "GET" else (request.referrer or "/")
        return redirect(url_for("auth.login", next=target))

    @app.context_processor
    def access_context() -> dict[str, Any]:
        return {"can_write": can_write(), "password_required": password_required(app)}
