"""Hands sent by a phone's script (kept on the phone while offline): /games/<id>/hands.json.

The same form and the same ``record_hand`` as the page's own post; the answer says in JSON
what happened: saved, already saved (the hand, in words), a conflict (the hands recorded
meanwhile, in words), the same as the last hand, or refused (why).
"""

from __future__ import annotations

from typing import Any

import pytest

from .tables import create_game, exported, hand_count, hand_form, page

PLAYERS = ["Ana", "Bogdan", "Cristi", "Dana"]
ANA_MAKES_3 = {"pitcher": "Ana", "bid": 3, "high": "Ana", "low": "Ana", "jack": None, "game": "Ana"}
BOGDAN_SET = {
    "pitcher": "Bogdan",
    "bid": 2,
    "high": "Ana",
    "low": "Ana",
    "jack": "Bogdan",
    "game": "Cristi",
}
KEY_1 = "phone-made-key-0001"
KEY_2 = "phone-made-key-0002"


@pytest.fixture
def game_id(client: Any) -> int:
    return create_game(client, "auction-pitch", PLAYERS)


def send(client: Any, game_id: int, key: str, number: int, **taps: Any) -> Any:
    data = {**hand_form(PLAYERS, **taps), "token": key, "number": str(number), "save": "Save"}
    return client.post(f"/games/{game_id}/hands.json", data=data)


def test_a_queued_hand_is_saved_and_said_in_words(client: Any, app: Any, game_id: int) -> None:
    answer = send(client, game_id, KEY_1, 1, **ANA_MAKES_3)
    assert answer.status_code == 201
    assert answer.json == {"status": "saved", "number": 1, "said": "Ana made 3.", "finished": False}
    assert hand_count(app, game_id) == 1


def test_a_replayed_key_returns_the_hand_already_saved(client: Any, app: Any, game_id: int) -> None:
    send(client, game_id, KEY_1, 1, **ANA_MAKES_3)
    # The same key again (a phone that lost the first answer).
    answer = send(client, game_id, KEY_1, 1, **ANA_MAKES_3)
    assert answer.status_code == 200
    assert answer.json == {
        "status": "already-saved",
        "number": 1,
        "said": "Hand 1 was already saved: Ana made 3.",
        "finished": False,
    }
    assert hand_count(app, game_id) == 1
    assert [h["pitcher"] for h in exported(client, game_id)["hands"]] == ["Ana"]
    # With other taps (a page brought back and changed): the two, and nothing saved.
    changed = send(client, game_id, KEY_1, 1, **BOGDAN_SET)
    assert changed.status_code == 409
    assert changed.json["status"] == "conflict"
    assert changed.json["compare"]["here"] is True
    assert changed.json["compare"]["number"] == 1
    assert hand_count(app, game_id) == 1


def test_a_key_from_another_game_is_refused(client: Any, app: Any, game_id: int) -> None:
    other = create_game(client, "auction-pitch", PLAYERS)
    send(client, other, KEY_1, 1, **ANA_MAKES_3)
    answer = send(client, game_id, KEY_1, 1, **ANA_MAKES_3)
    assert answer.status_code == 400
    assert answer.json == {
        "status": "refused",
        "messages": ["This form was opened for another game; nothing was saved here."],
    }
    assert hand_count(app, game_id) == 0
    assert hand_count(app, other) == 1


def test_a_queued_hand_the_game_moved_past_answers_with_the_hands_recorded_meanwhile(
    client: Any, app: Any, game_id: int
) -> None:
    send(client, game_id, KEY_1, 1, **BOGDAN_SET)  # another phone recorded hand 1
    answer = send(client, game_id, KEY_2, 1, **ANA_MAKES_3)
    assert answer.status_code == 409
    assert answer.json["status"] == "conflict"
    assert answer.json["next"] == 2
    assert answer.json["recorded"] == [
        {"number": 1, "said": "Bogdan is set back 2 and is in the hole."}
    ]
    assert hand_count(app, game_id) == 1
    # The table says it is hand 2: sent as hand 2, it is saved.
    assert send(client, game_id, KEY_2, 2, **ANA_MAKES_3).json["status"] == "saved"
    assert [h["pitcher"] for h in exported(client, game_id)["hands"]] == ["Bogdan", "Ana"]


def test_a_queued_hand_tapped_as_the_last_asks_and_is_saved_when_again_names_it(
    client: Any, app: Any, game_id: int
) -> None:
    send(client, game_id, KEY_1, 1, **ANA_MAKES_3)
    answer = send(client, game_id, KEY_2, 2, **ANA_MAKES_3)
    assert answer.status_code == 409
    assert answer.json == {"status": "same", "number": 1, "said": "Ana made 3."}
    data = {**hand_form(PLAYERS, **ANA_MAKES_3), "token": KEY_2, "number": "2", "again": "1"}
    assert client.post(f"/games/{game_id}/hands.json", data=data).json["status"] == "saved"
    assert hand_count(app, game_id) == 2


def test_a_hand_the_rules_refuse_says_why_and_saves_nothing(
    client: Any, app: Any, game_id: int
) -> None:
    answer = send(client, game_id, KEY_1, 1, pitcher="Ana", bid=9, high="Ana")
    assert answer.status_code == 400
    assert answer.json["status"] == "refused"
    assert answer.json["messages"]
    assert hand_count(app, game_id) == 0


def test_a_hand_without_a_key_is_refused(client: Any, app: Any, game_id: int) -> None:
    data = {**hand_form(PLAYERS, **ANA_MAKES_3), "number": "1"}
    answer = client.post(f"/games/{game_id}/hands.json", data=data)
    assert answer.status_code == 400
    assert answer.json["status"] == "refused"
    assert hand_count(app, game_id) == 0


@pytest.mark.parametrize("number", ["", "0", "-1", "x", "\uff11", "2147483648", "1.5"])
def test_a_hand_with_a_bad_number_is_refused_saying_the_number_is_not_valid(
    client: Any, app: Any, game_id: int, number: str
) -> None:
    # It was answered "This form's key is not valid", though the key was.
    data = {**hand_form(PLAYERS, **ANA_MAKES_3), "token": KEY_1, "number": number}
    answer = client.post(f"/games/{game_id}/hands.json", data=data)
    assert answer.status_code == 400
    assert answer.json == {
        "status": "refused",
        "messages": [
            "The hand number is not valid; nothing was saved. Reload the page and tap the hand "
            "in again."
        ],
    }
    assert hand_count(app, game_id) == 0


def test_a_hand_for_a_game_that_is_not_there_is_refused_in_json(client: Any) -> None:
    answer = send(client, 999, KEY_1, 1, **ANA_MAKES_3)
    assert answer.status_code == 404
    assert answer.json["status"] == "refused"


def test_the_service_worker_is_served_from_the_root_so_it_covers_the_game_pages(
    client: Any,
) -> None:
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer.mimetype == "text/javascript"
    assert b'addEventListener("fetch"' in answer.data


def test_every_page_names_the_manifest_and_the_game_page_the_indicator_and_the_queue(
    client: Any, game_id: int
) -> None:
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert 'rel="manifest"' in html
    assert 'id="connection"' in html
    assert 'id="offline-words"' in html
    with client.get("/static/manifest.json") as answer:
        manifest = answer.json
    assert manifest["start_url"] == "/"
    for icon in manifest["icons"]:
        with client.get(icon["src"]) as answer:
            assert answer.status_code == 200, icon
    board = client.get(f"/games/{game_id}/board").get_data(as_text=True)
    assert 'id="connection"' in board
    assert page(client.get(f"/games/{game_id}")).value("number") == "1"


def test_the_correct_and_undo_pages_carry_the_connection_indicator_too(
    client: Any, game_id: int
) -> None:
    send(client, game_id, KEY_1, 1, **ANA_MAKES_3)
    for url in (f"/games/{game_id}/hands/1/edit", f"/games/{game_id}/undo"):
        html = client.get(url).get_data(as_text=True)
        assert 'id="connection"' in html, url
        assert f'data-ping-url="/games/{game_id}/version.json"' in html, url


def test_a_queued_sell_out_hand_left_untapped_is_pitched_by_the_seller(
    client: Any, app: Any
) -> None:
    # Ana deals the first hand, so Bogdan (at her left) sells: a pitched hand is his, at 4.
    game_id = create_game(client, "sell-out", PLAYERS)
    taps = {
        "sale": "pitched",
        "high": "Bogdan",
        "low": "Bogdan",
        "jack": "Bogdan",
        "game": "Bogdan",
    }
    answer = send(client, game_id, KEY_1, 1, **taps)
    assert answer.status_code == 201, answer.json
    assert answer.json == {
        "status": "saved",
        "number": 1,
        "said": "Bogdan pitched. Bogdan made 4.",
        "finished": False,
    }
    assert [(h["pitcher"], h["bid"]) for h in exported(client, game_id)["hands"]] == [("Bogdan", 4)]


def _said(client: Any, game_id: int) -> dict[tuple[str, str], str]:
    """Each tap button of the game page's hand form: (row, value) -> its ``data-said``."""
    controls = page(client.get(f"/games/{game_id}")).controls
    return {
        (c["name"], c["value"]): c["data-said"]
        for c in controls
        if c.get("type") == "radio" and "data-said" in c
    }


def test_each_tap_on_the_hand_form_carries_its_words_for_a_hand_kept_on_the_phone(
    client: Any, game_id: int
) -> None:
    # The phone shows a hand it could not send in the server's words (static/js/offline.js):
    # the pitcher by name, every other tap after its row's words.
    said = _said(client, game_id)
    assert [said["pitcher", str(seat)] for seat in range(4)] == PLAYERS
    assert [said["bid", str(bid)] for bid in (2, 3, 4)] == ["Bid: 2", "Bid: 3", "Bid: 4"]
    assert said["point_high", "0"] == "High: Ana"
    assert said["point_low", "3"] == "Low (holder): Dana"
    assert said["point_jack", "nobody"] == "Jack: Nobody"
    assert said["point_game", "1"] == "Game: Bogdan"


def test_a_taps_words_are_escaped_as_the_page_is(client: Any) -> None:
    game_id = create_game(client, "auction-pitch", ['Ann "Ace"', "B&B <3"])
    said = _said(client, game_id)
    assert said["pitcher", "0"] == 'Ann "Ace"'
    assert said["point_high", "1"] == "High: B&B <3"


def test_a_hand_sent_to_a_signed_game_is_refused_in_json_with_the_signatures_words(
    client: Any, app: Any
) -> None:
    from .test_trail import TEAMS, _finished

    game_id = _finished(client)
    for name in ("Ana", "Dana"):
        assert client.post(f"/games/{game_id}/sign", data={"name": name}).status_code == 302
    before = exported(client, game_id)
    taps = {"pitcher": "Ana", "bid": 2, "high": "Ana", "low": "Ana", "jack": "Bogdan"}
    # The hand after the last (the game is over) and one in hand 1's place (a conflict that
    # would offer a correction the phone may not save): each refused in the door's words.
    for number in (2, 1):
        data = {
            **hand_form(PLAYERS, teams=TEAMS, game="Cristi", **taps),
            "token": f"phone-kept-signed-{number}",
            "number": str(number),
            "save": "Save",
        }
        answer = client.post(f"/games/{game_id}/hands.json", data=data)
        assert answer.status_code == 403
        assert answer.mimetype == "application/json"
        assert answer.json["status"] == "refused"
        (said,) = answer.json["messages"]
        assert "was signed by every side" in said
        assert "only the organiser can correct, undo or delete it" in said
        assert "compare" not in answer.json
    assert exported(client, game_id) == before
    assert hand_count(app, game_id) == 1
