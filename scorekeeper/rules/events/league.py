"""A season's table: several events' standings added up into league points and attendance.

A league scores each event one of two ways (``LeaguePoints``): **per place** (the first
gets ``per_place[0]``, the second ``per_place[1]``... and places past the list get
nothing) or **per win** (``per_win`` for each game won in the event, a bye counted as the
event counted it). Either way ``attendance`` points are added for every event a player
took part in. Players level on a shared place each get that place's points (two second
places both score the second's). The season ranks by league points, then events won
(first places), then total wins, then attendance; those still level share the place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from .seating import Player
from .standings import Standing


class LeagueBy(StrEnum):
    """What earns league points at an event."""

    PLACE = "place"
    WIN = "win"


@dataclass(frozen=True)
class LeaguePoints:
    """How a league scores an event (the default: 10, 8, 6, 5, 4, 3, 2, 1 for the top 8)."""

    by: LeagueBy = LeagueBy.PLACE
    per_place: tuple[int, ...] = (10, 8, 6, 5, 4, 3, 2, 1)
    per_win: int = 1
    attendance: int = 0


@dataclass(frozen=True)
class EventLine:
    """One player's result at one event of the season."""

    event: int
    place: int
    wins: int
    league_points: int


@dataclass(frozen=True)
class SeasonRow:
    """One player's line in the season table."""

    place: int
    shared: bool
    player: Player
    league_points: int
    #: Events taken part in, and how many of them won outright or shared at first.
    attended: int
    firsts: int
    wins: int
    best_place: int
    #: Event by event, in the order the events were given.
    events: tuple[EventLine, ...]


def event_points(standing: Standing, points: LeaguePoints) -> int:
    """League points for one player's line at one event."""
    raise NotImplementedError


def season_table(
    events: Mapping[int, Sequence[Standing]], points: LeaguePoints = LeaguePoints()
) -> tuple[SeasonRow, ...]:
    """The season table from each event's standings (event id -> its standings), in the
    order given. A player appears once they took part in an event."""
    raise NotImplementedError
