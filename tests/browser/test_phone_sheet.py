"""The score sheet on a phone: every side in view with no sideways scroll, a row opens its hand.

Games of 4, 5 and 6 sides (Auction Pitch, Joker Pitch, 10-Point Pitch, long names that share
their first letters) are set up through the app's own import and looked at on 360x740 and
390x844 screens, and a tablet for the screenshots (test-artifacts/sheet-*.png).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .ui import ap_record, import_game

pytestmark = pytest.mark.browser

PHONES = [(360, 740), (390, 844)]

FOUR = ["Ana", "Bogdan", "Cristi", "Dana"]
#: Hand 2 sets Cristi back into the hole; hand 3 is the latest.
FOUR_HANDS = [
    ("Bogdan", 3, "Bogdan", "Bogdan", "Cristi", "Bogdan"),
    ("Cristi", 2, "Bogdan", "Ana", None, "Dana"),
    ("Dana", 2, "Dana", "Dana", "Ana", "Dana"),
]

FIVE = ["Alexandra", "Alexandru", "Bartholomew", "Constantin", "Evangeline"]


def joker_record() -> dict[str, Any]:
    """Joker Pitch, five players whose names start alike: five points a hand."""
    hands = [
        ("Alexandra", 3, "Alexandra", "Alexandru", "Alexandra", "Alexandra", "Evangeline"),
        ("Bartholomew", 4, "Alexandru", "Bartholomew", None, "Constantin", "Evangeline"),
        ("Constantin", 2, "Constantin", "Constantin", "Evangeline", None, "Constantin"),
    ]
    return {
        "format": "pitch-scorekeeper/1",
        "variant": "joker-pitch",
        "players": FIVE,
        "hands": [
            {
                "pitcher": p,
                "bid": b,
                "points": {"high": h, "low": lo, "jack": j, "joker": jk, "game": g},
            }
            for p, b, h, lo, j, jk, g in hands
        ],
    }


SIX = ["Margareta", "Marian", "Ștefan", "Ștefania", "Ionuț-Alexandru", "Ioana Maria"]
TEN = ["high", "low", "jack", "off_jack", "big_joker", "little_joker", "three", "game"]


def ten_point_record() -> dict[str, Any]:
    """10-Point Pitch, six players: eight points a hand, one side taking six of them."""
    hands = [
        ("Marian", 7, ["Marian", "Ștefan", "Marian", "Marian", "Marian", "Marian", "Marian", None]),
        (
            "Ștefania",
            8,
            [
                "Ioana Maria",
                "Ștefania",
                "Margareta",
                None,
                "Ștefan",
                None,
                "Ștefan",
                "Ionuț-Alexandru",
            ],
        ),
        (
            "Ioana Maria",
            5,
            [
                "Ioana Maria",
                "Ioana Maria",
                "Ioana Maria",
                "Marian",
                None,
                "Margareta",
                "Ioana Maria",
                "Ioana Maria",
            ],
        ),
    ]
    return {
        "format": "pitch-scorekeeper/1",
        "variant": "ten-point",
        "players": SIX,
        "hands": [
            {"pitcher": p, "bid": b, "points": dict(zip(TEN, takers, strict=True))}
            for p, b, takers in hands
        ],
    }


GAMES: dict[int, Callable[[], dict[str, Any]]] = {
    4: lambda: ap_record(FOUR, FOUR_HANDS),
    5: joker_record,
    6: ten_point_record,
}

#: How far the page and the sheet reach sideways, against the width they have.
SCROLL = """
() => {
  const wrap = document.querySelector(".sheet .table-wrap");
  const root = document.documentElement;
  return {page: root.scrollWidth, pageWidth: root.clientWidth,
          sheet: wrap.scrollWidth, sheetWidth: wrap.clientWidth};
}
"""


def tap_middle(page: Any, element: Any) -> None:
    """Tap the middle of an element where a finger would (whatever is on top there)."""
    element.scroll_into_view_if_needed()
    box = element.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def _inside(box: dict[str, float] | None, width: int) -> bool:
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width


@pytest.mark.parametrize("sides", [4, 5, 6])
@pytest.mark.parametrize(("width", "height"), PHONES)
def test_every_sides_column_is_in_view_on_a_phone_with_no_sideways_scroll(
    new_page: Callable[..., Any], sides: int, width: int, height: int, artifacts: Path
) -> None:
    page = new_page(width, height)
    game_id = import_game(page, GAMES[sides]())
    page.goto(f"/games/{game_id}")
    sheet = page.locator(".sheet table")
    headers = sheet.locator("thead th.side-col")
    expect(headers).to_have_count(sides)
    latest = sheet.locator("tbody tr.hand.latest")
    expect(latest).to_have_count(1)
    cells = latest.locator("td.side-cell")
    expect(cells).to_have_count(sides)
    for i in range(sides):
        assert _inside(headers.nth(i).bounding_box(), width), (i, headers.nth(i).bounding_box())
        assert _inside(cells.nth(i).bounding_box(), width), (i, cells.nth(i).bounding_box())
    # The hand number and dealer are in view too, at the left.
    first = latest.locator("td.hand-col")
    assert _inside(first.bounding_box(), width)
    reach = page.evaluate(SCROLL)
    assert reach["page"] <= reach["pageWidth"], reach
    assert reach["sheet"] <= reach["sheetWidth"], reach
    # Every side's header says its full name to a screen reader, short names stay distinct.
    labels = [headers.nth(i).get_attribute("aria-label") for i in range(sides)]
    shown = [headers.nth(i).inner_text().strip() for i in range(sides)]
    assert len({s.casefold() for s in shown}) == sides, shown
    players = GAMES[sides]()["players"]
    assert labels == players
    page.locator(".sheet").screenshot(path=str(artifacts / f"sheet-{sides}-sides-{width}.png"))
    assert page.js_errors == []


@pytest.mark.parametrize(("width", "height"), PHONES)
def test_tapping_a_row_opens_that_hand_in_words(
    new_page: Callable[..., Any], width: int, height: int
) -> None:
    page = new_page(width, height)
    game_id = import_game(page, ap_record(FOUR, FOUR_HANDS))
    page.goto(f"/games/{game_id}")
    # A tap on a side's cell, not on the hand's number: the whole row is the link.
    tap_middle(page, page.locator("#hand-2 td.side-cell").nth(3))
    page.wait_for_url(re.compile(rf"/games/{game_id}/hands/2$"))
    article = page.locator("#hand")
    expect(article.locator("h1")).to_contain_text("Hand 2")
    words = " ".join(article.inner_text().split())
    assert "Bogdan dealt." in words
    assert "Cristi bid 2." in words
    assert "Cristi is set back 2 and is in the hole." in words
    for said in ("Bogdan took High.", "Ana took Low.", "Nobody took Jack.", "Dana took Game."):
        assert said in words
    expect(page.get_by_role("link", name="Correct this hand")).to_have_attribute(
        "href", f"/games/{game_id}/hands/2/edit"
    )
    page.get_by_role("link", name="Back to the score sheet").click()
    page.wait_for_url(re.compile(rf"/games/{game_id}#hand-2$"))
    assert page.js_errors == []


def test_a_row_is_a_link_the_keyboard_reaches_and_follows(
    new_page: Callable[..., Any],
) -> None:
    page = new_page(360, 740)
    game_id = import_game(page, ap_record(FOUR, FOUR_HANDS))
    page.goto(f"/games/{game_id}")
    link = page.locator("#hand-3 a.hand-link")
    link.focus()
    assert page.evaluate("() => document.activeElement.getAttribute('aria-label')") == "Hand 3"
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.url.endswith(f"/games/{game_id}/hands/3")
    expect(page.locator("#hand h1")).to_contain_text("Hand 3")


def test_a_row_opens_its_hand_without_javascript(new_page: Callable[..., Any]) -> None:
    page = new_page(390, 844, java_script_enabled=False)
    game_id = import_game(page, ap_record(FOUR, FOUR_HANDS))
    page.goto(f"/games/{game_id}")
    tap_middle(page, page.locator("#hand-1 td.side-cell").first)
    page.wait_for_url(re.compile(rf"/games/{game_id}/hands/1$"))
    expect(page.locator("#hand")).to_contain_text("Bogdan made 3.")


@pytest.mark.parametrize(
    ("width", "height", "name"),
    [(360, 740, "phone-360"), (390, 844, "phone-390"), (768, 1024, "tablet")],
)
def test_screenshots_of_the_sheet_and_a_hand_on_a_phone_and_a_tablet(
    new_page: Callable[..., Any], artifacts: Path, width: int, height: int, name: str
) -> None:
    page = new_page(width, height)
    game_id = import_game(page, ten_point_record())
    page.goto(f"/games/{game_id}")
    page.locator(".sheet").screenshot(path=str(artifacts / f"sheet-{name}.png"))
    assert (artifacts / f"sheet-{name}.png").stat().st_size > 5_000
    page.goto(f"/games/{game_id}/hands/2")
    page.screenshot(path=str(artifacts / f"sheet-hand-{name}.png"), full_page=True)
    reach = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert reach[0] <= reach[1], reach
    assert page.js_errors == []


def test_a_partnership_sheet_has_a_column_per_team_on_a_phone(
    new_page: Callable[..., Any], artifacts: Path
) -> None:
    page = new_page(360, 740)
    examples = Path(__file__).resolve().parents[1] / "examples"
    game_id = import_game(
        page, json.loads((examples / "cinch-rule-book-examples.json").read_text())
    )
    page.goto(f"/games/{game_id}")
    headers = page.locator(".sheet thead th.side-col")
    expect(headers).to_have_count(2)
    assert [headers.nth(i).get_attribute("aria-label") for i in range(2)] == [
        "North-South: Ann & Cy",
        "East-West: Bob & Dee",
    ]
    for i in range(2):
        assert _inside(headers.nth(i).bounding_box(), 360)
    # The pitcher (a player) is named beside the bid in the team's column.
    expect(page.locator("#hand-1 .bid")).to_contain_text("Bob")
    page.locator(".sheet").screenshot(path=str(artifacts / "sheet-partnership-360.png"))
    tap_middle(page, page.locator("#hand-1 td.side-cell").first)
    page.wait_for_url(re.compile(rf"/games/{game_id}/hands/1$"))
    expect(page.locator("#hand")).to_contain_text("Bob (East-West) bid 6.")
    page.screenshot(path=str(artifacts / "sheet-partnership-hand-360.png"), full_page=True)
