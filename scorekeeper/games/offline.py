"""Hands sent by a phone's script: the hand form's post answered in JSON, and the service worker.

A phone's script posts the hand form here (the same fields, the same CSRF token, a one-time
key it made itself) instead of to the game page, so it can tell a saved hand from a dropped
connection and keep the hand on the phone until the server has it (static/js/offline.js).
The hand is checked by the same form and recorded by the same ``operations.hands.record_hand`` as
the page's own form; the answer says in words what happened:

- ``saved`` (201): the hand, as the page says it;
- ``already-saved`` (200): the key recorded a hand before, which is named (never a second);
- ``undone`` (200): the key's hand was recorded and undone since; nothing was saved;
- ``conflict`` (409): the game moved past the hand's number; the hands recorded meanwhile;
- ``same`` (409): the hand is tapped as the last one was; post ``again`` to record it;
- ``refused`` (400, 404): nothing was saved, and ``messages`` say why.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, flash, jsonify, request
from flask_wtf.csrf import CSRFError

from .. import i18n, operations, rules
from ..i18n import gettext
from ..sheets.words import describe_hand
from ..web.forms import csrf
from . import forms

bp = Blueprint("offline", __name__)

#: The service worker, under the static folder (served from the root, below).
SERVICE_WORKER = "js/sw.js"


def _answer(status: str, code: int, **fields: Any) -> tuple[Response, int]:
    return jsonify(status=status, **fields), code


def _refused(*messages: str, code: int = 400) -> tuple[Response, int]:
    return _answer("refused", code, messages=list(messages))


def _number(name: str) -> int | None:
    raw = request.form.get(name, "")
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 10 else None


@bp.post("/games/<id:game_id>/hands.json")
@csrf.exempt
def queued_hand(game_id: int) -> tuple[Response, int]:
    """Record a hand posted by the phone's script, once, and say in JSON what happened."""
    if current_app.config.get("WTF_CSRF_ENABLED", True):
        # Checked here rather than by the blueprint-wide guard, to answer in JSON.
        try:
            csrf.protect()
        except CSRFError:
            return _refused(gettext("The page is too old to save from; reload it."))
    try:
        loaded = operations.loading.load(game_id)
    except operations.errors.NotFound as missing:
        return _refused(operations.errors.explain(missing), code=404)
    form = forms.hand_form(loaded.game)
    try:
        key = operations.hands.posted_key(request.form.get("token"))
    except ValueError:
        key = None
    number = _number("number")
    if key is None or number is None:
        return _refused(
            gettext("This form's key is not valid; nothing was saved. Tap the hand in again.")
        )
    try:
        if loaded.result.finished:
            operations.hands.check_key(key)
            return _refused(
                gettext(
                    "The game is over: %(winner)s won. Undo or edit a hand to change it.",
                    winner=loaded.result.winner,
                )
            )
        if not form.validate_on_submit():
            return _refused(
                *form.form_errors, *(message for _, message in form.needing_attention())
            )
        # No version: a queued hand was tapped on an older page. Its number and its key say
        # whether it still fits (the game has exactly number - 1 hands) and was not saved yet.
        result = operations.hands.record_hand(
            game_id,
            form.to_hand(loaded.result.next_dealer),
            version=None,
            key=key,
            number=number,
            ask_if_same=True,
            again=_number("again"),
        )
    except operations.errors.KeyUsed as used:
        return _key_used(game_id, used)
    except operations.errors.SameAsLast as same:
        now = operations.loading.load(game_id).result
        said = describe_hand(now, now.hands[same.number - 1])
        return _answer("same", 409, number=same.number, said=said)
    except operations.errors.Conflict as conflict:
        now = operations.loading.load(game_id).result
        recorded = [
            {"number": hand.number, "said": describe_hand(now, hand)}
            for hand in now.hands[number - 1 :]
        ]
        message = "" if recorded else operations.errors.explain(conflict)
        return _answer(
            "conflict",
            409,
            number=number,
            next=len(now.hands) + 1,
            recorded=recorded,
            message=message,
            finished=now.finished,
        )
    except rules.RuleError as error:
        return _refused(i18n.error_message(error))
    said = describe_hand(result, result.hands[-1])
    flash(said, "hand")
    return _answer("saved", 201, number=len(result.hands), said=said)


def _key_used(game_id: int, used: operations.errors.KeyUsed) -> tuple[Response, int]:
    """Answer a key that recorded a hand already: with that hand, never a second one."""
    if used.game_id != game_id:
        return _refused(gettext("This form was opened for another game; nothing was saved here."))
    now = operations.loading.load(game_id).result
    if used.kept and used.number <= len(now.hands):
        said = gettext(
            "Hand %(number)s was already saved: %(hand)s",
            number=used.number,
            hand=describe_hand(now, now.hands[used.number - 1]),
        )
        flash(said, "hand")
        return _answer("already-saved", 200, number=used.number, said=said)
    said = gettext(
        "This form saved hand %(number)s before, and it was undone since; nothing was saved.",
        number=used.number,
    )
    return _answer("undone", 200, number=used.number, said=said)


@bp.get("/sw.js")
def service_worker() -> Response:
    """Serve the service worker from the root, so its scope covers the game pages."""
    script = Path(current_app.static_folder or "static") / SERVICE_WORKER
    response = Response(script.read_bytes(), mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    return response
