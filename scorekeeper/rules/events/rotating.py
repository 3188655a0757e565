"""Round robins with rotating partners: nobody partners anyone twice, opponents as even as the
rounds allow, byes in turn; and ``spread``, the report of how even a schedule is.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from ..errors import N_, Phrase
from .errors import EventError
from .tables import Player, Round, distinct, enough_players, pair, partnership


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
    enough_players(count, ROUND_ROBIN_MIN, Phrase(N_("A round robin with rotating partners")))
    return count - 1 if count % 2 == 0 else count


def round_robin(players: Sequence[Player], rounds: int, seed: int) -> list[Round]:
    """Schedule ``rounds`` rounds of partnership tables in which nobody partners anyone twice.

    For 8, 12, 16 and 20 players a cyclic whist tournament (``WHIST_BASES``) is used: over its
    full length of n-1 rounds every pair partners exactly once and opposes exactly twice;
    fewer rounds are its first ones. Otherwise the circle method's rounds of partner pairs
    are used, the pairs put at tables so that opponents are as even as a greedy pass and
    swaps make them. When the count is not a multiple of 4 the remainder (1 to 3 players)
    sit out each round: with an odd count the circle's empty place's partner, and when 2
    or 3 are left over a partner pair too, the pair with the fewest byes that a round
    allows (byes at most one apart over the first rounds of any night; late in a schedule
    as long as the count allows, possibly two: ``spread`` says). The players are assigned
    to the construction's places at random by ``seed``. Raise EventError when more rounds
    are asked than the count allows without a repeated partner (``round_robin_max_rounds``).
    """
    drawn = distinct(players)
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
            tables.append(partnership(number, one, other))
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
                    key = pair(x, y)
                    opposed[key] = opposed.get(key, 0) + 1
        seated = tuple(partnership(n, one, other) for n, (one, other) in enumerate(tables, start=1))
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
        most = max((byes[p] for p in out), default=0)
        already = sum(byes[p] for p in out)

        def cost(two: tuple[Player, Player]) -> tuple[int, int, int]:
            a, b = byes[two[0]], byes[two[1]]
            return (max(most, a, b), already + a + b, min(tie[two[0]], tie[two[1]]))

        pick = min(playing, key=cost)
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
        return sum(opposed.get(pair(x, y), 0) for x in one for y in other)

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
                    key = pair(a, b)
                    partnered[key] = partnered.get(key, 0) + 1
                for other in table.sides[i + 1 :]:
                    for a in side:
                        for b in other:
                            key = pair(a, b)
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


#: Draws of a next round's partner pairs tried before saying no new pairing is left.
_PAIRING_DRAWS = 200


def round_robin_next(
    previous: Sequence[Round], present_players: Sequence[Player], seed: int
) -> Round:
    """Seat the next round of a rotating-partner event after its attendance changed: the
    ``present_players`` only, nobody partnering anyone they partnered in ``previous``.

    Who sits out (the count's remainder over 4) are those who have missed the fewest
    rounds so far, byes and absences alike (a late arrival has missed the rounds before
    they came), the draw by ``seed`` breaking ties. The partner pairs are drawn, the most
    constrained players first, until a pairing repeats nobody's partner; the pairs are put at
    tables as ``round_robin`` puts them, against those they have opposed least. Raise
    EventError when no such pairing is found (late in a long event: fewer new partners are
    left than players).
    """
    drawn = distinct(present_players)
    enough_players(len(drawn), ROUND_ROBIN_MIN, Phrase(N_("A round robin with rotating partners")))
    number = previous[-1].number + 1 if previous else 1
    rng = random.Random(f"{seed}:{number}")
    tie = {p: i for i, p in enumerate(rng.sample(drawn, len(drawn)))}
    missed = dict.fromkeys(drawn, 0)
    partnered: dict[Player, set[Player]] = {p: set() for p in drawn}
    opposed: dict[tuple[Player, Player], int] = {}
    for past in previous:
        seated = set(past.players) - set(past.byes)
        for player in drawn:
            if player not in seated:
                missed[player] += 1
        for table in past.tables:
            for i, side in enumerate(table.sides):
                for a, b in combinations(side, 2):
                    if a in partnered and b in partnered:
                        partnered[a].add(b)
                        partnered[b].add(a)
                for other in table.sides[i + 1 :]:
                    for a in side:
                        for b in other:
                            opposed[pair(a, b)] = opposed.get(pair(a, b), 0) + 1
    ordered = sorted(drawn, key=lambda p: (missed[p], tie[p]))
    out = ordered[: len(drawn) % 4]
    playing = ordered[len(drawn) % 4 :]
    pairs = _new_partners(playing, partnered, rng)
    if pairs is None:
        raise EventError("no-new-partners", count=len(playing), round=number)
    tables = _oppose(pairs, opposed, tie)
    seated_tables = tuple(
        partnership(n, one, other) for n, (one, other) in enumerate(tables, start=1)
    )
    return Round(number, seated_tables, tuple(sorted(out, key=tie.__getitem__)))


def _new_partners(
    playing: Sequence[Player], partnered: Mapping[Player, set[Player]], rng: random.Random
) -> list[tuple[Player, Player]] | None:
    """Pair ``playing`` so that nobody partners anyone in ``partnered[them]``
    (``_draw_pairs``), drawn again on a dead end; None after ``_PAIRING_DRAWS`` draws."""
    for _ in range(_PAIRING_DRAWS):
        pairs = _draw_pairs(playing, partnered, rng)
        if pairs is not None:
            return pairs
    return None


#: Random picks of a partner tried before looking through everyone still free.
_QUICK_PICKS = 8


def _draw_pairs(
    playing: Sequence[Player], partnered: Mapping[Player, set[Player]], rng: random.Random
) -> list[tuple[Player, Player]] | None:
    """One draw of ``_new_partners``: the players with the most past partners first, each
    with a partner drawn at random among the free they have not partnered; None at a dead
    end. Linear in the count when few pairs are ruled out (the usual case)."""
    here = set(playing)
    order = sorted(playing, key=lambda p: (-len(partnered[p] & here), rng.random()))
    free = list(order)
    where = {p: i for i, p in enumerate(free)}

    def drop(player: Player) -> None:
        i, last = where.pop(player), free.pop()
        if last != player:
            free[i] = last
            where[last] = i

    pairs: list[tuple[Player, Player]] = []
    for first in order:
        if first not in where:
            continue
        drop(first)
        if not free:
            return None
        second = None
        for _ in range(_QUICK_PICKS):
            pick = free[rng.randrange(len(free))]
            if pick not in partnered[first]:
                second = pick
                break
        if second is None:
            allowed = [q for q in free if q not in partnered[first]]
            if not allowed:
                return None
            second = rng.choice(allowed)
        drop(second)
        pairs.append((first, second))
    return pairs
