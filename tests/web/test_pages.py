"""Every page of the games blueprint renders, names its controls, and answers 404 kindly."""

from __future__ import annotations

import re
from typing import Any

import pytest

from scorekeeper import rules

from .tables import ap_hand, ap_two_hand_record, create_game, import_game, page, record, text

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


@pytest.fixture
def game_id(client: Any) -> int:
    """A four-player Auction Pitch game with two hands."""
    return import_game(client, ap_two_hand_record())


def game_pages(game_id: int) -> list[str]:
    return [
        f"/games/{game_id}",
        f"/games/{game_id}/board",
        f"/games/{game_id}/hands/1/edit",
        f"/games/{game_id}/delete",
    ]


def all_pages(game_id: int) -> list[str]:
    return [
        "/",
        "/games/new",
        *(f"/games/new/{key}" for key in rules.VARIANTS),
        "/games/import",
        *game_pages(game_id),
    ]


def test_the_home_page_says_when_no_game_is_in_progress(client: Any) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert "No game in progress." in text(response.get_data(as_text=True))


def test_the_home_page_lists_games_in_progress_and_finished_ones(client: Any) -> None:
    playing = create_game(client, "auction-pitch", PLAYERS)
    finished = import_game(
        client,
        record("auction-pitch", ["Ann", "Bob"], [ap_hand("Bob", 4, "Bob", "Bob", "Bob", "Bob")]),
    )
    html = client.get("/").get_data(as_text=True)
    words = text(html)
    assert f'href="/games/{playing}"' in html
    assert f'href="/games/{finished}"' in html
    assert "Ann, Bob, Cy, Dee" in words
    assert "won by Bob" in words


def test_the_variant_page_links_every_variant_with_its_description(client: Any) -> None:
    html = client.get("/games/new").get_data(as_text=True)
    for variant in rules.VARIANTS.values():
        assert f'href="/games/new/{variant.key}"' in html
        assert variant.name in html
    assert "4 or 6 players in two teams" in text(html)


@pytest.mark.parametrize("variant_key", list(rules.VARIANTS))
def test_the_setup_form_of_every_variant_has_a_seat_per_possible_player(
    client: Any, variant_key: str
) -> None:
    variant = rules.VARIANTS[variant_key]
    response = client.get(f"/games/new/{variant_key}")
    assert response.status_code == 200
    parsed = page(response)
    names = [c["name"] for c in parsed.controls if str(c.get("name", "")).startswith("name_")]
    assert names == [f"name_{i}" for i in range(variant.max_seats)]
    assert parsed.value("target") == str(variant.preset.target)
    has_smudge = "smudge" in {c.get("name") for c in parsed.controls}
    # Where a smudge bid may be given (every game with a shape of its own), its mode too.
    assert has_smudge == (variant.smudge_bid is not None or not variant.shape_fixed)


def test_the_game_page_shows_standings_the_next_dealer_the_hand_form_and_the_sheet(
    client: Any, game_id: int
) -> None:
    response = client.get(f"/games/{game_id}")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    words = text(html)
    assert "Cy deals hand 3" in words
    assert "Hand 3" in words
    assert 'class="ring"' in html  # Cy is in the hole: a ringed score
    parsed = page(response)
    for field in ("pitcher", "bid", "point_high", "point_low", "point_jack", "point_game"):
        assert field in {c.get("name") for c in parsed.controls}
    assert parsed.value("version") is not None
    assert parsed.value("token")
    assert "Undo hand 2" in words
    assert f'href="/games/{game_id}/hands/1/edit"' in html
    assert f'href="/games/{game_id}/board"' in html


def test_the_hand_form_offers_nobody_only_for_points_that_allow_it(
    client: Any, game_id: int
) -> None:
    parsed = page(client.get(f"/games/{game_id}"))
    values = {
        name: {c.get("value") for c in parsed.controls if c.get("name") == name}
        for name in ("point_high", "point_low", "point_jack", "point_game")
    }
    assert "nobody" not in values["point_high"]
    assert "nobody" not in values["point_low"]
    assert "nobody" in values["point_jack"]
    assert "nobody" in values["point_game"]


def test_the_passed_out_button_shows_only_where_the_house_rules_allow_it(client: Any) -> None:
    dealer_takes = create_game(client, "auction-pitch", PLAYERS)
    redeal = create_game(client, "auction-pitch", PLAYERS, all_pass="redeal-same-dealer")
    assert "Everyone passed" not in client.get(f"/games/{dealer_takes}").get_data(as_text=True)
    assert "Everyone passed" in client.get(f"/games/{redeal}").get_data(as_text=True)


def test_the_scoreboard_is_read_only_and_polls_the_games_version(client: Any, game_id: int) -> None:
    response = client.get(f"/games/{game_id}/board")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "<form" not in html
    assert f'data-poll-url="/games/{game_id}/version.json"' in html
    assert "js/board.js" in html
    assert "Hand 2: Cy bid 2, set back 2" in text(html)


def test_the_version_endpoint_answers_the_games_version_as_json(client: Any, game_id: int) -> None:
    response = client.get(f"/games/{game_id}/version.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert isinstance(response.get_json()["version"], int)


def test_the_edit_page_is_prefilled_with_the_hand(client: Any, game_id: int) -> None:
    response = client.get(f"/games/{game_id}/hands/2/edit")
    assert response.status_code == 200
    parsed = page(response)
    assert parsed.checked("pitcher") == "2"  # Cy
    assert parsed.checked("bid") == "2"
    assert parsed.checked("point_high") == "1"
    assert parsed.checked("point_low") == "0"
    assert parsed.checked("point_jack") == "nobody"
    assert parsed.checked("point_game") == "3"
    assert "Bob dealt" in text(response.get_data(as_text=True))


def test_the_delete_page_asks_before_deleting(client: Any, game_id: int) -> None:
    response = client.get(f"/games/{game_id}/delete")
    assert response.status_code == 200
    words = text(response.get_data(as_text=True))
    assert "Delete this game?" in words
    assert "This cannot be undone" in words
    assert "Yes, delete the game" in words
    assert "No, keep it" in words


def test_the_import_page_has_a_file_field_named_record(client: Any) -> None:
    parsed = page(client.get("/games/import"))
    field = next(c for c in parsed.controls if c.get("name") == "record")
    assert field["type"] == "file"


@pytest.mark.parametrize(
    "url",
    [
        "/games/999",
        "/games/999/board",
        "/games/999/hands/1/edit",
        "/games/999/delete",
        "/games/new/no-such-game",
    ],
)
def test_an_unknown_game_or_variant_is_a_friendly_404_page(client: Any, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 404
    words = text(response.get_data(as_text=True))
    assert "Not found" in words
    assert "Back to the games" in words
    assert "Traceback" not in words


@pytest.mark.parametrize("url", ["/games/999.json", "/games/999/version.json"])
def test_an_unknown_game_answers_404_in_json_to_json_urls(client: Any, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 404
    assert "999" in response.get_json()["error"]


@pytest.mark.parametrize(
    "url", ["/games/999", "/games/999/undo", "/games/999/delete", "/games/999/hands/1/edit"]
)
def test_posting_to_an_unknown_game_is_a_404_and_creates_nothing(client: Any, url: str) -> None:
    response = client.post(url, data={"pitcher": "0", "bid": "2", "version": "0"})
    assert response.status_code == 404
    assert client.get("/games/999").status_code == 404


@pytest.mark.parametrize("number", [0, 3, 99])
def test_editing_a_hand_that_does_not_exist_is_a_404(
    client: Any, game_id: int, number: int
) -> None:
    response = client.get(f"/games/{game_id}/hands/{number}/edit")
    assert response.status_code == 404
    assert f"no hand {number}" in text(response.get_data(as_text=True))


def test_a_method_the_page_does_not_take_gets_a_friendly_405(client: Any, game_id: int) -> None:
    response = client.get("/language")
    assert response.status_code == 405
    assert "Not allowed here" in text(response.get_data(as_text=True))


def test_every_control_on_every_page_has_a_label(client: Any, game_id: int) -> None:
    create_game(client, "sell-out", ["Ann", "Bob", "Cy"])
    pages = [*all_pages(game_id), "/games/2"]
    for url in pages:
        parsed = page(client.get(url))
        assert parsed.unlabelled() == [], url


def test_no_page_has_two_elements_with_the_same_id(client: Any, game_id: int) -> None:
    for url in all_pages(game_id):
        ids = page(client.get(url)).ids
        assert len(ids) == len(set(ids)), (url, sorted(i for i in ids if ids.count(i) > 1))


def test_every_page_loads_its_css_and_scripts_from_static_and_nothing_from_elsewhere(
    client: Any, game_id: int
) -> None:
    for url in all_pages(game_id):
        html = client.get(url).get_data(as_text=True)
        for attr in re.findall(r'(?:src|href)="([^"]+)"', html):
            assert not re.match(r"(https?:)?//", attr), (url, attr)
        for asset in re.findall(r'(?:src|href)="(/static/[^"]+)"', html):
            with client.get(asset) as response:
                assert response.status_code == 200, asset
    with client.get("/static/css/app.css") as response:
        css = response.get_data(as_text=True)
    assert "@import" not in css
    assert not re.search(r"url\(\s*['\"]?(https?:)?//", css)


def test_every_page_is_mobile_ready_with_a_viewport_and_a_language(
    client: Any, game_id: int
) -> None:
    for url in all_pages(game_id):
        html = client.get(url).get_data(as_text=True)
        assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
        assert '<html lang="en">' in html
