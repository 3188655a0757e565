"""RULES.md section 11: more point cards, the dealer set when all pass, and games that end
by the count of hands or when time is called; and a hand's own dealer (GAME-RECORD.md).

Every expected value is worked out by hand in the test or its comment.
"""

from __future__ import annotations

from typing import Any

import pytest
from rules_helpers import assert_one_line

from scorekeeper.rules import POINTS, Game, Hand, RuleError, score_game


def played(game: Game, text: str, counts: dict[str, int] | None = None) -> Hand:
    """``"B 2: B C - B"`` in the game's own count-out order (after its switches)."""
    if text == "pass":
        return Hand.passed_out()
    head, takers = text.split(":")
    pitcher, bid = head.split()
    names = [None if t == "-" else t for t in takers.split()]
    points = dict(zip(game.variant.point_keys, names, strict=True))
    return Hand(pitcher=pitcher, bid=int(bid), points=points, game_count=counts)


def score(game: Game, *texts: str) -> Any:
    return score_game(game, [played(game, t) for t in texts])


# --- 11.1 More points

#: RULES.md 11.1's table: key, worth, may go to nobody.
NEW_POINTS = [("ten", 1, True), ("off_ace", 1, True), ("off_three", 3, True), ("nine", 9, True)]


@pytest.mark.parametrize(("key", "value", "nobody"), NEW_POINTS)
def test_each_new_point_is_worth_what_the_table_says_and_may_go_to_nobody(key, value, nobody):
    point = POINTS[key]
    assert (point.value, point.may_be_nobody) == (value, nobody)
    assert point.name and point.help and point.mark


def test_the_new_points_count_out_in_the_order_the_table_gives():
    # Auction Pitch with every new point: 1 + 1 + 1 + 1 + 1 + 1 + 3 + 9 = 18 points.
    game = Game.create(
        "auction-pitch",
        ["A", "B", "C"],
        house_rules={
            "points": ["high", "low", "jack", "game", "ten", "off_ace", "off_three", "nine"],
            "target": 11,
        },
    )
    assert (game.variant.min_bid, game.variant.max_bid, game.house_rules.smudge_bid) == (2, 18, 18)
    # A bids 3 and takes High, Low and the Ten (3): made, A 3. B: Jack, Game, the Off-Ace (3);
    # C: the Off-Three (3) and then the Nine (9). Counted out in order from 0: B reaches 3,
    # C 3 then 12 on the Nine, the first to 11.
    result = score(game, "A 3: A A B B A B C C")
    assert dict(result.scores) == {"A": 3, "B": 3, "C": 12}
    assert (result.winner, result.win_reason) == ("C", "count-out")


def test_a_new_point_left_to_nobody_scores_for_nobody():
    game = Game.create(
        "auction-pitch", ["A", "B"], house_rules={"points": ["high", "low", "off_three", "nine"]}
    )
    # A bids 2, takes High and Low (2); the Off-Three and the Nine were not dealt.
    result = score(game, "A 2: A A - -")
    assert dict(result.scores) == {"A": 2, "B": 0}


def test_ten_and_game_may_both_be_played_where_game_is_the_game_count():
    game = Game.create(
        "auction-pitch", list("ABCD"), house_rules={"points": ["high", "low", "ten", "game"]}
    )
    # A holds the ten of trumps (10 toward Game) but B counted more: Game to B, the Ten to A.
    counts = {"A": 14, "B": 30, "C": 0, "D": 6}
    result = score_game(game, [played(game, "A 3: A A A B", counts)])
    assert dict(result.scores) == {"A": 3, "B": 1, "C": 0, "D": 0}


def test_pedro_refuses_ten_beside_its_game_which_is_the_ten_of_trumps():
    with pytest.raises(RuleError) as caught:
        Game.create(
            "pedro",
            ["A", "B"],
            house_rules={"points": ["high", "low", "jack", "game", "pedro", "ten"]},
        )
    error = caught.value
    assert (error.code, error.field) == ("switch-points-ten-game", "house_rules")
    assert assert_one_line(error) == (
        "house_rules: points cannot have both ten and game in Pedro: its Game is the ten of trumps"
    )


def test_pedro_may_play_the_ten_in_place_of_its_game():
    game = Game.create(
        "pedro", ["A", "B"], house_rules={"points": ["high", "low", "jack", "ten", "pedro"]}
    )
    # 1 + 1 + 1 + 1 + 5 = 9, as Pedro's own points.
    assert game.variant.max_bid == 9
    assert dict(score(game, "B 6: B A B B B").scores) == {"A": 1, "B": 8}


@pytest.mark.parametrize(
    ("variant", "points"),
    [
        ("auction-pitch", ["high", "low", "jack", "ten"]),
        ("pedro", ["high", "low", "jack", "game", "pedro", "nine"]),
        ("ten-point", ["high", "low", "jack", "off_jack", "big_joker", "little_joker", "ten"]),
    ],
)
def test_the_ten_does_not_make_a_game_count_allowed(variant, points):
    game = Game.create(variant, list("ABC"), house_rules={"points": points})
    text = f"A {game.variant.min_bid}: " + " ".join("A" for _ in points)
    with pytest.raises(RuleError) as caught:
        score_game(game, [played(game, text, {"A": 10, "B": 0, "C": 0})])
    assert (caught.value.code, caught.value.hand) == ("game-count-not-allowed", 1)
