"""Reading events for their pages: the director's screen, the standings, the room's board,
the printed lists, a season's table. Each reads the event once (``operations.events``) and
shapes plain values for a template; the standings and the seating come from the engine."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from .. import operations, rules
from ..data.models import utcnow
from ..operations.events import EventState, RoundState, TableState


@dataclass(frozen=True)
class SeatView:
    """A player's seat at a table: the seat (1 is the first dealer's), and their partner
    (None: no partners)."""

    seat: int
    name: str
    player_id: int
    side: int | None


@dataclass(frozen=True)
class TableView:
    """A table of a round as the director and the room see it."""

    number: int
    game_id: int | None
    seats: tuple[SeatView, ...]
    sides: tuple[tuple[str, ...], ...] | None
    hands: int
    scores: tuple[tuple[str, int], ...]
    finished: bool
    winner: str | None
    called: int | None
    limit: int | None
    #: A table of the next round, not started yet (no game).
    planned: bool = False
    #: The hands still waiting for the other side's confirmation, and those disputed
    #: (numbers, in order; the director's screen shows them), and whether every side signed.
    waiting: tuple[int, ...] = ()
    disputed: tuple[int, ...] = ()
    signed: bool = False

    @property
    def state(self) -> str:
        if self.planned:
            return "planned"
        if self.game_id is None:
            return "gone"
        if self.finished:
            return "finished"
        if self.called is not None:
            return "called"
        return "playing" if self.hands else "waiting"


def seat_views(
    seats: Sequence[int], sides: Sequence[Sequence[int]] | None, names: dict[int, str]
) -> tuple[SeatView, ...]:
    side_of: dict[int, int] = {}
    for number, positions in enumerate(sides or (), start=1):
        for position in positions:
            side_of[position] = number
    return tuple(
        SeatView(i + 1, names.get(pid, "?"), pid, side_of.get(i) if sides else None)
        for i, pid in enumerate(seats)
    )


def table_view(table: TableState, names: dict[int, str]) -> TableView:
    seats = seat_views(table.seats, table.sides, names)
    sides = None
    if table.sides is not None:
        sides = tuple(tuple(names.get(table.seats[p], "?") for p in side) for side in table.sides)
    loaded = table.game
    if loaded is None:
        return TableView(table.number, table.game_id, seats, sides, 0, (), True, None, None, None)
    result = loaded.result
    played = sum(1 for hand in loaded.hands if not hand.passed)
    return TableView(
        number=table.number,
        game_id=table.game_id,
        seats=seats,
        sides=sides,
        hands=played,
        scores=tuple(result.scores.items()),
        finished=result.finished,
        winner=result.winner,
        called=loaded.game.called,
        limit=loaded.game.hand_limit,
    )


@dataclass(frozen=True)
class Clock:
    """The round clock: how long it has run and is left (seconds), and its state."""

    number: int
    running: int
    left: int | None
    paused: bool
    called: bool
    finished: bool

    @property
    def shown(self) -> int:
        """The seconds the clock shows: those left if the round is timed, else those run."""
        return self.left if self.left is not None else self.running


def clock(state: EventState, current: RoundState, now: datetime | None = None) -> Clock:
    running = current.running_seconds(now or utcnow())
    minutes = state.event.round_minutes
    left = None if minutes is None else max(0, minutes * 60 - running)
    return Clock(
        current.number,
        running,
        left,
        current.paused_at is not None,
        current.called_at is not None,
        current.finished,
    )


@dataclass(frozen=True)
class Director:
    """Everything the director's screen shows."""

    state: EventState
    tables: tuple[TableView, ...]
    byes: tuple[str, ...]
    plan: tuple[TableView, ...] | None
    plan_byes: tuple[str, ...]
    plan_error: operations.errors.OperationError | None
    clock: Clock | None
    standings: operations.standings.Standings

    @property
    def event(self) -> operations.events.EventInfo:
        return self.state.event


def planned(state: EventState) -> tuple[tuple[TableView, ...] | None, tuple[str, ...], Any]:
    """The next round's seating as tables (no game yet), its byes, or why it cannot be."""
    if not state.can_start_next:
        return None, (), None
    names = state.names()
    try:
        plan = operations.rounds.next_seating(state)
    except operations.errors.EventError as error:
        return None, (), error
    tables = tuple(
        TableView(
            t.number,
            None,
            seat_views(t.seats, t.sides, names),
            None
            if t.sides is None
            else tuple(tuple(names[t.seats[p]] for p in side) for side in t.sides),
            0,
            (),
            False,
            None,
            None,
            None,
            planned=True,
        )
        for t in plan.tables
    )
    return tables, tuple(names[i] for i in plan.byes), None


def marked(tables: Sequence[TableState], views: Sequence[TableView]) -> tuple[TableView, ...]:
    """The tables with their unconfirmed and disputed hands and signatures, read from every
    table's trail at once (``operations.table_marks``: one query for the round)."""
    found = operations.table_marks.table_marks(t.game for t in tables if t.game is not None)
    out = []
    for view in views:
        marks = found.get(view.game_id) if view.game_id is not None else None
        if marks is not None:
            view = dataclasses.replace(
                view, waiting=marks.waiting, disputed=marks.disputed, signed=marks.signed
            )
        out.append(view)
    return tuple(out)


def director(event_id: int) -> Director:
    state = operations.events.load_event(event_id)
    names = state.names()
    current = state.current
    tables = tuple(table_view(t, names) for t in current.tables) if current else ()
    if current:
        tables = marked(current.tables, tables)
    byes = tuple(names.get(i, "?") for i in current.byes) if current else ()
    plan, plan_byes, error = planned(state)
    return Director(
        state=state,
        tables=tables,
        byes=byes,
        plan=plan,
        plan_byes=plan_byes,
        plan_error=error,
        clock=clock(state, current) if current else None,
        standings=operations.standings.standings(state),
    )


def room(event_id: int) -> Director:
    """The room's board: the director's view without the next round's plan."""
    state = operations.events.load_event(event_id)
    names = state.names()
    current = state.current
    return Director(
        state=state,
        tables=tuple(table_view(t, names) for t in current.tables) if current else (),
        byes=tuple(names.get(i, "?") for i in current.byes) if current else (),
        plan=None,
        plan_byes=(),
        plan_error=None,
        clock=clock(state, current) if current else None,
        standings=operations.standings.standings(state),
    )


def stamp(event_id: int) -> str | None:
    """What changes whenever the room's board would: the event's version and its games'."""
    return operations.events.stamp(event_id)


def game_ids(event_id: int) -> set[int]:
    """The games the room's board follows: every one played at the event."""
    return operations.events.game_ids(event_id)


def round_tables(
    state: EventState, number: int | None
) -> tuple[int, tuple[TableView, ...], tuple[str, ...]]:
    """A round's tables for the seat list: round ``number`` (started), else the round in
    play, else the next round's seating."""
    names = state.names()
    chosen = None
    if number is not None:
        chosen = next((r for r in state.rounds if r.number == number), None)
    elif state.current is not None and not (state.current.finished and state.can_start_next):
        chosen = state.current
    if chosen is not None:
        return (
            chosen.number,
            tuple(table_view(t, names) for t in chosen.tables),
            tuple(names.get(i, "?") for i in chosen.byes),
        )
    plan, byes, _error = planned(state)
    return state.next_number, plan or (), byes


def table_count(state: EventState) -> int:
    """How many tables the event seats (the most any round has, or the next round's)."""
    counts = [len(r.tables) for r in state.rounds]
    plan, _byes, _error = planned(state)
    if plan:
        counts.append(len(plan))
    return max(counts, default=0)


def money(view: Director) -> operations.standings.Money | None:
    """The event's pot, prizes and payments (None without an entry fee)."""
    return operations.standings.money(view.state, view.standings)


def variant_name(key: str) -> str:
    return rules.find_variant(key).name
