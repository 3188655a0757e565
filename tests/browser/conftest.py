"""Fixtures for the end-to-end tests: the real app under waitress, driven by a real Chromium.

The app runs as it does at a table: waitress on 127.0.0.1 (a free port), a migrated
SQLite file, CSRF on. Chromium is Debian's /usr/bin/chromium, driven by the pinned
Playwright. Missing Chromium fails the tests in CI (CI=true) and skips them, with the
reason, on a developer's machine that has not installed it (tests/system_parts.py).
"""

from __future__ import annotations

import shutil
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import system_parts
from builders import SERVED, config_for

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
#: How long a Playwright wait may take before the test fails (ms); the pages answer in far less.
TIMEOUT_MS = 10_000


@dataclass(frozen=True)
class LiveServer:
    """The running app: its base URL and the Flask app (to read the database directly)."""

    url: str
    app: Any

    def hand_count(self, game_id: int) -> int:
        from sqlalchemy import func, select

        from scorekeeper.data import models
        from scorekeeper.data.extensions import db

        with self.app.app_context():
            count = db.session.execute(
                select(func.count()).select_from(models.Hand).where(models.Hand.game_id == game_id)
            ).scalar_one()
            db.session.remove()
        return int(count)


@contextmanager
def served_app(
    template: Path, folder: Path, *, host: str = "127.0.0.1", **config: Any
) -> Iterator[tuple[Any, int]]:
    """Serve the real app with waitress on ``host`` and a free port, on its own copy of the
    migrated database (``template``) in ``folder``; yield (app, port); stop it afterwards."""
    from scorekeeper import create_app
    from scorekeeper.data.extensions import db
    from scorekeeper.serving import server as serving

    database = folder / "scorekeeper.sqlite3"
    shutil.copy(template, database)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SCOREKEEPER_INSTANCE", str(folder / "instance"))
        patch.delenv("DATABASE_URL", raising=False)
        app = create_app(config_for(f"sqlite:///{database}", **{**SERVED, **config}))
    # As ``scorekeeper serve``: a thread per live board or game page it may hold, and more.
    server = serving.create_server(app, host=host, port=0, threads=serving.thread_count(app))
    thread = threading.Thread(target=server.run, name="waitress", daemon=True)
    thread.start()
    try:
        yield app, int(server.effective_port)
    finally:
        # Closed on the server's own thread: closing from here raced its loop (a select on a
        # closed socket), more often once pages kept connections open (service workers).
        serving.stop(server)
        thread.join(timeout=5)
        with app.app_context():
            db.engine.dispose()


@pytest.fixture(scope="session")
def live_server(
    migrated_sqlite: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveServer]:
    """Serve the real app with waitress on 127.0.0.1 and a free port, on its own database file."""
    with served_app(migrated_sqlite, tmp_path_factory.mktemp("live")) as (app, port):
        yield LiveServer(f"http://127.0.0.1:{port}", app)


@pytest.fixture(scope="session")
def playwright() -> Iterator[Any]:
    """Playwright, started once for the session (one per process: its sync API allows one)."""
    system_parts.require("chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as started:
        yield started


@pytest.fixture(scope="session")
def browser(playwright: Any) -> Iterator[Any]:
    """Launch Debian's Chromium once for the session (headless)."""
    chromium_path = system_parts.require("chromium")
    chromium = playwright.chromium.launch(executable_path=str(chromium_path), args=CHROMIUM_ARGS)
    yield chromium
    chromium.close()


@pytest.fixture(scope="session")
def cached_browser(playwright: Any) -> Iterator[Any]:
    """Chromium with its back-forward cache on, as a phone's browser has it: Playwright turns
    it off (``--disable-back-forward-cache`` among its default switches), so that switch is
    left out; headless Chromium then keeps a page left by a link, and Back restores it as it
    was (``pageshow`` with ``persisted``) instead of loading it again."""
    chromium_path = system_parts.require("chromium")
    chromium = playwright.chromium.launch(
        executable_path=str(chromium_path),
        args=CHROMIUM_ARGS,
        ignore_default_args=["--disable-back-forward-cache"],
    )
    yield chromium
    chromium.close()


@pytest.fixture
def new_page(browser: Any, live_server: LiveServer) -> Iterator[Callable[..., Any]]:
    """Open pages in fresh browser contexts (own cookies), closed after the test."""
    yield from _pages(browser, live_server)


@pytest.fixture
def new_cached_page(cached_browser: Any, live_server: LiveServer) -> Iterator[Callable[..., Any]]:
    """Open pages, as ``new_page`` does, in a Chromium whose back-forward cache is on."""
    yield from _pages(cached_browser, live_server)


def _pages(browser: Any, live_server: LiveServer) -> Iterator[Callable[..., Any]]:
    contexts: list[Any] = []

    def open_page(width: int = 390, height: int = 844, **options: Any) -> Any:
        """A page of ``width`` x ``height``; options go to the context (color_scheme...)."""
        context = browser.new_context(
            base_url=live_server.url,
            viewport={"width": width, "height": height},
            device_scale_factor=1,
            **options,
        )
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        # Script errors, and any script, style or fetch the page asked for and did not get.
        # (A page answered 400 to show a form's errors is not one: that is the document; nor
        # is a hand the script sent refused or overtaken, answered in words under 500.)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on(
            "response",
            lambda response: (
                errors.append(f"{response.status} {response.url}")
                if response.status >= 400
                and response.request.resource_type != "document"
                and not (response.status < 500 and response.url.endswith("/hands.json"))
                else None
            ),
        )
        page.js_errors = errors
        return page

    yield open_page
    for context in contexts:
        context.close()


@pytest.fixture
def page(new_page: Callable[..., Any]) -> Any:
    """A phone-sized page (390x844) in a fresh browser context."""
    return new_page()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """The git-ignored folder where screenshots are saved for people to look at."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
