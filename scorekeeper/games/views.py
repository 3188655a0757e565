"""The game pages: set up a game, record hands, correct them, watch the board, import, export.

Long because: each view is a screen long, and a game's pages are one blueprint (``games.*``,
the endpoint names the templates and the organiser's guard use) sharing the same few helpers
(the game's version sent back, the page's context, the conflict said in words); split, they
would import each other. What a view reads, compares or builds is in ``receive``,
``compare``, ``form_class`` and the page models.
"""

from __future__ import annotations

import json
from typing import Any, NoReturn

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import lazy_gettext as _l
from werkzeug.wrappers.response import Response as BaseResponse

from .. import i18n, operations, rules
from ..auth.access import organiser_page
from ..i18n import gettext
from ..live import broker as live
from ..operations.errors import Conflict, NotFound
from ..operations.rows import Loaded
from ..sheets.hand import hand_view
from ..sheets.model import game_snapshot, next_game_seats
from ..sheets.words import describe_hand, summarize_hand
from ..web.forms import csrf
from ..web.routing import parse_id
from . import compare, form_class, forms, queries, receive

bp = Blueprint("games", __name__)

ViewResult = str | BaseResponse | tuple[str, int] | tuple[BaseResponse, int]


def _version() -> int:
    """Read the game version the form was made from; every change must name one."""
    version = _number("version")
    if version is None:
        _unreadable_form()
    return version


def _unreadable_form() -> NoReturn:
    abort(
        400,
        _l(
            "This form does not say which state of the game it was made from; "
            "reload the page and try again. Nothing was saved."
        ),
    )


@bp.get("/")
def index() -> str:
    """Show the games in progress and the latest finished ones."""
    return render_template(
        "games/index.html",
        playing=queries.playing(),
        finished=queries.finished_lately(),
        variants=rules.VARIANTS,
    )


@bp.route("/games/<id:game_id>", methods=["GET", "POST"])
def show(game_id: int) -> ViewResult:
    """Show the game at the table: standings, who deals, the hand form, the score sheet; a
    hand posted from its form is received (``receive.receive_hand``) and answered here."""
    if request.method == "POST":
        outcome = receive.receive_hand(game_id, request.form, sent_by_phone=False)
        if outcome.form is None or outcome.loaded is None:
            # Saved, saved before, or undone since: the sentence, on the page after.
            flash(outcome.said, "error" if outcome.kind is receive.Kind.UNDONE else "hand")
            return redirect(url_for("games.show", game_id=game_id) + SAID)
        return _game_page(outcome.loaded, outcome.form, outcome), ANSWERED[outcome.kind]
    loaded = operations.loading.load(game_id)
    return _game_page(loaded, form_class.hand_form(loaded.game, loaded.result.next_dealer))


#: Where a page scrolls to after a save: the sentence of what happened, then the scores.
SAID = "#flashes"
#: The status of a game page that answers a hand it did not save.
ANSWERED = {receive.Kind.MOVED_ON: 409, receive.Kind.SAME: 409, receive.Kind.REFUSED: 400}


def _game_page(
    loaded: Loaded, form: forms.HandFormBase, outcome: receive.Outcome | None = None
) -> str:
    """The game page with its hand form (for the next hand, unless it says which)."""
    form.version.data = str(loaded.row.version)
    if not form.number.data:
        form.number.data = str(len(loaded.hands) + 1)
    return render_template("games/game.html", **_page_context(loaded), form=form, outcome=outcome)


def _number(name: str) -> int | None:
    """A number the form posted (its version, the hand it is for, the one it repeats), if
    any; one that is not a number is a 400."""
    raw = request.form.get(name, "")
    if not raw:
        return None
    number = parse_id(raw)
    if number is None:
        _unreadable_form()
    return number


def _conflict_message(error: Conflict) -> str:
    """Say what a Conflict says, in the reader's language."""
    return operations.errors.explain(error)


def _page_context(loaded: Loaded) -> dict[str, Any]:
    return {"game": game_snapshot(loaded), "loaded": loaded}


@bp.route("/games/<id:game_id>/hands/<id:number>/edit", methods=["GET", "POST"])
def edit_hand(game_id: int, number: int) -> ViewResult:
    """Correct an earlier hand; every later score, the winner and the settlement follow.

    Posted with ``correct`` (a phone's hand the table chose to make this hand), the form is
    shown filled in with it beside the hand as recorded, to check and save: nothing is saved
    yet. A correction that moves the win earlier asks first, naming the hands after the new
    winning hand; its yes (``cut_after``) removes them with the correction, in one write."""
    loaded = operations.loading.load(game_id)
    if not 1 <= number <= len(loaded.hands):
        raise NotFound("no-hand", game=game_id, number=number)
    recorded = loaded.result.hands[number - 1]
    form = form_class.hand_form(loaded.game, recorded.usual_dealer)
    status = 200
    moves: operations.errors.WinMoves | None = None
    review = None
    if request.method == "GET":
        form.fill_from(loaded.hands[number - 1])
    elif "correct" in request.form:
        form.validate()
        review = compare.compared(form, loaded, number)
    elif form.validate_on_submit():
        try:
            operations.hands.replace_hand(
                game_id,
                number,
                form.to_hand(recorded.usual_dealer),
                version=_version(),
                cut_after=_number("cut_after"),
                key=_posted_key(),
            )
        except rules.RuleError as error:
            form.attach_error(error)
            status = 400
        except operations.errors.WinMoves as error:
            moves = error
            status = 409
        except Conflict as error:
            form.form_errors.append(_conflict_message(error))
            loaded = operations.loading.load(game_id)
            status = 409
        else:
            flash(
                gettext(
                    "Hand %(number)s corrected; every later score was worked out again.",
                    number=number,
                ),
                "hand",
            )
            return redirect(url_for("games.show", game_id=game_id))
    else:
        status = 400
    form.version.data = str(loaded.row.version)
    result = loaded.result
    return render_template(
        "games/edit_hand.html",
        **_page_context(loaded),
        form=form,
        number=number,
        hand=loaded.result.hands[number - 1],
        review=review,
        moves=moves,
        moves_said="" if moves is None else operations.errors.explain(moves),
        removed=[]
        if moves is None
        else [(n, summarize_hand(result, result.hands[n - 1])) for n in moves.removed],
    ), status


def _posted_key() -> str | None:
    """The one-time key a correction was posted with, if any and sound: a phone's kept hand
    the table made this correction of (``operations.hands.replace_hand`` keeps it)."""
    try:
        return operations.hands.posted_key(request.form.get("token"))
    except ValueError:
        return None


@bp.route("/games/<id:game_id>/undo", methods=["GET", "POST"])
def undo(game_id: int) -> ViewResult:
    """Take back the last hand recorded, after asking once (naming the hand)."""
    loaded = operations.loading.load(game_id)
    if not loaded.hands:
        flash(gettext("There is no hand to undo."), "error")
        return redirect(url_for("games.show", game_id=game_id))
    number = _number("number") if request.method == "POST" else None
    if number is None:
        # Asked first, on a page of its own: one stray tap removes nothing.
        result = loaded.result
        return render_template(
            "games/undo.html",
            **_page_context(loaded),
            number=len(result.hands),
            summary=summarize_hand(result, result.hands[-1]),
            said=describe_hand(result, result.hands[-1]),
        )
    try:
        if number != len(loaded.hands):
            raise Conflict(Conflict.STALE)
        operations.hands.undo_last_hand(game_id, version=_version())
    except Conflict as error:
        flash(_conflict_message(error), "error")
    except NotFound:
        flash(gettext("There is no hand to undo."), "error")
    else:
        flash(gettext("Hand %(number)s was undone.", number=number), "hand")
    return redirect(url_for("games.show", game_id=game_id) + SAID)


@bp.route("/games/<id:game_id>/delete", methods=["GET", "POST"])
def delete(game_id: int) -> ViewResult:
    """Delete a whole game, after asking."""
    loaded = operations.loading.load(game_id)
    if request.method == "POST":
        try:
            operations.games.delete_game(game_id, version=_version())
        except Conflict as error:
            flash(_conflict_message(error), "error")
            return redirect(url_for("games.delete", game_id=game_id))
        flash(gettext("Game %(number)s was deleted.", number=game_id), "info")
        return redirect(url_for("games.index"))
    return render_template("games/delete.html", **_page_context(loaded))


@bp.get("/games/<id:game_id>/call-time")
@organiser_page
def call_time_question(game_id: int) -> ViewResult:
    """Ask once before calling time on a game (RULES.md 11.4), naming the hand it is called
    after: one stray tap ends no game."""
    loaded = operations.loading.load(game_id)
    if not loaded.result.time_can_be_called:
        flash(_not_callable(game_id), "error")
        return redirect(url_for("games.show", game_id=game_id))
    return render_template("games/call_time.html", **_page_context(loaded))


@bp.post("/games/<id:game_id>/call-time")
def call_time(game_id: int) -> ViewResult:
    """Call time after the hand being played, once: the yes names the game's version and
    the hand it was asked for, so a yes for a game that moved on since calls nothing."""
    version, after = _version(), _number("after")
    try:
        result = operations.games.call_time(game_id, version=version, after=after)
    except Conflict as error:
        flash(_conflict_message(error), "error")
        return redirect(url_for("games.show", game_id=game_id) + SAID)
    except operations.errors.OperationError as error:
        flash(operations.errors.explain(error), "error")
        return redirect(url_for("games.show", game_id=game_id) + SAID)
    flash(
        gettext(
            "Time called: the highest score after hand %(hand)s wins; a tie plays on.",
            hand=len(result.hands) + (result.hands_left or 0),
        ),
        "info",
    )
    return redirect(url_for("games.show", game_id=game_id) + SAID)


def _not_callable(game_id: int) -> str:
    return operations.errors.explain(
        operations.errors.OperationError("time-not-callable", id=game_id)
    )


@bp.get("/games/<id:game_id>/board")
def board(game_id: int) -> str:
    """Show the standings large, read-only, updated in place when a hand is saved."""
    loaded = operations.loading.load(game_id)
    # Without the chart, which the board does not show (it was half the board's cost).
    return live.drawn_once(
        (game_id, loaded.row.created_at, loaded.row.version),
        lambda: render_template(
            "games/board.html", game=game_snapshot(loaded, chart=False), loaded=loaded
        ),
    )


@bp.get("/games/<id:game_id>/version.json")
def version(game_id: int) -> Response:
    """Tell the scoreboard the game's version, so it reloads only when something changed."""
    found = queries.game_version(game_id)
    if found is None:
        raise NotFound(id=game_id)
    return jsonify(version=found)


@bp.get("/games/<id:game_id>.json")
def export(game_id: int) -> Response:
    """Download the game record (GAME-RECORD.md)."""
    loaded = operations.loading.load(game_id)
    body = rules.dumps(operations.loading.export_record(loaded))
    response = Response(body, mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="game-{game_id}.json"'
    return response


@bp.route("/games/import", methods=["GET", "POST"])
@csrf.exempt
def import_game() -> ViewResult:
    """Create a game from a game record: an uploaded file, or the JSON as the request body.

    A record identical to a game kept already is not imported unless asked (``again``: the
    id of that game, as the question offers it); the page names the game and links to it,
    a JSON answer is a 409 naming it."""
    as_json = request.mimetype == "application/json"
    error: str | None = None
    kept: int | None = None
    text: bytes | str = ""
    if request.method == "POST":
        if as_json:
            # A JSON body cannot be sent cross-site without a CORS preflight, which we
            # never grant; a form post (the only kind a browser sends freely) needs the token.
            text = request.get_data()
        else:
            # Exempted above for JSON bodies, so check the token here (unless turned off).
            if current_app.config.get("WTF_CSRF_ENABLED", True):
                csrf.protect()
            upload = request.files.get("record")
            text = upload.read() if upload is not None else request.form.get("record_text", "")
            if not text:
                error = gettext("Choose a game record file (.json) to import.")
        again = parse_id(request.values.get("again", ""))
        if error is None:
            try:
                record = _record_to_import(text)
                game_id = operations.games.import_record(record, again=again)
            except rules.RuleError as rule_error:
                # A JSON answer stays in English, as the record format does.
                error = str(rule_error) if as_json else i18n.error_message(rule_error)
            except operations.errors.AlreadyKept as same:
                kept = int(same.params["id"])
                if as_json:
                    return _json_error(operations.errors.message(same), 409, game=kept)
            except operations.errors.OperationError as refused:
                said = operations.errors.message if as_json else operations.errors.explain
                error = said(refused)
            else:
                if as_json:
                    return jsonify(id=game_id, url=url_for("games.show", game_id=game_id)), 201
                flash(gettext("The game was imported."), "info")
                return redirect(url_for("games.show", game_id=game_id), 303)
        if as_json:
            return _json_error(error or "", 400)
    status = 409 if kept is not None else 400 if error else 200
    record_text = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
    return render_template(
        "games/import.html", error=error, kept=kept, record_text=record_text
    ), status


def _record_to_import(text: str | bytes) -> rules.GameRecord:
    """Parse a posted record; a file of every game (export-all's) is told where it goes."""
    try:
        return rules.loads_record(text)
    except rules.RuleError as error:
        if error.code == "unknown-key" and _is_collection(text):
            raise operations.errors.OperationError("collection-file") from None
        raise


def _is_collection(text: str | bytes) -> bool:
    """Whether ``text`` is an export-all file (its format names a collection)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return False
    return isinstance(data, dict) and str(data.get("format", "")).startswith(
        "pitch-scorekeeper/collection"
    )


def _json_error(error: str, status: int, **more: Any) -> Response:
    """A JSON answer refusing an import: ``{"error": "..."}`` (and what else it names)."""
    body = {"error": error, **more}
    return Response(json.dumps(body), status=status, mimetype="application/json")


@bp.get("/games/<id:game_id>/again")
@organiser_page
def play_again_question(game_id: int) -> ViewResult:
    """Ask once before starting the next game at a finished game's table (one stray tap
    starts nothing): the seats, who deals first, the rules, the stake and the night."""
    loaded = operations.loading.load(game_id)
    if not loaded.result.finished:
        flash(
            operations.errors.explain(operations.errors.OperationError("not-finished", id=game_id)),
            "error",
        )
        return redirect(url_for("games.show", game_id=game_id))
    if loaded.row.next_game_id is not None:
        return _already_played_again(loaded.row.next_game_id)
    next_game = rules.scoring.next_game(loaded.result)
    return render_template(
        "games/again.html",
        **_page_context(loaded),
        seats=next_game_seats(next_game),
        dealer=next_game.dealer_first,
        partnership=next_game.teams is not None,
    )


@bp.post("/games/<id:game_id>/again")
def play_again(game_id: int) -> ViewResult:
    """Start the next game at the same table, once: a second tap, or another phone, lands on
    the game already started."""
    operations.loading.load(game_id)
    try:
        found = operations.games.play_again(game_id, version=_version())
    except Conflict as error:
        flash(_conflict_message(error), "error")
        return redirect(url_for("games.play_again_question", game_id=game_id))
    except operations.errors.OperationError as error:
        flash(operations.errors.explain(error), "error")
        return redirect(url_for("games.show", game_id=game_id))
    if not found.started:
        return _already_played_again(found.id)
    loaded = operations.loading.load(found.id)
    flash(
        gettext(
            "Game %(number)s started: the same table, %(dealer)s deals first.",
            number=found.id,
            dealer=loaded.game.dealer_first,
        ),
        "info",
    )
    return redirect(url_for("games.show", game_id=found.id))


def _already_played_again(next_game_id: int) -> BaseResponse:
    """Send a second "Play again" to the game the first one started, saying so."""
    flash(
        gettext(
            "The next game was already started from that one: this is it, game %(number)s.",
            number=next_game_id,
        ),
        "info",
    )
    return redirect(url_for("games.show", game_id=next_game_id))


@bp.get("/games/<id:game_id>/hands/<id:number>")
def show_hand(game_id: int, number: int) -> str:
    """Say one hand in words: who dealt, who bid what, who took each point, what each side
    scored and the scores after it; a link corrects it."""
    loaded = operations.loading.load(game_id)
    game = game_snapshot(loaded, chart=False)
    hand = hand_view(game, number)
    if hand is None:
        raise NotFound("no-hand", game=game_id, number=number)
    result = loaded.result
    return render_template(
        "games/hand.html",
        game=game,
        hand=hand,
        said=describe_hand(result, result.hands[number - 1]),
    )
