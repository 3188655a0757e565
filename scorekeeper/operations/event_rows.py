"""An event's rounds and tables as stored, read once for each version of the event.

A room's board redraws at every hand saved at any table, and between two of them only a
game has changed: the rounds and tables (a hundred rows a round, their seats and sides)
are what every write to them says by moving the event's version (``events.bump_version``,
in the same transaction), so they are kept by event and version, per app.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from ..data import models
from ..data.extensions import db
from ..lru import LRU, per_app

ROUND = models.EventRound.__table__
TABLE = models.EventTable.__table__
#: Events whose rounds and tables are kept (a night has one; a director may open others).
KEPT = 8

#: A table as stored: its number, its game's id, its seats and its sides (as tuples).
Table = tuple[int, int | None, tuple[int, ...], tuple[tuple[int, ...], ...] | None]
#: Each round's row, with its tables in order.
Rows = tuple[tuple[Any, tuple[Table, ...]], ...]


def rounds_and_tables(event_id: int, version: int, *, kept: bool) -> Rows:
    """The event's rounds, in order, each with its tables. ``kept``: as read once for this
    version; a table's game deleted since (its row's ``game_id`` set to NULL, which moves
    no version) is the caller's to see, by the games it loads. Without, read afresh (and
    kept)."""
    cache = per_app("scorekeeper.operations.event_rows", lambda: LRU[Rows](KEPT))
    found = cache.get((event_id, version)) if kept else None
    if found is not None:
        return found
    rounds = tuple(
        db.session.execute(
            select(ROUND).where(ROUND.c.event_id == event_id).order_by(ROUND.c.number)
        )
    )
    tables = tuple(
        db.session.execute(
            select(TABLE, ROUND.c.number.label("round_number"))
            .select_from(TABLE.join(ROUND, ROUND.c.id == TABLE.c.round_id))
            .where(ROUND.c.event_id == event_id)
            .order_by(ROUND.c.number, TABLE.c.number)
        )
    )
    by_round: dict[int, list[Table]] = {}
    for t in tables:
        sides = None if t.sides is None else tuple(tuple(side) for side in t.sides)
        by_round.setdefault(t.round_number, []).append((t.number, t.game_id, tuple(t.seats), sides))
    found = tuple((r, tuple(by_round.get(r.number, ()))) for r in rounds)
    cache.put((event_id, version), found)
    return found
