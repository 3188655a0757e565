"""Fixtures shared by the suite: an app on a real database file, its client and CLI runner.

The web tests run against a real SQLite file, and also against a real PostgreSQL
server when TEST_DATABASE_URL names one (CI starts one): the ``app`` fixture is
parametrised over the databases available.

Tests that need a system part missing here (Chromium, poppler's pdftoppm, Node) skip outside
CI, and one line at the end of the run names what to install (tests/system_parts.py).
"""

from __future__ import annotations

import gc
import os
import shutil
import sys
from collections import Counter
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest

# The helpers beside this file (system_parts, fresh_machine) import under any import mode.
HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import builders  # noqa: E402  (found through the path set just above)
import processes  # noqa: E402
import system_parts  # noqa: E402

#: What was missing in this run, for the summary line.
SKIPPED_FOR = pytest.StashKey[Counter[str]]()
SQLITE_ONLY = pytest.StashKey[set[str]]()
HARFBUZZ_MISSING = pytest.StashKey[bool]()
SESSION_MARK = pytest.StashKey[str]()
#: How long the processes the suite started get to end once it is over (Chromium and a
#: server stopped by the last tests take a moment).
ENDING_SECONDS = 10


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(_Counting(config), "scorekeeper-counting")
    config.stash[SESSION_MARK] = processes.mark_this_session()
    config.stash[SKIPPED_FOR] = Counter()
    config.stash[SQLITE_ONLY] = set()
    missing = not system_parts.harfbuzz_subset_present()
    config.stash[HARFBUZZ_MISSING] = missing
    if missing:
        # WeasyPrint works without the library (it subsets fonts itself) but warns on import,
        # which filterwarnings=error turns into a collection error. Only then is it let pass.
        config.addinivalue_line("filterwarnings", system_parts.HARFBUZZ_WARNING_FILTER)


#: The collector's thresholds while the suite runs: the youngest two as Python's, the oldest
#: walked a fifth as often (each full collection walks everything still alive: the app's
#: modules, every test's apps and pages not yet freed).
GC_THRESHOLDS = (700, 10, 50)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Once the tests are collected, move what collection made (the imported code, thousands
    of test items: all of it lives to the end) out of the collector's sight, and walk the
    oldest generation less often. Full collections cost the suite seconds of pauses on these
    two cores: measured, about 7 % off tests/web's time; the whole suite, whose time goes
    mostly to the browser and PDFs, gains only seconds."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


#: What a test's report carries to the process that prints the summary (under pytest-xdist
#: a worker ran the test, and only its reports reach the controller).
MISSING_PART = "scorekeeper-missing-part"
RAN_ON_SQLITE_ONLY = "scorekeeper-sqlite-only"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    missing = system_parts.missing_package(call.excinfo.value) if call.excinfo else None
    if missing is not None:
        report.user_properties.append((MISSING_PART, missing))
    ran_on_sqlite_only = not os.environ.get("TEST_DATABASE_URL")
    if call.when == "setup" and ran_on_sqlite_only and "database_url" in item.fixturenames:
        report.user_properties.append((RAN_ON_SQLITE_ONLY, item.nodeid))
    return report


class _Counting:
    """Count what the reports say was missing, in the process that prints the summary."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        for key, value in report.user_properties:
            if key == MISSING_PART:
                self.config.stash[SKIPPED_FOR][str(value)] += 1
            elif key == RAN_ON_SQLITE_ONLY:
                self.config.stash[SQLITE_ONLY].add(str(value))


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_terminal_summary(
    terminalreporter: Any, exitstatus: int, config: pytest.Config
) -> Generator[None, None, None]:
    # Outside the terminal reporter's own wrapper: the line comes after its short summary,
    # just before the closing counts.
    yield
    line = system_parts.summary_line(
        dict(config.stash[SKIPPED_FOR]),
        config.stash[HARFBUZZ_MISSING],
        len(config.stash[SQLITE_ONLY]),
    )
    if line is not None:
        terminalreporter.write_line(line)


@pytest.fixture(scope="session", autouse=True)
def no_process_outlives_the_suite(request: pytest.FixtureRequest) -> Iterator[None]:
    """At the end of the run, every process the suite started has ended: the servers the
    tests ran, their PDF workers, and this process's own (its apps share one pool, which is
    stopped here as ``scorekeeper serve`` stops it). Set up first, so it is the last to end."""
    yield
    from multiprocessing import resource_tracker

    from scorekeeper.pdf import pool

    pool.stop()
    # This process's resource tracker ends with it (stopped sooner, it would unlink the
    # semaphores of queues still here); ps after the run shows it gone.
    tracker = getattr(getattr(resource_tracker, "_resource_tracker", None), "_pid", None)
    mark = request.config.stash[SESSION_MARK]
    left = processes.of_session(mark, leave_out=[tracker] if tracker else [])
    still = processes.wait_until_gone([p.pid for p in left], ENDING_SECONDS)
    if still:
        named = [f"{p.pid} (parent {p.parent}): {p.command[:160]}" for p in left if p.pid in still]
        pytest.fail("processes the tests started are still running: " + "; ".join(named), False)


def _backends() -> list[str]:
    return ["sqlite", "postgresql"] if os.environ.get("TEST_DATABASE_URL") else ["sqlite"]


def postgres_url() -> str:
    """TEST_DATABASE_URL for SQLAlchemy's psycopg driver; under pytest-xdist, a database of
    the worker's own beside it (``scorekeeper_test_gw0``), made if missing: two workers never
    share tables, and PostgreSQL's notifications stay inside one database."""
    from sqlalchemy.engine import make_url

    url = os.environ["TEST_DATABASE_URL"]
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            url = "postgresql+psycopg://" + url[len(prefix) :]
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker:
        return url
    given = make_url(url)
    own = given.set(database=f"{given.database}_{worker}")
    _create_database_once(given, own.database or "")
    return own.render_as_string(hide_password=False)


def _create_database_once(given: Any, name: str) -> None:
    from sqlalchemy import create_engine, text

    engine = create_engine(given, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            found = conn.execute(
                text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": name}
            ).first()
            if found is None:
                conn.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        engine.dispose()


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Run the real migrations once into a template database file; tests copy it."""
    from scorekeeper import create_app
    from scorekeeper.data.database import upgrade_database

    folder = tmp_path_factory.mktemp("template")
    path = folder / "template.sqlite3"
    app = create_app(builders.config_for(f"sqlite:///{path}"))
    with app.app_context():
        upgrade_database()
        from scorekeeper.data.extensions import db

        db.engine.dispose()
    return path


@pytest.fixture(scope="session")
def migrated_postgres() -> str:
    """Run the real migrations once on the PostgreSQL test database (from scratch)."""
    from sqlalchemy import create_engine, text

    from scorekeeper import create_app
    from scorekeeper.data.database import upgrade_database

    url = postgres_url()
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()
    app = create_app(builders.config_for(url))
    with app.app_context():
        upgrade_database()
        from scorekeeper.data.extensions import db

        db.engine.dispose()
    return url


def _truncate_postgres(url: str) -> None:
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    with engine.begin() as conn:
        tables = (
            conn.execute(
                text(
                    "SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
                    "AND tablename <> 'alembic_version'"
                )
            )
            .scalars()
            .all()
        )
        if tables:
            conn.execute(text(f"TRUNCATE {', '.join(tables)} RESTART IDENTITY CASCADE"))
    engine.dispose()


@pytest.fixture(params=_backends())
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A migrated, empty database for one test: a copied SQLite file, or a truncated PostgreSQL."""
    if request.param == "sqlite":
        template: Path = request.getfixturevalue("migrated_sqlite")
        path = tmp_path / "scorekeeper.sqlite3"
        shutil.copy(template, path)
        return f"sqlite:///{path}"
    url: str = request.getfixturevalue("migrated_postgres")
    _truncate_postgres(url)
    return url


@pytest.fixture
def app_config(database_url: str, tmp_path: Path) -> dict[str, Any]:
    """The configuration tests use (tests/builders.py's, on this test's database); a module
    changes a setting by extending it: ``{**app_config, "KEY": value}`` (naming
    ``database_url`` too, which keeps its parametrisation)."""
    return builders.config_for(database_url)


@pytest.fixture
def app(
    app_config: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Any]:
    from scorekeeper import create_app
    from scorekeeper.data.extensions import db

    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    app = create_app(app_config)
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def client(app: Any) -> Any:
    return app.test_client()


@pytest.fixture
def runner(app: Any) -> Any:
    return app.test_cli_runner()
