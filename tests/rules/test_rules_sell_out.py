"""RULES.md section 7: Sell-Out (Commercial Pitch). A deals hand 1, so B is the first seller."""

from __future__ import annotations

import pytest
from rules_helpers import NS_EW, assert_one_line, hand, play, rule_error, scores

from scorekeeper.rules import Game, Hand, RuleError, Sale, score_game

# Hands 1-2 leave A 1, B 5, C 5; hand 3 is dealt by C, so A sells.
B_AND_C_AT_FIVE = ["sold C 4: C C C C", "sold B 1: B A - -"]
# Hands 1-3 leave A 3, B 5, C 4, and A deals hand 4: B (at 5) sells.
SELLER_B_AT_FIVE = ["sold C 2: C C B B", "sold A 1: A B - -", "sold C 1: C A - -"]


def sell_out(*texts: str, players: str = "A B C", **setup):
    return play("sell-out", players, list(texts), **setup)


def test_the_seller_is_the_player_at_the_dealers_left():
    result = sell_out("sold C 1: C C - -", "sold A 1: A A - -", "sold B 1: B B - -")
    assert [(h.dealer, h.seller) for h in result.hands] == [("A", "B"), ("B", "C"), ("C", "A")]


def test_the_seller_follows_the_first_dealer():
    result = sell_out("pitched A 4: A A A A", first_dealer="C")
    assert (result.hands[0].dealer, result.hands[0].seller) == ("C", "A")


def test_a_pitched_hand_is_a_contract_of_four_by_the_seller():
    result = sell_out("pitched B 4: B B A C")
    assert dict(result.scores) == scores("A=1 B=-4 C=1")
    assert [e.value for e in result.hands[0].events] == ["pitched", "set-back"]


def test_a_pitched_hand_for_other_than_four_is_rejected():
    error = rule_error("sell-out", "A B C", ["pitched B 3: B B B B"])
    assert (error.code, error.hand, error.field) == ("pitched-bid", 1, "bid")
    assert assert_one_line(error) == "hand 1: a pitched hand is a contract of 4, not 3"


def test_a_pitched_hand_by_anyone_but_the_seller_is_rejected():
    error = rule_error("sell-out", "A B C", ["pitched C 4: C C C C"])
    assert (error.code, error.hand, error.field) == ("pitched-pitcher", 1, "pitcher")
    assert str(error) == 'hand 1: in a pitched hand the seller "B" pitches, not "C"'


def test_a_made_pitched_hand_of_four_is_no_smudge():
    result = sell_out("pitched B 4: B B B B")
    assert [e.value for e in result.hands[0].events] == ["pitched", "made"]
    assert not result.finished


def test_a_sold_hand_gives_the_seller_the_bid():
    # C buys at 3 and makes it with High, Low, Jack; B scores the 3 it sold for.
    result = sell_out("sold C 3: C C C A")
    assert dict(result.hands[0].delta) == scores("A=1 B=3 C=3")


def test_a_sold_hand_set_back_still_pays_the_seller():
    result = sell_out("sold C 3: C A A B")
    assert dict(result.scores) == scores("A=2 B=4 C=-3")
    assert dict(result.setbacks) == scores("A=0 B=0 C=1")


def test_a_kept_hand_gives_the_high_bidder_the_bid():
    # B keeps at C's 2 and makes it; C scores 2 for the bid; A has the Jack.
    result = sell_out("kept B 2 C: B B A -")
    assert dict(result.hands[0].delta) == scores("A=1 B=2 C=2")
    assert [e.value for e in result.hands[0].events] == ["kept", "made"]


def test_sale_points_are_in_delta_but_not_in_taken():
    played = sell_out("kept B 2 C: B B A -").hands[0]
    assert dict(played.taken) == scores("A=1 B=2 C=0")
    assert dict(played.delta) == scores("A=1 B=2 C=2")


def test_sale_points_come_before_the_count_out():
    # Before hand 4: A 6, B 4, C 5. B sells to C at 2 (B at 6); C takes only High and is
    # set back; B goes out on Low before A can on Jack, though A ends with more.
    result = sell_out(
        "pitched B 4: B B B B", "sold A 3: A A A C", "sold C 1: C A A -", "sold C 2: C B A A"
    )
    assert dict(result.hands[2].scores) == scores("A=6 B=4 C=5")
    assert dict(result.scores) == scores("A=8 B=7 C=3")
    assert (result.winner, result.win_reason, result.winning_hand) == ("B", "count-out", 4)


def test_a_sale_can_make_the_buyer_go_out_by_making_the_bid():
    # C at 5 buys at 2 and makes it: 7, pitcher first.
    result = sell_out(*B_AND_C_AT_FIVE, "sold C 2: C C A A")
    assert dict(result.hands[1].scores) == scores("A=1 B=5 C=5")
    assert (result.winner, result.win_reason) == ("C", "bid-out")


def test_no_bid_may_give_the_seller_enough_for_game_by_itself():
    error = rule_error("sell-out", "A B C", [*SELLER_B_AT_FIVE, "sold C 2: C C C C"])
    assert (error.code, error.hand, error.field) == ("sale-gives-game", 4, "bid")
    assert assert_one_line(error) == (
        'hand 4: a bid of 2 would give the seller "B" game by itself (5 + 2 reaches 7)'
    )


def test_the_seller_game_restriction_applies_to_kept_hands_too():
    error = rule_error("sell-out", "A B C", [*SELLER_B_AT_FIVE, "kept B 2 A: B B B B"])
    assert (error.code, error.hand) == ("sale-gives-game", 4)


def test_a_bid_that_leaves_the_seller_short_of_game_may_be_sold():
    result = sell_out(*SELLER_B_AT_FIVE, "sold C 1: C C C C")
    assert dict(result.hands[2].scores) == scores("A=3 B=5 C=4")
    assert dict(result.scores) == scores("A=3 B=6 C=8")
    assert (result.winner, result.win_reason) == ("C", "bid-out")


def test_the_seller_restriction_follows_the_target_house_rule():
    result = sell_out(*SELLER_B_AT_FIVE, "sold C 2: C A - -", house_rules={"target": 11})
    assert dict(result.scores) == scores("A=4 B=7 C=2")


def test_seller_must_sell_when_keeping_gives_the_high_bidder_game():
    # Hand 3 is dealt by C, so A (at 1) sells; B (at 5) bid 2.
    error = rule_error("sell-out", "A B C", [*B_AND_C_AT_FIVE, "kept A 2 B: A A A A"])
    assert (error.code, error.hand, error.field) == ("kept-gives-game", 3, "sale")
    assert assert_one_line(error) == (
        'hand 3: "A" must sell: keeping would give the high bidder "B" game (5 + 2 reaches 7)'
    )


def test_the_same_bid_may_be_sold_when_keeping_would_give_the_high_bidder_game():
    result = sell_out(*B_AND_C_AT_FIVE, "sold B 2: B B A -")
    assert (result.winner, result.win_reason) == ("B", "bid-out")
    assert dict(result.scores) == scores("A=4 B=7 C=5")


def test_a_kept_hand_short_of_the_high_bidders_game_is_allowed():
    result = sell_out(*B_AND_C_AT_FIVE, "kept A 1 B: A A - -")
    assert dict(result.scores) == scores("A=3 B=6 C=5")


def test_the_buyer_cannot_be_the_seller():
    error = rule_error("sell-out", "A B C", ["sold B 2: B B B B"])
    assert (error.code, error.hand, error.field) == ("sold-to-seller", 1, "pitcher")
    assert str(error) == 'hand 1: in a sold hand the buyer cannot be the seller "B"'


def test_the_high_bidder_cannot_be_the_seller():
    error = rule_error("sell-out", "A B C", ["kept B 2 B: B B B B"])
    assert (error.code, error.hand, error.field) == ("high-bidder-seller", 1, "high_bidder")


def test_in_a_kept_hand_the_seller_pitches():
    error = rule_error("sell-out", "A B C", ["kept C 2 A: C C C C"])
    assert (error.code, error.hand, error.field) == ("kept-pitcher", 1, "pitcher")
    assert str(error) == 'hand 1: in a kept hand the seller "B" pitches, not "C"'


def test_the_buyer_may_be_the_sellers_partner():
    # B sells to partner D at 2: EW get the 2 sold for and D's High, Low.
    result = sell_out("sold D 2: D D A C", players="A B C D", teams=NS_EW)
    assert dict(result.scores) == {"NS": 2, "EW": 4}


def test_the_high_bidder_may_be_the_sellers_partner():
    result = sell_out("kept B 2 D: B B A C", players="A B C D", teams=NS_EW)
    assert dict(result.scores) == {"NS": 2, "EW": 4}


def test_the_restrictions_use_the_sides_score_in_partnerships():
    # Hand 1: B sells to partner D; EW take 3 and the 2 sold for: 5. Hand 2 is passed
    # and redealt by B, so C sells hand 3; keeping at D's 2 would give EW 7.
    texts = ["sold D 2: D D B C", "pass", "sold D 1: D A - -"]
    result = sell_out(*texts, players="A B C D", teams=NS_EW)
    assert [h.seller for h in result.hands] == ["B", "C", "C"]
    assert [dict(h.scores) for h in result.hands] == [
        {"NS": 1, "EW": 5},
        {"NS": 1, "EW": 5},
        {"NS": 3, "EW": 6},
    ]
    error = rule_error("sell-out", "A B C D", [*texts[:2], "kept C 2 D: C C C C"], teams=NS_EW)
    assert (error.code, error.hand) == ("kept-gives-game", 3)
    assert str(error).endswith('the high bidder "D" game (5 + 2 reaches 7)')


def test_same_dealer_redeals_a_passed_sell_out_hand():
    result = sell_out("pass", "pass", "sold C 1: C A - -", "pass")
    assert [(h.dealer, h.seller) for h in result.hands] == [
        ("A", "B"),
        ("A", "B"),
        ("A", "B"),
        ("B", "C"),
    ]
    assert result.next_dealer == "B"


def test_sell_out_can_move_the_deal_on_a_passed_hand_by_house_rule():
    result = sell_out("pass", "sold A 1: A B - -", house_rules={"all_pass": "redeal-next-dealer"})
    assert [(h.dealer, h.seller) for h in result.hands] == [("A", "B"), ("B", "C")]


def test_a_played_sell_out_hand_must_say_how_it_was_sold():
    game = Game.create("sell-out", ["A", "B", "C"])
    bare = Hand(pitcher="B", bid=4, points={"high": "B", "low": "B", "jack": "B", "game": "B"})
    with pytest.raises(RuleError) as caught:
        score_game(game, [bare])
    assert (caught.value.code, caught.value.field, caught.value.hand) == ("sale-missing", "sale", 1)


def test_a_kept_hand_must_name_its_high_bidder():
    game = Game.create("sell-out", ["A", "B", "C"])
    kept = Hand(
        pitcher="B",
        bid=2,
        points={"high": "B", "low": "B", "jack": "B", "game": "B"},
        sale=Sale.KEPT,
    )
    with pytest.raises(RuleError) as caught:
        score_game(game, [kept])
    assert (caught.value.code, caught.value.field) == ("high-bidder-missing", "high_bidder")


def test_a_high_bidder_appears_only_on_kept_hands():
    game = Game.create("sell-out", ["A", "B", "C"])
    sold = hand("sold C 2: C C C C", "sell-out")
    sold = Hand(
        pitcher=sold.pitcher, bid=sold.bid, points=sold.points, sale=Sale.SOLD, high_bidder="A"
    )
    with pytest.raises(RuleError) as caught:
        score_game(game, [sold])
    assert (caught.value.code, caught.value.field) == ("high-bidder-not-allowed", "high_bidder")


def test_a_high_bidder_who_is_not_seated_is_rejected():
    error = rule_error("sell-out", "A B C", ["kept B 2 Zed: B B B B"])
    assert (error.code, error.hand, error.field) == ("unknown-player", 1, "high_bidder")
    assert str(error) == 'hand 1: high bidder "Zed" is not seated in the game'


@pytest.mark.parametrize("sale", list(Sale))
def test_only_sell_out_hands_have_a_sale(sale):
    game = Game.create("auction-pitch", ["A", "B"])
    played = Hand(
        pitcher="A", bid=2, points={"high": "A", "low": "A", "jack": "A", "game": "A"}, sale=sale
    )
    with pytest.raises(RuleError) as caught:
        score_game(game, [played])
    assert (caught.value.code, caught.value.field) == ("sale-not-allowed", "sale")


def test_the_game_names_the_seller_for_a_dealer_and_nobody_outside_sell_out():
    game = Game.create("sell-out", ["A", "B", "C"])
    assert [game.seller_for(d) for d in ("A", "B", "C", None)] == ["B", "C", "A", None]
    assert Game.create("auction-pitch", ["A", "B", "C"]).seller_for("A") is None


def test_a_pitched_hand_left_untapped_is_filled_in_as_the_seller_playing_four():
    game = Game.create("sell-out", ["A", "B", "C"])
    points = {"high": "B", "low": "B", "jack": None, "game": "A"}
    pitched = game.filled_in(Hand(points=points, sale=Sale.PITCHED), "A")
    kept = game.filled_in(Hand(bid=2, points=points, sale=Sale.KEPT, high_bidder="C"), "B")
    assert (pitched.pitcher, pitched.bid) == ("B", 4)
    assert (kept.pitcher, kept.bid) == ("C", 2)
    sold = Hand(bid=2, points=points, sale=Sale.SOLD)
    assert game.filled_in(sold, "A") is sold


def test_the_side_that_scores_a_sale_is_the_sellers_when_sold_and_the_high_bidders_when_kept():
    result = sell_out("sold C 1: C C - -", "kept C 2 A: C C A -", "pitched A 4: A A A A")
    assert [h.sale_scorer for h in result.hands] == ["B", "A", None]


def test_sale_allowed_says_which_sale_the_scores_allow() -> None:
    # Target 7 (the preset). B sells at 4 and C is at 5: a bid of 3 would give B the game
    # (4 + 3 = 7), so it may not be sold; a bid of 2 may be sold to C, but not kept against C
    # (5 + 2 = 7); a pitched hand always may, by the seller only; nor is a hand sold to the
    # seller.
    game = Game.create("sell-out", ["A", "B", "C"])
    before = {"A": 0, "B": 4, "C": 5}
    assert not rules_sale_allowed(game, Hand(pitcher="C", bid=3, sale=Sale.SOLD), before)
    assert rules_sale_allowed(game, Hand(pitcher="C", bid=2, sale=Sale.SOLD), before)
    kept = Hand(pitcher="B", bid=2, sale=Sale.KEPT, high_bidder="C")
    assert not rules_sale_allowed(game, kept, before)
    assert rules_sale_allowed(game, Hand(pitcher="B", bid=4, sale=Sale.PITCHED), before)
    assert not rules_sale_allowed(game, Hand(pitcher="C", bid=4, sale=Sale.PITCHED), before)
    assert not rules_sale_allowed(game, Hand(pitcher="B", bid=2, sale=Sale.SOLD), before)


def rules_sale_allowed(game: Game, hand: Hand, before: dict[str, int]) -> bool:
    from scorekeeper.rules import sale_allowed

    return sale_allowed(game, hand, "B", before)
