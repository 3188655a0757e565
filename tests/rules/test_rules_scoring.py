"""RULES.md sections 1-3: scoring one hand, set-backs, win detection and the deal."""

from __future__ import annotations

import pytest
from rules_helpers import NS_EW, hand, play, rule_error, scores

from scorekeeper.rules import Event, Game, RuleError, WinReason, score_game

# --- Section 3, steps 1-3: what each side scores.


def test_a_made_contract_scores_everything_the_pitcher_took():
    result = play("auction-pitch", "A B C", ["A 2: A A A C"])
    assert result.scores["A"] == 3


def test_a_set_back_pitcher_loses_the_bid_and_nothing_it_took_counts():
    # A took High and Low (2) for a bid of 3.
    result = play("auction-pitch", "A B C", ["A 3: A A B C"])
    assert result.scores["A"] == -3
    assert result.hands[0].taken["A"] == 2
    assert result.hands[0].made is False


def test_defenders_score_what_they_took_when_the_pitcher_is_set_back():
    result = play("auction-pitch", "A B C", ["A 3: A A B C"])
    assert dict(result.scores) == scores("A=-3 B=1 C=1")


def test_taken_sums_the_values_of_the_points_credited_to_a_sides_players():
    # Pedro: High 1 + Pedro 5 = 6 for A; Low, Jack, Game 3 for B.
    result = play("pedro", "A B", ["A 6: A B B B A"])
    assert dict(result.hands[0].taken) == scores("A=6 B=3")


def test_a_point_credited_to_nobody_counts_for_no_side():
    result = play("auction-pitch", "A B", ["A 2: A B - -"])
    assert dict(result.hands[0].taken) == scores("A=1 B=1")
    assert dict(result.scores) == scores("A=-2 B=1")


def test_a_single_trump_in_play_gives_high_and_low_to_the_same_player():
    result = play("auction-pitch", "A B", ["B 2: B B - -"])
    assert dict(result.scores) == scores("A=0 B=2")


def test_the_pitcher_scores_only_the_bid_in_pitch_six():
    result = play("pitch-six", "A B C", ["B 3: B B B B B B"])
    assert result.scores["B"] == 3
    assert result.hands[0].taken["B"] == 6


def test_a_set_back_is_counted_per_side():
    result = play("auction-pitch", "A B C", ["A 3: B B C C", "B 4: A B C A", "A 2: B B C C"])
    assert dict(result.setbacks) == scores("A=2 B=1 C=0")


def test_a_set_back_in_partnerships_counts_for_the_pitchers_team():
    result = play("auction-pitch", "A B C D", ["C 3: B D A -"], teams=NS_EW)
    assert dict(result.setbacks) == {"NS": 1, "EW": 0}
    assert dict(result.scores) == {"NS": -3, "EW": 2}


def test_a_side_below_zero_is_in_the_hole():
    result = play("auction-pitch", "A B", ["A 2: B B - -"])
    assert result.in_the_hole("A")
    assert not result.in_the_hole("B")


# --- Section 3, step 4.1: the smudge.


def test_smudge_wins_at_once_from_a_score_of_zero():
    result = play("auction-pitch", "A B C", ["C 4: C C C C"])
    assert (result.winner, result.win_reason) == ("C", WinReason.SMUDGE)
    assert result.scores["C"] == 4


def test_smudge_wins_at_once_whatever_the_total():
    # B makes 4 with a bid of 3, then 2; A (2) smudges to 6: short of 7, but it wins.
    result = play("auction-pitch", "A B", ["B 3: B B B B", "B 2: B A A B", "A 4: A A A A"])
    assert dict(result.scores) == scores("A=6 B=6")
    assert (result.winner, result.win_reason, result.winning_hand) == ("A", "smudge", 3)


def test_smudge_from_the_hole_only_scores_the_points():
    result = play("auction-pitch", "A B C", ["A 2: B B C C", "A 4: A A A A"])
    assert dict(result.scores) == scores("A=2 B=2 C=2")
    assert not result.finished
    assert [e.value for e in result.hands[1].events] == ["made", "smudge"]


def test_a_smudge_event_is_recorded_even_when_it_does_not_win():
    result = play("joker-pitch", "A B", ["A 3: B B B B B", "A 5: A A A A A"])
    assert Event.SMUDGE in result.hands[1].events
    assert Event.WON not in result.hands[1].events


def test_smudge_always_wins_even_from_the_hole():
    result = play(
        "auction-pitch",
        "A B C",
        ["A 2: B B C C", "A 4: A A A A"],
        house_rules={"smudge": "always"},
    )
    assert (result.winner, result.win_reason, result.winning_hand) == ("A", "smudge", 2)
    assert dict(result.scores) == scores("A=2 B=2 C=2")


def test_smudge_off_makes_a_bid_of_four_an_ordinary_bid():
    result = play("auction-pitch", "A B C", ["A 4: A A A A"], house_rules={"smudge": "off"})
    assert not result.finished
    assert [e.value for e in result.hands[0].events] == ["made"]
    assert result.scores["A"] == 4


def test_a_smudge_needs_the_smudge_bid_not_just_all_the_points():
    result = play("auction-pitch", "A B", ["A 3: A A A A"])
    assert not result.finished
    assert Event.SMUDGE not in result.hands[0].events


def test_a_partnership_smudge_counts_the_points_of_both_partners():
    result = play("auction-pitch", "A B C D", ["A 4: A C C A"], teams=NS_EW)
    assert (result.winner, result.win_reason) == ("NS", "smudge")


# --- Section 3, step 4.2: pitcher first.


def test_pitcher_first_wins_even_when_a_defender_has_more():
    # Before hand 4: A 5, B 6. A bids 2 and takes High, Low (7); B takes Jack, Game (8).
    result = play(
        "auction-pitch",
        "A B",
        ["A 2: A A B B", "B 2: B B B A", "A 2: A A B -", "A 2: A A B B"],
    )
    assert [dict(h.scores) for h in result.hands[-2:]] == [
        scores("A=5 B=6"),
        scores("A=7 B=8"),
    ]
    assert (result.winner, result.win_reason, result.winning_hand) == ("A", "bid-out", 4)


def test_a_set_back_pitcher_cannot_win_and_defenders_count_out():
    # A at 6 bids 3 and takes 2; B at 5 counts out on Jack and Game.
    result = play(
        "auction-pitch",
        "A B",
        ["A 3: A A A B", "B 2: B B B A", "A 2: A A B -", "A 3: A A B B"],
    )
    assert dict(result.hands[2].scores) == scores("A=6 B=5")
    assert dict(result.scores) == scores("A=3 B=7")
    assert (result.winner, result.win_reason) == ("B", "count-out")


# --- Section 3, step 4.3: the count-out.


def test_two_defenders_reaching_the_target_go_out_in_count_out_order():
    # The ap-countout-order example: before hand 4 B 6, C 6; A is set back;
    # C reaches 7 on Low before B reaches 7 on Jack.
    result = play(
        "auction-pitch",
        "Ann Bob Cy Dee",
        [
            "Bob 2: Bob Bob Bob Bob",
            "Cy 2: Cy Cy Cy Cy",
            "Dee 2: Bob Cy Bob Cy",
            "Ann 2: Ann Cy Bob Bob",
        ],
    )
    assert dict(result.scores) == {"Ann": -2, "Bob": 8, "Cy": 7, "Dee": -2}
    assert (result.winner, result.win_reason, result.winning_hand) == ("Cy", "count-out", 4)


@pytest.mark.parametrize(
    ("points", "winner"),
    [
        # B and C both stand at 6 (A at 2); whoever takes the earlier point goes out.
        ("A B C C", "B"),  # B on Low
        ("A C B B", "C"),  # C on Low
        ("A A B C", "B"),  # Low to the pitcher: B on Jack
        ("A A C B", "C"),  # C on Jack
        ("A A - B", "B"),  # Jack not dealt: B on Game
    ],
)
def test_the_count_out_follows_high_low_jack_game(points, winner):
    setup = ["B 3: B B B C", "C 3: C C C B", "B 2: B B C -", "A 2: A A C -"]
    result = play("auction-pitch", "A B C", [*setup, f"A 2: {points}"])
    assert dict(result.hands[3].scores) == scores("A=2 B=6 C=6")
    assert (result.winner, result.win_reason) == (winner, "count-out")


def test_a_made_bid_short_of_the_target_lets_a_defender_count_out():
    # A stands at 5; C makes 2 (2), and A takes Jack and Game to 7.
    result = play("auction-pitch", "A B C", ["A 3: A A A A", "B 2: B B A -", "C 2: C C A A"])
    assert dict(result.hands[1].scores) == scores("A=5 B=2 C=0")
    assert dict(result.scores) == scores("A=7 B=2 C=2")
    assert (result.winner, result.win_reason, result.winning_hand) == ("A", "count-out", 3)


def test_pedro_counts_out_with_the_pedro_worth_five():
    result = play(
        "pedro",
        "A B C",
        ["A 5: A A B B A", "B 6: B C B B B", "C 9: C C A C B", "A 7: A B A C B"],
    )
    assert (result.winner, result.win_reason) == ("B", "count-out")
    assert result.scores["B"] == 21


# --- Section 3, step 4.3 (bidder-only) and 4.4: Pitch Six.


def test_pitch_six_defender_past_the_target_does_not_win_on_points():
    result = play(
        "pitch-six", "A B C", ["A 6: A A A A A A", "B 3: B B B A A A", "C 3: A A A A C C"]
    )
    assert dict(result.scores) == scores("A=13 B=3 C=-3")
    assert not result.finished
    assert result.next_dealer == "A"


def test_pitch_six_defender_past_the_target_wins_by_making_a_bid():
    result = play(
        "pitch-six",
        "A B C",
        ["A 6: A A A A A A", "B 3: B B B A A A", "C 3: A A A A C C", "A 3: A A A B B B"],
    )
    assert (result.winner, result.win_reason, result.winning_hand) == ("A", "bid-out", 4)


def test_pitch_six_defender_past_the_target_keeps_playing_after_a_failed_bid():
    result = play(
        "pitch-six",
        "A B C",
        ["A 6: A A A A A A", "B 3: B B B A A A", "C 3: A A A A C C", "A 4: A A A B B B"],
    )
    assert dict(result.scores) == scores("A=9 B=6 C=-3")
    assert not result.finished


def test_gap_rule_wins_with_a_lead_of_twelve():
    # B is set back 6 while A takes all six: A 12 leads C (0) by exactly 12.
    result = play("pitch-six", "A B C", ["A 6: A A A A A A", "B 6: A A A A A A"])
    assert dict(result.scores) == scores("A=12 B=-6 C=0")
    assert (result.winner, result.win_reason, result.winning_hand) == ("A", "gap", 2)


def test_a_lead_of_eleven_is_not_enough_for_the_gap_rule():
    result = play(
        "pitch-six",
        "A B C",
        ["A 6: A A A A A A", "B 6: A A A A A C", "B 3: A B B B B B"],
    )
    assert dict(result.scores) == scores("A=12 B=-3 C=1")
    assert not result.finished


def test_the_gap_rule_needs_the_leader_at_the_target():
    # A leads B and C by 17, but 11 is short of 12.
    result = play("pitch-six", "A B C", ["B 6: A A A A A A", "C 6: A A A A A -"])
    assert dict(result.scores) == scores("A=11 B=-6 C=-6")
    assert not result.finished


# --- Section 3, step 5 and passed hands.


def test_no_hand_can_be_recorded_after_the_game_is_won():
    error = rule_error("auction-pitch", "A B", ["B 4: B B B B", "A 2: A A A A"])
    assert error.code == "hand-after-win"
    assert error.hand == 2
    assert str(error) == (
        "hand 2: the game was already won by B at hand 1; no hand can be recorded after that"
    )


def test_a_passed_out_hand_cannot_follow_a_win_either():
    error = rule_error(
        "cinch",
        "A B C D",
        ["B 5: A C A C A C", "B 5: A C A C A C", "B 5: A C A C A C", "pass"],
        teams=NS_EW,
    )
    assert (error.code, error.hand) == ("hand-after-win", 4)


def test_a_passed_out_hand_scores_nothing():
    result = play(
        "auction-pitch",
        "A B",
        ["A 2: A A B B", "pass"],
        house_rules={"all_pass": "redeal-next-dealer"},
    )
    passed = result.hands[1]
    assert passed.passed
    assert dict(passed.delta) == scores("A=0 B=0")
    assert dict(passed.scores) == scores("A=2 B=2")
    assert [e.value for e in passed.events] == ["passed"]
    assert passed.taken is None and passed.made is None


# --- Section 1: the deal.


def test_the_first_seat_deals_hand_one_by_default():
    result = play("auction-pitch", "A B C", ["A 2: A A A A"])
    assert result.hands[0].dealer == "A"


def test_the_named_first_dealer_deals_hand_one():
    result = play("auction-pitch", "A B C", ["A 2: A A B C"], first_dealer="C")
    assert result.hands[0].dealer == "C"
    assert result.next_dealer == "A"


def test_the_deal_passes_to_the_left_after_each_hand_and_wraps_around():
    result = play(
        "auction-pitch",
        "A B C",
        ["A 2: A B C -", "A 2: A B C -", "A 2: A B C -", "B 2: A B C -"],
        first_dealer="B",
    )
    assert [h.dealer for h in result.hands] == ["B", "C", "A", "B"]
    assert result.next_dealer == "C"


def test_next_dealer_is_none_once_the_game_is_finished():
    result = play("auction-pitch", "A B", ["A 4: A A A A"])
    assert result.next_dealer is None


def test_an_empty_game_is_not_finished_and_the_first_dealer_deals_next():
    result = play("auction-pitch", "A B C", [], first_dealer="B")
    assert result.hands == ()
    assert dict(result.scores) == scores("A=0 B=0 C=0")
    assert not result.finished
    assert result.winner is None
    assert result.settlement is None
    assert result.next_dealer == "B"


def test_a_rejected_hand_leaves_the_hands_before_it_unchanged():
    game = Game.create("auction-pitch", ["A", "B"])
    good = [hand("A 2: A A B B"), hand("B 3: B B B A")]
    before = score_game(game, good)
    with pytest.raises(RuleError):
        score_game(game, [*good, hand("A 5: A A A A")])
    assert score_game(game, good) == before
    assert dict(before.scores) == scores("A=3 B=5")
