"""Property tests: random valid games of every variant, and random broken records.

The strategy builds games the way a table plays them, with a small model of
RULES.md written here (not the engine) to know the running scores: which Sell-Out
bids section 7 allows, and when the game is over so no hand follows the win.
``games(section_11=True)`` draws section 11 as well: more points in a table's ``points``,
``all_pass: dealer-set``, the ``hands`` switch with or without a target, time ``called``,
and hands dealt out of turn (GAME-RECORD.md's ``dealer``).
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rules_helpers import assert_one_line

from scorekeeper.rules import (
    FORMAT,
    Game,
    Hand,
    RuleError,
    dumps,
    loads_record,
    output_document,
    parse_record,
    record_to_json,
    score_game,
)
from scorekeeper.rules.game import name_key

SETTINGS = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@dataclass(frozen=True)
class Spec:
    """One row of RULES.md section 4, typed in from the table."""

    seats: tuple[int, int]
    points: tuple[tuple[str, int, bool], ...]  # key, value, may be credited to nobody
    bids: tuple[int, int]
    target: int
    smudge_bid: int | None
    scores_bid: bool
    win_rule: str
    all_pass: str
    gap: int | None = None
    smudge: str = "not-in-hole"  # the preset's smudge rule, where there is a smudge bid


def _p(*keys: str) -> tuple[tuple[str, int, bool], ...]:
    value = {"pedro": 5, "right_pedro": 5, "left_pedro": 5, "three": 3, "off_three": 3, "nine": 9}
    never_nobody = {"high", "low", "last_trick"}
    return tuple((k, value.get(k, 1), k not in never_nobody) for k in keys)


SPECS = {
    "auction-pitch": Spec(
        (2, 7), _p("high", "low", "jack", "game"), (2, 4), 7, 4, False, "count-out", "dealer-takes"
    ),
    "joker-pitch": Spec(
        (2, 7),
        _p("high", "low", "jack", "joker", "game"),
        (2, 5),
        10,
        5,
        False,
        "count-out",
        "dealer-takes",
    ),
    "racehorse-pitch": Spec(
        (2, 5), _p("high", "low", "jack", "game"), (2, 4), 7, 4, False, "count-out", "dealer-takes"
    ),
    "sell-out": Spec(
        (2, 7),
        _p("high", "low", "jack", "game"),
        (1, 4),
        7,
        None,
        False,
        "count-out",
        "redeal-same-dealer",
    ),
    "pitch-six": Spec(
        (3, 6),
        _p("high", "low", "jack", "six", "last_trick", "game"),
        (3, 6),
        12,
        None,
        True,
        "bidder-only",
        "dealer-takes",
        gap=12,
    ),
    "pedro": Spec(
        (2, 7),
        _p("high", "low", "jack", "game", "pedro"),
        (1, 9),
        21,
        None,
        False,
        "count-out",
        "dealer-takes",
    ),
    "cinch": Spec(
        (4, 6),
        _p("high", "low", "jack", "game", "right_pedro", "left_pedro"),
        (0, 14),
        51,
        None,
        False,
        "first-to-target",
        "redeal-next-dealer",
    ),
    "ten-point": Spec(
        (3, 6),
        _p("high", "low", "jack", "off_jack", "big_joker", "little_joker", "three", "game"),
        (4, 10),
        52,
        10,
        False,
        "bidder-only",
        "dealer-takes",
        smudge="always",
    ),
}


@dataclass
class Table:
    """The model: the game as a scorer with pencil and paper keeps it (RULES.md 1-3, 6-8)."""

    variant: str
    players: list[str]
    teams: dict[str, list[str]] | None
    rules: dict[str, Any]
    dealer: str
    #: Time called after this many played hands (RULES.md 11.4), or None.
    called: int | None = None
    scores: dict[str, int] = field(default_factory=dict)
    setbacks: dict[str, int] = field(default_factory=dict)
    winner: str | None = None
    reason: str | None = None
    winning_hand: int | None = None
    history: list[dict[str, Any]] = field(default_factory=list)
    played: int = 0

    def __post_init__(self) -> None:
        self.scores = dict.fromkeys(self.sides, 0)
        self.setbacks = dict.fromkeys(self.sides, 0)

    @property
    def spec(self) -> Spec:
        return SPECS[self.variant]

    @property
    def points(self) -> tuple[tuple[str, int, bool], ...]:
        """The points in play: the preset's, or a table's ``points`` (RULES.md 10, 11.1)."""
        return _p(*self.rules["points"]) if "points" in self.rules else self.spec.points

    @property
    def bids(self) -> tuple[int, int]:
        """The lowest and highest bid: with ``points`` changed, up to the points' total."""
        low, high = self.spec.bids
        if "points" in self.rules:
            high = sum(value for _, value, _ in self.points)
        return self.rules.get("min_bid", low), high

    @property
    def smudge_bid(self) -> int | None:
        """The smudge bid in force: none without a target; the top bid where the preset has one."""
        if self.spec.smudge_bid is None or self.rules.get("target", 0) is None:
            return None
        return self.bids[1]

    @property
    def limit(self) -> int | None:
        """The smaller of ``hands`` and ``called`` (RULES.md 11.4)."""
        limits = [n for n in (self.rules.get("hands"), self.called) if n is not None]
        return min(limits) if limits else None

    @property
    def sides(self) -> list[str]:
        if self.teams is None:
            return list(self.players)
        first_seat = {t: min(self.players.index(p) for p in m) for t, m in self.teams.items()}
        return sorted(self.teams, key=first_seat.__getitem__)

    def side(self, player: str) -> str:
        if self.teams is None:
            return player
        return next(t for t, members in self.teams.items() if player in members)

    def left(self, player: str) -> str:
        return self.players[(self.players.index(player) + 1) % len(self.players)]

    def rule(self, name: str) -> Any:
        defaults = {
            "target": self.spec.target,
            "smudge": self.spec.smudge if self.smudge_bid else "off",
            "all_pass": self.spec.all_pass,
            "payout_in_hole": 2,
            "payout_per_setback": 0,
        }
        return self.rules.get(name, defaults[name])

    def play(self, hand: dict[str, Any]) -> None:
        assert self.winner is None
        number = len(self.history) + 1
        before = dict(self.scores)
        dealer = hand.get("dealer", self.dealer)  # who really dealt (GAME-RECORD.md)
        if hand.get("passed"):
            if self.rule("all_pass") == "dealer-set":
                # RULES.md 11.3: the dealer's side is set back by the lowest bid.
                self.scores[self.side(dealer)] -= self.bids[0]
                self.setbacks[self.side(dealer)] += 1
            self.history.append({"dealer": dealer, "scores": dict(self.scores)})
            same = self.rule("all_pass") == "redeal-same-dealer"
            self.dealer = dealer if same else self.left(dealer)
            return
        target = self.rule("target")
        pitcher, bid = hand["pitcher"], hand["bid"]
        ps = self.side(pitcher)
        taken = dict.fromkeys(self.sides, 0)
        for key, value, _ in self.points:
            if hand["points"][key] is not None:
                taken[self.side(hand["points"][key])] += value
        made = taken[ps] >= bid
        sale = dict.fromkeys(self.sides, 0)
        if hand.get("sale") == "sold":
            sale[self.side(self.left(dealer))] += bid
        elif hand.get("sale") == "kept":
            sale[self.side(hand["high_bidder"])] += bid
        result = dict.fromkeys(self.sides, 0)
        if self.variant == "cinch":
            other = next(s for s in self.sides if s != ps)
            if made:
                if taken[ps] != taken[other]:
                    more = ps if taken[ps] > taken[other] else other
                    result[more] = abs(taken[ps] - taken[other])
            else:
                result[other] = 14 + bid - taken[ps]
        else:
            result = dict(taken)
            if not made:
                result[ps] = -bid
                self.setbacks[ps] += 1
            elif self.spec.scores_bid:
                result[ps] = bid
        after = {s: before[s] + sale[s] + result[s] for s in self.sides}
        self.scores = after
        self.history.append({"dealer": dealer, "scores": dict(after)})
        self.dealer = self.left(dealer)
        won = (
            None
            if target is None
            else self._winner(hand, ps, made, before, sale, result, after, target)
        )
        self.played += 1
        if not won and self.limit is not None and self.played >= self.limit:
            # RULES.md 11.4: the side alone at the top wins; a shared top plays on.
            top = max(after.values())
            leaders = [s for s in self.sides if after[s] == top]
            if len(leaders) == 1:
                won = leaders[0], "most-points"
        if won:
            self.winner, self.reason = won
            self.winning_hand = number

    def _winner(self, hand, ps, made, before, sale, result, after, target):
        smudge = self.rule("smudge")
        if (
            self.smudge_bid == hand["bid"]
            and made
            and smudge != "off"
            and (smudge == "always" or before[ps] >= 0)
        ):
            return ps, "smudge"
        if self.spec.win_rule == "first-to-target":
            reached = [s for s in self.sides if after[s] >= target]
            assert len(reached) <= 1
            return (reached[0], "first-to-target") if reached else None
        if made and after[ps] >= target:
            return ps, "bid-out"
        if self.spec.win_rule == "count-out":
            running = {s: before[s] + sale[s] for s in self.sides}
            running[ps] += result[ps]
            for key, value, _ in self.points:
                taker = hand["points"][key]
                if taker is None or self.side(taker) == ps:
                    continue
                running[self.side(taker)] += value
                if running[self.side(taker)] >= target:
                    return self.side(taker), "count-out"
        if self.spec.gap is not None:
            for s in self.sides:
                others = [after[o] for o in self.sides if o != s]
                if after[s] >= target and all(after[s] - o >= self.spec.gap for o in others):
                    return s, "gap"
        return None

    def units(self) -> dict[str, int]:
        owed = dict.fromkeys(self.players, 0)
        winners = [p for p in self.players if self.side(p) == self.winner]
        for loser in self.players:
            side = self.side(loser)
            if side == self.winner:
                continue
            pays = 1 if self.scores[side] >= 1 else self.rule("payout_in_hole")
            pays += self.rule("payout_per_setback") * self.setbacks[side]
            for payee in winners:
                owed[loser] -= pays
                owed[payee] += pays
        return owed


NAMES = st.text(
    st.characters(categories=("Lu", "Ll", "Nd"), max_codepoint=0x24F), min_size=1, max_size=6
)


def hand_for(
    rng: random.Random, table: Table, favourite: str, out_of_turn_chance: float = 0.0
) -> dict[str, Any]:
    """Make one hand that obeys the rules at this point of the game.

    The choices come from a seeded ``random.Random`` drawn by Hypothesis: one draw
    per game instead of dozens per hand keeps the suite fast.
    """
    players = table.players
    out_of_turn: dict[str, Any] = {}
    if out_of_turn_chance and rng.random() < out_of_turn_chance:
        # Someone deals out of turn; the record names them only then (GAME-RECORD.md).
        out_of_turn["dealer"] = rng.choice([p for p in players if p != table.dealer])
    dealer = out_of_turn.get("dealer", table.dealer)
    if table.rule("all_pass") != "dealer-takes" and rng.random() < 0.1:
        return {**out_of_turn, "passed": True}

    def someone() -> str:
        return favourite if rng.random() < 0.4 else rng.choice(players)

    points = {
        key: (None if nobody and rng.random() < 0.15 else someone())
        for key, _, nobody in table.points
    }
    low, high = table.bids
    hand: dict[str, Any]
    if table.variant == "sell-out":
        seller = table.left(dealer)
        other = rng.choice([p for p in players if p != seller])
        target = table.rule("target")
        sale = rng.choice(["pitched", "sold", "kept"])
        bids = [
            b
            for b in range(low, high + 1)
            if target is None  # no limit on a sale without a target (RULES.md 11.4)
            or (
                table.scores[table.side(seller)] + b < target
                and (sale != "kept" or table.scores[table.side(other)] + b < target)
            )
        ]
        if sale == "pitched" or not bids:
            hand = {"sale": "pitched", "pitcher": seller, "bid": 4}
        elif sale == "sold":
            hand = {"sale": "sold", "pitcher": other, "bid": rng.choice(bids)}
        else:
            hand = {
                "sale": "kept",
                "high_bidder": other,
                "pitcher": seller,
                "bid": rng.choice(bids),
            }
    else:
        pitcher = someone()
        if table.variant == "cinch" and table.side(pitcher) != table.side(dealer):
            low = 1
        hand = {"pitcher": pitcher, "bid": rng.randint(low, high)}
    if rng.random() < 0.15:
        # A clean sweep: the pitcher takes every point (so smudges happen too).
        points = dict.fromkeys(points, hand["pitcher"])
    hand["points"] = points
    if rng.random() < 0.05:
        hand["note"] = rng.choice(["misdeal", "", "Ann's \u2028 deal", "x" * 500])
    return {**out_of_turn, **hand}


#: Points a table may add to its preset's (RULES.md 10 and 11.1), by chance.
MORE_POINTS = ("ten", "off_ace", "off_three", "nine", "off_jack", "pedro", "six")


def _section_11_rules(
    draw: st.DrawFn, variant: str, rules: dict[str, Any]
) -> tuple[dict[str, Any], int | None]:
    """Add section 11's switches to a drawn game's house rules, and draw time called."""
    spec = SPECS[variant]
    own_scoring = variant in ("cinch", "sell-out")
    if not own_scoring and draw(st.booleans()):
        keys = [key for key, _, _ in spec.points]
        extra = draw(st.lists(st.sampled_from(MORE_POINTS), unique=True, max_size=3))
        keys += [k for k in extra if k not in keys and not (k == "ten" and variant == "pedro")]
        rules["points"] = draw(st.permutations(keys))
    if not own_scoring and draw(st.integers(0, 3)) == 0:
        rules["all_pass"] = "dealer-set"
    if draw(st.booleans()):
        rules["hands"] = draw(st.integers(1, 8))
        if draw(st.booleans()):
            rules["target"] = None
            # RULES.md 11.4: without a target a smudge may only be off (or left out).
            if rules.get("smudge", "off") != "off":
                del rules["smudge"]
    called = draw(st.one_of(st.none(), st.integers(1, 8)))
    return rules, called


@st.composite
def games(
    draw: st.DrawFn, finish: bool = False, section_11: bool = False
) -> tuple[dict[str, Any], Table]:
    """Draw a valid record of any variant and the model's account of it."""
    variant = draw(st.sampled_from(list(SPECS)))
    spec = SPECS[variant]
    if variant == "cinch":
        count = draw(st.sampled_from([4, 6]))
        shape: tuple[int, int] | None = (2, count // 2)
    else:
        count = draw(st.integers(*spec.seats))
        shapes = {4: [(2, 2)], 6: [(2, 3), (3, 2)]}.get(count, [])
        shape = draw(st.one_of(st.none(), st.sampled_from(shapes))) if shapes else None
    # One person per seat: names that differ only in case are one name (rules.game.name_key).
    players = draw(st.lists(NAMES, min_size=count, max_size=count, unique_by=name_key))
    teams = None
    if shape is not None:
        order = draw(st.permutations(players))
        n_teams, size = shape
        names = draw(st.lists(NAMES, min_size=n_teams, max_size=n_teams, unique=True))
        teams = {names[i]: list(order[i * size : (i + 1) * size]) for i in range(n_teams)}
    rules: dict[str, Any] = {}
    if draw(st.booleans()):
        rules["target"] = draw(st.integers(1, spec.target + 4))
    if spec.smudge_bid and draw(st.booleans()):
        rules["smudge"] = draw(st.sampled_from(["off", "not-in-hole", "always"]))
    if draw(st.booleans()):
        rules["all_pass"] = draw(
            st.sampled_from(["dealer-takes", "redeal-same-dealer", "redeal-next-dealer"])
        )
    if draw(st.booleans()):
        rules["low_to"] = draw(st.sampled_from(["holder", "taker"]))
    if draw(st.booleans()):
        rules["game_tie"] = "nobody"
    if draw(st.booleans()):
        rules["payout_in_hole"] = draw(st.integers(0, 3))
    if draw(st.booleans()):
        rules["payout_per_setback"] = draw(st.integers(0, 2))
    called = None
    if section_11:
        rules, called = _section_11_rules(draw, variant, rules)
    first_dealer = draw(st.one_of(st.none(), st.sampled_from(players)))
    stake = draw(st.one_of(st.none(), st.sampled_from(["0", "0.25", "1", "0.125", "2.50"])))
    table = Table(variant, players, teams, rules, first_dealer or players[0], called=called)
    favourite = draw(st.sampled_from(players))
    rng = random.Random(draw(st.integers(0, 2**32)))
    hands: list[dict[str, Any]] = []
    for _ in range(400 if finish else draw(st.integers(0, 25))):
        if table.winner is not None:
            break
        hand = hand_for(rng, table, favourite, 0.15 if section_11 else 0.0)
        table.play(hand)
        hands.append(hand)
    record: dict[str, Any] = {"format": FORMAT, "variant": variant}
    if rules:
        record["house_rules"] = rules
    record["players"] = players
    if teams is not None:
        record["teams"] = teams
    if first_dealer is not None:
        record["first_dealer"] = first_dealer
    if stake is not None:
        record["stake"] = stake
    if called is not None:
        record["called"] = called
    record["hands"] = hands
    return record, table


ANY_GAME = st.booleans().flatmap(lambda finish: games(finish=finish))
#: Any game, section 11's switches, time called and hands dealt out of turn included.
ANY_SECTION_11_GAME = st.booleans().flatmap(lambda finish: games(finish=finish, section_11=True))


@SETTINGS
@given(st.one_of(ANY_GAME, ANY_SECTION_11_GAME))
def test_the_engine_scores_random_games_as_the_rules_say(drawn):
    record, table = drawn
    result = parse_record(record).score()
    assert [h.dealer for h in result.hands] == [row["dealer"] for row in table.history]
    assert [dict(h.scores) for h in result.hands] == [row["scores"] for row in table.history]
    assert dict(result.scores) == table.scores
    assert dict(result.setbacks) == table.setbacks
    assert (result.winner, result.win_reason, result.winning_hand) == (
        table.winner,
        table.reason,
        table.winning_hand,
    )
    if table.winner is None:
        assert result.next_dealer == table.dealer
        assert result.settlement is None
    else:
        assert result.next_dealer is None
        assert dict(result.settlement.units) == table.units()


def spelled_out(variant: str) -> dict[str, Any]:
    """Write a preset's own shape as switches, from the rules table typed in above.

    RULES.md section 10: the switches a table may give, at the preset's values. Cinch
    and Sell-Out take none of the shape switches, only ``smudge_failed``.
    """
    spec = SPECS[variant]
    switches: dict[str, Any] = {"smudge_failed": "set-back"}
    if variant in ("cinch", "sell-out"):
        return switches
    switches.update(
        points=[key for key, _, _ in spec.points],
        min_bid=spec.bids[0],
        max_bid=spec.bids[1],
        smudge_bid=spec.smudge_bid,
        win_rule=spec.win_rule,
        pitcher_scores="bid" if spec.scores_bid else "all",
        gap=spec.gap or 0,
    )
    return switches


@SETTINGS
@given(games(), st.data())
def test_a_preset_spelled_out_as_switches_scores_every_game_as_the_bare_preset(drawn, data):
    record, _ = drawn
    switches = spelled_out(record["variant"])
    # Any part of the shape spelled out, from none of it to all of it.
    names = data.draw(st.lists(st.sampled_from(sorted(switches)), unique=True))
    shaped = copy.deepcopy(record)
    shaped["house_rules"] = {**record.get("house_rules", {}), **{n: switches[n] for n in names}}
    if not shaped["house_rules"]:
        del shaped["house_rules"]
    bare = output_document(parse_record(record).score())
    parsed = parse_record(shaped)
    assert output_document(parsed.score()) == bare
    # The record keeps exactly the switches given, even those equal to the preset's.
    assert record_to_json(parsed.game, parsed.hands) == shaped


@SETTINGS
@given(games())
def test_replaying_a_game_is_deterministic(drawn):
    record, _ = drawn
    first = output_document(parse_record(record).score())
    second = output_document(parse_record(copy.deepcopy(record)).score())
    assert first == second
    assert dumps(first) == dumps(second)


@SETTINGS
@given(games())
def test_running_scores_are_the_sum_of_the_deltas(drawn):
    record, _ = drawn
    result = parse_record(record).score()
    running = dict.fromkeys(result.sides, 0)
    for hand in result.hands:
        running = {side: running[side] + hand.delta[side] for side in result.sides}
        assert dict(hand.scores) == running
    assert dict(result.scores) == running


@SETTINGS
@given(st.one_of(ANY_GAME, ANY_SECTION_11_GAME), st.data())
def test_scoring_on_from_the_first_hands_scored_is_scoring_them_all(drawn, data):
    record, _ = drawn
    parsed = parse_record(record)
    whole = parsed.score()
    first = data.draw(st.integers(0, len(parsed.hands)))
    before = score_game(parsed.game, parsed.hands[:first])
    assert score_game(parsed.game, parsed.hands, after=before) == whole


POINTS = {"high": "Ana", "low": "Ana", "jack": None, "game": "Bogdan"}


def test_scoring_on_refuses_a_result_of_other_hands():
    game = Game.create("auction-pitch", ["Ana", "Bogdan"])
    hand = Hand(pitcher="Ana", bid=2, points=POINTS)
    other = Hand(pitcher="Bogdan", bid=2, points=POINTS)
    before = score_game(game, (hand,))
    with pytest.raises(ValueError, match="hand 1 is not the one scored"):
        score_game(game, (other, hand), after=before)
    with pytest.raises(ValueError, match="of more hands"):
        score_game(game, (), after=before)


EXTRA_HANDS = st.one_of(
    st.just({"passed": True}),
    st.builds(
        lambda bid: {"pitcher": "?", "bid": bid, "points": {}},
        st.integers(-5, 20),
    ),
)


@SETTINGS
@given(st.one_of(games(finish=True), games(finish=True, section_11=True)), EXTRA_HANDS, st.data())
def test_no_hand_can_be_added_to_a_finished_game(drawn, extra, data):
    record, table = drawn
    if table.winner is None:
        return  # the draw ran out of hands before anyone won; nothing to add to
    if "pitcher" in extra:
        extra = dict(extra, pitcher=data.draw(st.sampled_from(record["players"])))
    record["hands"].append(extra)
    try:
        parse_record(record)
    except RuleError as error:
        assert (error.code, error.hand) == ("hand-after-win", len(record["hands"]))
        assert_one_line(error)
    else:
        raise AssertionError("a hand was accepted after the game was won")


@SETTINGS
@given(games(finish=True))
def test_settlement_units_net_to_zero_and_only_the_winners_side_receives(drawn):
    record, _ = drawn
    result = parse_record(record).score()
    if not result.finished:
        assert result.settlement is None
        return
    settled = result.settlement
    assert sum(settled.units.values()) == 0
    winners = set(result.game.members(result.winner))
    for player, units in settled.units.items():
        if player in winners:
            assert units >= 0
        else:
            assert units <= 0
    for payment in settled.payments:
        assert payment.payer not in winners
        assert payment.payee in winners
        assert payment.units > 0


@SETTINGS
@given(st.one_of(ANY_GAME, ANY_SECTION_11_GAME))
def test_a_record_exports_imports_and_exports_identically(drawn):
    record, _ = drawn
    parsed = parse_record(record)
    exported = record_to_json(parsed.game, parsed.hands)
    assert exported == record
    again = parse_record(json.loads(json.dumps(exported)))
    assert record_to_json(again.game, again.hands) == exported
    through_text = loads_record(dumps(exported))
    assert record_to_json(through_text.game, through_text.hands) == exported
    assert dumps(record_to_json(through_text.game, through_text.hands)) == dumps(exported)


# --- Broken records: always a one-line RuleError, never any other exception.

ODD_TEXT = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["", " ", "a\nb", "\u2028", "\x85", "\ud800", '"', "\\", "Zed"]),
)
JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), ODD_TEXT),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(ODD_TEXT, inner, max_size=3)
    ),
    max_leaves=8,
)
EXPECTED_TYPES = {
    "format": str,
    "variant": str,
    "players": list,
    "hands": list,
    "house_rules": dict,
    "teams": dict,
    "first_dealer": str,
    "stake": str,
}
KNOWN_KEYS = set(EXPECTED_TYPES) | {
    "pitcher",
    "bid",
    "points",
    "sale",
    "high_bidder",
    "note",
    "passed",
    "game_count",
    "dealer",
    "called",
}


def _assert_rejected(record: Any) -> RuleError:
    try:
        parse_record(record)
    except RuleError as error:
        assert_one_line(error)
        return error
    raise AssertionError(f"a broken record was accepted: {record!r}")


def _played(record: dict[str, Any]) -> list[dict[str, Any]]:
    return [h for h in record["hands"] if not h.get("passed")]


@SETTINGS
@given(games(), ODD_TEXT.filter(lambda k: k not in KNOWN_KEYS))
def test_an_unknown_key_is_always_rejected(drawn, key):
    record, _ = drawn
    record[key] = 1
    assert _assert_rejected(record).code == "unknown-key"


@SETTINGS
@given(games(), st.sampled_from(sorted(EXPECTED_TYPES)), JSON_VALUES)
def test_a_field_of_the_wrong_type_is_always_rejected(drawn, key, value):
    record, _ = drawn
    expected = EXPECTED_TYPES[key]
    if isinstance(value, expected) and not isinstance(value, bool):
        value = [value]
    if key == "format" and value == FORMAT:
        value = None
    record[key] = value
    _assert_rejected(record)


@SETTINGS
@given(
    games(),
    ODD_TEXT,
    st.sampled_from(["pitcher", "points", "high_bidder", "first_dealer", "teams"]),
    st.data(),
)
def test_a_player_who_is_not_seated_is_always_rejected(drawn, name, where, data):
    record, _ = drawn
    if name in record["players"]:
        name = name + "?"
    played = _played(record)
    if where == "first_dealer":
        record["first_dealer"] = name
    elif where == "teams" and "teams" in record:
        team = data.draw(st.sampled_from(sorted(record["teams"])))
        record["teams"][team][0] = name
    elif where in ("pitcher", "points") and played:
        hand = data.draw(st.sampled_from(played))
        if where == "pitcher":
            hand["pitcher"] = name
        else:
            key = data.draw(st.sampled_from(sorted(hand["points"])))
            hand["points"][key] = name
    elif where == "high_bidder" and any(h.get("sale") == "kept" for h in played):
        hand = next(h for h in played if h.get("sale") == "kept")
        hand["high_bidder"] = name
    else:
        record["first_dealer"] = name
    _assert_rejected(record)


@SETTINGS
@given(games(), st.integers(1, 1000), st.booleans(), st.data())
def test_a_bid_out_of_range_is_always_rejected(drawn, distance, above, data):
    record, _ = drawn
    played = _played(record)
    if not played:
        played = [
            {
                "pitcher": record["players"][0],
                "bid": 2,
                "points": {k: record["players"][0] for k, _, _ in SPECS[record["variant"]].points},
            }
        ]
        if record["variant"] == "sell-out":
            played[0]["sale"] = "pitched"
        record["hands"] = played
    hand = data.draw(st.sampled_from(played))
    low, high = SPECS[record["variant"]].bids
    hand["bid"] = high + distance if above else low - distance
    error = _assert_rejected(record)
    assert error.code in ("bid-above-max", "bid-below-min", "bid-zero")
    assert error.field == "bid"
    assert str(error).startswith(f"hand {error.hand}: ")


@SETTINGS
@given(games(), ODD_TEXT.filter(lambda k: k not in KNOWN_KEYS), st.data())
def test_an_unknown_key_in_a_hand_is_always_rejected(drawn, key, data):
    record, _ = drawn
    if not record["hands"]:
        record["hands"] = [{"passed": True}]
    number = data.draw(st.integers(0, len(record["hands"]) - 1))
    record["hands"][number][key] = None
    error = _assert_rejected(record)
    assert (error.code, error.hand) == ("unknown-key", number + 1)


@SETTINGS
@given(st.binary(max_size=200))
def test_garbage_bytes_are_always_a_one_line_rule_error(data):
    try:
        loads_record(data)
    except RuleError as error:
        assert_one_line(error)
    else:
        raise AssertionError("garbage was accepted as a record")


@SETTINGS
@given(games(), st.data())
def test_a_truncated_record_is_always_a_one_line_rule_error(drawn, data):
    record, _ = drawn
    text = dumps(record)
    cut = data.draw(st.integers(0, len(text.rstrip()) - 2))
    try:
        loads_record(text[:cut])
    except RuleError as error:
        assert error.code == "invalid-json"
        assert_one_line(error)
    else:
        raise AssertionError("a truncated record was accepted")


def _paths(value: Any, path: tuple = ()) -> list[tuple]:
    out = [path]
    if isinstance(value, dict):
        for key, inner in value.items():
            out += _paths(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            out += _paths(inner, (*path, index))
    return out


@SETTINGS
@given(games(), JSON_VALUES, st.data())
def test_any_value_anywhere_gives_a_game_or_a_one_line_rule_error(drawn, value, data):
    record, _ = drawn
    path = data.draw(st.sampled_from(_paths(record)[1:]))
    target = record
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    try:
        parse_record(record)
    except RuleError as error:
        assert_one_line(error)
    try:
        loads_record(json.dumps(record, ensure_ascii=False))
    except RuleError as error:
        assert_one_line(error)
