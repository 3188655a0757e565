"""A table's saved house rules are its own: named once, asked before they are replaced,
renamed and deleted by the organiser, listed with what they change, and said on the form
they open."""

from __future__ import annotations

import re
from typing import Any

import pytest
from sqlalchemy import select

from scorekeeper.data import models
from scorekeeper.data.extensions import db

from .tables import exported, game_count, page, setup_form, text

THREE = ["Ann", "Bob", "Cy"]
#: The tester's Thursday rules: Auction Pitch with the Off-Jack, to 11, bidder only, gap 5.
THURSDAY = {
    "in_play_off_jack": "y",
    "target": 11,
    "win_rule": "bidder-only",
    "gap": 5,
    "rules_name": "Thursday rules",
}


def create(client: Any, variant: str, names: list[str], **changes: Any) -> Any:
    return client.post(f"/games/new/{variant}", data=setup_form(variant, names, **changes))


def saved_sets(app: Any) -> list[tuple[str, str, dict[str, Any]]]:
    with app.app_context():
        rows = db.session.execute(select(models.RuleSet).order_by(models.RuleSet.id)).scalars()
        found = [(r.name, r.variant, dict(r.house_rules)) for r in rows]
        db.session.remove()
    return found


def saved_id(app: Any, name: str) -> int:
    with app.app_context():
        found = db.session.execute(select(models.RuleSet.id).where(models.RuleSet.name == name))
        rule_set_id = int(found.scalar_one())
        db.session.remove()
    return rule_set_id


THURSDAY_SAVED = (
    "Thursday rules",
    "auction-pitch",
    {
        "target": 11,
        "points": ["high", "low", "jack", "game", "off_jack"],
        "win_rule": "bidder-only",
        "gap": 5,
    },
)


def test_joker_pitch_under_the_same_name_asks_and_the_auction_pitch_set_stays_on_no(
    client: Any, app: Any
) -> None:
    assert create(client, "auction-pitch", THREE, **THURSDAY).status_code == 302
    asked = create(client, "joker-pitch", THREE, target=15, rules_name="Thursday rules")
    assert asked.status_code == 409
    said = text(asked.get_data(as_text=True))
    assert "“Thursday rules” is already saved, for Auction Pitch: first to 11 (not 7)" in said
    assert "Replace them and start the game" in said and "Save under another name" in said
    assert saved_sets(app) == [THURSDAY_SAVED]
    assert game_count(app) == 1
    # "Save under another name": the same form with another name starts the game and keeps both.
    other = create(client, "joker-pitch", THREE, target=15, rules_name="Joker Thursdays")
    assert other.status_code == 302
    assert saved_sets(app) == [
        THURSDAY_SAVED,
        ("Joker Thursdays", "joker-pitch", {"target": 15}),
    ]


def test_yes_replaces_the_set_with_the_new_variant_and_rules(client: Any, app: Any) -> None:
    first = create(client, "auction-pitch", THREE, **THURSDAY)
    first_id = int(first.headers["Location"].rsplit("/", 1)[1])
    rule_set_id = saved_id(app, "Thursday rules")
    yes = create(
        client,
        "joker-pitch",
        THREE,
        target=15,
        rules_name="Thursday rules",
        replace_rules=rule_set_id,
    )
    assert yes.status_code == 302
    assert saved_sets(app) == [("Thursday rules", "joker-pitch", {"target": 15})]
    # The game played with the old set keeps its rules.
    assert exported(client, first_id)["house_rules"] == THURSDAY_SAVED[2]


def test_a_yes_for_another_set_than_the_one_of_that_name_asks_again(client: Any, app: Any) -> None:
    create(client, "auction-pitch", THREE, **THURSDAY)
    create(client, "auction-pitch", THREE, target=9, rules_name="Friday")
    friday = saved_id(app, "Friday")
    stale = create(
        client, "joker-pitch", THREE, target=15, rules_name="Thursday rules", replace_rules=friday
    )
    assert stale.status_code == 409
    assert [name for name, _, _ in saved_sets(app)] == ["Thursday rules", "Friday"]


def test_the_chooser_lists_the_sets_first_with_their_variant_and_what_they_change(
    client: Any, app: Any
) -> None:
    create(client, "auction-pitch", THREE, **THURSDAY)
    html = client.get("/games/new").get_data(as_text=True)
    words = text(html)
    assert words.index("Your saved house rules") < words.index("10-Point Pitch")
    assert (
        "Thursday rules Auction Pitch: first to 11 (not 7); points in play: High, Low, Jack, "
        "Game, Off-Jack; bids up to 5 (not 4); the smudge bid is 5; only a made bid goes out; a "
        "lead of 5 at the "
        "target wins"
    ) in words
    rule_set_id = saved_id(app, "Thursday rules")
    assert f'href="/games/new/auction-pitch?rules={rule_set_id}"' in html
    assert f'href="/house-rules/{rule_set_id}/rename"' in html
    assert f'href="/house-rules/{rule_set_id}/delete"' in html


def test_the_form_opened_from_a_set_says_that_sets_rules_not_the_presets(
    client: Any, app: Any
) -> None:
    create(client, "auction-pitch", THREE, **THURSDAY)
    rule_set_id = saved_id(app, "Thursday rules")
    html = client.get(f"/games/new/auction-pitch?rules={rule_set_id}").get_data(as_text=True)
    words = text(html)
    assert "House rules: Thursday rules. first to 11 (not 7)" in words
    assert "first to 7, a made bid of 4 smudges" not in words
    # Its points in their own count-out order, Off-Jack last as saved, ticked.
    parsed = page(html_response(client, f"/games/new/auction-pitch?rules={rule_set_id}"))
    order = [c["value"] for c in parsed.controls if c.get("name") == "point_order"]
    assert order[:5] == ["high", "low", "jack", "game", "off_jack"]
    assert parsed.checked("in_play_off_jack") == "y"
    assert parsed.value("target") == "11"


def html_response(client: Any, url: str) -> Any:
    response = client.get(url)
    assert response.status_code == 200
    return response


def test_a_set_is_renamed_and_a_name_another_set_has_is_refused(client: Any, app: Any) -> None:
    create(client, "auction-pitch", THREE, **THURSDAY)
    create(client, "auction-pitch", THREE, target=9, rules_name="Friday")
    rule_set_id = saved_id(app, "Thursday rules")
    form = client.get(f"/house-rules/{rule_set_id}/rename")
    assert form.status_code == 200
    assert page(form).value("name") == "Thursday rules"
    taken = client.post(f"/house-rules/{rule_set_id}/rename", data={"name": "friday"})
    assert taken.status_code == 400
    assert "“Friday” is already the name of other saved house rules" in text(
        taken.get_data(as_text=True)
    )
    renamed = client.post(f"/house-rules/{rule_set_id}/rename", data={"name": " Thursdays "})
    assert renamed.status_code == 302
    assert [name for name, _, _ in saved_sets(app)] == ["Thursdays", "Friday"]
    # Its own name in another case is its own.
    assert (
        client.post(f"/house-rules/{rule_set_id}/rename", data={"name": "THURSDAYS"}).status_code
        == 302
    )
    too_long = client.post(f"/house-rules/{rule_set_id}/rename", data={"name": "x" * 41})
    assert too_long.status_code == 400
    assert [name for name, _, _ in saved_sets(app)] == ["THURSDAYS", "Friday"]


def test_a_set_is_deleted_after_asking_and_its_games_keep_their_rules(
    client: Any, app: Any
) -> None:
    created = create(client, "auction-pitch", THREE, **THURSDAY)
    game_id = int(created.headers["Location"].rsplit("/", 1)[1])
    before = exported(client, game_id)
    rule_set_id = saved_id(app, "Thursday rules")
    asked = client.get(f"/house-rules/{rule_set_id}/delete")
    assert asked.status_code == 200
    assert "Delete the house rules “Thursday rules”?" in text(asked.get_data(as_text=True))
    assert saved_sets(app) == [THURSDAY_SAVED]  # asking deletes nothing
    assert client.post(f"/house-rules/{rule_set_id}/delete").status_code == 302
    assert saved_sets(app) == []
    assert exported(client, game_id) == before
    assert client.get(f"/house-rules/{rule_set_id}/delete").status_code == 404
    assert client.post(f"/house-rules/{rule_set_id}/rename", data={"name": "x"}).status_code == 404


@pytest.fixture
def organiser_app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    return {**app_config, "ORGANISER_PASSWORD": "cards-on-the-table"}


def test_only_the_organiser_renames_or_deletes_a_set(
    organiser_app_config: dict[str, Any], tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorekeeper import create_app, operations, rules

    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "organiser"))
    app = create_app(organiser_app_config)
    with app.app_context():
        game = rules.Game.create("auction-pitch", THREE, house_rules={"target": 11})
        operations.games.create_game(game, rule_set_name="Thursday rules")
        rule_set_id = operations.rule_sets.named("Thursday rules").id  # type: ignore[union-attr]
    client = app.test_client()
    for method, url in (
        ("GET", f"/house-rules/{rule_set_id}/rename"),
        ("GET", f"/house-rules/{rule_set_id}/delete"),
        ("POST", f"/house-rules/{rule_set_id}/rename"),
        ("POST", f"/house-rules/{rule_set_id}/delete"),
    ):
        response = client.open(url, method=method, data={"name": "Mine now"})
        assert response.status_code == 302 and "/login" in response.headers["Location"], url
    chooser = client.get("/games/new")
    assert "/login" in chooser.headers["Location"]
    client.post("/login", data={"password": "cards-on-the-table"})
    assert re.search(r"Rename “Thursday rules”", text(client.get("/games/new").get_data(True)))
    assert client.post(f"/house-rules/{rule_set_id}/delete").status_code == 302
    with app.app_context():
        assert operations.rule_sets.rule_sets() == []
        db.session.remove()
        db.engine.dispose()
