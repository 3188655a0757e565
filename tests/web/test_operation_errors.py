"""The data layer's one error style: a code and its parameters, said where it is shown."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper import operations, rules
from scorekeeper.i18n import use_locale


def test_an_operation_error_carries_a_code_and_parameters_and_no_sentence() -> None:
    error = operations.errors.NotFound(id=7)
    assert (error.code, error.params, str(error)) == ("no-game", {"id": 7}, "no-game")
    assert operations.errors.Conflict().code == operations.errors.Conflict.STALE
    for code in ("busy", "stale", "no-game", "no-night", "no-player", "name-taken"):
        assert code in operations.errors.MESSAGES


def test_an_operation_error_is_said_in_the_readers_language_and_in_english_for_json() -> None:
    with use_locale("ro"):
        assert (
            operations.errors.explain(operations.errors.NotFound(id=7))
            == "Nu există partida cu numărul 7."
        )
        busy = operations.errors.Conflict(operations.errors.Conflict.BUSY)
        assert operations.errors.message(busy) == (
            "Someone else saved a change at the same moment; try again."
        )
        assert operations.errors.explain(busy).startswith("Altcineva a salvat")


def test_a_merge_refused_for_a_shared_game_is_counted_in_words() -> None:
    one = operations.errors.RosterError("shared-games", num=1, keep="Ann", other="Bob", games="4")
    two = operations.errors.RosterError(
        "shared-games", num=2, keep="Ann", other="Bob", games="4, 5"
    )
    assert operations.errors.message(one) == (
        "Ann and Bob both sat at game 4, so they are two people; nothing was merged"
    )
    assert operations.errors.message(two).startswith("Ann and Bob both sat at games 4, 5,")


def test_the_write_layer_raises_codes_that_name_what_is_missing(app: Any) -> None:
    with app.app_context():
        game_id = operations.games.create_game(rules.Game.create("auction-pitch", ["A", "B", "C"]))
        with pytest.raises(operations.errors.NotFound) as no_hand:
            operations.hands.undo_last_hand(game_id, version=None)
        assert no_hand.value.code == "no-hand-to-undo"
        with pytest.raises(operations.errors.NotFound) as no_game:
            operations.loading.load(game_id + 1)
        assert (no_game.value.code, no_game.value.params) == ("no-game", {"id": game_id + 1})
        with pytest.raises(operations.errors.Conflict) as stale:
            operations.games.delete_game(game_id, version=5)
        assert stale.value.code == operations.errors.Conflict.STALE
