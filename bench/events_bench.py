"""Benchmark the events engine: seating a hall of 400 players, and its standings.

Run: .venv/bin/python bench/events_bench.py   (prints a table; not a test; ``make bench``
runs it too, as its "events" part)

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


def timed(fn: Callable[[], object], runs: int = RUNS) -> list[float]:
    """``runs`` calls' durations, in seconds."""
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return samples


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


def measure() -> list[tuple[str, list[float], float]]:
    """Each measure: what, its samples in seconds, and the median it is held under."""
    rng = random.Random(1)
    players = list(range(1, PLAYERS + 1))
    first = progressive_first(players, 7)
    results = random_results(first, rng)
    came_and_went = [*players[3:], PLAYERS + 1]
    schedule = round_robin(players, 4, 1)
    played: list[Round] = [individual_tables(players, 4, 1, 3)]
    for number in range(2, 6):
        played.append(individual_tables(players, 4, number, 3, previous=played))
    games: list[GameScore] = []
    now = first
    for _ in range(5):
        res = random_results(now, rng)
        games += games_of(now, res, rng)
        now = progressive_next(now, res, players)
    return [
        ("progressive round 1, 400 players", timed(lambda: progressive_first(players, 7)), 0.05),
        (
            "progressive next round, 400 players",
            timed(lambda: progressive_next(first, results, players)),
            0.05,
        ),
        (
            "progressive next, 3 withdrawn and 1 arrived",
            timed(lambda: progressive_next(first, results, came_and_went)),
            0.05,
        ),
        (
            "rotating partners, 16 players x 5 rounds",
            timed(lambda: round_robin(players[:16], 5, 1)),
            0.1,
        ),
        (
            "rotating partners, 400 players x 5 rounds",
            timed(lambda: round_robin(players, 5, 1), 3),
            0.5,
        ),
        (
            "rotating partners, round 5 of 400 after 3 left and 1 came",
            timed(lambda: round_robin_next(schedule, came_and_went, 1), 5),
            0.2,
        ),
        (
            "individual tables, round 6 of 400 from the rounds played",
            timed(lambda: individual_tables(players, 4, 6, 3, previous=played), 5),
            0.2,
        ),
        (
            "standings, 400 players x 5 rounds",
            timed(lambda: standings(games, order=POINTS_FIRST_ORDER), 5),
            0.2,
        ),
    ]


def main() -> None:
    rows = measure()
    width = max(len(name) for name, _, _ in rows)
    print(f"{'events engine':<{width}}  {'median ms':>10}  {'worst ms':>9}  {'goal ms':>8}")
    for name, samples, goal in rows:
        median, worst = statistics.median(samples) * 1000, max(samples) * 1000
        print(f"{name:<{width}}  {median:>10.2f}  {worst:>9.2f}  {goal * 1000:>8.0f}")


if __name__ == "__main__":
    main()
