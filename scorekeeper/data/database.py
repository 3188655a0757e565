"""Database setup: SQLite pragmas, write transactions, and schema upgrades.

SQLite runs in WAL mode with foreign keys on. Its Python driver's own
transaction handling is turned off, and we issue BEGIN ourselves: plain BEGIN
for reads, BEGIN IMMEDIATE for writes, so two requests that read a game and
then add a hand cannot interleave (measured: the driver's default wrote
duplicate hand numbers under load; a deferred BEGIN failed many writes with
"database is locked").

PostgreSQL's connections are in autocommit (``config.engine_options``): reads run
without a transaction, each statement seeing what was committed when it began, as
READ COMMITTED gives inside one; a write is one transaction that ``write_transaction``
begins (and the row it changes is locked with SELECT ... FOR UPDATE). A statement that
changes a row outside a write transaction is refused: it would be committed alone.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from typing import Any, TypeVar

from flask import Flask
from sqlalchemy import CursorResult, Engine, Executable, event
from sqlalchemy.exc import OperationalError

from .extensions import db

IMMEDIATE = "scorekeeper_immediate"

T = TypeVar("T")


def init_app(app: Flask) -> None:
    """Wire SQLite's pragmas and transaction handling into the app's engine."""
    with app.app_context():
        engine = db.engine
        if engine.dialect.name == "sqlite":
            _configure_sqlite(engine, int(app.config.get("SQLITE_BUSY_TIMEOUT_MS", 10_000)))
        elif engine.dialect.name == "postgresql":
            _configure_postgresql(engine)


def _configure_sqlite(engine: Engine, busy_timeout_ms: int) -> None:
    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we issue BEGIN ourselves
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        # How long a write waits for another process's (import-all, a backup) before
        # SQLite gives up with "database is locked" (answered 503, see errors.py).
        cursor.execute(f"PRAGMA busy_timeout={busy_timeout_ms:d}")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(connection: Any) -> None:
        if connection.get_execution_options().get(IMMEDIATE):
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        else:
            connection.exec_driver_sql("BEGIN")


class WriteOutsideTransaction(RuntimeError):
    """A statement that changes rows ran outside ``write_transaction`` (a bug: in autocommit
    it would be committed on its own, whatever followed)."""


def _configure_postgresql(engine: Engine) -> None:
    from psycopg.pq import TransactionStatus

    idle = TransactionStatus.IDLE

    @event.listens_for(engine, "begin")
    def on_begin(connection: Any) -> None:
        if connection.get_execution_options().get(IMMEDIATE):
            connection.exec_driver_sql("BEGIN")

    @event.listens_for(engine, "before_cursor_execute")
    def in_a_write(
        connection: Any, _cursor: Any, statement: str, _params: Any, context: Any, _many: bool
    ) -> None:
        if (
            context is not None
            and (context.isinsert or context.isupdate or context.isdelete)
            and connection.connection.dbapi_connection.info.transaction_status == idle
        ):
            raise WriteOutsideTransaction(statement.split("\n", 1)[0][:80])


#: This process's SQLite writers queue here before BEGIN IMMEDIATE. SQLite's own busy
#: handler polls with sleeps of up to 100 ms and is not fair: with four phones saving at
#: once, some waited seconds while later writers went first (bench/fullstack_bench.py:
#: p99 1.4 s, longest wait 3.2 s; queued here, p99 0.36 s). Reentrant, so that a nested
#: write does not wait for itself. Other processes still meet SQLite's busy timeout.
_SQLITE_WRITERS = threading.RLock()


@contextmanager
def write_transaction() -> Iterator[None]:
    """Run a block as one write transaction: all of it is committed, or none of it.

    On SQLite, any read transaction the request had open is ended first, so that the
    write starts with BEGIN IMMEDIATE and holds the write lock from its first read. On
    PostgreSQL the request's reads ran in autocommit, so the write begins on the
    connection they used (no second checkout and check of a connection), and callers lock
    the game row with SELECT ... FOR UPDATE.
    """
    session = db.session()
    postgresql = db.engine.dialect.name == "postgresql"
    went_on = postgresql and session.in_transaction()
    if went_on:
        session.connection().exec_driver_sql("BEGIN")
    else:
        session.rollback()
    with nullcontext() if postgresql else _SQLITE_WRITERS:
        if not went_on:
            session.connection(execution_options={IMMEDIATE: True})  # the begin event's BEGIN
        try:
            yield
            session.commit()
        except BaseException:
            session.rollback()
            raise


def release() -> None:
    """End this thread's session: its transaction ends and its connection goes back to the
    pool (a long job that has read everything it needs holds neither meanwhile)."""
    db.session.remove()


def read_then_release(read: Callable[[], T]) -> T:
    """Run ``read``, then end this thread's session (``release``): for a long job that
    reads everything it needs first (a history), so that it holds no transaction or
    connection while it works (a long-open read holds back SQLite's WAL)."""
    try:
        return read()
    finally:
        release()


def close_all() -> None:
    """Close the session and every pooled connection (a command that made its own app)."""
    # The session first: it holds a connection, which would otherwise go back to the pool
    # after the pool was disposed of, and be left open there.
    db.session.remove()
    db.engine.dispose()


@contextmanager
def command_context(app: Flask) -> Iterator[None]:
    """The app context of a command that made its own app: on leaving it, the session and
    every pooled connection are closed (``close_all``), rather than left to the exit."""
    with app.app_context():
        try:
            yield
        finally:
            close_all()


def busy(error: BaseException) -> bool:
    """Whether a database error means "another writer was in the way; nothing was saved,
    try again": SQLite's lock wait ran out, or PostgreSQL broke a deadlock, refused a
    serialization or gave up waiting for a lock."""
    if not isinstance(error, OperationalError):
        return False
    if "database is locked" in str(error.orig):
        return True
    return getattr(error.orig, "sqlstate", None) in {"40P01", "40001", "55P03"}


def place() -> str:
    """Where the database is, to tell a person: a SQLite file's path, or a server's URL
    without its password."""
    url = db.engine.url
    if url.get_backend_name() == "sqlite":
        return url.database or ":memory:"
    return url.render_as_string(hide_password=True)


def sqlite_database() -> bool:
    """Whether the database is a SQLite file (one ``scorekeeper backup`` can copy)."""
    url = db.engine.url
    return url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:")


def dialect() -> str:
    """The database's kind: ``sqlite`` or ``postgresql``."""
    return db.engine.dialect.name


def run(statement: Executable, parameters: Any = None) -> CursorResult[Any]:
    """Run a Core statement (tables and columns, no ORM classes) in the session's transaction.

    The session's own ``execute`` takes every statement through the ORM's machinery,
    which for the small statements of a page or a hand costs more than the query does
    (about 300 Python calls each; see bench/hotspots.py). Pending ORM changes are
    flushed first, as the session's autoflush would.
    """
    db.session.flush()
    return db.session.connection().execute(statement, parameters)


def upgrade_database() -> None:
    """Create or upgrade the schema to the newest migration."""
    from flask_migrate import upgrade

    upgrade(directory=migrations_directory())


def migrations_directory() -> str:
    from pathlib import Path

    return str(Path(__file__).parent / "migrations")
