"""RULES.md section 11.2: the eight ready-made rule sets, their shapes and worked games.

Each set's shape is typed in from the rules' table (and 11.2's note: with ``points``
changed the highest bid is the points' total, and the moon follows it where the preset has
one). Each game row lists the running scores after every hand, then the winner, how and
when, and the settlement units, with the arithmetic in the comments. The engine is never
asked for an expected value.
"""

from __future__ import annotations

from typing import Any

import pytest
from rules_helpers import (
    NS_EW,
    POINT_ORDER,
    assert_worked_game,
    play_rule_set,
    scores,
    worked_games,
)

from scorekeeper.rules import RULE_SETS, VARIANTS, Game, RuleError, find_rule_set

# key: (name, preset, switches as RULES.md 11.2 gives them)
TABLE: dict[str, tuple[str, str, dict[str, Any]]] = {
    "seven-point": (
        "7-Point Pitch",
        "ten-point",
        {"points": list(POINT_ORDER["seven-point"]), "min_bid": 3, "target": 21},
    ),
    "nine-point": (
        "9-Point Pitch (Catch Five)",
        "auction-pitch",
        {
            "points": list(POINT_ORDER["nine-point"]),
            "min_bid": 3,
            "smudge_bid": None,
            "target": 31,
        },
    ),
    "eleven-point": (
        "11-Point Pitch",
        "ten-point",
        {"points": list(POINT_ORDER["eleven-point"]), "min_bid": 5},
    ),
    "thirteen-point": (
        "13-Point Pitch",
        "ten-point",
        {"points": list(POINT_ORDER["thirteen-point"]), "min_bid": 5},
    ),
    "ten-point-with-ten": (
        "10-Point Pitch with the Ten",
        "ten-point",
        {"points": list(POINT_ORDER["ten-point-with-ten"])},
    ),
    "smear": (
        "5-Point Smear",
        "auction-pitch",
        {
            "points": list(POINT_ORDER["smear"]),
            "smudge_bid": None,
            "all_pass": "dealer-set",
            "target": 11,
        },
    ),
    "sancho-pedro": (
        "Sancho Pedro",
        "pedro",
        {"points": list(POINT_ORDER["sancho-pedro"]), "target": 50},
    ),
    "dom-pedro": (
        "Dom Pedro",
        "pedro",
        {"points": list(POINT_ORDER["dom-pedro"]), "target": 50},
    ),
}

# key: (bids, the smudge or moon bid in force, target, all pass), worked out from the table:
# the highest bid is the points' total (the Three and the Off-Three 3, the Pedro 5, the
# Nine 9, every other 1); the moon is at that total in the sets built on 10-Point Pitch.
SHAPES = {
    "seven-point": ((3, 7), 7, 21, "dealer-takes"),
    "nine-point": ((3, 9), None, 31, "dealer-takes"),
    "eleven-point": ((5, 11), 11, 52, "dealer-takes"),
    "thirteen-point": ((5, 13), 13, 52, "dealer-takes"),
    "ten-point-with-ten": ((4, 10), 10, 52, "dealer-takes"),
    "smear": ((2, 5), None, 11, "dealer-set"),
    "sancho-pedro": ((1, 18), None, 50, "dealer-takes"),
    "dom-pedro": ((1, 21), None, 50, "dealer-takes"),
}


def test_there_are_exactly_the_eight_rule_sets_of_the_table_in_its_order():
    assert list(RULE_SETS) == list(TABLE)


@pytest.mark.parametrize("key", TABLE)
def test_a_rule_set_is_its_preset_with_exactly_the_switches_of_the_table(key):
    name, preset, switches = TABLE[key]
    rule_set = find_rule_set(key)
    assert (rule_set.key, rule_set.name, rule_set.variant) == (key, name, preset)
    assert rule_set.house_rules() == switches
    assert rule_set.summary and "\n" not in rule_set.summary
    assert rule_set.preset is VARIANTS[preset]


@pytest.mark.parametrize("key", TABLE)
def test_each_rule_set_builds_a_valid_game_of_its_shape(key):
    bids, smudge_bid, target, all_pass = SHAPES[key]
    players = ["A", "B", "C", "D"]
    game = find_rule_set(key).create(players)
    assert game.variant.key == TABLE[key][1]
    assert game.variant.point_keys == POINT_ORDER[key]
    assert (game.variant.min_bid, game.variant.max_bid) == bids
    assert game.variant.smudge_in_force(game.house_rules) == smudge_bid
    assert (game.house_rules.target, game.house_rules.all_pass) == (target, all_pass)
    # The record keeps the preset and the switches, as any table's own rules.
    assert dict(game.house_rules_given) == TABLE[key][2]
    same = Game.create(TABLE[key][1], players, house_rules=TABLE[key][2])
    assert game == same


def test_a_table_may_change_a_switch_of_a_rule_set_further():
    game = find_rule_set("smear").create(
        ["A", "B", "C"], house_rules={"target": 15, "payout_per_setback": 1}
    )
    assert (game.house_rules.target, game.house_rules.payout_per_setback) == (15, 1)
    assert game.house_rules.all_pass == "dealer-set"


def test_a_rule_sets_switches_cannot_be_changed_by_changing_what_it_gave():
    given = find_rule_set("dom-pedro").house_rules()
    given["points"].append("ten")
    given["target"] = 1
    assert find_rule_set("dom-pedro").house_rules() == TABLE["dom-pedro"][2]


def test_an_unknown_rule_set_key_is_a_value_error_naming_it():
    with pytest.raises(ValueError, match="unsupported rule set: 'twelve-point'"):
        find_rule_set("twelve-point")


def test_a_rule_set_with_a_change_that_breaks_a_rule_is_refused_as_any_game():
    with pytest.raises(RuleError) as caught:
        find_rule_set("seven-point").create(list("ABCD"), house_rules={"min_bid": 8})
    assert (caught.value.code, caught.value.field) == (
        "switch-min-above-max",
        "house_rules.min_bid",
    )


# (id, rule set, players, teams, hands with the running scores after each,
#  winner, win_reason, winning_hand, settlement units)
GAMES = [
    (
        # High, Low, Jack, Off-Jack, Big Joker, Little Joker, Ten. NS = A, C; EW = B, D.
        # 1: EW bid 4, take High, Low, Off-Jack, Big Joker, Ten (5); NS Jack, Little Joker.
        # 2: NS bid 5 and take all 7. 3: EW bid 3 and take 6 (the Ten not dealt).
        # 4: NS bid 7, the moon, and make it: they win at once, 16 to 11.
        "7-point pitch won by shooting the moon at seven",
        "seven-point",
        "A B C D",
        NS_EW,
        [
            ("B 4: B D A B D C B", "NS=2 EW=5"),
            ("C 5: C A C A C C A", "NS=9 EW=5"),
            ("B 3: B B B B B B -", "NS=9 EW=11"),
            ("A 7: A C A C A C A", "NS=16 EW=11"),
        ],
        "NS",
        "smudge",
        4,
        # EW at 11 pay 1 unit each to A and C.
        "A=2 B=-2 C=2 D=-2",
    ),
    (
        # High, Low, Jack, Pedro (5), Game; bids 3 to 9, to 31, no smudge.
        # 1: A bids 5 and takes 8 (all but Game, C's). 2: A bids all 9 and takes them: 17, no
        # smudge. 3: B makes 3 with Low, Jack, Pedro (7); A High, Game: 19. 4: A makes 6 with
        # 8; C the Jack. 5: C makes 3 with 7; A High, Game: 29. 6: B bids 4 and takes High,
        # Jack: set back to 3; A counts out on Low (30) and the Pedro (35) before C's Game.
        "9-point pitch won on the count-out by the pedro",
        "nine-point",
        "A B C",
        None,
        [
            ("A 5: A A A A C", "A=8 B=0 C=1"),
            ("A 9: A A A A A", "A=17 B=0 C=1"),
            ("B 3: A B B B A", "A=19 B=7 C=1"),
            ("A 6: A A C A A", "A=27 B=7 C=2"),
            ("C 3: A C C C A", "A=29 B=7 C=9"),
            ("B 4: B A B A C", "A=35 B=3 C=10"),
        ],
        "A",
        "count-out",
        6,
        "A=2 B=-1 C=-1",
    ),
    (
        # High, Low, Jack, Off-Jack, Big Joker, Little Joker, Ten, Three (3), Off-Ace.
        # 1: EW bid 5 and take 9; NS the Jokers. 2: NS bid 6 and take 9 (the Off-Jack and the
        # Ten not dealt). 3: EW bid 11, the moon, and take 10 (the Off-Ace not dealt): set
        # back to -2. 4: NS shoot the moon and make it: they win at once.
        "11-point pitch won by the moon after a failed one",
        "eleven-point",
        "A B C D",
        NS_EW,
        [
            ("B 5: B D B D A C B B D", "NS=2 EW=9"),
            ("C 6: C C A - A C - C A", "NS=11 EW=9"),
            ("D 11: D B D B D B D B -", "NS=11 EW=-2"),
            ("A 11: A C A C A C A C A", "NS=22 EW=-2"),
        ],
        "NS",
        "smudge",
        4,
        # EW in the hole pay 2 units each to A and C.
        "A=4 B=-4 C=4 D=-4",
    ),
    (
        # High, Low, Jack, Off-Jack, Big Joker, Little Joker, Ten, Three (3), Off-Three (3).
        # 1: B bids 5 and takes High, Low, Off-Jack, Ten, Three (7); C the Jack, the Little
        # Joker and the Off-Three (5); A the Big Joker. 2: C shoots the moon at 13 and wins.
        "13-point pitch won by shooting the moon at thirteen",
        "thirteen-point",
        "A B C",
        None,
        [
            ("B 5: B B C B A C B B C", "A=1 B=7 C=5"),
            ("C 13: C C C C C C C C C", "A=1 B=7 C=18"),
        ],
        "C",
        "smudge",
        2,
        "A=-1 B=-1 C=2",
    ),
    (
        # High, Low, Jack, Off-Jack, Big Joker, Little Joker, Three (3), Ten.
        # 1: EW bid 4 and take all 10. 2: NS bid 10 and take 9 (the Ten not dealt): set back.
        # 3: EW shoot the moon and make it, 20 to -10.
        "10-point pitch with the ten won by the moon",
        "ten-point-with-ten",
        "A B C D",
        NS_EW,
        [
            ("B 4: B B D D B D B B", "NS=0 EW=10"),
            ("C 10: C A C A C A C -", "NS=-10 EW=10"),
            ("D 10: D B D B D B D B", "NS=-10 EW=20"),
        ],
        "EW",
        "smudge",
        3,
        "A=-4 B=4 C=-4 D=4",
    ),
    (
        # High, Low, Jack, Off-Jack, Game; bids 2 to 5, to 11; dealers A, B, C, A, B, C.
        # 1: all pass: the dealer A is set back 2. 2: C bids 5 and takes all 5: no smudge.
        # 3: A bids 3 and takes 2: set back to -5; B Jack, C Game. 4: all pass: A -7.
        # 5: C makes 4 (10); B Game. 6: B makes 2 with Low, Jack, Off-Jack; C counts out on
        # High (11) and takes Game too: 12.
        "5-point smear won on the count-out after the dealer was set",
        "smear",
        "A B C",
        None,
        [
            ("pass", "A=-2 B=0 C=0"),
            ("C 5: C C C C C", "A=-2 B=0 C=5"),
            ("A 3: A A B - C", "A=-5 B=1 C=6"),
            ("pass", "A=-7 B=1 C=6"),
            ("C 4: C C C C B", "A=-7 B=2 C=10"),
            ("B 2: C B B B C", "A=-7 B=5 C=12"),
        ],
        "C",
        "count-out",
        6,
        # A in the hole pays 2 units, B (5) 1.
        "A=-2 B=-1 C=3",
    ),
    (
        # High, Low, Jack, Game (the ten), Pedro (5), Nine (9): 18 points, to 50.
        # 1: A bids all 18 and takes them. 2: B makes 9 with 13; A the Pedro: 23.
        # 3: A bids 14 and takes 18: 41. 4: C bids 6 and takes High, Low: set back to -6;
        # A counts out on Jack (42), Game (43), then B's Pedro, then A's Nine: 52.
        "sancho pedro won on the count-out by the nine",
        "sancho-pedro",
        "A B C",
        None,
        [
            ("A 18: A A A A A A", "A=18 B=0 C=0"),
            ("B 9: B B B B A B", "A=23 B=13 C=0"),
            ("A 14: A A A A A A", "A=41 B=13 C=0"),
            ("C 6: C C A A B A", "A=52 B=18 C=-6"),
        ],
        "A",
        "count-out",
        4,
        # B (18) pays 1 unit, C in the hole 2.
        "A=3 B=-1 C=-2",
    ),
    (
        # High, Low, Jack, Game (the ten), Pedro (5), Nine (9), Three (3): 21 points, to 50.
        # 1: A bids all 21 and takes them. 2: B makes 12 with 12; A the Nine: 30.
        # 3: A makes 15 with 16; B the Pedro: 17. 4: B makes 3 with Low, Jack and the Nine
        # (11): 28; A counts out on High (47), Game (48) and the Pedro (53), and has the
        # Three as well: 56.
        "dom pedro won on the count-out by the pedro",
        "dom-pedro",
        "A B",
        None,
        [
            ("A 21: A A A A A A A", "A=21 B=0"),
            ("B 12: B B B B B A B", "A=30 B=12"),
            ("A 15: A A A A B A A", "A=46 B=17"),
            ("B 3: A B B A A B A", "A=56 B=28"),
        ],
        "A",
        "count-out",
        4,
        "A=1 B=-1",
    ),
]


@worked_games(GAMES)
def test_a_worked_game_of_a_rule_set_ends_as_the_rules_say(game):
    key, players, teams, rows, winner, reason, winning_hand, settled = game
    result = play_rule_set(key, players, [text for text, _ in rows], teams=teams)
    assert_worked_game(result, rows, winner, reason, winning_hand, settled)


def test_every_rule_set_has_a_worked_game():
    assert sorted({g[1] for g in GAMES}) == sorted(RULE_SETS)


def test_the_smear_game_sets_the_dealer_back_and_counts_it():
    result = play_rule_set(
        "smear", "A B C", ["pass", "C 5: C C C C C", "A 3: A A B - C", "pass"], stake="0.5"
    )
    assert [h.dealer for h in result.hands] == ["A", "B", "C", "A"]
    assert [[e.value for e in h.events] for h in result.hands] == [
        ["passed", "set-back"],
        ["made"],
        ["set-back"],
        ["passed", "set-back"],
    ]
    assert dict(result.setbacks) == scores("A=3 B=0 C=0")
