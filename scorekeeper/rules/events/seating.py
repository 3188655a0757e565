"""Who sits where in an event's next round: four formats, each a pure function of its input
(this module gathers them; each lives in a module of its own).

Players (and teams) are opaque ids, ``int``s (a page passes its rows' ids). Tables are
numbered from 1, and **table 1 is the head table**; seats are numbered from 0
clockwise. At a partnership table the partners sit opposite: seats 0 and 2 against
seats 1 and 3. Anything random takes an explicit ``seed``: the same input and seed give
the same seating on every machine.

1. **Progressive** (``progressive_first``, ``progressive_next``): after each round the
   winners at every table move up one table (towards table 1), the losers stay, and the
   head table's losers go to the last table; the head table's winners stay. Partners
   switch at every table except the head table, whose two partnerships stay as they were.
   A count that is not a multiple of 4 is seated at tables of each for themselves at the
   foot of the room (``table_sizes``): one table of 5 for 4k+1 players, two of 5 for
   4k+2, one of 3 for 4k+3. Such a table plays cutthroat (no partners): its two best
   players move up, as a partnership table's two winners do (at the head table, its two
   worst go to the last table), so every table keeps its size.
2. **Round robin with rotating partners** (``round_robin``, ``round_robin_next``,
   ``spread``): nobody partners anyone twice; opponents as even as the rounds allow; when
   the count is not a multiple of 4, the remainder sit out a round each in turn (byes,
   scored as standings.py says); when players come or go, the next round is drawn for
   those present, still with new partners only.
3. **Fixed teams** (``team_round_robin``, ``knockout``, ``knockout_result``): a round robin
   by the circle method (a bye for an odd count), then a knockout of the top 2^k, each match
   the best of N games.
4. **Individual tables** (``individual_tables``): 2 to 4 each for themselves per table,
   seated so that who meets whom is spread over the rounds.
"""

from .individual import PER_TABLE, individual_sizes, individual_tables
from .progressive import MOVERS, cutthroat_ranking, progressive_first, progressive_next, table_sizes
from .rotating import (
    WHIST_BASES,
    Spread,
    round_robin,
    round_robin_max_rounds,
    round_robin_next,
    spread,
)
from .tables import Player, Results, Round, Seat, Table, Team
from .teams import (
    Bracket,
    KnockoutMatch,
    Match,
    TeamRound,
    bracket_order,
    knockout,
    knockout_result,
    team_round_robin,
)

__all__ = [
    "MOVERS",
    "PER_TABLE",
    "WHIST_BASES",
    "Bracket",
    "KnockoutMatch",
    "Match",
    "Player",
    "Results",
    "Round",
    "Seat",
    "Spread",
    "Table",
    "Team",
    "TeamRound",
    "bracket_order",
    "cutthroat_ranking",
    "individual_sizes",
    "individual_tables",
    "knockout",
    "knockout_result",
    "progressive_first",
    "progressive_next",
    "round_robin",
    "round_robin_max_rounds",
    "round_robin_next",
    "spread",
    "table_sizes",
    "team_round_robin",
]
