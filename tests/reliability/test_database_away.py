"""A database that is not there for a moment is a wait, never a 500: a connection killed under
a hand save, a server that cannot be reached, a full disk, a read-only file or database.
Each answers 503 with Retry-After and words (JSON at the phone's door), nothing half-saved,
and the app goes on once the database is back, without a restart."""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path
from typing import Any

import psycopg
import pytest
from sqlalchemy import event, func, select

from scorekeeper import operations, rules
from scorekeeper.data import models
from scorekeeper.data.extensions import db

from ..web.tables import hand_form

PLAYERS = ["Ana", "Bogdan", "Cristi"]
AWAY = "cannot be reached or written to just now"


def _game(app: Any) -> int:
    with app.app_context():
        game = rules.Game.create("auction-pitch", PLAYERS, house_rules={"target": 500})
        game_id = operations.games.create_game(game)
        db.session.remove()
    return game_id


def _hands(app: Any, game_id: int) -> int:
    with app.app_context():
        count = db.session.execute(
            select(func.count()).select_from(models.Hand).where(models.Hand.game_id == game_id)
        ).scalar_one()
        db.session.remove()
    return int(count)


def _queued(key: str, number: int = 1) -> dict[str, str]:
    """A hand as a phone's queue posts it: Ana bids 2 and makes it, Low to Bogdan or Cristi in
    turn (a hand is never the same as the last; the game, to 500, goes on)."""
    low = "Bogdan" if number % 2 else "Cristi"
    taps = hand_form(PLAYERS, pitcher="Ana", bid=2, high="Ana", low=low, jack=None, game="Ana")
    return {**taps, "token": key, "number": str(number), "save": "Save"}


def _said_away(status: int, headers: Any, body: str) -> None:
    assert status == 503, body[:300]
    assert int(headers["Retry-After"]) > 0
    assert AWAY in body and "nothing was saved" in body
    assert "Traceback" not in body


# --- PostgreSQL: a connection killed, a server away -------------------------------------------


def _postgres_url(app: Any) -> str:
    with app.app_context():
        return db.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)


def _backend_waiting_for_a_lock(watcher: psycopg.Connection[Any]) -> int | None:
    found = watcher.execute(
        "SELECT pid FROM pg_stat_activity "
        "WHERE datname = current_database() AND wait_event_type = 'Lock'"
    ).fetchall()
    return int(found[0][0]) if len(found) == 1 else None


def _post_raw(served: Any, path: str, form: dict[str, str]) -> tuple[int, Any, str]:
    import http.client
    import urllib.parse

    conn = http.client.HTTPConnection(served.host, served.port, timeout=60)
    try:
        conn.request(
            "POST",
            path,
            body=urllib.parse.urlencode(form),
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
        response = conn.getresponse()
        return response.status, response.headers, response.read().decode()
    finally:
        conn.close()


@pytest.mark.parametrize("door", ["hands.json", "page"])
def test_a_connection_killed_under_a_hand_save_is_a_503_and_sending_again_records_it_once(
    app: Any, served: Any, database_url: str, door: str
) -> None:
    """The save waits for its game's lock (held here); its server process is ended meanwhile,
    as a restart ends it. The phone is told to send again; sent again, the hand is saved,
    once."""
    if database_url.startswith("sqlite"):
        pytest.skip("a SQLite file has no connection to lose")
    game_id = _game(app)
    path = f"/games/{game_id}/hands.json" if door == "hands.json" else f"/games/{game_id}"
    form = _queued("killed-connection-key-1")
    if door == "page":
        with app.app_context():
            form["version"] = str(db.session.get(models.Game, game_id).version)
            db.session.remove()
    url = _postgres_url(app)
    holder = psycopg.connect(url)
    holder.execute("SELECT id FROM game WHERE id = %s FOR UPDATE", (game_id,))
    answers: list[tuple[int, Any, str]] = []
    saving = threading.Thread(target=lambda: answers.append(_post_raw(served, path, form)))
    with psycopg.connect(url, autocommit=True) as watcher:
        saving.start()
        deadline = time.monotonic() + 30
        while (pid := _backend_waiting_for_a_lock(watcher)) is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert pid is not None, "the save never waited for its game's lock"
        watcher.execute("SELECT pg_terminate_backend(%s)", (pid,))
        saving.join(timeout=60)
    holder.rollback()
    holder.close()

    status, headers, body = answers[0]
    _said_away(status, headers, body)
    if door == "hands.json":
        assert '"status":"unavailable"' in body.replace(" ", "")
    assert _hands(app, game_id) == 0

    # Sent again (the phone's queue, or Save pressed again): saved, and only once.
    again = _post_raw(served, path, form)
    assert again[0] == (201 if door == "hands.json" else 302), again[2][:300]
    assert _post_raw(served, path, form)[0] in (200, 302)  # the key's hand, not a second
    assert _hands(app, game_id) == 1


def test_a_database_server_that_cannot_be_reached_is_a_503_and_the_app_goes_on_after(
    app: Any,
    client: Any,
    app_config: dict[str, Any],
    database_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every connection of the pool is ended (a restart), then the server is away altogether
    (an app pointed at a port nothing listens on, as during the restart itself)."""
    if database_url.startswith("sqlite"):
        pytest.skip("a SQLite file has no server")
    game_id = _game(app)
    assert client.get(f"/games/{game_id}").status_code == 200
    with psycopg.connect(_postgres_url(app), autocommit=True) as watcher:
        watcher.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    # The pool's connections are checked before use: a page after the restart just works.
    assert client.get(f"/games/{game_id}").status_code == 200

    from scorekeeper import create_app

    away_url = database_url.replace("@127.0.0.1:5432/", "@127.0.0.1:9/")
    assert away_url != database_url
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "away"))
    away = create_app({**app_config, "SQLALCHEMY_DATABASE_URI": away_url})
    try:
        answer = away.test_client().post(
            f"/games/{game_id}/hands.json", data=_queued("server-away-key-0001")
        )
        _said_away(answer.status_code, answer.headers, answer.get_data(as_text=True))
        assert answer.json["status"] == "unavailable"
        page = away.test_client().get(f"/games/{game_id}")
        _said_away(page.status_code, page.headers, page.get_data(as_text=True))
    finally:
        with away.app_context():
            db.engine.dispose()


def test_a_read_only_postgresql_database_is_a_503(
    app_config: dict[str, Any], database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if database_url.startswith("sqlite"):
        pytest.skip("see the read-only SQLite file below")
    from scorekeeper import create_app

    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    writable = create_app(app_config)
    game_id = _game(writable)
    with writable.app_context():
        db.engine.dispose()
    # A standby, or a database an administrator made read-only: every transaction is.
    read_only = f"{database_url}?options=-cdefault_transaction_read_only%3Don"
    app = create_app({**app_config, "SQLALCHEMY_DATABASE_URI": read_only})
    try:
        answer = app.test_client().post(
            f"/games/{game_id}/hands.json", data=_queued("read-only-pg-key-0001")
        )
        _said_away(answer.status_code, answer.headers, answer.get_data(as_text=True))
        assert app.test_client().get(f"/games/{game_id}").status_code == 200  # reading goes on
        assert _hands(writable, game_id) == 0
    finally:
        for opened in (app, writable):
            with opened.app_context():
                db.engine.dispose()


# --- SQLite: a full disk, a read-only file ----------------------------------------------------


def _sqlite_path(database_url: str) -> Path:
    return Path(database_url.removeprefix("sqlite:///"))


def test_a_full_disk_is_a_503_and_the_hand_is_saved_once_there_is_room_again(
    app: Any, client: Any, database_url: str
) -> None:
    """The file may grow no further (SQLite's max_page_count, set on every new connection:
    the same SQLITE_FULL a full disk gives). Hands are saved into the room the pages have
    left until one needs a new page; then there is room again."""
    if not database_url.startswith("sqlite"):
        pytest.skip("PostgreSQL's disk cannot be filled from here (53100 is said the same)")
    game_id = _game(app)
    room = {"full": True}

    with app.app_context():

        @event.listens_for(db.engine, "connect")
        def no_room(dbapi_connection: Any, _record: Any) -> None:
            if room["full"]:
                pages = dbapi_connection.execute("PRAGMA page_count").fetchone()[0]
                dbapi_connection.execute(f"PRAGMA max_page_count = {pages}")

        db.engine.dispose()  # every connection from now on is made with no room to grow

    full = None
    for number in range(1, 200):  # a page holds a few dozen hands at most
        form = _queued(f"full-disk-key-{number:06d}", number)
        answer = client.post(f"/games/{game_id}/hands.json", data=form)
        if answer.status_code != 201:
            full = answer
            break
    assert full is not None, "the file never ran out of room"
    _said_away(full.status_code, full.headers, full.get_data(as_text=True))
    assert full.json["status"] == "unavailable"
    assert _hands(app, game_id) == number - 1

    room["full"] = False
    with app.app_context():
        db.engine.dispose()  # room again: new connections may grow the file
    assert client.post(f"/games/{game_id}/hands.json", data=form).status_code == 201
    assert client.post(f"/games/{game_id}/hands.json", data=form).status_code == 200
    assert _hands(app, game_id) == number


def test_a_read_only_database_file_is_a_503_and_pages_still_read(
    app: Any, app_config: dict[str, Any], database_url: str, tmp_path: Path
) -> None:
    if not database_url.startswith("sqlite"):
        pytest.skip("see the read-only PostgreSQL database above")
    game_id = _game(app)
    with app.app_context():
        version = db.session.get(models.Game, game_id).version
        db.session.remove()
        db.engine.dispose()
    copy = tmp_path / "read-only.sqlite3"
    shutil.copy(_sqlite_path(database_url), copy)
    from scorekeeper import create_app

    # Opened read-only, as SQLite opens a file it may not write (mode=ro says so outright,
    # where file permissions would not stop the root user the tests may run as).
    read_only = f"sqlite:///file:{copy}?mode=ro&uri=true"
    reader = create_app({**app_config, "SQLALCHEMY_DATABASE_URI": read_only})
    try:
        answer = reader.test_client().post(
            f"/games/{game_id}/hands.json", data=_queued("read-only-file-key-1")
        )
        _said_away(answer.status_code, answer.headers, answer.get_data(as_text=True))
        form = {**_queued("read-only-file-key-2"), "version": str(version)}
        page = reader.test_client().post(f"/games/{game_id}", data=form)
        _said_away(page.status_code, page.headers, page.get_data(as_text=True))
        assert reader.test_client().get(f"/games/{game_id}").status_code == 200
    finally:
        with reader.app_context():
            db.engine.dispose()


# --- What PostgreSQL says, and which of it is a wait -------------------------------------------

#: psycopg's error for each SQLSTATE, and whether the database is away for a moment (a wait,
#: 503) or the request is wrong (not a wait): a full disk cannot be made here, so its error
#: is classified as PostgreSQL raises it.
POSTGRESQL_SAYS = [
    (psycopg.errors.DiskFull, True),  # 53100
    (psycopg.errors.OutOfMemory, True),  # 53200
    (psycopg.errors.TooManyConnections, True),  # 53300
    (psycopg.errors.AdminShutdown, True),  # 57P01: the server is stopping or restarting
    (psycopg.errors.CrashShutdown, True),  # 57P02
    (psycopg.errors.CannotConnectNow, True),  # 57P03: it is starting up
    (psycopg.errors.ReadOnlySqlTransaction, True),  # 25006: a standby
    (psycopg.errors.ConnectionFailure, True),  # 08006
    (psycopg.errors.IoError, True),  # 58030
    (psycopg.errors.UndefinedTable, False),  # 42P01: a bug, a 500
    (psycopg.errors.UniqueViolation, False),  # 23505: a race the write path answers itself
]


@pytest.mark.parametrize(
    ("raised", "away"), POSTGRESQL_SAYS, ids=lambda v: getattr(v, "__name__", "")
)
def test_what_postgresql_says_is_a_wait_only_when_the_database_is_away(
    raised: type[psycopg.Error], away: bool
) -> None:
    from sqlalchemy.exc import DBAPIError

    from scorekeeper.data.database import unavailable

    error = DBAPIError.instance("INSERT ...", {}, raised("said"), psycopg.Error)
    assert unavailable(error) is away
