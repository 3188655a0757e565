"""Partnership points by team in Chromium at phone size (issue 14): each point row offers the
teams (their players under the name), a hand is tapped by team, saved, corrected, and kept on
the phone while offline. Screenshots go to test-artifacts/team-points-*.png."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import LiveServer
from .ui import Table, said, standings, start_game

pytestmark = pytest.mark.browser

NS, EW = "North\N{EN DASH}South", "East\N{EN DASH}West"
FOUR = ["Ann", "Bob", "Cy", "Dee"]
ACROSS = [NS, EW, NS, EW]
SIX = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
THREE_TEAMS = ["Reds", "Blues", "Greens", "Reds", "Blues", "Greens"]


def fits_on_screen(page: Any, row: str) -> None:
    """Every button of a row is inside the window, and the page does not scroll sideways."""
    width = page.viewport_size["width"]
    for label in page.locator(f"fieldset#{row} label").all():
        box = label.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, (row, box)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width


def members_shown(page: Any, row: str) -> list[str]:
    """What each button of a row shows under its name (the stylesheet writes it)."""
    return [
        label.evaluate("l => getComputedStyle(l, '::after').content")
        for label in page.locator(f"fieldset#{row} label").all()
    ]


@pytest.mark.parametrize(("width", "height"), [(390, 844), (360, 740)])
def test_a_partnership_hand_is_tapped_by_team_saved_and_corrected_at_phone_size(
    new_page: Callable[..., Any], artifacts: Path, width: int, height: int
) -> None:
    page = new_page(width, height)
    game_id = start_game(page, "Auction Pitch", FOUR, teams=ACROSS)
    high = page.locator("fieldset#point_high")
    expect(high.locator("label")).to_have_text([NS, EW])
    expect(page.locator("fieldset#point_jack label")).to_have_text([NS, EW, "Nobody"])
    expect(page.locator("fieldset#pitcher label")).to_have_text(FOUR)
    assert members_shown(page, "point_high") == ['"Ann · Cy"', '"Bob · Dee"']
    # A screen reader hears the team and its players.
    expect(high.get_by_role("radio", name=f"Team {NS}: Ann, Cy", exact=True)).to_have_count(1)
    expect(high.get_by_role("radio", name=f"Team {EW}: Bob, Dee", exact=True)).to_have_count(1)

    table = Table(page)
    table.hand("Bob", 2, high=EW, low=NS, jack=None, game=EW)
    for row in ("point_high", "point_low", "point_jack", "point_game"):
        fits_on_screen(page, row)
    page.locator("fieldset#point_high").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"team-points-form-{width}x{height}.png"))
    table.save()
    assert said(page) == f"Bob ({EW}) made 2."
    assert standings(page) == {NS: "1", EW: "2"}
    assert table.taps == 7  # pitcher, bid, four points, Save: no more than by player
    page.screenshot(path=str(artifacts / f"team-points-saved-{width}x{height}.png"))
    record = page.request.get(f"/games/{game_id}.json").json()
    # East-West's points to Bob, its pitcher; North-South's to Ann, its first seat.
    assert record["hands"][0]["points"] == {
        "high": "Bob",
        "low": "Ann",
        "jack": None,
        "game": "Bob",
    }

    # Correcting it: the teams are tapped as saved; Low moves to East-West.
    page.goto(f"/games/{game_id}/hands/1/edit")
    checked = page.locator("#hand-form input:checked + label")
    expect(checked).to_have_text(["Bob", "2", EW, NS, "Nobody", EW])
    page.locator("fieldset#point_low").get_by_text(EW, exact=True).click()
    page.locator("fieldset#point_low").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"team-points-correct-{width}x{height}.png"))
    with page.expect_navigation():
        page.get_by_role("button", name="Save hand").click()
    assert re.search(rf"/games/{game_id}(#[-\w]*)?$", page.url), page.url
    assert said(page) == "Hand 1 corrected; every later score was worked out again."
    assert standings(page) == {NS: "0", EW: "3"}
    record = page.request.get(f"/games/{game_id}.json").json()
    assert record["hands"][0]["points"]["low"] == "Bob"
    assert page.js_errors == []


def test_three_teams_and_nobody_fit_the_screen_of_a_small_phone(
    new_page: Callable[..., Any], artifacts: Path
) -> None:
    page = new_page(360, 740)
    game_id = start_game(page, "Auction Pitch", SIX, teams=THREE_TEAMS)
    jack = page.locator("fieldset#point_jack label")
    expect(jack).to_have_text(["Reds", "Blues", "Greens", "Nobody"])
    assert members_shown(page, "point_jack")[:3] == ['"Ann · Dee"', '"Bob · Eve"', '"Cy · Fay"']
    table = Table(page)
    table.hand("Cy", 2, high="Greens", low="Reds", jack="Greens", game="Blues")
    fits_on_screen(page, "point_jack")
    page.locator("fieldset#point_high").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "team-points-three-teams-360x740.png"))
    table.save()
    assert said(page) == "Cy (Greens) made 2."
    assert standings(page) == {"Reds": "1", "Blues": "1", "Greens": "2"}
    record = page.request.get(f"/games/{game_id}.json").json()
    assert record["hands"][0]["points"] == {"high": "Cy", "low": "Ann", "jack": "Cy", "game": "Bob"}


def test_a_hand_tapped_by_team_offline_is_kept_then_saved_with_its_teams(
    new_page: Callable[..., Any], live_server: LiveServer, artifacts: Path
) -> None:
    page = new_page(390, 844, service_workers="block")  # the queue alone, as on a LAN address
    game_id = start_game(page, "Auction Pitch", FOUR, teams=ACROSS)
    expect(page.locator("#connection")).to_have_attribute("data-state", "connected")
    page.context.set_offline(True)
    table = Table(page)
    table.hand("Cy", 3, high=NS, low=NS, jack=EW, game=NS)
    table.save_offline()
    kept = page.locator("tr.unsaved")
    expect(kept).to_have_count(1)
    # The phone says the hand as it was tapped: by team.
    expect(page.locator("#offline")).to_contain_text(f"High: {NS}")
    page.screenshot(path=str(artifacts / "team-points-kept-offline.png"), full_page=True)
    assert live_server.hand_count(game_id) == 0
    # Back online: sent, and the page follows the server in place.
    page.context.set_offline(False)
    expect(page.locator("tr.unsaved")).to_have_count(0)
    assert said(page) == f"Cy ({NS}) made 3."
    record = page.request.get(f"/games/{game_id}.json").json()
    assert record["hands"][0]["points"] == {"high": "Cy", "low": "Cy", "jack": "Bob", "game": "Cy"}
    assert page.js_errors == []
