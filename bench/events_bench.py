"""Benchmark the events engine: seating a hall of 400 players, and its standings.

Run: .venv/bin/python bench/events_bench.py   (prints a table; not a test)

The director's "start the next round" for 400 players must be well under 2 s with the
web side's 100 games created, so the engine's part should be tens of milliseconds.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from scorekeeper.rules.events import (
    POINTS_FIRST_ORDER,
    GameScore,
    Round,
    individual_tables,
    progressive_first,
    progressive_next,
    round_robin,
    round_robin_next,
    standings,
)

PLAYERS = 400
RUNS = 20


def timed(fn: Callable[[], object], runs: int = RUNS) -> tuple[float, float]:
    """Median and worst of ``runs`` calls, in milliseconds."""
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples), max(samples)


def random_results(round_: Round, rng: random.Random) -> dict[int, tuple[int, ...]]:
    results: dict[int, tuple[int, ...]] = {}
    for table in round_.tables:
        if table.partnership:
            results[table.number] = rng.choice(table.sides)
        else:
            results[table.number] = tuple(rng.sample(table.players, len(table.players)))
    return results


def games_of(
    round_: Round, results: dict[int, tuple[int, ...]], rng: random.Random
) -> list[GameScore]:
    games = []
    for table in round_.tables:
        winners = set(results[table.number][:2])
        for player in table.players:
            won = player in winners
            games.append(
                GameScore(round_.number, player, won, rng.randint(-5, 21), rng.randint(0, 21))
            )
    return games


def main() -> None:
    rng = random.Random(1)
    players = list(range(1, PLAYERS + 1))
    rows = []
    rows.append(("progressive round 1, 400 players", *timed(lambda: progressive_first(players, 7))))
    first = progressive_first(players, 7)
    results = random_results(first, rng)
    rows.append(
        (
            "progressive next round, 400 players",
            *timed(lambda: progressive_next(first, results, players)),
        )
    )
    fewer = [*players[:-3], PLAYERS + 1]
    rows.append(
        (
            "progressive next, 3 withdrawn and 1 arrived",
            *timed(lambda: progressive_next(first, results, fewer)),
        )
    )
    rows.append(
        ("round robin, 16 players x 5 rounds", *timed(lambda: round_robin(players[:16], 5, 1)))
    )
    rows.append(
        ("round robin, 40 players x 8 rounds", *timed(lambda: round_robin(players[:40], 8, 1), 5))
    )
    rows.append(
        ("round robin, 400 players x 5 rounds", *timed(lambda: round_robin(players, 5, 1), 3))
    )
    rows.append(
        (
            "round robin, 402 players x 5 rounds",
            *timed(lambda: round_robin([*players, 401, 402], 5, 1), 3),
        )
    )
    schedule = round_robin(players, 4, 1)
    came_and_went = [*players[2:], PLAYERS + 1]
    rows.append(
        (
            "rotating partners, round 5 of 400 after 2 left and 1 came",
            *timed(lambda: round_robin_next(schedule, came_and_went, 1), 5),
        )
    )
    played: list[Round] = [individual_tables(players, 4, 1, 3)]
    for number in range(2, 6):
        played.append(individual_tables(players, 4, number, 3, previous=played))
    rows.append(
        (
            "individual tables round 6 of 400, from the rounds played",
            *timed(lambda: individual_tables(players, 4, 6, 3, previous=played), 5),
        )
    )
    games: list[GameScore] = []
    now = first
    for _ in range(5):
        res = random_results(now, rng)
        games += games_of(now, res, rng)
        now = progressive_next(now, res, players)
    rows.append(
        (
            "standings, 400 players x 5 rounds",
            *timed(lambda: standings(games, order=POINTS_FIRST_ORDER), 5),
        )
    )
    width = max(len(name) for name, _, _ in rows)
    print(f"{'events engine':<{width}}  {'median ms':>10}  {'worst ms':>9}")
    for name, median, worst in rows:
        print(f"{name:<{width}}  {median:>10.2f}  {worst:>9.2f}")


if __name__ == "__main__":
    main()
