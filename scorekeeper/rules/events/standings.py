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

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from ..errors import N_, Phrase
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
    sections 3-7 (an unfinished game has no ending: ValueError)."""
    raise NotImplementedError


def game_scores(
    round_number: int, result: GameResult, sides: Mapping[str, Sequence[Player]]
) -> tuple[GameScore, ...]:
    """Turn one finished engine game into each player's ``GameScore``: ``sides`` maps the
    game's side names (its teams, or its players' names at a table each for themselves) to
    the players on them. A player's points are their side's final score."""
    raise NotImplementedError


def bye_score(games: Iterable[GameScore], round_number: int, entrant: Player) -> GameScore:
    """What a bye in ``round_number`` scores: the average of that round's winning games,
    rounded to whole points (halves away from zero), as a won game (``won`` True)."""
    raise NotImplementedError


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

    ``byes`` maps a round number to who sat it out; ``entrants`` adds anyone registered who
    has no game yet (all zero); ``withdrawn`` marks who left (they keep their rounds).
    Raise EventError for an empty or repeated order, or a bye and a game in one round.
    """
    raise NotImplementedError


def describe(
    order: Sequence[TieBreak] = DEFAULT_ORDER, *, bye_is_win: bool = True
) -> tuple[Phrase, ...]:
    """Say the ranking in words, a sentence each: one per tie-break in order, then how level
    entrants share a place, then what a bye scores (each a ``Phrase``: N_ template and its
    parameters, translated where shown)."""
    raise NotImplementedError
