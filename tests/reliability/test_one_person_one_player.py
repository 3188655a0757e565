"""One person is one player: two spellings of a name sent at the same moment, against a served
app, end with one player on the roster and the other request told so in words."""

from __future__ import annotations

import threading
import time
from functools import partial
from typing import Any

import psycopg
import pytest
from sqlalchemy import select

from scorekeeper import operations, rules
from scorekeeper.data import models
from scorekeeper.data.extensions import db
from scorekeeper.rules.game import name_key

from .conftest import at_once
from .test_change_after_a_wait import _waiting_for_a_lock

ROUNDS = 10

SETUP = {
    "name_1": "Bob",
    "first_dealer": "0",
    "target": "11",
    "low_to": "holder",
    "smudge": "not-in-hole",
    "all_pass": "dealer-takes",
    "payout_in_hole": "2",
    "payout_per_setback": "0",
}


def _players_named(app: Any, name: str) -> list[tuple[int, str]]:
    """Every player whose name is a spelling of ``name``."""
    with app.app_context():
        found = [
            (player_id, spelled)
            for player_id, spelled in db.session.execute(
                select(models.Player.id, models.Player.name)
            )
            if name_key(spelled) == name_key(name)
        ]
        db.session.remove()
    return found


def _merging(other: int) -> dict[str, str]:
    """The merge form, confirmed, for merging player ``other`` into the page's player."""
    return {"merge-other": str(other), "merge-confirm": "y"}


def _new_players(app: Any, *names: str) -> list[int]:
    with app.app_context():
        game_id = operations.games.create_game(rules.Game.create("auction-pitch", names))
        ids = list(
            db.session.execute(
                select(models.Seat.player_id)
                .where(models.Seat.game_id == game_id)
                .order_by(models.Seat.position)
            ).scalars()
        )
        db.session.remove()
    return ids


def test_two_players_renamed_at_once_to_two_spellings_of_one_name_leave_one_refused_in_words(
    app: Any, served: Any
) -> None:
    # On PostgreSQL both renames were saved (10 rounds of 10): one person was two players.
    for round_number in range(ROUNDS):
        first, second = _new_players(app, f"P{round_number}a", f"P{round_number}b")
        upper, lower = f"Xy{round_number}", f"xy{round_number}"
        answers = at_once(
            partial(served.post, f"/players/{first}/rename", {"rename-name": upper}),
            partial(served.post, f"/players/{second}/rename", {"rename-name": lower}),
        )
        assert sorted(status for status, _, _ in answers) == [302, 400], [a[:2] for a in answers]
        refused = next(body for status, _, body in answers if status == 400)
        assert "is already on the roster; if they are the same person, merge them" in refused
        assert len(_players_named(app, upper)) == 1


def test_two_games_set_up_at_once_with_a_new_name_in_two_spellings_seat_one_player(
    app: Any, served: Any
) -> None:
    # Both spellings joined the roster (SQLite 10 of 10 rounds, PostgreSQL 2 of 10).
    for round_number in range(ROUNDS):
        upper, lower = f"NnX{round_number}", f"nnX{round_number}"
        answers = at_once(
            partial(served.post, "/games/new/auction-pitch", {**SETUP, "name_0": upper}),
            partial(served.post, "/games/new/auction-pitch", {**SETUP, "name_0": lower}),
        )
        assert [status for status, _, _ in answers] == [302, 302], [a[:2] for a in answers]
        (player,) = _players_named(app, upper)
        games = [int(location.rsplit("/", 1)[1]) for _, location, _ in answers]
        with app.app_context():
            seated = db.session.execute(
                select(models.Seat.player_id).where(
                    models.Seat.game_id.in_(games), models.Seat.position == 0
                )
            ).scalars()
            assert set(seated) == {player[0]}
            db.session.remove()


def test_two_spellings_of_one_player_merged_into_each_other_at_once_answer_409_in_words(
    app: Any, served: Any
) -> None:
    # On PostgreSQL the second merge moved seats to the player the first had just deleted:
    # a foreign-key violation, answered 500 (6 of 20).
    for round_number in range(ROUNDS):
        # Two players who never sat at one game.
        one = _new_players(app, f"M{round_number}a", f"M{round_number}c")[0]
        other = _new_players(app, f"Z{round_number}b", f"Z{round_number}d")[0]
        answers = at_once(
            partial(served.post, f"/players/{one}/merge", _merging(other)),
            partial(served.post, f"/players/{other}/merge", _merging(one)),
        )
        statuses = sorted(status for status, _, _ in answers)
        refused = next((body for status, _, body in answers if status != 302), "")
        # Crossed inside the database: 409. Read after the first had merged: that player is
        # no choice any more (400), or the page itself is gone (404). Each says so.
        said = {
            409: "at the same moment (on another phone or page), so nothing was merged",
            400: "Not a valid choice",
            404: "They may have been merged into another",
        }
        assert statuses[0] == 302 and statuses[1] in said, [a[:2] for a in answers]
        assert said[statuses[1]] in refused
        with app.app_context():
            left = db.session.execute(
                select(models.Player.id).where(models.Player.id.in_([one, other]))
            ).scalars()
            assert len(list(left)) == 1
            db.session.remove()


def test_two_merges_crossed_inside_the_database_answer_one_merge_and_one_409_in_words(
    app: Any, served: Any, database_url: str
) -> None:
    """Both merges pass their page's checks, then wait for the two players' rows (held here):
    the one that goes second finds its other player merged away."""
    if database_url.startswith("sqlite"):
        pytest.skip("SQLite's writers queue before they read: a merge never waits on a row")
    one = _new_players(app, "Crossed A", "Crossed C")[0]
    other = _new_players(app, "Crossed B", "Crossed D")[0]
    with app.app_context():
        url = db.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
    holder = psycopg.connect(url)
    holder.execute("SELECT id FROM player WHERE id IN (%s, %s) FOR UPDATE", (one, other))
    answers: list[Any] = []

    def merges() -> None:
        answers.extend(
            at_once(
                partial(served.post, f"/players/{one}/merge", _merging(other)),
                partial(served.post, f"/players/{other}/merge", _merging(one)),
            )
        )

    crossing = threading.Thread(target=merges)
    with psycopg.connect(url, autocommit=True) as watcher:
        crossing.start()
        deadline = time.monotonic() + 30
        while _waiting_for_a_lock(watcher) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert _waiting_for_a_lock(watcher) == 2, "the merges never both waited for the players"
    holder.commit()
    holder.close()
    crossing.join(timeout=60)
    assert sorted(status for status, _, _ in answers) == [302, 409], [a[:2] for a in answers]
    refused = next(body for status, _, body in answers if status == 409)
    assert "was merged with another player at the same moment" in refused
    assert len(_players_named(app, "Crossed A") + _players_named(app, "Crossed B")) == 1
