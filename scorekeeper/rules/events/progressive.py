"""Progressive movement: winners up one table, losers stay, the head table's losers to the
foot, partners switching everywhere but at the head table (the rule is ``progressive_next``'s
docstring; where odd players sit is ``table_sizes``'s).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence

from ..errors import N_, Phrase
from .errors import EventError
from .tables import (
    Player,
    Results,
    Round,
    Table,
    cutthroat,
    distinct,
    enough_players,
    pair,
    partnership,
)

#: A progressive round seats at least this many.
PROGRESSIVE_MIN = 4
#: How many move up from each table (a partnership's winning side, a cutthroat table's best
#: two), and how many the head table sends to the last one (its losing side, or its worst two).
MOVERS = 2


def table_sizes(count: int) -> tuple[int, ...]:
    """The table sizes of a progressive round for ``count`` players (at least 4), head first.

    Tables of 4 (partnerships); the remainder at the foot, each for themselves: 4k+1 ends
    with a table of 5, 4k+2 with two of 5 (6 players: two tables of 3), 4k+3 with one of 3.
    """
    enough_players(count, PROGRESSIVE_MIN, Phrase(N_("A progressive event")))
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
    drawn = distinct(players)
    sizes = table_sizes(len(drawn))
    random.Random(seed).shuffle(drawn)
    return Round(1, _cut(drawn, sizes, {}, None))


def cutthroat_ranking(table: Table, scores: Mapping[Player, int]) -> tuple[Player, ...]:
    """A table each for themselves' players, best first, by their final scores: the result
    ``progressive_next`` takes for such a table (a tie goes to the lower seat)."""
    ranked = sorted(range(len(table.players)), key=lambda i: (-scores[table.players[i]], i))
    return tuple(table.players[i] for i in ranked)


def _ranking(table: Table, results: Results) -> tuple[Player, ...]:
    """The table's players, best first, from its result, checked against who sits there:
    at a partnership table the winning side then the losing side, in seat order."""
    if table.number not in results:
        raise EventError("no-result", table=table.number)
    given = tuple(results[table.number])
    if table.partnership:
        for i, side in enumerate(table.sides):
            if len(given) == len(side) and set(given) == set(side):
                return (*side, *(p for j, o in enumerate(table.sides) if j != i for p in o))
        raise EventError("result-not-a-side", table=table.number)
    if len(given) != len(table.players) or set(given) != set(table.players):
        raise EventError("result-ranking", table=table.number, count=len(table.players))
    return given


def progressive_next(
    previous_round: Round,
    results: Results,
    present_players: Collection[Player],
    earlier: Sequence[Round] = (),
) -> Round:
    """Seat the next progressive round from the last one and its results.

    ``results`` gives, per table number, its winning side (a partnership table) or all its
    players best first (a table each for themselves, ``cutthroat_ranking``). From every
    table but the head table the two best move up one table and the rest stay; at the head
    table the two worst (its losing side) go to the last table and the rest stay, so every
    table keeps its size. At every table but the head table the partners switch: each
    player there partners someone they did not partner last round; the head table keeps
    its partnerships. ``present_players`` is who plays the next round: a player of the last
    round not in it has withdrawn, a player not in the last round has arrived and is seated
    at the foot of the room (in the order given); the room is then cut again into
    ``table_sizes`` of the new count, in the order the movement put everyone (so a
    withdrawal or an arrival moves a player or two across a table boundary). ``earlier``
    (the rounds before the last, in any order) lets a table of 4 that has a choice also
    avoid partnerships of those rounds, so partners come round again as late as they can.
    """
    tables = previous_round.tables
    known = {t.number for t in tables}
    for number in results:
        if number not in known:
            raise EventError("result-unknown-table", round=previous_round.number, table=number)
    present = distinct(present_players)
    ranked = [_ranking(t, results) for t in tables]
    last = len(tables) - 1
    moved: list[Player] = []
    if last == 0:
        moved += ranked[0]
    for i in range(len(tables) if last else 0):
        if i == 0:
            moved += [*ranked[0][:-MOVERS], *ranked[1][:MOVERS]]
        elif i < last:
            moved += [*ranked[i][MOVERS:], *ranked[i + 1][:MOVERS]]
        else:
            moved += [*ranked[i][MOVERS:], *ranked[0][-MOVERS:]]
    here = set(present)
    queue = [p for p in moved if p in here]
    placed = set(queue)
    queue += [p for p in present if p not in placed]
    partners = {p: side for t in tables if t.partnership for side in t.sides for p in side}
    before: dict[tuple[Player, Player], int] = {}
    for past in (*earlier, previous_round):
        for table in past.tables:
            if table.partnership:
                for side in table.sides:
                    key = pair(side[0], side[1])
                    before[key] = before.get(key, 0) + 1
    sizes = table_sizes(len(queue))
    return Round(previous_round.number + 1, _cut(queue, sizes, partners, 1, before))


#: The three ways to split four players (by their places in the queue) into two pairs.
_PAIRINGS = (((0, 2), (1, 3)), ((0, 1), (2, 3)), ((0, 3), (1, 2)))


def _cut(
    queue: Sequence[Player],
    sizes: Sequence[int],
    partners: Mapping[Player, tuple[Player, ...]],
    head_keeps: int | None,
    before: Mapping[tuple[Player, Player], int] | None = None,
) -> tuple[Table, ...]:
    """Cut ``queue`` into tables of ``sizes``; at each table of 4 choose the partnerships:
    table ``head_keeps`` keeps as many of last round's partnerships as it can, every other
    table as few (``partners`` maps a player to last round's side), then as few of the
    partnerships counted in ``before`` as it can; ties go to the first pairing, partners
    opposite in queue order."""
    earlier = before or {}
    built = []
    start = 0
    for number, size in enumerate(sizes, start=1):
        players = queue[start : start + size]
        start += size
        if size != 4:
            built.append(cutthroat(number, players))
            continue

        def kept(pairing: tuple[tuple[int, int], ...], seated: Sequence[Player] = players) -> int:
            return sum(seated[b] in partners.get(seated[a], ()) for a, b in pairing)

        def again(pairing: tuple[tuple[int, int], ...], seated: Sequence[Player] = players) -> int:
            return sum(earlier.get(pair(seated[a], seated[b]), 0) for a, b in pairing)

        if number == head_keeps:
            best = max(_PAIRINGS, key=kept)
        else:
            best = min(_PAIRINGS, key=lambda pairing: (kept(pairing), again(pairing)))
        (a, c), (b, d) = best
        built.append(partnership(number, (players[a], players[c]), (players[b], players[d])))
    return tuple(built)
