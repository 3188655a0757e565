"""The one-time key of a hand form under load: N posts of one key record one hand, and every
one of the N answers shows that hand. Against one served process (its threads at once) and
against several server processes on one database, on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import http.client
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from html import unescape
from pathlib import Path
from typing import Any

from builders import ap_hand
from processes import wait_for_healthz
from sqlalchemy import select, text

from scorekeeper import operations, rules
from scorekeeper.data import models
from scorekeeper.data.extensions import db

from .conftest import at_once

#: Posts of one key sent at once.
POSTS = 8
#: Server processes on one database.
PROCESSES = 3
#: Ana (seat 0) bids 2 and takes every point.
HAND = {
    "pitcher": "0",
    "bid": "2",
    "point_high": "0",
    "point_low": "0",
    "point_jack": "0",
    "point_game": "0",
    "save": "Save hand",
}


class Phone:
    """One browser tab: a keep-alive connection with its own cookies (session, CSRF)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, form: dict[str, str] | None = None) -> Any:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers = {"Host": f"127.0.0.1:{self.port}"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            for header, value in response.getheaders():
                if header.lower() == "set-cookie":
                    name, _, rest = value.partition("=")
                    self.cookies[name] = rest.split(";", 1)[0]
            return response.status, response.getheader("Location") or "", response.read().decode()
        finally:
            connection.close()

    def open(self, game_id: int) -> dict[str, str]:
        """Open the game page; return its hand form's hidden fields (and the CSRF token)."""
        status, _, html = self.request("GET", f"/games/{game_id}")
        assert status == 200, status
        found = {}
        for name in ("csrf_token", "version", "token", "number"):
            match = re.search(rf'name="{name}" type="hidden" value="([^"]*)"', html)
            if match:
                found[name] = unescape(match[1])
        return found

    def save(self, game_id: int, form: dict[str, str]) -> tuple[int, str]:
        """Post the form; follow the answer to the page it sends to; return what it says."""
        status, location, html = self.request("POST", f"/games/{game_id}", form)
        if status == 302:
            status, _, html = self.request("GET", location.split("#", 1)[0])
        flashes = re.findall(r'<p class="flash[^"]*">(.*?)</p>', html, re.S)
        return status, " ".join(unescape(" ".join(flashes)).split())


def _new_game(app: Any) -> int:
    with app.app_context():
        return operations.games.create_game(rules.Game.create("auction-pitch", ["Ana", "Bogdan"]))


def _hands(app: Any, game_id: int) -> list[tuple[int, int | None]]:
    with app.app_context():
        rows = db.session.execute(
            select(models.Hand.number, models.Hand.pitcher_seat)
            .where(models.Hand.game_id == game_id)
            .order_by(models.Hand.number)
        ).all()
        db.session.remove()
    return [(row.number, row.pitcher_seat) for row in rows]


def _send_one_key_many_times(app: Any, ports: list[int]) -> None:
    """Open the form on one phone, then send its key from POSTS phones at once (spread over
    the servers): one hand, and every answer says that hand."""
    game_id = _new_game(app)
    phones = [Phone(ports[i % len(ports)]) for i in range(POSTS)]
    first = phones[0].open(game_id)
    forms = []
    for phone in phones:
        own = phone.open(game_id)  # each tab's own session and CSRF token
        forms.append({**HAND, **first, "csrf_token": own["csrf_token"]})
    answers = at_once(
        *[lambda p=p, f=f: p.save(game_id, f) for p, f in zip(phones, forms, strict=True)]
    )
    assert _hands(app, game_id) == [(1, 0)]
    assert [status for status, _ in answers] == [200] * POSTS, answers
    said = sorted(words for _, words in answers)
    assert said == ["Ana made 2."] + ["Hand 1 was already saved: Ana made 2."] * (POSTS - 1)


def test_posts_of_one_key_at_once_to_one_server_record_one_hand_and_all_show_it(
    app: Any, served: Any
) -> None:
    app.config["WTF_CSRF_ENABLED"] = True
    for _ in range(3):
        _send_one_key_many_times(app, [served.port])


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _server_env(database_url: str, folder: Path) -> dict[str, str]:
    """The environment of a server process on ``database_url``, its instance in ``folder``:
    one secret key for all, and no organiser password or test database of the suite's."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "SECRET_KEY": "one-key-many-processes",
        "SCOREKEEPER_INSTANCE": str(folder / "instance"),
    }
    for name in ("SCOREKEEPER_PASSWORD", "TEST_DATABASE_URL"):
        env.pop(name, None)
    return env


@contextmanager
def _server_processes(database_url: str, folder: Path, count: int) -> Iterator[list[int]]:
    """Run ``count`` ``scorekeeper serve`` processes on one database; yield their ports."""
    command = Path(sys.executable).with_name("scorekeeper")
    env = _server_env(database_url, folder)
    ports = [_free_port() for _ in range(count)]
    logs = [(folder / f"serve-{port}.log").open("wb") for port in ports]
    processes = [
        subprocess.Popen(
            [str(command), "serve", "--port", str(port), "--threads", "4"],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        for port, log in zip(ports, logs, strict=True)
    ]
    try:
        deadline = time.monotonic() + 60
        for port, process in zip(ports, processes, strict=True):
            log = folder / f"serve-{port}.log"
            what = "a server process did not answer in 60 s"
            wait_for_healthz(port, process, log, deadline, what, pause=0.1)
        yield ports
    finally:
        for process in processes:
            process.send_signal(signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for log in logs:
            log.close()


def test_posts_of_one_key_at_once_to_several_server_processes_record_one_hand_and_all_show_it(
    app: Any, database_url: str, tmp_path: Path
) -> None:
    with _server_processes(database_url, tmp_path, PROCESSES) as ports:
        for _ in range(3):
            _send_one_key_many_times(app, ports)


def test_one_key_posted_to_two_games_at_once_records_it_in_one_and_refuses_the_other(
    app: Any, served: Any
) -> None:
    games = [_new_game(app), _new_game(app)]
    key = "one-key-two-games-000001"
    phones = [Phone(served.port), Phone(served.port)]
    forms = [
        {**HAND, **phone.open(g), "token": key} for phone, g in zip(phones, games, strict=True)
    ]
    answers = at_once(
        *[lambda p=p, g=g, f=f: p.save(g, f) for p, g, f in zip(phones, games, forms, strict=True)]
    )
    recorded = [len(_hands(app, g)) for g in games]
    assert sorted(recorded) == [0, 1]
    refused = answers[recorded.index(0)]
    assert refused[0] == 400
    with app.app_context():
        ((game_of_key,),) = db.session.execute(
            select(models.HandKey.game_id).where(models.HandKey.key == key)
        ).all()
        db.session.remove()
    assert game_of_key == games[recorded.index(1)]


# --- The migration ------------------------------------------------------------------------------


def test_the_migration_keeps_each_hands_key_so_an_old_page_still_finds_its_hand(app: Any) -> None:
    from flask_migrate import downgrade, upgrade

    from scorekeeper.data.database import migrations_directory

    game_id = _new_game(app)
    with app.app_context():
        operations.hands.record_hand(
            game_id,
            rules.Hand(**ap_hand("Ana", 2, "Ana", "Ana", None, "Ana")),
            version=None,
        )
        db.session.remove()
        downgrade(directory=migrations_directory(), revision="6b9d9fbfc39e")
        with db.engine.begin() as conn:
            conn.execute(text("UPDATE hand SET token = 'old-page-key-0000001'"))
        upgrade(directory=migrations_directory())
        keys = db.session.execute(
            select(models.HandKey.key, models.HandKey.game_id, models.HandKey.number)
        ).all()
        hand_id = db.session.execute(select(models.HandKey.hand_id)).scalar_one()
        assert hand_id == db.session.execute(select(models.Hand.id)).scalar_one()
        assert "token" not in {c["name"] for c in db.inspect(db.engine).get_columns("hand")}
        db.session.remove()
    assert [tuple(k) for k in keys] == [("old-page-key-0000001", game_id, 1)]
    with app.app_context():
        try:
            operations.hands.record_hand(
                game_id,
                rules.Hand(**ap_hand("Bogdan", 2, "Bogdan", "Bogdan", None, "Bogdan")),
                version=None,
                key="old-page-key-0000001",
            )
        except operations.errors.KeyUsed as used:
            assert (used.game_id, used.number, used.kept) == (game_id, 1, True)
        else:
            raise AssertionError("a key moved by the migration recorded a second hand")
        db.session.remove()
    assert _hands(app, game_id) == [(1, 0)]
