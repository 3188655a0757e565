"""The scoring engine for Auction Pitch and its family: standard library only.

Declare a game with ``Game.create``, record ``Hand`` values, and ``score_game``
replays them into a ``GameResult``. Every broken rule is a ``RuleError`` with a
one-line message, a stable code and its parameters.
"""

from .errors import MESSAGES, Phrase, RuleError
from .game import (
    HANDS_MAX,
    NAME_MAX,
    NOTE_MAX,
    PITCHED_BID,
    Game,
    Hand,
    Sale,
    check_hand_count,
    in_the_hole,
)
from .record import (
    FORMAT,
    MAX_WHOLE,
    PAYOUT_MAX,
    STAKE_MAX_LENGTH,
    GameRecord,
    dumps,
    loads_record,
    output_document,
    parse_record,
    record_to_json,
)
from .scoring import (
    GAME_COUNT_CARDS,
    Event,
    GameResult,
    HandResult,
    WinReason,
    counts_by_side,
    game_by_count,
    score_game,
)
from .settlement import Payment, Settlement, money, settle
from .variants import (
    POINTS,
    VARIANTS,
    AllPass,
    HouseRules,
    LowTo,
    Point,
    Smudge,
    Variant,
    WinRule,
    find_variant,
)

__all__ = [
    "FORMAT",
    "GAME_COUNT_CARDS",
    "HANDS_MAX",
    "MAX_WHOLE",
    "MESSAGES",
    "NAME_MAX",
    "NOTE_MAX",
    "PAYOUT_MAX",
    "PITCHED_BID",
    "POINTS",
    "STAKE_MAX_LENGTH",
    "VARIANTS",
    "AllPass",
    "Event",
    "Game",
    "GameRecord",
    "GameResult",
    "Hand",
    "HandResult",
    "HouseRules",
    "LowTo",
    "Payment",
    "Phrase",
    "Point",
    "RuleError",
    "Sale",
    "Settlement",
    "Smudge",
    "Variant",
    "WinReason",
    "WinRule",
    "check_hand_count",
    "counts_by_side",
    "dumps",
    "find_variant",
    "game_by_count",
    "in_the_hole",
    "loads_record",
    "money",
    "output_document",
    "parse_record",
    "record_to_json",
    "score_game",
    "settle",
]
