"""An event's rounds: the next round's seating (worked out by the engine from the rounds
played, ``rules.events.seating``), starting a round (its seating stored and one ordinary
game a table created, each hand of which waits for the other side's confirmation, in one
transaction, under the event's lock and version), the round clock, and time called on every
table."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select, update

from .. import rules
from ..data.database import run, write_transaction
from ..data.extensions import db
from ..data.models import utcnow
from ..i18n import isolated
from ..rules import events as ev
from . import games as game_ops
from .errors import EventError
from .events import (
    EVENT,
    KNOCKOUT,
    ROUND,
    TABLE,
    EventInfo,
    EventState,
    RoundState,
    TableState,
    bump_version,
    locked_event,
    most_seats,
    state_of,
    teams_of,
)
from .statements import GAME
from .table_marks import table_marks
from .writing import refresh_stats, store_game

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
    """A finished progressive table's result: its winning side, or at a table each for
    themselves every player best first (``cutthroat_ranking``)."""
    loaded = table.game
    if loaded is None or not loaded.result.finished:
        return ()
    by_name = dict(zip(loaded.names, table.seats, strict=True))
    if table.sides is not None and loaded.game.teams is not None:
        members = dict(loaded.game.teams)[loaded.result.winner or ""]
        return tuple(by_name[name] for name in members)
    scores = {by_name[name]: score for name, score in loaded.result.scores.items()}
    return ev.cutthroat_ranking(engine_round_table(table), scores)


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
        earlier = [engine_round(r) for r in state.rounds[:-1]]
        moved = ev.progressive_next(engine_round(last), results, present, earlier)
        return _numbered(moved, number)
    if fmt == "round-robin":
        first = [p.player_id for p in state.playing(1)]
        if sorted(first) == sorted(present):
            # Everyone of round 1 and nobody else: the schedule's next round (its first
            # rounds are the same however many are asked for).
            return _numbered(ev.round_robin(first, number, seed)[number - 1], number)
        # Someone left or arrived: a round for whoever is here, no partner repeated.
        played = [engine_round(r) for r in state.rounds]
        return _numbered(ev.round_robin_next(played, present, seed), number)
    if fmt == "individual":
        per_table = min(4, most_seats(state.event.variant))
        previous = [engine_round(r) for r in state.rounds]
        return ev.individual_tables(present, per_table, number, seed, previous)
    return _team_round(state, present, number)


def _numbered(found: ev.Round, number: int) -> ev.Round:
    return found if found.number == number else ev.Round(number, found.tables, found.byes)


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
    table, and its clock. Every table's game asks for confirmation: each hand waits for a
    player of another side (``operations.trail``). Refused while a table of the round before
    has not finished or has a disputed hand, or once every round has been played. Return
    the round's number."""
    with write_transaction():
        info = locked_event(event_id, version)
        state = state_of(info)
        if state.next_number > info.rounds:
            raise EventError("event-over")
        if not state.can_start_next:
            raise EventError("round-not-over", number=state.current.number if state.current else 0)
        if state.current is not None:
            refuse_disputed(state.current)
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
            # A new game has no statistics rows yet: none to read.
            refresh_stats(stored.row, stored.result, stored.player_ids, {})
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
            game_ids = [t["game_id"] for t in tables]
            run(update(GAME).where(GAME.c.id.in_(game_ids)).values(confirm_hands=True))
        bump_version(event_id)
        return plan.number


def refuse_disputed(played: RoundState) -> None:
    """Refuse (``EventError`` "disputed") while a table of ``played`` has a disputed hand:
    it is settled first (corrected, or confirmed by the other side). Hands only waiting for
    a confirmation do not hold the round back."""
    games = [t.game for t in played.tables if t.game is not None]
    found = table_marks(games)
    places = [
        (t.number, found[t.game_id].disputed)
        for t in played.tables
        if t.game_id in found and found[t.game_id].disputed
    ]
    if places:
        raise EventError(
            "disputed",
            num=sum(len(hands) for _, hands in places),
            round=played.number,
            places=[[number, list(hands)] for number, hands in places],
        )


def table_setup(info: EventInfo, names: Sequence[str], sides: Any) -> rules.Game:
    """The game one table plays: the event's variant and switches, its players in seat
    order, partnerships named after their players ("Ana & Bo"; each name isolated, so one
    written right to left, or with a direction override, keeps to itself)."""
    teams = None
    if sides is not None:
        teams = {}
        for number, positions in enumerate(sides, start=1):
            members = [names[p] for p in positions]
            team = " & ".join(isolated(m) for m in members)
            if len(team) > rules.NAME_MAX or team in teams:
                more = f" +{len(members) - 1}"
                team = isolated(members[0][: rules.NAME_MAX - len(more) - 2]) + more
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
        locked_event(event_id, None)
        current = _current_round(event_id)
        if current.paused_at is None and current.called_at is None:
            run(update(ROUND).where(ROUND.c.id == current.id).values(paused_at=utcnow()))
            bump_version(event_id)


def resume_clock(event_id: int) -> None:
    with write_transaction():
        locked_event(event_id, None)
        current = _current_round(event_id)
        if current.paused_at is not None:
            paused = int((utcnow() - current.paused_at).total_seconds())
            run(
                update(ROUND)
                .where(ROUND.c.id == current.id)
                .values(paused_at=None, paused_seconds=current.paused_seconds + paused)
            )
            bump_version(event_id)


def call_time(event_id: int) -> int:
    """Call time on the round: every table's game not finished ends after its hand in play
    (``operations.games.calling_time``, as one game's "call time" does), in one transaction;
    the clock stops. Once the knockout has started, its games in play are the round's: each
    is called (the round robin's clock, stopped with its last round, is left as it is).
    Return how many games time was called on."""
    with write_transaction():
        info = locked_event(event_id, None)
        current = _current_round(event_id)
        knockout = info.knockout_seeds is not None
        if knockout:
            playing = (
                select(KNOCKOUT.c.game_id)
                .join(GAME, GAME.c.id == KNOCKOUT.c.game_id)
                .where(KNOCKOUT.c.event_id == event_id, GAME.c.finished_at.is_(None))
            )
        else:
            playing = select(TABLE.c.game_id).where(
                TABLE.c.round_id == current.id, TABLE.c.game_id.is_not(None)
            )
        game_ids = sorted(db.session.execute(playing).scalars())
        called = sum(1 for game_id in game_ids if game_ops.calling_time(game_id) is not None)
        if not knockout:
            now = utcnow()
            values: dict[str, Any] = {"called_at": current.called_at or now}
            if current.paused_at is not None:
                values["paused_at"] = None
                values["paused_seconds"] = current.paused_seconds + int(
                    (now - current.paused_at).total_seconds()
                )
            run(update(ROUND).where(ROUND.c.id == current.id).values(**values))
        bump_version(event_id)
        return called


def finish_event(event_id: int) -> None:
    """Mark the event over (its last round played): its standings are final."""
    with write_transaction():
        info = locked_event(event_id, None)
        state = state_of(info)
        if not state.over:
            raise EventError("not-over")
        if info.knockout_size is not None:
            from .bracket import knockout_of

            found = knockout_of(state)
            if found is None or found.champion is None:
                raise EventError("knockout-not-over")
        if info.finished_at is None:
            run(update(EVENT).where(EVENT.c.id == event_id).values(finished_at=utcnow()))
            bump_version(event_id)
