"""An event's standings from its games: per player (or team), ranked by stated tie-breaks.

Each game an entrant played is one ``GameScore``: won or not, points for and against, and
how the game ended (at the target, on most points after its hands, RULES.md 11.4, or when
time was called). The standings add them up and rank by ``order``, a sequence of
``TieBreak``s: the first decides, each next one only between entrants still level; those
level after all of them share the place (1, 2, 2, 4).

- **A bye** (a round sat out) scores the round's winners' average: points for and against
  are the averages of that round's winning games, each rounded to the nearest whole point
  (halves away from zero), and it counts as a win (``bye_is_win``). A round with no
  winning game yet scores the bye 0 to 0.
- **Head-to-head** counts, among the entrants level at that step, the wins each has over
  the others: one per level entrant beaten in a game.
- **A withdrawn entrant** keeps every round played and is ranked by it; ``withdrawn`` marks
  them.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from enum import StrEnum
from typing import TYPE_CHECKING

from ..errors import N_, Phrase
from ..scoring import WinReason
from .errors import EventError
from .seating import Player

if TYPE_CHECKING:
    from ..scoring import GameResult


class Ending(StrEnum):
    """How a game ended (RULES.md 11.4): a win by sections 3-7, or on most points."""

    #: Won by the rules of sections 3-7 (the target, a smudge, a count-out...).
    TARGET = "target"
    #: The game's count of hands was reached and the side alone at the top won.
    MOST_POINTS = "most-points"
    #: Time was called and the side alone at the top after its hand in play won.
    CALLED = "called"


class TieBreak(StrEnum):
    """One way of ranking entrants; the standings apply them in the order given."""

    WINS = "wins"
    POINTS = "points"
    DIFFERENCE = "difference"
    POINTS_AGAINST = "points-against"
    HEAD_TO_HEAD = "head-to-head"
    TARGET_WINS = "target-wins"


#: What each tie-break says on the standings page (N_: translated where shown).
TIE_BREAK_WORDS: Mapping[TieBreak, str] = {
    TieBreak.WINS: N_("most games won"),
    TieBreak.POINTS: N_("most points"),
    TieBreak.DIFFERENCE: N_("largest points difference (points for minus points against)"),
    TieBreak.POINTS_AGAINST: N_("fewest points against"),
    TieBreak.HEAD_TO_HEAD: N_("most wins over the others still level"),
    TieBreak.TARGET_WINS: N_("most games won by reaching the target"),
}

#: Partnership round robins and fixed teams: wins first.
DEFAULT_ORDER: tuple[TieBreak, ...] = (
    TieBreak.WINS,
    TieBreak.POINTS,
    TieBreak.DIFFERENCE,
    TieBreak.POINTS_AGAINST,
    TieBreak.HEAD_TO_HEAD,
)
#: Progressive and individual tables: each player's own cumulative points, then wins.
POINTS_FIRST_ORDER: tuple[TieBreak, ...] = (
    TieBreak.POINTS,
    TieBreak.WINS,
    TieBreak.DIFFERENCE,
    TieBreak.POINTS_AGAINST,
    TieBreak.HEAD_TO_HEAD,
)


@dataclass(frozen=True)
class GameScore:
    """One entrant's result in one game of one round."""

    round: int
    entrant: Player
    won: bool
    #: The entrant's (their side's) final score.
    points_for: int
    #: The other side's final score; at a table of more than two sides, the best of theirs.
    points_against: int
    ending: Ending = Ending.TARGET
    #: Who they played against (for head-to-head): the other sides' players, or teams.
    opponents: tuple[Player, ...] = ()


@dataclass(frozen=True)
class Standing:
    """One entrant's line in the standings."""

    #: 1 for the first; entrants level after every tie-break share it (1, 2, 2, 4).
    place: int
    #: Whether another entrant has the same place.
    shared: bool
    entrant: Player
    #: Games played (byes not counted) and byes.
    played: int
    byes: int
    #: Wins, a bye counting as one when ``bye_is_win``.
    wins: int
    #: Wins by sections 3-7 (``Ending.TARGET``), byes not counted.
    target_wins: int
    points_for: int
    points_against: int
    #: The rounds played or sat out, in order.
    rounds: tuple[int, ...]
    withdrawn: bool = False

    @property
    def losses(self) -> int:
        return self.played + self.byes - self.wins

    @property
    def difference(self) -> int:
        return self.points_for - self.points_against


def ending_of(result: GameResult) -> Ending:
    """How an engine game ended: on most points after its hands, after time called, or by
    sections 3-7 (an unfinished game has no ending: EventError)."""
    if result.winner is None:
        raise EventError("game-unfinished")
    if result.win_reason is WinReason.MOST_POINTS:
        return Ending.CALLED if result.game.limit_is_called else Ending.MOST_POINTS
    return Ending.TARGET


def game_scores(
    round_number: int, result: GameResult, sides: Mapping[str, Sequence[Player]]
) -> tuple[GameScore, ...]:
    """Turn one finished engine game into each player's ``GameScore``: ``sides`` maps the
    game's side names (its teams, or its players' names at a table each for themselves) to
    the players on them. A player's points are their side's final score; points against
    are the best of the other sides' scores."""
    ending = ending_of(result)
    if set(sides) != set(result.sides):
        raise EventError("sides-mismatch", sides=", ".join(result.sides))
    scores = []
    for name in result.sides:
        others = [other for other in result.sides if other != name]
        opponents = tuple(p for other in others for p in sides[other])
        against = max(result.scores[other] for other in others)
        for player in sides[name]:
            scores.append(
                GameScore(
                    round=round_number,
                    entrant=player,
                    won=name == result.winner,
                    points_for=result.scores[name],
                    points_against=against,
                    ending=ending,
                    opponents=opponents,
                )
            )
    return tuple(scores)


def _whole(total: int, count: int) -> int:
    """``total / count`` to the nearest whole number, halves away from zero."""
    return int((Decimal(total) / Decimal(count)).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def bye_score(games: Iterable[GameScore], round_number: int, entrant: Player) -> GameScore:
    """What a bye in ``round_number`` scores: the average of that round's winning games
    (one per winning player), rounded to whole points (halves away from zero), as a won
    game (``won`` True). With no winning game in the round yet, 0 to 0."""
    won = [g for g in games if g.round == round_number and g.won]
    if not won:
        return GameScore(round_number, entrant, True, 0, 0)
    return GameScore(
        round=round_number,
        entrant=entrant,
        won=True,
        points_for=_whole(sum(g.points_for for g in won), len(won)),
        points_against=_whole(sum(g.points_against for g in won), len(won)),
    )


def _check_order(order: Sequence[TieBreak]) -> tuple[TieBreak, ...]:
    if not order:
        raise EventError("tie-breaks-empty")
    seen: set[TieBreak] = set()
    for tie_break in order:
        if tie_break in seen:
            raise EventError("tie-break-twice", tie_break=Phrase(TIE_BREAK_WORDS[tie_break]))
        seen.add(tie_break)
    return tuple(order)


#: Each tie-break but head-to-head as a number, the larger the better.
_MEASURES: Mapping[TieBreak, Callable[[Standing], int]] = {
    TieBreak.WINS: lambda s: s.wins,
    TieBreak.POINTS: lambda s: s.points_for,
    TieBreak.DIFFERENCE: lambda s: s.difference,
    TieBreak.POINTS_AGAINST: lambda s: -s.points_against,
    TieBreak.TARGET_WINS: lambda s: s.target_wins,
}


def standings(
    games: Iterable[GameScore],
    *,
    byes: Mapping[int, Collection[Player]] | None = None,
    order: Sequence[TieBreak] = DEFAULT_ORDER,
    entrants: Collection[Player] = (),
    withdrawn: Collection[Player] = (),
    bye_is_win: bool = True,
) -> tuple[Standing, ...]:
    """Rank every entrant by ``order``, first place first (level entrants by id).

    ``byes`` maps a round number to who sat it out (each scores ``bye_score``); ``entrants``
    adds anyone registered who has no game yet (all zero); ``withdrawn`` marks who left
    (they keep their rounds, and are ranked by them). Raise EventError for an empty or
    repeated order, or a bye and a game in one round.
    """
    ranking = _check_order(order)
    played = list(games)
    by_entrant: dict[Player, list[GameScore]] = {p: [] for p in entrants}
    for game in played:
        by_entrant.setdefault(game.entrant, []).append(game)
    sat_out: dict[Player, list[GameScore]] = {}
    for number, players in sorted((byes or {}).items()):
        for player in players:
            if any(g.round == number for g in by_entrant.get(player, ())):
                raise EventError("bye-and-game", player=player, round=number)
            sat_out.setdefault(player, []).append(bye_score(played, number, player))
            by_entrant.setdefault(player, [])
    gone = set(withdrawn)
    lines = {
        player: _line(player, own, sat_out.get(player, []), bye_is_win, player in gone)
        for player, own in by_entrant.items()
    }
    groups = _rank(sorted(lines), lines, by_entrant, ranking)
    table: list[Standing] = []
    for group in groups:
        place = len(table) + 1
        for player in group:
            line = lines[player]
            table.append(
                Standing(
                    place=place,
                    shared=len(group) > 1,
                    entrant=player,
                    played=line.played,
                    byes=line.byes,
                    wins=line.wins,
                    target_wins=line.target_wins,
                    points_for=line.points_for,
                    points_against=line.points_against,
                    rounds=line.rounds,
                    withdrawn=line.withdrawn,
                )
            )
    return tuple(table)


def _line(
    player: Player,
    own: Sequence[GameScore],
    sat_out: Sequence[GameScore],
    bye_is_win: bool,
    withdrawn: bool,
) -> Standing:
    """One entrant's totals (placed later)."""
    return Standing(
        place=0,
        shared=False,
        entrant=player,
        played=len(own),
        byes=len(sat_out),
        wins=sum(g.won for g in own) + (len(sat_out) if bye_is_win else 0),
        target_wins=sum(g.won and g.ending is Ending.TARGET for g in own),
        points_for=sum(g.points_for for g in (*own, *sat_out)),
        points_against=sum(g.points_against for g in (*own, *sat_out)),
        rounds=tuple(sorted({g.round for g in (*own, *sat_out)})),
        withdrawn=withdrawn,
    )


def _rank(
    group: list[Player],
    lines: Mapping[Player, Standing],
    games: Mapping[Player, Sequence[GameScore]],
    order: Sequence[TieBreak],
) -> list[list[Player]]:
    """Split ``group`` (by id) into its places, best first, by the first tie-break, each
    part still level split by the next, and so on."""
    if len(group) < 2 or not order:
        return [group]
    first, rest = order[0], order[1:]
    if first is TieBreak.HEAD_TO_HEAD:
        level = set(group)
        value = {
            p: sum(sum(o in level for o in g.opponents) for g in games[p] if g.won) for p in group
        }
    else:
        measure = _MEASURES[first]
        value = {p: measure(lines[p]) for p in group}
    parts: dict[int, list[Player]] = {}
    for player in group:
        parts.setdefault(value[player], []).append(player)
    return [
        ranked
        for key in sorted(parts, reverse=True)
        for ranked in _rank(parts[key], lines, games, rest)
    ]


#: How the standings say their ranking, a sentence each (N_: translated where shown).
RANKED_BY = N_("Ranked by {rule}.")
THEN_BY = N_("Between those still level: {rule}.")
SHARE_THE_PLACE = N_("Those level after all of these share the place.")
BYE_AS_WIN = N_(
    "A bye scores the average of the round's winners (points for and against, each to the "
    "nearest whole point, halves away from zero) and counts as a win."
)
BYE_NOT_A_WIN = N_(
    "A bye scores the average of the round's winners (points for and against, each to the "
    "nearest whole point, halves away from zero) and does not count as a win."
)
WITHDRAWN_KEEP = N_("A player who withdraws keeps the rounds they played.")


def describe(
    order: Sequence[TieBreak] = DEFAULT_ORDER, *, bye_is_win: bool = True
) -> tuple[Phrase, ...]:
    """Say the ranking in words, a sentence each: one per tie-break in order, then how level
    entrants share a place, what a bye scores and what a withdrawal keeps (each a
    ``Phrase``: its N_ template and parameters, translated where shown)."""
    ranking = _check_order(order)
    said = [Phrase(RANKED_BY, rule=Phrase(TIE_BREAK_WORDS[ranking[0]]))]
    said += [Phrase(THEN_BY, rule=Phrase(TIE_BREAK_WORDS[t])) for t in ranking[1:]]
    said.append(Phrase(SHARE_THE_PLACE))
    said.append(Phrase(BYE_AS_WIN if bye_is_win else BYE_NOT_A_WIN))
    said.append(Phrase(WITHDRAWN_KEEP))
    return tuple(said)
