"""The write transaction every change to a game runs in, and what each change rewrites.

Each write checks its input with the engine *before* writing (it replays the game with the
change applied), then writes in one transaction, so a rejected change writes nothing. Each
takes the game's ``version`` as the form saw it and refuses to write over a newer state.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy.exc import IntegrityError

from .. import rules
from ..data import models
from ..data.database import run, write_transaction
from ..data.extensions import db
from ..data.models import utcnow
from ..live import broker as live
from ..stats import cache as stats_cache
from .errors import Conflict
from .loading import keep
from .players import seat_players
from .rows import GAME_COLUMNS, GameRow, Loaded, engine_game
from .statements import UPDATE_GAME

# --- Writes ------------------------------------------------------------------------------------


def store_game(
    game: rules.Game, night_id: int | None = None, created_at: datetime | None = None
) -> Loaded:
    """Add a new game with its seats (and its new players) to the open transaction; return
    it as loaded, with no hand yet."""
    players = seat_players(game.players)
    seat_of = {name: i for i, name in enumerate(game.players)}
    row = models.Game(
        variant=game.variant.key,
        house_rules=dict(game.house_rules_given),
        teams=(
            [[team, [seat_of[p] for p in members]] for team, members in game.teams]
            if game.teams is not None
            else None
        ),
        first_dealer_seat=seat_of[game.first_dealer] if game.first_dealer is not None else None,
        stake=game.stake,
        called=game.called,
        night_id=night_id,
        **({"created_at": created_at} if created_at is not None else {}),
    )
    row.seats = [models.Seat(position=i, player_id=found) for i, (found, _) in enumerate(players)]
    db.session.add(row)
    db.session.flush()
    stored = GameRow(**{name: getattr(row, name) for name in GAME_COLUMNS}, night=None)
    spelled = tuple(name for _, name in players)
    if spelled != game.players:
        # A name the roster spells otherwise ("ana" typed, "Ana" there) is played as spelled
        # there, as every later read of the game will.
        game = engine_game(stored, spelled)
    return Loaded(stored, game, (), rules.score_game(game, ()), tuple(i for i, _ in players))


def cache_result(
    row: GameRow,
    result: rules.GameResult,
    player_ids: Sequence[int],
    now: datetime | None = None,
    existing: Mapping[int, Mapping[str, Any]] | None = None,
) -> GameRow:
    """Rewrite the derived columns from a fresh replay, and bump the version (one UPDATE
    of the table), and the players' statistics rows (``existing``: as read with the lock,
    if they were); return the row as it now is. ``now`` is the time of the change."""
    now = now or utcnow()
    changed = dataclasses.replace(
        row,
        finished=result.finished,
        winner=result.winner,
        finished_at=(row.finished_at or now) if result.finished else None,
        updated_at=now,
        version=row.version + 1,
        score_version=row.version + 1,
    )
    run(
        UPDATE_GAME,
        {
            "game_id": row.id,
            "finished": changed.finished,
            "winner": changed.winner,
            "finished_at": changed.finished_at,
            "updated_at": changed.updated_at,
            "version": changed.version,
            "score_version": changed.score_version,
        },
    )
    refresh_stats(changed, result, player_ids, existing)
    return changed


def refresh_stats(
    row: GameRow,
    result: rules.GameResult,
    player_ids: Sequence[int],
    existing: Mapping[int, Mapping[str, Any]] | None = None,
) -> None:
    stats_cache.refresh_game(row.id, row.created_at, row.variant, result, player_ids, existing)


def write(action: Any) -> Any:
    """Run ``action`` in a write transaction; a unique-key race becomes a Conflict."""
    try:
        with write_transaction():
            return action()
    except IntegrityError:
        raise Conflict(Conflict.BUSY) from None


#: ``create_game``'s default: the game joins the night being played, if one is.


def check_version(loaded: Loaded, version: int | None) -> None:
    """Refuse a form made from an older state of the game's scores: one made since the
    scores last changed is good, however many confirmations came after it."""
    row = loaded.row
    if version is not None and not row.score_version <= version <= row.version:
        raise Conflict(Conflict.STALE)


def rewritten(loaded: Loaded, hands: Sequence[rules.Hand], result: rules.GameResult) -> Loaded:
    """Rewrite the game's derived columns and version for its new hands; return the game as
    the change leaves it. Its open boards hear of it once this commits (live/broker.py)."""
    row = cache_result(loaded.row, result, loaded.player_ids, existing=loaded.stats)
    live.changed(row.id, row.version)
    return Loaded(row, loaded.game, tuple(hands), result, loaded.player_ids)


def write_game(action: Callable[[], Loaded]) -> rules.GameResult:
    """Run a change to one game, and keep the state it committed for the page that follows
    (a phone is sent to the game page next; it need not read and replay the game again)."""
    changed: Loaded = write(action)
    keep(changed)
    return changed.result
