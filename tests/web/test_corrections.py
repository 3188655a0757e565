"""Corrections: undo the last hand, edit an earlier one (the rest follows), delete a game."""

from __future__ import annotations

from typing import Any

import pytest

from .tables import (
    ap_hand,
    exported,
    flashes,
    game_count,
    hand_count,
    hand_form,
    import_game,
    page,
    record,
    taken,
    text,
    version_of,
)

PAIR = ["Ann", "Bob"]
MINUS = "\N{MINUS SIGN}"  # how the sheet prints a score in the hole
#: Bob makes 3; Ann makes 2; Bob makes 2 and goes out first at 7 (Ann has 5).
BOB_WINS = [
    ap_hand("Bob", 3, "Bob", "Bob", "Ann", "Bob"),
    ap_hand("Ann", 2, "Ann", "Ann", "Bob", "Bob"),
    ap_hand("Bob", 2, "Bob", "Bob", "Ann", "Ann"),
]


def edit(client: Any, game_id: int, number: int, **fields: Any) -> Any:
    if "version" not in fields:
        fields["version"] = version_of(client, game_id)
    return client.post(f"/games/{game_id}/hands/{number}/edit", data=hand_form(PAIR, **fields))


def undo(client: Any, game_id: int, version: int | None = None) -> Any:
    """Press Undo, then say yes on the page that asks (with another version, if given)."""
    asked = client.get(f"/games/{game_id}/undo")
    if asked.status_code != 200:
        return asked
    form = page(asked).submitted()
    if version is not None:
        form["version"] = str(version)
    return client.post(f"/games/{game_id}/undo", data=form)


# --- Undo -------------------------------------------------------------------------------------


def test_undo_takes_back_the_last_hand(client: Any, app: Any) -> None:
    game_id = import_game(client, record("auction-pitch", PAIR, BOB_WINS[:2]))
    response = undo(client, game_id)
    assert response.status_code == 302
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert flashes(html) == ["Hand 2 was undone."]
    assert hand_count(app, game_id) == 1
    assert exported(client, game_id)["hands"] == BOB_WINS[:1]
    assert "Bob deals hand 2" in text(html)


def test_undo_asks_first_naming_the_hand_it_removes_and_a_stray_tap_removes_nothing(
    client: Any, app: Any
) -> None:
    game_id = import_game(
        client,
        record(
            "auction-pitch", PAIR, [*BOB_WINS[:1], ap_hand("Bob", 3, "Ann", "Ann", "Ann", "Bob")]
        ),
    )
    asked = client.get(f"/games/{game_id}/undo")
    assert asked.status_code == 200
    words = text(asked.get_data(as_text=True))
    assert "Remove hand 2: Bob bid 3, set back?" in words
    assert "Yes, remove hand 2" in words and "No, keep it" in words
    # A post that does not name the hand (a stray tap on an old button) only asks again.
    stray = client.post(
        f"/games/{game_id}/undo", data={"version": str(version_of(client, game_id))}
    )
    assert stray.status_code == 200
    assert "Remove hand 2: Bob bid 3, set back?" in text(stray.get_data(as_text=True))
    assert hand_count(app, game_id) == 2
    # The game page offers Undo as a link to that question, not as a form that removes.
    game_page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert f'href="/games/{game_id}/undo"' in game_page
    assert f'action="/games/{game_id}/undo"' not in game_page


def test_a_yes_that_names_a_hand_no_longer_last_removes_nothing(client: Any, app: Any) -> None:
    game_id = import_game(client, record("auction-pitch", PAIR, BOB_WINS[:2]))
    form = page(client.get(f"/games/{game_id}/undo")).submitted()
    assert form["number"] == "2"
    form["number"] = "1"
    client.post(f"/games/{game_id}/undo", data=form)
    (message,) = flashes(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert message.startswith("The score sheet changed since this form was opened")
    assert hand_count(app, game_id) == 2


def test_undoing_the_winning_hand_reopens_the_game(client: Any) -> None:
    game_id = import_game(client, record("auction-pitch", PAIR, BOB_WINS))
    assert "Bob won!" in text(client.get(f"/games/{game_id}").get_data(as_text=True))
    undo(client, game_id)
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "won" not in text(html).replace("Who won the bid?", "")
    assert 'id="hand-form"' in html


def test_undo_with_no_hand_says_so(client: Any) -> None:
    game_id = import_game(client, record("auction-pitch", PAIR, []))
    undo(client, game_id)
    assert flashes(client.get(f"/games/{game_id}").get_data(as_text=True)) == [
        "There is no hand to undo."
    ]


def test_undo_from_a_stale_page_removes_nothing(client: Any, app: Any) -> None:
    game_id = import_game(client, record("auction-pitch", PAIR, BOB_WINS[:2]))
    stale = version_of(client, game_id) - 1
    undo(client, game_id, version=stale)
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    (message,) = flashes(html)
    assert message.startswith("The score sheet changed since this form was opened")
    assert hand_count(app, game_id) == 2


# --- Edit ------------------------------------------------------------------------------------


def test_editing_an_earlier_hand_reworks_every_later_score(client: Any) -> None:
    game_id = import_game(client, record("auction-pitch", PAIR, BOB_WINS[:2]))
    # Hand 1 becomes a set-back for Bob: he took only High.
    response = edit(
        client, game_id, 1, pitcher="Bob", bid=3, high="Bob", low="Ann", jack="Ann", game="Ann"
    )
    assert response.status_code == 302
    assert response.headers["Location"] == f"/games/{game_id}"
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert flashes(html) == ["Hand 1 corrected; every later score was worked out again."]
    sheet = text(html.split('id="sheet-title"', 1)[1])
    # Hand 1: Ann 3, Bob -3; hand 2 adds Ann 2 and Bob 2: Ann 5, Bob -1.
    # Under each score, the marks its side took: Ann Low, Jack and Game, Bob High; the bid
    # beside the pitcher's score (Bob's 3, then Ann's 2), then the result in words.
    # The hand corrected is marked so (✎) beside its number.
    assert f"1 ✎ Ann 3 L J G 3 {MINUS}3 H Bob · 3: set back 3" in sheet
    assert f"2 Bob 2 5 H L {MINUS}1 J G Ann · 2: made" in sheet


def test_editing_an_earlier_hand_can_change_the_winner(client: Any) -> None:
    game_id = import_game(client, record("auction-pitch", PAIR, BOB_WINS, stake="1"))
    assert "Bob won by making the bid" in text(
        client.get(f"/games/{game_id}").get_data(as_text=True)
    )
    # Bob was set back in hand 1: at hand 3 Ann counts out to 7 first.
    edit(client, game_id, 1, pitcher="Bob", bid=3, high="Bob", low="Ann", jack="Ann", game="Ann")
    words = text(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "Ann won!" in words
    assert "Ann won on the count-out at hand 3." in words
    # Bob ends at 1 with one set-back: 1 unit.
    assert "Bob Ann 1 1.00" in words
    assert client.get(f"/games/{game_id}.json").status_code == 200
    assert client.get("/").status_code == 200
    assert "won by Ann" in text(client.get("/").get_data(as_text=True))


def test_editing_the_winning_hand_can_remove_the_winner(client: Any) -> None:
    game_id = import_game(client, record("auction-pitch", PAIR, BOB_WINS))
    edit(client, game_id, 3, pitcher="Bob", bid=2, high="Bob", low="Ann", jack="Ann", game="Ann")
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    words = text(html)
    assert "Settling up" not in words
    assert 'id="hand-form"' in html
    assert "Hand 4" in words
    assert "won by" not in text(client.get("/").get_data(as_text=True))


def test_an_edit_that_would_end_the_game_before_later_hands_asks_first_and_changes_nothing(
    client: Any,
) -> None:
    # The whole question and its answers: tests/web/test_win_moves.py.
    game_id = import_game(client, record("auction-pitch", PAIR, BOB_WINS[:2]))
    before = exported(client, game_id)
    response = edit(
        client, game_id, 1, pitcher="Bob", bid=4, high="Bob", low="Bob", jack="Bob", game="Bob"
    )
    assert response.status_code == 409
    assert "Bob now wins at hand 1; hand 2 would be played after the win." in text(
        response.get_data(as_text=True)
    )
    assert exported(client, game_id) == before


def test_an_edit_with_a_missing_choice_is_refused_next_to_the_field(client: Any) -> None:
    game_id = import_game(client, record("auction-pitch", PAIR, BOB_WINS[:2]))
    before = exported(client, game_id)
    response = edit(client, game_id, 1, pitcher="Bob", bid=3, high="Bob", low="Ann", jack="Ann")
    assert response.status_code == 400
    assert page(response).errors == {"point_game": ["Choose who took Game."]}
    assert exported(client, game_id) == before


def test_an_edit_the_engine_refuses_shows_its_message_next_to_the_field(client: Any) -> None:
    players = ["Ann", "Bob", "Cy"]
    hands = [
        {
            "sale": "pitched",
            "pitcher": "Bob",
            "bid": 4,
            "points": {"high": "Bob", "low": "Ann", "jack": None, "game": "Cy"},
        }
    ]
    game_id = import_game(client, record("sell-out", players, hands))
    before = exported(client, game_id)
    response = client.post(
        f"/games/{game_id}/hands/1/edit",
        data={
            **hand_form(
                players,
                sale="sold",
                pitcher="Bob",
                bid=2,
                **taken("high low jack game", "Bob Ann - Cy"),
            ),
            "version": str(version_of(client, game_id)),
        },
    )
    assert response.status_code == 400
    assert page(response).errors["pitcher"] == [
        'hand 1: in a sold hand the buyer cannot be the seller "Bob"'
    ]
    assert exported(client, game_id) == before


def test_an_edit_from_a_stale_page_is_refused_with_409(client: Any) -> None:
    game_id = import_game(client, record("auction-pitch", PAIR, BOB_WINS[:2]))
    before = exported(client, game_id)
    response = edit(
        client,
        game_id,
        1,
        pitcher="Bob",
        bid=3,
        **taken("high low jack game", "Bob Ann Ann Ann"),
        version=version_of(client, game_id) - 1,
    )
    assert response.status_code == 409
    assert any(e.startswith("The score sheet changed") for e in page(response).form_errors)
    assert exported(client, game_id) == before


def test_a_passed_out_hand_can_be_edited_into_a_played_one(client: Any) -> None:
    players = ["Ann", "Bob", "Cy"]
    game_id = import_game(client, record("sell-out", players, [{"passed": True}]))
    parsed = page(client.get(f"/games/{game_id}/hands/1/edit"))
    assert parsed.checked("sale") is None
    response = client.post(
        f"/games/{game_id}/hands/1/edit",
        data={
            **hand_form(players, sale="pitched", high="Bob", low="Bob", jack="Bob", game="Bob"),
            "version": str(version_of(client, game_id)),
        },
    )
    assert response.status_code == 302
    assert exported(client, game_id)["hands"] == [
        {
            "sale": "pitched",
            "pitcher": "Bob",
            "bid": 4,
            "points": {"high": "Bob", "low": "Bob", "jack": "Bob", "game": "Bob"},
        }
    ]


# --- Delete -----------------------------------------------------------------------------------


def test_deleting_a_game_after_confirming_removes_it_and_its_hands(client: Any, app: Any) -> None:
    keep = import_game(client, record("auction-pitch", PAIR, BOB_WINS[:1]))
    game_id = import_game(client, record("auction-pitch", PAIR, BOB_WINS))
    version = page(client.get(f"/games/{game_id}/delete")).value("version")
    response = client.post(f"/games/{game_id}/delete", data={"version": version})
    assert response.status_code == 302
    assert response.headers["Location"] == "/"
    assert flashes(client.get("/").get_data(as_text=True)) == [f"Game {game_id} was deleted."]
    assert client.get(f"/games/{game_id}").status_code == 404
    assert game_count(app) == 1
    assert hand_count(app) == 1
    assert client.get(f"/games/{keep}").status_code == 200
    # The players stay on the roster.
    assert '<option value="Ann" dir="auto">' in client.get("/games/new/auction-pitch").get_data(
        as_text=True
    )


def test_the_game_page_only_links_to_the_confirmation_not_to_a_delete(client: Any) -> None:
    game_id = import_game(client, record("auction-pitch", PAIR, []))
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert f'href="/games/{game_id}/delete"' in html
    assert f'action="/games/{game_id}/delete"' not in html


def test_deleting_from_a_stale_confirmation_page_keeps_the_game(client: Any, app: Any) -> None:
    game_id = import_game(client, record("auction-pitch", PAIR, []))
    stale = version_of(client, game_id)
    client.post(f"/games/{game_id}", data={**hand_form(PAIR, **BOB_HAND), "version": str(stale)})
    response = client.post(f"/games/{game_id}/delete", data={"version": str(stale)})
    assert response.status_code == 302
    assert response.headers["Location"] == f"/games/{game_id}/delete"
    html = client.get(f"/games/{game_id}/delete").get_data(as_text=True)
    assert any(m.startswith("The score sheet changed") for m in flashes(html))
    assert game_count(app) == 1


BOB_HAND = {"pitcher": "Bob", "bid": 2, "high": "Bob", "low": "Bob", "jack": "Ann", "game": "Ann"}


@pytest.mark.parametrize("method", ["get", "post"])
def test_deleting_a_game_that_is_gone_is_a_404(client: Any, method: str) -> None:
    response = getattr(client, method)("/games/42/delete", data={"version": "1"})
    assert response.status_code == 404
