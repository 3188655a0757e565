"""Loading a list page's games at once gives each game exactly as loading it alone does."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event, update

from scorekeeper import operations, rules
from scorekeeper.data import models
from scorekeeper.data.database import write_transaction
from scorekeeper.data.extensions import db

from .tables import ap_hand, ap_two_hand_record, import_game, record

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def two_games(client: Any) -> tuple[int, int]:
    first = import_game(client, ap_two_hand_record())
    second = import_game(
        client,
        record(
            "auction-pitch", ["Eve", "Finn", "Gus"], [ap_hand("Gus", 2, "Gus", "Eve", None, "Gus")]
        ),
    )
    return first, second


def test_load_many_gives_each_game_as_load_does_and_leaves_out_missing_ids(
    app: Any, client: Any
) -> None:
    first, second = two_games(client)
    with app.app_context():
        alone = {game_id: operations.loading.load(game_id) for game_id in (first, second)}
        db.session.remove()
        app.extensions.pop("scorekeeper.replays")  # replayed again, not taken from load's
        together = operations.loading.load_many([second, 999_999, first])
        assert set(together) == {first, second}
        for game_id, loaded in together.items():
            assert isinstance(loaded, operations.rows.Loaded)
            assert loaded.row.id == game_id
            assert loaded.game == alone[game_id].game
            assert loaded.hands == alone[game_id].hands
            assert loaded.result.scores == alone[game_id].result.scores
            assert loaded.result.next_dealer == alone[game_id].result.next_dealer


def test_load_many_reads_all_the_games_in_three_queries(app: Any, client: Any) -> None:
    ids = [*two_games(client), *two_games(client)]
    with app.app_context():
        statements: list[str] = []

        def count(*args: Any) -> None:
            statements.append(args[2])

        event.listen(db.engine, "before_cursor_execute", count)
        try:
            loaded = operations.loading.load_many(ids)
            for game in loaded.values():
                assert isinstance(game, operations.rows.Loaded)
                assert game.result.hands  # the hands are there, not loaded one game at a time
        finally:
            event.remove(db.engine, "before_cursor_execute", count)
        selects = [s for s in statements if s.lstrip().upper().startswith("SELECT")]
        assert len(selects) == 3, selects


def test_load_many_maps_a_game_that_no_longer_replays_to_its_rule_error(
    app: Any, client: Any
) -> None:
    first, second = two_games(client)
    with app.app_context(), write_transaction():
        # A hand changed behind the app's back (a hand-edited database): bid above the maximum.
        db.session.execute(
            update(models.Hand)
            .where(models.Hand.game_id == first, models.Hand.number == 1)
            .values(bid=9)
        )
        loaded = operations.loading.load_many([first, second])
        assert isinstance(loaded[first], rules.RuleError)
        assert loaded[first].hand == 1
        assert isinstance(loaded[second], operations.rows.Loaded)


def test_a_list_reuses_the_replay_of_a_game_just_played_and_keeps_none_of_its_own(
    app: Any, client: Any
) -> None:
    first, second = two_games(client)
    with app.app_context():
        played = operations.loading.load(first)  # the game page of a game being played
        db.session.remove()
        hand_reads: list[list[int]] = []

        def seen(conn: Any, cursor: Any, statement: str, parameters: Any, *args: Any) -> None:
            if "FROM hand" in statement and "hand.pitcher_seat" in statement:
                values = parameters.values() if isinstance(parameters, dict) else parameters
                hand_reads.append(list(values))

        event.listen(db.engine, "before_cursor_execute", seen)
        try:
            together = operations.loading.load_many([first, second])
        finally:
            event.remove(db.engine, "before_cursor_execute", seen)
        assert hand_reads == [[second]]  # only the game not kept is read
        reused = together[first]
        assert isinstance(reused, operations.rows.Loaded) and reused.result is played.result
        assert isinstance(together[second], operations.rows.Loaded)
        key = operations.loading.Replays.key(together[second].row)  # type: ignore[union-attr]
        assert operations.loading.replays().get(key) is None  # a list keeps nothing
