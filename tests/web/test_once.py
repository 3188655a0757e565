"""Every hand is recorded once, and the person who saved it sees what was saved.

The hand form carries a one-time key and the number of the hand it was opened for. A key
used before answers with the hand it saved; a form overtaken by another phone comes back
empty, saying what that phone recorded; a hand tapped as the last one asks first.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from sqlalchemy import select

from scorekeeper.data import models
from scorekeeper.data.extensions import db

from .tables import (
    ap_hand,
    create_game,
    flashes,
    hand_count,
    hand_form,
    import_game,
    opened,
    page,
    post_opened,
    record,
    text,
)

PLAYERS = ["Ana", "Bogdan", "Cristi", "Dana"]
#: Ana bids 3 and takes High, Low and Game: made.
ANA_MAKES_3 = {"pitcher": "Ana", "bid": 3, "high": "Ana", "low": "Ana", "jack": None, "game": "Ana"}
#: Bogdan bids 2 and takes only Jack: set back.
BOGDAN_SET = {"pitcher": "Bogdan", "bid": 2, "high": "Ana", "low": "Ana", "jack": "Bogdan"}
BOGDAN_SET["game"] = "Cristi"


@pytest.fixture
def game_id(client: Any) -> int:
    return create_game(client, "auction-pitch", PLAYERS)


def save(client: Any, game_id: int, form: dict[str, str], **taps: Any) -> Any:
    return post_opened(client, game_id, PLAYERS, form, **taps)


def stored_keys(app: Any) -> list[tuple[str, int, int | None, int]]:
    with app.app_context():
        rows = db.session.execute(
            select(
                models.HandKey.key,
                models.HandKey.game_id,
                models.HandKey.hand_id,
                models.HandKey.number,
            ).order_by(models.HandKey.created_at)
        ).all()
        db.session.remove()
    return [tuple(row) for row in rows]  # type: ignore[misc]


# --- The one-time key --------------------------------------------------------------------------


def test_the_hand_form_carries_a_fresh_key_and_the_number_of_the_hand_it_is_for(
    client: Any, game_id: int
) -> None:
    first, second = opened(client, game_id), opened(client, game_id)
    assert first["number"] == "1"
    assert len(first["token"]) >= 16
    assert first["token"] != second["token"]


def test_a_second_use_of_a_key_answers_with_the_hand_already_saved_not_a_new_row(
    client: Any, app: Any, game_id: int
) -> None:
    form = opened(client, game_id)
    assert save(client, game_id, form, **ANA_MAKES_3).status_code == 302
    assert flashes(client.get(f"/games/{game_id}").get_data(as_text=True)) == ["Ana made 3."]
    # The same page sent again (a double tap, Back and Save), with the same taps.
    again = save(client, game_id, form, **ANA_MAKES_3)
    assert again.status_code == 302
    assert again.headers["Location"] == f"/games/{game_id}#flashes"
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert flashes(html) == ["Hand 1 was already saved: Ana made 3."]
    assert hand_count(app, game_id) == 1
    ((key, game, hand_id, number),) = stored_keys(app)
    assert (key, game, number) == (form["token"], game_id, 1) and hand_id is not None


def test_the_page_that_saved_a_hand_sent_again_with_a_change_shows_both_and_saves_nothing(
    client: Any, app: Any, game_id: int
) -> None:
    form = opened(client, game_id)
    assert save(client, game_id, form, **ANA_MAKES_3).status_code == 302
    # Back to the page that saved hand 1, a tap changed, Save: never dropped silently.
    response = save(client, game_id, form, **{**ANA_MAKES_3, "jack": "Dana"})
    assert response.status_code == 409
    html = response.get_data(as_text=True)
    assert "Hand 1 was saved from this page before: Ana made 3." in text(html)
    assert 'class="differs"><th scope="row">Jack</th><td>Dana</td><td>Nobody' in html
    parsed = page(response)
    assert parsed.checked("point_jack") == "3"  # the taps kept
    assert parsed.value("token") != form["token"]  # its key is spent
    assert hand_count(app, game_id) == 1


def test_the_winning_hands_form_sent_again_answers_with_that_hand_not_game_over(
    client: Any, app: Any
) -> None:
    game_id = import_game(
        client, record("auction-pitch", PLAYERS, [ap_hand("Ana", 3, "Ana", "Ana", "Ana", "Ana")])
    )
    form = opened(client, game_id)
    assert save(client, game_id, form, **ANA_MAKES_3).status_code == 302
    assert save(client, game_id, form, **ANA_MAKES_3).status_code == 302
    assert flashes(client.get(f"/games/{game_id}").get_data(as_text=True)) == [
        "Ana made 3. Ana wins!",
        "Hand 2 was already saved: Ana made 3. Ana wins!",
    ]
    assert hand_count(app, game_id) == 2


def test_a_key_from_another_game_is_refused_and_records_nothing(
    client: Any, app: Any, game_id: int
) -> None:
    other = create_game(client, "auction-pitch", ["Eva", "Filip"])
    form = opened(client, game_id)
    assert save(client, game_id, form, **ANA_MAKES_3).status_code == 302
    moved = {**form, "version": opened(client, other)["version"], "number": "1"}
    data = {**moved, **hand_form(["Eva", "Filip"], pitcher="Eva", bid=2, high="Eva", low="Eva")}
    data.update(point_jack="nobody", point_game="1")
    response = client.post(f"/games/{other}", data=data)
    assert response.status_code == 400
    parsed = page(response)
    assert parsed.form_errors == ["This form was opened for another game; nothing was saved here."]
    assert parsed.value("token") not in (None, form["token"])
    assert hand_count(app, other) == 0


@pytest.mark.parametrize(
    "key",
    [
        "k" * 65,  # longer than the column: PostgreSQL answered 500 (issue 19, item 12)
        "k" * 2000,
        "short-key",  # too short to be unique everywhere
        "a key with spaces and ünicode!",
        "%2F" * 10,
    ],
)
def test_a_malformed_key_is_refused_with_a_message_and_changes_nothing(
    client: Any, app: Any, game_id: int, key: str
) -> None:
    form = {**opened(client, game_id), "token": key}
    response = save(client, game_id, form, **ANA_MAKES_3)
    assert response.status_code == 400
    parsed = page(response)
    assert parsed.form_errors == [
        "This form's key is not valid; nothing was saved. Tap the hand in again."
    ]
    assert hand_count(app, game_id) == 0
    assert stored_keys(app) == []
    # A fresh form to tap the hand in again, which then saves.
    assert save(client, game_id, parsed.submitted(), **ANA_MAKES_3).status_code == 302
    assert hand_count(app, game_id) == 1


def test_a_key_of_64_characters_made_on_a_phone_is_taken(
    client: Any, app: Any, game_id: int
) -> None:
    key = "Phone_made-key" + "x" * 50
    assert len(key) == 64
    form = {**opened(client, game_id), "token": key}
    assert save(client, game_id, form, **ANA_MAKES_3).status_code == 302
    assert [row[0] for row in stored_keys(app)] == [key]


def test_a_key_whose_hand_was_undone_cannot_record_it_again(
    client: Any, app: Any, game_id: int
) -> None:
    form = opened(client, game_id)
    save(client, game_id, form, **ANA_MAKES_3)
    undo = page(client.get(f"/games/{game_id}/undo")).submitted()
    assert client.post(f"/games/{game_id}/undo", data=undo).status_code == 302
    assert hand_count(app, game_id) == 0
    # The old page (Back twice) sent again, with its taps and a version made to match.
    stale = {**form, "version": opened(client, game_id)["version"]}
    response = save(client, game_id, stale, **ANA_MAKES_3)
    assert response.status_code == 302
    assert flashes(client.get(f"/games/{game_id}").get_data(as_text=True)) == [
        "This form saved hand 1 before, and it was undone since; nothing was saved."
    ]
    assert hand_count(app, game_id) == 0
    ((_, _, hand_id, _),) = stored_keys(app)
    assert hand_id is None


# --- Two phones --------------------------------------------------------------------------------


def test_a_form_overtaken_by_another_phone_keeps_its_taps_beside_that_phones_hand(
    client: Any, app: Any, game_id: int
) -> None:
    phone_a, phone_b = opened(client, game_id), opened(client, game_id)
    assert save(client, game_id, phone_a, **ANA_MAKES_3).status_code == 302
    response = save(client, game_id, phone_b, **BOGDAN_SET)
    assert response.status_code == 409
    html = response.get_data(as_text=True)
    asked = text(html.split('id="disagreement" role="alert">', 1)[1].split("</div>", 1)[0])
    assert asked.startswith(
        "Another phone recorded hand 1: Ana made 3. Nothing was saved from this form."
    )
    # Every choice of both hands, the differences marked.
    assert "Who won the bid? Bogdan Ana ≠" in asked
    assert "Bid 2 3 ≠" in asked
    assert "High Ana Ana Low (holder) Ana Ana" in asked
    assert "Jack Bogdan Nobody ≠" in asked and "Game Cristi Ana ≠" in asked
    # The taps stay, and the table chooses: the next hand, a correction of hand 1, or drop.
    parsed = page(response)
    assert parsed.checked("pitcher") == "1" and parsed.checked("point_game") == "2"
    assert parsed.value("number") == "1"
    assert 'name="as_number" value="2"' in html
    assert (
        'name="correct" value="1"' in html and f'formaction="/games/{game_id}/hands/1/edit' in html
    )
    assert f'id="drop-mine" href="/games/{game_id}"' in html
    # Save pressed again on it: asked again, still one hand.
    assert client.post(f"/games/{game_id}", data=parsed.submitted()).status_code == 409
    assert hand_count(app, game_id) == 1


def test_every_hand_another_phone_recorded_meanwhile_is_said(client: Any, game_id: int) -> None:
    phone_b = opened(client, game_id)
    save(client, game_id, opened(client, game_id), **ANA_MAKES_3)
    save(client, game_id, opened(client, game_id), **BOGDAN_SET)
    html = save(client, game_id, phone_b, **ANA_MAKES_3).get_data(as_text=True)
    asked = text(html.split('id="disagreement" role="alert">', 1)[1].split("</div>", 1)[0])
    assert asked.startswith(
        "Another phone recorded hand 1: Ana made 3. "
        "Another phone recorded hand 2: Bogdan is set back 2 and is in the hole. "
        "Nothing was saved from this form."
    )
    assert "The two hands are the same." in asked
    assert 'name="as_number" value="3"' in html


# --- The same hand again -----------------------------------------------------------------------


def test_a_hand_tapped_as_the_last_one_asks_first_and_saves_nothing(
    client: Any, app: Any, game_id: int
) -> None:
    save(client, game_id, opened(client, game_id), **ANA_MAKES_3)
    form = opened(client, game_id)
    response = save(client, game_id, form, **ANA_MAKES_3)
    assert response.status_code == 409
    html = response.get_data(as_text=True)
    assert "Same as hand 1 — record it again?" in text(html)
    parsed = page(response)
    # The taps stay, to confirm; the key and the hand are the form's own.
    assert parsed.checked("pitcher") == "0" and parsed.checked("bid") == "3"
    assert parsed.value("token") == form["token"] and parsed.value("number") == "2"
    assert hand_count(app, game_id) == 1
    # "No" is a link to an empty form; "Yes" posts the form with again=1.
    assert f'<a class="button" href="/games/{game_id}">No, leave it out</a>' in html
    assert 'name="again" value="1"' in html


def test_yes_to_the_same_hand_again_records_it_once(client: Any, app: Any, game_id: int) -> None:
    save(client, game_id, opened(client, game_id), **ANA_MAKES_3)
    form = opened(client, game_id)
    asked = page(save(client, game_id, form, **ANA_MAKES_3))
    yes = {**asked.submitted(), "again": "1"}
    assert client.post(f"/games/{game_id}", data=yes).status_code == 302
    assert client.post(f"/games/{game_id}", data=yes).status_code == 302  # a double tap
    assert hand_count(app, game_id) == 2
    assert flashes(client.get(f"/games/{game_id}").get_data(as_text=True)) == [
        "Ana made 3.",
        "Hand 2 was already saved: Ana made 3.",
    ]


def test_a_yes_given_for_another_hand_asks_again(client: Any, app: Any, game_id: int) -> None:
    save(client, game_id, opened(client, game_id), **BOGDAN_SET)
    save(client, game_id, opened(client, game_id), **ANA_MAKES_3)
    form = {**opened(client, game_id), "again": "1"}
    response = save(client, game_id, form, **ANA_MAKES_3)
    assert response.status_code == 409
    assert "Same as hand 2 — record it again?" in text(response.get_data(as_text=True))
    assert hand_count(app, game_id) == 2


def test_hands_that_differ_in_one_tap_or_only_in_the_note_are_told_apart_rightly(
    client: Any, app: Any, game_id: int
) -> None:
    save(client, game_id, opened(client, game_id), **ANA_MAKES_3)
    other_jack = {**ANA_MAKES_3, "jack": "Dana"}
    assert save(client, game_id, opened(client, game_id), **other_jack).status_code == 302
    noted = {**opened(client, game_id), "note": "redealt"}
    assert save(client, game_id, noted, **other_jack).status_code == 409
    assert hand_count(app, game_id) == 2


def test_everyone_passing_twice_in_a_row_is_not_asked_about(client: Any, app: Any) -> None:
    game_id = import_game(
        client,
        record(
            "auction-pitch",
            PLAYERS,
            [{"passed": True}],
            house_rules={"all_pass": "redeal-next-dealer"},
        ),
    )
    form = {**opened(client, game_id), "passed_out": "Everyone passed"}
    assert client.post(f"/games/{game_id}", data=form).status_code == 302
    assert hand_count(app, game_id) == 2


# --- What the recorder sees --------------------------------------------------------------------


def test_the_hand_form_answers_at_its_own_top_and_a_save_at_the_sentence(
    client: Any, game_id: int
) -> None:
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    form_tag = re.search(r'<form[^>]*id="hand-form"[^>]*>', html)
    assert form_tag is not None
    assert f'action="/games/{game_id}#hand-form"' in form_tag.group(0)
    # The browser must not fill a fresh form in from its history (Back).
    assert 'autocomplete="off"' in form_tag.group(0)
    response = save(client, game_id, opened(client, game_id), **ANA_MAKES_3)
    assert response.headers["Location"] == f"/games/{game_id}#flashes"
    after = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert after.index('id="flashes"') < after.index('id="standings"') < after.index("deals hand")


def test_a_refused_hand_lists_every_field_needing_attention_at_the_top_of_the_form(
    client: Any, app: Any, game_id: int
) -> None:
    taps = {key: value for key, value in ANA_MAKES_3.items() if key not in ("low", "game")}
    response = save(client, game_id, opened(client, game_id), **taps)
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    form = html.split('id="hand-form"', 1)[1]
    summary = form.split('id="attention" role="alert">', 1)[1].split("</div>", 1)[0]
    assert text(summary) == ("2 choices need attention: Choose who took Low. Choose who took Game.")
    assert 'href="#point_low"' in summary and 'href="#point_game"' in summary
    # The summary comes before the first row of taps, and the taps are kept.
    assert form.index('id="attention"') < form.index('id="pitcher"')
    assert page(response).checked("pitcher") == "0"
    assert hand_count(app, game_id) == 0


def test_a_finished_game_shows_the_winner_and_the_settlement_before_the_standings(
    client: Any,
) -> None:
    game_id = import_game(
        client,
        record("auction-pitch", ["Ana", "Bogdan"], [ap_hand("Ana", 4, "Ana", "Ana", "Ana", "Ana")]),
    )
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert (
        html.index("<bdi>Ana</bdi> won!") < html.index("Settling up") < html.index('id="standings"')
    )


# --- Names -------------------------------------------------------------------------------------


def test_ana_and_ana_with_a_space_at_one_table_are_one_player_seated_twice(
    client: Any, app: Any
) -> None:
    from .tables import game_count, setup_form

    data = setup_form("auction-pitch", ["Ana", "ana ", "Bogdan"])
    response = client.post("/games/new/auction-pitch", data=data)
    assert response.status_code == 400
    assert page(response).errors["seats"] == [
        '"ana" is "Ana" written another way (case, width or an invisible character), and one'
        " person cannot sit twice; give another name"
    ]
    assert game_count(app) == 0


def test_a_name_typed_in_another_case_is_the_roster_player_spelled_as_the_roster_has_it(
    client: Any, app: Any
) -> None:
    create_game(client, "auction-pitch", ["Ana", "Bogdan"])
    game_id = create_game(client, "auction-pitch", ["  ana", "BOGDAN ", "Cristi"])
    words = text(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "Ana" in words and "Bogdan" in words
    with app.app_context():
        roster = db.session.execute(select(models.Player.name).order_by(models.Player.id))
        assert list(roster.scalars()) == ["Ana", "Bogdan", "Cristi"]
        db.session.remove()


def test_partners_typed_us_and_us_with_a_space_are_one_team(client: Any, app: Any) -> None:
    game_id = create_game(
        client,
        "auction-pitch",
        ["Ana", "Bogdan", "Cristi", "Dana"],
        teams=["Us", "Them", "us ", "them"],
    )
    exported = client.get(f"/games/{game_id}.json").get_json()
    assert exported["teams"] == {"Us": ["Ana", "Cristi"], "Them": ["Bogdan", "Dana"]}


def test_a_name_over_40_characters_is_refused_with_a_message_and_never_cut(
    client: Any, app: Any
) -> None:
    from .tables import game_count, setup_form

    html = client.get("/games/new/auction-pitch").get_data(as_text=True)
    # No maxlength on a name: the browser would cut a long name silently.
    names = re.findall(r'<input[^>]*name="(?:name|team)_\d+"[^>]*>', html)
    assert len(names) == 14 and not any("maxlength" in tag for tag in names)  # 7 seats
    long_name = "Alexandra-Maria Ionescu-Popescu de la Deal"
    assert len(long_name) == 42
    response = client.post(
        "/games/new/auction-pitch", data=setup_form("auction-pitch", [long_name, "Bogdan"])
    )
    assert response.status_code == 400
    parsed = page(response)
    assert parsed.errors["name_0"] == ["A name has at most 40 characters."]
    assert parsed.value("name_0") == long_name
    assert game_count(app) == 0


def test_renaming_a_player_to_another_spelling_of_a_roster_name_is_refused(
    client: Any, app: Any
) -> None:
    create_game(client, "auction-pitch", ["Ana", "Bogdan"])
    with app.app_context():
        bogdan = db.session.execute(
            select(models.Player.id).where(models.Player.name == "Bogdan")
        ).scalar_one()
        db.session.remove()
    response = client.post(f"/players/{bogdan}/rename", data={"rename-name": "ANA"})
    assert "'Ana' is already on the roster" in text(response.get_data(as_text=True))
    # A player may change the case of their own name.
    client.post(f"/players/{bogdan}/rename", data={"rename-name": "BOGDAN"})
    with app.app_context():
        names = db.session.execute(select(models.Player.name).order_by(models.Player.id))
        assert list(names.scalars()) == ["Ana", "BOGDAN"]
        db.session.remove()
