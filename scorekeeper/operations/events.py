"""Every write and read of events (tournaments and league nights) and seasons.

An event is its setup (``models.Event``), its players, and its rounds; each round's tables
are ordinary games, recorded by the tables' phones through the usual hand path
(``operations.hands``). Nothing about the standings is stored: they come from those games'
replays (``rules.events``). The seating of the next round is worked out by the engine from
the rounds played (``rules.events.seating``); starting a round stores it and creates one
game a table, in one transaction, under the event's lock and version.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import delete, func, insert, select, update

from .. import rules
from ..data import models
from ..data.database import run, write_transaction
from ..data.extensions import db
from ..data.models import EVENT_FORMATS, EVENT_KINDS, SEASON_SCORINGS, utcnow
from ..rules import events as ev
from . import games as game_ops
from .errors import Conflict, EventError, NotFound
from .loading import load_many
from .players import seat_players
from .rows import Loaded
from .writing import refresh_stats, store_game

EVENT = models.Event.__table__
ENTRANT = models.EventPlayer.__table__
ROUND = models.EventRound.__table__
TABLE = models.EventTable.__table__
SEASON = models.Season.__table__
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

    def running_seconds(self, now: datetime | None = None) -> int:
        """How long the round's clock has run (its pauses left out)."""
        end = self.paused_at or self.called_at or now or utcnow()
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


def _info(row: Any) -> EventInfo:
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
    return [_info(row) for row in rows]


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
    return _state(_info(found), games=games)


def _state(info: EventInfo, *, games: bool = True) -> EventState:
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
    round_rows = list(
        db.session.execute(
            select(ROUND).where(ROUND.c.event_id == info.id).order_by(ROUND.c.number)
        )
    )
    table_rows = list(
        db.session.execute(
            select(TABLE, ROUND.c.number.label("round_number"))
            .select_from(TABLE.join(ROUND, ROUND.c.id == TABLE.c.round_id))
            .where(ROUND.c.event_id == info.id)
            .order_by(ROUND.c.number, TABLE.c.number)
        )
    )
    loaded: dict[int, Any] = {}
    if games:
        ids = [t.game_id for t in table_rows if t.game_id is not None]
        loaded = load_many(ids) if ids else {}
    rounds = []
    for r in round_rows:
        tables = tuple(
            TableState(
                t.number,
                t.game_id,
                tuple(t.seats),
                None if t.sides is None else tuple(tuple(s) for s in t.sides),
                found if isinstance(found := loaded.get(t.game_id), Loaded) else None,
            )
            for t in table_rows
            if t.round_number == r.number
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
    leads there); None before the first round or for a table the round does not have."""
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


# --- The setup ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EventSetup:
    """What the director sets up: checked by ``create_event``."""

    name: str
    day: date
    format: str
    variant: str
    rounds: int
    kind: str = "tournament"
    place: str | None = None
    house_rules: dict[str, Any] = field(default_factory=dict)
    rule_set_name: str | None = None
    round_minutes: int | None = None
    entry_fee: str | None = None
    prize_split: list[int] | None = None
    standings_hidden: bool = False
    tie_breaks: list[str] | None = None
    season_id: int | None = None


def table_game_check(format: str, variant: str, house_rules: dict[str, Any]) -> rules.Game:
    """The game a table of this event plays, checked by the engine (RuleError if the
    variant or a switch cannot be played so): four placeholder players, in partnerships
    for the partnership formats."""
    names = ["A", "B", "C", "D"]
    teams = None
    if format in PARTNERSHIP_FORMATS:
        teams = {"A & C": ["A", "C"], "B & D": ["B", "D"]}
    else:
        most = _most_seats(variant)
        if most < 4:
            names = names[:most]
    return rules.Game.create(variant, names, house_rules=house_rules, teams=teams)


def check_setup(setup: EventSetup) -> None:
    """Refuse a setup the app cannot run (EventError naming what), or whose game the engine
    refuses (RuleError)."""
    if setup.kind not in EVENT_KINDS:
        raise EventError("bad-kind", value=setup.kind)
    if setup.format not in EVENT_FORMATS:
        raise EventError("bad-format", value=setup.format)
    if not 1 <= setup.rounds <= MAX_ROUNDS:
        raise EventError("bad-rounds", max=MAX_ROUNDS)
    if setup.round_minutes is not None and not 1 <= setup.round_minutes <= MAX_ROUND_MINUTES:
        raise EventError("bad-minutes", max=MAX_ROUND_MINUTES)
    if setup.prize_split is not None:
        if not setup.prize_split or any(p <= 0 for p in setup.prize_split):
            raise EventError("bad-split")
        if sum(setup.prize_split) != 100:
            raise EventError("split-not-100", total=sum(setup.prize_split))
    table_game_check(setup.format, setup.variant, setup.house_rules)


def create_event(setup: EventSetup) -> int:
    """Store a new event (checked: ``check_setup``); return its id."""
    check_setup(setup)
    with write_transaction():
        if setup.season_id is not None:
            _season_row(setup.season_id)
        inserted = run(
            insert(EVENT),
            {
                "name": setup.name,
                "kind": "league" if setup.season_id is not None else setup.kind,
                "date": setup.day,
                "place": setup.place,
                "format": setup.format,
                "variant": setup.variant,
                "house_rules": dict(setup.house_rules),
                "rule_set_name": setup.rule_set_name,
                "rounds": setup.rounds,
                "round_minutes": setup.round_minutes,
                "entry_fee": setup.entry_fee,
                "prize_split": setup.prize_split,
                "standings_hidden": setup.standings_hidden,
                "tie_breaks": setup.tie_breaks,
                "season_id": setup.season_id,
                "version": 0,
                "created_at": utcnow(),
            },
        )
        return int(inserted.inserted_primary_key[0])  # type: ignore[index]  # an INSERT's key


def delete_event(event_id: int) -> None:
    """Delete an event with its rounds and tables; the games played at them are kept."""
    with write_transaction():
        _locked(event_id, None)
        run(delete(EVENT).where(EVENT.c.id == event_id))


# --- Writes under the event's lock ------------------------------------------------------------


def _locked(event_id: int, version: int | None) -> EventInfo:
    """The event's row, locked (PostgreSQL) until the transaction ends; NotFound, or
    Conflict if ``version`` is given and the event has moved past it."""
    found = db.session.execute(
        select(EVENT).where(EVENT.c.id == event_id).with_for_update()
    ).first()
    if found is None:
        raise NotFound("no-event", id=event_id)
    info = _info(found)
    if version is not None and info.version != version:
        raise Conflict(Conflict.STALE)
    return info


def _bump(event_id: int) -> None:
    run(update(EVENT).where(EVENT.c.id == event_id).values(version=EVENT.c.version + 1))


def register(
    event_id: int, names: Sequence[str], *, team: str | None = None, version: int | None = None
) -> list[int]:
    """Add players to an event by name: the roster's (in any spelling), or new ones added to
    it (at the door). Once rounds have started they play from the next round on (a late
    arrival). A player already in the event is left as they are (a withdrawn player comes
    back from the next round). Return their ids."""
    for name in names:
        rules.game.check_name(name, "players")
    with write_transaction():
        info = _locked(event_id, version)
        started = _rounds_started(event_id)
        if started >= info.rounds:
            raise EventError("event-over")
        players = seat_players(list(dict.fromkeys(names)))
        ids = [found for found, _ in players]
        existing = {
            r.player_id: r
            for r in db.session.execute(
                select(ENTRANT).where(ENTRANT.c.event_id == event_id, ENTRANT.c.player_id.in_(ids))
            )
        }
        count = db.session.execute(
            select(func.count()).select_from(ENTRANT).where(ENTRANT.c.event_id == event_id)
        ).scalar_one()
        new = [i for i in ids if i not in existing]
        if count + len(new) > MAX_PLAYERS:
            raise EventError("too-many-players", max=MAX_PLAYERS)
        now = utcnow()
        if new:
            run(
                insert(ENTRANT),
                [
                    {
                        "event_id": event_id,
                        "player_id": i,
                        "from_round": started + 1,
                        "team": team,
                        "created_at": now,
                    }
                    for i in new
                ],
            )
        for row in existing.values():
            if row.withdrawn_after is not None:
                run(
                    update(ENTRANT)
                    .where(ENTRANT.c.id == row.id)
                    .values(withdrawn_after=None, from_round=max(row.from_round, started + 1))
                )
        _bump(event_id)
        return ids


def withdraw(event_id: int, player_id: int, *, version: int | None = None) -> None:
    """Take a player out of the event: from the next round on (their rounds played count).
    A player who has not played yet is taken off the list altogether."""
    with write_transaction():
        _locked(event_id, version)
        started = _rounds_started(event_id)
        row = db.session.execute(
            select(ENTRANT).where(ENTRANT.c.event_id == event_id, ENTRANT.c.player_id == player_id)
        ).first()
        if row is None:
            raise NotFound("not-in-event", id=player_id, event=event_id)
        if row.from_round > started:
            run(delete(ENTRANT).where(ENTRANT.c.id == row.id))
        else:
            run(update(ENTRANT).where(ENTRANT.c.id == row.id).values(withdrawn_after=started))
        _bump(event_id)


def set_team(
    event_id: int, player_id: int, team: str | None, *, version: int | None = None
) -> None:
    """Put a player in a fixed team (the teams format), or in none."""
    if team is not None:
        rules.game.check_name(team, "teams")
    with write_transaction():
        _locked(event_id, version)
        changed = run(
            update(ENTRANT)
            .where(ENTRANT.c.event_id == event_id, ENTRANT.c.player_id == player_id)
            .values(team=team)
        )
        if changed.rowcount == 0:
            raise NotFound("not-in-event", id=player_id, event=event_id)
        _bump(event_id)


def set_standings_hidden(event_id: int, hidden: bool) -> None:
    """The director's choice: the room's board shows the standings, or hides them until
    the end."""
    with write_transaction():
        _locked(event_id, None)
        run(update(EVENT).where(EVENT.c.id == event_id).values(standings_hidden=hidden))
        _bump(event_id)


def _rounds_started(event_id: int) -> int:
    return int(
        db.session.execute(
            select(func.count()).select_from(ROUND).where(ROUND.c.event_id == event_id)
        ).scalar_one()
    )


# --- Rounds ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlannedTable:
    """A table of the next round: its players (ids, in seat order) and sides."""

    number: int
    seats: tuple[int, ...]
    sides: tuple[tuple[int, ...], ...] | None


@dataclass(frozen=True)
class Plan:
    """The next round's seating: its tables and who sits out (a bye)."""

    number: int
    tables: tuple[PlannedTable, ...]
    byes: tuple[int, ...]


def next_seating(state: EventState) -> Plan:
    """The seating of the event's next round, worked out by the engine from the rounds
    played (``rules.events.seating``); EventError if it cannot be (too few players, more
    rounds than a round robin has without a repeated partner...)."""
    try:
        found = _seat(state)
    except ev.EventError as error:
        raise EventError("engine", engine_code=error.code, engine_params=error.params) from None
    tables = []
    for table in found.tables:
        seat_of = {player: i for i, player in enumerate(table.players)}
        sides = None
        if table.partnership:
            sides = tuple(tuple(seat_of[p] for p in side) for side in table.sides)
        tables.append(PlannedTable(table.number, tuple(table.players), sides))
    return Plan(state.next_number, tuple(tables), tuple(found.byes))


def seed_of(state: EventState) -> int:
    """The seed of an event's draws: its id, so a round drawn again is drawn alike."""
    return state.event.id


def engine_round(played: RoundState) -> ev.Round:
    """A round played, as the engine seats it: its tables (players in seat order, sides)."""
    tables = []
    for table in played.tables:
        if table.sides is not None:
            sides = tuple(tuple(table.seats[p] for p in side) for side in table.sides)
        else:
            sides = tuple((p,) for p in table.seats)
        tables.append(ev.Table(table.number, table.seats, sides))
    return ev.Round(played.number, tuple(tables), played.byes)


def _movers(table: TableState) -> tuple[int, ...]:
    """Who moves up from a finished progressive table: its winning side, or at a table each
    for themselves its two best (``cutthroat_movers``)."""
    loaded = table.game
    if loaded is None or not loaded.result.finished:
        return ()
    by_name = dict(zip(loaded.names, table.seats, strict=True))
    if table.sides is not None and loaded.game.teams is not None:
        members = dict(loaded.game.teams)[loaded.result.winner or ""]
        return tuple(by_name[name] for name in members)
    scores = {by_name[name]: score for name, score in loaded.result.scores.items()}
    return ev.cutthroat_movers(engine_round_table(table), scores)


def engine_round_table(table: TableState) -> ev.Table:
    return ev.Table(table.number, table.seats, tuple((p,) for p in table.seats))


def _seat(state: EventState) -> ev.Round:
    number = state.next_number
    present = [p.player_id for p in state.playing(number)]
    fmt = state.event.format
    seed = seed_of(state)
    if fmt == "progressive":
        if state.current is None:
            return _numbered(ev.progressive_first(present, seed), number)
        last = state.current
        results = {t.number: _movers(t) for t in last.tables}
        return _numbered(ev.progressive_next(engine_round(last), results, present), number)
    if fmt == "round-robin":
        # The schedule's first rounds are the same however many are asked for.
        return _numbered(ev.round_robin(present, number, seed)[number - 1], number)
    if fmt == "individual":
        per_table = min(4, _most_seats(state.event.variant))
        previous = [engine_round(r) for r in state.rounds]
        return ev.individual_tables(present, per_table, number, seed, previous)
    return _team_round(state, present, number)


def _numbered(found: ev.Round, number: int) -> ev.Round:
    return found if found.number == number else ev.Round(number, found.tables, found.byes)


def _most_seats(variant: str) -> int:
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


def _team_round(state: EventState, present: Sequence[int], number: int) -> ev.Round:
    teams = teams_of(state)
    lone = [p for p in present if not any(p in members for members in teams.values())]
    lone += [m for members in teams.values() if len(members) != 2 for m in members]
    if lone:
        names = state.names()
        raise EventError("no-teams", names=", ".join(names.get(p, "?") for p in lone[:3]))
    schedule = ev.team_round_robin(sorted(teams))
    if number > len(schedule):
        raise EventError("event-over")
    this = schedule[number - 1]
    tables = []
    for match in this.matches:
        home, away = teams[match.home], teams[match.away]
        players = (home[0], away[0], home[1], away[1])
        tables.append(ev.Table(match.table, players, ((home[0], home[1]), (away[0], away[1]))))
    byes = teams[this.bye] if this.bye is not None else ()
    return ev.Round(number, tuple(tables), tuple(byes))


def start_round(event_id: int, *, version: int | None) -> int:
    """Start the next round: its seating (``next_seating``, worked out again under the
    event's lock, so it is the one the director was shown at that version), one game a
    table, and its clock. Refused while a table of the round before has not finished, or
    once every round has been played. Return the round's number."""
    with write_transaction():
        info = _locked(event_id, version)
        state = _state(info)
        if state.next_number > info.rounds:
            raise EventError("event-over")
        if not state.can_start_next:
            raise EventError("round-not-over", number=state.current.number if state.current else 0)
        plan = next_seating(state)
        names = state.names()
        now = utcnow()
        inserted = run(
            insert(ROUND),
            {
                "event_id": event_id,
                "number": plan.number,
                "started_at": now,
                "paused_seconds": 0,
                "byes": list(plan.byes),
            },
        )
        round_id = inserted.inserted_primary_key[0]  # type: ignore[index]  # an INSERT's key
        tables = []
        for table in plan.tables:
            game = table_setup(info, [names[i] for i in table.seats], table.sides)
            stored = store_game(game)
            refresh_stats(stored.row, stored.result, stored.player_ids)
            tables.append(
                {
                    "round_id": round_id,
                    "number": table.number,
                    "game_id": stored.row.id,
                    "seats": list(table.seats),
                    "sides": None if table.sides is None else [list(s) for s in table.sides],
                }
            )
        if tables:
            run(insert(TABLE), tables)
        _bump(event_id)
        return plan.number


def table_setup(info: EventInfo, names: Sequence[str], sides: Any) -> rules.Game:
    """The game one table plays: the event's variant and switches, its players in seat
    order, partnerships named after their players."""
    teams = None
    if sides is not None:
        teams = {}
        for number, positions in enumerate(sides, start=1):
            members = [names[p] for p in positions]
            team = " & ".join(members)
            if len(team) > rules.NAME_MAX or team in teams:
                team = f"{members[0][: rules.NAME_MAX - 4]} +{len(members) - 1}"
            if team in teams:
                team = f"#{number}"
            teams[team] = members
    return rules.Game.create(info.variant, names, house_rules=info.house_rules, teams=teams)


def _current_round(event_id: int) -> Any:
    found = db.session.execute(
        select(ROUND)
        .where(ROUND.c.event_id == event_id)
        .order_by(ROUND.c.number.desc())
        .limit(1)
        .with_for_update()
    ).first()
    if found is None:
        raise EventError("no-round")
    return found


def pause_clock(event_id: int) -> None:
    """Stop the round clock (a break); ``resume_clock`` runs it on."""
    with write_transaction():
        _locked(event_id, None)
        current = _current_round(event_id)
        if current.paused_at is None and current.called_at is None:
            run(update(ROUND).where(ROUND.c.id == current.id).values(paused_at=utcnow()))
            _bump(event_id)


def resume_clock(event_id: int) -> None:
    with write_transaction():
        _locked(event_id, None)
        current = _current_round(event_id)
        if current.paused_at is not None:
            paused = int((utcnow() - current.paused_at).total_seconds())
            run(
                update(ROUND)
                .where(ROUND.c.id == current.id)
                .values(paused_at=None, paused_seconds=current.paused_seconds + paused)
            )
            _bump(event_id)


def call_time(event_id: int) -> int:
    """Call time on the round: every table's game not finished ends after its hand in play
    (``operations.games.calling_time``, as one game's "call time" does), in one transaction;
    the clock stops. Return how many games time was called on."""
    with write_transaction():
        _locked(event_id, None)
        current = _current_round(event_id)
        game_ids = sorted(
            db.session.execute(
                select(TABLE.c.game_id).where(
                    TABLE.c.round_id == current.id, TABLE.c.game_id.is_not(None)
                )
            ).scalars()
        )
        called = sum(1 for game_id in game_ids if game_ops.calling_time(game_id) is not None)
        now = utcnow()
        values: dict[str, Any] = {"called_at": current.called_at or now}
        if current.paused_at is not None:
            values["paused_at"] = None
            values["paused_seconds"] = current.paused_seconds + int(
                (now - current.paused_at).total_seconds()
            )
        run(update(ROUND).where(ROUND.c.id == current.id).values(**values))
        _bump(event_id)
        return called


def finish_event(event_id: int) -> None:
    """Mark the event over (its last round played): its standings are final."""
    with write_transaction():
        info = _locked(event_id, None)
        state = _state(info)
        if not state.over:
            raise EventError("not-over")
        if info.finished_at is None:
            run(update(EVENT).where(EVENT.c.id == event_id).values(finished_at=utcnow()))
            _bump(event_id)


# --- Standings and money -------------------------------------------------------------------------


@dataclass(frozen=True)
class StandingLine:
    """One line of the standings, as the pages show it."""

    place: int
    shared: bool
    entrant: int
    name: str
    wins: int
    points: int
    against: int
    games: int
    byes: int
    withdrawn: bool


@dataclass(frozen=True)
class Standings:
    """An event's standings, with the ranking said in words (``rules.events.describe``:
    phrases the page translates) and whether they rank teams."""

    lines: tuple[StandingLine, ...]
    order: tuple[ev.TieBreak, ...]
    said: tuple[rules.Phrase, ...]
    teams: bool
    #: The engine's lines (for the league's table and the prizes).
    engine: tuple[ev.Standing, ...] = ()


def order_of(info: EventInfo) -> tuple[ev.TieBreak, ...]:
    """The event's tie-breaks: the director's, or the format's own (points first for
    progressive and individual tables, where each player's own total counts; wins first
    for the partnership round robins and fixed teams)."""
    if info.tie_breaks:
        return tuple(ev.TieBreak(t) for t in info.tie_breaks)
    if info.format in ("progressive", "individual"):
        return ev.POINTS_FIRST_ORDER
    return ev.DEFAULT_ORDER


def game_scores_of(state: EventState) -> list[ev.GameScore]:
    """Every finished game of the event as each entrant's score (a team's, in the teams
    format). A game not finished yet counts once it is."""
    team_of = {}
    if state.event.format == "teams":
        team_of = {p: team for team, members in teams_of(state).items() for p in members}
    found: list[ev.GameScore] = []
    for played in state.rounds:
        for table in played.tables:
            loaded = table.game
            if loaded is None or not loaded.result.finished:
                continue
            by_name = dict(zip(loaded.names, table.seats, strict=True))
            if loaded.game.teams is not None:
                sides = {
                    team: tuple(by_name[name] for name in members)
                    for team, members in loaded.game.teams
                }
            else:
                sides = {name: (pid,) for name, pid in by_name.items()}
            scores = ev.game_scores(played.number, loaded.result, sides)
            if team_of:
                seen = set()
                for score in scores:
                    team = team_of.get(score.entrant, score.entrant)
                    if team in seen:
                        continue
                    seen.add(team)
                    found.append(
                        dataclasses.replace(
                            score,
                            entrant=team,
                            opponents=tuple(
                                dict.fromkeys(team_of.get(o, o) for o in score.opponents)
                            ),
                        )
                    )
            else:
                found.extend(scores)
    return found


def standings(state: EventState) -> Standings:
    """The event's standings from its finished games (``rules.events.standings``)."""
    order = order_of(state.event)
    names = state.names()
    teams = state.event.format == "teams"
    if teams:
        groups = teams_of(state)
        team_names = {
            team: next((p.team for p in state.players if p.player_id == team), None)
            or " & ".join(names[m] for m in members)
            for team, members in groups.items()
        }
        entrants = list(groups)
        withdrawn: list[int] = []
        byes = {
            r.number: sorted({t for t, ms in groups.items() if set(ms) & set(r.byes)})
            for r in state.rounds
        }
        shown = team_names
    else:
        entrants = [p.player_id for p in state.players]
        withdrawn = [p.player_id for p in state.players if p.withdrawn_after is not None]
        byes = {r.number: list(r.byes) for r in state.rounds}
        shown = names
    lines = ev.standings(
        game_scores_of(state),
        byes={n: b for n, b in byes.items() if b},
        order=order,
        entrants=entrants,
        withdrawn=withdrawn,
    )
    return Standings(
        tuple(
            StandingLine(
                place=line.place,
                shared=line.shared,
                entrant=line.entrant,
                name=shown.get(line.entrant, "?"),
                wins=line.wins,
                points=line.points_for,
                against=line.points_against,
                games=line.played,
                byes=line.byes,
                withdrawn=line.withdrawn,
            )
            for line in lines
        ),
        order,
        ev.describe(order),
        teams,
        tuple(lines),
    )


@dataclass(frozen=True)
class Money:
    """An event's pot, what each place wins, and the payments (the organiser holds the
    fees paid at the door and pays each prize)."""

    pool: Decimal
    prizes: tuple[tuple[int, str, Decimal], ...]
    kept: Decimal
    payments: tuple[tuple[str | None, str | None, Decimal], ...]


def money(state: EventState, found: Standings) -> Money | None:
    """The prize money by the event's split (``rules.events.prizes``); None without an
    entry fee."""
    info = state.event
    if info.entry_fee is None or not info.prize_split:
        return None
    fee = Decimal(info.entry_fee)
    entrants = [p.player_id for p in state.players]
    pool = ev.prize_pool(fee, len(entrants))
    places = {line.entrant: line.place for line in found.engine}
    split = ev.split_prizes(pool, [Decimal(p) for p in info.prize_split], places)
    names = {line.entrant: line.name for line in found.lines}
    paid = ev.payouts(split, fee, entrants)
    return Money(
        pool,
        tuple((prize.place, names.get(prize.player, "?"), prize.amount) for prize in split.prizes),
        split.kept,
        tuple(
            (
                None if p.payer is None else names.get(p.payer, "?"),
                None if p.payee is None else names.get(p.payee, "?"),
                p.amount,
            )
            for p in paid
        ),
    )


def stamp(event_id: int) -> str | None:
    """A text that changes whenever the event or a game at one of its tables does (its
    version and the sum of its games' versions): what the room's board polls. None if there
    is no such event."""
    version = event_version(event_id)
    if version is None:
        return None
    games = db.session.execute(
        select(func.coalesce(func.sum(models.Game.__table__.c.version), 0), func.count())
        .select_from(
            TABLE.join(ROUND, ROUND.c.id == TABLE.c.round_id).join(
                models.Game.__table__, models.Game.__table__.c.id == TABLE.c.game_id
            )
        )
        .where(ROUND.c.event_id == event_id)
    ).first()
    total, count = (0, 0) if games is None else games
    return f"{version}.{count}.{total}"


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
    return [_state(_info(row)) for row in rows]


def events_of_player(player_id: int) -> list[EventInfo]:
    """The events a player played in, newest first."""
    rows = db.session.execute(
        select(EVENT)
        .select_from(EVENT.join(ENTRANT, ENTRANT.c.event_id == EVENT.c.id))
        .where(ENTRANT.c.player_id == player_id)
        .order_by(EVENT.c.date.desc(), EVENT.c.id.desc())
    )
    return [_info(row) for row in rows]


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
        state = _state(info)
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
