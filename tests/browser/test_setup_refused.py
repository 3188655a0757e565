"""An impossible setup on a phone (390x844) opens on what needs attention, in English and in
Romanian, in the form's words, with no key of the record on the page; the points move in
the count-out order with their buttons; the page's screenshots are in test-artifacts/."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from scorekeeper import i18n, rules

pytestmark = pytest.mark.browser

#: The record's words no page of the form may show: the keys a record writes with an
#: underscore or a hyphen (max_bid, off_jack, bidder-only...), and null. Plain words that a
#: key happens to be ("High", "game", "a set-back") are checked on the Romanian page.
RECORD_KEYS = sorted(
    {
        *rules.variants.SWITCH_NAMES,
        *rules.POINTS,
        *(value for choices in rules.SWITCH_CHOICES.values() for value in choices),
        "null",
    }
)
ENGLISH_WORDS = {"set-back", "count-out"}
ROMANIAN_WORDS = {"smudge"}  # the card-table word Romanian keeps


def keys_in(words: str, *, every_key: bool) -> list[str]:
    wanted = (
        [k for k in RECORD_KEYS if k not in ROMANIAN_WORDS]
        if every_key
        else [
            k
            for k in RECORD_KEYS
            if k not in ENGLISH_WORDS and ("_" in k or "-" in k or k == "null")
        ]
    )
    return [k for k in wanted if re.search(rf"(?<![\w-]){re.escape(k)}(?![\w-])", words, re.I)]


def ro(message: str, **variables: Any) -> str:
    text = i18n.translations_for("ro").gettext(message)
    return text % variables if variables else text


def _in_view(page: Any, locator: Any) -> bool:
    box = locator.bounding_box()
    return (
        box is not None
        and box["y"] >= 0
        and box["y"] + box["height"] <= page.viewport_size["height"]
    )


@pytest.mark.parametrize("language", ["en", "ro"])
def test_an_impossible_setup_opens_on_what_needs_attention_in_the_forms_words(
    new_page: Any, artifacts: Path, language: str
) -> None:
    page = new_page(locale="ro-RO" if language == "ro" else "en-US")
    say = ro if language == "ro" else (lambda m, **v: m % v if v else m)
    page.goto("/games/new/auction-pitch")
    for seat, name in enumerate(["Ana", "Bogdan"], start=1):
        page.get_by_label(say("Name in seat %(number)s", number=seat), exact=True).fill(name)
    page.locator("details.house-rules > summary").click()
    page.get_by_label(say("Highest bid"), exact=True).fill("7")  # four points are worth 4
    page.get_by_role("button", name=say("Start the game")).click()
    page.wait_for_load_state("load")

    attention = page.locator(".attention")
    expect(attention).to_be_visible()
    assert _in_view(page, attention), "the list is not on the first screen"
    assert page.evaluate("window.scrollY") == 0
    entry = attention.get_by_role("link")
    expect(entry).to_have_count(1)
    said = " ".join(entry.inner_text().split())
    expected = (
        say("Highest bid")
        + ": "
        + say(
            "%(bid)s is more than the points in play are worth: %(total)s. Lower the highest bid, "
            "or tick more points.",
            bid=7,
            total=4,
        )
    )
    assert said == expected
    page.screenshot(path=str(artifacts / f"setup-refused-{language}.png"))
    words = page.locator("body").inner_text()
    assert keys_in(words, every_key=False) == []
    if language == "ro":
        assert keys_in(said, every_key=True) == []
    # The entry leads to its field, which says the same next to it.
    entry.click()
    field = page.get_by_label(say("Highest bid"), exact=True)
    assert _in_view(page, field)
    page.screenshot(path=str(artifacts / f"setup-refused-{language}-at-the-field.png"))
    assert page.js_errors == []


def test_a_point_moves_up_the_count_out_order_with_its_button_and_the_game_keeps_it(
    new_page: Any, artifacts: Path
) -> None:
    page = new_page()
    page.goto("/games/new/auction-pitch")
    for seat, name in enumerate(["Ann", "Bob", "Cy"], start=1):
        page.get_by_label(f"Name in seat {seat}", exact=True).fill(name)
    page.locator("details.house-rules > summary").click()
    page.get_by_label("Off-Jack (1 point)").check()
    rows = page.locator(".point-order .point-row")
    while "Off-Jack" not in rows.nth(3).inner_text():
        page.get_by_role("button", name="Move Off-Jack up").click()
        page.wait_for_load_state("load")
        # The page comes back where the point went, its box still ticked.
        expect(page.get_by_label("Off-Jack (1 point)")).to_be_checked()
    names = [" ".join(t.split()) for t in rows.all_inner_texts()][:5]
    assert [n.split(" (")[0] for n in names] == ["High", "Low", "Jack", "Off-Jack", "Game"]
    assert _in_view(page, rows.nth(3))
    page.screenshot(path=str(artifacts / "setup-point-moved.png"))
    expect(page.locator("#points-total")).to_have_text("5")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    game_id = int(page.url.rsplit("/", 1)[1])
    record = page.request.get(f"/games/{game_id}.json").json()
    assert record["house_rules"]["points"] == ["high", "low", "jack", "off_jack", "game"]
    page.goto(f"/games/{game_id}/rules")
    card = page.locator("main").inner_text()
    assert (
        card.index("Jack, worth 1") < card.index("Off-Jack, worth 1") < card.index("Game, worth 1")
    )
    assert page.js_errors == []
