"""The other side's answers and the signatures: ``POST /games/<id>/hands/<n>/answer``
(confirm or dispute), ``POST /games/<id>/sign``, ``POST /games/<id>/unlock`` (the organiser,
or on an event's game its director).

Every request says once who makes its changes (``operations.trail.acting``): on an event's
game the event's director (``auth.directors``), the organiser when logged in, else the
phone by the label it chose (posted as ``device``), so each write of the request, whichever
page made it, lands in the trail with its who.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, g, redirect, request, url_for
from werkzeug.wrappers.response import Response as BaseResponse

from .. import operations
from ..auth.access import is_organiser, password_required
from ..auth.directors import directs_game
from ..i18n import gettext, isolated
from ..operations.errors import OperationError, explain
from ..operations.trail import Signed
from ..web.errors import render_error

bp = Blueprint("trail", __name__)
bp.add_app_template_global(directs_game, "directs_game")


def event_game(game_id: int) -> bool:
    """Whether the game is played at an event (its signed game is its director's to change)."""
    return operations.events.event_of_game(game_id) is not None


bp.add_app_template_global(event_game, "event_game")

#: The form field (and header, for a script) a phone's label comes in.
DEVICE_FIELD = "device"
DEVICE_HEADER = "X-Scorekeeper-Device"


def who_acts() -> str:
    """Who this request's changes are made by: on an event's game, its director's browser
    acts as the director."""
    game_id = (request.view_args or {}).get("game_id")
    if isinstance(game_id, int) and directs_game(game_id):
        return operations.trail.DIRECTOR
    if password_required() and is_organiser():
        return operations.trail.ORGANISER
    label = request.form.get(DEVICE_FIELD) if request.form else None
    return operations.trail.device(label or request.headers.get(DEVICE_HEADER))


@bp.before_app_request
def _say_who_acts() -> None:
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    g.trail_acting = operations.trail.set_acting(who_acts())


@bp.teardown_app_request
def _forget_who_acted(_error: BaseException | None) -> None:
    token = g.pop("trail_acting", None)
    if token is not None:
        operations.trail.reset_acting(token)


def signed_said(error: Signed) -> str:
    """Why a signed game's change is refused, in words (an event's game is corrected by its
    director); the page's 403 says it, and the script's hand door (``games/offline.py``)."""
    game_id = error.params.get("game")
    if isinstance(game_id, int) and event_game(game_id):
        return explain(OperationError("signed-event", **error.params))
    return explain(error)


@bp.app_errorhandler(Signed)
def _signed(error: Signed) -> Any:
    """A signed game's correction, undo or deletion from a table phone: said in words."""
    return render_error(403, signed_said(error))


def _back(game_id: int) -> BaseResponse:
    return redirect(url_for("games.show", game_id=game_id) + "#flashes")


def _label() -> str:
    return operations.trail.clean_label(request.form.get(DEVICE_FIELD))


@bp.post("/games/<id:game_id>/hands/<id:number>/answer")
def answer(game_id: int, number: int) -> BaseResponse:
    """A player of the other side confirms or disputes a hand (on their phone, or by tapping
    their name on the recording one). Confirming changes no score."""
    name = request.form.get("name", "")
    disputed = request.form.get("answer") == "dispute"
    try:
        if disputed:
            operations.trail.dispute(game_id, number, name, label=_label())
        else:
            operations.trail.confirm(game_id, number, name, label=_label())
    except OperationError as error:
        if error.code == "no-game":
            raise
        flash(explain(error), "error")
        return _back(game_id)
    if disputed:
        said = gettext("Hand %(number)s disputed by %(name)s.", number=number, name=isolated(name))
        flash(said, "error")
    else:
        said = gettext("Hand %(number)s confirmed by %(name)s.", number=number, name=isolated(name))
        flash(said, "hand")
    return _back(game_id)


@bp.post("/games/<id:game_id>/sign")
def sign(game_id: int) -> BaseResponse:
    """A player signs the result and the settlement for their side; the last side locks it."""
    name = request.form.get("name", "")
    try:
        locked = operations.trail_signing.sign(game_id, name, label=_label())
    except OperationError as error:
        if error.code == "no-game":
            raise
        flash(explain(error), "error")
        return _back(game_id)
    if locked:
        flash(gettext("Signed by every side: the game is locked."), "hand")
    else:
        flash(gettext("Signed by %(name)s.", name=isolated(name)), "hand")
    return _back(game_id)


@bp.post("/games/<id:game_id>/unlock")
def unlock(game_id: int) -> BaseResponse:
    """The organiser opens a signed game again (kept in the trail)."""
    operations.trail_signing.unlock(game_id)
    flash(gettext("The game is open again: the signatures no longer count."), "info")
    return _back(game_id)
