"""Reading a game: load one (or lock it for a change), load a list page's games, export one.

A game is read as one row type, ``GameRow``, with its engine values and replayed result
(``Loaded``); the one cache of replays (``Replays``) sits behind ``load``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Sequence
from typing import Any

from .. import rules
from ..data.database import run
from ..lru import LRU, per_app
from ..stats import cache as stats_cache
from .errors import KeyUsed, NotFound
from .rows import GameRow, Loaded, Replay, engine_game, engine_hand, game_row
from .statements import (
    AFTER_THE_LOCK,
    GAME_TO_CHANGE,
    GAME_TO_READ,
    GAMES_TO_READ,
    HANDS_OF,
    SEATED,
    SEATED_OF,
)


class Replays(LRU[Replay]):
    """The engine's view of the games last loaded or written in this process: their game,
    hands and result, by game id, creation time and version.

    A phone records a hand and is sent to the game page; without this, the form's POST
    and the page after it each read every hand and replayed the game again. Every change
    to a game bumps its version in the transaction that makes it (see ``cache_result``
    and ``operations.players``), and an entry is added only for a version that was
    committed, so an entry is never stale; the creation time tells a game from a later
    one that reused a deleted game's id. The oldest entries make way.
    """

    def __init__(self, size: int = 64) -> None:
        super().__init__(size)

    @staticmethod
    def key(row: GameRow) -> Hashable:
        return (row.id, row.created_at, row.version)


def replays() -> Replays:
    """This app's replays."""
    return per_app("scorekeeper.replays", Replays)


# Statements a page or a hand runs every time are built once, here: building one costs


def load(game_id: int, *, for_update: bool = False) -> Loaded:
    """Load a game and replay it; raise NotFound if there is no such game.

    ``for_update``, its row is locked (on PostgreSQL) until the transaction ends, for a
    change to it; its night is then not read.
    """
    if for_update:
        return lock(game_id, None)
    found = run(GAME_TO_READ, {"game_id": game_id}).first()
    if found is None:
        raise NotFound(id=game_id)
    return _replayed(game_row(found))


def lock(game_id: int, key: str | None) -> Loaded:
    """``load(game_id, for_update=True)``, with the game's statistics rows as the lock
    leaves them; and raise ``KeyUsed`` if ``key`` (a hand form's) recorded a hand."""
    found = run(GAME_TO_CHANGE, {"game_id": game_id, "key": key}).all()
    if not found:
        raise NotFound(id=game_id)
    game, rest = found[0], found
    if game.seen_version != game.version:  # the lock waited for another change: read again
        rest = run(AFTER_THE_LOCK, {"game_id": game_id, "key": key}).all()
    if key is not None and rest[0].key_game_id is not None:
        used = rest[0]
        raise KeyUsed(used.key_game_id, used.key_number, used.key_hand_id is not None)
    loaded = _replayed(game_row(game))
    return dataclasses.replace(loaded, stats=stats_cache.rows_joined(rest))


def _replayed(row: GameRow) -> Loaded:
    """A game row with its replay: the one kept in Replays, or made now (and kept)."""
    key = Replays.key(row)
    known = replays().get(key)
    if known is not None:
        return Loaded(row, *known)
    seated = list(run(SEATED, {"game_id": row.id}))
    loaded = _replay(row, seated, _stored_hands([row.id]).get(row.id, ()))
    keep(loaded)
    return loaded


def keep(loaded: Loaded) -> None:
    replays().put(
        Replays.key(loaded.row), (loaded.game, loaded.hands, loaded.result, loaded.player_ids)
    )


def load_many(
    game_ids: Sequence[int], *, cache: Replays | None = None
) -> dict[int, Loaded | rules.RuleError]:
    """Load and replay a list page's games in three queries, not two or three per game.

    Maps each id to its game, or to the RuleError of a game that no longer replays;
    an id with no game is left out. (For reading only: nothing is locked.) A game kept
    in Replays (one just played, say) is not read or replayed again; the others are not
    added there, so a list does not push the games being played out of it. With ``cache``
    (an event's, whose hundred tables would push each other out of Replays), the replays are
    looked for there as well, and the ones made are kept there.
    """
    ids = list(game_ids)
    rows = [game_row(found) for found in run(GAMES_TO_READ, {"game_ids": ids})]
    kept: Replays | _Both = replays() if cache is None else _Both(replays(), cache)
    known = {row.id: replay for row in rows if (replay := kept.get(Replays.key(row))) is not None}
    found: dict[int, Loaded | rules.RuleError] = {}
    seated: dict[int, list[Any]] = {}
    hands: dict[int, list[Any]] = {}
    if len(known) < len(rows):
        wanted = [row.id for row in rows if row.id not in known]
        for seat in run(SEATED_OF, {"game_ids": wanted}):
            seated.setdefault(seat.game_id, []).append(seat)
        hands = _stored_hands(wanted)
    for row in rows:
        if row.id in known:
            found[row.id] = Loaded(row, *known[row.id])
            continue
        try:
            found[row.id] = _replay(row, seated.get(row.id, []), hands.get(row.id, ()))
        except rules.RuleError as error:
            found[row.id] = error
            continue
        if cache is not None:
            made = found[row.id]
            assert isinstance(made, Loaded)
            cache.put(Replays.key(row), (made.game, made.hands, made.result, made.player_ids))
    return found


class _Both:
    """Replays looked for in the app's cache, then in another."""

    def __init__(self, first: Replays, second: Replays) -> None:
        self.first, self.second = first, second

    def get(self, key: Hashable) -> Replay | None:
        return self.first.get(key) or self.second.get(key)


def _stored_hands(game_ids: Sequence[int]) -> dict[int, list[Any]]:
    """Read the games' hands, in order, as rows of the columns the engine reads."""
    found: dict[int, list[Any]] = {}
    for hand in run(HANDS_OF, {"game_ids": list(game_ids)}):
        found.setdefault(hand.game_id, []).append(hand)
    return found


def _replay(row: GameRow, seated: Sequence[Any], stored: Sequence[Any]) -> Loaded:
    """Replay a game from its row, its players (id and name, in seat order) and its hands."""
    game = engine_game(row, [seat.name for seat in seated])
    hands = tuple(engine_hand(h, game.players) for h in stored)
    result = rules.score_game(game, hands)
    return Loaded(row, game, hands, result, tuple(seat.id for seat in seated))


def export_record(loaded: Loaded) -> dict[str, Any]:
    """Write the game record (GAME-RECORD.md) of a stored game, with its trail if it has one
    (the optional ``trail`` key, which scoring ignores and an import keeps)."""
    from .trail_export import exported  # the trail reads a game as this module does

    record = rules.record_to_json(loaded.game, loaded.hands)
    kept = exported(loaded)
    if kept is not None:
        record["trail"] = kept
    return record
