"""Reading events (tournaments and league nights): their setup, players, rounds and tables
with each table's game replayed, as plain values; the lock a change to an event takes.

An event is its setup (``models.Event``), its players, and its rounds; each round's tables
are ordinary games, recorded by the tables' phones through the usual hand path
(``operations.hands``). Nothing about the standings is stored: they come from those games'
replays (``operations.standings``). Setting up and registering are ``event_setup``'s; the
rounds, their seating and clock ``rounds``'; seasons ``seasons``'."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from sqlalchemy import func, select, update

from .. import rules
from ..data import models
from ..data.database import run
from ..data.extensions import db
from ..data.models import utcnow
from ..live import broker as live
from ..lru import per_app
from .errors import Conflict, NotFound
from .event_rows import rounds_and_tables
from .loading import Replays, load_many
from .rows import Loaded

EVENT = models.Event.__table__
ENTRANT = models.EventPlayer.__table__
ROUND = models.EventRound.__table__
TABLE = models.EventTable.__table__
SEASON = models.Season.__table__
KNOCKOUT = models.EventKnockoutGame.__table__
PLAYER = models.Player.__table__

#: The most rounds an event may have, and the longest round clock (minutes).
MAX_ROUNDS = 30
MAX_ROUND_MINUTES = 600
#: The most players an event may have (a hall of 100 tables, and the door's latecomers).
MAX_PLAYERS = 500
#: Formats whose tables play in partnerships of two (seats 0 and 2 against 1 and 3).
PARTNERSHIP_FORMATS = ("progressive", "round-robin", "teams")


# --- What is read -------------------------------------------------------------------------------


@dataclass(frozen=True)
class EventInfo:
    """An event's setup as stored."""

    id: int
    name: str
    kind: str
    date: date
    place: str | None
    format: str
    variant: str
    house_rules: dict[str, Any]
    rule_set_name: str | None
    rounds: int
    round_minutes: int | None
    entry_fee: str | None
    prize_split: list[int] | None
    standings_hidden: bool
    tie_breaks: list[str] | None
    season_id: int | None
    version: int
    created_at: datetime
    finished_at: datetime | None
    #: Fixed teams' knockout (``operations.knockout``): size, best of N, seeds once drawn.
    knockout_size: int | None = None
    best_of: int | None = None
    knockout_seeds: list[int] | None = None


@dataclass(frozen=True)
class Entrant:
    """A player of an event."""

    player_id: int
    name: str
    from_round: int
    withdrawn_after: int | None
    team: str | None

    def plays_in(self, number: int) -> bool:
        """Whether this player is seated in round ``number``."""
        return self.from_round <= number and (
            self.withdrawn_after is None or number <= self.withdrawn_after
        )


@dataclass(frozen=True)
class TableState:
    """A round's table: its number, its players (ids, in seat order), its sides (seat
    positions; None: no partners) and its game as replayed (None: deleted since, or no
    longer replays)."""

    number: int
    game_id: int | None
    seats: tuple[int, ...]
    sides: tuple[tuple[int, ...], ...] | None
    game: Loaded | None

    @property
    def finished(self) -> bool:
        return self.game is None or self.game.result.finished


@dataclass(frozen=True)
class RoundState:
    """A round that has started, with its clock and tables."""

    number: int
    started_at: datetime
    paused_at: datetime | None
    paused_seconds: int
    called_at: datetime | None
    byes: tuple[int, ...]
    tables: tuple[TableState, ...]

    @property
    def finished(self) -> bool:
        return all(table.finished for table in self.tables)

    @property
    def finished_at(self) -> datetime | None:
        """When the round's last table finished (None while one plays on)."""
        if not self.finished:
            return None
        ends = [t.game.row.finished_at for t in self.tables if t.game is not None]
        return max((end for end in ends if end is not None), default=None)

    def running_seconds(self, now: datetime | None = None) -> int:
        """How long the round's clock has run (its pauses left out): until it was paused,
        time was called, or the last table finished."""
        end = self.paused_at or self.called_at or self.finished_at or now or utcnow()
        return max(0, int((end - self.started_at).total_seconds()) - self.paused_seconds)


@dataclass(frozen=True)
class EventState:
    """An event with its players and its rounds (each table's game replayed)."""

    event: EventInfo
    players: tuple[Entrant, ...]
    rounds: tuple[RoundState, ...] = field(default=())

    @property
    def current(self) -> RoundState | None:
        """The latest round started, if any."""
        return self.rounds[-1] if self.rounds else None

    @property
    def next_number(self) -> int:
        return len(self.rounds) + 1

    @property
    def over(self) -> bool:
        """Every round played: the last one started and each of its tables finished."""
        current = self.current
        return current is not None and current.number >= self.event.rounds and current.finished

    @property
    def can_start_next(self) -> bool:
        """Whether the next round may start: rounds are left and every table has finished."""
        if self.next_number > self.event.rounds:
            return False
        return self.current is None or self.current.finished

    def names(self) -> dict[int, str]:
        return {p.player_id: p.name for p in self.players}

    def playing(self, number: int) -> tuple[Entrant, ...]:
        """The players seated in round ``number``."""
        return tuple(p for p in self.players if p.plays_in(number))


def info_of(row: Any) -> EventInfo:
    values = row._mapping
    return EventInfo(**{name: values[name] for name in EventInfo.__dataclass_fields__})


def event_ids() -> list[int]:
    """Every event's id, newest first."""
    return list(
        db.session.execute(
            select(EVENT.c.id).order_by(EVENT.c.date.desc(), EVENT.c.id.desc())
        ).scalars()
    )


def events(offset: int = 0, limit: int = 50) -> list[EventInfo]:
    """Events newest first (a page of them)."""
    rows = db.session.execute(
        select(EVENT).order_by(EVENT.c.date.desc(), EVENT.c.id.desc()).offset(offset).limit(limit)
    )
    return [info_of(row) for row in rows]


def event_count() -> int:
    return int(db.session.execute(select(func.count()).select_from(EVENT)).scalar_one())


def event_version(event_id: int) -> int | None:
    """The event's version, or None if there is no such event."""
    return db.session.execute(select(EVENT.c.version).where(EVENT.c.id == event_id)).scalar()


def load_event(event_id: int, *, games: bool = True) -> EventState:
    """Read an event with its players and rounds, each table's game replayed (three
    queries for the games however many tables: ``load_many``); NotFound if there is none.
    ``games=False`` leaves the games unread (``TableState.game`` None)."""
    found = db.session.execute(select(EVENT).where(EVENT.c.id == event_id)).first()
    if found is None:
        raise NotFound("no-event", id=event_id)
    return state_of(info_of(found), games=games)


#: Replays kept for events' pages: a hall's hundred tables, each at one version, and the next
#: round's besides (the app's own Replays keeps the few games just played).
EVENT_REPLAYS = 512


def event_replays() -> Replays:
    """This app's replays of the games played at events."""
    return per_app("scorekeeper.operations.events.replays", lambda: Replays(EVENT_REPLAYS))


def state_of(info: EventInfo, *, games: bool = True) -> EventState:
    entrants = tuple(
        Entrant(r.player_id, r.name, r.from_round, r.withdrawn_after, r.team)
        for r in db.session.execute(
            select(
                ENTRANT.c.player_id,
                PLAYER.c.name,
                ENTRANT.c.from_round,
                ENTRANT.c.withdrawn_after,
                ENTRANT.c.team,
            )
            .select_from(ENTRANT.join(PLAYER, PLAYER.c.id == ENTRANT.c.player_id))
            .where(ENTRANT.c.event_id == info.id)
            .order_by(ENTRANT.c.id)
        )
    )
    stored = rounds_and_tables(info.id, info.version, kept=games)
    loaded: dict[int, Any] = {}
    if games:
        ids = [t[1] for _, tables in stored for t in tables if t[1] is not None]
        loaded = load_many(ids, cache=event_replays()) if ids else {}
    rounds = []
    for r, stored_tables in stored:
        tables = tuple(
            TableState(
                number,
                # A game deleted since its table was kept: as the row now says (SET NULL).
                game_id if not games or game_id in loaded else None,
                seats,
                sides,
                found if isinstance(found := loaded.get(game_id or 0), Loaded) else None,
            )
            for number, game_id, seats, sides in stored_tables
        )
        rounds.append(
            RoundState(
                r.number,
                r.started_at,
                r.paused_at,
                r.paused_seconds,
                r.called_at,
                tuple(r.byes or ()),
                tables,
            )
        )
    return EventState(info, entrants, tuple(rounds))


def table_game(event_id: int, number: int) -> int | None:
    """The game table ``number`` plays in the event's latest round (its table card's code
    leads there; once the knockout is drawn, its newest game there); None before the first
    round or for a table the round does not have."""
    drawn = select(EVENT.c.knockout_seeds).where(EVENT.c.id == event_id)
    if db.session.execute(drawn).scalar() is not None:
        return db.session.execute(
            select(KNOCKOUT.c.game_id)
            .where(KNOCKOUT.c.event_id == event_id, KNOCKOUT.c.table == number)
            .order_by(KNOCKOUT.c.id.desc())
            .limit(1)
        ).scalar()
    latest = (
        select(ROUND.c.id)
        .where(ROUND.c.event_id == event_id)
        .order_by(ROUND.c.number.desc())
        .limit(1)
        .scalar_subquery()
    )
    return db.session.execute(
        select(TABLE.c.game_id).where(TABLE.c.round_id == latest, TABLE.c.number == number)
    ).scalar()


def event_of_game(game_id: int) -> tuple[int, int, int] | None:
    """The event, round and table a game is played at: (event id, round, table), or None."""
    found = db.session.execute(
        select(ROUND.c.event_id, ROUND.c.number, TABLE.c.number.label("table"))
        .select_from(TABLE.join(ROUND, ROUND.c.id == TABLE.c.round_id))
        .where(TABLE.c.game_id == game_id)
    ).first()
    return None if found is None else (found.event_id, found.number, found.table)


def locked_event(event_id: int, version: int | None) -> EventInfo:
    """The event's row, locked (PostgreSQL) until the transaction ends; NotFound, or
    Conflict if ``version`` is given and the event has moved past it."""
    found = db.session.execute(
        select(EVENT).where(EVENT.c.id == event_id).with_for_update()
    ).first()
    if found is None:
        raise NotFound("no-event", id=event_id)
    info = info_of(found)
    if version is not None and info.version != version:
        raise Conflict(Conflict.STALE)
    return info


def bump_version(event_id: int) -> None:
    """The event changed: its version moves on, and its room's boards hear of it once the
    write commits (``live.event_changed``)."""
    run(update(EVENT).where(EVENT.c.id == event_id).values(version=EVENT.c.version + 1))
    live.event_changed(event_id)


def game_ids(event_id: int) -> set[int]:
    """The games played at the event's tables, every round's: what its room's board hears."""
    return set(
        db.session.execute(
            select(TABLE.c.game_id)
            .select_from(TABLE.join(ROUND, ROUND.c.id == TABLE.c.round_id))
            .where(ROUND.c.event_id == event_id, TABLE.c.game_id.is_not(None))
        ).scalars()
    )


def rounds_started(event_id: int) -> int:
    return int(
        db.session.execute(
            select(func.count()).select_from(ROUND).where(ROUND.c.event_id == event_id)
        ).scalar_one()
    )


def most_seats(variant: str) -> int:
    try:
        return rules.find_variant(variant).max_seats
    except ValueError:
        return 4


def teams_of(state: EventState) -> dict[int, tuple[int, ...]]:
    """The fixed teams (the teams format): a team's id is its first player's, its players
    in the order they registered."""
    by_name: dict[str, list[int]] = {}
    for p in state.players:
        if p.team is not None and p.withdrawn_after is None:
            by_name.setdefault(p.team, []).append(p.player_id)
    return {members[0]: tuple(members) for members in by_name.values()}


def stamp(event_id: int) -> str | None:
    """A text that changes whenever the event or a game at one of its tables does (its
    version and the sum of its games' versions): what the room's board polls. None if there
    is no such event."""
    version = event_version(event_id)
    if version is None:
        return None
    game = models.Game.__table__
    played = select(TABLE.c.game_id).join(ROUND, ROUND.c.id == TABLE.c.round_id)
    knockout = select(KNOCKOUT.c.game_id).where(KNOCKOUT.c.event_id == event_id)
    games = db.session.execute(
        select(func.coalesce(func.sum(game.c.version), 0), func.count()).where(
            game.c.id.in_(played.where(ROUND.c.event_id == event_id).union_all(knockout))
        )
    ).first()
    total, count = (0, 0) if games is None else games
    return f"{version}.{count}.{total}"


def events_of_player(player_id: int) -> list[EventInfo]:
    """The events a player played in, newest first."""
    rows = db.session.execute(
        select(EVENT)
        .select_from(EVENT.join(ENTRANT, ENTRANT.c.event_id == EVENT.c.id))
        .where(ENTRANT.c.player_id == player_id)
        .order_by(EVENT.c.date.desc(), EVENT.c.id.desc())
    )
    return [info_of(row) for row in rows]
