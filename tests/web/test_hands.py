"""Recording a hand with the form: saved and said in words, or refused with nothing saved."""

from __future__ import annotations

from typing import Any

import pytest

from .tables import (
    ap_hand,
    create_game,
    flashes,
    hand_count,
    import_game,
    page,
    post_ap_hand,
    post_hand,
    record,
    taken,
    text,
    version_of,
)

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
SELLERS = ["Ann", "Bob", "Cy"]


def standings(html: str) -> str:
    """The standings cards as read aloud: name and score per side."""
    section = html.split('id="standings"', 1)[1].split("</section>", 1)[0]
    cards = section.split('<div class="side')[1:]
    out = []
    for card in cards:
        name = text(card.split('class="side-name">', 1)[1].split("</span>", 1)[0])
        score = text(card.split('class="score">', 1)[1].split("</span>\n", 1)[0])
        out.append(f"{name} {score}")
    return " ".join(out)


@pytest.fixture
def game_id(client: Any) -> int:
    return create_game(client, "auction-pitch", PLAYERS)


def test_a_made_bid_is_saved_and_said_in_words(client: Any, app: Any, game_id: int) -> None:
    response = post_hand(
        client, game_id, PLAYERS, pitcher="Bob", bid=3, high="Bob", low="Bob", jack="Cy", game="Bob"
    )
    assert response.status_code == 302
    assert response.headers["Location"] == f"/games/{game_id}#flashes"
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert flashes(html) == ["Bob made 3."]
    assert hand_count(app, game_id) == 1
    words = text(html)
    assert "Bob deals hand 2" in words
    assert "Hand 2" in words


def test_a_set_back_into_the_hole_is_said_in_words(client: Any, game_id: int) -> None:
    response = post_hand(
        client, game_id, PLAYERS, pitcher="Cy", bid=2, high="Bob", low="Ann", jack=None, game="Dee"
    )
    assert response.status_code == 302
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert flashes(html) == ["Cy is set back 2 and is in the hole."]
    assert "in the hole" in text(html)


def test_a_smudge_wins_at_once_and_the_page_shows_the_game_over(client: Any) -> None:
    game_id = create_game(client, "auction-pitch", PLAYERS, stake="0.25")
    post_ap_hand(client, game_id, PLAYERS, "Dee", 4, "Dee", "Dee", "Dee", "Dee")
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert flashes(html) == ["Dee smudges and wins!"]
    words = text(html)
    assert "Dee won!" in words
    assert "Dee won by a smudge at hand 1." in words
    assert "Final scores" in words
    assert "Ann: 0" in words and "Dee: 4" in words
    # Each loser at 0 pays the in-the-hole rate (2 units), at 0.25 a unit.
    for loser in ("Ann", "Bob", "Cy"):
        assert f"{loser} Dee 2 0.50" in words
    # No hand form on a finished game.
    assert 'id="hand-form"' not in html


def test_a_game_with_no_stake_settles_in_units_only(client: Any) -> None:
    game_id = create_game(client, "auction-pitch", ["Ann", "Bob"])
    post_ap_hand(client, game_id, ["Ann", "Bob"], "Bob", 4, "Bob", "Bob", "Bob", "Bob")
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Ann Bob 2" in text(html)
    assert "money" not in text(html)


def test_a_count_out_win_names_the_winner(client: Any) -> None:
    # Bob makes 3 twice (Ann takes nothing): Bob 6, Ann 0.
    game_id = import_game(
        client,
        record("auction-pitch", ["Ann", "Bob"], [ap_hand("Bob", 3, "Bob", "Bob", "Bob", None)] * 2),
    )
    post_ap_hand(client, game_id, ["Ann", "Bob"], "Ann", 2, "Bob", "Ann", None, "Bob")
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert flashes(html) == ["Ann is set back 2 and is in the hole. Bob wins!"]
    assert "Bob won on the count-out at hand 3." in text(html)


def test_a_hand_with_nothing_chosen_shows_a_message_next_to_every_field_and_saves_nothing(
    client: Any, app: Any, game_id: int
) -> None:
    response = post_hand(client, game_id, PLAYERS)
    assert response.status_code == 400
    errors = page(response).errors
    assert errors["pitcher"] == ["Choose who won the bid."]
    assert errors["bid"] == ["Choose the bid."]
    assert errors["point_high"] == ["Choose who took High."]
    assert errors["point_jack"] == ["Choose who took Jack."]
    assert hand_count(app, game_id) == 0


def test_the_choices_already_made_stay_chosen_after_an_error(client: Any, game_id: int) -> None:
    response = post_hand(
        client,
        game_id,
        PLAYERS,
        pitcher="Bob",
        bid=3,
        high="Bob",
        jack=None,
        token="form-key-0000000001",
    )
    assert response.status_code == 400
    parsed = page(response)
    assert parsed.checked("pitcher") == "1"
    assert parsed.checked("bid") == "3"
    assert parsed.checked("point_jack") == "nobody"
    assert set(parsed.errors) == {"point_low", "point_game"}
    # The same token, so a corrected resubmission is still one hand.
    assert parsed.value("token") == "form-key-0000000001"


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("pitcher", "9", "'9' is not one of the choices for Who won the bid?."),
        ("bid", "5", "'5' is not one of the choices for Bid."),
        ("bid", "two", "'two' is not one of the choices for Bid."),
        ("point_high", "nobody", "'nobody' is not one of the choices for High."),
        ("point_jack", "-1", "'-1' is not one of the choices for Jack."),
    ],
)
def test_a_value_that_is_not_one_of_the_buttons_is_refused_next_to_its_field(
    client: Any, app: Any, game_id: int, field: str, value: str, message: str
) -> None:
    data = {"pitcher": "Bob", "bid": 3, "high": "Bob", "low": "Bob", "jack": "Cy", "game": "Bob"}
    key = field.removeprefix("point_")
    data[key] = value
    response = post_hand(client, game_id, PLAYERS, **data)
    assert response.status_code == 400
    assert page(response).errors[field] == [message]
    assert hand_count(app, game_id) == 0


def test_a_note_that_is_too_long_is_refused_next_to_the_note(
    client: Any, app: Any, game_id: int
) -> None:
    version = version_of(client, game_id)
    response = client.post(
        f"/games/{game_id}",
        data={
            "pitcher": "1",
            "bid": "2",
            "point_high": "1",
            "point_low": "1",
            "point_jack": "1",
            "point_game": "1",
            "note": "x" * 501,
            "version": str(version),
        },
    )
    assert response.status_code == 400
    assert page(response).errors["note"] == ["A note has at most 500 characters."]
    assert hand_count(app, game_id) == 0


def test_a_note_is_kept_with_the_hand(client: Any, game_id: int) -> None:
    version = version_of(client, game_id)
    client.post(
        f"/games/{game_id}",
        data={
            "pitcher": "1",
            "bid": "2",
            "point_high": "1",
            "point_low": "1",
            "point_jack": "1",
            "point_game": "1",
            "note": "  misdeal before this one  ",
            "version": str(version),
        },
    )
    assert "misdeal before this one" in text(client.get(f"/games/{game_id}").get_data(as_text=True))


def test_a_hand_posted_from_a_stale_page_is_refused_with_409_and_keeps_its_taps(
    client: Any, app: Any, game_id: int
) -> None:
    stale = version_of(client, game_id)
    post_ap_hand(client, game_id, PLAYERS, "Bob", 2, "Bob", "Bob", "Bob", "Bob")
    response = post_hand(
        client,
        game_id,
        PLAYERS,
        pitcher="Ann",
        bid=2,
        **taken("high low jack game", "Ann Ann Ann Ann"),
        version=stale,
    )
    assert response.status_code == 409
    html = response.get_data(as_text=True)
    assert "The score sheet changed since this form was opened" in text(html)
    assert hand_count(app, game_id) == 1
    # The fresh standings and version, the taps kept (nothing to tap in again), and the
    # table's choice: it is the next hand (a button), or dropped (a link to a fresh form).
    parsed = page(response)
    assert parsed.checked("pitcher") == "0" and parsed.checked("point_game") == "0"
    assert parsed.value("version") == str(version_of(client, game_id))
    assert 'name="as_number" value="2"' in html
    assert (
        client.post(f"/games/{game_id}", data={**parsed.submitted(), "as_number": "2"}).status_code
        == 302
    )
    assert hand_count(app, game_id) == 2


def test_the_same_form_sent_twice_records_the_hand_once(
    client: Any, app: Any, game_id: int
) -> None:
    version = version_of(client, game_id)
    fields = {"pitcher": "Bob", "bid": 3, "high": "Bob", "low": "Bob", "jack": "Cy", "game": "Bob"}
    first = post_hand(
        client, game_id, PLAYERS, version=version, token="tap-once-0000000001", **fields
    )
    second = post_hand(
        client, game_id, PLAYERS, version=version, token="tap-once-0000000001", **fields
    )
    assert first.status_code == second.status_code == 302
    assert hand_count(app, game_id) == 1
    assert "Bob made 3." in flashes(client.get(f"/games/{game_id}").get_data(as_text=True))


def test_a_finished_game_refuses_another_hand_and_says_why(client: Any, app: Any) -> None:
    game_id = import_game(
        client,
        record("auction-pitch", ["Ann", "Bob"], [ap_hand("Bob", 4, "Bob", "Bob", "Bob", "Bob")]),
    )
    response = post_ap_hand(client, game_id, ["Ann", "Bob"], "Ann", 2, "Ann", "Ann", "Ann", "Ann")
    assert response.status_code == 400
    assert "The game is over: Bob won. Undo or edit a hand to change it." in text(
        response.get_data(as_text=True)
    )
    assert hand_count(app, game_id) == 1


def test_passing_out_where_the_dealer_must_take_the_bid_is_refused(
    client: Any, app: Any, game_id: int
) -> None:
    version = version_of(client, game_id)
    response = client.post(
        f"/games/{game_id}", data={"passed_out": "Everyone passed", "version": version}
    )
    assert response.status_code == 400
    assert page(response).form_errors == [
        "hand 1: the hand cannot be passed out: with the house rule all_pass = dealer-takes "
        "the dealer must take the bid at 2"
    ]
    assert hand_count(app, game_id) == 0


def test_a_passed_out_hand_is_recorded_where_the_house_rules_allow_it(
    client: Any, app: Any
) -> None:
    game_id = create_game(client, "sell-out", SELLERS)
    version = version_of(client, game_id)
    response = client.post(
        f"/games/{game_id}", data={"passed_out": "Everyone passed", "version": version}
    )
    assert response.status_code == 302
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    # Sell-Out: the same dealer deals again.
    assert flashes(html) == ["Everyone passed. Ann deals."]
    assert "Ann deals hand 2" in text(html)
    assert hand_count(app, game_id) == 1


# --- Sell-Out: the sale's choices --------------------------------------------------------------


@pytest.fixture
def sellout(client: Any) -> int:
    """Ann deals, so Bob (on her left) is the seller."""
    return create_game(client, "sell-out", SELLERS)


def test_the_sell_out_form_names_the_seller_and_offers_the_three_sales(
    client: Any, sellout: int
) -> None:
    html = client.get(f"/games/{sellout}").get_data(as_text=True)
    words = text(html)
    assert "Bob is the seller." in words
    assert "Bob sells" in words
    for label in (
        "Pitched (seller plays 4)",
        "Sold (seller scores the bid)",
        "Kept (high bidder scores the bid)",
    ):
        assert label in words


def test_a_sold_bid_scores_the_bid_for_the_seller(client: Any, sellout: int) -> None:
    response = post_hand(
        client,
        sellout,
        SELLERS,
        sale="sold",
        pitcher="Cy",
        bid=2,
        **taken("high low jack game", "Cy Ann Cy Bob"),
    )
    assert response.status_code == 302
    html = client.get(f"/games/{sellout}").get_data(as_text=True)
    assert flashes(html) == ["Bob sold the bid to Cy for 2. Cy made 2."]
    # Bob scores the bid (2) and took Game; Cy made 2 with High and Jack; Ann took Low.
    assert standings(html) == "Ann 1 Bob 3 Cy 2"
    assert "sold, made" in text(html)


def test_a_pitched_hand_needs_no_pitcher_or_bid_tap(client: Any, app: Any, sellout: int) -> None:
    response = post_hand(
        client, sellout, SELLERS, sale="pitched", high="Bob", low="Bob", jack="Bob", game="Bob"
    )
    assert response.status_code == 302
    assert flashes(client.get(f"/games/{sellout}").get_data(as_text=True)) == [
        "Bob pitched. Bob made 4."
    ]
    assert hand_count(app, sellout) == 1


def test_a_kept_hand_scores_the_bid_for_the_high_bidder(client: Any, sellout: int) -> None:
    response = post_hand(
        client,
        sellout,
        SELLERS,
        sale="kept",
        bid=3,
        high_bidder="Ann",
        **taken("high low jack game", "Bob Bob Cy Bob"),
    )
    assert response.status_code == 302
    assert flashes(client.get(f"/games/{sellout}").get_data(as_text=True)) == [
        "Bob kept the bid at 3; Ann scores 3. Bob made 3."
    ]


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        (
            {"sale": "pitched", "pitcher": "Cy"},
            "pitcher",
            'hand 1: in a pitched hand the seller "Bob" pitches, not "Cy"',
        ),
        ({"sale": "pitched", "bid": 2}, "bid", "hand 1: a pitched hand is a contract of 4, not 2"),
        (
            {"sale": "sold", "pitcher": "Bob", "bid": 2},
            "pitcher",
            'hand 1: in a sold hand the buyer cannot be the seller "Bob"',
        ),
        (
            {"sale": "kept", "bid": 2, "high_bidder": "Bob"},
            "high_bidder",
            'hand 1: the high bidder cannot be the seller "Bob"',
        ),
        ({"sale": "kept", "bid": 2}, "high_bidder", "Choose the high bidder."),
        ({"sale": "sold", "bid": 2}, "pitcher", "Choose who bought the bid."),
        ({"sale": "sold", "pitcher": "Cy"}, "bid", "Choose the bid."),
        ({}, "sale", "Choose pitched, sold or kept."),
    ],
)
def test_a_sale_the_rules_refuse_shows_the_message_next_to_the_field_and_saves_nothing(
    client: Any, app: Any, sellout: int, fields: dict[str, Any], field: str, message: str
) -> None:
    points = {"high": "Cy", "low": "Ann", "jack": "Cy", "game": "Bob"}
    response = post_hand(client, sellout, SELLERS, **fields, **points)
    assert response.status_code == 400
    assert page(response).errors.get(field) == [message]
    assert hand_count(app, sellout) == 0


def test_a_bid_that_would_give_the_seller_game_is_refused_next_to_the_bid(
    client: Any, app: Any
) -> None:
    # Hand 1: Bob sells to Cy for 1, Ann takes 3. Hand 2: Cy sells to Ann for 1, Ann makes 3.
    # Ann has 6 and sells hand 3: selling even for 1 would give her 7.
    hands = [
        {
            "sale": "sold",
            "pitcher": "Cy",
            "bid": 1,
            "points": {"high": "Ann", "low": "Ann", "jack": "Ann", "game": "Cy"},
        },
        {
            "sale": "sold",
            "pitcher": "Ann",
            "bid": 1,
            "points": {"high": "Ann", "low": "Ann", "jack": "Ann", "game": "Bob"},
        },
    ]
    game_id = import_game(client, record("sell-out", SELLERS, hands))
    assert "Ann sells" in text(client.get(f"/games/{game_id}").get_data(as_text=True))
    response = post_hand(
        client,
        game_id,
        SELLERS,
        sale="sold",
        pitcher="Bob",
        bid=1,
        **taken("high low jack game", "Bob Bob - Bob"),
    )
    assert response.status_code == 400
    assert page(response).errors["bid"] == [
        'hand 3: a bid of 1 would give the seller "Ann" game by itself (6 + 1 reaches 7)'
    ]
    assert hand_count(app, game_id) == 2


# --- The other variants' forms ----------------------------------------------------------------


def test_a_cinch_hand_scores_the_difference_for_the_team(client: Any) -> None:
    players = ["Ann", "Bob", "Cy", "Dee"]
    game_id = create_game(client, "cinch", players, teams=["Us", "Them", "Us", "Them"])
    response = post_hand(
        client,
        game_id,
        players,
        teams=["Us", "Them", "Us", "Them"],
        pitcher="Bob",
        bid=6,
        **taken("high low jack game right_pedro left_pedro", "Bob Dee Ann Cy Bob Dee"),
    )
    assert response.status_code == 302
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    # Them took 1+1+5+5 = 12, Us 2: the bidders made it and score the difference.
    assert flashes(html) == ["Bob (Them) made 6. Them score 10."]


def test_a_cinch_bid_of_zero_by_a_player_not_the_dealers_side_is_refused_next_to_the_pitcher(
    client: Any, app: Any
) -> None:
    players = ["Ann", "Bob", "Cy", "Dee"]
    game_id = create_game(client, "cinch", players, teams=["Us", "Them", "Us", "Them"])
    response = post_hand(
        client,
        game_id,
        players,
        teams=["Us", "Them", "Us", "Them"],
        pitcher="Bob",
        bid=0,
        **taken("high low jack game right_pedro left_pedro", "Bob Dee Ann Cy Bob Dee"),
    )
    assert response.status_code == 400
    (message,) = page(response).errors["pitcher"]
    assert 'made by the dealer "Ann" or the dealer\'s partner, not "Bob"' in message
    assert hand_count(app, game_id) == 0


def test_a_pitch_six_pitcher_scores_only_the_bid(client: Any) -> None:
    players = ["Ann", "Bob", "Cy"]
    game_id = create_game(client, "pitch-six", players)
    post_hand(
        client,
        game_id,
        players,
        pitcher="Ann",
        bid=3,
        **taken("high low jack six last_trick game", "Ann Ann Ann Ann Ann Bob"),
    )
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert flashes(html) == ["Ann made 3."]
    assert "Last trick" in text(html)
    assert standings(html) == "Ann 3 Bob 1 Cy 0"
