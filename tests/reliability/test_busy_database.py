"""A writer in the way is "busy, try again" (503), whichever database: SQLite's lock wait
running out, or PostgreSQL breaking a deadlock. Other database errors stay errors."""

from __future__ import annotations

import os
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
from builders import config_for
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from scorekeeper.data.database import busy
from tests.conftest import postgres_url


def _caught(run: Any) -> OperationalError:
    with pytest.raises(OperationalError) as caught:
        run()
    return caught.value


def test_sqlites_lock_wait_running_out_is_busy(tmp_path: Path) -> None:
    path = tmp_path / "locked.sqlite3"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE t (x INTEGER)")
    holder.execute("BEGIN IMMEDIATE")
    engine = create_engine(f"sqlite:///{path}", connect_args={"timeout": 0.05})
    try:

        def write() -> None:
            with engine.begin() as conn:
                conn.execute(text("INSERT INTO t VALUES (1)"))

        assert busy(_caught(write))
    finally:
        holder.execute("ROLLBACK")
        holder.close()
        engine.dispose()


def test_another_database_error_is_not_busy(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'empty.sqlite3'}")
    try:

        def read() -> None:
            with engine.connect() as conn:
                conn.execute(text("SELECT * FROM no_such_table"))

        error = _caught(read)
        assert not busy(error)
        assert not busy(ValueError("database is locked"))
    finally:
        engine.dispose()


def _deadlock(url: str) -> OperationalError:
    """Two real transactions that each wait for the other's row: PostgreSQL breaks the
    deadlock by failing one of them."""
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("DROP TABLE IF EXISTS busy_test"))
        conn.execute(text("CREATE TABLE busy_test (id INTEGER PRIMARY KEY, n INTEGER)"))
        conn.execute(text("INSERT INTO busy_test VALUES (1, 0), (2, 0)"))
    both_hold_one = threading.Barrier(2, timeout=10)
    errors: list[OperationalError] = []

    def take(first: int, second: int) -> None:
        try:
            with engine.begin() as conn:
                conn.execute(text("UPDATE busy_test SET n = n + 1 WHERE id = :i"), {"i": first})
                both_hold_one.wait()
                conn.execute(text("UPDATE busy_test SET n = n + 1 WHERE id = :i"), {"i": second})
        except OperationalError as error:
            errors.append(error)

    threads = [threading.Thread(target=take, args=pair) for pair in ((1, 2), (2, 1))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    with engine.begin() as conn:
        conn.execute(text("DROP TABLE busy_test"))
    engine.dispose()
    assert len(errors) == 1, errors
    return errors[0]


@pytest.mark.postgres
@pytest.mark.skipif(not os.environ.get("TEST_DATABASE_URL"), reason="needs TEST_DATABASE_URL")
def test_a_postgresql_deadlock_is_busy_and_a_request_meeting_one_answers_503(
    migrated_postgres: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    error = _deadlock(postgres_url())
    assert getattr(error.orig, "sqlstate", None) == "40P01"
    assert busy(error)

    from scorekeeper import create_app

    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    app = create_app(config_for(migrated_postgres))

    @app.get("/deadlocked")
    def deadlocked() -> str:
        raise error  # the real error PostgreSQL raised above

    response = app.test_client().get("/deadlocked")
    assert response.status_code == 503
    assert response.headers["Retry-After"]
    assert b"Traceback" not in response.data
    assert b"nothing was saved" in response.data
