"""The statistics cache: after every kind of write it equals a fresh replay of every game."""

from __future__ import annotations

import threading
from typing import Any

import builders

from scorekeeper import operations, rules
from scorekeeper.data import models
from scorekeeper.data.extensions import db
from scorekeeper.stats import queries

from .fixed_games import ALL, ap, record
from .support import ap_form, cache_and_replay, import_game, player_id, version_of

PLAYERS = ["Ann", "Bob", "Cy"]


def assert_cache_fresh(app: Any) -> None:
    cached, fresh = cache_and_replay(app)
    assert cached == fresh


def post_hand(client: Any, game: int, *hand: Any) -> None:
    """Post an Auction Pitch hand (as ``ap`` takes it) and see it saved."""
    assert builders.post_ap_hand(client, game, PLAYERS, *hand).status_code == 302


def won(app: Any, name: str) -> int:
    with app.app_context():
        return queries.player_totals(player_id(app, name)).won


def test_the_cache_follows_every_recorded_hand(client: Any, app: Any) -> None:
    game = import_game(client, record("auction-pitch", PLAYERS, [], stake="0.10"))
    assert_cache_fresh(app)  # a new game has its rows before any hand
    post_hand(client, game, "Bob", 3, "Bob", "Bob", "Ann", "Bob")
    assert_cache_fresh(app)
    post_hand(client, game, "Cy", 2, "Ann", "Bob", None, "Ann")
    assert_cache_fresh(app)
    post_hand(client, game, "Ann", 4, "Ann", "Ann", "Ann", "Ann")  # the smudge wins
    assert_cache_fresh(app)
    assert won(app, "Ann") == 1


def test_editing_a_hand_moves_the_win_and_the_money_to_the_new_winner(
    client: Any, app: Any
) -> None:
    game = import_game(
        client,
        record(
            "auction-pitch",
            PLAYERS,
            [
                ap("Bob", 3, "Bob", "Bob", "Ann", "Bob"),
                ap("Cy", 2, "Ann", "Bob", None, "Ann"),
                ap("Ann", 4, "Ann", "Ann", "Ann", "Ann"),
            ],
            stake="0.25",
        ),
    )
    assert (won(app, "Ann"), won(app, "Bob")) == (1, 0)
    # Hand 3 was really Bob's: he bid 4 and took everything, from 4: 8, out.
    response = client.post(
        f"/games/{game}/hands/3/edit",
        data=ap_form(PLAYERS, "Bob", 4, "Bob", "Bob", "Bob", "Bob", version_of(client, game)),
    )
    assert response.status_code == 302
    assert (won(app, "Ann"), won(app, "Bob")) == (0, 1)
    assert_cache_fresh(app)


def test_undoing_the_winning_hand_reopens_the_game_in_the_statistics(client: Any, app: Any) -> None:
    game = import_game(
        client,
        record("auction-pitch", PLAYERS, [ap("Ann", 4, "Ann", "Ann", "Ann", "Ann")], stake="1"),
    )
    assert won(app, "Ann") == 1
    response = client.post(
        f"/games/{game}/undo", data={"version": version_of(client, game), "number": "1"}
    )
    assert response.status_code == 302
    assert won(app, "Ann") == 0
    with app.app_context():
        totals = queries.player_totals(player_id(app, "Ann"))
    assert (totals.games, totals.in_progress, totals.units, totals.money) == (0, 1, 0, None)
    assert_cache_fresh(app)


def test_deleting_a_game_takes_it_out_of_every_statistic(client: Any, app: Any) -> None:
    for game in ALL:
        import_game(client, game)
    response = client.post("/games/1/delete", data={"version": version_of(client, 1)})
    assert response.status_code == 302
    assert_cache_fresh(app)
    with app.app_context():
        ann = queries.player_totals(player_id(app, "Ann"))
    assert (ann.games, ann.won, ann.units) == (3, 2, 3)  # game A (+3 units, won) is gone


def test_games_saved_at_once_that_share_players_both_count_in_their_totals(app: Any) -> None:
    """On PostgreSQL, the players' rows are locked while their totals are added up again."""
    with app.app_context():
        games = [
            operations.games.create_game(rules.Game.create("auction-pitch", ["Ann", "Bob", name]))
            for name in ("Cy", "Dee", "Earl", "Fay")
        ]
        db.session.remove()
    barrier = threading.Barrier(len(games))
    failures: list[BaseException] = []

    def play(game_id: int) -> None:
        try:
            with app.app_context():
                barrier.wait()
                for _ in range(4):
                    version = db.session.get(models.Game, game_id).version
                    hand = rules.Hand(
                        pitcher="Ann",
                        bid=2,
                        points={"high": "Ann", "low": "Ann", "jack": None, "game": "Bob"},
                    )
                    operations.hands.record_hand(game_id, hand, version=version)
                db.session.remove()
        except BaseException as error:  # reported below, in the test's thread
            failures.append(error)

    threads = [threading.Thread(target=play, args=(g,)) for g in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert failures == []
    cached, fresh = cache_and_replay(app)
    assert cached == fresh
    assert cached[("totals", "Ann")]["bids"] == 16
