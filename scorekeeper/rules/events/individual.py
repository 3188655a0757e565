"""Tables each for themselves (cutthroat, 2 to 4 a table, no partners), seated so that who
meets whom is spread over the rounds.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations

from ..errors import N_, Phrase
from .errors import EventError
from .tables import Player, Round, cutthroat, distinct, enough_players

PER_TABLE = (2, 3, 4)


def individual_sizes(count: int, per_table: int) -> tuple[tuple[int, ...], int]:
    """The table sizes for ``count`` players at most ``per_table`` a table, as even as the
    count allows and never below 2, and how many sit out (1 for an odd count at tables of
    2, else 0)."""
    if isinstance(per_table, bool) or per_table not in PER_TABLE:
        raise EventError("per-table", per_table=per_table)
    enough_players(count, 2, Phrase(N_("A table each for themselves")))
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
    drawn = distinct(players)
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


#: Sweeps of swaps between tables after the greedy seating, at most.
_MEETING_PASSES = 3


def _swap_apart(seated: list[list[Player]], met: Mapping[Player, Mapping[Player, int]]) -> None:
    """Swap two players of different tables while that lowers how often the seated meet
    again (the greedy seating can corner the last players): each sweep starts from those
    who sit with someone they met."""

    def cost(player: Player, table: Sequence[Player]) -> int:
        known = met[player]
        return sum(known.get(other, 0) for other in table if other != player)

    for _ in range(_MEETING_PASSES):
        better = False
        for t, here in enumerate(seated):
            for i in range(len(here)):
                p = here[i]
                now_p = cost(p, here)
                if now_p == 0:
                    continue
                for u, there in enumerate(seated):
                    if u == t:
                        continue
                    p_there = cost(p, there)
                    for j, q in enumerate(there):
                        gain = now_p + cost(q, there)
                        after = (p_there - met[p].get(q, 0)) + (cost(q, here) - met[q].get(p, 0))
                        if after < gain:
                            here[i], there[j] = q, p
                            better = True
                            break
                    if here[i] != p:
                        break
        if not better:
            return


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
    _swap_apart(seated, met)
    tables = tuple(cutthroat(i, group) for i, group in enumerate(seated, start=1))
    return Round(number, tables, tuple(sitting_out))
