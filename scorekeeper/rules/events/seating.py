"""Who sits where in an event's next round: four formats, each a pure function of its input.

Players (and teams) are opaque ids, ``int``s (a page passes its rows' ids). Tables are
numbered from 1, and **table 1 is the head table**; seats are numbered 0 to 3 (or 4)
clockwise. At a partnership table the partners sit opposite: seats 0 and 2 against
seats 1 and 3. Anything random takes an explicit ``seed``: the same input and seed give
the same seating on every machine.

1. **Progressive** (``progressive_first``, ``progressive_next``): after each round the
   winners at every table move up one table (towards table 1), the losers stay, and the
   head table's losers go to the last table; the head table's winners stay. Partners
   switch at every table except the head table, whose two partnerships stay as they were.
   A count that is not a multiple of 4 is seated at tables of each for themselves at the
   foot of the room (``table_sizes``): one table of 5 for 4k+1 players, two of 5 for
   4k+2, one of 3 for 4k+3. Such a table plays cutthroat (no partners), and its two
   best players move up, as a partnership table's two winners do.
2. **Round robin with rotating partners** (``round_robin``, ``spread``): nobody partners
   anyone twice; opponents as even as the rounds allow; when the count is not a multiple
   of 4, the remainder sit out a round each in turn (byes, scored as standings.py says).
3. **Fixed teams** (``team_round_robin``, ``knockout``, ``knockout_result``): a round robin
   by the circle method (a bye for an odd count), then a knockout of the top 2^k, each match
   the best of N games.
4. **Individual tables** (``individual_tables``): 2 to 4 each for themselves per table,
   seated so that who meets whom is spread over the rounds.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeAlias

#: A player (or a team): an opaque id.
Player: TypeAlias = int
Team: TypeAlias = int
#: A round's results for ``progressive_next``: per table number, the players who move up
#: (at a partnership table its winning side; at a table each for themselves its two best
#: players, see ``cutthroat_movers``).
Results: TypeAlias = Mapping[int, Collection[Player]]


@dataclass(frozen=True)
class Seat:
    """One player's place in a round: table (1 is the head table) and seat (0 first)."""

    table: int
    seat: int
    player: Player


@dataclass(frozen=True)
class Table:
    """One table of a round.

    ``players`` in seat order (seat 0 first). ``sides`` are who plays together: at a
    partnership table ``((seat 0, seat 2), (seat 1, seat 3))``; at a table each for
    themselves one side per player, in seat order.
    """

    number: int
    players: tuple[Player, ...]
    sides: tuple[tuple[Player, ...], ...]

    @property
    def partnership(self) -> bool:
        """Whether the table plays in partnerships (sides of two) rather than each alone."""
        return len(self.sides) > 0 and all(len(side) > 1 for side in self.sides)

    @property
    def seats(self) -> tuple[Seat, ...]:
        return tuple(Seat(self.number, i, p) for i, p in enumerate(self.players))

    def side_of(self, player: Player) -> tuple[Player, ...]:
        """The side ``player`` plays on at this table (KeyError if not seated here)."""
        for side in self.sides:
            if player in side:
                return side
        raise KeyError(player)


@dataclass(frozen=True)
class Round:
    """One round's seating: its tables (head table first) and who sits out (byes)."""

    number: int
    tables: tuple[Table, ...]
    byes: tuple[Player, ...] = ()
    _where: dict[Player, Seat] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        where = {s.player: s for t in self.tables for s in t.seats}
        object.__setattr__(self, "_where", where)

    @property
    def seats(self) -> tuple[Seat, ...]:
        """Every seated player's seat, table by table, seat by seat."""
        return tuple(s for t in self.tables for s in t.seats)

    @property
    def players(self) -> tuple[Player, ...]:
        """Everyone in the round: seated (table by table, seat by seat), then the byes."""
        return (*(s.player for s in self.seats), *self.byes)

    def seat_of(self, player: Player) -> Seat | None:
        """Where ``player`` sits this round, or None (a bye, or not in the round)."""
        return self._where.get(player)

    def table(self, number: int) -> Table:
        """The table numbered ``number`` (KeyError if the round has none)."""
        if 1 <= number <= len(self.tables) and self.tables[number - 1].number == number:
            return self.tables[number - 1]
        for t in self.tables:
            if t.number == number:
                return t
        raise KeyError(number)


# --- 1. Progressive --------------------------------------------------------------------


def table_sizes(count: int) -> tuple[int, ...]:
    """The table sizes of a progressive round for ``count`` players (at least 4), head first.

    Tables of 4 (partnerships); the remainder at the foot, each for themselves: 4k+1 ends
    with a table of 5, 4k+2 with two of 5 (6 players: two tables of 3), 4k+3 with one of 3.
    """
    raise NotImplementedError


def progressive_first(players: Sequence[Player], seed: int) -> Round:
    """Seat round 1 of a progressive event: the players drawn at random (by ``seed``) into
    ``table_sizes(len(players))`` tables, partners opposite at the tables of 4."""
    raise NotImplementedError


def cutthroat_movers(table: Table, scores: Mapping[Player, int]) -> tuple[Player, Player]:
    """The two players who move up from a table each for themselves: the two highest final
    scores, a tie going to the lower seat."""
    raise NotImplementedError


def progressive_next(
    previous_round: Round, results: Results, present_players: Collection[Player]
) -> Round:
    """Seat the next progressive round from the last one and its results.

    Each table's winners (``results[table]``) move up one table; its losers stay; the head
    table's winners stay and its losers go to the last table. At every table but the head
    table the partners switch: each player there partners someone they did not partner last
    round. ``present_players`` is who plays the next round: a player of the last round not in
    it has withdrawn (their seat goes to the others), a player not in the last round has
    arrived and is seated at the foot of the room; the tables are then cut again to
    ``table_sizes`` of the new count, in the order the movement put everyone.
    """
    raise NotImplementedError


# --- 2. Round robin with rotating partners ---------------------------------------------


@dataclass(frozen=True)
class Spread:
    """How even a schedule is: every pair of players, how often partners and opponents.

    Counts are over every unordered pair of the schedule's players (pairs who never met
    count 0). ``partner_max`` must be 1 for a rotating-partner schedule.
    """

    #: The most times any pair partnered.
    partner_max: int
    #: Times partnered -> how many pairs (e.g. {0: 12, 1: 16}).
    partner_histogram: Mapping[int, int]
    #: The fewest and most times any pair opposed.
    opponent_min: int
    opponent_max: int
    #: Times opposed -> how many pairs.
    opponent_histogram: Mapping[int, int]
    #: Per player, rounds sat out.
    byes: Mapping[Player, int]
    #: The pairs who partnered more than once (empty when the schedule keeps its promise).
    repeated_partners: tuple[tuple[Player, Player], ...]


def round_robin(players: Sequence[Player], rounds: int, seed: int) -> list[Round]:
    """Schedule ``rounds`` rounds of partnership tables in which nobody partners anyone twice.

    For 8, 12, 16, 20 and 24 players a whist tournament's cyclic construction is used
    (over its full length of n-1 rounds every pair partners exactly once and opposes exactly
    twice; fewer rounds are its first ones). Otherwise the circle method's rounds of
    partner pairs, the pairs put at tables so that opponents are as even as a greedy pass
    and swaps make them; when the count is not a multiple of 4 the remainder (1 to 3
    players) have a bye each round, in turn, so byes differ by at most one between players.
    The players are assigned to the construction's places at random by ``seed``. Raise
    EventError when more rounds are asked than the count allows without a repeated partner.
    """
    raise NotImplementedError


def round_robin_max_rounds(count: int) -> int:
    """The most rounds ``round_robin`` seats ``count`` players without a repeated partner."""
    raise NotImplementedError


def spread(rounds: Sequence[Round]) -> Spread:
    """Report how often each pair of players partnered and opposed over ``rounds``, and
    each player's byes (``Spread``)."""
    raise NotImplementedError


# --- 3. Fixed teams --------------------------------------------------------------------


@dataclass(frozen=True)
class Match:
    """One match of a team round: ``home`` against ``away`` at ``table``."""

    table: int
    home: Team
    away: Team


@dataclass(frozen=True)
class TeamRound:
    """One round of a team round robin: its matches and the team with a bye (odd counts)."""

    number: int
    matches: tuple[Match, ...]
    bye: Team | None = None


def team_round_robin(teams: Sequence[Team]) -> list[TeamRound]:
    """Every team plays every other once: n-1 rounds for an even count, n for an odd one (a
    bye each round, each team once), by the circle method (the first team fixed)."""
    raise NotImplementedError


@dataclass(frozen=True)
class KnockoutMatch:
    """One knockout match, the best of ``best_of`` games: ``top`` against ``bottom`` (None
    while still waiting for the winner of an earlier match), and the games each has won."""

    round: int
    match: int
    best_of: int
    top: Team | None
    bottom: Team | None
    top_wins: int = 0
    bottom_wins: int = 0

    @property
    def needed(self) -> int:
        """Games a side must win to take the match."""
        return self.best_of // 2 + 1

    @property
    def winner(self) -> Team | None:
        if self.top_wins >= self.needed:
            return self.top
        if self.bottom_wins >= self.needed:
            return self.bottom
        return None


@dataclass(frozen=True)
class Bracket:
    """A knockout: its rounds of matches (the first round first, the final last)."""

    best_of: int
    rounds: tuple[tuple[KnockoutMatch, ...], ...]

    @property
    def champion(self) -> Team | None:
        return self.rounds[-1][0].winner if self.rounds else None


def knockout(seeded_teams: Sequence[Team], best_of: int) -> Bracket:
    """Draw a knockout of 2^k teams in seed order (the best first): 1 plays 2^k, 2 plays
    2^k-1, and so on, placed so that seeds 1 and 2 can meet only in the final."""
    raise NotImplementedError


def knockout_result(
    bracket: Bracket, round_number: int, match: int, top_wins: int, bottom_wins: int
) -> Bracket:
    """Record the games won so far in one match; once a side has won enough, it goes into
    its place in the next round. A match whose next match has begun cannot change."""
    raise NotImplementedError


# --- 4. Individual tables --------------------------------------------------------------


def individual_tables(
    players: Sequence[Player],
    per_table: int,
    round_number: int,
    seed: int,
    previous: Sequence[Round] = (),
) -> Round:
    """Seat round ``round_number`` of tables each for themselves, ``per_table`` (2 to 4) at
    the most: tables as even as the count allows (never fewer than 2; with 2 per table and an
    odd count one player sits out, in turn, fewest byes first).

    Each player is put where they have met the fewest of those already seated there, so who
    meets whom is spread. The meetings counted are those of ``previous`` (the rounds really
    played, when players came and went), or else rounds 1 to ``round_number - 1`` drawn the
    same way for these players: the same input and seed give the same rounds."""
    raise NotImplementedError
