"""A refused setup is impossible to miss and says what is wrong in the form's own words, in
English and Romanian; "no smudge" is accepted either way; every hint is drawn for the form
as sent; the points count out in the table's own order."""

from __future__ import annotations

import re
from typing import Any

import pytest

from scorekeeper import rules

from .tables import exported, game_count, page, setup_form, text

THREE = ["Ann", "Bob", "Cy"]
ROMANIAN = {"Accept-Language": "ro-RO,ro;q=0.9"}
#: The record's own words a page of the form must never show: every switch and point key
#: (as a record writes it), every switch's values, and null.
RECORD_KEYS = sorted(
    {
        *rules.variants.SWITCH_NAMES,
        *rules.POINTS,
        *(value for choices in rules.SWITCH_CHOICES.values() for value in choices),
        "null",
        "house_rules",
    }
)
#: Keys that are words of the language too, so a page may say them: English says "a
#: set-back", "the count-out", "High", "game"; Romanian keeps the card-table word "smudge".
ENGLISH_WORDS = {"set-back", "count-out"}
ROMANIAN_WORDS = {"smudge"}


def keys_on(words: str, *, every_key: bool) -> list[str]:
    """The record's keys found in a page's words: in English those no sentence has
    (max_bid, off_jack, bidder-only, null...); with ``every_key`` (a Romanian page, where
    "high" or "game" is no word), every key."""
    return [
        key
        for key in RECORD_KEYS
        if (every_key and key not in ROMANIAN_WORDS)
        or (
            not every_key
            and key not in ENGLISH_WORDS
            and ("_" in key or "-" in key or key == "null")
        )
        if re.search(rf"(?<![\w-]){re.escape(key)}(?![\w-])", words, re.I)
    ]


def create(client: Any, variant: str, names: list[str], **changes: Any) -> Any:
    return client.post(f"/games/new/{variant}", data=setup_form(variant, names, **changes))


def game_of(response: Any) -> int:
    assert response.status_code == 302, page(response).attention
    return int(response.headers["Location"].rsplit("/", 1)[1])


#: The tester's refused setups, what the page says of each (the engine said the record's
#: words: ``max_bid 7 is above 4, the total value of the points in play``...), and the field
#: its entry in the list links to.
REFUSED = [
    (
        "auction-pitch",
        THREE,
        {"max_bid": 7},
        "Highest bid: 7 is more than the points in play are worth: 4. Lower the highest bid, "
        "or tick more points.",
        "#max_bid",
    ),
    (
        "auction-pitch",
        THREE,
        {"smudge_bid": 6},
        "Smudge or moon bid: 6 is not a bid of this game: give a bid from 2 to 4, or leave it "
        "empty for no smudge.",
        "#smudge_bid",
    ),
    (
        "auction-pitch",
        THREE,
        {"in_play_high": ""},
        "Points in play: Tick High: every hand has one.",
        "#points-in-play",
    ),
    (
        "auction-pitch",
        THREE,
        {"smudge_failed": "loses"},
        "A failed smudge or moon bid: A failed smudge can lose the game at once only with "
        "exactly two sides (two players, or two teams); this game has 3.",
        "#smudge_failed",
    ),
    (
        "pitch-six",
        THREE,
        {"smudge_failed": "loses"},
        "A failed smudge or moon bid: There is no smudge in this game, so a failed bid cannot "
        "lose it at once: give a smudge or moon bid, or choose “Set back by the bid, like any "
        "bid”.",
        "#smudge_failed",
    ),
    (
        "pitch-six",
        THREE,
        {"min_bid": 4, "max_bid": 3},
        "Lowest bid: The lowest bid, 4, is above the highest bid, 3: lower the lowest bid or "
        "raise the highest.",
        "#min_bid",
    ),
]


@pytest.mark.parametrize(
    ("variant", "names", "changes", "said", "link"),
    REFUSED,
    ids=["max-bid", "smudge-bid", "no-high", "two-sides", "no-smudge", "min-above-max"],
)
def test_a_refused_setup_lists_what_needs_attention_at_its_top_in_the_forms_words(
    client: Any,
    app: Any,
    variant: str,
    names: list[str],
    changes: dict[str, Any],
    said: str,
    link: str,
) -> None:
    data = setup_form(variant, names, **changes)
    if changes.get("in_play_high") == "":
        del data["in_play_high"]
    response = client.post(f"/games/new/{variant}", data=data)
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    parsed = page(response)
    assert (link, said) in parsed.attention
    # The list comes first, under the title and above the form: the page opens on it.
    assert html.index("<h1>") < html.index('class="attention"') < html.index('id="setup-form"')
    assert keys_on(text(html), every_key=False) == []
    assert game_count(app) == 0


@pytest.mark.parametrize(("variant", "names", "changes", "said", "link"), REFUSED)
def test_a_refused_setup_says_it_in_romanian_with_no_key_of_the_record(
    client: Any,
    variant: str,
    names: list[str],
    changes: dict[str, Any],
    said: str,
    link: str,
) -> None:
    data = setup_form(variant, names, **changes)
    if changes.get("in_play_high") == "":
        del data["in_play_high"]
    response = client.post(f"/games/new/{variant}", data=data, headers=ROMANIAN)
    assert response.status_code == 400
    parsed = page(response)
    (entry,) = [words for href, words in parsed.attention if href == link]
    assert entry != said  # said in Romanian
    assert keys_on(entry, every_key=True) == []
    assert keys_on(text(response.get_data(as_text=True)), every_key=False) == []
    assert keys_on(" ".join(words for _, words in parsed.attention), every_key=True) == []


def test_the_romanian_words_of_a_missing_high(client: Any) -> None:
    data = setup_form("auction-pitch", THREE)
    del data["in_play_high"]
    response = client.post("/games/new/auction-pitch", data=data, headers=ROMANIAN)
    assert ("#points-in-play", "Puncte în joc: Bifați Mare: fiecare mână îl are.") in page(
        response
    ).attention


def test_every_refusal_of_a_setup_is_listed_a_wrong_bid_and_a_missing_player_both(
    client: Any,
) -> None:
    response = create(client, "auction-pitch", ["Ann"], max_bid=7, target="0")
    listed = [href for href, _ in page(response).attention]
    assert listed == ["#seats", "#target", "#max_bid"]


@pytest.mark.parametrize(
    ("changes", "house_rules"),
    [
        ({"smudge": "off", "smudge_bid": ""}, {"smudge_bid": None}),  # both ways
        ({"smudge_bid": ""}, {"smudge_bid": None}),  # an empty bid, the mode left
        ({"smudge": "off"}, {"smudge": "off"}),  # "No smudge", the bid left
    ],
    ids=["both-ways", "empty-bid", "no-smudge-chosen"],
)
def test_no_smudge_chosen_either_way_starts_the_game_with_no_smudge(
    client: Any, changes: dict[str, str], house_rules: dict[str, Any]
) -> None:
    game_id = game_of(create(client, "auction-pitch", THREE, **changes))
    assert exported(client, game_id)["house_rules"] == house_rules
    card = text(client.get(f"/games/{game_id}/rules").get_data(as_text=True))
    assert "a made bid of 4 wins" not in card


def test_a_smudge_given_to_pitch_six_has_its_mode_chosen(client: Any) -> None:
    html = client.get("/games/new/pitch-six").get_data(as_text=True)
    assert 'name="smudge"' in html
    assert "There is no smudge bid, so no bid wins at once" in text(html)
    chosen = game_of(create(client, "pitch-six", THREE, smudge_bid=6, smudge="always"))
    assert exported(client, chosen)["house_rules"] == {"smudge_bid": 6, "smudge": "always"}
    left = game_of(create(client, "pitch-six", THREE, smudge_bid=6))
    assert exported(client, left)["house_rules"] == {"smudge_bid": 6}  # wins unless in the hole
    without = game_of(create(client, "pitch-six", THREE, smudge="always"))
    assert "house_rules" not in exported(client, without)  # no bid, no smudge to choose


def test_cinch_offers_no_payout_per_set_back_and_says_why(client: Any) -> None:
    html = client.get("/games/new/cinch").get_data(as_text=True)
    assert 'name="payout_per_setback"' not in html
    assert "A failed bid in Cinch is never a set-back, so there is no payout per set-back." in (
        text(html)
    )
    assert 'name="payout_per_setback"' in client.get("/games/new/sell-out").get_data(True)


def hint_of(html: str, field_id: str) -> str:
    found = re.search(rf'id="{field_id}"[^>]*>.*?<p class="hint">(.*?)</p>', html, re.S)
    assert found, field_id
    return re.sub(r"\s+([.,;:])", r"\1", text(found.group(1)))  # a tag is no space on screen


def value_of(html: str, name: str) -> str:
    found = re.search(rf'<input[^>]*id="{name}"[^>]*value="([^"]*)"', html)
    return found.group(1) if found else ""


def test_the_smudge_hint_and_bids_follow_an_off_jack_ticked_without_a_script(client: Any) -> None:
    html = client.get("/games/new/auction-pitch").get_data(as_text=True)
    assert hint_of(html, "smudge") == "The smudge bid is 4."
    # Off-Jack ticked, the bids left as drawn; the form comes back (a seat is missing).
    response = create(client, "auction-pitch", ["Ann"], in_play_off_jack="y")
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert hint_of(html, "smudge") == "The smudge bid is 5."
    assert [value_of(html, n) for n in ("max_bid", "smudge_bid")] == ["5", "5"]
    assert 'id="points-total">5<' in html
    # Sent again as drawn, it plays what it said: the Off-Jack's bids follow the points.
    data = page(response).submitted() | {"name_1": "Bob"}
    game_id = game_of(client.post("/games/new/auction-pitch", data=data))
    assert exported(client, game_id)["house_rules"] == {
        "points": ["high", "low", "jack", "game", "off_jack"]
    }


def test_a_smudge_bid_left_empty_says_there_is_none(client: Any) -> None:
    response = create(client, "auction-pitch", ["Ann"], smudge_bid="")
    html = response.get_data(as_text=True)
    assert hint_of(html, "smudge").startswith("There is no smudge bid, so no bid wins at once")
    assert hint_of(html, "smudge_failed").startswith("There is no smudge in this game now")


def point_order(html: str) -> list[str]:
    return re.findall(r'name="point_order" value="(\w+)"', html)


def test_the_points_move_up_and_down_without_a_script_and_nothing_starts(
    client: Any, app: Any
) -> None:
    data = setup_form("auction-pitch", THREE, in_play_off_jack="y")
    html = client.get("/games/new/auction-pitch").get_data(as_text=True)
    order = point_order(html)
    assert order[:5] == ["high", "low", "jack", "game", "joker"]
    data["point_order"] = order  # type: ignore[assignment]  # every row posts its key
    moved = client.post("/games/new/auction-pitch", data={**data, "move": "up:off_jack"})
    assert moved.status_code == 200
    assert game_count(app) == 0
    html = moved.get_data(as_text=True)
    at = point_order(html).index("off_jack")
    assert point_order(html)[at - 1 : at + 2] == ["last_trick", "off_jack", "pedro"]
    assert page(moved).attention == []  # a move refuses nothing
    # Its button says where it goes: the page opens at the row the point moved to.
    assert re.search(r'formaction="[^"]*#point-row-\d+"', html)
    # Up to just below Jack, then Start: the record and the rules card follow the order.
    order = [
        "high",
        "low",
        "jack",
        "off_jack",
        "game",
        *[k for k in order if k not in ("high", "low", "jack", "off_jack", "game")],
    ]
    game_id = game_of(client.post("/games/new/auction-pitch", data={**data, "point_order": order}))
    assert exported(client, game_id)["house_rules"]["points"] == [
        "high",
        "low",
        "jack",
        "off_jack",
        "game",
    ]
    card = text(client.get(f"/games/{game_id}/rules").get_data(as_text=True))
    assert (
        card.index("Jack, worth 1") < card.index("Off-Jack, worth 1") < card.index("Game, worth 1")
    )


def test_the_first_and_last_points_cannot_move_past_the_ends(client: Any) -> None:
    html = client.get("/games/new/auction-pitch").get_data(as_text=True)
    buttons = re.findall(r'<button[^>]*name="move"[^>]*>', html)
    assert "disabled" in buttons[0] and 'value="up:high"' in buttons[0]
    assert "disabled" in buttons[-1]
    data = setup_form("auction-pitch", THREE) | {"move": "up:high"}
    assert point_order(client.post("/games/new/auction-pitch", data=data).get_data(True))[0] == (
        "high"
    )
    odd = setup_form("auction-pitch", THREE) | {"move": "sideways:nothing"}
    assert client.post("/games/new/auction-pitch", data=odd).status_code == 200
