"""The new-game form's "Shape of the game" (RULES.md section 10) and saved house rules."""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import select

from scorekeeper.data import models
from scorekeeper.data.extensions import db

from .tables import JOKER_POINTS, exported, game_count, html_of, setup_form, text

FOUR = ["Ann", "Bob", "Cy", "Dee"]
PARTNERS = ["NS", "EW", "NS", "EW"]


def ticked(html: str) -> list[str]:
    """The points ticked as in play, in the order the form lists them."""
    return re.findall(r'<input checked[^>]*id="in_play_(\w+)"', html)


def offered(html: str) -> list[str]:
    return re.findall(r'id="in_play_(\w+)"', html)


def value_of(html: str, name: str) -> str:
    found = re.search(rf'<input[^>]*id="{name}"[^>]*value="([^"]*)"', html)
    return found.group(1) if found else ""


def errors_next_to(html: str, field_id: str) -> str:
    found = re.search(rf'id="{field_id}-errors">(.*?)</ul>', html, re.S)
    return text(found.group(1)) if found else ""


def create(client: Any, variant: str, names: list[str], **changes: Any) -> Any:
    return client.post(f"/games/new/{variant}", data=setup_form(variant, names, **changes))


def test_the_shape_of_a_ten_point_game_is_prefilled_from_its_preset(client: Any) -> None:
    html = html_of(client, "/games/new/ten-point")
    assert "Shape of the game" in html
    assert ticked(html) == [*JOKER_POINTS, "three", "game"]
    assert offered(html)[8:] == [
        "joker",
        "six",
        "last_trick",
        "pedro",
        "ten",
        "off_ace",
        "off_three",
        "nine",
    ]
    assert 'id="points-total">10<' in html
    assert [value_of(html, n) for n in ("min_bid", "max_bid", "smudge_bid", "gap")] == [
        "4",
        "10",
        "10",
        "0",
    ]
    assert 'src="/static/js/shape.js"' in html


def test_cinch_and_sell_out_have_no_shape_to_change(client: Any) -> None:
    for variant in ("cinch", "sell-out"):
        html = html_of(client, f"/games/new/{variant}")
        assert "Shape of the game" not in html and 'id="min_bid"' not in html


def test_a_ten_point_game_with_a_lowest_bid_of_five_keeps_only_that_switch(client: Any) -> None:
    response = create(client, "ten-point", FOUR, teams=PARTNERS, min_bid=5)
    assert response.status_code == 302
    game_id = int(response.headers["Location"].rsplit("/", 1)[1])
    assert exported(client, game_id)["house_rules"] == {"min_bid": 5}


def test_an_off_jack_ticked_without_script_raises_the_top_bid_with_the_points(client: Any) -> None:
    response = create(client, "auction-pitch", ["Ann", "Bob", "Cy"], in_play_off_jack="y")
    assert response.status_code == 302
    game_id = int(response.headers["Location"].rsplit("/", 1)[1])
    record = exported(client, game_id)
    assert record["house_rules"] == {"points": ["high", "low", "jack", "game", "off_jack"]}
    bids = re.findall(r'name="bid"[^>]*value="(\d+)"', html_of(client, f"/games/{game_id}"))
    assert bids == ["2", "3", "4", "5"]


def test_points_worth_less_than_the_lowest_bid_are_refused_next_to_the_points(
    client: Any, app: Any
) -> None:
    data = setup_form("pitch-six", ["Ann", "Bob", "Cy"])
    for key in ("jack", "six", "last_trick", "game"):
        del data[f"in_play_{key}"]
    response = client.post("/games/new/pitch-six", data=data)
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert errors_next_to(html, "points-in-play") == (
        "The points ticked are worth 2, less than the lowest bid, 3: tick more points, "
        "or lower the lowest bid."
    )
    assert 'id="points-total">2<' in html
    assert game_count(app) == 0


def test_an_impossible_switch_is_refused_next_to_its_field(client: Any, app: Any) -> None:
    cases = [
        ("ten-point", FOUR, {"min_bid": 11}, "min_bid", "The lowest bid, 11, is above the highest"),
        ("ten-point", FOUR, {"max_bid": 11}, "max_bid", "11 is more than the points in play"),
        ("ten-point", FOUR, {"smudge_bid": 3}, "smudge_bid", "give a bid from 4 to 10"),
        ("ten-point", FOUR, {"win_rule": "sideways"}, "win_rule", "not one of the choices for"),
        (
            "ten-point",
            FOUR[:3],
            {"smudge_failed": "loses"},
            "smudge_failed",
            "only with exactly two sides (two players, or two teams); this game has 3",
        ),
    ]
    for variant, names, changes, field, words in cases:
        response = create(client, variant, names, **changes)
        assert response.status_code == 400, field
        assert words in errors_next_to(response.get_data(as_text=True), field), field
    assert game_count(app) == 0


def test_rules_saved_under_a_name_are_offered_and_prefill_the_next_game(
    client: Any, app: Any
) -> None:
    response = create(
        client,
        "ten-point",
        FOUR,
        teams=PARTNERS,
        min_bid=5,
        smudge_failed="loses",
        target=62,
        rules_name="Thursday rules",
    )
    assert response.status_code == 302
    with app.app_context():
        saved = db.session.execute(select(models.RuleSet)).scalar_one()
        assert (saved.name, saved.variant) == ("Thursday rules", "ten-point")
        assert saved.house_rules == {"target": 62, "min_bid": 5, "smudge_failed": "loses"}
        rule_set_id = saved.id
    choose = html_of(client, "/games/new")
    assert f'href="/games/new/ten-point?rules={rule_set_id}"' in choose
    assert "Thursday rules" in text(choose)
    html = html_of(client, f"/games/new/ten-point?rules={rule_set_id}")
    assert "House rules: Thursday rules." in text(html)
    assert (value_of(html, "target"), value_of(html, "min_bid")) == ("62", "5")
    assert 'value="loses" selected' in html or 'selected value="loses"' in html


def test_saving_under_a_name_already_used_asks_first_and_replaces_only_on_yes(
    client: Any, app: Any
) -> None:
    first = create(client, "ten-point", FOUR, teams=PARTNERS, target=62, rules_name="Thursday")
    assert first.status_code == 302
    asked = create(client, "ten-point", FOUR, teams=PARTNERS, target=72, rules_name="thursday")
    assert asked.status_code == 409
    said = text(asked.get_data(as_text=True))
    assert "“Thursday” is already saved, for 10-Point Pitch: first to 62 (not 52)." in said
    assert game_count(app) == 1  # nothing started while asking
    with app.app_context():
        (saved,) = db.session.execute(select(models.RuleSet)).scalars()
        assert saved.house_rules == {"target": 62}
        saved_id = saved.id
    yes = create(
        client,
        "ten-point",
        FOUR,
        teams=PARTNERS,
        target=72,
        rules_name="thursday",
        replace_rules=saved_id,
    )
    assert yes.status_code == 302
    with app.app_context():
        (saved,) = db.session.execute(select(models.RuleSet)).scalars()
        assert (saved.name, saved.house_rules) == ("thursday", {"target": 72})
    assert game_count(app) == 2


def test_a_rule_set_name_with_edge_spaces_is_trimmed_and_a_long_one_refused(
    client: Any, app: Any
) -> None:
    response = create(client, "ten-point", FOUR, rules_name="x" * 41)
    assert response.status_code == 400
    assert game_count(app) == 0
    response = create(client, "ten-point", FOUR, rules_name="  Friday  ")
    assert response.status_code == 302
    with app.app_context():
        assert db.session.execute(select(models.RuleSet.name)).scalar_one() == "Friday"


def test_an_unknown_or_other_variants_rule_set_is_ignored(client: Any) -> None:
    create(client, "ten-point", FOUR, min_bid=5, rules_name="Thursday rules")
    html = html_of(client, "/games/new/auction-pitch?rules=1")
    assert "House rules: Thursday rules" not in text(html) and value_of(html, "min_bid") == "2"
    html = html_of(client, "/games/new/ten-point?rules=99")
    assert value_of(html, "min_bid") == "4"


def test_a_form_sent_without_the_shape_part_plays_the_presets_shape(client: Any) -> None:
    data = setup_form("ten-point", FOUR)
    for name in [k for k in data if k.startswith("in_play_")] + [
        "shape_shown",
        "min_bid",
        "max_bid",
        "smudge_bid",
        "win_rule",
        "pitcher_scores",
        "gap",
        "smudge_failed",
    ]:
        del data[name]
    response = client.post("/games/new/ten-point", data=data)
    assert response.status_code == 302
    game_id = int(response.headers["Location"].rsplit("/", 1)[1])
    assert "house_rules" not in exported(client, game_id)


def test_a_bid_left_empty_is_the_presets(client: Any) -> None:
    response = create(client, "ten-point", FOUR, min_bid="", max_bid="", gap="")
    assert response.status_code == 302
    game_id = int(response.headers["Location"].rsplit("/", 1)[1])
    assert "house_rules" not in exported(client, game_id)
