"""Import and export: the game record goes out and comes back the same; a bad one is refused."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.rules import dumps

from .tables import ap_hand, exported, flashes, game_count, hand_count, page, record, text

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
RECORDS = sorted(
    p
    for p in [*EXAMPLES.glob("*.json"), *EXAMPLES.glob("section-11/*.json")]
    if not p.name.endswith(".out.json") and not p.with_suffix(".error.txt").exists()
)
BAD_RECORDS = sorted([*EXAMPLES.glob("*.error.txt"), *EXAMPLES.glob("section-11/*.error.txt")])
AP_START = (
    b'{"format": "pitch-scorekeeper/1", "variant": "auction-pitch", "players": ["Ann", "Bob"],'
)


def upload(client: Any, content: bytes, filename: str = "game.json") -> Any:
    return client.post(
        "/games/import",
        data={"record": (io.BytesIO(content), filename)},
        content_type="multipart/form-data",
    )


def test_the_worked_examples_are_there_to_test_with() -> None:
    assert len(RECORDS) == 16
    assert BAD_RECORDS


def test_importing_a_file_creates_the_game_and_opens_it(client: Any, app: Any) -> None:
    content = (EXAMPLES / "game-record-example.json").read_bytes()
    response = upload(client, content)
    assert response.status_code == 303
    location = response.headers["Location"]
    html = client.get(location).get_data(as_text=True)
    assert flashes(html) == ["The game was imported."]
    words = text(html)
    assert "North-South won!" in words
    assert hand_count(app) == 3


def test_importing_a_json_body_answers_201_with_the_new_games_id(client: Any) -> None:
    body = json.loads((EXAMPLES / "ap-make-and-setback.json").read_text())
    response = client.post("/games/import", json=body)
    assert response.status_code == 201
    answer = response.get_json()
    assert answer == {"id": answer["id"], "url": f"/games/{answer['id']}"}
    assert exported(client, answer["id"]) == body


@pytest.mark.parametrize("example", RECORDS, ids=lambda p: p.stem)
def test_every_example_record_imports_and_exports_as_it_came_in(client: Any, example: Path) -> None:
    original = json.loads(example.read_text())
    game_id = client.post("/games/import", json=original).get_json()["id"]
    assert exported(client, game_id) == original


@pytest.mark.parametrize("example", RECORDS, ids=lambda p: p.stem)
def test_export_then_import_then_export_is_identical(client: Any, example: Path) -> None:
    first_id = upload(client, example.read_bytes()).headers["Location"].rsplit("/", 1)[1]
    first = client.get(f"/games/{first_id}.json").get_data()
    asked = upload(client, first)  # the same game: asked about, not imported
    assert asked.status_code == 409
    again = {"record_text": first.decode(), "again": first_id}
    second_id = client.post("/games/import", data=again).headers["Location"].rsplit("/", 1)[1]
    assert second_id != first_id
    second = client.get(f"/games/{second_id}.json").get_data()
    assert second == first
    assert first.decode() == dumps(json.loads(example.read_text()))


def test_the_export_is_a_json_download_named_after_the_game(client: Any) -> None:
    game_id = client.post(
        "/games/import",
        json=record(
            "auction-pitch", ["Ann", "Bob"], [ap_hand("Bob", 2, "Bob", "Bob", None, "Ann")]
        ),
    ).get_json()["id"]
    response = client.get(f"/games/{game_id}.json")
    assert response.mimetype == "application/json"
    assert response.headers["Content-Disposition"] == f'attachment; filename="game-{game_id}.json"'


@pytest.mark.parametrize("example", BAD_RECORDS, ids=lambda p: p.stem)
def test_a_record_the_rules_refuse_shows_the_engines_one_line_error_and_creates_nothing(
    client: Any, app: Any, example: Path
) -> None:
    expected = example.read_text().strip()
    content = example.with_name(example.name.removesuffix(".error.txt") + ".json").read_bytes()
    response = upload(client, content)
    assert response.status_code == 400
    assert page(response).form_errors == [expected]
    as_json = client.post("/games/import", data=content, content_type="application/json")
    assert as_json.status_code == 400
    assert as_json.get_json() == {"error": expected}
    assert game_count(app) == 0


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            b"{not json",
            "record: is not valid JSON: Expecting property name enclosed in double quotes",
        ),
        (b"[1, 2]", "record: must be a JSON object, not a list"),
        (
            b'{"format": "pitch-scorekeeper/1", "variant": "bridge", "players": [], "hands": []}',
            'variant: unknown variant "bridge"',
        ),
        (
            AP_START + b' "hands": [{"pitcher": "Ann", "bid": 9, "points": {}}]}',
            "hand 1: bid 9 is above the maximum of 4 for Auction Pitch",
        ),
        (
            AP_START + b' "hands": [], "colour": "red"}',
            'record: unknown key "colour"',
        ),
        (b"\xff\xfe\x00garbage", "record: is not valid JSON"),
        (b'"\\ud800"', "record: must be a JSON object, not a string"),
    ],
)
def test_a_bad_record_shows_a_one_line_error_and_creates_nothing(
    client: Any, app: Any, content: bytes, message: str
) -> None:
    response = upload(client, content)
    assert response.status_code == 400
    (error,) = page(response).form_errors
    assert error.startswith(message)
    assert "\n" not in error
    assert game_count(app) == 0


def test_importing_without_choosing_a_file_says_what_to_do(client: Any, app: Any) -> None:
    response = client.post("/games/import", data={}, content_type="multipart/form-data")
    assert response.status_code == 400
    assert page(response).form_errors == ["Choose a game record file (.json) to import."]
    empty = upload(client, b"")
    assert page(empty).form_errors == ["Choose a game record file (.json) to import."]
    assert game_count(app) == 0


def test_an_empty_json_body_is_a_400_with_the_error_in_json(client: Any, app: Any) -> None:
    response = client.post("/games/import", data=b"", content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["error"].startswith("record: is not valid JSON")
    assert game_count(app) == 0


def test_an_upload_too_large_for_a_game_record_is_refused_kindly(client: Any, app: Any) -> None:
    # A raw body (not the test client's own multipart encoder, which spools to a temp file).
    body = b"--x\r\n" + b" " * (3 * 1024 * 1024)
    response = client.post(
        "/games/import", data=body, content_type="multipart/form-data; boundary=x"
    )
    assert response.status_code == 413
    assert "a game record is a small JSON file" in text(response.get_data(as_text=True))
    assert game_count(app) == 0


DUPLICATED_BID = (
    AP_START + b' "hands": [{"pitcher": "Ann", "bid": 2, "bid": 4, '
    b'"points": {"high": "Ann", "low": "Bob", "jack": null, "game": "Ann"}}]}'
)


def test_a_record_with_a_key_written_twice_is_refused_and_creates_nothing(
    client: Any, app: Any
) -> None:
    response = upload(client, DUPLICATED_BID)
    assert response.status_code == 400
    assert page(response).form_errors == ['hand 1: duplicate key "bid"']
    answer = client.post("/games/import", data=DUPLICATED_BID, content_type="application/json")
    assert answer.status_code == 400
    assert answer.get_json() == {"error": 'hand 1: duplicate key "bid"'}
    assert game_count(app) == 0


def test_the_same_record_imported_again_is_asked_about_with_a_link_and_imported_on_yes(
    client: Any, app: Any
) -> None:
    content = (EXAMPLES / "game-record-example.json").read_bytes()
    first = upload(client, content)
    assert first.status_code == 303
    first_id = int(first.headers["Location"].rsplit("/", 1)[1])
    asked = upload(client, content)
    assert asked.status_code == 409
    html = asked.get_data(as_text=True)
    assert (
        f"This game is kept already: game {first_id} has the same players, rules and hands."
        in text(html)
    )
    assert f'href="/games/{first_id}"' in html
    assert game_count(app) == 1 and hand_count(app) == 3  # nothing imported while asking
    # The yes posts the record it was shown with the game it names.
    yes = page(asked).submitted()
    assert yes["again"] == str(first_id)
    again = client.post("/games/import", data={"again": str(first_id), "record_text": content})
    assert again.status_code == 303
    assert game_count(app) == 2
    # A record that differs in a single hand is another game: no question.
    other = json.loads(content)
    other["hands"] = other["hands"][:2]
    assert upload(client, json.dumps(other).encode()).status_code == 303


def test_a_json_import_of_a_kept_game_is_a_409_naming_it_and_again_imports_it(
    client: Any, app: Any
) -> None:
    body = json.loads((EXAMPLES / "ap-make-and-setback.json").read_text())
    first = client.post("/games/import", json=body).get_json()["id"]
    asked = client.post("/games/import", json=body)
    assert asked.status_code == 409
    assert asked.get_json() == {
        "error": f"This game is kept already: game {first} has the same players, rules and hands.",
        "game": first,
    }
    assert client.post(f"/games/import?again={first}", json=body).status_code == 201
    assert game_count(app) == 2


def test_a_file_of_every_game_posted_to_the_import_page_is_sent_to_import_all(
    client: Any, app: Any
) -> None:
    collection = {
        "format": "pitch-scorekeeper/collection-3",
        "games": [],
        "nights": [],
        "rule_sets": [],
    }
    response = upload(client, json.dumps(collection).encode())
    assert response.status_code == 400
    (error,) = page(response).form_errors
    assert "scorekeeper import-all" in error
    assert 'unknown key "games"' not in error
    romanian = client.post(
        "/games/import",
        data={"record": (io.BytesIO(json.dumps(collection).encode()), "all.json")},
        content_type="multipart/form-data",
        headers={"Accept-Language": "ro"},
    )
    assert "scorekeeper import-all" in page(romanian).form_errors[0]
    assert game_count(app) == 0


@pytest.mark.parametrize("example", RECORDS, ids=lambda p: p.stem)
def test_every_example_stored_scores_as_its_worked_output(client: Any, example: Path) -> None:
    # Stored and read back (a hand's own dealer, time called and every switch included),
    # the game replays to the worked example's winner, hand and final scores.
    expected = json.loads(example.with_name(example.stem + ".out.json").read_text())
    game_id = client.post("/games/import", json=json.loads(example.read_text())).get_json()["id"]
    with client.application.app_context():
        from scorekeeper.operations import loading

        result = loading.load(game_id).result
    assert (result.winner, result.winning_hand, dict(result.scores)) == (
        expected["winner"],
        expected["winning_hand"],
        expected["scores"],
    )
    assert client.get(f"/games/{game_id}").status_code == 200
