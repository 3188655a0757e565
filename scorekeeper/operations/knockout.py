"""Fixed teams' knockout: after the round robin, the top 2^k teams by the standings (the
engine's tie-breaks) in a bracket (``rules.events.knockout``), each match the best of N
ordinary games played at an event table (its card's code leads to the table's newest
game). Nothing about who won is stored: the bracket is replayed from the games, as the
standings are. A series' next game, and a next round's match, start as soon as the game
before ends (``game_finished``, after the hand that ends it), or from the director's
screen (``start_due_games``). The bracket as it stands is ``operations.bracket``'s."""

from __future__ import annotations

import logging
from dataclasses import replace

from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import SQLAlchemyError

from ..data import models
from ..data.database import run, write_transaction
from ..data.extensions import db
from ..data.models import utcnow
from ..rules import events as ev
from .bracket import knockout_of, members_of, round_robin_over
from .errors import EventError, OperationError
from .events import (
    EVENT,
    KNOCKOUT,
    EventState,
    bump_version,
    locked_event,
    state_of,
    table_game,
)
from .writing import refresh_stats, store_game

log = logging.getLogger(__name__)

GAME = models.Game.__table__

#: The knockout sizes and series lengths the setup offers.
KNOCKOUT_SIZES = (2, 4, 8, 16, 32)
BEST_OF = (1, 3, 5)


def check_knockout_setup(format: str, size: int | None, best_of: int | None) -> None:
    """Refuse a knockout the app cannot run (EventError naming what)."""
    if size is None:
        return
    if format != "teams":
        raise EventError("knockout-not-teams")
    if size not in KNOCKOUT_SIZES:
        raise EventError("bad-knockout-size", sizes=", ".join(map(str, KNOCKOUT_SIZES)))
    if best_of not in BEST_OF:
        raise EventError("bad-best-of", value=best_of)


def set_knockout(
    event_id: int, size: int | None, best_of: int | None, *, version: int | None
) -> None:
    """Change the knockout (its size, None for none, and best of N) before it starts."""
    with write_transaction():
        info = locked_event(event_id, version)
        if info.knockout_seeds is not None:
            raise EventError("knockout-started")
        check_knockout_setup(info.format, size, best_of)
        values = {"knockout_size": size, "best_of": best_of if size is not None else None}
        run(update(EVENT).where(EVENT.c.id == event_id).values(**values))
        bump_version(event_id)


# --- Starting it, and each game -----------------------------------------------------------------


def seeded(lines: tuple[ev.Standing, ...]) -> list[int]:
    """The teams in the standings' order (a shared place by the engine's last order), the
    withdrawn left out: seed 1 first."""
    return [line.entrant for line in lines if not line.withdrawn]


def refusal(state: EventState, lines: tuple[ev.Standing, ...]) -> EventError | None:
    """Why the knockout cannot start now (None: it can)."""
    info = state.event
    if info.format != "teams" or info.knockout_size is None:
        return EventError("no-knockout")
    if info.knockout_seeds is not None:
        return EventError("knockout-started")
    if not round_robin_over(state):
        return EventError("round-robin-not-over")
    teams = len(seeded(lines))
    if teams < info.knockout_size:
        return EventError("knockout-too-big", size=info.knockout_size, teams=teams)
    return None


def start_knockout(event_id: int, *, version: int | None) -> tuple[int, ...]:
    """Draw the knockout from the standings (their order, the engine's tie-breaks: the top
    ``knockout_size`` teams, seed 1 first) and start its first round's games, in one
    transaction under the event's lock and version. Refused without a knockout, once it
    has started, before the round robin is over, or with fewer teams than its places.
    Return the seeds."""
    from .standings import standings

    with write_transaction():
        info = locked_event(event_id, version)
        state = state_of(info)
        lines = standings(state).engine
        refused = refusal(state, lines)
        if refused is not None:
            raise refused
        assert info.knockout_size is not None  # refusal() said so
        seeds = seeded(lines)[: info.knockout_size]
        run(update(EVENT).where(EVENT.c.id == event_id).values(knockout_seeds=seeds))
        started = replace(state, event=replace(info, knockout_seeds=seeds))
        _start_due(started)
        bump_version(event_id)
        return tuple(seeds)


def start_due_games(event_id: int) -> int:
    """Start every match's next game that is due (a series still undecided with no game in
    play, or a match whose two teams are now known); return how many were started."""
    with write_transaction():
        info = locked_event(event_id, None)
        if info.knockout_seeds is None:
            raise EventError("no-knockout" if info.knockout_size is None else "knockout-waiting")
        started = _start_due(state_of(info))
        if started:
            bump_version(event_id)
        return started


def _start_due(state: EventState) -> int:
    from .rounds import table_setup

    found = knockout_of(state)
    if found is None:
        return 0
    members = members_of(state)
    names = state.names()
    started = 0
    for view in found.due:
        m = view.match
        assert m.top is not None and m.bottom is not None  # a due match has both
        top, bottom = members[m.top], members[m.bottom]
        number = 1 + (
            db.session.execute(
                select(func.coalesce(func.max(KNOCKOUT.c.number), 0)).where(
                    KNOCKOUT.c.event_id == state.event.id,
                    KNOCKOUT.c.stage == m.round,
                    KNOCKOUT.c.match == m.match,
                )
            ).scalar_one()
        )
        # The sides take turns to deal first: the top team in games 1, 3, 5.
        first, second = (top, bottom) if number % 2 else (bottom, top)
        seats = (first[0], second[0], first[1], second[1])
        game = table_setup(state.event, [names[p] for p in seats], ((0, 2), (1, 3)))
        stored = store_game(game)
        refresh_stats(stored.row, stored.result, stored.player_ids)
        _follows(state.event.id, view.table, stored.row.id)
        run(
            insert(KNOCKOUT),
            {
                "event_id": state.event.id,
                "stage": m.round,
                "match": m.match,
                "number": number,
                "table": view.table,
                "top": m.top,
                "bottom": m.bottom,
                "game_id": stored.row.id,
                "seats": list(seats),
                "sides": [[0, 2], [1, 3]],
                "created_at": utcnow(),
            },
        )
        started += 1
    return started


def _follows(event_id: int, table: int, game_id: int) -> None:
    """The table's game before (if finished) leads to the new one: its page's "Go to the
    next game", where its phones are."""
    before = table_game(event_id, table)
    if before is not None:
        run(
            update(GAME)
            .where(GAME.c.id == before, GAME.c.finished_at.is_not(None))
            .where(GAME.c.next_game_id.is_(None))
            .values(next_game_id=game_id)
        )


def event_of_game(game_id: int) -> int | None:
    """The event whose knockout a game belongs to, if any."""
    return db.session.execute(
        select(KNOCKOUT.c.event_id).where(KNOCKOUT.c.game_id == game_id)
    ).scalar()


def game_finished(game_id: int) -> None:
    """After the hand that ended a game: if it is a knockout game, start what is due (the
    series' next game, or the next round's match). A failure here leaves the hand saved;
    the director's screen starts the games due."""
    try:
        event_id = event_of_game(game_id)
        if event_id is not None:
            start_due_games(event_id)
    except (OperationError, SQLAlchemyError) as error:
        db.session.rollback()
        log.warning("knockout game %s: the next game did not start (%s)", game_id, error)


def knockout_places(state: EventState, lines: tuple[ev.Standing, ...]) -> dict[int, int] | None:
    """Every team's place for the prizes: the knockout's (``Knockout.places``), then the
    teams it did not draw in their standings order; None while the final is to be played."""
    found = knockout_of(state)
    if found is None:
        return {line.entrant: line.place for line in lines}
    places = found.places()
    if not places:
        return None
    rest = [line for line in lines if line.entrant not in places]
    for line in rest:
        places[line.entrant] = found.size + 1 + sum(1 for o in rest if o.place < line.place)
    return places
