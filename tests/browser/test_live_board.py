"""Live boards: a hand saved on one phone shows on every open board and game page, in place.

Real Chromium, each phone and board in its own browser context (own cookies, own
connection). The board is not reloaded: a marker set on its window survives the update.
The server is stopped and started again (same port, same database) to show that a board
says the connection is lost and catches up by itself.
"""

from __future__ import annotations

import shutil
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from builders import SERVED, config_for
from playwright.sync_api import expect

from .conftest import TIMEOUT_MS, LiveServer
from .ui import Table, ap_record, import_game, start_game

pytestmark = pytest.mark.browser

FOUR = ["Ana", "Bogdan", "Cristi", "Dana"]
ANA_MAKES_3 = {"pitcher": "Ana", "bid": 3, "high": "Ana", "low": "Ana", "jack": None, "game": "Ana"}
BOGDAN_SET = {
    "pitcher": "Bogdan",
    "bid": 2,
    "high": "Ana",
    "low": "Ana",
    "jack": "Bogdan",
    "game": "Ana",
}
#: Marks a page's window: still there after an update means the page was not reloaded.
MARK = "window.__notReloaded = 'yes'"
MARKED = "window.__notReloaded === 'yes'"


def shoot(page: Any, artifacts: Path, name: str) -> None:
    page.screenshot(path=str(artifacts / f"live-{name}.png"))


def state(page: Any) -> str:
    return str(page.locator("#connection").get_attribute("data-state"))


def test_a_hand_saved_on_a_phone_shows_on_the_open_board_without_a_reload(
    new_page: Callable[..., Any], live_server: LiveServer, artifacts: Path
) -> None:
    phone, board = new_page(), new_page(1024, 768)
    game_id = start_game(phone, "Auction Pitch", FOUR)
    board.goto(f"/games/{game_id}/board")
    expect(board.locator("#connection")).to_have_attribute("data-state", "connected")
    board.evaluate(MARK)
    assert Table(phone).play(**ANA_MAKES_3) == "Ana made 3."
    expect(board.locator(".last-hand")).to_contain_text("Hand 1: Ana bid 3")
    expect(board.locator("#standings")).to_contain_text("3")
    assert board.evaluate(MARKED)
    assert Table(phone).play(**BOGDAN_SET) == "Bogdan is set back 2 and is in the hole."
    expect(board.locator(".last-hand")).to_contain_text("Hand 2: Bogdan bid 2")
    assert board.evaluate(MARKED)
    shoot(board, artifacts, "board-after-two-hands")
    assert board.js_errors == []


def test_a_game_page_shows_a_hand_another_phone_saved_and_keeps_its_own_taps(
    new_page: Callable[..., Any], live_server: LiveServer, artifacts: Path
) -> None:
    one, other = new_page(), new_page(360, 740)
    game_id = start_game(one, "Auction Pitch", FOUR)
    other.goto(f"/games/{game_id}")
    other.evaluate(MARK)
    # The other phone has begun tapping the same hand in.
    Table(other).tap("pitcher", "Cristi")
    Table(other).tap("bid", "2")
    assert Table(one).play(**ANA_MAKES_3) == "Ana made 3."
    notice = other.locator("#flashes .flash-live")
    expect(notice).to_have_text("Hand 1 was recorded on another phone.")
    expect(other.locator(".sheet")).to_contain_text("Ana")
    expect(other.locator('[data-live="sheet"] tbody tr').first).to_be_visible()
    expect(other.locator(".chart-card")).to_be_visible()  # the first hand brings the chart
    assert other.evaluate(MARKED)
    # Its taps are as they were: the form is never touched.
    checked = other.locator("#hand-form input:checked")
    assert sorted(checked.evaluate_all("els => els.map(e => e.name + '=' + e.value)")) == [
        "bid=2",
        "pitcher=2",
    ]
    shoot(other, artifacts, "game-page-hand-from-another-phone")
    # Said above the scores, where the page says what was just done: never over Save.
    notice_box, save_box = notice.bounding_box(), other.locator("#save").bounding_box()
    assert notice_box is not None and save_box is not None
    assert notice_box["y"] + notice_box["height"] <= save_box["y"]
    assert other.js_errors == []


def test_a_board_without_event_source_polls_and_still_updates_in_place(
    new_page: Callable[..., Any], live_server: LiveServer
) -> None:
    phone, board = new_page(), new_page(1024, 768)
    board.add_init_script("delete window.EventSource")
    game_id = start_game(phone, "Auction Pitch", FOUR)
    board.goto(f"/games/{game_id}/board")
    board.evaluate(MARK)
    assert Table(phone).play(**ANA_MAKES_3) == "Ana made 3."
    expect(board.locator(".last-hand")).to_contain_text("Hand 1: Ana bid 3")
    assert board.evaluate(MARKED)


def test_without_javascript_the_board_still_refreshes_itself(
    new_page: Callable[..., Any], live_server: LiveServer
) -> None:
    phone, board = new_page(), new_page(1024, 768, java_script_enabled=False)
    game_id = start_game(phone, "Auction Pitch", FOUR)
    board.goto(f"/games/{game_id}/board")
    expect(board.locator(".last-hand")).to_have_count(0)
    assert Table(phone).play(**ANA_MAKES_3) == "Ana made 3."
    # The <noscript> refresh reloads it every 2 s.
    expect(board.locator(".last-hand")).to_contain_text("Hand 1: Ana bid 3")
    expect(board.locator("#connection")).to_be_hidden()


# --- A server that stops and starts again ------------------------------------------------------


class Restartable:
    """The app served by waitress on a port of its own, to be stopped and started again."""

    def __init__(self, app: Any) -> None:
        self.app = app
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.server: Any = None
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        from scorekeeper.serving import server as serving

        self.server = serving.create_server(
            self.app, host="127.0.0.1", port=self.port, threads=serving.thread_count(self.app)
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        from scorekeeper.serving import server as serving

        serving.stop(self.server)
        assert self.thread is not None
        self.thread.join(timeout=10)

    def record(self, game_id: int, hand: dict[str, Any]) -> None:
        """Record a hand straight into the database (as another server would)."""
        from scorekeeper import operations, rules

        with self.app.app_context():
            loaded = operations.loading.load(game_id)
            points = {key: hand[key] for key in ("high", "low", "jack", "game")}
            operations.hands.record_hand(
                game_id,
                rules.Hand(pitcher=hand["pitcher"], bid=hand["bid"], points=points),
                version=loaded.row.version,
            )


@pytest.fixture
def restartable(
    migrated_sqlite: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Restartable]:
    from scorekeeper import create_app
    from scorekeeper.data.extensions import db

    database = tmp_path / "scorekeeper.sqlite3"
    shutil.copy(migrated_sqlite, database)
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    app = create_app(config_for(f"sqlite:///{database}", **SERVED))
    served = Restartable(app)
    served.start()
    try:
        yield served
    finally:
        if served.thread is not None and served.thread.is_alive():
            served.stop()
        with app.app_context():
            db.engine.dispose()


def test_a_board_says_the_connection_is_lost_when_the_server_stops_and_catches_up_after(
    browser: Any, restartable: Restartable, artifacts: Path
) -> None:
    context = browser.new_context(base_url=restartable.url, viewport={"width": 1024, "height": 768})
    context.set_default_timeout(TIMEOUT_MS)
    try:
        phone = context.new_page()
        game_id = start_game(phone, "Auction Pitch", FOUR)
        board = context.new_page()
        board.goto(f"/games/{game_id}/board")
        expect(board.locator("#connection")).to_have_attribute("data-state", "connected")
        board.evaluate(MARK)
        restartable.stop()
        # Within 5 s of losing the server the board says so (the heartbeat comes every 2 s).
        expect(board.locator("#connection")).to_have_attribute(
            "data-state", "reconnecting", timeout=5000
        )
        expect(board.locator("#connection")).to_have_text("Connection lost — reconnecting…")
        shoot(board, artifacts, "board-connection-lost")
        # Meanwhile a hand is saved (through another server, say).
        restartable.record(game_id, ANA_MAKES_3)
        restartable.start()
        expect(board.locator(".last-hand")).to_contain_text("Hand 1: Ana bid 3")
        expect(board.locator("#connection")).to_have_attribute("data-state", "connected")
        assert board.evaluate(MARKED)
        shoot(board, artifacts, "board-caught-up")
    finally:
        context.close()


def test_a_game_page_left_untouched_opens_the_finished_game_another_phone_ended(
    new_page: Callable[..., Any], live_server: LiveServer, artifacts: Path
) -> None:
    one, other = new_page(), new_page()
    made_3 = ("Ana", 3, "Ana", "Ana", None, "Ana")
    game_id = import_game(one, ap_record(FOUR, [made_3, made_3]))  # Ana 6 of 7
    one.goto(f"/games/{game_id}")
    other.goto(f"/games/{game_id}")
    expect(other.locator("#connection")).to_have_attribute("data-state", "connected")
    Table(one).hand(pitcher="Ana", bid=2, high="Ana", low="Ana", jack=None, game="Bogdan")
    Table(one).save()
    expect(one.locator(".game-over")).to_be_visible()
    # The other phone had not begun a hand: it shows the game over, as the saving phone does.
    expect(other.locator(".game-over")).to_be_visible()
    expect(other.locator("#hand-form")).to_have_count(0)
    shoot(other, artifacts, "game-page-game-ended-elsewhere")
