"""RULES.md section 4: the eight variants, their seats, bids, points and presets."""

from __future__ import annotations

import pytest
from rules_helpers import POINT_ORDER, hand, play, rule_error

from scorekeeper.rules import VARIANTS, Game, RuleError, find_variant, score_game

# key: (seats, bids, target, smudge bid, pitcher scores the bid, win rule, all pass)
PRESETS = {
    "auction-pitch": ((2, 7), (2, 4), 7, 4, False, "count-out", "dealer-takes"),
    "joker-pitch": ((2, 7), (2, 5), 10, 5, False, "count-out", "dealer-takes"),
    "racehorse-pitch": ((2, 5), (2, 4), 7, 4, False, "count-out", "dealer-takes"),
    "sell-out": ((2, 7), (1, 4), 7, None, False, "count-out", "redeal-same-dealer"),
    "pitch-six": ((3, 6), (3, 6), 12, None, True, "bidder-only", "dealer-takes"),
    "pedro": ((2, 7), (1, 9), 21, None, False, "count-out", "dealer-takes"),
    "cinch": ((4, 6), (0, 14), 51, None, False, "first-to-target", "redeal-next-dealer"),
    "ten-point": ((3, 6), (4, 10), 52, 10, False, "bidder-only", "dealer-takes"),
}


def test_there_are_exactly_the_eight_variants_of_the_rules():
    assert list(VARIANTS) == list(PRESETS)


@pytest.mark.parametrize("key", PRESETS)
def test_a_variant_is_found_by_its_key(key):
    assert find_variant(key).key == key


def test_an_unknown_variant_key_is_a_value_error_naming_it():
    with pytest.raises(ValueError, match="unsupported variant: 'bridge'"):
        find_variant("bridge")


@pytest.mark.parametrize(("key", "preset"), PRESETS.items())
def test_each_variant_has_the_preset_of_the_rules_table(key, preset):
    seats, bids, target, smudge_bid, scores_bid, win_rule, all_pass = preset
    variant = find_variant(key)
    assert (variant.min_seats, variant.max_seats) == seats
    assert (variant.min_bid, variant.max_bid) == bids
    assert variant.preset.target == target
    assert variant.smudge_bid == smudge_bid
    assert variant.pitcher_scores_bid is scores_bid
    assert variant.win_rule == win_rule
    assert variant.preset.all_pass == all_pass
    assert variant.point_keys == POINT_ORDER[key]


@pytest.mark.parametrize(
    ("key", "smudge"),
    [
        ("auction-pitch", "not-in-hole"),
        ("joker-pitch", "not-in-hole"),
        ("racehorse-pitch", "not-in-hole"),
        ("sell-out", "off"),
        ("pitch-six", "off"),
        ("pedro", "off"),
        ("cinch", "off"),
        ("ten-point", "always"),
    ],
)
def test_only_auction_joker_racehorse_and_ten_point_pitch_smudge(key, smudge):
    assert find_variant(key).preset.smudge == smudge


@pytest.mark.parametrize(
    ("key", "low_to"),
    [
        ("auction-pitch", "holder"),
        ("joker-pitch", "taker"),
        ("racehorse-pitch", "holder"),
        ("pedro", "taker"),
        ("cinch", "taker"),
        ("ten-point", "holder"),
    ],
)
def test_low_goes_to_the_holder_or_the_taker_as_the_rule_books_say(key, low_to):
    assert find_variant(key).preset.low_to == low_to


def test_only_pitch_six_has_the_gap_rule_of_twelve():
    assert {k: v.gap for k, v in VARIANTS.items() if v.gap} == {"pitch-six": 12}


@pytest.mark.parametrize(
    ("key", "total"),
    [
        ("auction-pitch", 4),
        ("joker-pitch", 5),
        ("racehorse-pitch", 4),
        ("sell-out", 4),
        ("pitch-six", 6),
        ("pedro", 9),
        ("cinch", 14),
        ("ten-point", 10),
    ],
)
def test_the_points_in_play_add_up_as_the_rules_say(key, total):
    assert find_variant(key).points_in_play == total


@pytest.mark.parametrize(
    ("key", "nobody"),
    [
        ("auction-pitch", {"jack", "game"}),
        ("joker-pitch", {"jack", "joker", "game"}),
        ("pitch-six", {"jack", "six", "game"}),
        ("pedro", {"jack", "game", "pedro"}),
        ("cinch", {"jack", "game", "right_pedro", "left_pedro"}),
    ],
)
def test_only_the_points_that_may_be_missing_can_go_to_nobody(key, nobody):
    variant = find_variant(key)
    assert {p.key for p in variant.points if p.may_be_nobody} == nobody


# --- Seats.

SEAT_CASES = [
    (key, count, ok)
    for key, ((low, high), *_rest) in PRESETS.items()
    if key != "cinch"
    for count, ok in ((low - 1, False), (low, True), (high, True), (high + 1, False))
]


@pytest.mark.parametrize(("key", "count", "ok"), SEAT_CASES)
def test_each_variant_seats_only_its_range_of_players(key, count, ok):
    players = [f"P{i}" for i in range(1, count + 1)]
    if ok:
        assert Game.create(key, players).players == tuple(players)
    else:
        error = rule_error(key, players, [])
        assert (error.code, error.field, error.hand) == ("seat-count", "players", None)


def test_racehorse_pitch_seats_at_most_five_with_a_32_card_pack():
    error = rule_error("racehorse-pitch", "A B C D E F", [])
    assert str(error) == "players: Racehorse Pitch seats 2 to 5 players, not 6"


@pytest.mark.parametrize("count", [2, 3, 5, 7])
def test_cinch_seats_only_four_or_six(count):
    players = [f"P{i}" for i in range(1, count + 1)]
    error = rule_error("cinch", players, [])
    assert (error.code, error.field) == ("seat-count-cinch", "players")


# --- Bids.

BID_CASES = [
    (key, bid, ok)
    for key, (_seats, (low, high), *_rest) in PRESETS.items()
    for bid, ok in ((low - 1, False), (low, True), (high, True), (high + 1, False))
]


def _a_hand_with_bid(key: str, bid: int):
    """A hand of ``bid`` by the dealer (so a Cinch bid of 0 is allowed), sold in Sell-Out."""
    takers = " ".join("A" for _ in POINT_ORDER[key])
    if key == "sell-out":
        return hand(f"sold C {bid}: {takers}", key)
    return hand(f"A {bid}: {takers}", key)


@pytest.mark.parametrize(("key", "bid", "ok"), BID_CASES)
def test_each_variant_takes_only_its_range_of_bids(key, bid, ok):
    teams = {"NS": ["A", "C"], "EW": ["B", "D"]} if key == "cinch" else None
    game = Game.create(key, ["A", "B", "C", "D"], teams=teams)
    if ok:
        assert score_game(game, [_a_hand_with_bid(key, bid)]).hands[0].bid == bid
        return
    with pytest.raises(RuleError) as caught:
        score_game(game, [_a_hand_with_bid(key, bid)])
    error = caught.value
    expected = (
        "bid-above-max"
        if bid > PRESETS[key][1][1]
        else ("bid-zero" if bid == 0 else "bid-below-min")
    )
    assert (error.code, error.hand, error.field) == (expected, 1, "bid")


def test_a_bid_above_the_maximum_names_the_maximum_and_the_variant():
    error = rule_error("auction-pitch", "A B", ["A 2: A A B B", "B 2: A A B B", "A 5: A A A A"])
    assert str(error) == "hand 3: bid 5 is above the maximum of 4 for Auction Pitch"


def test_a_bid_below_the_minimum_names_the_minimum():
    error = rule_error("pitch-six", "A B C", ["A 2: A A A A A A"])
    assert str(error) == "hand 1: bid 2 is below the minimum of 3 for Pitch Six"


# --- Notes per variant.


def test_joker_pitch_counts_the_joker_before_game():
    # A and B stand at 9; C makes 2; A takes the Joker, B takes Game: A goes out first.
    setup = ["A 4: A A A A B", "B 4: B B B B A", "A 4: A A A A -", "B 4: B B B B -"]
    result = play("joker-pitch", "A B C", [*setup, "C 2: C C - A B"])
    assert [dict(h.scores) for h in result.hands[-2:]] == [
        {"A": 9, "B": 9, "C": 0},
        {"A": 10, "B": 10, "C": 2},
    ]
    assert (result.winner, result.win_reason) == ("A", "count-out")


def test_racehorse_pitch_is_scored_as_auction_pitch():
    texts = ["A 2: A B A C", "B 3: B B C A", "C 4: C C C C"]
    assert [dict(h.scores) for h in play("racehorse-pitch", "A B C", texts).hands] == [
        dict(h.scores) for h in play("auction-pitch", "A B C", texts).hands
    ]
    assert play("racehorse-pitch", "A B C", texts).win_reason == "smudge"


def test_pedro_game_is_the_ten_of_trumps_and_may_go_to_nobody():
    # Without the ten, A's 8 (High, Low, Jack, Pedro 5) cannot make 9.
    result = play("pedro", "A B", ["A 9: A A A - A"])
    assert dict(result.scores) == {"A": -9, "B": 0}
    assert find_variant("pedro").point("game").name == "Game (ten)"
