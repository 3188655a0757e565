"""Benchmark the engine: score a 60-hand game, against the floor of a loop that only adds deltas.

Run: .venv/bin/python bench/engine_bench.py   (prints a table; not a test)
"""

from __future__ import annotations

import random
import statistics
import time

from scorekeeper import rules

HANDS = 60
RUNS = 2000


def sixty_hand_game(seed: int = 7) -> tuple[rules.Game, list[rules.Hand]]:
    """A four-player Auction Pitch game to 200 points, long enough for 60 hands."""
    rng = random.Random(seed)
    players = ["Ann", "Bob", "Cy", "Dee"]
    game = rules.Game.create("auction-pitch", players, house_rules={"target": 200})
    hands = []
    while len(hands) < HANDS:
        pitcher = rng.choice(players)
        hand = rules.Hand(
            pitcher=pitcher,
            bid=rng.randint(2, 4),
            points={
                "high": rng.choice(players),
                "low": rng.choice(players),
                "jack": rng.choice([*players, None]),
                "game": rng.choice([*players, None]),
            },
        )
        try:
            rules.score_game(game, [*hands, hand])
        except rules.RuleError:
            continue
        hands.append(hand)
    return game, hands


def timed(fn, runs: int) -> list[float]:  # type: ignore[no-untyped-def]
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return samples


def p99(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=100)[98]


def measure(runs: int = RUNS) -> tuple[list[float], list[float]]:
    """Time the engine and the floor, interleaved so both see the same noise: (engine, floor)."""
    game, hands = sixty_hand_game()
    result = rules.score_game(game, hands)
    deltas = [dict(h.delta) for h in result.hands]

    def floor() -> None:
        scores = dict.fromkeys(game.sides, 0)
        for delta in deltas:
            for side, d in delta.items():
                scores[side] += d

    engine: list[float] = []
    base: list[float] = []
    for _ in range(10):  # in slices: a burst of load on the machine hits both alike
        engine += timed(lambda: rules.score_game(game, hands), runs // 10)
        base += timed(floor, runs // 10)
    return engine, base


def main() -> list[tuple[str, float, float, str]]:
    engine, base = measure()
    rows = [
        (
            "engine: score a 60-hand game",
            statistics.median(engine),
            p99(engine),
            f"{HANDS / statistics.median(engine):,.0f} hands/s",
        ),
        (
            "floor: add the same deltas",
            statistics.median(base),
            p99(base),
            f"ratio {statistics.median(engine) / statistics.median(base):.0f}x",
        ),
    ]
    print(f"{'benchmark':<34} {'median':>10} {'p99':>10}  notes")
    for name, med, tail, note in rows:
        print(f"{name:<34} {med * 1e3:>8.3f}ms {tail * 1e3:>8.3f}ms  {note}")
    return rows


if __name__ == "__main__":
    main()
