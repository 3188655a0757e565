"""The room's board on a TV follows the hall on its event's stream: a hand saved at a table
and the next round started each show in place, with no reload and no polling; a browser
without EventSource polls the event's stamp instead.

Real Chromium at TV size against the app under waitress; the hands are recorded through
``operations.hands.record_hand`` (every phone's path) in the served app.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from builders import play_sweep, started_event, table_game
from playwright.sync_api import expect

from scorekeeper import operations

from .conftest import LiveServer

pytestmark = pytest.mark.browser

MARK = "window.__notReloaded = 'yes'"
MARKED = "window.__notReloaded === 'yes'"


def _event(app: Any) -> int:
    return started_event(app, name="TV night", hands=1)


def _play(app: Any, event_id: int, table: int) -> None:
    """Seat 0 bids 2 and takes every point."""
    play_sweep(app, table_game(app, event_id, table))


def _asked(page: Any) -> list[str]:
    """The paths the page's scripts asked for, as they ask."""
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url.split("/", 3)[3]))
    return asked


def test_the_room_board_hears_hands_and_the_next_round_on_its_stream(
    new_page: Callable[..., Any], live_server: LiveServer, artifacts: Path
) -> None:
    event_id = _event(live_server.app)
    room = new_page(1280, 720)
    asked = _asked(room)
    room.goto(f"/events/{event_id}/board")
    expect(room.locator("#connection")).to_have_attribute("data-state", "connected")
    room.evaluate(MARK)
    _play(live_server.app, event_id, 2)
    expect(room.locator("#table-2")).to_contain_text("finished")
    # Its winners' four points reach the standings (every line said 0 before).
    expect(room.locator("[data-live=standings]")).to_contain_text("4")
    _play(live_server.app, event_id, 1)
    expect(room.locator("#table-1")).to_contain_text("finished")
    with live_server.app.app_context():
        operations.rounds.start_round(event_id, version=None)
    expect(room.locator("#table-1")).to_contain_text("0 hands played")
    expect(room.locator(".clock-round")).to_have_text("Round 2")
    assert room.evaluate(MARKED)  # swapped in place, never reloaded
    room.screenshot(path=str(artifacts / "room-board-streamed.png"))
    assert any(path.startswith(f"events/{event_id}/events") for path in asked)
    assert not any("version.json" in path for path in asked)
    assert room.js_errors == []


def test_a_browser_without_event_source_polls_the_event_s_stamp(
    new_page: Callable[..., Any], live_server: LiveServer
) -> None:
    event_id = _event(live_server.app)
    room = new_page(1280, 720)
    room.add_init_script("delete window.EventSource")
    asked = _asked(room)
    room.goto(f"/events/{event_id}/board")
    room.evaluate(MARK)
    _play(live_server.app, event_id, 1)
    expect(room.locator("#table-1")).to_contain_text("finished")
    assert room.evaluate(MARKED)
    assert any(path.startswith(f"events/{event_id}/version.json") for path in asked)
    assert not any(path.startswith(f"events/{event_id}/events") for path in asked)
    assert room.js_errors == []
