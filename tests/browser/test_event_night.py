"""A small progressive night in a real Chromium: 8 players, 2 tables, 2 rounds, driven from
the director's screen (a laptop-sized window) and four phones (390x844), each table's two
phones reaching its game by the table card's address, through to the final standings PDF
(read back with pypdf, and drawn with pdftoppm to look at).

The director's screen is not reloaded while the tables play: it follows them and offers
"Start round 2" once both have finished.
"""

from __future__ import annotations

import io
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

from scorekeeper import operations

from .conftest import LiveServer
from .ui import Table

pytestmark = pytest.mark.browser

#: How long a page that follows the others (the director's screen asks every two seconds,
#: then draws every table) may take to show a change on a busy machine (ms).
FOLLOWED_MS = 30_000
EIGHT = ["Ana", "Bogdan", "Cristi", "Dana", "Elena", "Florin", "Gabi", "Horia"]


def _shoot(page: Any, artifacts: Path, name: str) -> None:
    page.screenshot(path=str(artifacts / f"event-{name}.png"), full_page=True)


def _table_teams(
    live_server: LiveServer, event_id: int, number: int
) -> tuple[list[str], list[str]]:
    """The table's players in seat order, and its two partnerships' names (seat 0's first)."""
    with live_server.app.app_context():
        game_id = operations.events.table_game(event_id, number)
        assert game_id is not None
        loaded = operations.loading.load(game_id)
    assert loaded.game.teams is not None
    return list(loaded.names), [team for team, _ in loaded.game.teams]


def _play_table(phone: Any, watcher: Any, names: list[str], teams: list[str]) -> None:
    """Two hands: seat 0's side makes its bid, then seat 1 is set back by it: seat 0's side
    wins after the two hands the event plays."""
    table = Table(phone)
    table.play(pitcher=names[0], bid=2, high=teams[0], low=teams[0], jack=teams[0], game=teams[0])
    # The table's other phone follows the game without a reload.
    expect(watcher.locator("#standings")).to_contain_text("4", timeout=FOLLOWED_MS)
    table.play(pitcher=names[1], bid=2, high=teams[0], low=teams[0], jack=teams[0], game=teams[0])
    expect(phone.locator(".card.game-over")).to_be_visible()


def test_a_small_progressive_night_from_the_directors_screen_to_the_final_pdf(
    new_page: Callable[..., Any], live_server: LiveServer, artifacts: Path
) -> None:
    director = new_page(1280, 900)
    director.goto("/events")
    form = director.locator("form[action='/events']")
    form.get_by_label("Name", exact=True).fill("Grange progressive")
    form.get_by_label("How the rounds are seated").select_option("progressive")
    form.get_by_label("End each game after this many played hands").fill("2")
    form.get_by_label("Rounds", exact=True).fill("2")
    form.get_by_label("Entry fee").fill("5")
    form.get_by_label("Prize split by place (percent)").fill("60 40")
    with director.expect_navigation():
        form.get_by_role("button", name="Set up the event").click()
    event_id = int(director.url.rstrip("/").rsplit("/", 1)[1])

    director.get_by_label("Added at the door (one name a line)").fill("\n".join(EIGHT))
    with director.expect_navigation():
        director.get_by_role("button", name="Register").click()
    expect(director.get_by_role("heading", name="8 players")).to_be_visible()
    expect(director.get_by_text("Round 1: the seating")).to_be_visible()
    _shoot(director, artifacts, "director-seating")
    with director.expect_navigation():
        director.locator("#start-round").click()
    expect(director.get_by_text("Round 1 has started.")).to_be_visible()
    expect(director.locator("#start-round")).to_be_disabled()

    room = new_page(1280, 720)
    room.goto(f"/events/{event_id}/board")
    expect(room.locator("#table-1")).to_contain_text("0 hands played")

    phones = [new_page() for _ in range(4)]
    for i, phone in enumerate(phones):
        phone.goto(f"/events/{event_id}/tables/{i // 2 + 1}")
        expect(phone.locator("#hand-form")).to_be_visible()
    for number in (1, 2):
        names, teams = _table_teams(live_server, event_id, number)
        first, second = phones[2 * (number - 1)], phones[2 * number - 1]
        _play_table(first, second, names, teams)
    _shoot(phones[0], artifacts, "phone-finished")
    # The room's board and the director's screen followed by themselves.
    expect(room.locator("#table-2")).to_contain_text("finished", timeout=FOLLOWED_MS)
    _shoot(room, artifacts, "room-board")
    expect(director.locator("#start-round")).to_be_enabled(timeout=FOLLOWED_MS)
    expect(director.get_by_text("Round 2: the seating")).to_be_visible()
    with director.expect_navigation():
        director.locator("#start-round").click()
    expect(director.get_by_text("Round 2 has started.")).to_be_visible()

    # The same table cards lead to round 2's games.
    for i, phone in enumerate(phones):
        phone.goto(f"/events/{event_id}/tables/{i // 2 + 1}")
        expect(phone.locator("#hand-form")).to_be_visible()
    names, teams = _table_teams(live_server, event_id, 1)
    _play_table(phones[0], phones[1], names, teams)
    # Table 2 is ended by time called: one hand in play, then its game ends.
    with director.expect_navigation():
        director.get_by_role("button", name="Call time").click()
    expect(director.get_by_text("Time called: 1 table finishes the hand in play.")).to_be_visible()
    names, teams = _table_teams(live_server, event_id, 2)
    Table(phones[2]).play(
        pitcher=names[1], bid=2, high=teams[1], low=teams[1], jack=teams[1], game=teams[1]
    )
    expect(phones[2].locator(".card.game-over")).to_be_visible()
    expect(director.get_by_role("heading", name="Every round is played")).to_be_visible(
        timeout=FOLLOWED_MS
    )
    _shoot(director, artifacts, "director-over")

    director.get_by_role("link", name="Final standings").click()
    expect(director.get_by_text("Final: every round is played.")).to_be_visible()
    expect(director.get_by_text("The pot:")).to_be_visible()
    _shoot(director, artifacts, "standings")

    answer = director.request.get(f"/events/{event_id}/standings.pdf")
    assert answer.status == 200 and answer.headers["content-type"] == "application/pdf"
    pdf = answer.body()
    path = artifacts / "event-standings.pdf"
    path.write_bytes(pdf)
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    assert "Grange progressive" in text and "Final standings" in text
    assert all(name in text for name in EIGHT)
    assert "Prizes" in text and "Payments" in text
    drawer = shutil.which("pdftoppm")
    if drawer is not None:
        subprocess.run(
            [
                drawer,
                "-png",
                "-r",
                "60",
                "-f",
                "1",
                "-l",
                "1",
                str(path),
                str(artifacts / "event-standings"),
            ],
            check=True,
        )
    assert not director.js_errors and not room.js_errors
    assert all(not phone.js_errors for phone in phones)


@pytest.mark.parametrize(("width", "height"), [(360, 740), (390, 844)])
def test_the_event_pages_fit_a_phone(
    new_page: Callable[..., Any], live_server: LiveServer, artifacts: Path, width: int, height: int
) -> None:
    with live_server.app.app_context():
        from datetime import date

        event_id = operations.event_setup.create_event(
            operations.event_setup.EventSetup(
                name="Phone check",
                day=date(2026, 12, 5),
                format="round-robin",
                variant="auction-pitch",
                rounds=3,
            )
        )
        operations.event_setup.register(event_id, EIGHT)
        operations.rounds.start_round(event_id, version=None)
    page = new_page(width, height)
    for path, name in (
        (f"/events/{event_id}", "director"),
        (f"/events/{event_id}/board", "board"),
        (f"/events/{event_id}/standings", "standings"),
        ("/events", "list"),
    ):
        page.goto(path)
        _shoot(page, artifacts, f"{name}-{width}")
        # Nothing wider than the screen: no sideways scrolling.
        assert page.evaluate("document.documentElement.scrollWidth") <= width, name
    assert not page.js_errors
