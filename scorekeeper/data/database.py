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
from sqlalchemy import CursorResult, Engine, Executable, Index, Insert, Table, event
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError  # DBAPIError: web/ too

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


def recover() -> None:
    """After the database failed under a request (busy, or away for a moment): end this
    thread's session, so that a lost connection goes back to the pool marked broken and the
    next request takes a sound one. The web's error pages call this; the session is ours."""
    release()


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
    if not isinstance(error, DBAPIError):
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


#: SQLSTATEs of a PostgreSQL that is not there for a moment: it is shutting down, crashed or
#: starting up (57P01-57P03), or is read-only (25006: a standby, or
#: default_transaction_read_only); and the classes of a lost connection (08), a full disk or
#: memory (53) and the operating system's failures, such as an I/O error (58).
_POSTGRESQL_AWAY = frozenset({"57P01", "57P02", "57P03", "25006"})
_POSTGRESQL_AWAY_CLASSES = frozenset({"08", "53", "58"})
#: SQLite's errors for a file it cannot write just now: the disk is full, an I/O error, the
#: file (or its folder) is read-only, or cannot be opened.
_SQLITE_AWAY = ("SQLITE_FULL", "SQLITE_IOERR", "SQLITE_READONLY", "SQLITE_CANTOPEN")


def unavailable(error: BaseException) -> bool:
    """Whether a database error means "the database cannot be reached or cannot write just
    now; nothing was saved; try again later": the connection was lost or refused (a restart, a
    dropped network), the server is starting or stopping, the disk is full, or the database
    or its file is read-only. A lock waited on too long is ``busy`` instead."""
    if not isinstance(error, DBAPIError) or busy(error):
        return False
    if error.connection_invalidated:
        return True
    orig = error.orig
    name = getattr(orig, "sqlite_errorname", None)
    if name is not None:
        return bool(name.startswith(_SQLITE_AWAY))
    sqlstate = getattr(orig, "sqlstate", None)
    if sqlstate is None:
        # psycopg says nothing more when no server answered at all (refused, or gone).
        return isinstance(error, OperationalError)
    return sqlstate in _POSTGRESQL_AWAY or sqlstate[:2] in _POSTGRESQL_AWAY_CLASSES


def unique_broken(error: IntegrityError, index: Index) -> bool:
    """Whether ``error`` is a row refused by the unique ``index`` (another request wrote that
    key first), and not some other integrity error."""
    constraint = getattr(getattr(error.orig, "diag", None), "constraint_name", None)
    if constraint is not None:  # PostgreSQL names the index
        return bool(constraint == index.name)
    columns = ", ".join(f"{index.table.name}.{column.name}" for column in index.columns)  # type: ignore[union-attr]  # an index of a table
    return f"UNIQUE constraint failed: {columns}" in str(error.orig)


def insert_skipping_conflicts(table: Table, index: Index) -> Insert:
    """An INSERT that skips a row whose key the unique ``index`` holds already (ON CONFLICT
    DO NOTHING; on PostgreSQL it first waits for a transaction writing that key to end)."""
    if dialect() == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as postgresql_insert

        return postgresql_insert(table).on_conflict_do_nothing(index_elements=list(index.columns))
    from sqlalchemy.dialects.sqlite import insert as sqlite_insert

    return sqlite_insert(table).on_conflict_do_nothing(index_elements=list(index.columns))


def shown(url: str) -> str:
    """A database URL as it may be printed or logged: with its password hidden (``***``)."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


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
