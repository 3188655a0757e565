"""A correction that makes the game end earlier: the hands after the new winning hand would be
played after the win. The table is asked, with those hands named; yes removes them with the
correction in one write, no changes nothing (operations.hands.replace_hand's cut_after)."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper import operations, rules

from .tables import ap_hand, hand_form, import_game, record, version_of

FOUR = ["Ana", "Bogdan", "Cristi", "Dana"]
#: To 7: Ana makes 3 in hands 1 and 2 (6); Bogdan makes 2 in hand 3 (2); Cristi makes 2 in
#: hand 4; Ana is set back in hand 5 (3); hand 6: Ana makes 4 (7) and wins.
HANDS = [
    ap_hand("Ana", 3, "Ana", "Ana", None, "Ana"),
    ap_hand("Ana", 3, "Ana", "Ana", None, "Ana"),
    ap_hand("Bogdan", 2, "Bogdan", "Bogdan", None, "Cristi"),
    ap_hand("Cristi", 2, "Cristi", "Cristi", None, "Dana"),
    ap_hand("Ana", 3, "Ana", "Bogdan", None, "Cristi"),
    ap_hand("Ana", 4, "Ana", "Ana", "Ana", "Ana"),
]
#: Hand 3 corrected: Ana took Jack too, her seventh point; she wins at hand 3.
ANA_TAKES_JACK = {
    "pitcher": "Bogdan",
    "bid": 2,
    "high": "Bogdan",
    "low": "Bogdan",
    "jack": "Ana",
    "game": "Ana",
}


@pytest.fixture
def game_id(client: Any) -> int:
    return import_game(client, record("auction-pitch", FOUR, HANDS))


def correct(client: Any, game_id: int, number: int, **extra: str) -> Any:
    data = {**hand_form(FOUR, **ANA_TAKES_JACK), "version": str(version_of(client, game_id))}
    return client.post(f"/games/{game_id}/hands/{number}/edit", data={**data, **extra})


def test_the_game_is_won_as_recorded(client: Any, game_id: int) -> None:
    scored = client.get(f"/games/{game_id}.json").get_json()
    assert len(scored["hands"]) == 6


def test_the_operation_says_the_new_winning_hand_and_the_hands_after_it_and_writes_nothing(
    app: Any, game_id: int
) -> None:
    with app.app_context():
        loaded = operations.loading.load(game_id)
        hand = rules.Hand(
            pitcher="Bogdan",
            bid=2,
            points={"high": "Bogdan", "low": "Bogdan", "jack": "Ana", "game": "Ana"},
        )
        with pytest.raises(operations.errors.WinMoves) as moves:
            operations.hands.replace_hand(game_id, 3, hand, version=loaded.row.version)
        assert (moves.value.winner, moves.value.won_at, moves.value.removed) == (
            "Ana",
            3,
            (4, 5, 6),
        )
        assert operations.errors.message(moves.value) == (
            "Ana now wins at hand 3; hands 4, 5, 6 would be played after the win."
        )
        assert len(operations.loading.load(game_id).hands) == 6
        # Said yes for another hand (the game moved meanwhile): asked again, nothing written.
        with pytest.raises(operations.errors.WinMoves):
            operations.hands.replace_hand(game_id, 3, hand, version=loaded.row.version, cut_after=4)
        result = operations.hands.replace_hand(
            game_id, 3, hand, version=loaded.row.version, cut_after=3
        )
        assert (result.winner, result.winning_hand, len(result.hands)) == ("Ana", 3, 3)
        assert len(operations.loading.load(game_id).hands) == 3
