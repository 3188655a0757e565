"""Next game, same table, on a phone: finish a game, tap "Play again", say yes, and the next
game is open with the same table and the deal gone on to the left; or tap "Rematch with
changes" and start from the filled-in form.

Real Chromium at 390x844 and 360x740; screenshots in test-artifacts/ (the window only, what
the phone shows without scrolling).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import LiveServer
from .ui import Table, dealer_line, said, start_game

pytestmark = pytest.mark.browser

FOUR = ["Ana", "Bogdan", "Cristi", "Dana"]
TEAMS = ["North", "East", "North", "East"]
#: Ana (North) bids and her team takes every point (tapped by team): she deals hand 1,
#: Bogdan hand 2, so Cristi (left of Bogdan) deals the next game.
EVERY_POINT = {"high": "North", "low": "North", "jack": "North", "game": "North"}


def _finish(page: Any) -> int:
    game_id = start_game(page, "Auction Pitch", FOUR, teams=TEAMS, stake="0.50")
    table = Table(page)
    table.play("Ana", 2, **EVERY_POINT)
    assert table.play("Ana", 3, **EVERY_POINT) == "Ana (North) made 3. North wins!"
    expect(page.locator(".game-over h2")).to_have_text("North won!")
    return game_id


def _no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width


@pytest.mark.parametrize(("width", "height"), [(390, 844), (360, 740)])
def test_play_again_on_a_phone_opens_the_next_game_with_the_next_dealer(
    new_page: Callable[..., Any],
    live_server: LiveServer,
    artifacts: Path,
    width: int,
    height: int,
) -> None:
    page = new_page(width, height)
    finished = _finish(page)
    play_again = page.get_by_role("link", name="Play again", exact=True)
    expect(play_again).to_be_visible()
    expect(page.get_by_role("link", name="Rematch with changes")).to_be_visible()
    _no_sideways_scroll(page)
    play_again.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"again-1-finished-{width}x{height}.png"))
    play_again.click()
    # Asked once, on a page of its own: the seats, the teams, who deals, the stake.
    page.wait_for_url(re.compile(rf"/games/{finished}/again$"))
    question = page.locator("#again")
    expect(question.locator("h1")).to_have_text("Play again at the same table?")
    expect(question).to_contain_text("Cristi deals first: the deal goes on to the left.")
    expect(question).to_contain_text("Stake 0.50 a unit.")
    expect(question.locator("ol li")).to_have_text(
        [
            "Ana · team North",
            "Bogdan · team East",
            "Cristi · team North · deals first",
            "Dana · team East",
        ]
    )
    yes = page.get_by_role("button", name="Yes, start the next game")
    expect(yes).to_be_in_viewport()
    _no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / f"again-2-question-{width}x{height}.png"))
    yes.click()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    page.wait_for_load_state("load")
    next_id = int(page.url.rsplit("/", 1)[1])
    assert next_id != finished
    assert said(page) == f"Game {next_id} started: the same table, Cristi deals first."
    assert dealer_line(page) == "First to 7. Cristi deals hand 1."
    expect(page.locator("#hand-form h2")).to_have_text("Hand 1")
    page.screenshot(path=str(artifacts / f"again-3-next-game-{width}x{height}.png"))
    # Back to the question and yes again (a second tap): the same next game, nothing new.
    page.go_back()
    page.wait_for_load_state("load")
    page.goto(f"/games/{finished}/again")
    page.wait_for_url(re.compile(rf"/games/{next_id}$"))
    assert said(page) == (
        f"The next game was already started from that one: this is it, game {next_id}."
    )
    assert live_server.hand_count(next_id) == 0
    assert not page.js_errors, page.js_errors


def test_rematch_with_changes_opens_the_form_filled_in_and_starts_the_changed_game(
    page: Any, live_server: LiveServer, artifacts: Path
) -> None:
    finished = _finish(page)
    page.get_by_role("link", name="Rematch with changes").click()
    page.wait_for_url(re.compile(rf"/games/new/auction-pitch\?again={finished}$"))
    for i, (name, team) in enumerate(zip(FOUR, TEAMS, strict=True)):
        expect(page.get_by_label(f"Name in seat {i + 1}", exact=True)).to_have_value(name)
        expect(page.get_by_label(f"Team of seat {i + 1}", exact=True)).to_have_value(team)
    expect(page.locator("#first_dealer-2")).to_be_checked()
    expect(page.get_by_label("Stake per unit (money, optional)")).to_have_value("0.50")
    _no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / "again-4-rematch-form-390x844.png"))
    page.get_by_label("Name in seat 4", exact=True).fill("Elena")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    assert dealer_line(page) == "First to 7. Cristi deals hand 1."
    expect(page.locator("#standings")).to_contain_text("Elena")
    assert not page.js_errors, page.js_errors
