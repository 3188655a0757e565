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

import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import TypeAlias

from ..errors import N_, Phrase
from .errors import EventError

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


# --- Shared parts ----------------------------------------------------------------------


def _distinct(players: Iterable[Player]) -> list[Player]:
    """The players as a list, refusing one listed twice."""
    seen: set[Player] = set()
    listed = []
    for player in players:
        if player in seen:
            raise EventError("player-twice", player=player)
        seen.add(player)
        listed.append(player)
    return listed


def _cutthroat(number: int, players: Sequence[Player]) -> Table:
    return Table(number, tuple(players), tuple((p,) for p in players))


def _partnership(number: int, one: tuple[Player, Player], other: tuple[Player, Player]) -> Table:
    """A table of 4, partners opposite: ``one`` in seats 0 and 2, ``other`` in 1 and 3."""
    return Table(number, (one[0], other[0], one[1], other[1]), (one, other))


def _seat(number: int, players: Sequence[Player]) -> Table:
    """Seat a table in the given order: partners opposite at 4, each alone otherwise."""
    if len(players) == 4:
        a, b, c, d = players
        return _partnership(number, (a, c), (b, d))
    return _cutthroat(number, players)


def _pair(a: Player, b: Player) -> tuple[Player, Player]:
    return (a, b) if a <= b else (b, a)


# --- 1. Progressive --------------------------------------------------------------------

#: A progressive round seats at least this many.
PROGRESSIVE_MIN = 4
#: How many move up from each table: a partnership's winning side, a cutthroat table's best two.
MOVERS = 2


def table_sizes(count: int) -> tuple[int, ...]:
    """The table sizes of a progressive round for ``count`` players (at least 4), head first.

    Tables of 4 (partnerships); the remainder at the foot, each for themselves: 4k+1 ends
    with a table of 5, 4k+2 with two of 5 (6 players: two tables of 3), 4k+3 with one of 3.
    """
    if count < PROGRESSIVE_MIN:
        raise EventError(
            "too-few-players",
            format=Phrase(N_("A progressive event")),
            min=PROGRESSIVE_MIN,
            count=count,
        )
    fours, odd = divmod(count, 4)
    if odd == 0:
        return (4,) * fours
    if odd == 1:
        return (4,) * (fours - 1) + (5,)
    if odd == 2:
        return (4,) * (fours - 2) + (5, 5) if fours >= 2 else (3, 3)
    return (4,) * fours + (3,)


def progressive_first(players: Sequence[Player], seed: int) -> Round:
    """Seat round 1 of a progressive event: the players drawn at random (by ``seed``) into
    ``table_sizes(len(players))`` tables, partners opposite at the tables of 4."""
    drawn = _distinct(players)
    sizes = table_sizes(len(drawn))
    random.Random(seed).shuffle(drawn)
    return Round(1, _cut(drawn, sizes, {}, None))


def cutthroat_movers(table: Table, scores: Mapping[Player, int]) -> tuple[Player, Player]:
    """The two players who move up from a table each for themselves: the two highest final
    scores, a tie going to the lower seat."""
    ranked = sorted(range(len(table.players)), key=lambda i: (-scores[table.players[i]], i))
    return table.players[ranked[0]], table.players[ranked[1]]


def _winners(round_: Round, table: Table, results: Results) -> tuple[Player, ...]:
    """The players who move up from ``table``, checked against who sits there."""
    if table.number not in results:
        raise EventError("no-result", table=table.number)
    given = set(results[table.number])
    if table.partnership:
        for side in table.sides:
            if given == set(side):
                return side
        raise EventError("result-not-a-side", table=table.number)
    if len(given) != MOVERS or not given <= set(table.players):
        raise EventError("result-movers", table=table.number, count=MOVERS)
    return tuple(p for p in table.players if p in given)


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
    tables = previous_round.tables
    known = {t.number for t in tables}
    for number in results:
        if number not in known:
            raise EventError("result-unknown-table", round=previous_round.number, table=number)
    present = _distinct(present_players)
    up = [_winners(previous_round, t, results) for t in tables]
    down = [tuple(p for p in t.players if p not in up[i]) for i, t in enumerate(tables)]
    last = len(tables) - 1
    moved: list[list[Player]] = []
    for i in range(len(tables)):
        if i == 0:
            stay = list(up[0]) + (list(up[1]) if last > 0 else list(down[0]))
        elif i < last:
            stay = list(down[i]) + list(up[i + 1])
        else:
            stay = list(down[i]) + list(down[0])
        moved.append(stay)
    here = set(present)
    queue = [p for group in moved for p in group if p in here]
    placed = set(queue)
    queue += [p for p in present if p not in placed]
    partners = {p: side for t in tables if t.partnership for side in t.sides for p in side}
    return Round(previous_round.number + 1, _cut(queue, table_sizes(len(queue)), partners, 1))


#: The three ways to split four players (by their places in the queue) into two pairs.
_PAIRINGS = (((0, 2), (1, 3)), ((0, 1), (2, 3)), ((0, 3), (1, 2)))


def _cut(
    queue: Sequence[Player],
    sizes: Sequence[int],
    partners: Mapping[Player, tuple[Player, ...]],
    head_keeps: int | None,
) -> tuple[Table, ...]:
    """Cut ``queue`` into tables of ``sizes``; at each table of 4 choose the partnerships:
    table ``head_keeps`` keeps as many of last round's partnerships as it can, every other
    table as few (``partners`` maps a player to last round's side); ties go to the first
    pairing, partners opposite in queue order."""
    built = []
    start = 0
    for number, size in enumerate(sizes, start=1):
        players = queue[start : start + size]
        start += size
        if size != 4:
            built.append(_cutthroat(number, players))
            continue

        def kept(pairing: tuple[tuple[int, int], ...], seated: Sequence[Player] = players) -> int:
            return sum(seated[b] in partners.get(seated[a], ()) for a, b in pairing)

        choose = max if number == head_keeps else min
        best = choose(_PAIRINGS, key=kept)
        (a, c), (b, d) = best
        built.append(_partnership(number, (players[a], players[c]), (players[b], players[d])))
    return tuple(built)


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


#: Cyclic whist tournaments: the first round's tables over Z_(n-1) and one fixed place
#: (written -1). Table (a, b, c, d) seats a and c against b and d. Adding i (mod n-1) to
#: every place but the fixed one gives round i+1; over the n-1 rounds every pair partners
#: once and opposes twice (tests/rules/events checks every one).
WHIST_BASES: Mapping[int, tuple[tuple[int, int, int, int], ...]] = {
    8: ((-1, 4, 2, 1), (0, 3, 6, 5)),
    12: ((-1, 8, 9, 1), (0, 5, 3, 10), (2, 7, 4, 6)),
    16: ((-1, 1, 10, 2), (0, 3, 5, 6), (4, 8, 13, 12), (7, 11, 14, 9)),
    20: ((-1, 9, 11, 14), (0, 1, 7, 4), (2, 13, 3, 17), (5, 12, 18, 10), (6, 8, 15, 16)),
}

ROUND_ROBIN_MIN = 4


def round_robin_max_rounds(count: int) -> int:
    """The most rounds ``round_robin`` seats ``count`` players without a repeated partner:
    the circle method's rounds, n-1 for an even count and n for an odd one."""
    if count < ROUND_ROBIN_MIN:
        raise EventError(
            "too-few-players",
            format=Phrase(N_("A round robin with rotating partners")),
            min=ROUND_ROBIN_MIN,
            count=count,
        )
    return count - 1 if count % 2 == 0 else count


def round_robin(players: Sequence[Player], rounds: int, seed: int) -> list[Round]:
    """Schedule ``rounds`` rounds of partnership tables in which nobody partners anyone twice.

    For 8, 12, 16 and 20 players a cyclic whist tournament (``WHIST_BASES``) is used: over its
    full length of n-1 rounds every pair partners exactly once and opposes exactly twice;
    fewer rounds are its first ones. Otherwise the circle method's rounds of partner pairs
    are used, the pairs put at tables so that opponents are as even as a greedy pass and
    swaps make them; when the count is not a multiple of 4 the remainder (1 to 3 players)
    have a bye each round: with an odd count the circle's empty place gives each player one
    bye in turn; a left-over pair sits out together, the pair of the fewest byes that a
    round left allows (even, at most one apart, over the first rounds of any night; late in
    a schedule as long as the count allows the pairs can leave it two apart: ``spread``
    says). The players are
    assigned to the construction's places at random by ``seed``. Raise EventError when more
    rounds are asked than the count allows without a repeated partner
    (``round_robin_max_rounds``).
    """
    drawn = _distinct(players)
    most = round_robin_max_rounds(len(drawn))
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise EventError("rounds-range", rounds=rounds)
    if rounds > most:
        raise EventError("too-many-rounds", count=len(drawn), max=most, rounds=rounds)
    rng = random.Random(seed)
    rng.shuffle(drawn)
    if len(drawn) in WHIST_BASES:
        return _whist(drawn, WHIST_BASES[len(drawn)], rounds)
    if len(drawn) % 4 < 2:
        return _circle_schedule(drawn, rounds, rng)
    # When a pair sits out with the empty place's partner, greedy choices can leave byes
    # uneven: draw again (a few times, fewer for a big room) and keep the evenest.
    best = _circle_schedule(drawn, rounds, rng)
    for _ in range(max(1, _BYE_DRAWS_PLAYERS // len(drawn))):
        if _bye_unevenness(best) == 0:
            break
        again = _circle_schedule(drawn, rounds, rng)
        if _bye_unevenness(again) < _bye_unevenness(best):
            best = again
    return best


#: How many of the turns left are looked at for the one whose pair sits out (enough to find
#: players with the fewest byes; all of them would cost a big room the square of its count).
_TURNS_LOOKED_AT = 32
#: How many players' schedules are drawn again, at most, to even out the byes (so 20 draws
#: for 20 players, one for 400).
_BYE_DRAWS_PLAYERS = 400


def _bye_unevenness(schedule: Sequence[Round]) -> int:
    """Over every first few rounds of ``schedule``, by how much the byes differ between
    players beyond one, added up: 0 when byes are always taken in turn."""
    byes: dict[Player, int] = dict.fromkeys(schedule[0].players, 0) if schedule else {}
    total = 0
    for round_ in schedule:
        for player in round_.byes:
            byes[player] += 1
        total += max(0, max(byes.values()) - min(byes.values()) - 1)
    return total


def _whist(
    drawn: Sequence[Player], base: Sequence[tuple[int, int, int, int]], rounds: int
) -> list[Round]:
    size = len(drawn) - 1

    def at(place: int, shift: int) -> Player:
        return drawn[size] if place < 0 else drawn[(place + shift) % size]

    schedule = []
    for shift in range(rounds):
        tables = []
        for number, (a, b, c, d) in enumerate(base, start=1):
            one = (at(a, shift), at(c, shift))
            other = (at(b, shift), at(d, shift))
            tables.append(_partnership(number, one, other))
        schedule.append(Round(shift + 1, tuple(tables)))
    return schedule


def _circle_pairs(places: int, turn: int) -> list[tuple[int, int]]:
    """Round ``turn`` of the circle method on ``places`` (even) places: place ``places-1``
    fixed, the others turning; every pair of places meets in exactly one of the
    ``places-1`` rounds."""
    turning = places - 1
    pairs = [(places - 1, turn)]
    for step in range(1, places // 2):
        pairs.append(((turn + step) % turning, (turn - step) % turning))
    return pairs


def _circle_schedule(drawn: list[Player], rounds: int, rng: random.Random) -> list[Round]:
    count = len(drawn)
    places = count + count % 2  # an odd count adds an empty place: its partner sits out
    byes: dict[Player, int] = dict.fromkeys(drawn, 0)
    opposed: dict[tuple[Player, Player], int] = {}
    # A steady order for ties, drawn once, so the same seed gives the same rounds.
    tie = {p: i for i, p in enumerate(rng.sample(drawn, count))}
    turns = list(range(places - 1))
    schedule = []
    for number in range(1, rounds + 1):
        if count % 4 < 2:
            # No pair sits out: the turns in order (with an odd count each player's one bye
            # comes with the turn that pairs them with the empty place).
            turn = turns.pop(0)
            out, playing = _sit_out(drawn, _circle_pairs(places, turn), byes, tie)
        else:
            # A pair sits out too: of the turns left, the one whose best pair to sit out has
            # had the fewest byes, so byes stay even.
            options = [
                (t, *_sit_out(drawn, _circle_pairs(places, t), byes, tie))
                for t in turns[:_TURNS_LOOKED_AT]
            ]
            turn, out, playing = min(options, key=lambda o: _bye_cost(o[1], byes, tie))
            turns.remove(turn)
        for player in out:
            byes[player] += 1
        tables = _oppose(playing, opposed, tie)
        for one, other in tables:
            for x in one:
                for y in other:
                    key = _pair(x, y)
                    opposed[key] = opposed.get(key, 0) + 1
        seated = tuple(
            _partnership(n, one, other) for n, (one, other) in enumerate(tables, start=1)
        )
        schedule.append(Round(number, seated, tuple(sorted(out, key=tie.__getitem__))))
    return schedule


def _bye_cost(
    out: Sequence[Player], byes: Mapping[Player, int], tie: Mapping[Player, int]
) -> tuple[int, int, int]:
    """How much ``out`` sitting out costs the evenness of byes: the most byes among them,
    then their sum (fewer first), then the draw."""
    return (
        max((byes[p] for p in out), default=0),
        sum(byes[p] for p in out),
        min((tie[p] for p in out), default=0),
    )


def _sit_out(
    drawn: Sequence[Player],
    pairs: Sequence[tuple[int, int]],
    byes: Mapping[Player, int],
    tie: Mapping[Player, int],
) -> tuple[list[Player], list[tuple[Player, Player]]]:
    """Who of a turn's pairs sits out, and the pairs who play: the empty place's partner,
    and, when 2 or 3 of the count are left over, one partner pair too (the cheapest)."""
    count = len(drawn)
    out: list[Player] = []
    playing: list[tuple[Player, Player]] = []
    for a, b in pairs:
        if a >= count or b >= count:
            out.append(drawn[b if a >= count else a])
        else:
            playing.append((drawn[a], drawn[b]))
    if count % 4 - len(out) == 2:
        pick = min(playing, key=lambda pair: _bye_cost([*out, *pair], byes, tie))
        playing.remove(pick)
        out.extend(pick)
    return out, playing


#: Rounds of swaps tried between two tables' partnerships, at most (each pass is a full sweep).
_SWAP_PASSES = 4


def _oppose(
    pairs: list[tuple[Player, Player]],
    opposed: Mapping[tuple[Player, Player], int],
    tie: Mapping[Player, int],
) -> list[tuple[tuple[Player, Player], tuple[Player, Player]]]:
    """Put partner pairs two to a table, so that players meet those they have opposed least:
    the cost of a table is the sum of how often its four opponent pairs already met (its
    rise in the sum of squares, halved); a greedy pass, then swaps between tables while any
    lowers the total."""

    def cost(one: tuple[Player, Player], other: tuple[Player, Player]) -> int:
        return sum(opposed.get(_pair(x, y), 0) for x in one for y in other)

    waiting = sorted(pairs, key=lambda pair: min(tie[pair[0]], tie[pair[1]]))
    tables = []
    waiting.reverse()  # taken from the end: the first in the draw first
    while waiting:
        first = waiting.pop()
        best, lowest = len(waiting) - 1, None
        for i in range(len(waiting) - 1, -1, -1):
            now = cost(first, waiting[i])
            if lowest is None or now < lowest:
                best, lowest = i, now
                if now == 0:
                    break
        tables.append((first, waiting.pop(best)))
    if not opposed:
        return tables
    for _ in range(_SWAP_PASSES):
        better = False
        for i in range(len(tables)):
            if cost(*tables[i]) == 0:
                continue  # nothing to gain for this table: its players never met
            for j in range(len(tables)):
                if j == i:
                    continue
                (a, b), (c, d) = tables[i], tables[j]
                now = cost(a, b) + cost(c, d)
                swap_one = cost(a, c) + cost(b, d)
                swap_two = cost(a, d) + cost(b, c)
                if swap_one < now and swap_one <= swap_two:
                    tables[i], tables[j] = (a, c), (b, d)
                    better = True
                elif swap_two < now:
                    tables[i], tables[j] = (a, d), (b, c)
                    better = True
        if not better:
            break
    return tables


def spread(rounds: Sequence[Round]) -> Spread:
    """Report how often each pair of players partnered and opposed over ``rounds``, and
    each player's byes (``Spread``). At a table each for themselves everyone opposes
    everyone."""
    players: set[Player] = set()
    byes: dict[Player, int] = {}
    partnered: dict[tuple[Player, Player], int] = {}
    opposed: dict[tuple[Player, Player], int] = {}
    for round_ in rounds:
        for player in round_.byes:
            byes[player] = byes.get(player, 0) + 1
        players.update(round_.players)
        for table in round_.tables:
            for i, side in enumerate(table.sides):
                for a, b in combinations(side, 2):
                    key = _pair(a, b)
                    partnered[key] = partnered.get(key, 0) + 1
                for other in table.sides[i + 1 :]:
                    for a in side:
                        for b in other:
                            key = _pair(a, b)
                            opposed[key] = opposed.get(key, 0) + 1
    every = len(players) * (len(players) - 1) // 2
    return Spread(
        partner_max=max(partnered.values(), default=0),
        partner_histogram=_histogram(partnered.values(), every),
        opponent_min=min(opposed.values(), default=0) if len(opposed) == every else 0,
        opponent_max=max(opposed.values(), default=0),
        opponent_histogram=_histogram(opposed.values(), every),
        byes={p: byes.get(p, 0) for p in sorted(players)},
        repeated_partners=tuple(sorted(k for k, n in partnered.items() if n > 1)),
    )


def _histogram(counts: Iterable[int], every: int) -> dict[int, int]:
    found: dict[int, int] = {}
    for n in counts:
        found[n] = found.get(n, 0) + 1
    never = every - sum(found.values())
    if never:
        found[0] = never
    return dict(sorted(found.items()))


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


TEAMS_MIN = 2


def _distinct_teams(teams: Iterable[Team]) -> list[Team]:
    seen: set[Team] = set()
    listed = []
    for team in teams:
        if team in seen:
            raise EventError("team-twice", team=team)
        seen.add(team)
        listed.append(team)
    return listed


def team_round_robin(teams: Sequence[Team]) -> list[TeamRound]:
    """Every team plays every other once: n-1 rounds for an even count, n for an odd one (a
    bye each round, each team once), by the circle method (the first team fixed, the home
    side alternating for it round by round)."""
    listed: list[Team | None] = list(_distinct_teams(teams))
    if len(listed) < TEAMS_MIN:
        raise EventError(
            "too-few-teams", format=Phrase(N_("A round robin")), min=TEAMS_MIN, count=len(listed)
        )
    if len(listed) % 2:
        listed.append(None)
    places = len(listed)
    schedule = []
    for turn in range(places - 1):
        turning = listed[1:]
        shifted = [listed[0], *turning[turn:], *turning[:turn]]
        matches: list[Match] = []
        bye = None
        for i in range(places // 2):
            home, away = shifted[i], shifted[places - 1 - i]
            if i == 0 and turn % 2:
                home, away = away, home
            if home is None or away is None:
                bye = away if home is None else home
                continue
            matches.append(Match(len(matches) + 1, home, away))
        schedule.append(TeamRound(turn + 1, tuple(matches), bye))
    return schedule


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
    def begun(self) -> bool:
        return self.top_wins + self.bottom_wins > 0

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

    def match(self, round_number: int, match: int) -> KnockoutMatch:
        """Match ``match`` (from 1) of round ``round_number`` (from 1); EventError if none."""
        if 1 <= round_number <= len(self.rounds) and 1 <= match <= len(
            self.rounds[round_number - 1]
        ):
            return self.rounds[round_number - 1][match - 1]
        raise EventError("match-unknown", round=round_number, match=match)


def bracket_order(size: int) -> tuple[int, ...]:
    """The seeds in bracket order for ``size`` (a power of 2): neighbours play each other in
    the first round, and the best seed left meets the worst (1, 8, 4, 5, 2, 7, 3, 6)."""
    order = [1]
    while len(order) < size:
        doubled = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, doubled - s)]
    return tuple(order)


def knockout(seeded_teams: Sequence[Team], best_of: int) -> Bracket:
    """Draw a knockout of 2^k teams in seed order (the best first): 1 plays 2^k, 2 plays
    2^k-1, and so on, placed so that seeds 1 and 2 can meet only in the final."""
    teams = _distinct_teams(seeded_teams)
    count = len(teams)
    if count < TEAMS_MIN or count & (count - 1):
        raise EventError("knockout-size", count=count)
    if isinstance(best_of, bool) or not isinstance(best_of, int) or best_of < 1 or not best_of % 2:
        raise EventError("best-of", best_of=best_of)
    order = bracket_order(count)
    first = tuple(
        KnockoutMatch(1, i + 1, best_of, teams[order[2 * i] - 1], teams[order[2 * i + 1] - 1])
        for i in range(count // 2)
    )
    rounds = [first]
    while len(rounds[-1]) > 1:
        number = len(rounds) + 1
        rounds.append(
            tuple(
                KnockoutMatch(number, i + 1, best_of, None, None)
                for i in range(len(rounds[-1]) // 2)
            )
        )
    return Bracket(best_of, tuple(rounds))


def knockout_result(
    bracket: Bracket, round_number: int, match: int, top_wins: int, bottom_wins: int
) -> Bracket:
    """Record the games won so far in one match; once a side has won enough, it goes into
    its place in the next round (the winner of match 2m-1 on top of match m, of 2m at its
    bottom). A match whose next match has begun cannot change."""
    played = bracket.match(round_number, match)
    if played.top is None or played.bottom is None:
        raise EventError("match-waiting", round=round_number, match=match)
    needed = played.needed
    for wins in (top_wins, bottom_wins):
        if isinstance(wins, bool) or not isinstance(wins, int) or not 0 <= wins <= needed:
            break
    else:
        wins_ok = not (top_wins == needed and bottom_wins == needed)
        if wins_ok:
            return _record(bracket, played, top_wins, bottom_wins)
    raise EventError(
        "match-wins",
        top_wins=top_wins,
        bottom_wins=bottom_wins,
        best_of=bracket.best_of,
        needed=needed,
    )


def _record(bracket: Bracket, played: KnockoutMatch, top_wins: int, bottom_wins: int) -> Bracket:
    rounds = [list(r) for r in bracket.rounds]
    now = replace(played, top_wins=top_wins, bottom_wins=bottom_wins)
    rounds[played.round - 1][played.match - 1] = now
    if played.round < len(rounds):
        following = rounds[played.round][(played.match - 1) // 2]
        on_top = played.match % 2 == 1
        if (following.top if on_top else following.bottom) != now.winner:
            if following.begun:
                raise EventError("match-decided", round=played.round, match=played.match)
            moved = (
                replace(following, top=now.winner)
                if on_top
                else replace(following, bottom=now.winner)
            )
            rounds[played.round][(played.match - 1) // 2] = moved
    return Bracket(bracket.best_of, tuple(tuple(r) for r in rounds))


# --- 4. Individual tables --------------------------------------------------------------

PER_TABLE = (2, 3, 4)


def individual_sizes(count: int, per_table: int) -> tuple[tuple[int, ...], int]:
    """The table sizes for ``count`` players at most ``per_table`` a table, as even as the
    count allows and never below 2, and how many sit out (1 for an odd count at tables of
    2, else 0)."""
    if isinstance(per_table, bool) or per_table not in PER_TABLE:
        raise EventError("per-table", per_table=per_table)
    if count < 2:
        raise EventError(
            "too-few-players", format=Phrase(N_("A table each for themselves")), min=2, count=count
        )
    if per_table == 2:
        return (2,) * (count // 2), count % 2
    tables = -(-count // per_table)
    base, extra = divmod(count, tables)
    return (base + 1,) * extra + (base,) * (tables - extra), 0


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
    drawn = _distinct(players)
    sizes, out = individual_sizes(len(drawn), per_table)
    if isinstance(round_number, bool) or not isinstance(round_number, int) or round_number < 1:
        raise EventError("round-number", round=round_number)
    met: dict[Player, dict[Player, int]] = {p: {} for p in drawn}
    byes: dict[Player, int] = dict.fromkeys(drawn, 0)
    history: Iterable[Round] = previous
    if not previous:
        history = (
            _individual_round(drawn, sizes, out, n, seed, met, byes) for n in range(1, round_number)
        )
    for past in history:
        _count_meetings(past, met, byes)
    return _individual_round(drawn, sizes, out, round_number, seed, met, byes)


def _count_meetings(
    past: Round, met: dict[Player, dict[Player, int]], byes: dict[Player, int]
) -> None:
    for player in past.byes:
        if player in byes:
            byes[player] += 1
    for table in past.tables:
        for a, b in combinations(table.players, 2):
            if a in met and b in met:
                met[a][b] = met[a].get(b, 0) + 1
                met[b][a] = met[b].get(a, 0) + 1


def _individual_round(
    drawn: Sequence[Player],
    sizes: Sequence[int],
    out: int,
    number: int,
    seed: int,
    met: Mapping[Player, Mapping[Player, int]],
    byes: Mapping[Player, int],
) -> Round:
    rng = random.Random(f"{seed}:{number}")
    order = rng.sample(list(drawn), len(drawn))
    # Who sits out: the fewest byes so far, the draw breaking ties.
    order.sort(key=byes.__getitem__)
    sitting_out, order = order[:out], order[out:]
    # The most met first: they have the fewest good places left.
    order.sort(key=lambda p: -sum(met[p].values()))
    seated: list[list[Player]] = [[] for _ in sizes]
    table_of: dict[Player, int] = {}
    for player in order:
        cost = [0] * len(sizes)
        for other, times in met[player].items():
            where = table_of.get(other)
            if where is not None:
                cost[where] += times
        best = min(
            (i for i in range(len(sizes)) if len(seated[i]) < sizes[i]),
            key=lambda i: (cost[i], len(seated[i]), i),
        )
        seated[best].append(player)
        table_of[player] = best
    tables = tuple(_cutthroat(i, group) for i, group in enumerate(seated, start=1))
    return Round(number, tables, tuple(sitting_out))
