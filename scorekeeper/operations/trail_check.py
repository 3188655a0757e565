"""A trail's chain walked: the first entry that does not hold, per game (``verify``).

The chain itself (the entries and what each one's hash covers) is ``trail``'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from ..data.database import run
from .rows import GameRow
from .statements import GAME
from .trail import CHANGE, Entry, entry_hash, entry_of, read_chain


def broken_at(chain: Sequence[Entry], holds: Sequence[bool] | None = None) -> int | None:
    """The place (``seq``) of the first entry that does not hold: its hash is not the hash of
    what it says, it does not name the hash before it, or an entry is missing before it.
    ``holds`` says for each entry whether its hash holds, if that was worked out already."""
    prev = ""
    for place, entry in enumerate(chain, start=1):
        if entry.seq != place or entry.prev_hash != prev:
            return entry.seq if entry.seq >= place else place
        held = holds[place - 1] if holds is not None else None
        if held is None:
            held = entry_hash(entry.fields, entry.prev_hash) == entry.hash
        if not held:
            return entry.seq
        prev = entry.hash
    return None


def checked_entries(row: GameRow) -> tuple[list[Entry], int | None]:
    """The game's trail, oldest first, and the first entry that does not hold (``broken_at``)."""
    read = read_chain(row)
    chain = [entry for entry, _ in read]
    return chain, broken_at(chain, [holds for _, holds in read])


@dataclass(frozen=True)
class ChainCheck:
    """One game's chain walked: how many entries, and the first broken one (None: whole)."""

    game_id: int
    game_created_at: datetime
    entries: int
    broken: int | None
    #: Whether the game itself is still kept (a deleted game's trail stays).
    kept: bool
    #: The broken entry's kind and hand, to name it.
    broken_kind: str | None = None
    broken_hand: int | None = None

    @property
    def whole(self) -> bool:
        return self.broken is None


def check(row: GameRow) -> ChainCheck:
    """Walk one game's chain."""
    chain, broken = checked_entries(row)
    return _checked(row.id, row.created_at, chain, broken, kept=True)


def _checked(
    game_id: int, created: datetime, chain: list[Entry], broken: int | None, *, kept: bool
) -> ChainCheck:
    found = next((e for e in chain if e.seq == broken), None)
    return ChainCheck(
        game_id,
        created,
        len(chain),
        broken,
        kept,
        found.kind if found else None,
        found.hand if found else None,
    )


def verify(game_id: int | None = None) -> list[ChainCheck]:
    """Walk the chain of every game that has a trail (or of ``game_id``), deleted games'
    included, in order of game."""
    wanted = select(CHANGE).order_by(CHANGE.c.game_id, CHANGE.c.game_created_at, CHANGE.c.seq)
    if game_id is not None:
        wanted = wanted.where(CHANGE.c.game_id == game_id)
    chains: dict[tuple[int, datetime], list[Entry]] = {}
    for found in run(wanted):
        chains.setdefault((found.game_id, found.game_created_at), []).append(entry_of(found))
    games = {
        (found.id, found.created_at)
        for found in run(
            select(GAME.c.id, GAME.c.created_at).where(GAME.c.id.in_([k[0] for k in chains]))
        )
    }
    return [
        _checked(key[0], key[1], chain, broken_at(chain), kept=key in games)
        for key, chain in chains.items()
    ]
