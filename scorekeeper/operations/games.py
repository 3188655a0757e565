"""Every write of a whole game: create, import, delete, time called, and "Play again"."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from types import SimpleNamespace

from sqlalchemy import delete, insert, select

from .. import rules
from ..data import models
from ..data.database import run
from ..data.extensions import db
from ..live import broker as live
from ..stats import cache as stats_cache
from . import trail, trail_changes, trail_export
from .errors import AlreadyKept, Conflict, OperationError
from .kept import kept_like
from .loading import load
from .rows import GameRow, Loaded, engine_hand, hand_columns
from .rule_sets import save_rule_set
from .statements import GAME, GAME_TO_LOCK, HAND, UPDATE_GAME
from .writing import (
    cache_result,
    check_version,
    refresh_stats,
    rewritten,
    store_game,
    write,
    write_game,
)


def create_game(
    game: rules.Game,
    *,
    rule_set_name: str | None = None,
    replacing: int | None = None,
    night_id: int | None = None,
    follows: int | None = None,
    confirm_hands: bool = False,
) -> int:
    """Store a new game (already checked by ``rules.Game.create``) and return its id.

    With ``rule_set_name`` (checked as a name is), its house rules are saved under that
    name in the same transaction; a name another set has raises ``rule_sets.NameTaken``
    (nothing is written) unless ``replacing`` is that set's id. The game joins ``night_id``
    (a night that no longer exists: none), or no night: never a night just because it is
    open (another table's, say). With ``follows`` (a rematch), it becomes that finished
    game's next game if it has none yet, so a "Play again" tapped after it lands there
    (see ``play_again``). With ``confirm_hands``, each hand waits for a player of another
    side to confirm it (``operations.trail``).
    """

    def action() -> int:
        # The game followed is locked first, as play_again locks it.
        before = run(GAME_TO_LOCK, {"game_id": follows}).first() if follows is not None else None
        if rule_set_name is not None:
            save_rule_set(rule_set_name, game, replacing=replacing)
        night: int | None = None
        if night_id is not None:
            night = db.session.execute(
                select(models.Night.id).where(models.Night.id == night_id)
            ).scalar()
        new = store_game(game, night)
        if confirm_hands:
            run(UPDATE_GAME, {"game_id": new.row.id, "confirm_hands": True})
        refresh_stats(new.row, new.result, new.player_ids)
        if before is not None and before.finished and before.next_game_id is None:
            run(UPDATE_GAME, {"game_id": before.id, "next_game_id": new.row.id})
        return new.row.id

    result: int = write(action)
    return result


def store_record(
    record: rules.GameRecord,
    *,
    night_id: int | None = None,
    times: Mapping[str, datetime | None] | None = None,
) -> GameRow:
    """Add a parsed (so already valid) record's game and hands to the open transaction.

    ``times`` may give the game's ``created_at``, ``updated_at`` and ``finished_at`` (a
    backup's); those not given are now.
    """
    times = times or {}
    new = store_game(record.game, night_id, times.get("created_at"))
    row = new.row
    if times.get("finished_at") is not None:
        row = dataclasses.replace(row, finished_at=times["finished_at"])
    seat_of = {name: i for i, name in enumerate(record.game.players)}
    columns = [hand_columns(h, seat_of) for h in record.hands]
    if columns:
        run(
            insert(HAND),
            [{"game_id": row.id, "number": n, **c} for n, c in enumerate(columns, start=1)],
        )
    if new.game.players == record.game.players:
        result = record.score()
    else:  # a player the roster spells otherwise: the hands name them as it does
        hands = [engine_hand(SimpleNamespace(**c), new.game.players) for c in columns]
        result = rules.score_game(new.game, hands)
    stored = cache_result(row, result, new.player_ids, times.get("updated_at"))
    if record.trail is not None:
        trail_export.store_exported(stored, record.trail)
    return stored


def import_record(record: rules.GameRecord, *, again: int | None = None) -> int:
    """Store a parsed game record with all its hands; return the game's id.

    A record identical to a game kept already (``kept.kept_like``) raises ``AlreadyKept``
    naming that game, and nothing is written, unless ``again`` names it: the person saw it
    and asked for the game a second time."""
    same = kept_like([record])[0]
    if same and again not in same:
        raise AlreadyKept(id=same[0])

    def action() -> int:
        return store_record(record).id

    game_id: int = write(action)
    return game_id


def delete_game(game_id: int, *, version: int | None = None) -> None:
    """Delete a game with its seats and hands (its players stay on the roster)."""

    def action() -> None:
        loaded = load(game_id, for_update=True)
        check_version(loaded, version)
        trail.check_unlocked(loaded)
        trail_changes.deleted(loaded)
        stats_cache.forget_game(game_id)
        run(delete(GAME).where(GAME.c.id == game_id))
        live.deleted(game_id)

    write(action)


def call_time(game_id: int, *, version: int | None, after: int | None = None) -> rules.GameResult:
    """Call time on a game after the hand being played (RULES.md 11.4: ``called`` becomes
    the hands played so far and that one), as a tournament director does at the bell.

    ``after`` is the number of played hands the question named (a page asked "after hand
    N?"): if the game has moved on since, or ``version`` is not the game's, a ``Conflict``
    and nothing is written. A game won, or called already, or whose count of hands ends it
    with the hand being played anyway, raises ``OperationError`` (``time-not-callable``)."""

    def action() -> Loaded:
        loaded = load(game_id, for_update=True)
        check_version(loaded, version)
        if not loaded.result.time_can_be_called:
            raise OperationError("time-not-callable", id=game_id)
        if after is not None and loaded.result.time_called_now().called != after:
            raise Conflict(Conflict.STALE)
        return _called(loaded)

    return write_game(action)


@dataclass(frozen=True)
class NextGame:
    """The game "Play again" leads to: its id, and whether this call started it (False: an
    earlier tap or another phone did, and this one changed nothing)."""

    id: int
    started: bool


def play_again(game_id: int, *, version: int | None) -> NextGame:
    """Start the next game at a finished game's table, once (``rules.scoring.next_game``: the
    same seats, partnerships, variant, house rules and stake, the deal continuing to the
    left), in the finished game's night (none if it had none).

    Checked under the finished game's lock, which also remembers the new game: a second
    tap, or another phone at the same moment, gets the game already started. A game not
    finished raises ``OperationError("not-finished")``; a ``version`` the game has moved
    past (a hand corrected or undone since the question was asked), ``Conflict``.
    """

    def action() -> NextGame:
        loaded = load(game_id, for_update=True)
        if not loaded.result.finished:
            raise OperationError("not-finished", id=game_id)
        if loaded.row.next_game_id is not None:
            return NextGame(loaded.row.next_game_id, started=False)
        check_version(loaded, version)
        game = rules.scoring.next_game(loaded.result)
        new = store_game(game, loaded.row.night_id)
        if loaded.row.confirm_hands:  # the table plays on as it did
            run(UPDATE_GAME, {"game_id": new.row.id, "confirm_hands": True})
        refresh_stats(new.row, new.result, new.player_ids)
        run(UPDATE_GAME, {"game_id": game_id, "next_game_id": new.row.id})
        return NextGame(new.row.id, started=True)

    found: NextGame = write(action)
    return found


def calling_time(game_id: int) -> Loaded | None:
    """Call time on a game in the open transaction, as a tournament's round clock does at
    every table at once: it ends after the hand in play (RULES.md 11.4; the engine's
    ``GameResult.time_called_now``). A game that time cannot be called on (finished, called
    already, or ended by its count of hands with this hand anyway) is left as it is (None);
    otherwise the game as the call leaves it."""
    loaded = load(game_id, for_update=True)
    if not loaded.result.time_can_be_called:
        return None
    return _called(loaded)


def _called(loaded: Loaded) -> Loaded:
    """Write a call of time on a locked game it can be called on: its ``called``, derived
    columns and version, and the trail's entry; its boards hear of it once this commits."""
    trail.check_unlocked(loaded)
    game = loaded.result.time_called_now()
    result = rules.score_game(game, loaded.hands)
    run(UPDATE_GAME, {"game_id": loaded.row.id, "called": game.called})
    trail.append(loaded.row, trail.CALLED, detail={"after": game.called})
    called = dataclasses.replace(
        loaded, row=dataclasses.replace(loaded.row, called=game.called), game=game
    )
    return rewritten(called, loaded.hands, result)
