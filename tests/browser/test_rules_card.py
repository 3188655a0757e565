"""The rules card on a phone: reached in a tap from the game page, read without sideways
scrolling at 360x740 and 390x844, in English and Romanian. Screenshots of the card at phone
and tablet size (768x1024) go to test-artifacts/ (rules-card-*.png)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from scorekeeper import rules
from scorekeeper.sheets.rules_card import card_lines

from .conftest import LiveServer
from .ui import ap_record, import_game

pytestmark = pytest.mark.browser

PHONES = [(360, 740), (390, 844)]
TABLET = (768, 1024)

#: How the page lies in the window: its scroll width, the elements past the right edge, and
#: where the card ends (to say whether it fits one screen).
MEASURE = """
() => ({scroll: document.documentElement.scrollWidth, width: window.innerWidth,
        height: window.innerHeight,
        wide: [...document.querySelectorAll("body *")]
          .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
          .map((el) => el.tagName + "." + el.className),
        cardTop: document.querySelector(".rules-card").getBoundingClientRect().top,
        cardBottom: document.querySelector(".rules-card").getBoundingClientRect().bottom,
        rulesBottom: [...document.querySelectorAll(".rules-card li")].at(-1)
          .getBoundingClientRect().bottom,
        lines: document.querySelectorAll(".rules-card li[data-rule]").length})
"""


def measured(page: Any) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(MEASURE)
    return found


HOUSE_RULES = {"target": 11, "low_to": "taker", "payout_per_setback": 1}


def a_game(page: Any) -> int:
    """A four-player Auction Pitch game with house rules and a stake, one hand in."""
    record = ap_record(
        ["Ann", "Bob", "Cy", "Dee"],
        [("Bob", 3, "Bob", "Cy", "Bob", "Bob")],
        house_rules=HOUSE_RULES,
        stake="0.25",
    )
    return import_game(page, record)


def rules_of_the_game() -> int:
    """How many rules the card of ``a_game`` says, from the engine's data."""
    variant = rules.VARIANTS["auction-pitch"]
    return len(card_lines(variant, variant.house_rules(HOUSE_RULES), stake="0.25"))


@pytest.mark.parametrize(("width", "height"), PHONES)
def test_the_game_page_opens_its_rules_card_and_it_reads_without_sideways_scrolling(
    new_page: Callable[..., Any], artifacts: Path, width: int, height: int
) -> None:
    page = new_page(width, height)
    game_id = a_game(page)
    page.goto(f"/games/{game_id}")
    page.get_by_role("link", name="Rules card").click()
    page.wait_for_url(re.compile(rf"/games/{game_id}/rules$"))
    expect(page.get_by_role("heading", name="Points, in count-out order")).to_be_visible()
    expect(page.get_by_text("A game is won at 11.")).to_be_visible()
    expect(page.get_by_text("A unit is worth 0.25.")).to_be_visible()
    layout = measured(page)
    assert layout["scroll"] <= layout["width"], layout
    assert layout["wide"] == [], layout
    page.screenshot(path=str(artifacts / f"rules-card-game-{width}x{height}.png"))
    page.screenshot(
        path=str(artifacts / f"rules-card-game-{width}x{height}-whole.png"), full_page=True
    )
    # The card is the game's: every rule of it, and a way back.
    assert layout["lines"] == rules_of_the_game()
    print(f"\ngame card at {width}x{height}: last rule ends at {layout['rulesBottom']:.0f} px")
    if (width, height) == (390, 844):
        # The phone: a four-player Auction Pitch table reads its card in one screen.
        assert layout["rulesBottom"] <= height, layout
    page.get_by_role("link", name="Back to the game").first.click()
    page.wait_for_url(re.compile(rf"/games/{game_id}$"))
    assert page.js_errors == []


@pytest.mark.parametrize(("width", "height"), PHONES)
@pytest.mark.parametrize("lang", ["en", "ro"])
def test_every_variants_card_fits_the_phones_width_in_both_languages(
    new_page: Callable[..., Any],
    live_server: LiveServer,
    artifacts: Path,
    width: int,
    height: int,
    lang: str,
) -> None:
    page = new_page(width, height)
    if lang == "ro":
        page.goto("/")
        page.get_by_role("button", name="Română").click()
    heights = {}
    for key in rules.VARIANTS:
        page.goto(f"/rules/{key}")
        layout = measured(page)
        assert layout["scroll"] <= layout["width"], (key, layout)
        assert layout["wide"] == [], (key, layout)
        heights[key] = (round(layout["rulesBottom"]), round(layout["cardBottom"]))
    page.screenshot(path=str(artifacts / f"rules-card-ten-point-{lang}-{width}x{height}.png"))
    # Printed for the report: where each card's last rule and its PDF link end, against the
    # screen's height (a card that ends below it needs a scroll down).
    print(f"\n{lang} {width}x{height}: last rule, PDF link end at {heights}")
    assert page.js_errors == []


def test_the_variant_chooser_links_each_rules_card(page: Any, live_server: LiveServer) -> None:
    page.goto("/games/new")
    page.get_by_role("link", name="Rules card: Sell-Out").click()
    page.wait_for_url(re.compile(r"/rules/sell-out$"))
    expect(page.get_by_role("heading", name=re.compile("^Sell-Out"))).to_be_visible()
    expect(page.locator('li[data-rule="sale:sold"]')).to_be_visible()


def test_the_card_at_tablet_size_fits_one_screen(
    new_page: Callable[..., Any], artifacts: Path
) -> None:
    page = new_page(*TABLET)
    game_id = a_game(page)
    page.goto(f"/games/{game_id}/rules")
    layout = measured(page)
    assert layout["scroll"] <= layout["width"], layout
    assert layout["cardBottom"] <= layout["height"], layout
    page.screenshot(path=str(artifacts / "rules-card-game-768x1024.png"))
