"""RULES.md section 8: settlement. Each losing player pays each winning player."""

from __future__ import annotations

from decimal import Decimal

import pytest
from rules_helpers import NS_EW, payments, play, scores, units

from scorekeeper.rules import Game, RuleError, money

# A makes 2 (B takes Low), then smudges: A 6, B 1, C 0.
A_WINS_B_AT_ONE_C_AT_ZERO = ["A 2: A B A -", "A 4: A A A A"]


def test_a_loser_with_a_score_of_one_or_more_pays_one_unit():
    result = play("auction-pitch", "A B C", A_WINS_B_AT_ONE_C_AT_ZERO)
    assert dict(result.scores) == scores("A=6 B=1 C=0")
    assert payments(result)[0] == ("B", "A", 1, None)


def test_a_loser_at_zero_pays_the_in_the_hole_rate_of_two():
    result = play("auction-pitch", "A B C", A_WINS_B_AT_ONE_C_AT_ZERO)
    assert payments(result)[1] == ("C", "A", 2, None)


def test_a_loser_in_the_hole_pays_two_units():
    result = play("auction-pitch", "A B", ["B 2: A A - -", "A 4: A A A A"])
    assert dict(result.scores) == scores("A=6 B=-2")
    assert payments(result) == [("B", "A", 2, None)]
    assert dict(units(result)) == scores("A=2 B=-2")


def test_payout_per_setback_counts_every_set_back_of_the_losers_side():
    # B is set back twice (-5): 2 units + 2 x 2; C at 2 was never set back: 1 unit.
    result = play(
        "auction-pitch",
        "A B C",
        ["B 2: A A C C", "B 3: A A - -", "A 4: A A A A"],
        house_rules={"payout_per_setback": 2},
    )
    assert dict(result.scores) == scores("A=8 B=-5 C=2")
    assert dict(result.setbacks) == scores("A=0 B=2 C=0")
    assert payments(result) == [("B", "A", 6, None), ("C", "A", 1, None)]


def test_payout_per_setback_adds_to_the_one_unit_of_a_loser_with_points():
    # B is set back once (-2) then scores 3 (1): pays 1 + 1.
    result = play(
        "auction-pitch",
        "A B C",
        ["B 2: A A C C", "A 2: A A B B", "C 3: B B C -", "A 4: A A A A"],
        house_rules={"payout_per_setback": 1},
    )
    assert dict(result.scores) == scores("A=8 B=2 C=-1")
    assert dict(result.setbacks) == scores("A=0 B=1 C=1")
    # C is at -1: 2 units + 1 for its set-back.
    assert payments(result) == [("B", "A", 2, None), ("C", "A", 3, None)]


def test_each_losing_player_pays_each_winning_player_in_partnerships():
    # Three teams of two. X (A, D) smudge from 0; Y (B, E) at 1, Z (C, F) at 0.
    teams = {"X": ["A", "D"], "Y": ["B", "E"], "Z": ["C", "F"]}
    result = play("auction-pitch", "A B C D E F", ["D 2: D B A -", "A 4: A D D A"], teams=teams)
    assert dict(result.scores) == {"X": 6, "Y": 1, "Z": 0}
    assert payments(result) == [
        ("B", "A", 1, None),
        ("B", "D", 1, None),
        ("C", "A", 2, None),
        ("C", "D", 2, None),
        ("E", "A", 1, None),
        ("E", "D", 1, None),
        ("F", "A", 2, None),
        ("F", "D", 2, None),
    ]
    assert dict(units(result)) == {"A": 6, "B": -2, "C": -4, "D": 6, "E": -2, "F": -4}


def test_a_losers_payment_depends_on_its_sides_score_not_its_own_points():
    # C took no point at all, but NS stand at 2: C pays 1 to each of B and D.
    result = play("auction-pitch", "A B C D", ["A 2: A A B D", "B 4: B D D B"], teams=NS_EW)
    assert dict(result.scores) == {"NS": 2, "EW": 6}
    assert payments(result) == [
        ("A", "B", 1, None),
        ("A", "D", 1, None),
        ("C", "B", 1, None),
        ("C", "D", 1, None),
    ]


@pytest.mark.parametrize(
    ("stake", "one_unit", "two_units"),
    [
        ("0.25", "0.25", "0.50"),
        ("1", "1.00", "2.00"),
        ("0.125", "0.13", "0.25"),  # half-up, not to even (0.12)
        ("0.325", "0.33", "0.65"),  # half-up, not to even (0.32)
        ("1.005", "1.01", "2.01"),  # exact decimals: as a float 1.005 would round to 1.00
        ("0.0049", "0.00", "0.01"),
        ("0.005", "0.01", "0.01"),
    ],
)
def test_money_is_rounded_half_up_to_cents(stake, one_unit, two_units):
    result = play("auction-pitch", "A B C", A_WINS_B_AT_ONE_C_AT_ZERO, stake=stake)
    assert payments(result) == [("B", "A", 1, one_unit), ("C", "A", 2, two_units)]


def test_money_multiplies_units_by_the_stake_in_exact_decimals():
    assert money(3, Decimal("0.1")) == Decimal("0.30")
    assert money(1, Decimal("2.675")) == Decimal("2.68")
    assert money(7, Decimal("0.015")) == Decimal("0.11")  # 0.105 -> 0.11


def test_money_is_exact_for_a_stake_with_many_digits():
    # Fixed in the engine: past 28 digits the default decimal context raised InvalidOperation.
    stake = "12345678901234567890123456789.125"
    result = play("auction-pitch", "A B C", A_WINS_B_AT_ONE_C_AT_ZERO, stake=stake)
    assert payments(result) == [
        ("B", "A", 1, "12345678901234567890123456789.13"),
        ("C", "A", 2, "24691357802469135780246913578.25"),
    ]


def test_a_payment_of_zero_units_is_not_listed():
    result = play(
        "auction-pitch", "A B C", A_WINS_B_AT_ONE_C_AT_ZERO, house_rules={"payout_in_hole": 0}
    )
    assert payments(result) == [("B", "A", 1, None)]
    assert dict(units(result)) == scores("A=1 B=-1 C=0")


def test_nobody_owes_anything_when_every_payment_is_zero():
    result = play("auction-pitch", "A B", ["A 4: A A A A"], house_rules={"payout_in_hole": 0})
    assert payments(result) == []
    assert dict(units(result)) == scores("A=0 B=0")


@pytest.mark.parametrize("stake", [None, "0", "0.00"])
def test_a_stake_of_zero_or_none_settles_in_units_only(stake):
    result = play("auction-pitch", "A B C", A_WINS_B_AT_ONE_C_AT_ZERO, stake=stake)
    assert payments(result) == [("B", "A", 1, None), ("C", "A", 2, None)]


def test_a_stake_may_be_given_as_a_decimal():
    result = play("auction-pitch", "A B C", A_WINS_B_AT_ONE_C_AT_ZERO, stake=Decimal("0.50"))
    assert result.game.stake == "0.50"
    assert payments(result) == [("B", "A", 1, "0.50"), ("C", "A", 2, "1.00")]


@pytest.mark.parametrize("stake", ["-1", "abc", "1e3", ".5", "1.", "", " 1", "NaN"])
def test_a_stake_that_is_not_a_decimal_of_zero_or_more_is_rejected(stake):
    # Fixed in the engine: Game.create took any stake; a record only ever checked the pattern.
    with pytest.raises(RuleError) as caught:
        Game.create("auction-pitch", ["A", "B"], stake=stake)
    assert (caught.value.code, caught.value.field) == ("bad-stake", "stake")


@pytest.mark.parametrize("stake", [Decimal("-0.25"), Decimal("NaN"), Decimal("Infinity")])
def test_a_negative_or_non_finite_decimal_stake_is_rejected(stake):
    with pytest.raises(RuleError) as caught:
        Game.create("auction-pitch", ["A", "B"], stake=stake)
    assert caught.value.code == "bad-stake"


def test_the_settlement_units_net_to_zero_and_only_the_winner_receives():
    result = play("auction-pitch", "A B C", A_WINS_B_AT_ONE_C_AT_ZERO)
    assert sum(units(result).values()) == 0
    assert dict(units(result)) == scores("A=3 B=-1 C=-2")


def test_there_is_no_settlement_before_the_game_is_won():
    result = play("auction-pitch", "A B C", ["A 2: A B A -"])
    assert result.settlement is None
