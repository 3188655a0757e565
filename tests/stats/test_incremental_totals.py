"""The players' totals move hand by hand, and always equal adding up every game again."""

from __future__ import annotations

import contextlib
import random
from typing import Any

from sqlalchemy import event, select

from scorekeeper import operations, rules
from scorekeeper.data import models
from scorekeeper.data.database import write_transaction
from scorekeeper.data.extensions import db
from scorekeeper.stats import cache

from .support import TOTALS, cache_and_replay

ROSTER = ["Ann", "Bob", "Cy", "Dee", "Eve", "Finn"]
#: The last is too large for whole cents in SQL: its totals are added as exact text.
STAKES = [None, "0.25", "1.10", "987654321098.75"]


def stored_totals() -> dict[int, dict[str, Any]]:
    return {
        stats.player_id: {name: getattr(stats, name) for name in TOTALS}
        for stats in db.session.execute(select(models.PlayerStats)).scalars()
    }


class Undone(Exception):
    """Raised to roll a write transaction back."""


def rebuilt_totals() -> dict[int, dict[str, Any]]:
    """Add up every player's totals again from all their rows, then undo that."""
    found: dict[int, dict[str, Any]] = {}
    with contextlib.suppress(Undone), write_transaction():
        cache.rebuild_all_players()
        db.session.flush()
        found.update(stored_totals())
        raise Undone
    return found


def random_hand(rng: random.Random, game: rules.Game, hands: list[rules.Hand]) -> rules.Hand:
    """A hand the engine accepts after ``hands`` (Auction Pitch), or a corrected earlier one."""
    while True:
        players = game.players
        hand = rules.Hand(
            pitcher=rng.choice(players),
            bid=rng.choice((2, 2, 3, 4)),
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
        return hand


def play(app: Any, rng: random.Random, steps: int) -> list[dict[int, dict[str, Any]]]:
    """Record, undo, correct and delete at random, through ``operations`` as the pages do.

    Every 10 steps the totals kept are checked against a full rebuild; return them.
    """
    checked = []
    with app.app_context():
        for step in range(steps):
            games = list(db.session.execute(select(models.Game.id)).scalars())
            choice = rng.random()
            if not games or choice < 0.08:
                seated = rng.sample(ROSTER, rng.choice((2, 3, 4)))
                stake = rng.choice(STAKES)
                operations.games.create_game(
                    rules.Game.create(
                        "auction-pitch", seated, house_rules={"target": 7}, stake=stake
                    )
                )
                continue
            game_id = rng.choice(games)
            loaded = operations.loading.load(game_id)
            version = loaded.row.version
            if choice < 0.12:
                operations.games.delete_game(game_id, version=version)
            elif choice < 0.3 and loaded.hands:
                operations.hands.undo_last_hand(game_id, version=version)
            elif choice < 0.5 and loaded.hands:
                number = rng.randrange(1, len(loaded.hands) + 1)
                earlier = list(loaded.hands[: number - 1])
                later = list(loaded.hands[number:])
                for _ in range(50):  # a correction the later hands still replay after
                    hand = random_hand(rng, loaded.game, earlier)
                    try:
                        rules.score_game(loaded.game, [*earlier, hand, *later])
                    except rules.RuleError:
                        continue
                    operations.hands.replace_hand(game_id, number, hand, version=version)
                    break
            elif not loaded.result.finished:
                hand = random_hand(rng, loaded.game, list(loaded.hands))
                operations.hands.record_hand(game_id, hand, version=version)
            if step % 10 == 0:
                checked.append(stored_totals())
                assert checked[-1] == rebuilt_totals(), f"after step {step}"
            db.session.remove()
    return checked


def test_totals_kept_up_hand_by_hand_equal_a_full_rebuild_after_many_changes(app: Any) -> None:
    checked = play(app, random.Random(7), 400)
    with app.app_context():
        assert stored_totals() == rebuilt_totals()
    # All of it happened on the way: games won, money won and lost, and a total too
    # large for whole cents.
    totals = [t for kept in checked for t in kept.values()]
    assert any(t["won"] for t in totals)
    assert any(t["money"] not in (None, "0.00") for t in totals)
    assert any(t["money"] is not None and t["cents"] is None for t in totals)
    cached, fresh = cache_and_replay(app)
    assert cached == fresh


def test_recording_a_hand_does_not_add_up_the_players_games_again(app: Any) -> None:
    with app.app_context():
        game = rules.Game.create("auction-pitch", ["Ann", "Bob", "Cy"], stake="0.25")
        game_id = operations.games.create_game(game)
        hand = rules.Hand(
            pitcher="Ann", bid=2, points={"high": "Ann", "low": "Bob", "jack": None, "game": "Ann"}
        )
        statements: list[str] = []

        def seen(*args: Any) -> None:
            statements.append(args[2])

        event.listen(db.engine, "before_cursor_execute", seen)
        try:
            operations.hands.record_hand(
                game_id, hand, version=operations.loading.load(game_id).row.version
            )
        finally:
            event.remove(db.engine, "before_cursor_execute", seen)
        db.session.remove()
    assert any(s.lstrip().upper().startswith("UPDATE PLAYER_STATS") for s in statements)
    assert not [s for s in statements if "GROUP BY" in s.upper()], statements
    cached, fresh = cache_and_replay(app)
    assert cached == fresh
    assert cached[("totals", "Ann")]["bids"] == 1
