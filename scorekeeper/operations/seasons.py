"""League seasons: their events, the season's table (``rules.events.league``), and each
player's results at the events they played."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import insert, select

from ..data.database import run, write_transaction
from ..data.extensions import db
from ..data.models import SEASON_SCORINGS, utcnow
from ..rules import events as ev
from .errors import EventError, NotFound
from .events import EVENT, SEASON, EventInfo, EventState, events_of_player, info_of, state_of
from .standings import standings

# --- Seasons --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeasonInfo:
    id: int
    name: str
    scoring: str
    placing_points: list[int]
    created_at: datetime


def _season_row(season_id: int) -> SeasonInfo:
    found = db.session.execute(select(SEASON).where(SEASON.c.id == season_id)).first()
    if found is None:
        raise NotFound("no-season", id=season_id)
    values = found._mapping
    return SeasonInfo(**{name: values[name] for name in SeasonInfo.__dataclass_fields__})


def season(season_id: int) -> SeasonInfo:
    """A season; NotFound if there is none."""
    return _season_row(season_id)


def seasons() -> list[SeasonInfo]:
    """Every season, newest first."""
    rows = db.session.execute(
        select(SEASON).order_by(SEASON.c.created_at.desc(), SEASON.c.id.desc())
    )
    return [SeasonInfo(**{n: r._mapping[n] for n in SeasonInfo.__dataclass_fields__}) for r in rows]


def create_season(name: str, scoring: str, placing_points: Sequence[int]) -> int:
    """Start a season: ``scoring`` ``placing`` (``placing_points`` for 1st, 2nd...) or
    ``wins``. A name another season has is refused."""
    if scoring not in SEASON_SCORINGS:
        raise EventError("bad-scoring", value=scoring)
    if scoring == "placing" and (not placing_points or any(p < 0 for p in placing_points)):
        raise EventError("bad-placing-points")
    with write_transaction():
        taken = db.session.execute(select(SEASON.c.id).where(SEASON.c.name == name)).scalar()
        if taken is not None:
            raise EventError("season-name-taken", name=name)
        inserted = run(
            insert(SEASON),
            {
                "name": name,
                "scoring": scoring,
                "placing_points": list(placing_points),
                "created_at": utcnow(),
            },
        )
        return int(inserted.inserted_primary_key[0])  # type: ignore[index]  # an INSERT's key


def season_events(season_id: int) -> list[EventState]:
    """A season's events, oldest first, each with its games replayed."""
    rows = db.session.execute(
        select(EVENT).where(EVENT.c.season_id == season_id).order_by(EVENT.c.date, EVENT.c.id)
    )
    return [state_of(info_of(row)) for row in rows]


@dataclass(frozen=True)
class SeasonTable:
    """A season's table: its rows (``rules.events.season_table``), its events and the names."""

    season: SeasonInfo
    events: tuple[EventInfo, ...]
    rows: tuple[ev.SeasonRow, ...]
    names: dict[int, str]


def league_points(info: SeasonInfo) -> ev.LeaguePoints:
    if info.scoring == "wins":
        return ev.LeaguePoints(by=ev.LeagueBy.WIN, per_win=1)
    return ev.LeaguePoints(by=ev.LeagueBy.PLACE, per_place=tuple(info.placing_points))


def season_table(season_id: int) -> SeasonTable:
    """The season's table from its events' standings, oldest event first."""
    info = _season_row(season_id)
    states = season_events(season_id)
    names: dict[int, str] = {}
    for state in states:
        names.update(state.names())
    table = ev.season_table(
        {state.event.id: standings(state).engine for state in states}, league_points(info)
    )
    return SeasonTable(info, tuple(s.event for s in states), tuple(table), names)


@dataclass(frozen=True)
class LeagueResult:
    """A player's result at one league night: the event, the season, their place, wins and
    league points."""

    event: EventInfo
    season: SeasonInfo | None
    place: int | None
    wins: int
    points: int | None


def league_results(player_id: int) -> list[LeagueResult]:
    """A player's results at every event they played, newest first, with the league points
    each earned in its season."""
    found = []
    for info in events_of_player(player_id):
        state = state_of(info)
        lines = standings(state).engine
        mine = next((line for line in lines if line.entrant == player_id), None)
        season_info = _season_row(info.season_id) if info.season_id is not None else None
        points = None
        if season_info is not None and mine is not None:
            points = ev.event_points(mine, league_points(season_info))
        found.append(
            LeagueResult(
                info,
                season_info,
                None if mine is None else mine.place,
                0 if mine is None else mine.wins,
                points,
            )
        )
    return found
