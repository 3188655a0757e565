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

from .errors import EventError
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


def _check(points: LeaguePoints) -> None:
    numbers = (*points.per_place, points.per_win, points.attendance)
    if any(isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in numbers):
        raise EventError("league-points")


def event_points(standing: Standing, points: LeaguePoints) -> int:
    """League points for one player's line at one event: by place (nothing past the list)
    or by wins, and the attendance points."""
    _check(points)
    if points.by is LeagueBy.WIN:
        earned = points.per_win * standing.wins
    elif standing.place <= len(points.per_place):
        earned = points.per_place[standing.place - 1]
    else:
        earned = 0
    return earned + points.attendance


def season_table(
    events: Mapping[int, Sequence[Standing]], points: LeaguePoints = LeaguePoints()
) -> tuple[SeasonRow, ...]:
    """The season table from each event's standings (event id -> its standings), in the
    order given. A player is in an event once they played or sat out a round of it (a
    registration with no round is not attendance)."""
    _check(points)
    lines: dict[Player, list[EventLine]] = {}
    for event, table in events.items():
        for standing in table:
            if standing.rounds:
                line = EventLine(
                    event, standing.place, standing.wins, event_points(standing, points)
                )
                lines.setdefault(standing.entrant, []).append(line)
    totals = {
        player: (
            sum(line.league_points for line in own),
            sum(line.place == 1 for line in own),
            sum(line.wins for line in own),
            len(own),
        )
        for player, own in lines.items()
    }
    ranked = sorted(lines, key=lambda p: (tuple(-n for n in totals[p]), p))
    rows: list[SeasonRow] = []
    for player in ranked:
        league_points, firsts, wins, attended = totals[player]
        same = [p for p in ranked if totals[p] == totals[player]]
        place = ranked.index(same[0]) + 1
        rows.append(
            SeasonRow(
                place=place,
                shared=len(same) > 1,
                player=player,
                league_points=league_points,
                attended=attended,
                firsts=firsts,
                wins=wins,
                best_place=min(line.place for line in lines[player]),
                events=tuple(lines[player]),
            )
        )
    return tuple(rows)
