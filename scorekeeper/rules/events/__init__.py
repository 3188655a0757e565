"""Tournaments and league nights: seating, standings, a season's table and the prize money.

Pure functions over frozen values, standard library only, no I/O: players and teams are
opaque ``int`` ids, and anything random takes an explicit seed. The modules:

- ``seating``: progressive movement (``progressive``), round robins with rotating partners
  and how even they are (``rotating``), fixed teams, a round robin then a knockout
  (``teams``), tables each for themselves (``individual``); the values in ``tables``.
- ``standings``: the standings from the games, by stated tie-breaks, and in words.
- ``league``: a season's table from its events' standings.
- ``prizes``: the pool, its split by place, and who pays whom.
"""

from .errors import MESSAGES, EventError
from .league import EventLine, LeagueBy, LeaguePoints, SeasonRow, event_points, season_table
from .prizes import Payout, Prize, PrizeSplit, payouts, prize_pool, split_prizes
from .seating import (
    Bracket,
    KnockoutMatch,
    Match,
    Player,
    Results,
    Round,
    Seat,
    Spread,
    Table,
    Team,
    TeamRound,
    bracket_order,
    cutthroat_ranking,
    individual_sizes,
    individual_tables,
    knockout,
    knockout_result,
    progressive_first,
    progressive_next,
    round_robin,
    round_robin_max_rounds,
    round_robin_next,
    spread,
    table_sizes,
    team_round_robin,
)
from .standings import (
    DEFAULT_ORDER,
    POINTS_FIRST_ORDER,
    TIE_BREAK_WORDS,
    Ending,
    GameScore,
    Standing,
    TieBreak,
    bye_score,
    describe,
    ending_of,
    game_scores,
    standings,
)

__all__ = [
    "DEFAULT_ORDER",
    "MESSAGES",
    "POINTS_FIRST_ORDER",
    "TIE_BREAK_WORDS",
    "Bracket",
    "Ending",
    "EventError",
    "EventLine",
    "GameScore",
    "KnockoutMatch",
    "LeagueBy",
    "LeaguePoints",
    "Match",
    "Payout",
    "Player",
    "Prize",
    "PrizeSplit",
    "Results",
    "Round",
    "SeasonRow",
    "Seat",
    "Spread",
    "Standing",
    "Table",
    "Team",
    "TeamRound",
    "TieBreak",
    "bracket_order",
    "bye_score",
    "cutthroat_ranking",
    "describe",
    "ending_of",
    "event_points",
    "game_scores",
    "individual_sizes",
    "individual_tables",
    "knockout",
    "knockout_result",
    "payouts",
    "prize_pool",
    "progressive_first",
    "progressive_next",
    "round_robin",
    "round_robin_max_rounds",
    "round_robin_next",
    "season_table",
    "split_prizes",
    "spread",
    "standings",
    "table_sizes",
    "team_round_robin",
]
