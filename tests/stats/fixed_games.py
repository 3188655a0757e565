"""A small fixed set of games (variants, partnerships) and their statistics worked out by hand.

Every number in EXPECTED was computed on paper from the hands below (the
comments show the sums); the tests check the app's figures against them.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from builders import ap_hand as ap
from builders import cinch_hand as cinch
from builders import record

__all__ = [
    "ALL",
    "EXPECTED",
    "FINISHED",
    "GAME_A",
    "GAME_B",
    "GAME_C",
    "GAME_D",
    "GAME_E",
    "NIGHT_MONEY",
    "NIGHT_PAYMENTS",
    "NIGHT_UNITS",
    "ap",
    "cinch",
    "record",
]


# A: Auction Pitch, three players, a quarter a unit.
#  1. Bob 3 takes H L G = 3: made, Bob 3, Ann 1 (Jack).
#  2. Cy 2 takes nothing: set back to -2 (into the hole); Ann +2 (H G), Bob +1 (L).
#  3. Ann 4 takes all four from 3: a smudge, not from the hole: Ann wins with 7.
#  Bob (4) pays 1 unit, Cy (-2) pays 2: Ann +3 units = +0.75, Bob -0.25, Cy -0.50.
GAME_A = record(
    "auction-pitch",
    ["Ann", "Bob", "Cy"],
    [
        ap("Bob", 3, "Bob", "Bob", "Ann", "Bob"),
        ap("Cy", 2, "Ann", "Bob", None, "Ann"),
        ap("Ann", 4, "Ann", "Ann", "Ann", "Ann"),
    ],
    stake="0.25",
)

# B: Auction Pitch in partnerships (the spec's example), a unit is 1.
#  1. Bob 2: Them take H L (2), made; Us take J G: Us 2, Them 2.
#  2. Cy 3: Us take H L (2) < 3: set back, Us -1 (into the hole); Them 4.
#  3. Dee 3: Them take H L J (3), made: 7, out. Us 0.
#  Us at 0 pays 2 units a loser to each winner: Ann and Cy -4, Bob and Dee +4.
GAME_B = record(
    "auction-pitch",
    ["Ann", "Bob", "Cy", "Dee"],
    [
        ap("Bob", 2, "Bob", "Dee", "Ann", "Cy"),
        ap("Cy", 3, "Ann", "Cy", "Bob", "Dee"),
        ap("Dee", 3, "Dee", "Bob", "Dee", "Ann"),
    ],
    teams={"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]},
    stake="1",
)

# C: Cinch, Reds (Ann, Cy) against Blues (Bob, Dee), to 20, no stake.
#  1. Ann 7: Reds 1+1+1+5 = 8, Blues 1+5 = 6: made, Reds score 2.
#  2. Bob 9: Blues 1+1+5 = 7 < 9: failed (not a set-back): Reds score 14 + 2 = 16 -> 18.
#  3. Cy 6: Reds 8, Blues 6: made, Reds +2 = 20: first to the target.
#  Blues at 0 pay the in-the-hole 2 units each to each winner: Ann, Cy +4; Bob, Dee -4.
GAME_C = record(
    "cinch",
    ["Ann", "Bob", "Cy", "Dee"],
    [
        cinch("Ann", 7, "Ann", "Cy", "Bob", "Ann", "Cy", "Bob"),
        cinch("Bob", 9, "Bob", "Ann", "Dee", "Cy", "Bob", "Ann"),
        cinch("Cy", 6, "Cy", "Cy", "Cy", "Dee", "Ann", "Dee"),
    ],
    teams={"Reds": ["Ann", "Cy"], "Blues": ["Bob", "Dee"]},
    house_rules={"target": 20},
)

# D: Sell-Out, three players, an odd stake of 0.333 a unit. Ann deals first, so Bob sells.
#  1. Bob sells to Dee at 2 (Bob scores 2); Dee takes H L: made, Dee 2; Ann 1 (Jack).
#  2. Dee (seller) keeps at Ann's 3 (Ann scores 3); Dee takes L only: set back, Dee -1
#     (into the hole); Bob +2 (H G): Ann 4, Bob 4.
#  3. Ann (seller) pitches 4 and takes all four: 8, out.
#  Bob (4) pays 1 unit = 0.333 -> 0.33; Dee (-1) pays 2 units = 0.666 -> 0.67; Ann +1.00.
GAME_D = record(
    "sell-out",
    ["Ann", "Bob", "Dee"],
    [
        {**ap("Dee", 2, "Dee", "Dee", "Ann", None), "sale": "sold"},
        {**ap("Dee", 3, "Bob", "Dee", None, "Bob"), "sale": "kept", "high_bidder": "Ann"},
        {**ap("Ann", 4, "Ann", "Ann", "Ann", "Ann"), "sale": "pitched"},
    ],
    stake="0.333",
)

# E: Auction Pitch still being played: Bob 2 takes H L and makes it (Bob 2, Cy 1).
GAME_E = record("auction-pitch", ["Bob", "Cy"], [ap("Bob", 2, "Bob", "Bob", "Cy", None)])

FINISHED = (GAME_A, GAME_B, GAME_C, GAME_D)
ALL = (*FINISHED, GAME_E)

#: Per player over all five games. entered = games sat at; games = finished ones.
EXPECTED: dict[str, dict[str, Any]] = {
    "Ann": {  # A B C D
        "entered": 4,
        "games": 4,
        "won": 3,  # A, C, D
        "bids": 3,
        "bids_made": 3,
        "bid_total": 15,  # A 4, C 7, D 4
        "set_backs": 0,
        "smudges_attempted": 1,
        "smudges_made": 1,
        "holes": 1,  # B, with Cy
        "units": 6,  # +3 -4 +4 +3
        "money": Decimal("-2.25"),  # +0.75 -4.00 +1.00
    },
    "Bob": {  # A B C D E
        "entered": 5,
        "games": 4,
        "won": 1,  # B
        "bids": 4,
        "bids_made": 3,
        "bid_total": 16,  # A 3, B 2, C 9 (failed), E 2
        "set_backs": 0,
        "smudges_attempted": 0,
        "smudges_made": 0,
        "holes": 0,
        "units": -2,  # -1 +4 -4 -1
        "money": Decimal("3.42"),  # -0.25 +4.00 -0.33
    },
    "Cy": {  # A B C E
        "entered": 4,
        "games": 3,
        "won": 1,  # C
        "bids": 3,
        "bids_made": 1,
        "bid_total": 11,  # A 2, B 3, C 6
        "set_backs": 2,
        "smudges_attempted": 0,
        "smudges_made": 0,
        "holes": 2,  # A, B
        "units": -2,  # -2 -4 +4
        "money": Decimal("-4.50"),  # -0.50 -4.00
    },
    "Dee": {  # B C D
        "entered": 3,
        "games": 3,
        "won": 1,  # B
        "bids": 3,
        "bids_made": 2,
        "bid_total": 8,  # B 3, D 2 and 3
        "set_backs": 1,
        "smudges_attempted": 0,
        "smudges_made": 0,
        "holes": 1,  # D
        "units": -2,  # +4 -4 -2
        "money": Decimal("3.33"),  # +4.00 -0.67
    },
}

#: The night of games A to E: money balances, and the greedy payments worked by hand.
#  Debtors Cy 4.50, Ann 2.25; creditors Bob 3.42, Dee 3.33.
#  Cy (largest debt) pays Bob (largest credit) 3.42, leaving Cy 1.08;
#  Ann pays Dee 2.25, leaving Dee 1.08; Cy pays Dee 1.08 (an exact match).
NIGHT_MONEY = {
    "Ann": Decimal("-2.25"),
    "Bob": Decimal("3.42"),
    "Cy": Decimal("-4.50"),
    "Dee": Decimal("3.33"),
}
NIGHT_UNITS = {"Ann": 6, "Bob": -2, "Cy": -2, "Dee": -2}
NIGHT_PAYMENTS = [
    ("Cy", "Bob", Decimal("3.42")),
    ("Ann", "Dee", Decimal("2.25")),
    ("Cy", "Dee", Decimal("1.08")),
]
