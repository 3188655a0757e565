"""Fixed teams' knockout: after the round robin, the top 2^k teams by the standings (the
engine's tie-breaks) in a bracket (``rules.events.knockout``), each match the best of N
ordinary games played at an event table (its card's code leads to the table's newest
game). Nothing about who won is stored: the bracket is replayed from the games, as the
standings are. A series' next game, and a next round's match, start as soon as the game
before ends (``game_finished``, after the hand that ends it), or from the director's
screen (``start_due_games``)."""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import SQLAlchemyError

from ..data import models
from ..data.database import run, write_transaction
from ..data.extensions import db
from ..data.models import utcnow
from ..rules import events as ev
from .errors import EventError, OperationError
from .events import (
    EVENT,
    KNOCKOUT,
    EventInfo,
    EventState,
    bump_version,
    locked_event,
    state_of,
    table_game,
)
from .loading import load_many
from .rows import Loaded
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


# --- The bracket, replayed from its games ------------------------------------------------------


@dataclass(frozen=True)
class KnockoutGame:
    """One game of a match: ``top`` and ``bottom`` (team ids), its table, its players (ids
    in seat order), and its game as replayed (None: deleted, or no longer replays)."""

    stage: int
    match: int
    number: int
    table: int
    top: int
    bottom: int
    game_id: int | None
    seats: tuple[int, ...]
    game: Loaded | None

    @property
    def finished(self) -> bool:
        return self.game is not None and self.game.result.finished

    @property
    def winner(self) -> int | None:
        """The team that won it (None: not finished, or nobody won)."""
        loaded = self.game
        if loaded is None or not loaded.result.finished or loaded.game.teams is None:
            return None
        by_name = dict(zip(loaded.names, self.seats, strict=True))
        members = dict(loaded.game.teams).get(loaded.result.winner or "", ())
        won = {by_name[name] for name in members}
        if won and won <= set(self._members(self.top)):
            return self.top
        if won and won <= set(self._members(self.bottom)):
            return self.bottom
        return None

    def score_of(self, team: int) -> int | None:
        """The team's score in this game (None: no game)."""
        loaded = self.game
        if loaded is None or loaded.game.teams is None:
            return None
        by_name = dict(zip(loaded.names, self.seats, strict=True))
        members = set(self._members(team))
        for name, players in loaded.game.teams:
            if {by_name[p] for p in players} <= members:
                return loaded.result.scores.get(name)
        return None

    def _members(self, team: int) -> tuple[int, ...]:
        # Seats alternate the two sides (0 and 2 against 1 and 3); game 1's top deals first.
        first = self.seats[0::2]
        second = self.seats[1::2]
        top_first = self.number % 2 == 1
        if team == self.top:
            return first if top_first else second
        return second if top_first else first


@dataclass(frozen=True)
class MatchView:
    """A match of the bracket with its table and games."""

    match: ev.KnockoutMatch
    table: int
    games: tuple[KnockoutGame, ...]

    @property
    def playing(self) -> KnockoutGame | None:
        """Its game in play (started, not finished), if one is."""
        return next((g for g in reversed(self.games) if not g.finished), None)

    @property
    def due(self) -> bool:
        """Both teams known, undecided, and no game in play: its next game should start."""
        m = self.match
        return m.top is not None and m.bottom is not None and m.winner is None and not self.playing


@dataclass(frozen=True)
class Knockout:
    """An event's knockout: its size, series length, seeds (None: not started) and, once
    started, the bracket replayed from its games, round by round."""

    size: int
    best_of: int
    seeds: tuple[int, ...] | None
    rounds: tuple[tuple[MatchView, ...], ...] = ()

    @property
    def started(self) -> bool:
        return self.seeds is not None

    @property
    def champion(self) -> int | None:
        return self.rounds[-1][0].match.winner if self.rounds else None

    @property
    def runner_up(self) -> int | None:
        if self.champion is None:
            return None
        final = self.rounds[-1][0].match
        return final.bottom if final.winner == final.top else final.top

    @property
    def due(self) -> tuple[MatchView, ...]:
        return tuple(m for r in self.rounds for m in r if m.due)

    def places(self) -> dict[int, int]:
        """The knockout's teams by place once its final is played: the champion 1st, the
        runner-up 2nd, the losers of each round before level on the place after those
        still in (both semi-final losers 3rd, the quarter-finals' 5th); {} before."""
        if self.champion is None or self.runner_up is None:
            return {}
        found = {self.champion: 1, self.runner_up: 2}
        for played in self.rounds[:-1]:
            for view in played:
                m = view.match
                loser = m.bottom if m.winner == m.top else m.top
                if loser is not None:
                    found[loser] = len(played) + 1
        return found


def table_of(stage: int, match: int) -> int:
    """The table a match is played at: round 1's match m at table m, a later match at its
    top feeder's table (decided before it starts), so no table has two matches at once."""
    return (1 << (stage - 1)) * (match - 1) + 1


def members_of(state: EventState) -> dict[int, tuple[int, ...]]:
    """Every fixed team (withdrawn players too: a knockout's team stays as it was drawn)."""
    by_name: dict[str, list[int]] = {}
    for p in state.players:
        if p.team is not None:
            by_name.setdefault(p.team, []).append(p.player_id)
    return {members[0]: tuple(members) for members in by_name.values()}


def _games(event_id: int, *, games: bool = True) -> list[KnockoutGame]:
    rows = list(
        db.session.execute(
            select(KNOCKOUT)
            .where(KNOCKOUT.c.event_id == event_id)
            .order_by(KNOCKOUT.c.stage, KNOCKOUT.c.match, KNOCKOUT.c.number)
        )
    )
    loaded: dict[int, Any] = {}
    ids = [r.game_id for r in rows if r.game_id is not None]
    if games and ids:
        from .events import event_replays

        loaded = load_many(ids, cache=event_replays())
    return [
        KnockoutGame(
            r.stage,
            r.match,
            r.number,
            r.table,
            r.top,
            r.bottom,
            r.game_id,
            tuple(r.seats),
            found if isinstance(found := loaded.get(r.game_id), Loaded) else None,
        )
        for r in rows
    ]


def knockout_of(state: EventState) -> Knockout | None:
    """The event's knockout (None: it has none), replayed from its games."""
    info = state.event
    if info.knockout_size is None:
        return None
    best_of = info.best_of or 1
    if info.knockout_seeds is None:
        return Knockout(info.knockout_size, best_of, None)
    played = _games(info.id)
    bracket = ev.knockout(list(info.knockout_seeds), best_of)
    views: list[list[MatchView]] = []
    for stage, matches in enumerate(bracket.rounds, start=1):
        shown = []
        for number in range(1, len(matches) + 1):
            m = bracket.match(stage, number)
            own = tuple(
                g
                for g in played
                if (g.stage, g.match, g.top, g.bottom) == (stage, number, m.top, m.bottom)
            )
            if m.top is not None and m.bottom is not None:
                top_wins = bottom_wins = 0
                for g in own:
                    if max(top_wins, bottom_wins) >= m.needed:
                        break
                    top_wins += g.winner == m.top
                    bottom_wins += g.winner == m.bottom
                bracket = ev.knockout_result(bracket, stage, number, top_wins, bottom_wins)
                m = bracket.match(stage, number)
            shown.append(MatchView(m, table_of(stage, number), own))
        views.append(shown)
    rounds = tuple(tuple(r) for r in views)
    return Knockout(info.knockout_size, best_of, tuple(info.knockout_seeds), rounds)


def round_robin_over(state: EventState) -> bool:
    """Whether every round of the round robin has been played to the end (the event's
    rounds, or the schedule's if it has fewer)."""
    current = state.current
    if current is None or not current.finished:
        return False
    teams = members_of(state)
    schedule = len(ev.team_round_robin(sorted(teams))) if len(teams) >= 2 else 0
    return current.number >= min(state.event.rounds, schedule or state.event.rounds)


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


def knockout_info(info: EventInfo) -> tuple[int, int] | None:
    """The event's knockout setup: (size, best of), or None."""
    if info.knockout_size is None:
        return None
    return info.knockout_size, info.best_of or 1
