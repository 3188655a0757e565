"""RULES.md section 11: more point cards, the dealer set when all pass, and games that end
by the count of hands or when time is called; and a hand's own dealer (GAME-RECORD.md).

Every expected value is worked out by hand in the test or its comment.
"""

from __future__ import annotations

from typing import Any

import pytest
from rules_helpers import assert_one_line, played, score

from scorekeeper.rules import (
    FORMAT,
    POINTS,
    Game,
    Hand,
    RuleError,
    output_document,
    parse_record,
    record_to_json,
    score_game,
)
from scorekeeper.rules.scoring import next_game, usual_dealers

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


# --- A hand's own dealer (GAME-RECORD.md)


def _record(hands: list[dict[str, Any]], **top: Any) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "variant": "auction-pitch",
        "house_rules": {"all_pass": "redeal-next-dealer"},
        "players": ["Ann", "Bob", "Cy"],
        "hands": hands,
        **top,
    }


AP_HAND = {
    "pitcher": "Bob",
    "bid": 2,
    "points": {"high": "Bob", "low": "Cy", "jack": None, "game": "Bob"},
}


def test_a_record_names_who_really_dealt_on_a_played_or_a_passed_hand():
    data = _record([{**AP_HAND, "dealer": "Cy"}, {"passed": True, "dealer": "Cy"}, AP_HAND])
    record = parse_record(data)
    assert [h.dealer for h in record.hands] == ["Cy", "Cy", None]
    result = record.score()
    # Ann is due first; Cy deals instead, so Ann is due next; Cy deals again, and after
    # that passed hand the deal goes left of Cy, to Ann.
    assert [(h.usual_dealer, h.dealer) for h in result.hands] == [
        ("Ann", "Cy"),
        ("Ann", "Cy"),
        ("Ann", "Ann"),
    ]
    assert [h["dealer"] for h in output_document(result)["hands"]] == ["Cy", "Cy", "Ann"]
    assert result.next_dealer == "Bob"
    assert record_to_json(record.game, record.hands) == data


def test_an_exporter_writes_a_dealer_only_where_it_is_not_the_usual_one():
    # Hand 2's dealer is Bob, who was due to deal it anyway: accepted, scored as without it,
    # and left out of the export.
    data = _record([AP_HAND, {**AP_HAND, "dealer": "Bob"}])
    record = parse_record(data)
    assert output_document(record.score()) == output_document(
        parse_record(_record([AP_HAND, AP_HAND])).score()
    )
    assert record_to_json(record.game, record.hands)["hands"] == [AP_HAND, AP_HAND]


def test_a_record_without_dealers_stays_valid_and_unchanged():
    data = _record([AP_HAND, {"passed": True}, AP_HAND])
    record = parse_record(data)
    assert [h.dealer for h in record.score().hands] == ["Ann", "Bob", "Cy"]
    assert record_to_json(record.game, record.hands) == data


def test_a_form_builds_a_hand_with_its_dealer_kept_only_when_out_of_turn():
    game = Game.create("auction-pitch", ["A", "B", "C"])
    first = played(game, "B 2: B C - B")
    due = score_game(game, [first]).next_dealer
    assert due == "B"
    second = played(game, "C 2: C C C -")
    assert second.dealt_by("B", due) == second
    assert second.dealt_by("B", due).dealer is None
    assert second.dealt_by("A", due).dealer == "A"
    # Dealt in turn again after all: the form's choice clears the dealer.
    assert second.dealt_by("A", due).dealt_by("B", due).dealer is None
    result = score_game(game, [first, second.dealt_by("A", due)])
    assert [(h.usual_dealer, h.dealer, h.out_of_turn) for h in result.hands] == [
        ("A", "A", False),
        ("B", "A", True),
    ]
    # Who deals next follows who really dealt: B, left of A.
    assert result.next_dealer == "B"


def test_the_usual_dealers_of_a_game_follow_who_really_dealt_without_scoring():
    game = Game.create("sell-out", ["A", "B", "C"], house_rules={"all_pass": "redeal-same-dealer"})
    hands = [Hand.passed_out(dealer="C"), Hand.passed_out(), Hand.passed_out(dealer="B")]
    # A is due; C deals and passes, so C is due again and deals; then B deals out of turn.
    assert usual_dealers(game, hands) == ["A", "C", "C"]
    assert [h.seller for h in score_game(game, hands).hands] == ["A", "A", "C"]


# --- 11.4 Ending after a number of hands, or when time is called


def test_the_hand_limit_is_the_smaller_of_hands_and_time_called():
    game = Game.create("auction-pitch", ["A", "B"], house_rules={"hands": 6})
    assert (game.hand_limit, game.limit_is_called) == (6, False)
    assert (game.call_time(4).hand_limit, game.call_time(4).limit_is_called) == (4, True)
    assert (game.call_time(9).hand_limit, game.call_time(9).limit_is_called) == (6, False)
    assert game.call_time(4).call_time(None) == game
    plain = Game.create("auction-pitch", ["A", "B"])
    assert (plain.hand_limit, plain.call_time(3).hand_limit) == (None, 3)


def test_calling_time_is_checked_as_the_record_checks_called():
    game = Game.create("auction-pitch", ["A", "B"])
    with pytest.raises(RuleError) as caught:
        game.call_time(0)
    assert (caught.value.code, caught.value.field) == ("called-range", "called")


def test_time_called_is_scored_from_the_game_so_every_replay_ends_alike():
    game = Game.create("auction-pitch", ["A", "B"])
    hands = [played(game, "A 2: A A B -"), played(game, "B 2: B B A A")]
    assert not score_game(game, hands).finished
    # Called after hand 1: A 2 to B 1, A alone at the top.
    called = score_game(game.call_time(1), hands[:1])
    assert (called.winner, called.win_reason, called.winning_hand) == ("A", "most-points", 1)


def test_a_record_keeps_time_called_and_the_hands_and_no_target_switches():
    data = {
        "format": FORMAT,
        "variant": "sell-out",
        "house_rules": {"hands": 12, "target": None},
        "players": ["Ann", "Bob", "Cy"],
        "called": 5,
        "hands": [],
    }
    record = parse_record(data)
    assert (record.game.called, record.game.house_rules.hands) == (5, 12)
    assert record.game.house_rules.target is None
    assert record_to_json(record.game, record.hands) == data


def test_the_next_game_at_the_table_is_not_called():
    game = Game.create("auction-pitch", ["A", "B"], called=1)
    result = score_game(game, [played(game, "A 2: A A B -")])
    assert result.finished
    again = next_game(result)
    assert (again.called, again.first_dealer) == (None, "B")


def test_a_preset_smudge_is_off_in_a_game_without_a_target():
    game = Game.create("ten-point", list("ABC"), house_rules={"hands": 8, "target": None})
    assert game.house_rules.smudge == "off"
    assert game.variant.smudge_in_force(game.house_rules) is None
    given = Game.create(
        "ten-point", list("ABC"), house_rules={"hands": 8, "target": None, "smudge": "off"}
    )
    assert given.house_rules == game.house_rules


def test_hands_left_count_played_hands_only_and_stop_at_zero_on_a_shared_top():
    redeal = {"all_pass": "redeal-next-dealer"}
    game = Game.create(
        "auction-pitch", ["A", "B"], house_rules={"hands": 3, "target": None, **redeal}
    )
    assert score_game(game, []).hands_left == 3
    # A 2, B 2 after hand 1 (A made High and Low; B took Jack and Game); a pass counts nothing.
    one = [played(game, "A 2: A A B B"), Hand.passed_out()]
    result = score_game(game, one)
    assert (result.played, result.hands_left) == (1, 2)
    # Hands 3 and 4: each side makes 2 again, so 6 to 6 when the third played hand is done.
    three = [*one, played(game, "B 2: B B A A"), played(game, "A 2: A A B B")]
    tied = score_game(game, three)
    assert (tied.hands_left, tied.limit_hand, tied.finished) == (0, 4, False)
    assert not tied.time_can_be_called
    assert score_game(Game.create("auction-pitch", ["A", "B"]), []).hands_left is None


def test_time_can_be_called_while_it_changes_something_and_only_once():
    redeal = {"all_pass": "redeal-next-dealer"}
    plain = Game.create("auction-pitch", ["A", "B"], house_rules=redeal)
    hands = [played(plain, "A 2: A A B -"), Hand.passed_out()]
    result = score_game(plain, hands)
    assert result.time_can_be_called
    # After the hand being played: one played hand so far, and the next one.
    called = result.time_called_now()
    assert called.called == 2
    after = score_game(called, hands)
    assert (after.hands_left, after.time_can_be_called) == (1, False)
    # With 2 hands to play and one played, the hand being played is the last anyway.
    short = Game.create("auction-pitch", ["A", "B"], house_rules={"hands": 2, **redeal})
    assert not score_game(short, hands[:1]).time_can_be_called
    assert score_game(short, []).time_can_be_called
    # A game won cannot be called: A smudges 4 from 0 and wins at once.
    won = score_game(plain, [played(plain, "A 4: A A A A")])
    assert won.finished and not won.time_can_be_called
