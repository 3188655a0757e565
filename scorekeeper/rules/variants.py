"""The points, the house-rule switches and the seven variants (RULES.md sections 2, 4, 5).

Every variant is one declaration of data; the scoring code reads it and has no
``if variant == ...`` of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from enum import StrEnum
from functools import cached_property
from typing import Any

from .errors import N_, RuleError, quote


@dataclass(frozen=True)
class Point:
    """A scoring point: key, name at the table, value, and whether it may go to nobody."""

    key: str
    name: str
    value: int
    may_be_nobody: bool
    help: str


POINTS: dict[str, Point] = {
    p.key: p
    for p in (
        Point("high", N_("High"), 1, False, N_("highest trump in play")),
        Point("low", N_("Low"), 1, False, N_("lowest trump in play")),
        Point("jack", N_("Jack"), 1, True, N_("jack of trumps; nobody if it was not dealt")),
        Point("game", N_("Game"), 1, True, N_("most game-count in tricks; nobody on a tie")),
        Point("joker", N_("Joker"), 1, True, N_("the Joker; nobody if it was not dealt")),
        Point("six", N_("Six"), 1, True, N_("six of trumps; nobody if it was not dealt")),
        Point("last_trick", N_("Last trick"), 1, False, N_("winning the last trick")),
        Point("pedro", N_("Pedro"), 5, True, N_("five of trumps; nobody if it was not dealt")),
        Point(
            "right_pedro", N_("Right Pedro"), 5, True, N_("five of trumps; nobody if not in play")
        ),
        Point("left_pedro", N_("Left Pedro"), 5, True, N_("other five of the trump colour")),
    )
}

#: In Pedro and Cinch "Game" is the ten of trumps: the same key, other words at the table.
TEN_OF_TRUMPS_GAME = Point(
    "game", N_("Game (ten)"), 1, True, N_("ten of trumps; nobody if not in play")
)


class LowTo(StrEnum):
    HOLDER = "holder"
    TAKER = "taker"


class Smudge(StrEnum):
    OFF = "off"
    NOT_IN_HOLE = "not-in-hole"
    ALWAYS = "always"


class AllPass(StrEnum):
    DEALER_TAKES = "dealer-takes"
    REDEAL_SAME_DEALER = "redeal-same-dealer"
    REDEAL_NEXT_DEALER = "redeal-next-dealer"


class GameTie(StrEnum):
    NOBODY = "nobody"


class WinRule(StrEnum):
    COUNT_OUT = "count-out"
    BIDDER_ONLY = "bidder-only"
    FIRST_TO_TARGET = "first-to-target"


class Scoring(StrEnum):
    """How a hand's points become score changes: section 3, or Cinch's section 6."""

    STANDARD = "standard"
    CINCH = "cinch"


@dataclass(frozen=True)
class HouseRules:
    """The switches a table may change when it creates a game (RULES.md section 5)."""

    target: int
    low_to: LowTo
    smudge: Smudge
    all_pass: AllPass
    game_tie: GameTie = GameTie.NOBODY
    payout_in_hole: int = 2
    payout_per_setback: int = 0

    def as_dict(self) -> dict[str, Any]:
        """Return the switches as JSON values, in declaration order."""
        return {
            f.name: (str(v) if isinstance(v := getattr(self, f.name), StrEnum) else v)
            for f in fields(self)
        }


SWITCH_NAMES: tuple[str, ...] = tuple(f.name for f in fields(HouseRules))
_ENUM_SWITCHES: dict[str, type[StrEnum]] = {
    "low_to": LowTo,
    "smudge": Smudge,
    "all_pass": AllPass,
    "game_tie": GameTie,
}
_INT_SWITCHES: dict[str, int] = {"target": 1, "payout_in_hole": 0, "payout_per_setback": 0}


@dataclass(frozen=True)
class Variant:
    """A preset: the fixed rules of one game of the family plus its default house rules."""

    key: str
    name: str
    description: str
    min_seats: int
    max_seats: int
    points: tuple[Point, ...]
    min_bid: int
    max_bid: int
    preset: HouseRules
    pitcher_scores_bid: bool = False
    win_rule: WinRule = WinRule.COUNT_OUT
    gap: int | None = None
    smudge_bid: int | None = None
    scoring: Scoring = Scoring.STANDARD
    sales: bool = False
    teams_required: bool = False

    @cached_property
    def point_keys(self) -> tuple[str, ...]:
        return tuple(p.key for p in self.points)

    @cached_property
    def points_in_play(self) -> int:
        return sum(p.value for p in self.points)

    def point(self, key: str) -> Point:
        return next(p for p in self.points if p.key == key)

    def house_rules(self, overrides: dict[str, Any] | None = None) -> HouseRules:
        """Apply a table's switches to the preset, checking each (RULES.md section 5).

        Raise RuleError for an unknown switch, a value out of range, or the smudge
        switch on a variant that has no smudge bid.
        """
        changes: dict[str, Any] = {}
        for name, value in (overrides or {}).items():
            field = f"house_rules.{name}"
            if name not in SWITCH_NAMES:
                raise RuleError(
                    "unknown-switch",
                    field="house_rules",
                    switch=name,
                    allowed=", ".join(SWITCH_NAMES),
                )
            if name == "smudge" and self.smudge_bid is None:
                raise RuleError("switch-no-smudge", field=field, variant=self.name)
            if name in _INT_SWITCHES:
                minimum = _INT_SWITCHES[name]
                if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
                    raise RuleError(
                        "switch-range", field=field, switch=name, min=minimum, value=quote(value)
                    )
                changes[name] = value
            else:
                enum = _ENUM_SWITCHES[name]
                allowed = [str(m) for m in enum]
                if not isinstance(value, str) or value not in allowed:
                    raise RuleError(
                        "switch-value",
                        field=field,
                        switch=name,
                        value=quote(value),
                        allowed=", ".join(allowed),
                    )
                changes[name] = enum(value)
        return replace(self.preset, **changes)


def _points(*keys: str, ten_is_game: bool = False) -> tuple[Point, ...]:
    return tuple(
        TEN_OF_TRUMPS_GAME if (key == "game" and ten_is_game) else POINTS[key] for key in keys
    )


VARIANTS: dict[str, Variant] = {
    v.key: v
    for v in (
        Variant(
            key="auction-pitch",
            name=N_("Auction Pitch"),
            description=N_(
                "Setback: bid 2 to 4 for High, Low, Jack and Game; first to 7, "
                "a made bid of 4 smudges."
            ),
            min_seats=2,
            max_seats=7,
            points=_points("high", "low", "jack", "game"),
            min_bid=2,
            max_bid=4,
            smudge_bid=4,
            preset=HouseRules(7, LowTo.HOLDER, Smudge.NOT_IN_HOLE, AllPass.DEALER_TAKES),
        ),
        Variant(
            key="joker-pitch",
            name=N_("Joker Pitch"),
            description=N_("Auction Pitch with a Joker as a fifth point; bid 2 to 5, first to 10."),
            min_seats=2,
            max_seats=7,
            points=_points("high", "low", "jack", "joker", "game"),
            min_bid=2,
            max_bid=5,
            smudge_bid=5,
            preset=HouseRules(10, LowTo.TAKER, Smudge.NOT_IN_HOLE, AllPass.DEALER_TAKES),
        ),
        Variant(
            key="racehorse-pitch",
            name=N_("Racehorse Pitch"),
            description=N_("Auction Pitch with a 32-card pack (A to 7), up to 5 players."),
            min_seats=2,
            max_seats=5,
            points=_points("high", "low", "jack", "game"),
            min_bid=2,
            max_bid=4,
            smudge_bid=4,
            preset=HouseRules(7, LowTo.HOLDER, Smudge.NOT_IN_HOLE, AllPass.DEALER_TAKES),
        ),
        Variant(
            key="sell-out",
            name=N_("Sell-Out"),
            description=N_(
                "Commercial Pitch: the seller pitches, sells the bid for points "
                "or keeps it; first to 7."
            ),
            min_seats=2,
            max_seats=7,
            points=_points("high", "low", "jack", "game"),
            min_bid=1,
            max_bid=4,
            sales=True,
            preset=HouseRules(7, LowTo.HOLDER, Smudge.OFF, AllPass.REDEAL_SAME_DEALER),
        ),
        Variant(
            key="pitch-six",
            name=N_("Pitch Six"),
            description=N_(
                "Six points with the Six and Last trick; the pitcher scores only "
                "the bid, and only a made bid (or a lead of 12) wins at 12."
            ),
            min_seats=3,
            max_seats=6,
            points=_points("high", "low", "jack", "six", "last_trick", "game"),
            min_bid=3,
            max_bid=6,
            pitcher_scores_bid=True,
            win_rule=WinRule.BIDDER_ONLY,
            gap=12,
            preset=HouseRules(12, LowTo.HOLDER, Smudge.OFF, AllPass.DEALER_TAKES),
        ),
        Variant(
            key="pedro",
            name=N_("Pedro"),
            description=N_(
                "Nine points with the Pedro (five of trumps) worth 5; bid 1 to 9, first to 21."
            ),
            min_seats=2,
            max_seats=7,
            points=_points("high", "low", "jack", "game", "pedro", ten_is_game=True),
            min_bid=1,
            max_bid=9,
            preset=HouseRules(21, LowTo.TAKER, Smudge.OFF, AllPass.DEALER_TAKES),
        ),
        Variant(
            key="cinch",
            name=N_("Cinch"),
            description=N_(
                "High Five / Double Pedro: two teams, 14 points, the side that "
                "takes more scores the difference; first to 51."
            ),
            min_seats=4,
            max_seats=6,
            points=_points(
                "high", "low", "jack", "game", "right_pedro", "left_pedro", ten_is_game=True
            ),
            min_bid=0,
            max_bid=14,
            scoring=Scoring.CINCH,
            win_rule=WinRule.FIRST_TO_TARGET,
            teams_required=True,
            preset=HouseRules(51, LowTo.TAKER, Smudge.OFF, AllPass.REDEAL_NEXT_DEALER),
        ),
    )
}


def find_variant(key: str) -> Variant:
    """Return the variant named by ``key``; raise ValueError for an unknown key."""
    try:
        return VARIANTS[key]
    except KeyError:
        raise ValueError(f"unsupported variant: {key!r}") from None
