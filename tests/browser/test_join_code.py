"""Join by QR code, in a real Chromium: the board and the game page show a code that a
scanner reads as the board's address on the LAN, and that address opens the board.

The app is served here as ``scorekeeper serve --host 0.0.0.0`` serves it (every interface,
LISTEN_HOST set), and opened on 127.0.0.1 as on the laptop running it: the code must name
the LAN address the other phones reach, not 127.0.0.1.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import qr_images
from playwright.sync_api import expect

from scorekeeper.serving import network

from .conftest import TIMEOUT_MS, served_app
from .ui import ap_record, import_game

TWO_HANDS = [("Bob", 3, "Bob", "Bob", "Cy", "Bob"), ("Cy", 2, "Bob", "Ann", None, "Dee")]
SIZES = [(390, 844), (360, 740), (768, 1024)]


@pytest.fixture(scope="module")
def lan_server(migrated_sqlite: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """The app under waitress on every interface (0.0.0.0), a free port; yield the port."""
    with served_app(
        migrated_sqlite,
        tmp_path_factory.mktemp("lan"),
        host="0.0.0.0",
        LISTEN_HOST="0.0.0.0",  # as `scorekeeper serve --host 0.0.0.0` sets it
    ) as (_app, port):
        yield port


@pytest.fixture
def open_page(browser: Any, lan_server: int) -> Iterator[Any]:
    contexts: list[Any] = []

    def open_page(width: int, height: int, **options: Any) -> Any:
        context = browser.new_context(
            base_url=f"http://127.0.0.1:{lan_server}",
            viewport={"width": width, "height": height},
            device_scale_factor=1,
            **options,
        )
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.js_errors = errors
        return page

    yield open_page
    for context in contexts:
        context.close()


def _lan_board_url(port: int, game_id: int) -> str:
    lan = network.lan_addresses()
    host = lan[0] if lan else "127.0.0.1"  # a machine on no network can only name itself
    return f"http://{host}:{port}/games/{game_id}/board"


def _scanned(page: Any, selector: str) -> list[str]:
    """What a scanner reads in the element as Chromium draws it (a PNG screenshot)."""
    return qr_images.png_decoded(page.locator(selector).screenshot())


@pytest.mark.parametrize(("width", "height"), SIZES, ids=lambda v: str(v))
def test_the_board_shows_a_code_that_scans_as_its_lan_address_under_the_standings(
    open_page: Any, lan_server: int, artifacts: Path, width: int, height: int
) -> None:
    page = open_page(width, height)
    game_id = import_game(page, ap_record(["Ann", "Bob", "Cy", "Dee"], TWO_HANDS))
    page.goto(f"/games/{game_id}/board")
    board_url = _lan_board_url(lan_server, game_id)
    assert _scanned(page, ".join-qr") == [board_url]
    assert page.locator(".join-url").inner_text().replace("\u200b", "") == board_url.removeprefix(
        "http://"
    )
    # The standings come first and whole, on the first screen; the code fits beside them
    # without sideways scrolling, large enough to scan from across the table.
    standings = page.locator(".standings").bounding_box()
    qr_box = page.locator(".join-qr").bounding_box()
    assert standings and qr_box
    assert standings["y"] + standings["height"] <= height
    assert qr_box["y"] >= standings["y"] + standings["height"]
    assert qr_box["width"] >= 140 and qr_box["width"] == pytest.approx(qr_box["height"], abs=1)
    assert qr_box["width"] <= width - 20
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    url_box = page.locator(".join-url").bounding_box()
    assert url_box and url_box["x"] >= 0 and url_box["x"] + url_box["width"] <= width
    page.screenshot(path=str(artifacts / f"board-qr-{width}x{height}.png"), full_page=True)
    assert page.js_errors == []


def test_a_phone_that_scans_the_code_opens_the_board(open_page: Any, lan_server: int) -> None:
    laptop = open_page(1280, 800)
    game_id = import_game(laptop, ap_record(["Ann", "Bob", "Cy", "Dee"], TWO_HANDS))
    laptop.goto(f"/games/{game_id}/board")
    (scanned,) = _scanned(laptop, ".join-qr")
    phone = open_page(390, 844)
    phone.goto(scanned)  # the LAN address: the server listens on every interface
    expect(phone.locator(".standings")).to_be_visible()
    assert re.search(rf"/games/{game_id}/board$", phone.url)


def test_the_game_page_shows_the_code_when_asked_to_show_the_board_to_the_table(
    open_page: Any, lan_server: int, artifacts: Path
) -> None:
    page = open_page(390, 844)
    game_id = import_game(page, ap_record(["Ann", "Bob", "Cy", "Dee"], TWO_HANDS))
    page.goto(f"/games/{game_id}")
    code = page.locator(".join-qr")
    expect(code).to_be_hidden()  # folded away: the hand form and the sheet come first
    page.get_by_text("Show the board to the table").click()
    expect(code).to_be_visible()
    code.scroll_into_view_if_needed()
    assert _scanned(page, ".join-qr") == [_lan_board_url(lan_server, game_id)]
    box = code.bounding_box()
    assert box and 200 <= box["width"] <= 390
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.locator(".join-card").screenshot(path=str(artifacts / "game-join-code-390x844.png"))
    assert page.js_errors == []


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_the_code_is_black_on_white_in_a_dim_room_and_in_daylight(
    open_page: Any, lan_server: int, artifacts: Path, scheme: str
) -> None:
    page = open_page(390, 844, color_scheme=scheme)
    game_id = import_game(page, ap_record(["Ann", "Bob", "Cy"], TWO_HANDS[:1]))
    page.goto(f"/games/{game_id}/board")
    assert _scanned(page, ".join-qr") == [_lan_board_url(lan_server, game_id)]
    page.locator(".join-card").screenshot(path=str(artifacts / f"board-qr-{scheme}.png"))
