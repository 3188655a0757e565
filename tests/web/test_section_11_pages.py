"""The wider family at the table's pages (RULES.md 11): the ready-made rule sets on the
new-game chooser, a game ended after a number of hands or when time is called, and the
dealer set back when everyone passes; in English and in Romanian."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from pypdf import PdfReader
from sqlalchemy import select

from scorekeeper import i18n, operations, rules
from scorekeeper.data import models
from scorekeeper.data.extensions import db

from .tables import (
    JOKER_POINTS,
    exported,
    flashes,
    game_count,
    page,
    post_hand,
    setup_form,
    text,
    version_of,
)

SETS = list(rules.RULE_SETS.values())
FOUR = ["Ann", "Bob", "Cy", "Dee"]
THREE = ["Ann", "Bob", "Cy"]
#: A score in the hole as the sheets write it (a true minus sign).
MINUS = "\N{MINUS SIGN}"


def romanian(words: str, **params: Any) -> str:
    said = i18n.translations_for("ro").gettext(words)
    return said % params if params else said


def form_as_drawn(response: Any) -> dict[str, Any]:
    """What the browser posts for a form as the page drew it, every repeated field kept
    (the point rows' order is one hidden field a row)."""
    drawn = page(response)
    data: dict[str, Any] = dict(drawn.selected)
    for control in drawn.controls:
        name, kind = control.get("name"), control.get("type")
        if not name or control["tag"] != "input" or kind in ("submit", "button", "file"):
            continue
        if kind in ("radio", "checkbox") and "checked" not in control:
            continue
        value = control.get("value") or ("y" if kind == "checkbox" else "")
        if name in data and name == "point_order":
            data[name] = [*data[name], value]
        else:
            data[name] = [value] if name == "point_order" else value
    return data


def stored(app: Any, game_id: int) -> tuple[str, dict[str, Any], int | None]:
    with app.app_context():
        row = db.session.get(models.Game, game_id)
        assert row is not None
        found = (row.variant, dict(row.house_rules or {}), row.called)
        db.session.remove()
    return found


def game_id_of(response: Any) -> int:
    assert response.status_code == 302, response.get_data(as_text=True)
    match = re.fullmatch(r"/games/(\d+)", response.headers["Location"])
    assert match, response.headers["Location"]
    return int(match.group(1))


# --- The ready-made rule sets (RULES.md 11.2) -------------------------------------------------


def test_the_chooser_offers_every_ready_made_set_with_its_summary_beside_the_presets(
    client: Any,
) -> None:
    html = client.get("/games/new").get_data(as_text=True)
    said = text(html)
    for rule_set in SETS:
        assert rule_set.name in said and rule_set.summary in said, rule_set.key
        assert f'href="/games/new/{rule_set.variant}?set={rule_set.key}"' in html
        assert f'href="/rules/sets/{rule_set.key}"' in html
    # Beside the presets, which are still offered as their rule books play them.
    assert 'href="/games/new/auction-pitch"' in html and 'href="/games/new/ten-point"' in html


def test_the_chooser_in_romanian_names_every_set_and_says_its_summary_in_romanian(
    client: Any,
) -> None:
    client.post("/language", data={"lang": "ro"})
    said = text(client.get("/games/new").get_data(as_text=True))
    for rule_set in SETS:
        summary = romanian(rule_set.summary)
        assert summary != rule_set.summary, rule_set.key
        assert romanian(rule_set.name) in said and summary in said, rule_set.key
    assert "Pitch cu 13 puncte" in said


@pytest.mark.parametrize("rule_set", SETS, ids=lambda r: r.key)
def test_a_set_opens_its_form_filled_in_and_the_game_keeps_the_preset_and_exactly_its_switches(
    client: Any, app: Any, rule_set: rules.RuleSet
) -> None:
    url = f"/games/new/{rule_set.variant}?set={rule_set.key}"
    response = client.get(url)
    assert response.status_code == 200
    said = text(response.get_data(as_text=True))
    assert f"New game of {rule_set.name}" in said
    assert rule_set.summary in said
    # The set's summary, not the preset's sentence.
    assert rule_set.preset.description not in said
    data = form_as_drawn(response)
    assert data["point_order"][: len(rule_set.played.points)] == list(rule_set.played.point_keys)
    data.update({f"name_{i}": name for i, name in enumerate(FOUR)})
    game_id = game_id_of(client.post(url, data=data))
    variant, house_rules, called = stored(app, game_id)
    assert variant == rule_set.variant
    assert house_rules == rule_set.house_rules()
    assert called is None
    record = exported(client, game_id)
    assert record["variant"] == rule_set.variant
    assert record["house_rules"] == rule_set.house_rules()


def test_thirteen_point_pitch_offers_its_points_as_tap_rows_in_count_out_order(
    client: Any,
) -> None:
    thirteen = rules.RULE_SETS["thirteen-point"]
    url = f"/games/new/ten-point?set={thirteen.key}"
    data = form_as_drawn(client.get(url))
    data.update({f"name_{i}": name for i, name in enumerate(FOUR)})
    game_id = game_id_of(client.post(url, data=data))
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    rows = re.findall(r'<fieldset[^>]*id="point_(\w+)"', html)
    assert rows == [*JOKER_POINTS, "ten", "three", "off_three"]
    assert "Off-Three (3 points)" in text(html)
    bids = re.findall(r'name="bid" required type="radio" value="(\d+)"', html)
    assert bids == [str(b) for b in range(5, 14)]


def test_an_unknown_set_or_one_of_another_variant_opens_the_preset(client: Any) -> None:
    for url in ("/games/new/auction-pitch?set=nope", "/games/new/auction-pitch?set=smear&x=1"):
        said = text(client.get(url).get_data(as_text=True))
        if "smear" in url:
            assert "5-Point Smear" in said
        else:
            assert "New game of Auction Pitch" in said
            assert rules.VARIANTS["auction-pitch"].description in said
    said = text(client.get("/games/new/pedro?set=smear").get_data(as_text=True))
    assert "New game of Pedro" in said and "5-Point Smear" not in said


def test_the_rules_card_of_a_set_names_its_new_points_in_both_languages(client: Any) -> None:
    html = client.get("/rules/sets/thirteen-point").get_data(as_text=True)
    assert re.findall(r'data-rule="point:(\w+)"', html) == list(
        rules.RULE_SETS["thirteen-point"].played.point_keys
    )
    said = text(html)
    assert "13-Point Pitch" in said and "Bids go from 5 to 13." in said
    assert rules.RULE_SETS["thirteen-point"].summary in said and "played as 10-Point Pitch" in said
    assert "Off-Three" in said and "Ten" in said
    sancho = client.get("/rules/sets/sancho-pedro").get_data(as_text=True)
    assert 'data-rule="point:nine"' in sancho and "Nine" in text(sancho)
    assert client.get("/rules/sets/nope").status_code == 404
    pdf = client.get("/rules/sets/eleven-point.pdf")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    assert "Off-Ace" in "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.data)).pages)
    client.post("/language", data={"lang": "ro"})
    ro = text(client.get("/rules/sets/thirteen-point").get_data(as_text=True))
    assert "Celălalt trei" in ro and "Zece" in ro and "Pitch cu 13 puncte" in ro
    assert "Celălalt as" in text(client.get("/rules/sets/eleven-point").get_data(as_text=True))
    assert "Nouă" in text(client.get("/rules/sets/dom-pedro").get_data(as_text=True))


# --- The dealer set when all pass (RULES.md 11.3) ----------------------------------------------


def smear_game(client: Any, names: list[str]) -> int:
    url = "/games/new/auction-pitch?set=smear"
    data = form_as_drawn(client.get(url))
    data.update({f"name_{i}": name for i, name in enumerate(names)})
    return game_id_of(client.post(url, data=data))


def pass_all(client: Any, game_id: int) -> Any:
    return client.post(
        f"/games/{game_id}",
        data={"version": version_of(client, game_id), "passed_out": "y"},
    )


def set_backs(app: Any) -> dict[str, int]:
    with app.app_context():
        rows = db.session.execute(
            select(models.Player.name, models.PlayerStats.set_backs).join(
                models.PlayerStats, models.PlayerStats.player_id == models.Player.id
            )
        ).all()
        db.session.remove()
    return {name: count for name, count in rows}


def test_a_dealer_set_pass_is_one_tap_and_the_sheet_strikes_it_like_a_set_back(
    client: Any, app: Any
) -> None:
    game_id = smear_game(client, THREE)
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    button = 'id="passed_out" name="passed_out" type="submit" value="{}"'
    assert button.format("All passed: the dealer is set") in html
    answer = pass_all(client, game_id)
    assert answer.status_code == 302
    html = client.get(answer.headers["Location"]).get_data(as_text=True)
    assert "Everyone passed: Ann is set back 2. Bob deals." in flashes(html)
    row = re.search(r'<tr id="hand-1" class="([^"]*)">(.*?)</tr>', html, re.S)
    assert row is not None
    assert "set-back" in row.group(1).split() and "passed" in row.group(1).split()
    cells = re.findall(r'<td class="side-cell([^"]*)">(.*?)</td>', row.group(2), re.S)
    assert [("dealer-set" in classes, text(cell)) for classes, cell in cells] == [
        (True, f"2 {MINUS}2 passed out"),
        (False, "0"),
        (False, "0"),
    ]
    assert "<s>2</s>" in cells[0][1]
    said = text(html)
    assert "1 set-back" in said
    # A hand's own page says it too.
    hand = text(client.get(f"/games/{game_id}/hands/1").get_data(as_text=True))
    assert "Everyone passed: Ann is set back 2." in hand
    # The statistics count it as the dealer's set-back (not a bid).
    assert set_backs(app) == {"Ann": 1, "Bob": 0, "Cy": 0}
    # The printed sheet strikes it as a set-back, in the dealer's column.
    pdf = client.get(f"/games/{game_id}/sheet.pdf")
    printed = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.data)).pages)
    assert re.search(rf"1\s*Ann\s*passed out\s*2 SET\s*{MINUS}2\s*0\s*0", printed), printed


def test_a_dealer_set_pass_in_romanian(client: Any) -> None:
    game_id = smear_game(client, THREE)
    client.post("/language", data={"lang": "ro"})
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert f'value="{romanian("All passed: the dealer is set")}"' in html
    answer = pass_all(client, game_id)
    said = flashes(client.get(answer.headers["Location"]).get_data(as_text=True))
    assert said[0].startswith(
        romanian("Everyone passed: %(dealer)s is set back %(bid)s.", dealer="Ann", bid=2)
    )


# --- Ending after a number of hands (RULES.md 11.4) --------------------------------------------


def take(pitcher: str, bid: int, **points: str | None) -> dict[str, Any]:
    return {"pitcher": pitcher, "bid": bid, **points}


def test_a_game_of_two_hands_without_a_target_says_what_is_left_and_names_the_winner(
    client: Any, app: Any
) -> None:
    data = setup_form("auction-pitch", ["Ann", "Bob"], target="", hands=2)
    game_id = game_id_of(client.post("/games/new/auction-pitch", data=data))
    assert stored(app, game_id)[1] == {"target": None, "hands": 2}
    said = text(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "2 hands left: the highest score after hand 2 wins; a tie plays on." in said
    assert "First to" not in said
    board = text(client.get(f"/games/{game_id}/board").get_data(as_text=True))
    assert "Auction Pitch · the most points after 2 hands" in board
    assert "2 hands left: the highest score after hand 2 wins; a tie plays on." in board
    two = ["Ann", "Bob"]
    post_hand(client, game_id, two, **take("Ann", 2, high="Ann", low="Ann", jack="Bob", game="Bob"))
    said = text(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "1 hand left: the highest score after hand 2 wins; a tie plays on." in said
    board = text(client.get(f"/games/{game_id}/board").get_data(as_text=True))
    assert "1 hand left" in board
    pdf = client.get(f"/games/{game_id}/sheet.pdf")
    printed = " ".join(
        " ".join((p.extract_text() or "").split()) for p in PdfReader(io.BytesIO(pdf.data)).pages
    )
    assert "the most points after 2 hands" in printed
    assert "1 hand left: the highest score after hand 2 wins; a tie plays on." in printed
    post_hand(client, game_id, two, **take("Ann", 2, high="Ann", low="Ann", jack="Ann", game="Bob"))
    said = text(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "Ann won with the most points at hand 2." in said


def test_a_tie_after_the_last_hand_plays_on_and_says_so(client: Any) -> None:
    data = setup_form("auction-pitch", ["Ann", "Bob"], target="", hands=1)
    game_id = game_id_of(client.post("/games/new/auction-pitch", data=data))
    two = ["Ann", "Bob"]
    post_hand(client, game_id, two, **take("Ann", 2, high="Ann", low="Ann", jack="Bob", game="Bob"))
    said = text(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert (
        "Hand 1 was the last, and the top is shared: the game plays on until one side is alone "
        "at the top after a hand." in said
    )
    assert "Call time after this hand" not in said


def test_a_game_with_a_target_and_a_count_of_hands_says_both(client: Any, app: Any) -> None:
    data = setup_form("auction-pitch", THREE, hands=6)
    game_id = game_id_of(client.post("/games/new/auction-pitch", data=data))
    assert stored(app, game_id)[1] == {"hands": 6}
    said = text(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "First to 7. 6 hands left: the highest score after hand 6 wins; a tie plays on." in said
    board = text(client.get(f"/games/{game_id}/board").get_data(as_text=True))
    assert "first to 7, or the most points after 6 hands" in board


#: Each refusal of a game without a target: the form as sent, the field it is said by, and
#: its line in English.
NO_TARGET_REFUSALS = [
    (
        {"target": ""},
        "target",
        "Give the target score, or a number of hands to end the game after (the most points "
        "then win).",
    ),
    (
        {"target": "", "hands": 3, "smudge": "always"},
        "smudge",
        "Without a target no bid wins at once: choose “No smudge: the top bid is an ordinary "
        "bid”, or give a target score.",
    ),
    (
        {"target": "", "hands": 3, "smudge_failed": "loses"},
        "smudge_failed",
        "Without a target a failed smudge cannot lose the game: choose “Set back by the bid, "
        "like any bid”, or give a target score.",
    ),
]


@pytest.mark.parametrize(("sent", "where", "line"), NO_TARGET_REFUSALS)
def test_a_game_without_a_target_is_refused_in_one_line_and_nothing_is_started(
    client: Any, app: Any, sent: dict[str, Any], where: str, line: str
) -> None:
    data = setup_form("auction-pitch", ["Ann", "Bob"], **sent)
    response = client.post("/games/new/auction-pitch", data=data)
    assert response.status_code == 400
    drawn = page(response)
    assert drawn.errors.get(where) == [line], drawn.errors
    assert game_count(app) == 0


def test_the_refusals_of_a_game_without_a_target_in_romanian(client: Any, app: Any) -> None:
    client.post("/language", data={"lang": "ro"})
    expected = {
        "target": romanian(
            "Give the target score, or a number of hands to end the game after (the most "
            "points then win)."
        ),
        "smudge": romanian(
            "Without a target no bid wins at once: choose “%(off)s”, or give a target score.",
            off=romanian("No smudge: the top bid is an ordinary bid"),
        ),
    }
    for sent, where, line in NO_TARGET_REFUSALS[:2]:
        data = setup_form("auction-pitch", ["Ann", "Bob"], **sent)
        drawn = page(client.post("/games/new/auction-pitch", data=data))
        assert drawn.errors.get(where) == [expected[where]], drawn.errors
        assert expected[where] != line
    assert game_count(app) == 0


def test_a_count_of_hands_out_of_range_is_refused_next_to_it(client: Any, app: Any) -> None:
    data = setup_form("auction-pitch", ["Ann", "Bob"], hands=201)
    drawn = page(client.post("/games/new/auction-pitch", data=data))
    assert drawn.errors.get("hands") == ["Number must be between 1 and 200."]
    assert game_count(app) == 0


# --- Time called (RULES.md 11.4) ---------------------------------------------------------------


def test_call_time_asks_once_then_the_highest_score_after_that_hand_wins(
    client: Any, app: Any
) -> None:
    data = setup_form("auction-pitch", THREE)
    game_id = game_id_of(client.post("/games/new/auction-pitch", data=data))
    first = take("Ann", 2, high="Ann", low="Ann", jack="Bob", game="Cy")
    post_hand(client, game_id, THREE, **first)
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert f'href="/games/{game_id}/call-time"' in html
    asked = client.get(f"/games/{game_id}/call-time")
    assert asked.status_code == 200
    said = text(asked.get_data(as_text=True))
    assert "Call time after hand 2?" in said
    assert "Yes, call time after hand 2" in said and "No, play on" in said
    assert stored(app, game_id)[2] is None  # asking calls nothing
    form = page(asked).submitted()
    assert form["after"] == "2" and form["version"] == str(version_of(client, game_id))
    answer = client.post(f"/games/{game_id}/call-time", data=form)
    assert answer.status_code == 302
    html = client.get(answer.headers["Location"]).get_data(as_text=True)
    line = "Time called: the highest score after hand 2 wins; a tie plays on."
    assert line in flashes(html)
    assert line in text(re.search(r'<p class="dealer-line">.*?</p>', html, re.S).group(0))
    assert f'href="/games/{game_id}/call-time"' not in html
    assert stored(app, game_id)[2] == 2
    assert exported(client, game_id)["called"] == 2
    # The call is kept in the game's trail, with who called it and after which hand.
    with app.app_context():
        chain = operations.trail.entries(operations.loading.load(game_id).row)
        db.session.remove()
    assert [(e.kind, e.who, e.detail) for e in chain] == [
        ("recorded", "phone", None),
        ("called", "phone", {"after": 2}),
    ]
    hand_page = text(client.get(f"/games/{game_id}/hands/1").get_data(as_text=True))
    assert "the game ends after hand 2" not in hand_page  # the call is the game's, not hand 1's
    board = text(client.get(f"/games/{game_id}/board").get_data(as_text=True))
    assert line in board
    # Hand 2: Bob makes 2, Ann takes Jack and Game; Ann is alone at the top and wins.
    second = take("Bob", 2, high="Bob", low="Bob", jack="Ann", game="Ann")
    post_hand(client, game_id, THREE, **second)
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    said = text(html)
    assert "Ann won with the most points at hand 2. Time was called after hand 2." in said
    assert exported(client, game_id)["called"] == 2


def test_a_yes_for_a_game_that_moved_on_calls_nothing(client: Any, app: Any) -> None:
    data = setup_form("auction-pitch", THREE)
    game_id = game_id_of(client.post("/games/new/auction-pitch", data=data))
    form = page(client.get(f"/games/{game_id}/call-time")).submitted()
    first = take("Ann", 2, high="Ann", low="Ann", jack="Bob", game="Cy")
    post_hand(client, game_id, THREE, **first)
    answer = client.post(f"/games/{game_id}/call-time", data=form)
    html = client.get(answer.headers["Location"]).get_data(as_text=True)
    assert any("The score sheet changed since this form was opened" in f for f in flashes(html))
    assert stored(app, game_id)[2] is None
    # Without a version the form is not read at all.
    assert client.post(f"/games/{game_id}/call-time", data={"after": "2"}).status_code == 400
    assert stored(app, game_id)[2] is None


def test_time_cannot_be_called_twice_or_on_a_game_over_and_says_why(client: Any, app: Any) -> None:
    data = setup_form("auction-pitch", THREE)
    game_id = game_id_of(client.post("/games/new/auction-pitch", data=data))
    form = page(client.get(f"/games/{game_id}/call-time")).submitted()
    client.post(f"/games/{game_id}/call-time", data=form)
    assert stored(app, game_id)[2] == 1
    line = (
        f"Time cannot be called on game {game_id} now: it is over, time was called already, "
        "or its count of hands ends it with this hand anyway."
    )
    again = client.post(
        f"/games/{game_id}/call-time", data={"version": version_of(client, game_id)}
    )
    assert line in flashes(client.get(again.headers["Location"]).get_data(as_text=True))
    asked = client.get(f"/games/{game_id}/call-time")
    assert asked.status_code == 302
    assert line in flashes(client.get(asked.headers["Location"]).get_data(as_text=True))
    assert stored(app, game_id)[2] == 1
    client.post("/language", data={"lang": "ro"})
    asked = client.get(f"/games/{game_id}/call-time")
    ro_line = romanian(
        "Time cannot be called on game %(id)s now: it is over, time was called already, or "
        "its count of hands ends it with this hand anyway.",
        id=game_id,
    )
    assert ro_line != line
    assert ro_line in flashes(client.get(asked.headers["Location"]).get_data(as_text=True))


def test_time_called_in_romanian(client: Any) -> None:
    data = setup_form("auction-pitch", THREE)
    game_id = game_id_of(client.post("/games/new/auction-pitch", data=data))
    client.post("/language", data={"lang": "ro"})
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert romanian("Call time after this hand") in text(html)
    form = page(client.get(f"/games/{game_id}/call-time")).submitted()
    answer = client.post(f"/games/{game_id}/call-time", data=form)
    line = romanian(
        "Time called: the highest score after hand %(hand)s wins; a tie plays on.", hand=1
    )
    assert line != "Time called: the highest score after hand 1 wins; a tie plays on."
    assert line in flashes(client.get(answer.headers["Location"]).get_data(as_text=True))


def test_only_the_organiser_sees_or_calls_time_once_a_password_is_set(
    client: Any, app: Any
) -> None:
    data = setup_form("auction-pitch", THREE)
    game_id = game_id_of(client.post("/games/new/auction-pitch", data=data))
    app.config["ORGANISER_PASSWORD"] = "cards-on-the-table"
    shown = text(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "Call time after this hand" not in shown
    version = version_of(client, game_id)
    for method in ("GET", "POST"):
        response = client.open(
            f"/games/{game_id}/call-time", method=method, data={"version": version, "after": 1}
        )
        assert response.status_code == 302 and "/login" in response.headers["Location"]
    assert stored(app, game_id)[2] is None
    client.post("/login", data={"password": "cards-on-the-table"})
    assert "Call time after this hand" in text(
        client.get(f"/games/{game_id}").get_data(as_text=True)
    )
    client.post(f"/games/{game_id}/call-time", data={"version": version, "after": 1})
    assert stored(app, game_id)[2] == 1


def test_the_printed_sheet_names_the_new_points_in_both_languages(client: Any) -> None:
    url = "/games/new/ten-point?set=thirteen-point"
    data = form_as_drawn(client.get(url))
    data.update({f"name_{i}": name for i, name in enumerate(FOUR)})
    game_id = game_id_of(client.post(url, data=data))

    def printed() -> str:
        pdf = client.get(f"/games/{game_id}/sheet.pdf")
        found = " ".join((p.extract_text() or "") for p in PdfReader(io.BytesIO(pdf.data)).pages)
        return " ".join(found.split())

    assert "10 Ten · 3 Three · O3 Off-Three." in printed()
    client.post("/language", data={"lang": "ro"})
    ro = printed()
    marks = [romanian(mark) for mark in ("10", "3", "O3")]
    names = [romanian(name) for name in ("Ten", "Three", "Off-Three")]
    said = " · ".join(f"{mark} {name}" for mark, name in zip(marks, names, strict=True))
    assert said + "." in ro
    assert "Celălalt trei" in ro
