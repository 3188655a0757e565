"""Per-variant tables of hands and games, every expected score worked out by hand from RULES.md.

Each hand row is one hand from a fresh game (so its delta is its score) with the
arithmetic in the comment. Each game row lists the running scores after every hand,
then the winner, how and when. The engine is never asked for an expected value.
"""

from __future__ import annotations

import pytest
from rules_helpers import NS_EW, check_worked_game, play, scores, worked_games

# Who sits at each table. A deals hand 1, so in Sell-Out B is the seller.
TABLES = {
    "auction-pitch": ("auction-pitch", "A B C", None),
    "joker-pitch": ("joker-pitch", "A B C", None),
    "racehorse-pitch": ("racehorse-pitch", "A B C D E", None),
    "sell-out": ("sell-out", "A B C", None),
    "pitch-six": ("pitch-six", "A B C", None),
    "pedro": ("pedro", "A B C", None),
    "cinch": ("cinch", "A B C D", NS_EW),
    "cinch of six": ("cinch", "A B C D E F", {"Odd": ["A", "C", "E"], "Even": ["B", "D", "F"]}),
}

# (table, hand, expected delta by side, events, taken by side or None when it equals delta)
HANDS = [
    # --- Auction Pitch: high, low, jack, game; bids 2-4; smudge 4.
    ("auction-pitch", "B 2: B B C A", "A=1 B=2 C=1", "made", None),
    # B took High and Game = 2 < 3: set back 3; A has Low.
    ("auction-pitch", "B 3: B A - B", "A=1 B=-3 C=0", "set-back", "A=1 B=2 C=0"),
    ("auction-pitch", "C 4: C C C C", "A=0 B=0 C=4", "made smudge won", None),
    # Game tied: nobody; A makes 2 exactly.
    ("auction-pitch", "A 2: A A B -", "A=2 B=1 C=0", "made", None),
    ("auction-pitch", "A 3: A A A B", "A=3 B=1 C=0", "made", None),
    # A bid of 2 that takes all four scores all four, and is no smudge.
    ("auction-pitch", "A 2: A A A A", "A=4 B=0 C=0", "made", None),
    # Jack not dealt: 3 points cannot make a bid of 4.
    ("auction-pitch", "C 4: C C C -", "A=0 B=0 C=-4", "set-back", "A=0 B=0 C=3"),
    ("auction-pitch", "A 2: B B A A", "A=2 B=2 C=0", "made", None),
    # --- Joker Pitch: high, low, jack, joker, game; bids 2-5; smudge 5.
    ("joker-pitch", "A 3: A B A A C", "A=3 B=1 C=1", "made", None),
    ("joker-pitch", "A 5: A A A A A", "A=5 B=0 C=0", "made smudge won", None),
    ("joker-pitch", "A 4: A A A - A", "A=4 B=0 C=0", "made", None),
    ("joker-pitch", "B 4: B B A C -", "A=1 B=-4 C=1", "set-back", "A=1 B=2 C=1"),
    # Without the Joker dealt, 4 points cannot make the smudge bid of 5.
    ("joker-pitch", "A 5: A A A - A", "A=-5 B=0 C=0", "set-back", "A=4 B=0 C=0"),
    ("joker-pitch", "C 2: A C C B B", "A=1 B=2 C=2", "made", None),
    # --- Racehorse Pitch: as Auction Pitch, up to 5 seats.
    ("racehorse-pitch", "E 2: E E - D", "A=0 B=0 C=0 D=1 E=2", "made", None),
    ("racehorse-pitch", "D 4: D D D D", "A=0 B=0 C=0 D=4 E=0", "made smudge won", None),
    ("racehorse-pitch", "A 3: B C D E", "A=-3 B=1 C=1 D=1 E=1", "set-back", "A=0 B=1 C=1 D=1 E=1"),
    ("racehorse-pitch", "B 2: B B B C", "A=0 B=3 C=1 D=0 E=0", "made", None),
    # --- Sell-Out: B sells. Sale points are in delta, not in taken.
    # Sold to C at 2: C makes 2; A Jack; B Game + the 2 it sold for = 3.
    ("sell-out", "sold C 2: C C A B", "A=1 B=3 C=2", "sold made", "A=1 B=1 C=2"),
    # Kept by B at A's 3: B makes 3, A scores its bid of 3, C has Game.
    ("sell-out", "kept B 3 A: B B B C", "A=3 B=3 C=1", "kept made", "A=0 B=3 C=1"),
    ("sell-out", "pitched B 4: B B A C", "A=1 B=-4 C=1", "pitched set-back", "A=1 B=2 C=1"),
    # A pitched hand of 4 made is no smudge in Sell-Out.
    ("sell-out", "pitched B 4: B B B B", "A=0 B=4 C=0", "pitched made", None),
    # Sold to C at 3, C takes only High: set back 3; A 2; B 1 + 3 sold = 4.
    ("sell-out", "sold C 3: C A A B", "A=2 B=4 C=-3", "sold set-back", "A=2 B=1 C=1"),
    ("sell-out", "sold A 1: A B - -", "A=1 B=2 C=0", "sold made", "A=1 B=1 C=0"),
    # --- Pitch Six: high, low, jack, six, last_trick, game; the pitcher scores the bid.
    # A took 4 for a bid of 3: scores exactly 3.
    ("pitch-six", "A 3: A A A B A C", "A=3 B=1 C=1", "made", "A=4 B=1 C=1"),
    ("pitch-six", "A 6: A A A A A A", "A=6 B=0 C=0", "made", None),
    ("pitch-six", "A 4: A B A - A C", "A=-4 B=1 C=1", "set-back", "A=3 B=1 C=1"),
    ("pitch-six", "B 5: B B B B B B", "A=0 B=5 C=0", "made", "A=0 B=6 C=0"),
    ("pitch-six", "C 3: C C C A B B", "A=1 B=2 C=3", "made", None),
    # --- Pedro: high, low, jack, game (ten), pedro (5); bids 1-9.
    # A: High 1 + Jack 1 + Pedro 5 = 7 for a bid of 6.
    ("pedro", "A 6: A B A C A", "A=7 B=1 C=1", "made", None),
    # A: 3 for a bid of 7; C's Pedro is worth 5.
    ("pedro", "A 7: A A B A C", "A=-7 B=1 C=5", "set-back", "A=3 B=1 C=5"),
    ("pedro", "A 9: A A A A A", "A=9 B=0 C=0", "made", None),
    ("pedro", "B 1: B A - - -", "A=1 B=1 C=0", "made", None),
    ("pedro", "C 5: C C - - C", "A=0 B=0 C=7", "made", None),
    ("pedro", "B 5: A B B B -", "A=1 B=-5 C=0", "set-back", "A=1 B=3 C=0"),
    # --- Cinch: NS = A, C; EW = B, D. A deals.
    # Rule book: bid 6, bidders (EW) take 6, opponents 8: opponents score 2.
    ("cinch", "B 6: B A C A D C", "NS=2 EW=0", "made", "NS=8 EW=6"),
    # Rule book: bid 8, 7-7: opponents score 14 + (8 - 7) = 15. Not a set-back.
    ("cinch", "C 8: A C B D A B", "NS=0 EW=15", "", "NS=7 EW=7"),
    # NS bid 7 and take 9 (H L J G + right 5) to EW's 5: NS score 4.
    ("cinch", "A 7: A A C C A B", "NS=4 EW=0", "made", "NS=9 EW=5"),
    # Made on a tie, 7-7: nobody scores.
    ("cinch", "D 7: A C B D A B", "NS=0 EW=0", "made", "NS=7 EW=7"),
    # Bid 14, take 13: EW score 14 + 1 = 15.
    ("cinch", "A 14: A B C C A C", "NS=0 EW=15", "", "NS=13 EW=1"),
    # The dealer names trump for 0 and takes only High: EW score 13 - 1 = 12.
    ("cinch", "A 0: A B B B B D", "NS=0 EW=12", "made", "NS=1 EW=13"),
    # Jack, ten and left five not in play: credited to nobody. NS 7 - 0.
    ("cinch", "A 5: A C - - A -", "NS=7 EW=0", "made", "NS=7 EW=0"),
    # EW bid 5 and take nothing: NS score 14 + (5 - 0) = 19.
    ("cinch", "B 5: A C A C A C", "NS=19 EW=0", "", "NS=14 EW=0"),
    # The dealer's partner names trump for 0: NS 2 against EW 1.
    ("cinch", "C 0: C C D - - -", "NS=1 EW=0", "made", "NS=2 EW=1"),
    # Six players, 2 teams of 3; E is the dealer A's partner: Odd 6 against Even 2.
    ("cinch of six", "E 0: B E F - A -", "Odd=4 Even=0", "made", "Odd=6 Even=2"),
]


@pytest.mark.parametrize(
    ("table", "text", "delta", "events", "taken"),
    HANDS,
    ids=[f"{row[0]}: {row[1]}" for row in HANDS],
)
def test_a_worked_hand_scores_what_the_rules_say(table, text, delta, events, taken):
    variant, players, teams = TABLES[table]
    result = play(variant, players, [text], teams=teams)
    scored = result.hands[0]
    assert dict(scored.delta) == scores(delta)
    assert dict(scored.scores) == scores(delta)
    assert [e.value for e in scored.events] == events.split()
    assert dict(scored.taken) == scores(taken or delta)


# (id, variant, players, setup, hands with the running scores after each,
#  winner, win_reason, winning_hand, settlement units)
GAMES = [
    (
        # B 3 made; C 2 made (A has Low, Game); A 4 set back with 3; B 3 makes 7 first.
        "auction pitch won by the pitcher making the bid",
        "auction-pitch",
        "A B C",
        {},
        [
            ("B 3: B B C B", "A=0 B=3 C=1"),
            ("C 2: C A C A", "A=2 B=3 C=3"),
            ("A 4: A A B A", "A=-2 B=4 C=3"),
            ("B 3: B B B C", "A=-2 B=7 C=4"),
        ],
        "B",
        "bid-out",
        4,
        # A is in the hole: 2 units; C has 4: 1 unit.
        "A=-2 B=3 C=-1",
    ),
    (
        # Hand 4: A makes 2 (6, short of 7); B counts out on Low, before Game.
        "auction pitch won on the count-out",
        "auction-pitch",
        "A B C",
        {},
        [
            ("A 2: A A B C", "A=2 B=1 C=1"),
            ("B 3: B B B A", "A=3 B=4 C=1"),
            ("C 2: A C B B", "A=4 B=6 C=-1"),
            ("A 2: A B A B", "A=6 B=8 C=-1"),
        ],
        "B",
        "count-out",
        4,
        "A=-1 B=3 C=-2",
    ),
    (
        "joker pitch won by a smudge of five",
        "joker-pitch",
        "A B C",
        {},
        [
            ("A 3: A A A B A", "A=4 B=1 C=0"),
            ("B 2: B C B B C", "A=4 B=4 C=2"),
            ("C 4: C C C C A", "A=5 B=4 C=6"),
            ("A 5: A A A A A", "A=10 B=4 C=6"),
        ],
        "A",
        "smudge",
        4,
        "A=2 B=-1 C=-1",
    ),
    (
        # Hand 4: B makes 2 (9); A counts 8 -> 9 on High, 10 on the Joker, before Game.
        "joker pitch won on the count-out by the joker",
        "joker-pitch",
        "A B",
        {},
        [
            ("A 2: A A B B A", "A=3 B=2"),
            ("B 3: B B B A B", "A=4 B=6"),
            ("A 3: A A A A B", "A=8 B=7"),
            ("B 2: A B B A A", "A=11 B=9"),
        ],
        "A",
        "count-out",
        4,
        "A=1 B=-1",
    ),
    (
        "racehorse pitch with five players won by a smudge",
        "racehorse-pitch",
        "A B C D E",
        {},
        [
            ("A 2: A B A C", "A=2 B=1 C=1 D=0 E=0"),
            ("B 4: B B B B", "A=2 B=5 C=1 D=0 E=0"),
        ],
        # A 2 and C 1 pay 1 each; D and E at 0 pay 2 each.
        "B",
        "smudge",
        2,
        "A=-1 B=6 C=-1 D=-2 E=-2",
    ),
    (
        # A smudges from the hole (-3 -> 1) and plays on; B smudges from 3 and wins.
        "racehorse pitch smudge from the hole then a winning smudge",
        "racehorse-pitch",
        "A B",
        {},
        [
            ("A 3: B A B B", "A=-3 B=3"),
            ("A 4: A A A A", "A=1 B=3"),
            ("B 4: B B B B", "A=1 B=7"),
        ],
        "B",
        "smudge",
        3,
        "A=-1 B=1",
    ),
    (
        # Sellers: B, C, A, B. Hand 4: B sold at 2 (6), C set back; B counts out on Low
        # before A (6) could on Jack.
        "sell-out won on the count-out with the sale points in first",
        "sell-out",
        "A B C",
        {},
        [
            ("pitched B 4: B B B B", "A=0 B=4 C=0"),
            ("sold A 3: A A A C", "A=3 B=4 C=4"),
            ("sold C 1: C A A -", "A=6 B=4 C=5"),
            ("sold C 2: C B A A", "A=8 B=7 C=3"),
        ],
        "B",
        "count-out",
        4,
        "A=-1 B=2 C=-1",
    ),
    (
        # Dealers A, B, B (passed, redealt), C, D; sellers B, C, C, D, A.
        "sell-out with a kept hand and a redeal won by the buyer",
        "sell-out",
        "A B C D",
        {},
        [
            ("kept B 2 C: B C B D", "A=0 B=2 C=3 D=1"),
            ("pass", "A=0 B=2 C=3 D=1"),
            ("sold D 3: D D D A", "A=1 B=2 C=6 D=4"),
            ("pitched D 4: D D D B", "A=1 B=3 C=6 D=0"),
            ("sold C 1: C A A A", "A=5 B=3 C=7 D=0"),
        ],
        "C",
        "bid-out",
        5,
        "A=-1 B=-1 C=4 D=-2",
    ),
    (
        # Hand 3 puts defender A at 13, past 12, but only a made bid wins; A's bid does.
        "pitch six won by making a bid after passing the target",
        "pitch-six",
        "A B C",
        {},
        [
            ("A 6: A A A A A A", "A=6 B=0 C=0"),
            ("B 3: B B B A A A", "A=9 B=3 C=0"),
            ("C 3: A A A A C C", "A=13 B=3 C=-3"),
            ("A 3: A A A B B B", "A=16 B=6 C=-3"),
        ],
        "A",
        "bid-out",
        4,
        "A=3 B=-1 C=-2",
    ),
    (
        # Hand 4: B makes 3 (-3); defender A reaches 14 and leads by 17 and 20.
        "pitch six won by the gap rule",
        "pitch-six",
        "A B C",
        {},
        [
            ("A 6: A A A A A A", "A=6 B=0 C=0"),
            ("B 6: A B B B B B", "A=7 B=-6 C=0"),
            ("C 6: A A A A C C", "A=11 B=-6 C=-6"),
            ("B 3: A B B B A A", "A=14 B=-3 C=-6"),
        ],
        "A",
        "gap",
        4,
        "A=4 B=-2 C=-2",
    ),
    (
        # Hand 4: A set back (1); B counts 15 -> 16 on Low, C takes Game, B 21 on the Pedro.
        "pedro won on the count-out by the pedro",
        "pedro",
        "A B C",
        {},
        [
            ("A 5: A A B B A", "A=7 B=2 C=0"),
            ("B 6: B C B B B", "A=7 B=10 C=1"),
            ("C 9: C C A C B", "A=8 B=15 C=-8"),
            ("A 7: A B A C B", "A=1 B=21 C=-7"),
        ],
        "B",
        "count-out",
        4,
        "A=-1 B=3 C=-2",
    ),
    (
        # EW +4; NS +14; EW fail 9 with 7: NS +16; NS make 11 with 13 to 1: +12;
        # passed (deal moves left); the dealer's partner D names trump for 0, NS 12 to 2.
        "cinch won by the first side to reach 51",
        "cinch",
        "A B C D",
        {"teams": NS_EW},
        [
            ("B 7: B D B D B A", "NS=0 EW=4"),
            ("C 10: A C C A C A", "NS=14 EW=4"),
            ("D 9: D B A C D A", "NS=30 EW=4"),
            ("A 11: A A C D C A", "NS=42 EW=4"),
            ("pass", "NS=42 EW=4"),
            ("D 0: D B A C A C", "NS=52 EW=4"),
        ],
        "NS",
        "first-to-target",
        6,
        "A=2 B=-2 C=2 D=-2",
    ),
]


@worked_games(GAMES)
def test_a_worked_game_ends_as_the_rules_say(game):
    check_worked_game(*game)


def test_the_worked_sell_out_game_passes_the_deal_and_the_sale_as_written():
    # The second Sell-Out game above: the passed hand is redealt by the same dealer.
    result = play(
        "sell-out",
        "A B C D",
        [
            "kept B 2 C: B C B D",
            "pass",
            "sold D 3: D D D A",
            "pitched D 4: D D D B",
            "sold C 1: C A A A",
        ],
    )
    assert [h.dealer for h in result.hands] == ["A", "B", "B", "C", "D"]
    assert [h.seller for h in result.hands] == ["B", "C", "C", "D", "A"]
    assert dict(result.setbacks) == scores("A=0 B=0 C=0 D=1")


def test_the_worked_cinch_game_never_counts_a_set_back():
    result = play(
        "cinch",
        "A B C D",
        ["B 7: B D B D B A", "C 10: A C C A C A", "D 9: D B A C D A"],
        teams=NS_EW,
    )
    assert [h.dealer for h in result.hands] == ["A", "B", "C"]
    assert [[e.value for e in h.events] for h in result.hands] == [["made"], ["made"], []]
    assert dict(result.setbacks) == {"NS": 0, "EW": 0}
