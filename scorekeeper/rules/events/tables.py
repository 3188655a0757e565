"""The seating's values: a seat, a table, a round; and the small helpers every format uses.

Players (and teams) are opaque ids, ``int``s. Tables are numbered from 1, and **table 1 is
the head table**; seats are numbered from 0 clockwise. At a partnership table the partners
sit opposite: seats 0 and 2 against seats 1 and 3.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeAlias

from ..errors import Phrase
from .errors import EventError

#: A player (or a team): an opaque id.
Player: TypeAlias = int
Team: TypeAlias = int
#: A round's results for ``progressive_next``: per table number, its winning side (at a
#: partnership table) or all its players best first (at a table each for themselves, see
#: ``cutthroat_ranking``).
Results: TypeAlias = Mapping[int, Sequence[Player]]


@dataclass(frozen=True)
class Seat:
    """One player's place in a round: table (1 is the head table) and seat (0 first)."""

    table: int
    seat: int
    player: Player


@dataclass(frozen=True)
class Table:
    """One table of a round.

    ``players`` in seat order (seat 0 first). ``sides`` are who plays together: at a
    partnership table ``((seat 0, seat 2), (seat 1, seat 3))``; at a table each for
    themselves one side per player, in seat order.
    """

    number: int
    players: tuple[Player, ...]
    sides: tuple[tuple[Player, ...], ...]

    @property
    def partnership(self) -> bool:
        """Whether the table plays in partnerships (sides of two) rather than each alone."""
        return len(self.sides) > 0 and all(len(side) > 1 for side in self.sides)

    @property
    def seats(self) -> tuple[Seat, ...]:
        return tuple(Seat(self.number, i, p) for i, p in enumerate(self.players))

    def side_of(self, player: Player) -> tuple[Player, ...]:
        """The side ``player`` plays on at this table (KeyError if not seated here)."""
        for side in self.sides:
            if player in side:
                return side
        raise KeyError(player)


@dataclass(frozen=True)
class Round:
    """One round's seating: its tables (head table first) and who sits out (byes)."""

    number: int
    tables: tuple[Table, ...]
    byes: tuple[Player, ...] = ()
    _where: dict[Player, Seat] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        where = {s.player: s for t in self.tables for s in t.seats}
        object.__setattr__(self, "_where", where)

    @property
    def seats(self) -> tuple[Seat, ...]:
        """Every seated player's seat, table by table, seat by seat."""
        return tuple(s for t in self.tables for s in t.seats)

    @property
    def players(self) -> tuple[Player, ...]:
        """Everyone in the round: seated (table by table, seat by seat), then the byes."""
        return (*(s.player for s in self.seats), *self.byes)

    def seat_of(self, player: Player) -> Seat | None:
        """Where ``player`` sits this round, or None (a bye, or not in the round)."""
        return self._where.get(player)

    def table(self, number: int) -> Table:
        """The table numbered ``number`` (KeyError if the round has none)."""
        if 1 <= number <= len(self.tables) and self.tables[number - 1].number == number:
            return self.tables[number - 1]
        for t in self.tables:
            if t.number == number:
                return t
        raise KeyError(number)


def enough_players(count: int, minimum: int, format: Phrase) -> None:
    """Refuse fewer than ``minimum`` players for ``format`` (an event's words, say)."""
    if count < minimum:
        raise EventError("too-few-players", format=format, min=minimum, count=count)


def _listed_once(ids: Iterable[int], kind: str) -> list[int]:
    """The ids as a list, refusing one listed twice with ``EventError("<kind>-twice")``."""
    seen: set[int] = set()
    listed = []
    for one in ids:
        if one in seen:
            raise EventError(f"{kind}-twice", **{kind: one})
        seen.add(one)
        listed.append(one)
    return listed


def distinct(players: Iterable[Player]) -> list[Player]:
    """The players as a list, refusing one listed twice."""
    return _listed_once(players, "player")


def cutthroat(number: int, players: Sequence[Player]) -> Table:
    return Table(number, tuple(players), tuple((p,) for p in players))


def partnership(number: int, one: tuple[Player, Player], other: tuple[Player, Player]) -> Table:
    """A table of 4, partners opposite: ``one`` in seats 0 and 2, ``other`` in 1 and 3."""
    return Table(number, (one[0], other[0], one[1], other[1]), (one, other))


def pair(a: Player, b: Player) -> tuple[Player, Player]:
    return (a, b) if a <= b else (b, a)


def distinct_teams(teams: Iterable[Team]) -> list[Team]:
    """The teams as a list, refusing one listed twice."""
    return _listed_once(teams, "team")
