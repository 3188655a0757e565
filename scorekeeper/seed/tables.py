"""What a made-up club looks like: its names and places, and how often a table picks each
variant, target, bid and stake."""

from __future__ import annotations

from typing import Any

FIRST_NAMES = (
    "Ann",
    "Bob",
    "Cy",
    "Dee",
    "Earl",
    "Fay",
    "Gus",
    "Hal",
    "Ida",
    "Jo",
    "Kit",
    "Lou",
    "Mae",
    "Ned",
    "Opal",
    "Pete",
    "Queenie",
    "Ray",
    "Sue",
    "Tex",
    "Una",
    "Vern",
    "Wes",
    "Xena",
    "Yul",
    "Zed",
    "Abe",
    "Bea",
    "Cal",
    "Dot",
    "Eli",
    "Flo",
    "Gil",
    "Hank",
    "Iris",
    "Jeb",
    "Kay",
    "Lyle",
    "Mo",
    "Nell",
    "Otis",
    "Pearl",
    "Roy",
    "Sal",
    "Tess",
    "Vi",
    "Walt",
    "Zora",
)
PLACES = (
    "Ann's kitchen",
    "the Legion hall",
    "the fire station",
    "Gus's porch",
    "the VFW",
    "Grange No. 7",
    "Mae's camp",
    None,
)
NIGHT_NAMES = ("Friday pitch", "Card night", "Pitch night", "Saturday setback", "League night")
#: Variants as often as a table plays them, with the targets tables choose.
VARIANT_WEIGHTS = {
    "auction-pitch": 40,
    "joker-pitch": 12,
    "racehorse-pitch": 6,
    "sell-out": 8,
    "pitch-six": 10,
    "pedro": 12,
    "cinch": 12,
    "ten-point": 10,
}
TARGETS = {
    "auction-pitch": (11, 15, 21, 21, 31, 31),
    "joker-pitch": (21, 31),
    "racehorse-pitch": (21,),
    "sell-out": (21,),
    "pitch-six": (21, 31),
    "pedro": (62,),
    "cinch": (51, 62, 62),
    "ten-point": (52,),
}
#: "Pitch, but...": how often a table of a variant plays its own shape (RULES.md section 10),
#: and which (a failed moon loses only where there are two sides).
OWN_SHAPES: dict[str, tuple[float, dict[str, Any]]] = {
    "ten-point": (0.3, {"min_bid": 5, "smudge_failed": "loses"}),
    "auction-pitch": (0.1, {"points": ["high", "low", "jack", "off_jack", "game"]}),
}
#: Bids as a table makes them: low bids often, the top bid rarely.
BID_WEIGHTS = {
    "auction-pitch": {2: 50, 3: 33, 4: 17},
    "racehorse-pitch": {2: 50, 3: 33, 4: 17},
    "joker-pitch": {2: 35, 3: 32, 4: 22, 5: 11},
    "sell-out": {1: 10, 2: 45, 3: 30, 4: 15},
    "pitch-six": {3: 40, 4: 32, 5: 18, 6: 10},
    "pedro": {1: 2, 2: 3, 3: 5, 4: 8, 5: 22, 6: 25, 7: 20, 8: 10, 9: 5},
    "cinch": {6: 10, 7: 25, 8: 25, 9: 15, 10: 10, 11: 6, 12: 4, 13: 3, 14: 2},
    "ten-point": {4: 30, 5: 28, 6: 20, 7: 12, 8: 6, 9: 3, 10: 1},
}
STAKES = (None, None, "0.25", "0.25", "0.10", "0.5", "1", "0.05", "0.125", "0.333")
NOBODY_CHANCE = {
    "jack": 0.25,
    "game": 0.08,
    "joker": 0.3,
    "six": 0.3,
    "pedro": 0.1,
    "right_pedro": 0.05,
    "left_pedro": 0.05,
    "off_jack": 0.25,
    "big_joker": 0.3,
    "little_joker": 0.3,
    "three": 0.25,
}
