"""10-Point Pitch and a table's own shape on the web: the hand form, the sheet, the record.

Games are set up through the real import and hands posted through the real hand form.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from scorekeeper.stats.summary import summarise

from .tables import exported, html_of, import_game, page, post_hand, record, text

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
FOUR = ["Ann", "Bob", "Cy", "Dee"]
TEAMS = {"North-South": ["Ann", "Cy"], "East-West": ["Bob", "Dee"]}
TEN = ("high", "low", "jack", "off_jack", "big_joker", "little_joker", "three", "game")
#: Each seat's team, as the hand form's team buttons are tapped.
SEATS = ["North-South", "East-West", "North-South", "East-West"]


def ten_point(hands: list[dict[str, Any]] | None = None, **house_rules: Any) -> dict[str, Any]:
    extra: dict[str, Any] = {"teams": TEAMS}
    if house_rules:
        extra["house_rules"] = house_rules
    return record("ten-point", FOUR, hands or [], **extra)


def legends(html: str) -> list[str]:
    """The hand form's rows of tap buttons, by their legends."""
    form = html.split('id="hand-form"', 1)[1].split("</form>", 1)[0]
    form = form.split('id="game-counter"', 1)[0]
    return [
        text(part.split("</legend>", 1)[0].split('<span class="hint">', 1)[0]).lstrip(">").strip()
        for part in form.split("<legend")[1:]
    ]


def bids(html: str) -> list[int]:
    """The bids the hand form offers."""
    return [int(b) for b in re.findall(r'name="bid"[^>]*value="(\d+)"', html)]


def test_the_hand_form_of_a_ten_point_game_asks_for_every_point_with_the_new_ones_worth(
    client: Any,
) -> None:
    game_id = import_game(client, ten_point())
    rows = legends(html_of(client, f"/games/{game_id}"))
    assert rows[-8:] == [
        "High",
        "Low (holder)",
        "Jack",
        "Off-Jack (1 point)",
        "Big Joker (1 point)",
        "Little Joker (1 point)",
        "Three (3 points)",
        "Game",
    ]


def test_a_hand_of_ten_points_recorded_on_the_form_scores_and_shows_the_marks(client: Any) -> None:
    game_id = import_game(client, ten_point())
    takers = dict(zip(TEN, ["Bob", "Cy", "Dee", "Bob", "Ann", "Dee", "Bob", "Dee"], strict=True))
    response = post_hand(client, game_id, FOUR, pitcher="Bob", bid=5, teams=SEATS, **takers)
    assert response.status_code == 302
    sheet = text(html_of(client, f"/games/{game_id}").split('id="sheet-title"', 1)[1])
    # Each team's marks under its score; the pitcher (Bob) and his bid beside his team's.
    assert "1 Ann 2 L BJ Bob 5 8 H J OJ LJ 3 G Bob · 5: made" in sheet
    # Tapped by team: the pitcher Bob for his team, Ann (first seat) for North-South.
    credited = {"Bob": "Bob", "Dee": "Bob", "Cy": "Ann", "Ann": "Ann"}
    points = {key: credited[name] for key, name in takers.items()}
    assert exported(client, game_id)["hands"][0]["points"] == points


def test_a_bid_below_the_tables_min_bid_is_not_offered_and_is_refused(client: Any) -> None:
    game_id = import_game(client, ten_point(min_bid=5))
    html = html_of(client, f"/games/{game_id}")
    assert bids(html) == [5, 6, 7, 8, 9, 10]
    takers = dict.fromkeys(TEN, "Bob")
    response = post_hand(client, game_id, FOUR, pitcher="Bob", bid=4, teams=SEATS, **takers)
    assert response.status_code == 400
    assert exported(client, game_id)["hands"] == []


def test_a_tables_own_points_make_the_hand_form_and_the_bids(client: Any) -> None:
    game_id = import_game(
        client,
        record(
            "auction-pitch",
            ["Ann", "Bob", "Cy"],
            [],
            house_rules={"points": ["high", "low", "jack", "off_jack", "game"]},
        ),
    )
    html = html_of(client, f"/games/{game_id}")
    assert 'name="point_off_jack"' in html
    assert bids(html) == [2, 3, 4, 5]
    words = text(html)
    assert "House rules: points in play: High, Low, Jack, Off-Jack, Game; bids up to 5 (not 4)" in (
        words
    )


def test_the_game_page_says_the_house_shape_in_words(client: Any) -> None:
    game_id = import_game(client, ten_point(min_bid=5, smudge_failed="loses", gap=0))
    words = text(html_of(client, f"/games/{game_id}"))
    assert "bids from 5 (not 4)" in words
    assert "a failed smudge loses the game at once" in words


def test_a_moon_that_fails_with_smudge_failed_loses_says_how_the_game_ended(client: Any) -> None:
    example = json.loads((EXAMPLES / "ten-point-moon-fails.json").read_text())
    game_id = import_game(client, example)
    words = text(html_of(client, f"/games/{game_id}"))
    assert "East-West won by the other side's failed smudge" in words
    assert exported(client, game_id) == example


def test_statistics_count_a_moon_as_a_smudge_tried_and_made(app: Any, client: Any) -> None:
    from scorekeeper import operations

    example = json.loads((EXAMPLES / "ten-point-moon.json").read_text())
    game_id = import_game(client, example)
    with app.app_context():
        lines = summarise(operations.loading.load(game_id).result)
    assert (lines["Dee"].smudges_attempted, lines["Dee"].smudges_made) == (1, 1)
    assert (lines["Dee"].won, lines["Ann"].won) == (True, False)


# --- the Game counter (RULES.md section 10), without a script: the server adds up


def cards(seat: int, ten: int = 0, ace: int = 0, king: int = 0, queen: int = 0, jack: int = 0):
    """The counter's fields for one seat, as typed in (zeros left empty)."""
    typed = {"ten": ten, "ace": ace, "king": king, "queen": queen, "jack": jack}
    return {f"gc_{seat}_{card}": str(n) for card, n in typed.items() if n}


def post_counted(client: Any, game_id: int, counter: dict[str, str], **fields: Any) -> Any:
    from .tables import hand_form, version_of

    data = hand_form(FOUR, version=version_of(client, game_id), teams=SEATS, **fields)
    data.update(counter)
    return client.post(f"/games/{game_id}", data=data)


NO_GAME = dict(zip(TEN[:-1], ["Bob", "Cy", "Dee", "Bob", "Ann", "Dee", "Bob"], strict=True))


def test_the_counter_shows_only_where_game_is_the_game_count(client: Any) -> None:
    assert 'id="game-counter"' in html_of(client, f"/games/{import_game(client, ten_point())}")
    pedro = import_game(client, record("pedro", ["Ann", "Bob", "Cy"], []))
    html = html_of(client, f"/games/{pedro}")
    assert 'id="game-counter"' not in html and "counter.js" not in html


def test_counted_cards_credit_game_to_the_side_that_counted_most_and_are_kept(
    client: Any,
) -> None:
    game_id = import_game(client, ten_point())
    counter = {
        **cards(0, ace=2, queen=2),  # Ann 12
        **cards(1, king=3),  # Bob 9
        **cards(2, ace=1),  # Cy 4
        **cards(3, ten=2, king=3, jack=1),  # Dee 30
    }
    response = post_counted(client, game_id, counter, pitcher="Bob", bid=5, **NO_GAME)
    assert response.status_code == 302, response.get_data(as_text=True)
    (hand,) = exported(client, game_id)["hands"]
    assert hand["game_count"] == {"Ann": 12, "Bob": 9, "Cy": 4, "Dee": 30}
    # East-West counted most (Dee's 30): credited as a tap on East-West, to Bob, its pitcher.
    assert hand["points"]["game"] == "Bob"


def test_a_shared_highest_count_credits_game_to_nobody(client: Any) -> None:
    game_id = import_game(client, ten_point())
    counter = {"gc_0": "20", "gc_1": "10", "gc_2": "0", "gc_3": "10"}
    response = post_counted(client, game_id, counter, pitcher="Bob", bid=5, **NO_GAME)
    assert response.status_code == 302
    (hand,) = exported(client, game_id)["hands"]
    assert hand["points"]["game"] is None
    assert hand["game_count"] == {"Ann": 20, "Bob": 10, "Cy": 0, "Dee": 10}


def test_game_tapped_against_the_count_is_refused_as_a_contradiction_not_retapped(
    client: Any,
) -> None:
    game_id = import_game(client, ten_point())
    counter = {"gc_0": "14", "gc_1": "9", "gc_2": "12", "gc_3": "11"}
    response = post_counted(client, game_id, counter, pitcher="Bob", bid=5, game="Bob", **NO_GAME)
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert (
        "Game is tapped for East-West, but North-South counted 26 to East-West's 20: tap Game "
        "for North-South, or correct the count."
    ) in text(html.split('id="point_game-errors"', 1)[1].split("</ul>", 1)[0])
    # The page adds the sides up again, and keeps what was typed.
    assert 'id="side-count-0">26<' in html and 'id="side-count-1">20<' in html
    assert exported(client, game_id)["hands"] == []


def test_a_count_that_is_not_a_number_is_refused_in_the_counter(client: Any) -> None:
    game_id = import_game(client, ten_point())
    response = post_counted(client, game_id, {"gc_0_ace": "lots"}, pitcher="Bob", bid=5, **NO_GAME)
    assert response.status_code == 400
    assert "Aces taken by Ann" in text(response.get_data(as_text=True))
    assert exported(client, game_id)["hands"] == []


def test_a_count_out_of_its_range_is_refused_naming_its_box_and_kept(client: Any) -> None:
    game_id = import_game(client, ten_point())
    counter = {"gc_1_king": "5", "gc_2": "81"}
    response = post_counted(client, game_id, counter, pitcher="Bob", bid=5, **NO_GAME)
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    errors = text(html.split('id="game-counter-errors"', 1)[1].split("</ul>", 1)[0])
    assert "Kings taken by Bob: Number must be between 0 and 4." in errors
    assert "Count of Cy: Number must be between 0 and 80." in errors
    assert re.search(r'id="gc_1_king"[^>]*value="5"', html)
    assert re.search(r'id="gc_2"[^>]*value="81"', html)
    assert exported(client, game_id)["hands"] == []
    # The next empty form's counter is empty again (an empty counter is drawn once, kept).
    fresh = html_of(client, f"/games/{game_id}")
    assert 'id="game-counter-errors"' not in fresh
    assert re.findall(r'id="gc_[^"]*"[^>]*value="([^"]*)"', fresh) == [""] * 24


def test_correcting_a_counted_hand_shows_its_counts(client: Any) -> None:
    example = json.loads((EXAMPLES / "ten-point-moon.json").read_text())
    game_id = import_game(client, example)
    html = html_of(client, f"/games/{game_id}/hands/1/edit")
    assert [re.search(rf'id="gc_{i}"[^>]*value="(\d*)"', html).group(1) for i in range(4)] == [
        "12",
        "9",
        "4",
        "30",
    ]


def test_counts_over_a_whole_pack_are_refused_in_the_counter(client: Any) -> None:
    game_id = import_game(client, ten_point())
    counter = {"gc_0": "41", "gc_1": "10", "gc_2": "20", "gc_3": "10"}
    response = post_counted(client, game_id, counter, pitcher="Bob", bid=5, **NO_GAME)
    assert response.status_code == 400
    errors = response.get_data(as_text=True).split('id="game-counter-errors"', 1)[1]
    assert "the game counts add up to 81; a pack holds only 80" in text(errors.split("</ul>")[0])


def test_a_count_left_blank_is_not_counted_as_zero_but_refused_naming_who(client: Any) -> None:
    """Only Ann's 30 typed: saved as Bob 0, Cy 0, Dee 0 and Game to North-South, once."""
    game_id = import_game(client, ten_point())
    response = post_counted(client, game_id, {"gc_0": "30"}, pitcher="Bob", bid=5, **NO_GAME)
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    said = (
        "Count every player or none: Bob, Cy, Dee have no count (type 0 for a player who took "
        "no counting cards)."
    )
    assert said in text(html.split('id="game-counter-errors"', 1)[1].split("</ul>", 1)[0])
    assert ("#game-counter", said) in page(response).attention
    assert re.search(r'id="gc_0"[^>]*value="30"', html)  # what was typed stays
    assert exported(client, game_id)["hands"] == []
    # Every player counted (Bob, Cy and Dee 0 typed), the hand is saved with every count.
    counter = {"gc_0": "30", "gc_1": "0", "gc_2": "0", "gc_3": "0"}
    saved = post_counted(client, game_id, counter, pitcher="Bob", bid=5, **NO_GAME)
    assert saved.status_code == 302
    (hand,) = exported(client, game_id)["hands"]
    assert hand["game_count"] == {"Ann": 30, "Bob": 0, "Cy": 0, "Dee": 0}


def test_a_game_tapped_against_the_count_is_not_applied_and_is_listed_to_fix(
    client: Any,
) -> None:
    game_id = import_game(client, ten_point())
    counter = {"gc_0": "30", "gc_1": "0", "gc_2": "0", "gc_3": "0"}
    response = post_counted(client, game_id, counter, pitcher="Bob", bid=5, game="Bob", **NO_GAME)
    assert response.status_code == 400
    parsed = page(response)
    assert parsed.checked("point_game") == "team-1"  # the tap stays as it was tapped
    assert [href for href, _ in parsed.attention] == ["#point_game"]
    assert "North-South counted 30 to East-West's 0" in parsed.attention[0][1]
    assert exported(client, game_id)["hands"] == []
