"""Next game, same table (issue 14): "Play again" on a finished game starts the next one with
the same seats, partnerships, variant, house rules and stake, the deal going on to the left,
in the same night, once; "Rematch with changes" opens the new-game form filled in."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

import pytest

from scorekeeper import operations

from .tables import (
    ap_hand,
    exported,
    flashes,
    game_count,
    import_game,
    page,
    record,
    text,
    version_of,
)

TRIO = ["Ann", "Bob", "Cy"]
FOUR = ["Ann", "Bob", "Cy", "Dee"]
TEAMS = {"North": ["Ann", "Cy"], "East": ["Bob", "Dee"]}


def _finished_trio(client: Any) -> int:
    """Bob deals hand 1, Cy hand 2, and Ann goes out at 8: Ann deals the next game."""
    return import_game(
        client,
        record(
            "auction-pitch",
            TRIO,
            [ap_hand("Ann", 2, "Ann", "Ann", "Ann", "Ann"), ap_hand("Ann", 3, *["Ann"] * 4)],
            first_dealer="Bob",
        ),
    )


def _finished_partnership(client: Any) -> int:
    """Dee deals hand 1, Ann hand 2; North goes out: Bob (left of Ann) deals the next game."""
    return import_game(
        client,
        record(
            "auction-pitch",
            FOUR,
            [ap_hand("Ann", 2, *["Ann"] * 4), ap_hand("Cy", 3, *["Cy"] * 4)],
            teams=TEAMS,
            first_dealer="Dee",
            stake="0.25",
            house_rules={"target": 7, "payout_per_setback": 2},
        ),
    )


def _finished_ten_point(client: Any) -> int:
    """10-Point Pitch in partnerships: Ann, Bob and Cy deal; Dee shoots the moon and makes it."""
    points = ["high", "low", "jack", "off_jack", "big_joker", "little_joker", "three", "game"]
    return import_game(
        client,
        record(
            "ten-point",
            FOUR,
            [
                {"pitcher": "Bob", "bid": 5, "points": dict.fromkeys(points, "Bob")},
                {"pitcher": "Ann", "bid": 4, "points": dict.fromkeys(points, "Ann")},
                {"pitcher": "Dee", "bid": 10, "points": dict.fromkeys(points, "Dee")},
            ],
            teams=TEAMS,
            house_rules={"low_to": "taker", "payout_in_hole": 3},
            stake="1.5",
        ),
    )


def _finished_off_jack(client: Any) -> int:
    """Auction Pitch with an Off-Jack in play (RULES.md section 10): Bob smudges at 5."""
    return import_game(
        client,
        record(
            "auction-pitch",
            ["Ann", "Bob"],
            [
                {
                    "pitcher": "Bob",
                    "bid": 5,
                    "points": dict.fromkeys(["high", "low", "jack", "off_jack", "game"], "Bob"),
                }
            ],
            house_rules={"points": ["high", "low", "jack", "off_jack", "game"], "target": 11},
        ),
    )


def _in_a_night(app: Any, game_id: int, name: str = "Friday pitch") -> int:
    with app.app_context():
        night = operations.nights.start_night(name, None, date(2026, 11, 27))
        operations.nights.add_game(night, game_id)
    return night


def _play_again(client: Any, game_id: int) -> Any:
    """Tap "Play again", then "Yes" on the question, as the page would post it."""
    question = client.get(f"/games/{game_id}/again")
    assert question.status_code == 200, question.get_data(as_text=True)
    return client.post(f"/games/{game_id}/again", data=page(question).submitted())


def _started(response: Any) -> int:
    assert response.status_code == 302, response.get_data(as_text=True)
    match = re.fullmatch(r"/games/(\d+)", response.headers["Location"])
    assert match, response.headers["Location"]
    return int(match.group(1))


def _stored(app: Any, game_id: int) -> operations.rows.Loaded:
    with app.app_context():
        return operations.loading.load(game_id)


@pytest.mark.parametrize(
    ("finish", "dealer"),
    [
        (_finished_trio, "Ann"),
        (_finished_partnership, "Bob"),
        (_finished_ten_point, "Dee"),
        (_finished_off_jack, "Bob"),
    ],
)
def test_play_again_starts_the_same_table_with_the_deal_gone_on_to_the_left(
    client: Any, app: Any, finish: Any, dealer: str
) -> None:
    finished = finish(client)
    before = exported(client, finished)
    night = _in_a_night(app, finished)
    next_id = _started(_play_again(client, finished))
    assert next_id != finished
    after = exported(client, next_id)
    expected = {key: value for key, value in before.items() if key not in ("hands", "first_dealer")}
    assert after == {**expected, "first_dealer": dealer, "hands": []}
    stored, old = _stored(app, next_id), _stored(app, finished)
    assert stored.row.night_id == night
    assert stored.game.players == old.game.players
    assert stored.game.teams == old.game.teams
    assert stored.game.house_rules == old.game.house_rules
    assert stored.game.variant == old.game.variant
    assert stored.row.stake == old.row.stake
    assert stored.result.next_dealer == dealer
    assert old.row.next_game_id == next_id
    shown = client.get(f"/games/{next_id}").get_data(as_text=True)
    assert f"Game {next_id} started: the same table, {dealer} deals first." in flashes(shown)
    assert f"{dealer} deals hand 1" in text(shown)


def test_the_question_names_the_seats_the_teams_the_dealer_the_stake_and_the_night(
    client: Any, app: Any
) -> None:
    finished = _finished_partnership(client)
    _in_a_night(app, finished, "Thursday at Dee's")
    words = text(client.get(f"/games/{finished}/again").get_data(as_text=True))
    assert "Play again at the same table?" in words
    assert "Ann · team North Bob · team East · deals first Cy · team North Dee · team East" in words
    assert "Bob deals first: the deal goes on to the left." in words
    assert "Stake 0.25 a unit." in words
    assert "It joins the same game night: Thursday at Dee's." in words


def test_a_game_in_no_night_plays_again_in_no_night(client: Any, app: Any) -> None:
    finished = _finished_trio(client)
    with app.app_context():
        operations.nights.start_night("Tonight", None, date(2026, 11, 27))  # a night on meanwhile
    assert "Like this game, it joins no game night." in text(
        client.get(f"/games/{finished}/again").get_data(as_text=True)
    )
    next_id = _started(_play_again(client, finished))
    assert _stored(app, next_id).row.night_id is None


def test_a_second_play_again_lands_on_the_game_the_first_started(client: Any, app: Any) -> None:
    finished = _finished_trio(client)
    question = page(client.get(f"/games/{finished}/again")).submitted()
    first = _started(client.post(f"/games/{finished}/again", data=question))
    client.get(f"/games/{first}")  # the first tap's page, with its own message
    second = _started(client.post(f"/games/{finished}/again", data=question))
    assert second == first
    assert game_count(app) == 2
    html = client.get(f"/games/{first}").get_data(as_text=True)
    assert flashes(html) == [
        f"The next game was already started from that one: this is it, game {first}."
    ]
    # The question, asked again, goes there too; the finished game's page links to it.
    assert client.get(f"/games/{finished}/again").headers["Location"] == f"/games/{first}"
    finished_page = client.get(f"/games/{finished}").get_data(as_text=True)
    assert f"Go to the next game (game {first})" in text(finished_page)
    assert f'href="/games/{finished}/again"' not in finished_page


def test_the_operation_called_twice_starts_one_game(client: Any, app: Any) -> None:
    finished = _finished_trio(client)
    with app.app_context():
        version = operations.loading.load(finished).row.version
        first = operations.games.play_again(finished, version=version)
        second = operations.games.play_again(finished, version=version)
    assert (first.started, second.started) == (True, False)
    assert first.id == second.id
    assert game_count(app) == 2


def test_a_deleted_next_game_can_be_started_again(client: Any, app: Any) -> None:
    finished = _finished_trio(client)
    first = _started(_play_again(client, finished))
    with app.app_context():
        operations.games.delete_game(first)
    assert _stored(app, finished).row.next_game_id is None
    second = _started(_play_again(client, finished))
    assert _stored(app, finished).row.next_game_id == second
    assert game_count(app) == 2
    assert exported(client, second)["first_dealer"] == "Ann"


def test_play_again_on_a_game_not_over_is_refused_and_starts_nothing(client: Any, app: Any) -> None:
    game_id = import_game(client, record("auction-pitch", TRIO, [ap_hand("Ann", 2, *["Bob"] * 4)]))
    refused = f"Game {game_id} is not over yet: play the next game once this one has a winner."
    asked = client.get(f"/games/{game_id}/again")
    assert asked.headers["Location"] == f"/games/{game_id}"
    assert flashes(client.get(f"/games/{game_id}").get_data(as_text=True)) == [refused]
    posted = client.post(
        f"/games/{game_id}/again", data={"version": str(version_of(client, game_id))}
    )
    assert posted.headers["Location"] == f"/games/{game_id}"
    assert flashes(client.get(f"/games/{game_id}").get_data(as_text=True)) == [refused]
    assert game_count(app) == 1
    assert "Play again" not in text(client.get(f"/games/{game_id}").get_data(as_text=True))


def test_a_game_changed_since_the_question_starts_nothing_and_asks_again(
    client: Any, app: Any
) -> None:
    finished = _finished_trio(client)
    question = page(client.get(f"/games/{finished}/again")).submitted()
    # Another phone corrects the winning hand meanwhile: the game is still over, but changed.
    post = client.post(
        f"/games/{finished}/hands/2/edit",
        data={
            "pitcher": "0",
            "bid": "4",
            **{f"point_{k}": "0" for k in ("high", "low", "jack", "game")},
            "version": str(version_of(client, finished)),
        },
    )
    assert post.status_code == 302, post.get_data(as_text=True)
    answer = client.post(f"/games/{finished}/again", data=question)
    assert answer.headers["Location"] == f"/games/{finished}/again"
    assert game_count(app) == 1
    html = client.get(f"/games/{finished}/again").get_data(as_text=True)
    assert any("The score sheet changed since this form was opened" in f for f in flashes(html))


def test_a_post_without_a_version_is_refused(client: Any, app: Any) -> None:
    finished = _finished_trio(client)
    assert client.post(f"/games/{finished}/again", data={}).status_code == 400
    assert game_count(app) == 1


def test_the_finished_game_offers_play_again_and_a_rematch(client: Any) -> None:
    finished = _finished_trio(client)
    html = client.get(f"/games/{finished}").get_data(as_text=True)
    assert f'href="/games/{finished}/again"' in html
    assert f'href="/games/new/auction-pitch?again={finished}"' in html
    # After the settlement, before the standings: the phone that saved the last hand sees it.
    assert html.index("Settling up") < html.index("Play again") < html.index('id="standings"')


@pytest.mark.parametrize(
    ("finish", "dealer_seat"),
    [(_finished_partnership, "1"), (_finished_ten_point, "3"), (_finished_off_jack, "1")],
)
def test_the_rematch_form_is_filled_in_from_the_game_before(
    client: Any, app: Any, finish: Any, dealer_seat: str
) -> None:
    finished = finish(client)
    night = _in_a_night(app, finished)
    old = _stored(app, finished)
    form = page(client.get(f"/games/new/{old.game.variant.key}?again={finished}"))
    for i, name in enumerate(old.game.players):
        assert form.value(f"name_{i}") == name
        team = next((t for t, members in old.game.teams or () if name in members), "")
        assert form.value(f"team_{i}") == team
    assert form.checked("first_dealer") == dealer_seat
    assert form.selected.get("night") == str(night)
    assert form.value("stake") == (old.row.stake or "")
    for switch, value in old.game.house_rules.as_dict().items():
        if switch == "points":
            ticked = [k for k in value if form.checked(f"in_play_{k}") == "y"]
            assert ticked == list(value)
        elif form.value(switch) is not None:
            assert form.value(switch) == ("" if value is None else str(value)), switch
        elif switch in form.selected:
            assert form.selected[switch] == str(value), switch
    # Created as it stands: the same table, dealt by the next dealer, in the same night.
    created = _started(
        client.post(f"/games/new/{old.game.variant.key}?again={finished}", data=form.submitted())
    )
    new = _stored(app, created)
    assert new.game.players == old.game.players
    # The same partnerships (a form names the teams in seat order; a record as it likes).
    assert dict(new.game.teams or ()) == dict(old.game.teams or ())
    # The same switches; the points in play in the form's count-out order, as any game set up
    # on the form plays them ("Play again" keeps a record's own order).
    new_rules, old_rules = new.game.house_rules.as_dict(), old.game.house_rules.as_dict()
    assert sorted(new_rules.pop("points")) == sorted(old_rules.pop("points"))
    assert new_rules == old_rules
    assert new.row.stake == old.row.stake
    assert new.row.night_id == night
    assert new.game.first_dealer == new.game.players[int(dealer_seat)]


def test_a_rematch_can_be_changed_before_it_starts(client: Any, app: Any) -> None:
    finished = _finished_partnership(client)
    form = page(client.get(f"/games/new/auction-pitch?again={finished}")).submitted()
    form.update(name_3="Eve", stake="1", first_dealer="2")
    created = _started(client.post(f"/games/new/auction-pitch?again={finished}", data=form))
    record_now = exported(client, created)
    assert record_now["players"] == ["Ann", "Bob", "Cy", "Eve"]
    assert record_now["teams"] == {"North": ["Ann", "Cy"], "East": ["Bob", "Eve"]}
    assert record_now["first_dealer"] == "Cy"
    assert record_now["stake"] == "1"


def test_a_rematch_link_to_another_variant_or_no_game_opens_the_empty_form(client: Any) -> None:
    finished = _finished_trio(client)
    for url in (
        f"/games/new/pedro?again={finished}",
        "/games/new/auction-pitch?again=999",
        "/games/new/auction-pitch?again=abc",
    ):
        response = client.get(url)
        assert response.status_code == 200
        assert page(response).value("name_0") in (None, "")


def test_the_rematch_form_writes_the_stake_the_romanian_way(client: Any) -> None:
    finished = _finished_partnership(client)
    client.post("/language", data={"lang": "ro"})
    form = page(client.get(f"/games/new/auction-pitch?again={finished}"))
    assert form.value("stake") == "0,25"


def test_play_again_needs_the_forms_csrf_token(client: Any, app: Any) -> None:
    finished = _finished_trio(client)
    app.config["WTF_CSRF_ENABLED"] = True
    question = page(client.get(f"/games/{finished}/again")).submitted()
    assert question["csrf_token"]
    refused = client.post(f"/games/{finished}/again", data={"version": question["version"]})
    assert refused.status_code == 400
    assert "nothing was saved" in text(refused.get_data(as_text=True))
    assert game_count(app) == 1
    _started(client.post(f"/games/{finished}/again", data=question))
    assert game_count(app) == 2


def test_without_the_organiser_login_nobody_sees_or_uses_play_again(client: Any, app: Any) -> None:
    finished = _finished_trio(client)
    app.config["ORGANISER_PASSWORD"] = "cards-on-the-table"
    shown = client.get(f"/games/{finished}").get_data(as_text=True)
    assert "Play again" not in text(shown)
    assert "Rematch with changes" not in text(shown)
    for method in ("GET", "POST"):
        response = client.open(f"/games/{finished}/again", method=method, data={"version": "1"})
        assert response.status_code == 302
        assert "/login" in response.headers["Location"]
    assert "/login" in client.get(f"/games/new/auction-pitch?again={finished}").headers["Location"]
    assert game_count(app) == 1
    client.post("/login", data={"password": "cards-on-the-table"})
    assert "Play again" in text(client.get(f"/games/{finished}").get_data(as_text=True))
    _started(_play_again(client, finished))
    assert game_count(app) == 2


def test_play_again_after_a_rematch_lands_on_the_rematch(client: Any, app: Any) -> None:
    finished = _finished_partnership(client)
    question = page(client.get(f"/games/{finished}/again")).submitted()  # a second phone
    form = page(client.get(f"/games/new/auction-pitch?again={finished}")).submitted()
    form.update(name_3="Eve")
    rematch = _started(client.post(f"/games/new/auction-pitch?again={finished}", data=form))
    client.get(f"/games/{rematch}")
    assert _started(client.post(f"/games/{finished}/again", data=question)) == rematch
    assert game_count(app) == 2
    assert _stored(app, finished).row.next_game_id == rematch


def test_a_rematch_after_play_again_is_a_game_of_its_own_and_the_link_stays(
    client: Any, app: Any
) -> None:
    finished = _finished_partnership(client)
    next_id = _started(_play_again(client, finished))
    form = page(client.get(f"/games/new/auction-pitch?again={finished}")).submitted()
    rematch = _started(client.post(f"/games/new/auction-pitch?again={finished}", data=form))
    assert rematch != next_id
    assert _stored(app, finished).row.next_game_id == next_id


def test_a_rematch_of_a_game_not_over_is_nobodys_next_game(client: Any, app: Any) -> None:
    game_id = import_game(client, record("auction-pitch", TRIO, [ap_hand("Ann", 2, *["Bob"] * 4)]))
    form = page(client.get(f"/games/new/auction-pitch?again={game_id}")).submitted()
    assert form["first_dealer"] == "1"  # Bob deals hand 2, so the rematch too
    _started(client.post(f"/games/new/auction-pitch?again={game_id}", data=form))
    assert _stored(app, game_id).row.next_game_id is None


def test_play_again_speaks_romanian_formally_on_a_romanian_page(client: Any, app: Any) -> None:
    finished = _finished_partnership(client)
    _in_a_night(app, finished, "Vineri")
    client.post("/language", data={"lang": "ro"})
    shown = text(client.get(f"/games/{finished}").get_data(as_text=True))
    assert "Partida următoare, aceeași masă" in shown
    assert "Jucați din nou" in shown and "Revanșă cu schimbări" in shown
    asked = text(client.get(f"/games/{finished}/again").get_data(as_text=True))
    for words in (
        "Jucați din nou la aceeași masă?",
        "Ann · echipa North",
        "Bob · echipa East · împarte primul",
        "Împarte primul Bob: împărțirea merge mai departe spre stânga.",
        "Miza 0,25 pe unitate.",
        "Se alătură aceleiași seri de joc: Vineri.",
        "Da, începeți partida următoare",
        "Nu, înapoi la partidă",
    ):
        assert words in asked, words
    next_id = _started(_play_again(client, finished))
    said = flashes(client.get(f"/games/{next_id}").get_data(as_text=True))
    assert said == [f"A început partida {next_id}: aceeași masă, împarte primul Bob."]
