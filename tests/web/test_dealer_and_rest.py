"""The hand form's two choices out of the way: who dealt, when someone dealt out of turn (the
deal goes on to the left of whoever dealt), and "the rest to" in a game of two sides (one tap
gives every point left untapped to one side). Both work without the page's script."""

from __future__ import annotations

from typing import Any

import pytest

from .tables import (
    ap_hand,
    create_game,
    exported,
    hand_count,
    hand_form,
    import_game,
    page,
    post_hand,
    record,
    text,
)

FOUR = ["Ana", "Bogdan", "Cristi", "Dana"]
ANA_MAKES_3 = {"pitcher": "Ana", "bid": 3, "high": "Ana", "low": "Ana", "jack": None, "game": "Ana"}


@pytest.fixture
def game_id(client: Any) -> int:
    return create_game(client, "auction-pitch", FOUR)


def dealer_options(html: str) -> list[tuple[str, str]]:
    """The dealer choice's options: (value, words)."""
    import re

    select = html.split('<select id="dealer" name="dealer"', 1)[1].split("</select>", 1)[0]
    return [
        (value, text(words))
        for value, words in re.findall(r'<option value="([^"]*)"[^>]*>(.*?)</option>', select)
    ]


def test_the_dealer_choice_offers_the_rotations_dealer_first_then_the_others(
    client: Any, game_id: int
) -> None:
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert dealer_options(html) == [
        ("", "Ana (in turn)"),
        ("1", "Bogdan"),
        ("2", "Cristi"),
        ("3", "Dana"),
    ]
    # Folded away: one control, in the hand's heading line.
    assert '<details class="dealt-by">' in html


def test_a_hand_dealt_out_of_turn_is_kept_and_the_deal_goes_on_left_of_whoever_dealt(
    client: Any, game_id: int
) -> None:
    # Ana was due to deal; Cristi dealt. The next hand is Dana's to deal.
    assert post_hand(client, game_id, FOUR, dealer="2", **ANA_MAKES_3).status_code == 302
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Dana deals hand 2." in text(html)
    assert dealer_options(html)[0] == ("", "Dana (in turn)")
    hands = exported(client, game_id)["hands"]
    assert hands[0]["dealer"] == "Cristi"
    # The next hand dealt in turn writes no dealer (GAME-RECORD.md: only where it differs).
    taps = {**ANA_MAKES_3, "pitcher": "Bogdan", "high": "Bogdan"}
    assert post_hand(client, game_id, FOUR, **taps).status_code == 302
    assert "dealer" not in exported(client, game_id)["hands"][1]


def test_the_rotations_own_dealer_chosen_is_a_hand_dealt_in_turn(client: Any, game_id: int) -> None:
    assert post_hand(client, game_id, FOUR, dealer="0", **ANA_MAKES_3).status_code == 302
    assert "dealer" not in exported(client, game_id)["hands"][0]


@pytest.mark.parametrize("dealer", ["9", "Zed", "-1", "team-0"])
def test_a_dealer_that_is_no_seat_is_refused_next_to_the_choice(
    client: Any, app: Any, game_id: int, dealer: str
) -> None:
    response = post_hand(client, game_id, FOUR, dealer=dealer, **ANA_MAKES_3)
    assert response.status_code == 400
    parsed = page(response)
    assert parsed.errors["dealer"] == [
        f"{dealer!r} is not one of the seats: choose who dealt this hand."
    ]
    assert hand_count(app, game_id) == 0


def test_a_passed_hand_may_be_dealt_out_of_turn_too(client: Any) -> None:
    game_id = import_game(
        client, record("auction-pitch", FOUR, [], house_rules={"all_pass": "redeal-next-dealer"})
    )
    from .tables import version_of

    data = {"passed_out": "Everyone passed", "dealer": "3", "version": version_of(client, game_id)}
    assert client.post(f"/games/{game_id}", data=data).status_code == 302
    assert exported(client, game_id)["hands"] == [{"passed": True, "dealer": "Dana"}]
    assert "Ana deals hand 2." in text(client.get(f"/games/{game_id}").get_data(as_text=True))


def test_the_correction_form_shows_who_dealt_and_may_change_it(client: Any) -> None:
    hands = [{**ap_hand("Ana", 3, "Ana", "Ana", None, "Ana"), "dealer": "Cristi"}]
    game_id = import_game(client, record("auction-pitch", FOUR, hands))
    edit = client.get(f"/games/{game_id}/hands/1/edit")
    assert page(edit).selected["dealer"] == "2"
    assert '<details class="dealt-by" open>' in edit.get_data(as_text=True)
    # Corrected to dealt in turn: the record loses its dealer, the next dealer is Bogdan.
    from .tables import version_of

    data = {**hand_form(FOUR, **ANA_MAKES_3), "dealer": "", "version": version_of(client, game_id)}
    assert client.post(f"/games/{game_id}/hands/1/edit", data=data).status_code == 302
    assert "dealer" not in exported(client, game_id)["hands"][0]
    assert "Bogdan deals hand 2." in text(client.get(f"/games/{game_id}").get_data(as_text=True))


def test_a_record_with_a_dealer_out_of_turn_round_trips_and_one_without_still_imports(
    client: Any,
) -> None:
    with_dealer = record(
        "auction-pitch", FOUR, [{**ap_hand("Ana", 3, "Ana", "Ana", None, "Ana"), "dealer": "Dana"}]
    )
    game_id = import_game(client, with_dealer)
    again = exported(client, game_id)
    assert again["hands"] == with_dealer["hands"]
    assert import_game(client, again) != game_id
    old = record("auction-pitch", FOUR, [ap_hand("Ana", 3, "Ana", "Ana", None, "Ana")])
    old_id = import_game(client, old)
    assert exported(client, old_id)["hands"] == old["hands"]


# --- The rest to one side ----------------------------------------------------------------------


TEAMS = ["Us", "Them", "Us", "Them"]


@pytest.fixture
def ten_point(client: Any) -> int:
    return create_game(client, "ten-point", FOUR, teams=TEAMS)


def test_a_game_of_two_sides_offers_the_rest_to_each_side_and_more_sides_do_not(
    client: Any, ten_point: int, game_id: int
) -> None:
    html = client.get(f"/games/{ten_point}").get_data(as_text=True)
    assert 'id="rest"' in html
    assert 'name="rest" type="radio" value="team-0"' in html
    assert 'name="rest" type="radio" value="team-1"' in html
    # Its taps say nothing in a kept hand's words: the rows it fills say the hand.
    assert 'name="rest" type="radio" value="team-0" data-said' not in html
    assert 'id="rest"' not in client.get(f"/games/{game_id}").get_data(as_text=True)


def test_the_rest_to_a_side_gives_it_every_point_left_untapped(
    client: Any, app: Any, ten_point: int
) -> None:
    from scorekeeper import rules

    points = [p.key for p in rules.find_variant("ten-point").points]
    # Ana (Us) bids; Them took Low and Jack; the rest is Us's: five taps and Save.
    taps = {"pitcher": "Ana", "bid": 6, "low": "Bogdan", "jack": "Bogdan", "rest": "Ana"}
    assert post_hand(client, ten_point, FOUR, teams=TEAMS, **taps).status_code == 302
    taken = exported(client, ten_point)["hands"][0]["points"]
    assert {key: taken[key] for key in points} == {
        key: "Bogdan" if key in ("low", "jack") else "Ana" for key in points
    }


def test_a_rest_that_is_no_side_is_refused_next_to_it(
    client: Any, app: Any, ten_point: int
) -> None:
    response = post_hand(client, ten_point, FOUR, teams=TEAMS, pitcher="Ana", bid=6, rest="team-7")
    assert response.status_code == 400
    assert page(response).errors["rest"] == ["'team-7' is not one of the choices for The rest."]
    assert hand_count(app, ten_point) == 0
