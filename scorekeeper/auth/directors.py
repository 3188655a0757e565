"""Who directs an event: the browser that set it up, and any device that entered the event's
director's code (``operations.directors``). Either holds a mark in its signed session: the
event's id and an HMAC (under the secret key) of the code's stored hash, worked out again
on every request, so drawing a new code ends every other device's direction at once, as a
new organiser password ends every login.

A director's requests on their event's games act as ``trail.DIRECTOR`` (the trail says
"the director", and a signed game's correction goes through); the event's own changes
(the rounds, the clock, registration) are the director's. The organiser, logged in, may
do them too; and with no password set, so may whoever sits at the serving machine itself
(a request from a loopback address): the laptop the night is run from, and the way back in
for a director whose browser lost its session.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
from typing import Any

from flask import current_app, g, request, session

from .. import operations
from .access import is_organiser, password_required

#: The session key of the events this browser directs: event id → {"proof", "code"}.
SESSION_KEY = "directs"
#: The most events one session directs (the oldest mark goes first): a cookie stays small.
MOST_EVENTS = 12


def _proof(event_id: int, code_hash: str) -> str:
    key = str(current_app.config["SECRET_KEY"]).encode()
    message = f"director\0{event_id}\0{code_hash}".encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def _marks() -> dict[str, Any]:
    held = session.get(SESSION_KEY)
    return held if isinstance(held, dict) else {}


def mark_director(event_id: int, code: str | None) -> None:
    """Make this browser the event's director (``code``: the code as shown, kept to show it
    again on this browser's director's screen; only this browser's cookie holds it)."""
    code_hash = operations.directors.code_hash(event_id)
    if code_hash is None:
        return
    marks = {k: v for k, v in _marks().items() if k != str(event_id)}
    marks[str(event_id)] = {"proof": _proof(event_id, code_hash), "code": code}
    session[SESSION_KEY] = dict(list(marks.items())[-MOST_EVENTS:])
    g.pop("directs", None)


def is_director(event_id: int) -> bool:
    """Whether this browser holds a director's mark for the event that still stands."""
    held = _marks().get(str(event_id))
    if not isinstance(held, dict) or not isinstance(held.get("proof"), str):
        return False
    known: dict[int, bool] = g.setdefault("directs", {})
    if event_id not in known:
        code_hash = operations.directors.code_hash(event_id)
        known[event_id] = code_hash is not None and hmac.compare_digest(
            held["proof"], _proof(event_id, code_hash)
        )
    return known[event_id]


def shown_code(event_id: int) -> str | None:
    """The director's code, for this browser's director's screen (if it holds it)."""
    if not is_director(event_id):
        return None
    code = _marks()[str(event_id)].get("code")
    return code if isinstance(code, str) else None


def from_this_machine() -> bool:
    """Whether the request comes from the serving machine itself (a loopback address)."""
    try:
        return ipaddress.ip_address(request.remote_addr or "").is_loopback
    except ValueError:
        return False


def may_direct(event_id: int) -> bool:
    """Whether this request may make the event's own changes: its director, the organiser
    logged in, or (no password set) the serving machine itself."""
    if is_director(event_id):
        return True
    if password_required():
        return is_organiser()
    return from_this_machine()


def event_of_game(game_id: int) -> int | None:
    """The event a game is played at, if the session directs any (else no query)."""
    if not _marks():
        return None
    found = operations.events.event_of_game(game_id)
    return None if found is None else found[0]


def directs_game(game_id: int) -> bool:
    """Whether this browser directs the event the game is played at."""
    event_id = event_of_game(game_id)
    return event_id is not None and is_director(event_id)


def director_request() -> bool:
    """Whether this request is a director's on their own event or one of its games (so an
    organiser password does not stand in its way: the director was given the code)."""
    args = request.view_args or {}
    if isinstance(args.get("event_id"), int):
        return is_director(args["event_id"])
    if isinstance(args.get("game_id"), int):
        return directs_game(args["game_id"])
    return False


def _code_key(event_id: int) -> str:
    """Whose tries at an event's code are counted: this address's, at this event (the
    organiser login's limit, ``operations.logins``: one count for every worker)."""
    return f"director {event_id} {request.remote_addr or 'unknown'}"


def code_attempt(event_id: int) -> float:
    """Count a try at the event's director's code before it is checked (a slow hash); return
    the seconds this address must wait instead (0: go on and check it). The organiser
    login's limit: ``LOGIN_ATTEMPTS`` tries in ``LOGIN_WINDOW_SECONDS``."""
    return operations.logins.attempt(
        _code_key(event_id),
        attempts=current_app.config.get("LOGIN_ATTEMPTS", 5),
        window_seconds=current_app.config.get("LOGIN_WINDOW_SECONDS", 300.0),
    )


def code_succeeded(event_id: int) -> None:
    """The code was right: forget this address's wrong tries at it."""
    operations.logins.succeeded(_code_key(event_id))
