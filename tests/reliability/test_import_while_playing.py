"""import-all into a SQLite database a table is playing on: saves wait a moment, never fail.

Real parts only: a real SQLite file, the real ``scorekeeper import-all`` in its own process
(as a person runs it next to the server), and hands saved through the app meanwhile.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from builders import config_for
from sqlalchemy import func, select

from scorekeeper import create_app, operations, rules
from scorekeeper.data import models
from scorekeeper.data.extensions import db

SCRIPT = Path(sys.executable).parent / "scorekeeper"
PLAYERS = ["Ann", "Bob", "Cy"]
HAND = rules.Hand(
    pitcher="Bob", bid=2, points={"high": "Bob", "low": "Ann", "jack": None, "game": "Cy"}
)
#: How long a save waits for another process's write lock here: shorter than the app's
#: default, so that a whole-file import (seconds) outlasts it and a short batch does not.
BUSY_MS = 1000
#: Games in the file: in one transaction, their writing holds the lock for several seconds.
GAMES = 800


def _collection(games: int, hands: int) -> dict[str, Any]:
    game = rules.Game.create("auction-pitch", PLAYERS, house_rules={"target": 1000})
    record = rules.record_to_json(game, [HAND] * hands)
    return {
        "format": "pitch-scorekeeper/collection-1",
        "games": [{"record": record} for _ in range(games)],
    }


def _form(version: int) -> dict[str, str]:
    # Bids 2 and 3 in turn: a hand tapped the same as the last one would be asked about.
    return {
        "pitcher": "1",
        "bid": str(2 + version % 2),
        "version": str(version),
        "point_high": "1",
        "point_low": "0",
        "point_jack": "nobody",
        "point_game": "2",
    }


@pytest.fixture
def table(migrated_sqlite: Path, tmp_path: Path) -> Any:
    path = tmp_path / "club.sqlite3"
    path.write_bytes(migrated_sqlite.read_bytes())
    app = create_app(config_for(f"sqlite:///{path}", SQLITE_BUSY_TIMEOUT_MS=BUSY_MS))
    yield app, path
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def test_hands_saved_while_import_all_runs_are_all_saved_and_none_answers_500(
    table: Any, tmp_path: Path
) -> None:
    app, path = table
    with app.app_context():
        game_id = operations.games.create_game(
            rules.Game.create("auction-pitch", PLAYERS, house_rules={"target": 1000})
        )
    export = tmp_path / "games.json"
    export.write_text(json.dumps(_collection(games=GAMES, hands=12)))
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{path}",
        "SCOREKEEPER_INSTANCE": str(tmp_path / "instance"),
    }
    importer = subprocess.Popen(
        [str(SCRIPT), "import-all", str(export)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    client = app.test_client()
    statuses: list[int] = []
    during = 0
    deadline = time.monotonic() + 120
    version = 0
    try:
        # Save hands one after another while the import runs (and one after it ended).
        while time.monotonic() < deadline and len(statuses) < 400:
            running = importer.poll() is None
            response = client.post(f"/games/{game_id}", data=_form(version))
            statuses.append(response.status_code)
            if response.status_code == 302:
                version += 1
            during += running
            if not running:
                break
    finally:
        out, err = importer.communicate(timeout=120)
    assert importer.returncode == 0, err.decode()
    assert out.decode().strip() == f"Imported {GAMES} games."
    assert during >= 5, "the saves must overlap the import"
    assert {s: statuses.count(s) for s in statuses if s != 302} == {}
    with app.app_context():
        saved = db.session.execute(
            select(func.count()).select_from(models.Hand).where(models.Hand.game_id == game_id)
        ).scalar_one()
        games = db.session.execute(select(func.count()).select_from(models.Game)).scalar_one()
    assert saved == len(statuses)
    assert games == GAMES + 1


def test_a_save_that_cannot_get_the_write_lock_in_time_answers_503_and_saves_nothing(
    table: Any,
) -> None:
    app, path = table
    with app.app_context():
        game_id = operations.games.create_game(rules.Game.create("auction-pitch", PLAYERS))
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # another program holds the write lock
        response = app.test_client().post(f"/games/{game_id}", data=_form(0))
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "2"
    page = response.get_data(as_text=True)
    assert "Another program is writing to the database" in page
    assert "nothing was saved" in page
    with app.app_context():
        assert operations.loading.load(game_id).hands == ()
