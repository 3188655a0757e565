"""RULES.md section 5: the house-rule switches a table may change."""

from __future__ import annotations

import pytest
from rules_helpers import assert_one_line, play, rule_error, scores, units

from scorekeeper.rules import Game, RuleError

# --- target


def test_a_lower_target_ends_the_game_sooner():
    result = play("auction-pitch", "A B", ["A 3: A A A B"], house_rules={"target": 3})
    assert (result.winner, result.win_reason, result.winning_hand) == ("A", "bid-out", 1)


def test_a_higher_target_lets_the_game_go_on():
    result = play(
        "auction-pitch", "A B", ["A 3: A A A B", "A 3: A A A B"], house_rules={"target": 11}
    )
    assert dict(result.scores) == scores("A=6 B=2")
    assert not result.finished


def test_a_target_of_one_is_allowed_and_the_first_point_counted_out_wins():
    # A bids 2 and is set back; B takes Low first of the defenders.
    result = play("auction-pitch", "A B", ["A 2: A B B -"], house_rules={"target": 1})
    assert (result.winner, result.win_reason) == ("B", "count-out")


def test_a_higher_target_lets_a_cinch_game_go_past_51():
    result = play(
        "cinch",
        "A B C D",
        ["B 5: A C A C A C"] * 3,
        teams={"NS": ["A", "C"], "EW": ["B", "D"]},
        house_rules={"target": 100},
    )
    assert dict(result.scores) == {"NS": 57, "EW": 0}
    assert not result.finished


@pytest.mark.parametrize("value", [0, -7, "7", 7.0, True, [7]])
def test_target_must_be_a_whole_number_of_at_least_one(value):
    with pytest.raises(RuleError) as caught:
        Game.create("auction-pitch", ["A", "B"], house_rules={"target": value})
    error = caught.value
    assert (error.code, error.field, error.hand) == ("switch-range", "house_rules.target", None)
    assert assert_one_line(error).startswith("house_rules.target: target must be a whole number")


@pytest.mark.parametrize("hands", [{}, {"hands": None}], ids=["no hands", "hands null"])
def test_a_target_of_null_is_refused_without_a_count_of_hands(hands):
    # RULES.md 11.4: only a game that ends after its hands may have no target.
    with pytest.raises(RuleError) as caught:
        Game.create("auction-pitch", ["A", "B"], house_rules={"target": None, **hands})
    error = caught.value
    assert (error.code, error.field, error.hand) == (
        "switch-target-null",
        "house_rules.target",
        None,
    )
    assert assert_one_line(error).startswith("house_rules.target: target can be null only")


# --- low_to


def test_low_to_is_only_a_label_and_does_not_change_the_scores():
    texts = ["A 2: A B C -", "B 3: B B C A"]
    holder = play("auction-pitch", "A B C", texts, house_rules={"low_to": "holder"})
    taker = play("auction-pitch", "A B C", texts, house_rules={"low_to": "taker"})
    assert [dict(h.scores) for h in holder.hands] == [dict(h.scores) for h in taker.hands]
    assert dict(taker.scores) == scores("A=-1 B=-2 C=2")
    assert taker.game.house_rules.low_to == "taker"


def test_low_to_accepts_only_holder_or_taker():
    with pytest.raises(RuleError) as caught:
        Game.create("auction-pitch", ["A", "B"], house_rules={"low_to": "winner"})
    assert (caught.value.code, caught.value.field) == ("switch-value", "house_rules.low_to")
    assert str(caught.value) == (
        'house_rules.low_to: "winner" is not allowed for low_to; allowed: holder, taker'
    )


# --- smudge


@pytest.mark.parametrize("variant", ["auction-pitch", "joker-pitch", "racehorse-pitch"])
@pytest.mark.parametrize("value", ["off", "not-in-hole", "always"])
def test_the_smudge_switch_takes_each_of_its_values_on_a_smudge_variant(variant, value):
    game = Game.create(variant, ["A", "B"], house_rules={"smudge": value})
    assert game.house_rules.smudge == value


@pytest.mark.parametrize("variant", ["sell-out", "pitch-six", "pedro", "cinch"])
@pytest.mark.parametrize("value", ["off", "always"])
def test_setting_smudge_on_a_variant_without_a_smudge_bid_is_an_error(variant, value):
    players = ["A", "B", "C", "D"]
    teams = {"NS": ["A", "C"], "EW": ["B", "D"]}
    with pytest.raises(RuleError) as caught:
        Game.create(variant, players, teams=teams, house_rules={"smudge": value})
    error = caught.value
    assert (error.code, error.field, error.hand) == ("switch-no-smudge", "house_rules.smudge", None)
    assert assert_one_line(error).startswith("house_rules.smudge: ")
    assert "cannot be set" in str(error)


def test_smudge_not_in_hole_wins_from_exactly_zero():
    # A set back 2 from 2 is at 0: not in the hole, so the smudge wins.
    result = play("auction-pitch", "A B", ["A 2: A A B B", "A 2: B B - -", "A 4: A A A A"])
    assert dict(result.hands[1].scores) == scores("A=0 B=4")
    assert (result.winner, result.win_reason) == ("A", "smudge")


def test_smudge_always_wins_from_the_hole_in_joker_pitch():
    result = play(
        "joker-pitch",
        "A B",
        ["A 3: B B B B B", "A 5: A A A A A"],
        house_rules={"smudge": "always"},
    )
    assert dict(result.scores) == scores("A=2 B=5")
    assert (result.winner, result.win_reason) == ("A", "smudge")


def test_smudge_off_leaves_a_made_bid_of_five_to_the_target_in_joker_pitch():
    result = play("joker-pitch", "A B", ["A 5: A A A A A"], house_rules={"smudge": "off"})
    assert not result.finished
    assert [e.value for e in result.hands[0].events] == ["made"]


# --- all_pass


def test_dealer_takes_refuses_a_passed_out_hand():
    error = rule_error("auction-pitch", "A B", ["A 2: A A B B", "pass"])
    assert (error.code, error.hand, error.field) == ("passed-not-allowed", 2, "passed")
    assert str(error) == (
        "hand 2: the hand cannot be passed out: with the house rule all_pass = dealer-takes "
        "the dealer must take the bid at 2"
    )


@pytest.mark.parametrize(
    ("variant", "minimum"), [("pitch-six", 3), ("pedro", 1), ("joker-pitch", 2)]
)
def test_dealer_takes_names_the_variants_lowest_bid(variant, minimum):
    error = rule_error(variant, "A B C", ["pass"])
    assert error.code == "passed-not-allowed"
    assert str(error).endswith(f"the dealer must take the bid at {minimum}")


@pytest.mark.parametrize(
    ("all_pass", "dealers"),
    [
        # The same dealer keeps the deal after a passed hand.
        ("redeal-same-dealer", ["A", "A", "A", "B"]),
        # The deal moves left after a passed hand.
        ("redeal-next-dealer", ["A", "B", "C", "A"]),
    ],
)
def test_a_redeal_after_a_passed_hand_gives_the_deal_as_the_switch_says(all_pass, dealers):
    result = play(
        "auction-pitch",
        "A B C",
        ["pass", "pass", "A 2: A A B C", "pass"],
        house_rules={"all_pass": all_pass},
    )
    assert [h.dealer for h in result.hands] == dealers
    assert result.next_dealer == "B"


def test_a_variant_that_redeals_can_be_switched_to_dealer_takes():
    error = rule_error("sell-out", "A B C", ["pass"], house_rules={"all_pass": "dealer-takes"})
    assert (error.code, error.hand) == ("passed-not-allowed", 1)


def test_all_pass_accepts_only_its_four_values():
    with pytest.raises(RuleError) as caught:
        Game.create("pedro", ["A", "B"], house_rules={"all_pass": "redeal"})
    assert caught.value.code == "switch-value"
    assert str(caught.value) == (
        'house_rules.all_pass: "redeal" is not allowed for all_pass; '
        "allowed: dealer-takes, redeal-same-dealer, redeal-next-dealer, dealer-set"
    )


# --- game_tie


def test_game_tie_nobody_is_the_only_value_today():
    game = Game.create("auction-pitch", ["A", "B"], house_rules={"game_tie": "nobody"})
    assert game.house_rules.game_tie == "nobody"
    with pytest.raises(RuleError) as caught:
        Game.create("auction-pitch", ["A", "B"], house_rules={"game_tie": "pitcher"})
    assert (caught.value.code, caught.value.field) == ("switch-value", "house_rules.game_tie")


def test_a_tied_game_point_is_credited_to_nobody():
    result = play("auction-pitch", "A B", ["A 2: A A B -"], house_rules={"game_tie": "nobody"})
    assert dict(result.hands[0].taken) == scores("A=2 B=1")


# --- payout_in_hole and payout_per_setback


def test_payout_in_hole_sets_what_a_loser_at_zero_or_below_pays():
    # B at -2 pays 3; C at 0 pays 3.
    result = play(
        "auction-pitch",
        "A B C",
        ["B 2: A A C C", "A 4: A A A A"],
        house_rules={"payout_in_hole": 3},
    )
    assert dict(result.scores) == scores("A=6 B=-2 C=2")
    result = play(
        "auction-pitch",
        "A B C",
        ["B 2: A A C C", "C 2: A A - -", "A 4: A A A A"],
        house_rules={"payout_in_hole": 3},
    )
    assert dict(result.scores) == scores("A=8 B=-2 C=0")
    assert dict(units(result)) == scores("A=6 B=-3 C=-3")


def test_payout_in_hole_must_be_zero_or_more():
    with pytest.raises(RuleError) as caught:
        Game.create("auction-pitch", ["A", "B"], house_rules={"payout_in_hole": -1})
    assert (caught.value.code, caught.value.field) == ("switch-range", "house_rules.payout_in_hole")
    assert str(caught.value) == (
        "house_rules.payout_in_hole: payout_in_hole must be a whole number of at least 0, not -1"
    )


def test_payout_per_setback_adds_units_for_each_set_back_of_the_losers_side():
    # B set back twice (-4, pays 2 + 2x1); C never (2, pays 1).
    result = play(
        "auction-pitch",
        "A B C",
        ["B 2: A A C C", "B 2: A A - -", "A 4: A A A A"],
        house_rules={"payout_per_setback": 1},
    )
    assert dict(result.scores) == scores("A=8 B=-4 C=2")
    assert dict(result.setbacks) == scores("A=0 B=2 C=0")
    assert dict(units(result)) == scores("A=5 B=-4 C=-1")


def test_payout_per_setback_is_off_by_default():
    result = play("auction-pitch", "A B C", ["B 2: A A C C", "B 2: A A - -", "A 4: A A A A"])
    assert dict(units(result)) == scores("A=3 B=-2 C=-1")


def test_payout_per_setback_must_be_zero_or_more():
    with pytest.raises(RuleError) as caught:
        Game.create("auction-pitch", ["A", "B"], house_rules={"payout_per_setback": -1})
    assert caught.value.field == "house_rules.payout_per_setback"


# --- the switches themselves


def test_an_unknown_house_rule_is_an_error_listing_the_known_ones():
    with pytest.raises(RuleError) as caught:
        Game.create("auction-pitch", ["A", "B"], house_rules={"stake": 1})
    error = caught.value
    assert (error.code, error.field, error.hand) == ("unknown-switch", "house_rules", None)
    assert str(error) == (
        'house_rules: unknown house rule "stake"; the house rules are target, low_to, smudge, '
        "all_pass, game_tie, payout_in_hole, payout_per_setback, min_bid, smudge_failed, "
        "points, max_bid, smudge_bid, win_rule, pitcher_scores, gap, hands"
    )


@pytest.mark.parametrize("variant", ["cinch", "sell-out"])
@pytest.mark.parametrize(
    ("switch", "value"),
    [
        ("points", ["high", "low"]),
        ("min_bid", 2),
        ("max_bid", 4),
        ("smudge_bid", 4),
        ("pitcher_scores", "bid"),
        ("win_rule", "bidder-only"),
        ("gap", 12),
    ],
)
def test_the_shape_of_cinch_and_sell_out_cannot_be_switched(variant, switch, value):
    players = ["A", "B", "C", "D"]
    teams = {"NS": ["A", "C"], "EW": ["B", "D"]}
    with pytest.raises(RuleError) as caught:
        Game.create(variant, players, teams=teams, house_rules={switch: value})
    assert caught.value.code == "switch-not-for-variant"
    assert caught.value.field == f"house_rules.{switch}"


def test_the_switches_not_given_keep_the_presets_values():
    game = Game.create("auction-pitch", ["A", "B"], house_rules={"target": 11})
    assert game.house_rules.as_dict() == {
        "target": 11,
        "low_to": "holder",
        "smudge": "not-in-hole",
        "all_pass": "dealer-takes",
        "game_tie": "nobody",
        "payout_in_hole": 2,
        "payout_per_setback": 0,
        "min_bid": 2,
        "smudge_failed": "set-back",
        "points": ["high", "low", "jack", "game"],
        "max_bid": 4,
        "smudge_bid": 4,
        "win_rule": "count-out",
        "pitcher_scores": "all",
        "gap": 0,
        "hands": None,
    }
    assert dict(game.house_rules_given) == {"target": 11}
