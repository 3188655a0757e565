"""The points, the house-rule switches and the variants (RULES.md sections 2, 4, 5, 10).

Every variant is one declaration of data; the scoring code reads it and has no
``if variant == ...`` of its own. A table's own game is its preset plus its switches:
``Variant.house_rules`` checks them all in one place, and ``Variant.shaped`` gives the
variant the game is really played with (its points, bids, smudge bid, win rule...).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from functools import cached_property
from typing import Any

from .errors import N_, RuleError, quote

# The words for the switches and the rules card live in their own module; they are
# re-exported here, where the rest of the app has always found them.
from .switch_words import CARD_SENTENCES as CARD_SENTENCES
from .switch_words import SCORING_SENTENCES as SCORING_SENTENCES
from .switch_words import SWITCH_CHOICES as SWITCH_CHOICES
from .switch_words import SWITCH_SENTENCES as SWITCH_SENTENCES
from .switch_words import SWITCH_WORDS as SWITCH_WORDS


@dataclass(frozen=True)
class Point:
    """A scoring point: key, name at the table, value, whether it may go to nobody, what it
    is, and the mark a paper sheet writes for it (``H``)."""

    key: str
    name: str
    value: int
    may_be_nobody: bool
    help: str
    mark: str
    #: Whether the hand form says its worth (a table may not know what an Off-Jack is worth).
    worth_shown: bool = False


POINTS: dict[str, Point] = {
    p.key: p
    for p in (
        Point("high", N_("High"), 1, False, N_("highest trump in play"), N_("H")),
        Point("low", N_("Low"), 1, False, N_("lowest trump in play"), N_("L")),
        Point(
            "jack", N_("Jack"), 1, True, N_("jack of trumps; nobody if it was not dealt"), N_("J")
        ),
        Point(
            "game", N_("Game"), 1, True, N_("most game-count in tricks; nobody on a tie"), N_("G")
        ),
        Point("joker", N_("Joker"), 1, True, N_("the Joker; nobody if it was not dealt"), N_("Jk")),
        Point("six", N_("Six"), 1, True, N_("six of trumps; nobody if it was not dealt"), N_("6")),
        Point("last_trick", N_("Last trick"), 1, False, N_("winning the last trick"), N_("LT")),
        Point(
            "pedro", N_("Pedro"), 5, True, N_("five of trumps; nobody if it was not dealt"), N_("P")
        ),
        Point(
            "right_pedro",
            N_("Right Pedro"),
            5,
            True,
            N_("five of trumps; nobody if not in play"),
            N_("RP"),
        ),
        Point(
            "left_pedro", N_("Left Pedro"), 5, True, N_("other five of the trump colour"), N_("LP")
        ),
        Point(
            "off_jack",
            N_("Off-Jack"),
            1,
            True,
            N_("the other jack of the trump colour; nobody if it was not dealt"),
            N_("OJ"),
            worth_shown=True,
        ),
        Point(
            "big_joker",
            N_("Big Joker"),
            1,
            True,
            N_("the high Joker; nobody if it was not dealt"),
            N_("BJ"),
            worth_shown=True,
        ),
        Point(
            "little_joker",
            N_("Little Joker"),
            1,
            True,
            N_("the low Joker; nobody if it was not dealt"),
            N_("LJ"),
            worth_shown=True,
        ),
        Point(
            "three",
            N_("Three"),
            3,
            True,
            N_("three of trumps; nobody if it was not dealt"),
            N_("3"),
            worth_shown=True,
        ),
        # RULES.md section 11.1: the point cards of 7-, 11- and 13-Point Pitch and Sancho Pedro.
        Point(
            "ten",
            N_("Ten"),
            1,
            True,
            N_("ten of trumps, a point of its own; nobody if it was not dealt"),
            N_("10"),
            worth_shown=True,
        ),
        Point(
            "off_ace",
            N_("Off-Ace"),
            1,
            True,
            N_("the ace of the other suit of the trump colour; nobody if it was not dealt"),
            N_("OA"),
            worth_shown=True,
        ),
        Point(
            "off_three",
            N_("Off-Three"),
            3,
            True,
            N_("the three of the other suit of the trump colour; nobody if it was not dealt"),
            N_("O3"),
            worth_shown=True,
        ),
        Point(
            "nine",
            N_("Nine"),
            9,
            True,
            N_("nine of trumps; nobody if it was not dealt"),
            N_("9"),
            worth_shown=True,
        ),
    )
}

#: In Pedro and Cinch "Game" is the ten of trumps: the same key, other words at the table.
TEN_OF_TRUMPS_GAME = Point(
    "game", N_("Game (ten)"), 1, True, N_("ten of trumps; nobody if not in play"), N_("G")
)


class LowTo(StrEnum):
    HOLDER = "holder"
    TAKER = "taker"


class Smudge(StrEnum):
    OFF = "off"
    NOT_IN_HOLE = "not-in-hole"
    ALWAYS = "always"


class AllPass(StrEnum):
    """What happens when every player passes (RULES.md sections 5, 11.3)."""

    DEALER_TAKES = "dealer-takes"
    REDEAL_SAME_DEALER = "redeal-same-dealer"
    REDEAL_NEXT_DEALER = "redeal-next-dealer"
    #: The dealer's side is set back by the lowest bid, and the deal passes left (Smear).
    DEALER_SET = "dealer-set"


class GameTie(StrEnum):
    NOBODY = "nobody"


class WinRule(StrEnum):
    COUNT_OUT = "count-out"
    BIDDER_ONLY = "bidder-only"
    FIRST_TO_TARGET = "first-to-target"


class PitcherScores(StrEnum):
    """What a made contract scores (RULES.md section 3 step 2)."""

    ALL = "all"
    BID = "bid"


class SmudgeFailed(StrEnum):
    """What a failed smudge or moon bid costs (RULES.md sections 5, 10)."""

    SET_BACK = "set-back"
    LOSES = "loses"


class Scoring(StrEnum):
    """How a hand's points become score changes: section 3, or Cinch's section 6."""

    STANDARD = "standard"
    CINCH = "cinch"


@dataclass(frozen=True)
class HouseRules:
    """The switches a table may change when it creates a game (RULES.md sections 5, 10).

    A variant declares only the first seven; its ``preset`` fills in the shape of the
    game (``min_bid`` to ``gap``) from the variant's own data, so every value is
    declared once. A game's house rules hold the value in force for every switch.
    ``target`` is None only in a game that ends by its count of ``hands`` (section 11.4).
    """

    target: int | None
    low_to: LowTo
    smudge: Smudge
    all_pass: AllPass
    game_tie: GameTie = GameTie.NOBODY
    payout_in_hole: int = 2
    payout_per_setback: int = 0
    min_bid: int = 0
    smudge_failed: SmudgeFailed = SmudgeFailed.SET_BACK
    points: tuple[str, ...] = ()
    max_bid: int = 0
    smudge_bid: int | None = None
    win_rule: WinRule = WinRule.COUNT_OUT
    pitcher_scores: PitcherScores = PitcherScores.ALL
    gap: int = 0
    #: The number of played hands after which the game ends (RULES.md 11.4); None: no limit.
    hands: int | None = None

    def as_dict(self) -> dict[str, Any]:
        """Return the switches as JSON values, in declaration order."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, StrEnum):
                value = str(value)
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        return out


SWITCH_NAMES: tuple[str, ...] = tuple(f.name for f in fields(HouseRules))
#: The switches of the game's shape (RULES.md section 10), and min_bid, which no variant
#: whose scoring is its own (Cinch, Sell-Out) may change.
SHAPE_SWITCHES: tuple[str, ...] = (
    "min_bid",
    "points",
    "max_bid",
    "smudge_bid",
    "win_rule",
    "pitcher_scores",
    "gap",
)
_ENUM_SWITCHES: dict[str, tuple[type[StrEnum], tuple[str, ...]]] = {
    "low_to": (LowTo, tuple(LowTo)),
    "smudge": (Smudge, tuple(Smudge)),
    "all_pass": (AllPass, tuple(AllPass)),
    "game_tie": (GameTie, tuple(GameTie)),
    "smudge_failed": (SmudgeFailed, tuple(SmudgeFailed)),
    # First to target is Cinch's own rule, not a choice for a table.
    "win_rule": (WinRule, (WinRule.COUNT_OUT, WinRule.BIDDER_ONLY)),
    "pitcher_scores": (PitcherScores, tuple(PitcherScores)),
}
#: Whole-number switches and their lowest value (the upper bounds depend on the game).
_INT_SWITCHES: dict[str, int] = {
    "target": 1,
    "payout_in_hole": 0,
    "payout_per_setback": 0,
    "min_bid": 1,
    "max_bid": 1,
    "gap": 0,
}
#: The most hands a game may be played to with the ``hands`` switch (RULES.md 11.4).
HANDS_SWITCH_MAX = 200
#: Points a table may not put in play: Cinch's fives belong to Cinch's own scoring.
_POINTS_NOT_ALLOWED = ("right_pedro", "left_pedro")
#: The points a table may put in play in its own shape of the game (Cinch's fives are
#: Cinch's), in count-out order (RULES.md section 10).
TABLE_POINTS: tuple[Point, ...] = tuple(
    p for k, p in POINTS.items() if k not in _POINTS_NOT_ALLOWED
)


def low_to_applies(point: Point) -> bool:
    """Whether the ``low_to`` switch says who scores ``point`` (Low: RULES.md section 5)."""
    return point.key == "low"


#: Points that cannot be in play together: one Joker, or the two Jokers of 10-Point Pitch.
_POINTS_EXCLUSIVE = (("joker", "big_joker"), ("joker", "little_joker"))
#: Every Game count in a pack (tens 10, aces 4, kings 3, queens 2, jacks 1): 20 in each suit.
GAME_COUNT_MAX = 80


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Variant:
    """A preset: the fixed rules of one game of the family plus its default house rules.

    ``house`` declares the preset's values of the section 5 switches; the shape of the
    game (points, bids, smudge bid, win rule, what the pitcher scores, gap) is declared
    by the other fields. ``preset`` is the two together. A game played with a table's
    own shape uses ``shaped(rules)``, a copy that keeps its preset in ``base``.
    """

    key: str
    name: str
    description: str
    min_seats: int
    max_seats: int
    points: tuple[Point, ...]
    min_bid: int
    max_bid: int
    house: HouseRules
    pitcher_scores_bid: bool = False
    win_rule: WinRule = WinRule.COUNT_OUT
    gap: int = 0
    smudge_bid: int | None = None
    #: What the table calls the smudge bid (10-Point Pitch shoots the moon), as a card says it.
    smudge_name: str = N_("Smudge")
    scoring: Scoring = Scoring.STANDARD
    sales: bool = False
    teams_required: bool = False
    #: Cinch and Sell-Out score in their own way: the shape switches do not apply.
    shape_fixed: bool = False
    #: The preset a shaped variant was made from (None: this is the preset).
    base: Variant | None = field(default=None, compare=False, repr=False)

    @cached_property
    def point_keys(self) -> tuple[str, ...]:
        return tuple(p.key for p in self.points)

    @cached_property
    def points_in_play(self) -> int:
        return sum(p.value for p in self.points)

    @cached_property
    def preset(self) -> HouseRules:
        """The preset's value of every switch, the shape of the game included."""
        if self.base is not None:
            return self.base.preset
        return replace(
            self.house,
            min_bid=self.min_bid,
            points=self.point_keys,
            max_bid=self.max_bid,
            smudge_bid=self.smudge_bid,
            win_rule=self.win_rule,
            pitcher_scores=PitcherScores.BID if self.pitcher_scores_bid else PitcherScores.ALL,
            gap=self.gap,
        )

    @cached_property
    def ten_is_game(self) -> bool:
        """Whether this game's ``game`` point is the ten of trumps (Pedro, Cinch: RULES.md 2)."""
        return any(p is TEN_OF_TRUMPS_GAME for p in (self.base or self).points)

    @property
    def counts_game(self) -> bool:
        """Whether ``game`` is in play as the game-count (not the ten of trumps, RULES.md 10)."""
        return any(p is POINTS["game"] for p in self.points)

    def point(self, key: str) -> Point:
        return next(p for p in self.points if p.key == key)

    def smudge_in_force(self, rules: HouseRules) -> int | None:
        """The bid that wins or fails as a smudge in a game with these house rules (RULES.md
        section 3 step 4.1, section 10): the smudge bid, or None if there is none or the
        table's ``smudge`` switch is off."""
        if self.smudge_bid is None or rules.smudge is Smudge.OFF:
            return None
        return self.smudge_bid

    def house_rules(self, overrides: dict[str, Any] | None = None) -> HouseRules:
        """Apply a table's switches to the preset, checking each (RULES.md sections 5, 10, 11).

        Raise RuleError for an unknown switch, a value of the wrong kind or out of
        range, a shape switch on a variant whose scoring is its own, a point list
        that cannot be played (Pedro's Game beside the Ten too), bids that do not fit the
        points, the smudge switch on a game that has no smudge bid, ``dealer-set`` in
        Cinch or Sell-Out, and a null target without ``hands`` or with a smudge that could
        end the game. (``smudge_failed: loses`` also needs exactly two sides:
        ``Game.create`` checks that, as it knows the sides.)
        """
        given = dict(overrides or {})
        changes: dict[str, Any] = {}
        for name, value in given.items():
            field_name = f"house_rules.{name}"
            if name not in SWITCH_NAMES:
                raise RuleError(
                    "unknown-switch",
                    field="house_rules",
                    switch=name,
                    allowed=", ".join(SWITCH_NAMES),
                )
            if self.shape_fixed and name in SHAPE_SWITCHES:
                raise RuleError(
                    "switch-not-for-variant", field=field_name, switch=name, variant=self.name
                )
            if name == "smudge" and given.get("smudge_bid", self.smudge_bid) is None:
                raise RuleError("switch-no-smudge", field=field_name, variant=self.name)
            if name == "points":
                changes[name] = self._check_points(value)
            elif name == "smudge_bid":
                if value is not None and not _whole(value):
                    raise RuleError("switch-bid", field=field_name, switch=name, value=quote(value))
                changes[name] = value
            elif name == "hands":
                if value is not None and not (_whole(value) and 1 <= value <= HANDS_SWITCH_MAX):
                    raise RuleError(
                        "switch-hands", field=field_name, max=HANDS_SWITCH_MAX, value=quote(value)
                    )
                changes[name] = value
            elif name == "target" and value is None:
                # RULES.md 11.4: only a game that ends by its count of hands has no target.
                if given.get("hands") is None:
                    raise RuleError("switch-target-null", field=field_name)
                changes[name] = None
            elif name in _INT_SWITCHES:
                minimum = _INT_SWITCHES[name]
                if not _whole(value) or value < minimum:
                    raise RuleError(
                        "switch-range",
                        field=field_name,
                        switch=name,
                        min=minimum,
                        value=quote(value),
                    )
                changes[name] = value
            else:
                enum, allowed = _ENUM_SWITCHES[name]
                if not isinstance(value, str) or value not in allowed:
                    raise RuleError(
                        "switch-value",
                        field=field_name,
                        switch=name,
                        value=quote(value),
                        allowed=", ".join(allowed),
                    )
                changes[name] = enum(value)
                if changes[name] is AllPass.DEALER_SET and self.shape_fixed:
                    # RULES.md 11.3: Cinch and Sell-Out never set a dealer back for passing.
                    raise RuleError("switch-dealer-set", field=field_name, variant=self.name)
        preset = self.preset
        if "points" in changes and "max_bid" not in changes:
            # The highest bid is the points' total unless the table says otherwise.
            changes["max_bid"] = sum(POINTS[key].value for key in changes["points"])
        if "smudge_bid" not in changes and preset.smudge_bid is not None:
            changes["smudge_bid"] = changes.get("max_bid", preset.max_bid)
        if (
            "smudge" not in changes
            and preset.smudge_bid is None
            and changes.get("smudge_bid") is not None
        ):
            # A smudge bid given to a variant that has none wins unless in the hole (RULES.md
            # section 10): the mode in force before the shape is checked, so that
            # ``smudge_failed: loses`` sees it.
            changes["smudge"] = Smudge.NOT_IN_HOLE
        if "target" in changes and changes["target"] is None:
            _check_no_target(changes, given)
        rules = replace(preset, **changes)
        self._check_shape(rules, given)
        return rules

    def _check_points(self, value: object) -> tuple[str, ...]:
        """Check a ``points`` switch: distinct known keys, High and Low, no clashing points."""
        field_name = "house_rules.points"
        if not isinstance(value, list) or not all(isinstance(k, str) for k in value):
            raise RuleError("switch-points-list", field=field_name, value=quote(value))
        allowed = [p.key for p in TABLE_POINTS]
        seen: set[str] = set()
        for key in value:
            if key not in allowed:
                raise RuleError(
                    "switch-points-unknown",
                    field=field_name,
                    point=quote(key),
                    allowed=", ".join(allowed),
                )
            if key in seen:
                raise RuleError("switch-points-twice", field=field_name, point=key)
            seen.add(key)
        for needed in ("high", "low"):
            if needed not in seen:
                raise RuleError("switch-points-needs", field=field_name, point=needed)
        for one, other in _POINTS_EXCLUSIVE:
            if one in seen and other in seen:
                raise RuleError("switch-points-clash", field=field_name, one=one, other=other)
        if "ten" in seen and "game" in seen and self.ten_is_game:
            # RULES.md section 11.1: Pedro's Game is the ten of trumps already.
            raise RuleError("switch-points-ten-game", field="house_rules", variant=self.name)
        return tuple(value)

    def _check_shape(self, rules: HouseRules, given: dict[str, Any]) -> None:
        """Check that the bids fit the points, and the smudge switches the smudge bid."""
        total = sum(POINTS[key].value for key in rules.points)
        if rules.max_bid > total:
            raise RuleError(
                "switch-max-bid-total",
                field="house_rules.max_bid",
                max_bid=rules.max_bid,
                total=total,
            )
        if rules.min_bid > rules.max_bid:
            culprit = next((n for n in ("min_bid", "max_bid", "points") if n in given), "min_bid")
            raise RuleError(
                "switch-min-above-max",
                field=f"house_rules.{culprit}",
                min_bid=rules.min_bid,
                max_bid=rules.max_bid,
            )
        bid = rules.smudge_bid
        if bid is not None and not rules.min_bid <= bid <= rules.max_bid:
            raise RuleError(
                "switch-smudge-bid-range",
                field="house_rules.smudge_bid",
                bid=bid,
                min_bid=rules.min_bid,
                max_bid=rules.max_bid,
            )
        if rules.smudge_failed is SmudgeFailed.LOSES and (
            bid is None or rules.smudge is Smudge.OFF
        ):
            raise RuleError("switch-smudge-failed", field="house_rules.smudge_failed")

    def shaped(self, rules: HouseRules) -> Variant:
        """Return the variant as a game with these house rules plays it (RULES.md 10).

        The preset itself when the shape is the preset's; otherwise a copy with the
        table's points (in its count-out order), bids, smudge bid, win rule, what the
        pitcher scores and gap. In Pedro, ``game`` stays the ten of trumps.
        """
        preset = self.preset
        if (
            rules.points == preset.points
            and rules.min_bid == preset.min_bid
            and rules.max_bid == preset.max_bid
            and rules.smudge_bid == preset.smudge_bid
            and rules.win_rule == preset.win_rule
            and rules.pitcher_scores == preset.pitcher_scores
            and rules.gap == preset.gap
        ):
            return self
        return replace(
            self,
            points=_points(*rules.points, ten_is_game=self.ten_is_game),
            min_bid=rules.min_bid,
            max_bid=rules.max_bid,
            smudge_bid=rules.smudge_bid,
            win_rule=rules.win_rule,
            pitcher_scores_bid=rules.pitcher_scores is PitcherScores.BID,
            gap=rules.gap,
            base=self,
        )


def _check_no_target(changes: dict[str, Any], given: dict[str, Any]) -> None:
    """Check the smudge switches of a game without a target (RULES.md 11.4), where nothing but
    the count of hands ends the game: ``smudge`` given only as ``off`` (a mode the table did
    not give becomes ``off``), ``smudge_failed`` only as ``set-back``."""
    smudge = changes.get("smudge") if "smudge" in given else None
    if smudge is not None and smudge is not Smudge.OFF:
        raise RuleError("switch-no-target-smudge", field="house_rules.smudge", value=quote(smudge))
    failed = changes.get("smudge_failed")
    if failed is SmudgeFailed.LOSES:
        raise RuleError(
            "switch-no-target-smudge-failed", field="house_rules.smudge_failed", value=quote(failed)
        )
    changes["smudge"] = Smudge.OFF


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
            house=HouseRules(7, LowTo.HOLDER, Smudge.NOT_IN_HOLE, AllPass.DEALER_TAKES),
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
            house=HouseRules(10, LowTo.TAKER, Smudge.NOT_IN_HOLE, AllPass.DEALER_TAKES),
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
            house=HouseRules(7, LowTo.HOLDER, Smudge.NOT_IN_HOLE, AllPass.DEALER_TAKES),
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
            shape_fixed=True,
            house=HouseRules(7, LowTo.HOLDER, Smudge.OFF, AllPass.REDEAL_SAME_DEALER),
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
            house=HouseRules(12, LowTo.HOLDER, Smudge.OFF, AllPass.DEALER_TAKES),
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
            house=HouseRules(21, LowTo.TAKER, Smudge.OFF, AllPass.DEALER_TAKES),
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
            shape_fixed=True,
            house=HouseRules(51, LowTo.TAKER, Smudge.OFF, AllPass.REDEAL_NEXT_DEALER),
        ),
        Variant(
            key="ten-point",
            name=N_("10-Point Pitch"),
            description=N_(
                "Two Jokers, the Off-Jack and the Three worth 3: ten points a hand, "
                "bid 4 to 10, first to 52; only a made bid goes out, and a made bid "
                "of 10 shoots the moon."
            ),
            min_seats=3,
            max_seats=6,
            points=_points(
                "high", "low", "jack", "off_jack", "big_joker", "little_joker", "three", "game"
            ),
            min_bid=4,
            max_bid=10,
            smudge_bid=10,
            smudge_name=N_("Shooting the moon"),
            win_rule=WinRule.BIDDER_ONLY,
            house=HouseRules(52, LowTo.HOLDER, Smudge.ALWAYS, AllPass.DEALER_TAKES),
        ),
    )
}


def find_variant(key: str) -> Variant:
    """Return the variant named by ``key``; raise ValueError for an unknown key."""
    try:
        return VARIANTS[key]
    except KeyError:
        raise ValueError(f"unsupported variant: {key!r}") from None
