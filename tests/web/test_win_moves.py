"""A correction that makes the game end earlier: the hands after the new winning hand would be
played after the win. The table is asked, with those hands named; yes removes them with the
correction in one write, no changes nothing (operations.hands.replace_hand's cut_after)."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper import operations, rules

from .tables import ap_hand, exported, hand_form, import_game, page, record, text, version_of

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


def test_the_correction_page_names_the_new_winner_and_lists_the_hands_it_would_remove(
    client: Any, game_id: int
) -> None:
    before = exported(client, game_id)
    response = correct(client, game_id, 3)
    assert response.status_code == 409
    html = response.get_data(as_text=True)
    asked = text(html.split('id="win-moves"', 1)[1].split("</section>", 1)[0])
    assert "Ana now wins at hand 3; hands 4, 5, 6 would be played after the win." in asked
    assert "Remove these hands and save the correction?" in asked
    assert "Hand 4: Cristi bid 2, made it" in asked
    assert "Hand 5: Ana bid 3, set back" in asked
    assert "Hand 6: Ana bid 4, made it" in asked
    assert 'name="cut_after" value="3"' in html
    # The taps stay on the form, to say yes with.
    assert page(response).checked("point_jack") == "0"
    assert exported(client, game_id) == before


def test_yes_corrects_the_hand_and_removes_the_later_ones_leaving_the_game_won_there(
    client: Any, game_id: int
) -> None:
    asked = page(correct(client, game_id, 3))
    response = client.post(
        f"/games/{game_id}/hands/3/edit", data={**asked.submitted(), "cut_after": "3"}
    )
    assert response.status_code == 302
    record_after = client.get(f"/games/{game_id}.json").get_json()
    assert [h["points"]["jack"] for h in record_after["hands"]] == [None, None, "Ana"]
    words = text(client.get(f"/games/{game_id}").get_data(as_text=True))
    # Worked by hand: Ana 3 + 3 + Jack and Game = 8 at hand 3; Bogdan made 2; Cristi and Dana
    # 0. A loser at 1 or more pays 1 unit, at 0 or less 2 (RULES.md section 8).
    assert "Ana won on the count-out at hand 3." in words
    assert "Final scores Ana: 8 Bogdan: 2 Cristi: 0 Dana: 0" in words
    assert "Bogdan Ana 1 Cristi Ana 2 Dana Ana 2" in words


def test_no_changes_nothing(client: Any, game_id: int) -> None:
    before = exported(client, game_id)
    html = correct(client, game_id, 3).get_data(as_text=True)
    assert f'href="/games/{game_id}/hands/3/edit">No, change nothing</a>' in html
    assert client.get(f"/games/{game_id}/hands/3/edit").status_code == 200
    assert exported(client, game_id) == before


def test_a_correction_that_reopens_a_finished_game_goes_through_as_before(
    client: Any, game_id: int
) -> None:
    # Hand 6 becomes a set-back: Ana no longer reaches 7; the game is played on.
    data = {
        **hand_form(FOUR, pitcher="Ana", bid=4, high="Bogdan", low="Ana", jack=None, game="Ana"),
        "version": str(version_of(client, game_id)),
    }
    assert client.post(f"/games/{game_id}/hands/6/edit", data=data).status_code == 302
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert 'id="hand-form"' in html
    assert "Hand 7" in text(html)
