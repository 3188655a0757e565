"""Where each hand of a round's tables stands with the other side, read from their trails at
once: which hands still wait for a confirmation and which were disputed (the director's
screen shows them; a disputed hand holds the next round back: ``rounds.start_round``).

One query for every table of the round, however many (a game page reads its own trail with
``trail.entries``; the director's screen, polled while a hall plays, must not read a
hundred). Only the columns a hand's mark is read from are fetched; the marks themselves are
``trail.marks``', so the screen and the game page cannot disagree.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from sqlalchemy import select

from ..data import models
from ..data.database import run
from .rows import Loaded
from .trail import CONFIRMED, DISPUTED, Entry, HandMark, marks

CHANGE = models.Change.__table__


@dataclass(frozen=True)
class TableMarks:
    """One table's game as the other side left it: the hands still waiting for a
    confirmation and those disputed (numbers, in order), and whether every side signed."""

    game_id: int
    waiting: tuple[int, ...] = ()
    disputed: tuple[int, ...] = ()
    signed: bool = False

    @property
    def unconfirmed(self) -> int:
        """How many hands are not confirmed yet (waiting or disputed)."""
        return len(self.waiting) + len(self.disputed)


def hand_marks(games: Iterable[Loaded]) -> dict[int, dict[int, HandMark]]:
    """Each game's hands' marks (``trail.marks``), by game id, in one query."""
    wanted = {loaded.row.id: loaded for loaded in games}
    if not wanted:
        return {}
    chains: dict[int, list[Entry]] = {game_id: [] for game_id in wanted}
    rows = run(
        select(
            CHANGE.c.game_id,
            CHANGE.c.game_created_at,
            CHANGE.c.seq,
            CHANGE.c.kind,
            CHANGE.c.at,
            CHANGE.c.who,
            CHANGE.c.hand,
        )
        .where(CHANGE.c.game_id.in_(sorted(wanted)), CHANGE.c.hand.is_not(None))
        .order_by(CHANGE.c.game_id, CHANGE.c.seq)
    )
    for found in rows:
        # A deleted game's trail stays under its id: only this game's own entries count.
        if found.game_created_at != wanted[found.game_id].row.created_at:
            continue
        chains[found.game_id].append(
            Entry(seq=found.seq, kind=found.kind, at=found.at, who=found.who, hand=found.hand)
        )
    return {game_id: marks(chain, len(wanted[game_id].hands)) for game_id, chain in chains.items()}


def table_marks(games: Iterable[Loaded]) -> dict[int, TableMarks]:
    """Each game's unconfirmed and disputed hands, by game id (a game that asks for no
    confirmation has none), in one query for them all."""
    games = list(games)
    found = hand_marks(loaded for loaded in games if loaded.row.confirm_hands)
    out: dict[int, TableMarks] = {}
    for loaded in games:
        game_id = loaded.row.id
        signed = loaded.row.signed_at is not None
        of_game: Mapping[int, HandMark] = found.get(game_id, {})
        waiting = tuple(
            n for n in range(1, len(loaded.hands) + 1) if _state(of_game, n) not in _SETTLED
        )
        disputed = tuple(n for n in waiting if _state(of_game, n) == DISPUTED)
        waiting = tuple(n for n in waiting if n not in disputed)
        out[game_id] = TableMarks(game_id, waiting, disputed, signed)
    return out


#: A hand with no mark was stored before the trail began (or imported without one): it
#: waits for nobody.
_SETTLED = (CONFIRMED, None)


def _state(of_game: Mapping[int, HandMark], number: int) -> str | None:
    mark = of_game.get(number)
    return None if mark is None else mark.state
