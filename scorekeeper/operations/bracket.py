"""Fixed teams' knockout as it stands: the bracket (``rules.events.knockout``) replayed
from its games, each match's table and games, the champion and the places. Nothing about
who won is stored; starting the knockout and its games is ``operations.knockout``'s."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from ..data.extensions import db
from ..rules import events as ev
from .events import KNOCKOUT, EventState, event_replays
from .loading import load_many
from .rows import Loaded


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
