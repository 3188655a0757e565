"""A name written another way is the same person: in another case, with a zero-width space, in
decomposed form (an accent as a combining mark) or in fullwidth letters. Typed at the setup
form, imported, or given in a rename, it is the roster's player, never a second one; and two
spellings of one name cannot sit at one table."""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest
from sqlalchemy import func, select

from scorekeeper.data import models
from scorekeeper.data.extensions import db

from .tables import create_game, exported, import_game, page, setup_form

#: Each the same person as "Zoë Lane", as a person could type or paste them.
SPELLINGS = {
    "in lower case": "zoë lane",
    "with a zero-width space": "Zo\u200bë Lane",
    "decomposed": unicodedata.normalize("NFD", "Zoë Lane"),
    "in fullwidth letters": "\uff3a\uff4f\u00eb\u3000\uff2c\uff41\uff4e\uff45",
    "with a zero-width joiner and two spaces": "Zoë\u200d  Lane",
}
ORIGINAL = "Zoë Lane"


def _players(app: Any) -> int:
    with app.app_context():
        count = db.session.execute(select(func.count()).select_from(models.Player)).scalar_one()
        db.session.remove()
    return int(count)


def _player_names(app: Any) -> list[str]:
    with app.app_context():
        names = db.session.execute(select(models.Player.name).order_by(models.Player.id))
        found = list(names.scalars())
        db.session.remove()
    return found


@pytest.mark.parametrize("spelling", SPELLINGS.values(), ids=SPELLINGS.keys())
def test_a_look_alike_typed_at_the_setup_form_is_the_roster_player(
    client: Any, app: Any, spelling: str
) -> None:
    create_game(client, "auction-pitch", [ORIGINAL, "Bob"])
    game_id = create_game(client, "auction-pitch", [spelling, "Cy"])
    assert exported(client, game_id)["players"] == [ORIGINAL, "Cy"]
    assert _player_names(app) == [ORIGINAL, "Bob", "Cy"]


@pytest.mark.parametrize("spelling", SPELLINGS.values(), ids=SPELLINGS.keys())
def test_a_look_alike_cannot_sit_at_the_same_table_as_the_original(
    client: Any, app: Any, spelling: str
) -> None:
    response = client.post(
        "/games/new/auction-pitch", data=setup_form("auction-pitch", [ORIGINAL, spelling, "Cy"])
    )
    assert response.status_code == 400
    said = " ".join(page(response).errors["seats"])
    assert "written another way" in said and "one person cannot sit twice" in said, said
    assert _players(app) == 0


@pytest.mark.parametrize("spelling", SPELLINGS.values(), ids=SPELLINGS.keys())
def test_an_imported_record_naming_a_look_alike_seats_the_roster_player(
    client: Any, app: Any, spelling: str
) -> None:
    create_game(client, "auction-pitch", [ORIGINAL, "Bob"])
    everything = dict.fromkeys(("high", "low", "jack", "game"), spelling)
    game_id = import_game(
        client,
        {
            "format": "pitch-scorekeeper/1",
            "variant": "auction-pitch",
            "players": [spelling, "Cy"],
            "hands": [{"pitcher": spelling, "bid": 4, "points": everything}],
        },
    )
    record = exported(client, game_id)
    assert record["players"] == [ORIGINAL, "Cy"]
    assert record["hands"][0]["pitcher"] == ORIGINAL
    assert _player_names(app) == [ORIGINAL, "Bob", "Cy"]
    with app.app_context():
        # Bid 4 and took all four: a smudge, won, and the winner cached as the roster spells it.
        assert db.session.get(models.Game, game_id).winner == ORIGINAL
        db.session.remove()


@pytest.mark.parametrize("spelling", SPELLINGS.values(), ids=SPELLINGS.keys())
def test_renaming_a_player_to_a_look_alike_of_another_is_refused(
    client: Any, app: Any, spelling: str
) -> None:
    create_game(client, "auction-pitch", [ORIGINAL, "Bob"])
    with app.app_context():
        bob = db.session.execute(select(models.Player.id).where(models.Player.name == "Bob"))
        bob_id = bob.scalar_one()
        db.session.remove()
    response = client.post(f"/players/{bob_id}/rename", data={"rename-name": spelling})
    assert response.status_code == 400
    assert "is already on the roster; if they are the same person, merge them" in (
        response.get_data(as_text=True)
    )
    assert _player_names(app) == [ORIGINAL, "Bob"]


def test_a_player_may_change_the_spelling_of_their_own_name(client: Any, app: Any) -> None:
    create_game(client, "auction-pitch", [ORIGINAL, "Bob"])
    response = client.post("/players/1/rename", data={"rename-name": "ZOË LANE"})
    assert response.status_code == 302
    assert _player_names(app) == ["ZOË LANE", "Bob"]
    create_game(client, "auction-pitch", [ORIGINAL, "Cy"])  # typed the old way: the same one
    assert _player_names(app) == ["ZOË LANE", "Bob", "Cy"]


def test_a_name_of_nothing_but_invisible_characters_is_refused(client: Any, app: Any) -> None:
    response = client.post(
        "/games/new/auction-pitch", data=setup_form("auction-pitch", ["Ann", "\u200b\u2060"])
    )
    assert response.status_code == 400
    assert "a name cannot be empty" in " ".join(page(response).errors["seats"]).lower()
    assert _players(app) == 0
