"""Fixed teams: a round robin by the circle method (a bye for an odd count), then a knockout
of the top 2^k, each match the best of N games.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..errors import N_, Phrase
from .errors import EventError
from .tables import Team, distinct_teams


@dataclass(frozen=True)
class Match:
    """One match of a team round: ``home`` against ``away`` at ``table``."""

    table: int
    home: Team
    away: Team


@dataclass(frozen=True)
class TeamRound:
    """One round of a team round robin: its matches and the team with a bye (odd counts)."""

    number: int
    matches: tuple[Match, ...]
    bye: Team | None = None


TEAMS_MIN = 2


def team_round_robin(teams: Sequence[Team]) -> list[TeamRound]:
    """Every team plays every other once: n-1 rounds for an even count, n for an odd one (a
    bye each round, each team once), by the circle method (the first team fixed, the home
    side alternating for it round by round)."""
    listed: list[Team | None] = list(distinct_teams(teams))
    if len(listed) < TEAMS_MIN:
        raise EventError(
            "too-few-teams", format=Phrase(N_("A round robin")), min=TEAMS_MIN, count=len(listed)
        )
    if len(listed) % 2:
        listed.append(None)
    places = len(listed)
    schedule = []
    for turn in range(places - 1):
        turning = listed[1:]
        shifted = [listed[0], *turning[turn:], *turning[:turn]]
        matches: list[Match] = []
        bye = None
        for i in range(places // 2):
            home, away = shifted[i], shifted[places - 1 - i]
            if i == 0 and turn % 2:
                home, away = away, home
            if home is None or away is None:
                bye = away if home is None else home
                continue
            matches.append(Match(len(matches) + 1, home, away))
        schedule.append(TeamRound(turn + 1, tuple(matches), bye))
    return schedule


@dataclass(frozen=True)
class KnockoutMatch:
    """One knockout match, the best of ``best_of`` games: ``top`` against ``bottom`` (None
    while still waiting for the winner of an earlier match), and the games each has won."""

    round: int
    match: int
    best_of: int
    top: Team | None
    bottom: Team | None
    top_wins: int = 0
    bottom_wins: int = 0

    @property
    def needed(self) -> int:
        """Games a side must win to take the match."""
        return self.best_of // 2 + 1

    @property
    def begun(self) -> bool:
        return self.top_wins + self.bottom_wins > 0

    @property
    def winner(self) -> Team | None:
        if self.top_wins >= self.needed:
            return self.top
        if self.bottom_wins >= self.needed:
            return self.bottom
        return None


@dataclass(frozen=True)
class Bracket:
    """A knockout: its rounds of matches (the first round first, the final last)."""

    best_of: int
    rounds: tuple[tuple[KnockoutMatch, ...], ...]

    @property
    def champion(self) -> Team | None:
        return self.rounds[-1][0].winner if self.rounds else None

    def match(self, round_number: int, match: int) -> KnockoutMatch:
        """Match ``match`` (from 1) of round ``round_number`` (from 1); EventError if none."""
        if 1 <= round_number <= len(self.rounds) and 1 <= match <= len(
            self.rounds[round_number - 1]
        ):
            return self.rounds[round_number - 1][match - 1]
        raise EventError("match-unknown", round=round_number, match=match)


def bracket_order(size: int) -> tuple[int, ...]:
    """The seeds in bracket order for ``size`` (a power of 2): neighbours play each other in
    the first round, and the best seed left meets the worst (1, 8, 4, 5, 2, 7, 3, 6)."""
    order = [1]
    while len(order) < size:
        doubled = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, doubled - s)]
    return tuple(order)


def knockout(seeded_teams: Sequence[Team], best_of: int) -> Bracket:
    """Draw a knockout of 2^k teams in seed order (the best first): 1 plays 2^k, 2 plays
    2^k-1, and so on, placed so that seeds 1 and 2 can meet only in the final."""
    teams = distinct_teams(seeded_teams)
    count = len(teams)
    if count < TEAMS_MIN or count & (count - 1):
        raise EventError("knockout-size", count=count)
    if isinstance(best_of, bool) or not isinstance(best_of, int) or best_of < 1 or not best_of % 2:
        raise EventError("best-of", best_of=best_of)
    order = bracket_order(count)
    first = tuple(
        KnockoutMatch(1, i + 1, best_of, teams[order[2 * i] - 1], teams[order[2 * i + 1] - 1])
        for i in range(count // 2)
    )
    rounds = [first]
    while len(rounds[-1]) > 1:
        number = len(rounds) + 1
        rounds.append(
            tuple(
                KnockoutMatch(number, i + 1, best_of, None, None)
                for i in range(len(rounds[-1]) // 2)
            )
        )
    return Bracket(best_of, tuple(rounds))


def knockout_result(
    bracket: Bracket, round_number: int, match: int, top_wins: int, bottom_wins: int
) -> Bracket:
    """Record the games won so far in one match; once a side has won enough, it goes into
    its place in the next round (the winner of match 2m-1 on top of match m, of 2m at its
    bottom). A match whose next match has begun cannot change."""
    played = bracket.match(round_number, match)
    if played.top is None or played.bottom is None:
        raise EventError("match-waiting", round=round_number, match=match)
    needed = played.needed
    for wins in (top_wins, bottom_wins):
        if isinstance(wins, bool) or not isinstance(wins, int) or not 0 <= wins <= needed:
            break
    else:
        wins_ok = not (top_wins == needed and bottom_wins == needed)
        if wins_ok:
            return _record(bracket, played, top_wins, bottom_wins)
    raise EventError(
        "match-wins",
        top_wins=top_wins,
        bottom_wins=bottom_wins,
        best_of=bracket.best_of,
        needed=needed,
    )


def _record(bracket: Bracket, played: KnockoutMatch, top_wins: int, bottom_wins: int) -> Bracket:
    rounds = [list(r) for r in bracket.rounds]
    now = replace(played, top_wins=top_wins, bottom_wins=bottom_wins)
    rounds[played.round - 1][played.match - 1] = now
    if played.round < len(rounds):
        following = rounds[played.round][(played.match - 1) // 2]
        on_top = played.match % 2 == 1
        if (following.top if on_top else following.bottom) != now.winner:
            if following.begun:
                raise EventError("match-decided", round=played.round, match=played.match)
            moved = (
                replace(following, top=now.winner)
                if on_top
                else replace(following, bottom=now.winner)
            )
            rounds[played.round][(played.match - 1) // 2] = moved
    return Bracket(bracket.best_of, tuple(tuple(r) for r in rounds))
