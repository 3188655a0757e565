"""One way a hand comes in (games/receive.py): the game page's own post and the phone's JSON
door both receive a hand with ``receive_hand`` and only render what came of it. Each outcome,
through each door: saved, already saved, undone since, moved on (a conflict), the same as
the last hand, refused."""

from __future__ import annotations

from typing import Any

import pytest

from .tables import exported, flashes, hand_count, hand_form, opened, page, post_opened, text

PLAYERS = ["Ana", "Bogdan", "Cristi", "Dana"]
ANA_MAKES_3 = {"pitcher": "Ana", "bid": 3, "high": "Ana", "low": "Ana", "jack": None, "game": "Ana"}
#: Hand 1 as another phone tapped it: Jack to Dana, not to nobody.
JACK_TO_DANA = {**ANA_MAKES_3, "jack": "Dana"}
KEY_A = "phone-a-made-key-0001"
KEY_B = "phone-b-made-key-0002"


@pytest.fixture
def game_id(client: Any) -> int:
    from .tables import create_game

    return create_game(client, "auction-pitch", PLAYERS)


def by_page(client: Any, game_id: int, form: dict[str, str], **taps: Any) -> Any:
    """The page's own form posted (no script)."""
    return post_opened(client, game_id, PLAYERS, form, **taps)


def by_phone(client: Any, game_id: int, key: str, number: int, **taps: Any) -> Any:
    """The phone's script's post to the JSON door (a kept hand, or one sent at once)."""
    data = {**hand_form(PLAYERS, **taps), "token": key, "number": str(number), "save": "Save"}
    return client.post(f"/games/{game_id}/hands.json", data=data)


def page_said(client: Any, game_id: int) -> list[str]:
    return flashes(client.get(f"/games/{game_id}").get_data(as_text=True))


# --- saved ----------------------------------------------------------------------------------------


def test_saved_through_the_page_redirects_to_the_sentence(
    client: Any, app: Any, game_id: int
) -> None:
    response = by_page(client, game_id, opened(client, game_id), **ANA_MAKES_3)
    assert (response.status_code, response.headers["Location"]) == (
        302,
        f"/games/{game_id}#flashes",
    )
    assert page_said(client, game_id) == ["Ana made 3."]
    assert hand_count(app, game_id) == 1


def test_saved_through_the_json_door_says_the_hand(client: Any, app: Any, game_id: int) -> None:
    answer = by_phone(client, game_id, KEY_A, 1, **ANA_MAKES_3)
    assert (answer.status_code, answer.json) == (
        201,
        {"status": "saved", "number": 1, "said": "Ana made 3.", "finished": False},
    )
    # The phone says it itself, in place: nothing is left for the page it opens next.
    assert page_said(client, game_id) == []
    assert hand_count(app, game_id) == 1


# --- already saved --------------------------------------------------------------------------------


def test_already_saved_through_the_page_says_the_hand_it_saved(
    client: Any, app: Any, game_id: int
) -> None:
    form = opened(client, game_id)
    by_page(client, game_id, form, **ANA_MAKES_3)
    page_said(client, game_id)
    assert by_page(client, game_id, form, **ANA_MAKES_3).status_code == 302
    assert page_said(client, game_id) == ["Hand 1 was already saved: Ana made 3."]
    assert hand_count(app, game_id) == 1


def test_already_saved_through_the_json_door_says_the_hand_it_saved(
    client: Any, app: Any, game_id: int
) -> None:
    by_phone(client, game_id, KEY_A, 1, **ANA_MAKES_3)
    answer = by_phone(client, game_id, KEY_A, 1, **ANA_MAKES_3)
    assert (answer.status_code, answer.json["status"]) == (200, "already-saved")
    assert answer.json["said"] == "Hand 1 was already saved: Ana made 3."
    assert hand_count(app, game_id) == 1


# --- undone since ---------------------------------------------------------------------------------


def undo_hand_1(client: Any, game_id: int) -> None:
    form = page(client.get(f"/games/{game_id}/undo")).submitted()
    assert client.post(f"/games/{game_id}/undo", data=form).status_code == 302
    page_said(client, game_id)


def test_undone_through_the_page_says_so_and_saves_nothing(
    client: Any, app: Any, game_id: int
) -> None:
    form = opened(client, game_id)
    by_page(client, game_id, form, **ANA_MAKES_3)
    undo_hand_1(client, game_id)
    stale = {**form, "version": opened(client, game_id)["version"]}
    assert by_page(client, game_id, stale, **ANA_MAKES_3).status_code == 302
    assert page_said(client, game_id) == [
        "This form saved hand 1 before, and it was undone since; nothing was saved."
    ]
    assert hand_count(app, game_id) == 0


def test_undone_through_the_json_door_says_so_and_saves_nothing(
    client: Any, app: Any, game_id: int
) -> None:
    by_phone(client, game_id, KEY_A, 1, **ANA_MAKES_3)
    undo_hand_1(client, game_id)
    answer = by_phone(client, game_id, KEY_A, 1, **ANA_MAKES_3)
    assert (answer.status_code, answer.json["status"], answer.json["number"]) == (200, "undone", 1)
    assert hand_count(app, game_id) == 0


# --- moved on: another phone recorded the hand ----------------------------------------------------


def test_moved_on_through_the_page_shows_both_hands_and_keeps_the_taps(
    client: Any, app: Any, game_id: int
) -> None:
    mine = opened(client, game_id)
    by_phone(client, game_id, KEY_B, 1, **JACK_TO_DANA)
    response = by_page(client, game_id, mine, **ANA_MAKES_3)
    assert response.status_code == 409
    html = response.get_data(as_text=True)
    assert "Another phone recorded hand 1: Ana made 3." in text(html)
    assert 'class="differs"><th scope="row">Jack</th><td>Nobody</td><td>Dana' in html
    assert page(response).checked("point_jack") == "nobody"
    assert hand_count(app, game_id) == 1


def test_moved_on_through_the_json_door_says_both_hands_point_by_point(
    client: Any, app: Any, game_id: int
) -> None:
    by_phone(client, game_id, KEY_B, 1, **JACK_TO_DANA)
    answer = by_phone(client, game_id, KEY_A, 1, **ANA_MAKES_3)
    assert answer.status_code == 409
    body = answer.json
    assert (body["status"], body["number"], body["next"], body["finished"]) == (
        "conflict",
        1,
        2,
        False,
    )
    assert body["recorded"] == [{"number": 1, "said": "Ana made 3."}]
    compare = body["compare"]
    assert (compare["number"], compare["here"], compare["said"]) == (1, False, "Ana made 3.")
    assert compare["correct"] == f"/games/{game_id}/hands/1/edit"
    assert compare["rows"] == [
        {"label": "Who won the bid?", "mine": "Ana", "theirs": "Ana", "differs": False},
        {"label": "Bid", "mine": "3", "theirs": "3", "differs": False},
        {"label": "High", "mine": "Ana", "theirs": "Ana", "differs": False},
        {"label": "Low (holder)", "mine": "Ana", "theirs": "Ana", "differs": False},
        {"label": "Jack", "mine": "Nobody", "theirs": "Dana", "differs": True},
        {"label": "Game", "mine": "Ana", "theirs": "Ana", "differs": False},
    ]
    assert hand_count(app, game_id) == 1


# --- the same as the last hand --------------------------------------------------------------------


def test_the_same_as_the_last_through_the_page_asks_first(
    client: Any, app: Any, game_id: int
) -> None:
    by_page(client, game_id, opened(client, game_id), **ANA_MAKES_3)
    response = by_page(client, game_id, opened(client, game_id), **ANA_MAKES_3)
    assert response.status_code == 409
    assert "Same as hand 1 — record it again?" in text(response.get_data(as_text=True))
    assert hand_count(app, game_id) == 1


def test_the_same_as_the_last_through_the_json_door_asks_first(
    client: Any, app: Any, game_id: int
) -> None:
    by_phone(client, game_id, KEY_A, 1, **ANA_MAKES_3)
    answer = by_phone(client, game_id, KEY_B, 2, **ANA_MAKES_3)
    assert (answer.status_code, answer.json) == (
        409,
        {"status": "same", "number": 1, "said": "Ana made 3."},
    )
    assert hand_count(app, game_id) == 1


# --- refused --------------------------------------------------------------------------------------


def test_refused_through_the_page_says_why_next_to_the_row(
    client: Any, app: Any, game_id: int
) -> None:
    taps = {**ANA_MAKES_3, "low": "Zed"}
    response = by_page(client, game_id, opened(client, game_id), **taps)
    assert response.status_code == 400
    assert page(response).errors["point_low"] == [
        "'Zed' is not one of the choices for Low (holder)."
    ]
    assert hand_count(app, game_id) == 0


def test_refused_through_the_json_door_says_why(client: Any, app: Any, game_id: int) -> None:
    answer = by_phone(client, game_id, KEY_A, 1, **{**ANA_MAKES_3, "low": "Zed"})
    assert (answer.status_code, answer.json) == (
        400,
        {"status": "refused", "messages": ["'Zed' is not one of the choices for Low (holder)."]},
    )
    assert hand_count(app, game_id) == 0


@pytest.mark.parametrize("number", ["two", "-1", "٣", "99999999999"])
def test_a_hand_number_that_is_not_a_number_is_refused_alike_by_both_doors(
    client: Any, app: Any, game_id: int, number: str
) -> None:
    said = (
        "The hand number is not valid; nothing was saved. Reload the page and tap the hand in "
        "again."
    )
    form = {**opened(client, game_id), "number": number}
    response = by_page(client, game_id, form, **ANA_MAKES_3)
    assert (response.status_code, page(response).form_errors) == (400, [said])
    data = {**hand_form(PLAYERS, **ANA_MAKES_3), "token": KEY_A, "number": number}
    answer = client.post(f"/games/{game_id}/hands.json", data=data)
    assert (answer.status_code, answer.json["messages"]) == (400, [said])
    assert hand_count(app, game_id) == 0


# --- the table's choice after a conflict, through either door -------------------------------------


def test_it_is_the_next_hand_saves_the_taps_as_that_hand(client: Any, game_id: int) -> None:
    mine = opened(client, game_id)
    by_phone(client, game_id, KEY_B, 1, **JACK_TO_DANA)
    asked = page(by_page(client, game_id, mine, **ANA_MAKES_3)).submitted()
    assert client.post(f"/games/{game_id}", data={**asked, "as_number": "2"}).status_code == 302
    assert [h["points"]["jack"] for h in exported(client, game_id)["hands"]] == ["Dana", None]


def test_a_kept_hand_sent_as_the_next_hand_through_the_json_door_is_saved_as_it(
    client: Any, game_id: int
) -> None:
    by_phone(client, game_id, KEY_B, 1, **JACK_TO_DANA)
    assert by_phone(client, game_id, KEY_A, 1, **ANA_MAKES_3).status_code == 409
    assert by_phone(client, game_id, KEY_A, 2, **ANA_MAKES_3).json["status"] == "saved"
    assert [h["points"]["jack"] for h in exported(client, game_id)["hands"]] == ["Dana", None]


def test_correct_opens_the_correction_filled_in_with_this_hand_saving_nothing_yet(
    client: Any, game_id: int
) -> None:
    mine = opened(client, game_id)
    by_phone(client, game_id, KEY_B, 1, **JACK_TO_DANA)
    asked = page(by_page(client, game_id, mine, **ANA_MAKES_3)).submitted()
    review = client.post(f"/games/{game_id}/hands/1/edit", data={**asked, "correct": "1"})
    assert review.status_code == 200
    html = review.get_data(as_text=True)
    assert "Correct hand 1 to this phone’s hand?" in text(html)  # noqa: RUF001
    assert page(review).checked("point_jack") == "nobody"
    assert [h["points"]["jack"] for h in exported(client, game_id)["hands"]] == ["Dana"]
    # Saved from there: hand 1 is this phone's, and the kept key answers for it since.
    saved = client.post(f"/games/{game_id}/hands/1/edit", data=page(review).submitted())
    assert saved.status_code == 302
    assert [h["points"]["jack"] for h in exported(client, game_id)["hands"]] == [None]


def test_a_kept_hand_corrected_to_is_answered_as_saved_when_the_phone_sends_it_again(
    client: Any, game_id: int
) -> None:
    by_phone(client, game_id, KEY_B, 1, **JACK_TO_DANA)
    conflict = by_phone(client, game_id, KEY_A, 1, **ANA_MAKES_3).json
    # What the phone posts to the correction: the kept hand's fields and its key.
    kept = {**hand_form(PLAYERS, **ANA_MAKES_3), "token": KEY_A, "number": "1", "correct": "1"}
    review = client.post(conflict["compare"]["correct"], data=kept)
    assert (
        client.post(conflict["compare"]["correct"], data=page(review).submitted()).status_code
        == 302
    )
    again = by_phone(client, game_id, KEY_A, 1, **ANA_MAKES_3)
    assert (again.status_code, again.json["status"]) == (200, "already-saved")
    assert len(exported(client, game_id)["hands"]) == 1
