"""Tables of games for RULES.md section 11 and the smudge mode of section 10, every expected
value worked out by hand from the rules.

The shape is tests/rules/test_rules_variant_tables.py's: each game row lists the running
scores after every hand, then the winner, how and when, and the settlement units; the
arithmetic is in the comments. The engine is never asked for an expected value.
"""

from __future__ import annotations

from typing import Any

import pytest
from rules_helpers import NS_EW, check_worked_game, play, scores, worked_games

# (id, variant, players, setup, hands with the running scores after each,
#  winner, win_reason, winning_hand, settlement units)
GAMES: list[tuple[Any, ...]] = [
    (
        # RULES.md section 10: a smudge bid given to Pedro, which has none, wins not from the
        # hole, so smudge_failed: loses is allowed with two sides. Pedro's points: High, Low,
        # Jack, Game (the ten), Pedro (5), 9 in all.
        # 1: A bids 5, takes High, Low and the Pedro = 7: A 7; B Jack, Game = 2.
        # 2: B bids the smudge, 9, and takes 4: set back (2 - 9 = -7); A takes the Pedro
        #    (7 + 5 = 12) and wins at once on B's failed smudge.
        "a smudge bid given to pedro fails and loses the game",
        "pedro",
        "A B",
        {"house_rules": {"smudge_bid": 9, "smudge_failed": "loses"}},
        [
            ("A 5: A A B B A", "A=7 B=2"),
            ("B 9: B B B B A", "A=12 B=-7"),
        ],
        "A",
        "smudge-failed",
        2,
        # B ends in the hole: 2 units.
        "A=2 B=-2",
    ),
    (
        # Pitch Six in two teams (NS = A, C; EW = B, D) with a smudge bid of 6 given.
        # 1: EW bid 3 and take High, Low, Jack = 3: EW score the bid, 3; NS take the Six, the
        #    last trick and Game: 3.
        # 2: NS bid the smudge, 6, and take 5 (Game tied, nobody): set back, 3 - 6 = -3, and
        #    EW win at once, with nothing taken.
        "a smudge bid given to pitch six fails and loses the game for two teams",
        "pitch-six",
        "A B C D",
        {"teams": NS_EW, "house_rules": {"smudge_bid": 6, "smudge_failed": "loses"}},
        [
            ("B 3: B D B A A C", "NS=3 EW=3"),
            ("A 6: A A C C A -", "NS=-3 EW=3"),
        ],
        "EW",
        "smudge-failed",
        2,
        # A and C (NS at -3, in the hole) each pay B and D 2 units.
        "A=-4 B=4 C=-4 D=4",
    ),
    (
        # The same smudge bid made from 0 wins at once (not in the hole before the hand).
        "a smudge bid given to pitch six made from zero wins",
        "pitch-six",
        "A B C D",
        {"teams": NS_EW, "house_rules": {"smudge_bid": 6, "smudge_failed": "loses"}},
        [("C 6: A C A C A C", "NS=6 EW=0")],
        "NS",
        "smudge",
        1,
        # EW at 0 pay the in-the-hole rate: B and D each pay A and C 2 units.
        "A=4 B=-4 C=4 D=-4",
    ),
    (
        # RULES.md 11.3, all_pass: dealer-set, to 5, a unit more per set-back. Dealers A, B,
        # C, A: the deal passes left after a passed hand.
        # 1: all pass; the dealer A is set back by the lowest bid, 2: A -2.
        # 2: B makes 2 (High, Low); C has the Jack, A Game: A -1, B 2, C 1.
        # 3: all pass; the dealer C is set back 2: C -1.
        # 4: B makes 3 (High, Low, Jack) and goes out at 5; C has Game: 0.
        "auction pitch with the dealer set back when all pass",
        "auction-pitch",
        "A B C",
        {"house_rules": {"all_pass": "dealer-set", "target": 5, "payout_per_setback": 1}},
        [
            ("pass", "A=-2 B=0 C=0"),
            ("B 2: B B C A", "A=-1 B=2 C=1"),
            ("pass", "A=-1 B=2 C=-1"),
            ("B 3: B B B C", "A=-1 B=5 C=0"),
        ],
        "B",
        "bid-out",
        4,
        # A (-1) and C (0) are in the hole: 2 units, and 1 more each for its set-back.
        "A=-3 B=6 C=-3",
    ),
    (
        # GAME-RECORD.md, a hand's own dealer, in Auction Pitch (same-dealer redeals).
        # Usual dealers A, B, A, B, C, D; D deals hand 2 and C hand 4 out of turn, and each
        # next usual dealer is the one left of who really dealt.
        # 1 (A): B makes 2, C Low, A Game. 2 (D for B): C makes 3, B Game.
        # 3 (A): A makes 2 (High, Low), D the Jack. 4 (C for B): passed, C deals again.
        # 5 (C): C makes 2, B Jack and Game: B 5, C 6. 6 (D): D smudges from 1 and wins.
        "auction pitch with hands dealt out of turn",
        "auction-pitch",
        "A B C D",
        {"house_rules": {"all_pass": "redeal-same-dealer"}},
        [
            ("B 2: B B C A", "A=1 B=2 C=1 D=0"),
            ("[D] C 3: C C C B", "A=1 B=3 C=4 D=0"),
            ("A 2: A A D -", "A=3 B=3 C=4 D=1"),
            ("[C] pass", "A=3 B=3 C=4 D=1"),
            ("C 2: C C B B", "A=3 B=5 C=6 D=1"),
            ("D 4: D D D D", "A=3 B=5 C=6 D=5"),
        ],
        "D",
        "smudge",
        6,
        "A=-1 B=-1 C=-1 D=3",
    ),
    (
        # Sell-Out: the seller is left of who really dealt. Usual dealers A, B, B, A.
        # 1 (A, B sells): sold to C at 2, C makes it (High, Low); A Game; B scores the 2.
        # 2 (A again, out of turn: B sells): B pitches 4 and takes 3: set back; C Game.
        # 3 (C for B: A sells): A keeps at B's 3 and makes it; B scores the 3, and Game.
        # 4 (A, left of C; B sells): sold to A at 4 (B 2 + 4 is short of 7): B 6; A makes
        #    4 and goes out at 8.
        "sell-out with hands dealt out of turn",
        "sell-out",
        "A B C",
        {},
        [
            ("sold C 2: C C - A", "A=1 B=2 C=2"),
            ("[A] pitched B 4: B B B C", "A=1 B=-2 C=3"),
            ("[C] kept A 3 B: A A A B", "A=4 B=2 C=3"),
            ("sold A 4: A A A A", "A=8 B=6 C=3"),
        ],
        "A",
        "bid-out",
        4,
        "A=2 B=-1 C=-1",
    ),
    (
        # RULES.md 11.4, hands: 3 with the target 7 as usual; a passed hand does not count.
        # 1 (A): A makes 2 (High, Low); B Jack, C Game. 2: passed out (redeal, B deals).
        # 3 (C): C makes 2 with High, Jack and Game, 3; B Low. 4 (A): B makes 2; A takes
        #    Jack and Game. That is the third hand played: 4, 4, 4 share the top, so the
        #    game goes on. 5 (B): A bids 3 and takes 2: set back to 1; C's 2 make 6, alone at
        #    the top: C wins on the most points.
        "auction pitch to three hands whose shared top plays on",
        "auction-pitch",
        "A B C",
        {"house_rules": {"hands": 3, "all_pass": "redeal-next-dealer"}},
        [
            ("A 2: A A B C", "A=2 B=1 C=1"),
            ("pass", "A=2 B=1 C=1"),
            ("C 2: C B C C", "A=2 B=2 C=4"),
            ("B 2: B B A A", "A=4 B=4 C=4"),
            ("A 3: A A C C", "A=1 B=4 C=6"),
        ],
        "C",
        "most-points",
        5,
        # A (1) and B (4) are out of the hole: 1 unit each.
        "A=-1 B=-1 C=2",
    ),
    (
        # hands: 2. After hand 2 A and B share the top at 4; in the hand played on, B makes
        # 3 and reaches the target 7: B goes out by section 3, not on the most points.
        "a shared top after the last hand then a side goes out as usual",
        "auction-pitch",
        "A B C",
        {"house_rules": {"hands": 2}},
        [
            ("A 3: A A A B", "A=3 B=1 C=0"),
            ("B 3: B B B A", "A=4 B=4 C=0"),
            ("B 3: B B B A", "A=5 B=7 C=0"),
        ],
        "B",
        "bid-out",
        3,
        # A (5) pays 1 unit, C (0) 2.
        "A=-1 B=3 C=-2",
    ),
    (
        # hands: 3, target: null. The made 4 of hand 1 is no smudge (a game without a target
        # has none), and A's 9 after hand 3 is past 7, but only the count of hands ends it:
        # A alone at the top after the third hand.
        "auction pitch without a target to three hands",
        "auction-pitch",
        "A B",
        {"house_rules": {"hands": 3, "target": None}},
        [
            ("A 4: A A A A", "A=4 B=0"),
            ("B 2: B B A -", "A=5 B=2"),
            ("A 4: A A A A", "A=9 B=2"),
        ],
        "A",
        "most-points",
        3,
        "A=1 B=-1",
    ),
    (
        # Sell-Out, hands: 2, target: null: no limit on the sale without a target.
        # 1 (A deals, B sells): sold to C at 4; C makes 4, B scores the 4.
        # 2 (B deals, C sells): C keeps at B's 4 (with a target of 7 both limits would forbid
        #    it) and makes 4; B scores the 4: 8 and 8 share the top, so the game goes on.
        # 3 (C deals, A sells): A pitches 4 and takes 3: set back to -4; B's Game makes 9.
        "sell-out without a target whose shared top plays on",
        "sell-out",
        "A B C",
        {"house_rules": {"hands": 2, "target": None}},
        [
            ("sold C 4: C C C C", "A=0 B=4 C=4"),
            ("kept C 4 B: C C C C", "A=0 B=8 C=8"),
            ("pitched A 4: A A A B", "A=-4 B=9 C=8"),
        ],
        "B",
        "most-points",
        3,
        # A in the hole pays 2 units, C 1.
        "A=-2 B=3 C=-1",
    ),
    (
        # Time called after 2 hands of a game to 4 hands: the smaller applies.
        # 1: A makes 2 with High, Low and Game (3); B Jack and Joker.
        # 2: B makes 3 with four points; A's Game makes 4: B alone at the top, 6.
        "joker pitch with time called before its last hand",
        "joker-pitch",
        "A B",
        {"called": 2, "house_rules": {"hands": 4}},
        [
            ("A 2: A A B B A", "A=3 B=2"),
            ("B 3: B B B B A", "A=4 B=6"),
        ],
        "B",
        "most-points",
        2,
        "A=-1 B=1",
    ),
    (
        # Time called after hand 1, with the top shared after it and again after hand 2;
        # in hand 3 A makes 3 and reaches the target 7: A goes out as usual.
        "auction pitch with time called on a shared top",
        "auction-pitch",
        "A B",
        {"called": 1},
        [
            ("A 2: A A B B", "A=2 B=2"),
            ("B 2: B B A A", "A=4 B=4"),
            ("A 3: A A A B", "A=7 B=5"),
        ],
        "A",
        "bid-out",
        3,
        "A=1 B=-1",
    ),
    (
        # hands: 1 with the dealer set when all pass. After hand 1 A and B share 2; the
        # passed hand 2 sets the dealer B back to 0, but no side wins on a passed hand; hand
        # 3 leaves A alone at the top, 3 to 2.
        "a dealer-set pass after the last hand wins nobody the game",
        "auction-pitch",
        "A B",
        {"house_rules": {"hands": 1, "all_pass": "dealer-set"}},
        [
            ("A 2: A A B B", "A=2 B=2"),
            ("pass", "A=2 B=0"),
            ("B 2: B B A -", "A=3 B=2"),
        ],
        "A",
        "most-points",
        3,
        "A=1 B=-1",
    ),
]


@worked_games(GAMES)
def test_a_worked_game_ends_as_the_rules_say(game):
    check_worked_game(*game)


def test_a_dealer_set_pass_is_a_set_back_of_the_dealers_side_and_the_deal_moves_on():
    result = play(
        "auction-pitch",
        "A B C",
        ["pass", "B 2: B B C A", "pass", "B 3: B B B C"],
        house_rules={"all_pass": "dealer-set", "target": 5, "payout_per_setback": 1},
    )
    assert [h.dealer for h in result.hands] == ["A", "B", "C", "A"]
    assert [[e.value for e in h.events] for h in result.hands[:3]] == [
        ["passed", "set-back"],
        ["made"],
        ["passed", "set-back"],
    ]
    assert [h.set_back_by for h in result.hands] == [2, None, 2, None]
    assert [dict(h.delta) for h in (result.hands[0], result.hands[2])] == [
        scores("A=-2 B=0 C=0"),
        scores("A=0 B=0 C=-2"),
    ]
    assert dict(result.setbacks) == scores("A=1 B=0 C=1")


def test_a_dealer_set_pass_sets_back_the_dealers_team_by_the_tables_lowest_bid():
    # B deals for East-West; the lowest bid is 3: EW -3, then C deals.
    result = play(
        "auction-pitch",
        "A B C D",
        ["pass"],
        teams=NS_EW,
        first_dealer="B",
        house_rules={"all_pass": "dealer-set", "min_bid": 3},
    )
    assert dict(result.scores) == {"NS": 0, "EW": -3}
    assert dict(result.setbacks) == {"NS": 0, "EW": 1}
    assert result.next_dealer == "C"
    assert result.winner is None


def test_no_side_wins_on_a_dealer_set_pass():
    # 1: B makes 3, C has Game. 2: C bids 2 with Jack alone: set back, -1; B has High, Low.
    # 3: all pass, and the dealer C is set back 2 more; nobody wins, A deals next.
    result = play(
        "auction-pitch",
        "A B C",
        ["B 3: B B B C", "C 2: B B C -", "pass"],
        house_rules={"all_pass": "dealer-set"},
    )
    assert [dict(h.scores) for h in result.hands] == [
        scores("A=0 B=3 C=1"),
        scores("A=0 B=5 C=-1"),
        scores("A=0 B=5 C=-3"),
    ]
    assert (result.winner, result.next_dealer) == (None, "A")


@pytest.mark.parametrize(
    ("variant", "texts", "setup", "dealers", "usual", "sellers"),
    [
        (
            "auction-pitch",
            [
                "B 2: B B C A",
                "[D] C 3: C C C B",
                "A 2: A A D -",
                "[C] pass",
                "C 2: C C B B",
                "D 4: D D D D",
            ],
            {"house_rules": {"all_pass": "redeal-same-dealer"}},
            "A D A C C D",
            "A B A B C D",
            None,
        ),
        (
            "sell-out",
            [
                "sold C 2: C C - A",
                "[A] pitched B 4: B B B C",
                "[C] kept A 3 B: A A A B",
                "sold A 4: A A A A",
            ],
            {},
            "A A C A",
            "A B B A",
            "B B A B",
        ),
    ],
    ids=["auction-pitch", "sell-out"],
)
def test_who_really_dealt_moves_the_deal_and_the_seller(
    variant, texts, setup, dealers, usual, sellers
):
    players = "A B C D" if variant == "auction-pitch" else "A B C"
    result = play(variant, players, texts, **setup)
    assert [h.dealer for h in result.hands] == dealers.split()
    assert [h.usual_dealer for h in result.hands] == usual.split()
    assert [h.out_of_turn for h in result.hands] == [
        d != u for d, u in zip(dealers.split(), usual.split(), strict=True)
    ]
    if sellers is not None:
        assert [h.seller for h in result.hands] == sellers.split()


def test_a_dealer_set_pass_sets_back_whoever_really_dealt():
    # A is due to deal, but C deals and all pass: C is set back 2, and D deals next.
    result = play("auction-pitch", "A B C D", ["[C] pass"], house_rules={"all_pass": "dealer-set"})
    assert dict(result.scores) == scores("A=0 B=0 C=-2 D=0")
    assert dict(result.setbacks) == scores("A=0 B=0 C=1 D=0")
    assert result.next_dealer == "D"


def test_in_cinch_the_bid_of_zero_belongs_to_who_really_dealt():
    # A is due to deal, but B deals, so B (East-West) may name trump for 0. EW take High,
    # Low, Jack and Game (4), NS the Right Pedro (5): the bid is made, and NS, who took
    # more, score the difference, 1. C deals next, left of B.
    result = play("cinch", "A B C D", ["[B] B 0: B D B D A -"], teams=NS_EW)
    assert dict(result.hands[0].delta) == {"NS": 1, "EW": 0}
    assert result.next_dealer == "C"


def test_the_hand_that_reached_the_last_hand_is_known_when_the_top_is_shared():
    # hands: 2, with a passed hand before the second played one: the limit is reached with
    # hand 3, where A (2 + High) and B (1 + Low and Game) share 3, so the game is not over;
    # B deals hand 2 again after the pass, then hand 3, and C deals next.
    result = play(
        "auction-pitch",
        "A B C",
        ["A 2: A A B -", "pass", "B 2: A B - B"],
        house_rules={"hands": 2, "all_pass": "redeal-same-dealer"},
    )
    assert dict(result.scores) == scores("A=3 B=3 C=0")
    assert (result.finished, result.limit_hand, result.next_dealer) == (False, 3, "C")


def test_a_game_without_a_target_shows_no_smudge_and_wins_only_on_the_last_hand():
    result = play(
        "auction-pitch",
        "A B",
        ["A 4: A A A A", "B 2: B B A -", "A 4: A A A A"],
        house_rules={"hands": 3, "target": None},
    )
    assert [[e.value for e in h.events] for h in result.hands] == [
        ["made"],
        ["made"],
        ["made", "won"],
    ]
    assert result.limit_hand == 3
