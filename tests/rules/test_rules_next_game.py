"""The next game at the same table (issue 14, "Play again"): the same setup, the deal going
on to the left from the last hand's dealer (RULES.md section 1)."""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.rules import Game, Hand, score_game
from scorekeeper.rules.scoring import next_game

EVERY = ("high", "low", "jack", "game")


def _all(player: str, bid: int) -> Hand:
    return Hand(pitcher=player, bid=bid, points=dict.fromkeys(EVERY, player))


def test_the_next_game_keeps_the_table_and_is_dealt_by_the_player_left_of_the_last_dealer() -> None:
    game = Game.create(
        "auction-pitch",
        ["Ann", "Bob", "Cy", "Dee"],
        teams={"North": ["Ann", "Cy"], "East": ["Bob", "Dee"]},
        house_rules={"target": 7, "payout_per_setback": 2},
        first_dealer="Dee",
        stake="0.25",
    )
    result = score_game(game, [_all("Ann", 2), _all("Cy", 3)])  # Dee deals, then Ann
    assert result.finished and result.next_dealer is None
    after = next_game(result)
    assert after == replace(game, first_dealer="Bob")
    assert after.house_rules_given == {"target": 7, "payout_per_setback": 2}
    assert score_game(after, []).next_dealer == "Bob"


def test_the_deal_wraps_round_from_the_last_seat_to_the_first() -> None:
    game = Game.create("auction-pitch", ["Ann", "Bob", "Cy"], first_dealer="Cy")
    result = score_game(game, [Hand(pitcher="Bob", bid=4, points=dict.fromkeys(EVERY, "Bob"))])
    assert result.finished
    assert next_game(result).first_dealer == "Ann"


def test_a_game_without_hands_is_dealt_first_by_its_own_first_dealer_again() -> None:
    game = Game.create("pedro", ["Ann", "Bob", "Cy"], first_dealer="Bob")
    assert next_game(score_game(game, [])).first_dealer == "Bob"
    assert next_game(score_game(Game.create("pedro", ["Ann", "Bob"]), [])).first_dealer == "Ann"


def test_a_passed_out_hand_the_same_dealer_redeals_keeps_the_deal_where_it_is() -> None:
    game = Game.create("sell-out", ["Ann", "Bob", "Cy"], first_dealer="Bob")
    result = score_game(game, [Hand.passed_out()])
    assert next_game(result).first_dealer == result.next_dealer == "Bob"
