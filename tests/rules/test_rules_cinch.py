"""RULES.md section 6: Cinch scoring. NS = A and C, EW = B and D; A deals hand 1."""

from __future__ import annotations

import pytest
from rules_helpers import NS_EW, assert_one_line, play, rule_error, units

SIX = {"Odd": ["A", "C", "E"], "Even": ["B", "D", "F"]}


def cinch(*texts: str, **setup):
    setup.setdefault("teams", NS_EW)
    return play("cinch", "A B C D", list(texts), **setup)


def test_a_made_cinch_contract_scores_the_difference_for_the_side_with_more():
    # Rule book: bid 6, bidders take 6, opponents 8: opponents score 2.
    result = cinch("B 6: B A C A D C")
    assert dict(result.hands[0].taken) == {"NS": 8, "EW": 6}
    assert dict(result.scores) == {"NS": 2, "EW": 0}
    assert result.hands[0].made is True


def test_a_made_cinch_contract_scores_the_difference_for_the_bidders_with_more():
    # NS bid 7, take 9 to EW's 5: NS score 4.
    result = cinch("A 7: A A C C A B")
    assert dict(result.scores) == {"NS": 4, "EW": 0}


def test_a_made_cinch_contract_with_equal_counts_scores_nothing():
    result = cinch("D 7: A C B D A B")
    assert dict(result.hands[0].taken) == {"NS": 7, "EW": 7}
    assert dict(result.scores) == {"NS": 0, "EW": 0}


def test_a_failed_cinch_contract_gives_the_other_side_fourteen_plus_the_shortfall():
    # Rule book: bid 8, bidders take 7, opponents 7: opponents score 15.
    result = cinch("C 8: A C B D A B")
    assert dict(result.scores) == {"NS": 0, "EW": 15}
    assert result.hands[0].made is False


@pytest.mark.parametrize(
    ("text", "ew_scores"),
    [
        ("C 8: A C B D A B", 15),  # NS 7 of 8: 14 + 1
        ("C 10: A C A C A B", 15),  # NS 9 (H L J G + right 5) of 10: 14 + 1
        ("C 14: A C A C - -", 24),  # NS 4 of 14, the fives not in play: 14 + 10
        ("C 1: B D B D B D", 15),  # NS take nothing for a bid of 1: 14 + 1
    ],
)
def test_the_shortfall_adds_to_fourteen_however_large(text, ew_scores):
    assert dict(cinch(text).scores) == {"NS": 0, "EW": ew_scores}


def test_a_failed_cinch_contract_is_not_a_set_back():
    result = cinch("A 5: A C B D A B", "B 9: A C B D A B")
    # NS 7 of 5 made, EW 7-7 tie: nothing; then EW 7 of 9: NS 14 + 2.
    assert dict(result.scores) == {"NS": 16, "EW": 0}
    assert dict(result.setbacks) == {"NS": 0, "EW": 0}
    assert not any(h.set_back for h in result.hands)
    assert [e.value for e in result.hands[1].events] == []


def test_a_cinch_score_never_goes_down():
    result = cinch("B 6: B A C A D C", "A 14: B B B B B D", "A 14: B B B B B D")
    running = [dict(h.scores) for h in result.hands]
    assert running == [
        {"NS": 2, "EW": 0},
        {"NS": 2, "EW": 28},
        {"NS": 2, "EW": 56},
    ]
    assert (result.winner, result.win_reason) == ("EW", "first-to-target")


def test_the_first_side_to_reach_the_target_wins_whichever_side_scored():
    # EW bid and fail three times: NS reach 57 without ever bidding.
    result = cinch("B 5: A C A C A C", "D 5: A C A C A C", "B 5: A C A C A C")
    assert [dict(h.scores)["NS"] for h in result.hands] == [19, 38, 57]
    assert (result.winner, result.win_reason, result.winning_hand) == ("NS", "first-to-target", 3)
    assert [e.value for e in result.hands[2].events] == ["won"]


def test_cinch_reaching_exactly_the_target_wins():
    # Dealer A names trump for 0; EW take only 4 (the five not in play is nobody's).
    result = cinch("A 0: B B B B - -", house_rules={"target": 4})
    assert dict(result.scores) == {"NS": 0, "EW": 4}
    assert (result.winner, result.win_reason) == ("EW", "first-to-target")


def test_a_cinch_bid_of_all_fourteen_made_is_no_smudge():
    # NS bid 14 and take all 14 each time: 14 a hand, and a win only on reaching 51.
    result = cinch(
        "C 14: A C A C A C", "C 14: A C A C A C", "C 14: A C A C A C", "A 14: A C A C A C"
    )
    assert [dict(h.scores)["NS"] for h in result.hands] == [14, 28, 42, 56]
    assert result.win_reason == "first-to-target"


def test_the_dealer_may_name_trump_for_a_bid_of_zero():
    result = cinch("A 0: A A A A A A")
    assert result.hands[0].bid == 0
    assert dict(result.scores) == {"NS": 14, "EW": 0}


def test_the_dealers_partner_may_name_trump_for_a_bid_of_zero():
    result = cinch("C 0: B B C C C C")
    assert dict(result.scores) == {"NS": 10, "EW": 0}


def test_either_partner_of_the_dealer_may_bid_zero_with_six_players():
    for pitcher in ("A", "C", "E"):
        result = play("cinch", "A B C D E F", [f"{pitcher} 0: A A A A A A"], teams=SIX)
        assert dict(result.scores) == {"Odd": 14, "Even": 0}


def test_an_opponent_of_the_dealer_cannot_bid_zero():
    error = rule_error("cinch", "A B C D", ["B 0: B B B B B B"], teams=NS_EW)
    assert (error.code, error.hand, error.field) == ("bid-zero-pitcher", 1, "pitcher")
    assert assert_one_line(error) == (
        'hand 1: a bid of 0 (naming trump after all passed) is made by the dealer "A" '
        'or the dealer\'s partner, not "B"'
    )


def test_a_bid_of_zero_follows_the_deal():
    # Hand 2 is dealt by B, so D may name trump for 0 and A may not.
    assert cinch("A 7: A A A A A A", "D 0: B B B B B B").scores["EW"] == 14
    error = rule_error("cinch", "A B C D", ["A 7: A A A A A A", "A 0: A A A A A A"], teams=NS_EW)
    assert (error.code, error.hand) == ("bid-zero-pitcher", 2)


def test_a_passed_cinch_hand_moves_the_deal_left():
    result = cinch("pass", "pass", "C 0: C C C C C C")
    assert [h.dealer for h in result.hands] == ["A", "B", "C"]
    assert result.next_dealer == "D"


def test_a_cinch_side_at_zero_pays_the_in_the_hole_rate():
    result = cinch("B 5: A C A C A C", "D 5: A C A C A C", "B 5: A C A C A C")
    assert dict(result.scores) == {"NS": 57, "EW": 0}
    assert dict(units(result)) == {"A": 4, "B": -4, "C": 4, "D": -4}


def test_payout_per_setback_adds_nothing_in_cinch():
    result = cinch(
        "B 5: A C A C A C",
        "D 5: A C A C A C",
        "B 5: A C A C A C",
        house_rules={"payout_per_setback": 1},
    )
    assert dict(units(result)) == {"A": 4, "B": -4, "C": 4, "D": -4}


def test_a_cinch_loser_with_points_pays_one_unit_to_each_winner():
    result = cinch("B 7: B B D D B A", "B 5: A C A C A C", "D 5: A C A C A C", "B 5: A C A C A C")
    assert dict(result.scores) == {"NS": 57, "EW": 4}
    assert dict(units(result)) == {"A": 2, "B": -2, "C": 2, "D": -2}
