"""Hands sent by a phone's script: the hand form's post answered in JSON, and the service worker.

A phone's script posts the hand form here (the same fields, the same CSRF token, a one-time
key it made itself) instead of to the game page, so it can tell a saved hand from a dropped
connection and keep the hand on the phone until the server has it (static/js/offline.js).
The hand is received by the same ``receive.receive_hand`` as the page's own form; this door
only says its outcome in JSON, in words:

- ``saved`` (201): the hand, as the page says it, and whether it ended the game;
- ``already-saved`` (200): the key recorded this very hand before, which is named;
- ``undone`` (200): the key's hand was recorded and undone since; nothing was saved;
- ``conflict`` (409): the game is not where the hand was tapped: the hands recorded
  meanwhile, the next hand's number, and this hand beside the one in its place
  (``compare``: every choice, its taker on each, the differences marked);
- ``same`` (409): the hand is tapped as the last one was; post ``again`` to record it;
- ``refused`` (400, 403, 404): nothing was saved, and ``messages`` say why (403: the game
  is signed by every side, and this phone may not change it).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, flash, jsonify, request, url_for
from flask_wtf.csrf import CSRFError

from .. import operations
from ..i18n import gettext
from ..trail.views import signed_said
from ..web.forms import csrf
from . import receive

bp = Blueprint("offline", __name__)

#: The service worker, under the static folder (served from the root, below).
SERVICE_WORKER = "js/sw.js"

#: Each outcome's status code.
ANSWERED = {
    receive.Kind.SAVED: 201,
    receive.Kind.ALREADY_SAVED: 200,
    receive.Kind.UNDONE: 200,
    receive.Kind.MOVED_ON: 409,
    receive.Kind.SAME: 409,
    receive.Kind.REFUSED: 400,
}


def _refused(*messages: str, code: int = 400) -> tuple[Response, int]:
    return jsonify(status=receive.Kind.REFUSED.value, messages=list(messages)), code


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
        outcome = receive.receive_hand(game_id, request.form, sent_by_phone=True)
    except operations.errors.NotFound as missing:
        return _refused(operations.errors.explain(missing), code=404)
    except operations.trail.Signed as signed:
        # Signed by every side: the page's 403 in words, so the phone says them and the
        # table drops the hand (no correction is offered that could not be saved).
        return _refused(signed_said(signed), code=403)
    if outcome.finished and outcome.kind in (receive.Kind.SAVED, receive.Kind.ALREADY_SAVED):
        # The phone opens the game page afresh on a game won (the settlement): said there.
        # Otherwise it says the hand itself, in place, and nothing is left for a later page.
        flash(outcome.said, "hand")
    return jsonify(status=outcome.kind.value, **_said(game_id, outcome)), ANSWERED[outcome.kind]


def _said(game_id: int, outcome: receive.Outcome) -> dict[str, Any]:
    """What each outcome says, besides its status."""
    kind = outcome.kind
    if kind is receive.Kind.REFUSED:
        return {"messages": list(outcome.messages)}
    if kind is receive.Kind.SAVED:
        return {"number": outcome.number, "said": outcome.said, "finished": outcome.finished}
    if kind is receive.Kind.ALREADY_SAVED:
        return {"number": outcome.number, "said": outcome.said, "finished": outcome.finished}
    if kind is not receive.Kind.MOVED_ON:
        return {"number": outcome.number, "said": outcome.said}
    found = outcome.disagreement
    compare = None
    if found is not None:
        compare = {
            "number": found.number,
            "said": found.said,
            "here": found.from_this_form,
            "rows": [
                {"label": r.label, "mine": r.mine, "theirs": r.theirs, "differs": r.differs}
                for r in found.rows
            ],
            "correct": url_for("games.edit_hand", game_id=game_id, number=found.number),
        }
    return {
        "number": outcome.number,
        "next": outcome.next_number,
        "recorded": [{"number": h.number, "said": h.said} for h in outcome.recorded],
        "message": " ".join(outcome.messages),
        "finished": outcome.finished,
        "compare": compare,
    }


@bp.get("/sw.js")
def service_worker() -> Response:
    """Serve the service worker from the root, so its scope covers the game pages."""
    script = Path(current_app.static_folder or "static") / SERVICE_WORKER
    response = Response(script.read_bytes(), mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    return response
