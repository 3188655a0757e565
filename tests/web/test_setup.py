"""Setting up a game with the form: seats, partnerships, first dealer, house rules, stake."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper import rules

from .tables import create_game, exported, game_count, page, setup_form, text

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def test_a_new_game_seats_the_players_and_opens_its_page(client: Any) -> None:
    game_id = create_game(client, "auction-pitch", PLAYERS, first_dealer=2)
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    words = text(html)
    assert "Auction Pitch" in words
    assert "Cy deals hand 1" in words
    assert exported(client, game_id) == {
        "format": "pitch-scorekeeper/1",
        "variant": "auction-pitch",
        "players": PLAYERS,
        "first_dealer": "Cy",
        "hands": [],
    }


def test_empty_seats_are_left_out_and_names_are_trimmed(client: Any) -> None:
    response = client.post(
        "/games/new/auction-pitch",
        data=setup_form("auction-pitch", ["  Ann ", "", "Cy", ""], first_dealer=2),
    )
    assert response.status_code == 302
    game_id = int(response.headers["Location"].rsplit("/", 1)[1])
    record = exported(client, game_id)
    assert record["players"] == ["Ann", "Cy"]
    assert record["first_dealer"] == "Cy"


@pytest.mark.parametrize("variant_key", list(rules.VARIANTS))
def test_the_setup_form_as_the_page_renders_it_starts_a_game_of_every_variant(
    client: Any, variant_key: str
) -> None:
    variant = rules.VARIANTS[variant_key]
    data = page(client.get(f"/games/new/{variant_key}")).submitted()
    for i in range(variant.min_seats if not variant.teams_required else 4):
        data[f"name_{i}"] = f"Player {i + 1}"
    data["create"] = "Start the game"
    response = client.post(f"/games/new/{variant_key}", data=data)
    assert response.status_code == 302, page(response).errors
    record = exported(client, int(response.headers["Location"].rsplit("/", 1)[1]))
    assert record["variant"] == variant_key
    assert "house_rules" not in record  # the prefilled rules are the preset's


def test_partners_with_the_same_team_name_form_a_side(client: Any) -> None:
    game_id = create_game(
        client, "auction-pitch", PLAYERS, teams=["North", "East", "North", "East"]
    )
    record = exported(client, game_id)
    assert record["teams"] == {"North": ["Ann", "Cy"], "East": ["Bob", "Dee"]}
    words = text(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "Ann · Cy" in words
    assert "Bob · Dee" in words


def test_the_cinch_form_comes_with_two_teams_filled_in(client: Any) -> None:
    parsed = page(client.get("/games/new/cinch"))
    assert [parsed.value(f"team_{i}") for i in range(4)] == ["Us", "Them", "Us", "Them"]


def test_house_rules_the_table_changed_are_kept_and_shown(client: Any) -> None:
    game_id = create_game(
        client,
        "auction-pitch",
        PLAYERS,
        target=11,
        smudge="always",
        payout_per_setback=1,
        stake="0.25",
    )
    record = exported(client, game_id)
    assert record["house_rules"] == {"target": 11, "smudge": "always", "payout_per_setback": 1}
    assert record["stake"] == "0.25"
    words = text(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "First to 11" in words
    assert "stake 0.25 a unit" in words


@pytest.mark.parametrize(
    ("changes", "names", "message"),
    [
        ({}, ["Ann"], "Auction Pitch seats 2 to 7 players, not 1"),
        ({}, ["Ann", "Ann"], '"Ann" is seated twice'),
        ({"first_dealer": 3}, ["Ann", "Bob"], "seat 4 (empty) is not seated in the game"),
        ({"team_0": "Us", "team_1": "Us"}, PLAYERS, "Cy, Dee is not in any team"),
        (
            {"team_0": "Us", "team_1": "Us", "team_2": "Us", "team_3": "Them"},
            PLAYERS,
            "the teams must split the 4 players into equal teams",
        ),
    ],
)
def test_a_setup_the_rules_refuse_shows_the_engines_message_by_the_seats_and_creates_nothing(
    client: Any, app: Any, changes: dict[str, Any], names: list[str], message: str
) -> None:
    data = setup_form("auction-pitch", names)
    data.update({k: str(v) for k, v in changes.items()})
    response = client.post("/games/new/auction-pitch", data=data)
    assert response.status_code == 400
    parsed = page(response)
    assert message in " ".join(parsed.errors["seats"])
    assert [link for link, words in parsed.attention if message in words] == ["#seats"]
    assert game_count(app) == 0


def test_cinch_without_four_or_six_players_is_refused(client: Any, app: Any) -> None:
    data = setup_form("cinch", ["Ann", "Bob", "Cy"], teams=["Us", "Them", "Us"])
    response = client.post("/games/new/cinch", data=data)
    assert response.status_code == 400
    assert "Cinch is played by 4 players (2 teams of 2) or 6 (2 teams of 3), not 3" in " ".join(
        page(response).errors["seats"]
    )
    assert game_count(app) == 0


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("target", "seven", "Not a valid integer value."),
        (
            "target",
            "",
            "Give the target score, or a number of hands to end the game after (the most "
            "points then win).",
        ),
        ("target", "0", "Number must be between 1 and 999."),
        ("stake", "a lot", "Write the stake as a number such as 0.25."),
        ("payout_in_hole", "-1", "Number must be between 0 and 99."),
        (
            "smudge",
            "sometimes",
            '"sometimes" is not one of the choices for A made smudge or moon bid.',
        ),
        ("first_dealer", "9", "'9' is not one of the choices for Deals first."),
        ("name_0", "A" * 41, "A name has at most 40 characters."),
    ],
)
def test_a_bad_setup_value_shows_a_message_next_to_its_field_and_creates_nothing(
    client: Any, app: Any, field: str, value: str, message: str
) -> None:
    data = setup_form("auction-pitch", PLAYERS)
    data[field] = value
    response = client.post("/games/new/auction-pitch", data=data)
    assert response.status_code == 400
    parsed = page(response)
    assert message in parsed.errors.get(field, []), parsed.errors
    assert game_count(app) == 0
    # What the table typed is still there to correct.
    assert parsed.value("name_1") == "Bob"


def test_a_name_with_a_control_character_is_refused_by_the_engine(client: Any, app: Any) -> None:
    response = client.post(
        "/games/new/auction-pitch", data=setup_form("auction-pitch", ["Ann", "Bo\x07b"])
    )
    assert response.status_code == 400
    assert "contains a control character" in " ".join(page(response).errors["seats"])
    assert game_count(app) == 0


def test_the_roster_offers_names_from_earlier_games(client: Any) -> None:
    create_game(client, "auction-pitch", ["Zed", "Yan"])
    html = client.get("/games/new/auction-pitch").get_data(as_text=True)
    assert '<option value="Yan" dir="auto">' in html
    assert '<option value="Zed" dir="auto">' in html


ROMANIAN = {"Accept-Language": "ro-RO,ro;q=0.9"}


@pytest.mark.parametrize(
    ("headers", "typed", "stored"),
    [
        (ROMANIAN, "0,25", "0.25"),  # the way the Romanian pages write money
        (ROMANIAN, "0.25", "0.25"),
        (ROMANIAN, " 1,5 ", "1.5"),
        (ROMANIAN, "2", "2"),
        ({}, "0.25", "0.25"),
        ({}, "10", "10"),
    ],
)
def test_a_stake_is_read_with_the_pages_decimal_sign_and_stored_as_the_record_writes_it(
    client: Any, headers: dict[str, str], typed: str, stored: str
) -> None:
    data = setup_form("auction-pitch", PLAYERS, stake=typed)
    response = client.post("/games/new/auction-pitch", data=data, headers=headers)
    assert response.status_code == 302, page(response).errors
    game_id = int(response.headers["Location"].rsplit("/", 1)[1])
    assert exported(client, game_id)["stake"] == stored


@pytest.mark.parametrize(
    ("headers", "typed", "message"),
    [
        (ROMANIAN, "0,2,5", "Scrieți miza ca un număr, de exemplu 0,25."),
        (ROMANIAN, "1.000,50", "Scrieți miza ca un număr, de exemplu 0,25."),
        (ROMANIAN, "-0,25", "Scrieți miza ca un număr, de exemplu 0,25."),
        ({}, "0,25", "Write the stake as a number such as 0.25."),  # 0,25 is not English
        ({}, "1e3", "Write the stake as a number such as 0.25."),
    ],
)
def test_a_stake_that_is_not_a_number_in_the_pages_language_is_refused_with_its_example(
    client: Any, app: Any, headers: dict[str, str], typed: str, message: str
) -> None:
    data = setup_form("auction-pitch", PLAYERS, stake=typed)
    response = client.post("/games/new/auction-pitch", data=data, headers=headers)
    assert response.status_code == 400
    parsed = page(response)
    assert parsed.errors.get("stake") == [message]
    assert parsed.value("stake") == typed  # what was typed stays, to correct
    assert game_count(app) == 0


def test_the_stake_field_of_a_romanian_page_gives_its_example_with_a_decimal_comma(
    client: Any,
) -> None:
    words = text(client.get("/games/new/auction-pitch", headers=ROMANIAN).get_data(as_text=True))
    assert "De exemplu 0,25." in words
    assert "0.25" not in words
