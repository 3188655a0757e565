"""Using the pages at a table: few taps, no typing, keyboard, labels, phones, no JavaScript."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import LiveServer
from .ui import Table, ap_record, import_game, said, standings, start_game

#: Two hands of a four-player game: Bob makes 3, then Cy is set back into the hole.
TWO_HANDS = [("Bob", 3, "Bob", "Bob", "Cy", "Bob"), ("Cy", 2, "Bob", "Ann", None, "Dee")]

pytestmark = pytest.mark.browser

#: Counts what a person does, across page loads in one tab: real pointer taps and key presses.
COUNT_INPUT = """
(() => {
  const bump = (key) =>
    sessionStorage.setItem(key, String(Number(sessionStorage.getItem(key) || 0) + 1));
  document.addEventListener("pointerdown", (e) => { if (e.isTrusted) bump("taps"); }, true);
  document.addEventListener("keydown", (e) => { if (e.isTrusted) bump("keys"); }, true);
})();
"""

#: Whether every visible control has a name a screen reader can say.
UNNAMED_CONTROLS = """
() => [...document.querySelectorAll("input, select, textarea, button")]
  .filter((el) => el.type !== "hidden")
  .filter((el) => !(el.labels && el.labels.length) && !el.getAttribute("aria-label")
                  && !el.getAttribute("aria-labelledby")
                  && !((el.tagName === "BUTTON" || el.type === "submit")
                       && (el.innerText || el.value).trim()))
  .map((el) => el.outerHTML)
"""

#: Elements that reach past the right edge of the window (so the page scrolls sideways).
WIDER_THAN_WINDOW = """
() => ({scroll: document.documentElement.scrollWidth, width: window.innerWidth,
        wide: [...document.querySelectorAll("body *")]
          .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1
                          && !el.closest(".table-wrap"))
          .map((el) => el.tagName + "." + el.className)})
"""


def test_a_typical_auction_pitch_hand_takes_at_most_eight_taps_and_no_typing(
    page: Any, live_server: LiveServer
) -> None:
    game_id = start_game(page, "Auction Pitch", ["Ann", "Bob", "Cy", "Dee"])
    page.add_init_script(COUNT_INPUT)
    page.reload()
    table = Table(page)
    table.hand("Bob", 3, high="Bob", low="Cy", jack="Bob", game="Bob")
    table.save()
    assert said(page) == "Bob made 3."
    counted = page.evaluate(
        "() => [Number(sessionStorage.getItem('taps')), Number(sessionStorage.getItem('keys'))]"
    )
    # Pitcher, bid, High, Low, Jack, Game, Save: seven taps, no key pressed.
    assert table.taps == 7
    assert counted == [7, 0]
    assert table.taps <= 8
    assert live_server.hand_count(game_id) == 1


def test_the_tap_buttons_can_be_reached_and_chosen_by_keyboard(
    page: Any, live_server: LiveServer
) -> None:
    game_id = start_game(page, "Auction Pitch", ["Ann", "Bob", "Cy"])
    page.locator("body").focus()

    def tab_to(name: str) -> None:
        for _ in range(25):
            page.keyboard.press("Tab")
            if page.evaluate("() => document.activeElement.name") == name:
                return
        raise AssertionError(f"Tab never reached {name}")

    tab_to("pitcher")
    # Focus shows on the button drawn for the radio.
    outline = page.evaluate(
        "() => getComputedStyle("
        "document.querySelector(`label[for='${document.activeElement.id}']`)).outlineStyle"
    )
    assert outline == "solid"
    page.keyboard.press("ArrowRight")  # Ann → Bob
    expect(page.locator("#pitcher-1")).to_be_checked()
    tab_to("bid")
    page.keyboard.press("Space")  # 2
    page.keyboard.press("ArrowRight")  # 3
    expect(page.locator("#bid-1")).to_be_checked()
    for point in ("point_high", "point_low", "point_jack", "point_game"):
        tab_to(point)
        page.keyboard.press("ArrowRight")  # Bob
        expect(page.locator(f"#{point}-1")).to_be_checked()
    tab_to("save")
    page.keyboard.press("Enter")
    assert said(page) == "Bob made 3."
    assert live_server.hand_count(game_id) == 1


def test_every_control_on_every_page_has_a_name_a_screen_reader_can_say(page: Any) -> None:
    game_id = import_game(
        page,
        {
            "format": "pitch-scorekeeper/1",
            "variant": "sell-out",
            "players": ["Ann", "Bob", "Cy"],
            "hands": [{"passed": True}],
        },
    )
    for url in [
        "/",
        "/games/new",
        "/games/new/cinch",
        "/games/new/sell-out",
        "/games/import",
        f"/games/{game_id}",
        f"/games/{game_id}/hands/1/edit",
        f"/games/{game_id}/delete",
        f"/games/{game_id}/board",
    ]:
        page.goto(url)
        assert page.evaluate(UNNAMED_CONTROLS) == [], url


def test_the_pages_fit_a_phone_screen_with_large_touch_targets(page: Any) -> None:
    # Seven players with long names: the widest a hand form and a score sheet get.
    players = ["Annabelle", "Bartholomew", "Cy", "Dee", "Evangeline", "Flo", "Gus"]
    game_id = import_game(
        page,
        ap_record(
            players,
            [
                ("Bartholomew", 3, "Bartholomew", "Bartholomew", "Cy", "Bartholomew"),
                ("Cy", 2, "Bartholomew", "Annabelle", None, "Dee"),
            ],
        ),
    )
    for url in [
        "/",
        "/games/new",
        "/games/new/auction-pitch",
        "/games/import",
        f"/games/{game_id}",
        f"/games/{game_id}/hands/1/edit",
        f"/games/{game_id}/delete",
        f"/games/{game_id}/board",
    ]:
        page.goto(url)
        fit = page.evaluate(WIDER_THAN_WINDOW)
        assert fit["scroll"] <= fit["width"] and fit["wide"] == [], (url, fit)
    for url in [f"/games/{game_id}", "/games/new/auction-pitch"]:
        page.goto(url)
        if url.startswith("/games/new"):
            # A seat's "deals first" shows once a name is in it: fill them all to measure.
            for i, name in enumerate(players):
                page.get_by_label(f"Name in seat {i + 1}", exact=True).fill(name)
        sizes = page.evaluate(
            "() => [...document.querySelectorAll('.tap label, .button, button')]"
            ".filter((el) => el.getClientRects().length > 0)"
            ".map((el) => { const r = el.getBoundingClientRect();"
            " return [el.innerText, r.width, r.height]; })"
        )
        small = [s for s in sizes if s[1] < 44 or s[2] < 44]
        assert sizes and small == [], url


#: The contrast ratio (WCAG) of an element's text on the first opaque background behind it.
CONTRAST = """
(selector) => {
  const rgb = (c) => c.match(/[\\d.]+/g).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  return [...document.querySelectorAll(selector)].map((el) => {
    let bg = el;
    while (bg && getComputedStyle(bg).backgroundColor === "rgba(0, 0, 0, 0)") {
      bg = bg.parentElement;
    }
    const a = lum(rgb(getComputedStyle(el).color));
    const b = lum(rgb(bg ? getComputedStyle(bg).backgroundColor : "rgb(255, 255, 255)"));
    return Math.round(((Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)) * 100) / 100;
  });
}
"""


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_the_game_page_is_readable_in_a_dim_room_and_in_daylight(
    new_page: Callable[..., Any], scheme: str
) -> None:
    page = new_page(color_scheme=scheme)
    game_id = import_game(page, ap_record(["Ann", "Bob", "Cy", "Dee"], TWO_HANDS))
    page.goto(f"/games/{game_id}")
    table = Table(page)
    table.hand("Dee", 2, high="Dee", jack="Ann", game="Dee")
    table.save()  # Low forgotten: an error message to read too
    for selector in (
        ".score",
        ".side-name",
        ".tap label",
        ".tap input:checked + label",
        ".button.primary",
        ".errors li",
        ".hint",
        ".dealer-line",
        "td",
        ".ring",
    ):
        ratios = page.evaluate(CONTRAST, selector)
        assert ratios, selector
        assert min(ratios) >= 4.5, (scheme, selector, ratios)


def test_screenshots_of_the_game_page_on_a_phone_and_a_desktop(
    new_page: Callable[..., Any], artifacts: Path
) -> None:
    for width, height, scheme, name in [
        (390, 844, "dark", "game-phone"),
        (1280, 900, "light", "game-desktop"),
    ]:
        page = new_page(width, height, color_scheme=scheme)
        game_id = import_game(page, ap_record(["Ann", "Bob", "Cy", "Dee"], TWO_HANDS, stake="0.25"))
        page.goto(f"/games/{game_id}")
        # Hand 3 half tapped in, and its Low forgotten: the page as it looks mid-hand.
        table = Table(page)
        table.hand("Dee", 2, high="Dee", jack="Ann", game="Dee")
        table.save()
        expect(page.locator("fieldset#point_low .errors")).to_be_visible()
        page.screenshot(path=str(artifacts / f"{name}.png"), full_page=True)
        assert (artifacts / f"{name}.png").stat().st_size > 10_000
        assert page.js_errors == []


def test_the_scoreboard_picks_up_a_new_hand_within_three_seconds(
    new_page: Callable[..., Any],
) -> None:
    phone = new_page()
    game_id = import_game(phone, ap_record(["Ann", "Bob", "Cy"], []))
    phone.goto(f"/games/{game_id}")
    board = new_page(1280, 900)
    board.goto(f"/games/{game_id}/board")
    expect(board.locator("#board")).to_be_visible()
    assert standings(board) == {"Ann": "0", "Bob": "0", "Cy": "0"}
    expect(board.locator("form")).to_have_count(0)

    Table(phone).play("Bob", 3, high="Bob", low="Bob", jack="Cy", game="Bob")
    saved = time.monotonic()
    expect(board.locator("#standings .side").nth(1).locator(".score")).to_have_text(
        "3", timeout=3000
    )
    assert time.monotonic() - saved < 3
    expect(board.locator(".last-hand")).to_have_text("Hand 1: Bob bid 3, made")
    assert board.js_errors == []


def test_the_scoreboard_without_javascript_still_picks_up_a_new_hand_within_three_seconds(
    new_page: Callable[..., Any],
) -> None:
    phone = new_page()
    game_id = import_game(phone, ap_record(["Ann", "Bob", "Cy"], []))
    phone.goto(f"/games/{game_id}")
    board = new_page(1280, 900, java_script_enabled=False)
    board.goto(f"/games/{game_id}/board")
    expect(board.locator("#standings .side").nth(1).locator(".score")).to_have_text("0")
    Table(phone).play("Bob", 3, high="Bob", low="Bob", jack="Cy", game="Bob")
    saved = time.monotonic()
    expect(board.locator("#standings .side").nth(1).locator(".score")).to_have_text(
        "3", timeout=3000
    )
    assert time.monotonic() - saved < 3


def test_a_hand_is_recorded_without_javascript(
    new_page: Callable[..., Any], live_server: LiveServer
) -> None:
    page = new_page(java_script_enabled=False)
    game_id = start_game(page, "Auction Pitch", ["Ann", "Bob", "Cy"])
    assert Table(page).play("Cy", 2, high="Cy", low="Cy", jack=None, game="Ann") == "Cy made 2."
    assert live_server.hand_count(game_id) == 1


def test_the_static_files_are_served_from_our_own_server(
    page: Any, live_server: LiveServer
) -> None:
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    game_id = start_game(page, "Auction Pitch", ["Ann", "Bob"])
    page.goto(f"/games/{game_id}/board")
    page.wait_for_load_state("networkidle")
    assert requested
    assert [u for u in requested if not u.startswith(live_server.url)] == []
    assert any(re.search(r"/static/css/app\.css$", u) for u in requested)
    assert any(re.search(r"/static/js/board\.js$", u) for u in requested)
