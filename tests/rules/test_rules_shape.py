"""RULES.md sections 5 and 10: a table's own shape of the game, the moon, and counting Game.

Every switch is shown doing what the table asked, and refused one past each end of
its range; every refusal is one line naming the switch (or the hand and field).
"""

from __future__ import annotations

from typing import Any

import pytest
from rules_helpers import NS_EW, assert_one_line, played, score

from scorekeeper.rules import (
    FORMAT,
    Game,
    RuleError,
    parse_record,
    record_to_json,
    score_game,
)

TEN = ("high", "low", "jack", "off_jack", "big_joker", "little_joker", "three", "game")


def refused(variant: str, house_rules: dict[str, Any], players: str = "A B C D", **setup: Any):
    with pytest.raises(RuleError) as caught:
        Game.create(variant, players.split(), house_rules=house_rules, **setup)
    assert_one_line(caught.value)
    return caught.value


# --- each switch does what the table asked


def test_an_off_jack_added_to_auction_pitch_is_counted_after_jack_and_raises_the_top_bid():
    game = Game.create(
        "auction-pitch",
        ["A", "B", "C"],
        house_rules={"points": ["high", "low", "jack", "off_jack", "game"]},
    )
    assert game.variant.point_keys == ("high", "low", "jack", "off_jack", "game")
    assert (game.variant.min_bid, game.variant.max_bid) == (2, 5)
    # The smudge is a bid of all the points: 5 now.
    assert game.house_rules.smudge_bid == 5
    result = score(game, "A 5: A A A A A")
    assert (result.winner, result.win_reason) == ("A", "smudge")


def test_the_points_list_is_the_count_out_order_whatever_order_the_table_gives():
    game = Game.create(
        "auction-pitch",
        ["A", "B", "C"],
        house_rules={"points": ["game", "jack", "low", "high"], "target": 2},
    )
    # A is set back; B and C both reach 2: B's Low comes before C's High in this order.
    result = score(game, "A 2: B C B C")
    assert (result.winner, result.win_reason) == ("B", "count-out")


def test_min_bid_refuses_a_lower_bid_and_is_what_the_dealer_must_take():
    game = Game.create("auction-pitch", ["A", "B", "C"], house_rules={"min_bid": 3})
    with pytest.raises(RuleError) as caught:
        score(game, "A 2: A A A A")
    assert str(caught.value) == "hand 1: bid 2 is below the minimum of 3 for Auction Pitch"
    with pytest.raises(RuleError) as caught:
        score(game, "pass")
    assert "take the bid at 3" in str(caught.value)


def test_max_bid_below_the_points_total_caps_the_bid_and_moves_the_smudge():
    game = Game.create("joker-pitch", ["A", "B", "C"], house_rules={"max_bid": 4})
    assert game.house_rules.smudge_bid == 4
    with pytest.raises(RuleError) as caught:
        score(game, "A 5: A A A A A")
    assert str(caught.value) == "hand 1: bid 5 is above the maximum of 4 for Joker Pitch"


def test_a_smudge_bid_given_to_pitch_six_wins_unless_in_the_hole():
    game = Game.create("pitch-six", ["A", "B", "C"], house_rules={"smudge_bid": 6})
    assert game.house_rules.smudge == "not-in-hole"
    result = score(game, "A 6: A A A A A A")
    assert (result.winner, result.win_reason, result.scores["A"]) == ("A", "smudge", 6)


def test_a_null_smudge_bid_turns_the_smudge_off():
    game = Game.create("auction-pitch", ["A", "B", "C"], house_rules={"smudge_bid": None})
    result = score(game, "A 4: A A A A")
    assert result.winner is None
    assert "smudge" not in result.hands[0].events


def test_win_rule_bidder_only_lets_a_defender_pass_the_target_without_winning():
    game = Game.create(
        "auction-pitch", ["A", "B", "C"], house_rules={"win_rule": "bidder-only", "target": 3}
    )
    result = score(game, "A 2: B B B A", "C 2: B B C C")
    assert result.scores["B"] == 5
    assert result.winner is None


def test_win_rule_count_out_lets_a_pitch_six_defender_win_on_points():
    game = Game.create(
        "pitch-six", ["A", "B", "C"], house_rules={"win_rule": "count-out", "target": 3}
    )
    result = score(game, "A 4: B B B A A A")
    assert (result.winner, result.win_reason) == ("B", "count-out")


def test_pitcher_scores_bid_gives_a_made_contract_only_the_bid():
    game = Game.create("auction-pitch", ["A", "B", "C"], house_rules={"pitcher_scores": "bid"})
    assert dict(score(game, "A 2: A A A A").scores) == {"A": 2, "B": 0, "C": 0}


def test_pitcher_scores_all_gives_a_pitch_six_pitcher_what_it_took():
    game = Game.create("pitch-six", ["A", "B", "C"], house_rules={"pitcher_scores": "all"})
    assert score(game, "A 3: A A A A A A").scores["A"] == 6


def test_a_gap_rule_on_auction_pitch_ends_the_game_for_a_big_enough_lead():
    # A defender at 3 with a lead of 3 wins by the gap, since bidder-only keeps count-out off.
    game = Game.create(
        "auction-pitch",
        ["A", "B"],
        house_rules={"gap": 3, "target": 3, "win_rule": "bidder-only"},
    )
    result = score(game, "A 2: B B B B")
    assert (result.winner, result.win_reason) == ("B", "gap")


def test_gap_zero_turns_pitch_sixs_gap_rule_off():
    game = Game.create("pitch-six", ["A", "B", "C"], house_rules={"gap": 0, "target": 3})
    result = score(game, "A 3: B B B B B B")
    assert result.scores["B"] == 6 and result.winner is None


def test_a_failed_smudge_is_an_ordinary_set_back_by_default():
    game = Game.create("auction-pitch", ["A", "B"])
    result = score(game, "A 4: A A A B")
    assert result.winner is None
    assert result.hands[0].events == ("set-back",)


def test_smudge_failed_loses_ends_the_game_whatever_the_score_before():
    game = Game.create("auction-pitch", ["A", "B"], house_rules={"smudge_failed": "loses"})
    result = score(game, "A 3: A A A B", "A 4: A A A B")
    assert (result.winner, result.win_reason, result.winning_hand) == ("B", "smudge-failed", 2)
    assert result.hands[1].events == ("set-back", "won")
    assert dict(result.setbacks) == {"A": 1, "B": 0}
    assert result.scores["A"] == 3 - 4


def test_pedros_game_stays_the_ten_of_trumps_with_its_points_switched():
    game = Game.create(
        "pedro", ["A", "B", "C"], house_rules={"points": ["high", "low", "game", "pedro"]}
    )
    assert game.variant.point("game").name == "Game (ten)"
    assert game.variant.max_bid == 8
    assert not game.variant.counts_game


def test_a_switch_equal_to_the_presets_value_is_kept_and_changes_nothing():
    game = Game.create("ten-point", ["A", "B", "C", "D"], house_rules={"min_bid": 4})
    assert game.variant is Game.create("ten-point", ["A", "B", "C", "D"]).variant
    assert dict(game.house_rules_given) == {"min_bid": 4}


# --- refusals, each naming the switch

# (id, variant, house rules, code, field, message)
REFUSED = [
    (
        "points not a list",
        "auction-pitch",
        {"points": "high"},
        "switch-points-list",
        "house_rules.points",
        'house_rules.points: points must be a list of point names, not "high"',
    ),
    (
        "an unknown point",
        "auction-pitch",
        {"points": ["high", "low", "ace"]},
        "switch-points-unknown",
        "house_rules.points",
        'house_rules.points: "ace" is not a point a table can play; the points are high, low, '
        "jack, game, joker, six, last_trick, pedro, off_jack, big_joker, little_joker, three, "
        "ten, off_ace, off_three, nine",
    ),
    (
        "a Cinch five",
        "auction-pitch",
        {"points": ["high", "low", "right_pedro"]},
        "switch-points-unknown",
        "house_rules.points",
        None,
    ),
    (
        "a point twice",
        "auction-pitch",
        {"points": ["high", "low", "low"]},
        "switch-points-twice",
        "house_rules.points",
        "house_rules.points: low is listed twice in points",
    ),
    (
        "no High",
        "auction-pitch",
        {"points": ["low", "jack", "game"]},
        "switch-points-needs",
        "house_rules.points",
        "house_rules.points: points must include high: every hand has one",
    ),
    (
        "no Low",
        "auction-pitch",
        {"points": ["high", "jack", "game"]},
        "switch-points-needs",
        "house_rules.points",
        None,
    ),
    (
        "a Joker and the big Joker",
        "joker-pitch",
        {"points": ["high", "low", "joker", "big_joker"]},
        "switch-points-clash",
        "house_rules.points",
        "house_rules.points: points cannot have both joker and big_joker",
    ),
    (
        "a Joker and the little Joker",
        "joker-pitch",
        {"points": ["high", "low", "joker", "little_joker"]},
        "switch-points-clash",
        "house_rules.points",
        None,
    ),
    (
        "points worth less than the lowest bid",
        "pitch-six",
        {"points": ["high", "low"]},
        "switch-min-above-max",
        "house_rules.points",
        "house_rules.points: the lowest bid 3 is above the highest bid 2; set min_bid or max_bid",
    ),
    (
        "a max_bid of no number",
        "auction-pitch",
        {"max_bid": "4"},
        "switch-range",
        "house_rules.max_bid",
        None,
    ),
    (
        "a smudge_bid of no number",
        "auction-pitch",
        {"smudge_bid": True},
        "switch-bid",
        "house_rules.smudge_bid",
        "house_rules.smudge_bid: smudge_bid must be a whole number or null, not true",
    ),
    (
        "a win rule of Cinch's",
        "auction-pitch",
        {"win_rule": "first-to-target"},
        "switch-value",
        "house_rules.win_rule",
        'house_rules.win_rule: "first-to-target" is not allowed for win_rule; '
        "allowed: count-out, bidder-only",
    ),
    (
        "pitcher scores something else",
        "auction-pitch",
        {"pitcher_scores": "double"},
        "switch-value",
        "house_rules.pitcher_scores",
        None,
    ),
    (
        "smudge_failed something else",
        "auction-pitch",
        {"smudge_failed": "pays"},
        "switch-value",
        "house_rules.smudge_failed",
        None,
    ),
    (
        "the smudge rule with the smudge bid turned off",
        "auction-pitch",
        {"smudge_bid": None, "smudge": "always"},
        "switch-no-smudge",
        "house_rules.smudge",
        None,
    ),
    (
        "a failed smudge losing without a smudge bid",
        "pitch-six",
        {"smudge_failed": "loses"},
        "switch-smudge-failed",
        "house_rules.smudge_failed",
        'house_rules.smudge_failed: smudge_failed = "loses" needs a smudge bid and a smudge '
        'rule other than "off"',
    ),
    (
        "a failed smudge losing with the smudge off",
        "auction-pitch",
        {"smudge_failed": "loses", "smudge": "off"},
        "switch-smudge-failed",
        "house_rules.smudge_failed",
        None,
    ),
    (
        "a failed smudge losing with four sides",
        "auction-pitch",
        {"smudge_failed": "loses"},
        "switch-smudge-failed-sides",
        "house_rules.smudge_failed",
        'house_rules.smudge_failed: smudge_failed = "loses" needs exactly 2 sides, not 4',
    ),
    (
        # RULES.md section 10: the smudge bid given to Pitch Six wins not-in-hole, so only
        # the count of sides is wrong here (four players alone).
        "a smudge bid given to pitch six losing with four sides",
        "pitch-six",
        {"smudge_bid": 6, "smudge_failed": "loses"},
        "switch-smudge-failed-sides",
        "house_rules.smudge_failed",
        'house_rules.smudge_failed: smudge_failed = "loses" needs exactly 2 sides, not 4',
    ),
    (
        "min_bid in Sell-Out",
        "sell-out",
        {"min_bid": 2},
        "switch-not-for-variant",
        "house_rules.min_bid",
        "house_rules.min_bid: min_bid cannot be changed in Sell-Out, whose scoring is its own",
    ),
]


@pytest.mark.parametrize(
    ("variant", "house_rules", "code", "field", "message"),
    [r[1:] for r in REFUSED],
    ids=[r[0] for r in REFUSED],
)
def test_an_impossible_shape_is_refused_naming_the_switch(
    variant, house_rules, code, field, message
):
    error = refused(variant, house_rules)
    assert (error.code, error.field, error.hand) == (code, field, None)
    if message is not None:
        assert str(error) == message


def test_a_failed_moon_losing_is_allowed_for_two_teams():
    game = Game.create(
        "ten-point", list("ABCD"), teams=NS_EW, house_rules={"smudge_failed": "loses"}
    )
    assert game.house_rules.smudge_failed == "loses"


# --- every bounded switch, one past each end: (variant, switch, lowest, highest or None)
BOUNDS = [
    ("auction-pitch", "target", 1, None),
    ("auction-pitch", "payout_in_hole", 0, None),
    ("auction-pitch", "payout_per_setback", 0, None),
    ("auction-pitch", "min_bid", 1, 4),
    ("ten-point", "min_bid", 1, 10),
    ("auction-pitch", "max_bid", 2, 4),
    ("ten-point", "max_bid", 4, 10),
    ("auction-pitch", "smudge_bid", 2, 4),
    ("ten-point", "smudge_bid", 4, 10),
    ("pitch-six", "smudge_bid", 3, 6),
    ("auction-pitch", "gap", 0, None),
]


@pytest.mark.parametrize(("variant", "switch", "lowest", "highest"), BOUNDS)
def test_each_switch_takes_its_ends_and_refuses_one_past_each(variant, switch, lowest, highest):
    players = ["A", "B", "C", "D"]
    Game.create(variant, players, house_rules={switch: lowest})
    error = refused(variant, {switch: lowest - 1})
    assert error.field.startswith("house_rules.")
    assert switch in str(error)
    if highest is not None:
        Game.create(variant, players, house_rules={switch: highest})
        error = refused(variant, {switch: highest + 1})
        assert error.field.startswith("house_rules.")
        assert switch in str(error) or "highest bid" in str(error)


# --- 10-Point Pitch in partnerships: NS = A and C, EW = B and D


def ten_point(**house_rules: Any) -> Game:
    return Game.create("ten-point", list("ABCD"), teams=NS_EW, house_rules=house_rules)


def test_ten_point_pitch_has_ten_points_a_hand_in_the_rules_order():
    game = ten_point()
    assert game.variant.point_keys == TEN
    assert game.variant.points_in_play == 10
    assert game.variant.point("three").value == 3


def test_a_ten_point_game_played_to_a_moon_win_from_the_hole():
    game = ten_point()
    result = score(
        game,
        "B 5: B C D B A D B D",  # EW take 8 and make 5; NS take 2
        "A 6: A A B - C C B -",  # NS take 4, set back 6 into the hole; EW 4
        "C 4: C C C C C C C C",  # NS make 4 with all ten: 6
        "A 10: A A A A A A A A",  # NS shoot the moon from 6: made, they win at once
    )
    assert [dict(h.scores) for h in result.hands] == [
        {"NS": 2, "EW": 8},
        {"NS": -4, "EW": 12},
        {"NS": 6, "EW": 12},
        {"NS": 16, "EW": 12},
    ]
    assert (result.winner, result.win_reason, result.winning_hand) == ("NS", "smudge", 4)
    assert result.hands[-1].events == ("made", "smudge", "won")


def test_a_made_moon_wins_even_from_the_hole():
    result = score(ten_point(), "A 6: B B B B B B B B", "A 10: A A A A A A A A")
    assert result.scores["NS"] == 4
    assert (result.winner, result.win_reason) == ("NS", "smudge")


def test_a_failed_moon_with_smudge_failed_loses_gives_the_game_to_the_other_side():
    game = ten_point(smudge_failed="loses", min_bid=5)
    result = score(game, "B 5: B B B B B B B B", "A 10: A A A A A A A B")
    assert (result.winner, result.win_reason, result.winning_hand) == ("EW", "smudge-failed", 2)
    assert dict(result.scores) == {"NS": -10, "EW": 11}
    assert dict(result.setbacks) == {"NS": 1, "EW": 0}
    assert result.hands[-1].events == ("set-back", "won")
    assert result.settlement is not None
    assert dict(result.settlement.units) == {"A": -4, "B": 4, "C": -4, "D": 4}
    with pytest.raises(RuleError) as caught:
        score(game, "B 5: B B B B B B B B", "A 10: A A A A A A A B", "B 5: B B B B B B B B")
    assert caught.value.code == "hand-after-win"


def test_a_failed_moon_is_only_a_set_back_without_the_switch():
    result = score(ten_point(), "A 10: A A A A A A A B")
    assert result.winner is None
    assert result.scores["NS"] == -10


def test_the_defenders_pass_52_first_but_only_a_made_bid_goes_out():
    game = ten_point()
    # North-South bid 4 six times and are set back; East-West defend 9 points a hand.
    defended = ["A 4: B B B B B B B A"] * 6
    result = score(game, *defended)
    assert dict(result.scores) == {"NS": -24, "EW": 54}
    assert result.winner is None  # past 52, but a defender does not go out
    result = score(
        game,
        *defended,
        "C 4: C C C C C C C C",  # North-South make a bid: still 54 to go out for East-West
        "D 4: D D D D - - - D",  # East-West win a bid and make it: out
    )
    assert dict(result.scores) == {"NS": -14, "EW": 59}
    assert (result.winner, result.win_reason, result.winning_hand) == ("EW", "bid-out", 8)


def test_a_ten_point_bid_below_the_tables_min_bid_is_refused():
    game = ten_point(min_bid=5)
    with pytest.raises(RuleError) as caught:
        score(game, "A 4: A A A A A A A A")
    assert str(caught.value) == "hand 1: bid 4 is below the minimum of 5 for 10-Point Pitch"


def test_ten_point_seats_three_to_six_players_alone_too():
    assert Game.create("ten-point", ["A", "B", "C"]).sides == ("A", "B", "C")
    error = refused("ten-point", {}, players="A B")
    assert error.code == "seat-count"


# --- counting Game (RULES.md section 10)


def counted(game: Game, text: str, counts: dict[str, int]) -> Any:
    return score_game(game, [played(game, text, counts)])


def game_count_error(game: Game, text: str, counts: dict[str, Any]) -> RuleError:
    with pytest.raises(RuleError) as caught:
        counted(game, text, counts)
    assert_one_line(caught.value)
    return caught.value


def test_counts_that_agree_with_game_score_as_without_them():
    game = ten_point()
    text = "B 5: B C D B A D B D"
    with_counts = counted(game, text, {"A": 12, "B": 9, "C": 4, "D": 30})
    assert with_counts.scores == score(game, text).scores


def test_a_shared_highest_count_needs_game_credited_to_nobody():
    game = Game.create("auction-pitch", list("ABC"))
    assert counted(game, "A 2: A A - -", {"A": 20, "B": 20, "C": 10}).winner is None
    assert counted(game, "A 2: A A - -", {"A": 0, "B": 0, "C": 0}).winner is None


# (id, hand, counts, code, field, message): four players, NS = A, C and EW = B, D
GAME_COUNT_REFUSALS = [
    (
        "game credited against the counts",
        "B 4: B C D B A D B B",
        {"A": 14, "B": 9, "C": 12, "D": 11},
        "game-count-disagrees",
        "points.game",
        "hand 1: game is credited to B, but NS counted 26 to EW's 20",
    ),
    (
        "game credited on a tie",
        "B 4: B C D B A D B B",
        {"A": 10, "B": 10, "C": 10, "D": 10},
        "game-count-tied",
        "points.game",
        "hand 1: game is credited to B, but the highest count, 20, is shared, "
        "so Game goes to nobody",
    ),
    (
        "game to nobody with a leader",
        "B 4: B C D B A D B -",
        {"A": 14, "B": 9, "C": 12, "D": 11},
        "game-count-nobody",
        "points.game",
        "hand 1: game is credited to nobody, but NS counted 26 to EW's 20",
    ),
    (
        "a player missing",
        "B 4: B C D B A D B -",
        {"A": 14, "B": 9, "C": 12},
        "game-count-missing",
        "game_count.D",
        'hand 1: the game count of D is missing; "game_count" lists every player',
    ),
    (
        "a player not seated",
        "B 4: B C D B A D B -",
        {"A": 14, "B": 9, "C": 12, "D": 1, "Zed": 3},
        "game-count-unknown",
        "game_count",
        'hand 1: game_count names "Zed", who is not seated in the game',
    ),
    (
        "a negative count",
        "B 4: B C D B A D B -",
        {"A": 14, "B": -1, "C": 12, "D": 1},
        "game-count-value",
        "game_count.B",
        "hand 1: the game count of B must be a whole number of at least 0, not -1",
    ),
    (
        "more than a pack holds",
        "B 4: B C D B A D B A",
        {"A": 41, "B": 10, "C": 20, "D": 10},
        "game-count-total",
        "game_count",
        "hand 1: the game counts add up to 81; a pack holds only 80",
    ),
]


@pytest.mark.parametrize(
    ("text", "counts", "code", "field", "message"),
    [r[1:] for r in GAME_COUNT_REFUSALS],
    ids=[r[0] for r in GAME_COUNT_REFUSALS],
)
def test_a_game_count_that_breaks_a_rule_is_refused_naming_the_hand(
    text, counts, code, field, message
):
    error = game_count_error(ten_point(), text, counts)
    assert (error.code, error.field, error.hand) == (code, field, 1)
    assert str(error) == message


def test_a_count_of_exactly_eighty_is_a_whole_pack():
    assert counted(ten_point(), "B 4: B C D B A D B A", {"A": 40, "B": 10, "C": 20, "D": 10})


@pytest.mark.parametrize(
    ("variant", "house_rules"),
    [("pedro", {}), ("cinch", {}), ("auction-pitch", {"points": ["high", "low", "jack"]})],
)
def test_a_game_count_is_refused_where_game_is_not_the_game_count(variant, house_rules):
    teams = NS_EW if variant == "cinch" else None
    game = Game.create(variant, list("ABCD"), teams=teams, house_rules=house_rules)
    names = " ".join("A" for _ in game.variant.point_keys)
    error = game_count_error(
        game, f"A {game.variant.max_bid}: {names}", {"A": 1, "B": 0, "C": 0, "D": 0}
    )
    assert error.code == "game-count-not-allowed"
    assert error.field == "game_count"


# --- the record (GAME-RECORD.md): game_count and the shape switches round-trip


def ten_point_record(**hand: Any) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "variant": "ten-point",
        "house_rules": {"min_bid": 5, "smudge_failed": "loses", "points": list(TEN)},
        "players": list("ABCD"),
        "teams": NS_EW,
        "hands": [
            {
                "pitcher": "B",
                "bid": 5,
                "points": dict(zip(TEN, ["B", "C", "D", "B", "A", "D", "B", "D"], strict=True)),
                **hand,
            }
        ],
    }


def test_a_record_with_game_counts_and_shape_switches_exports_as_it_came_in():
    data = ten_point_record(game_count={"A": 12, "B": 9, "C": 4, "D": 30})
    record = parse_record(data)
    assert record.hands[0].game_count == {"A": 12, "B": 9, "C": 4, "D": 30}
    assert record_to_json(record.game, record.hands) == data


@pytest.mark.parametrize(
    ("game_count", "message"),
    [
        ([1, 2], "hand 1: game_count: must be an object of player → count, not a list"),
        ({"A": "12"}, "hand 1: game_count.A: must be a whole number, not a string"),
        ({"A": 1.5}, "hand 1: game_count.A: must be a whole number, not a number"),
        ({"A": True}, "hand 1: game_count.A: must be a whole number, not true/false"),
    ],
)
def test_a_game_count_of_the_wrong_shape_is_refused_in_the_record(game_count, message):
    with pytest.raises(RuleError) as caught:
        parse_record(ten_point_record(game_count=game_count))
    assert str(caught.value) == message


def test_a_passed_hand_has_no_game_count():
    data = ten_point_record()
    data["house_rules"] = {}
    data["hands"] = [{"passed": True, "game_count": {"A": 1}}]
    with pytest.raises(RuleError) as caught:
        parse_record(data)
    assert caught.value.code == "passed-extra"


def test_game_by_count_credits_the_top_sides_best_counter_or_nobody_on_a_tie():
    from scorekeeper.rules import counts_by_side, game_by_count

    game = ten_point()
    counts = {"A": 14, "B": 9, "C": 12, "D": 11}
    assert counts_by_side(game, counts) == {"NS": 26, "EW": 20}
    assert game_by_count(game, counts) == "A"
    assert game_by_count(game, {"A": 6, "B": 10, "C": 10, "D": 6}) is None
    assert game_by_count(game, dict.fromkeys("ABCD", 0)) is None
    # Partners who counted the same: the first seat of the side.
    assert game_by_count(game, {"A": 0, "B": 10, "C": 0, "D": 10}) == "B"
    # Whatever it credits, the engine accepts it.
    for counts in ({"A": 1, "B": 2, "C": 3, "D": 4}, {"A": 40, "B": 0, "C": 0, "D": 40}):
        taker = game_by_count(game, counts)
        names = ["A"] * 7 + [taker or "-"]
        assert counted(game, "A 4: " + " ".join(names), counts)
