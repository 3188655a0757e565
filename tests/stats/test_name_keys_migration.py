"""The name keys' migration on a roster that already holds two spellings of one name: nothing is
merged and nothing fails; init-db names each other spelling, the player page offers to merge
it, and once merged the roster holds the name's key again."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from builders import config_for

from scorekeeper.data import models
from scorekeeper.data.extensions import db
from tests.conftest import postgres_url
from tests.web.tables import create_game, exported, page, text

SCRIPT = Path(sys.executable).parent / "scorekeeper"
#: The revision before the name keys.
BEFORE = "e7a1c9d3b5f4"
#: The roster as it stood: Ann first, then two other spellings of her, and Bob.
ROSTER = [
    (1, "Ann", "2026-01-01"),
    (2, "ann", "2026-01-02"),
    (3, "\uff21nn", "2026-01-03"),  # a fullwidth A
    (4, "Bob", "2026-01-04"),
]


def _backends() -> list[str]:
    return ["sqlite", "postgresql"] if os.environ.get("TEST_DATABASE_URL") else ["sqlite"]


@pytest.fixture(params=_backends())
def old_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database of its own (a SQLite file, or a PostgreSQL schema), not migrated."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'old.sqlite3'}"
        return
    schema = f"name_keys_{uuid.uuid4().hex[:8]}"
    admin = sa.create_engine(postgres_url())
    with admin.begin() as conn:
        conn.execute(sa.text(f"CREATE SCHEMA {schema}"))
    try:
        yield postgres_url() + f"?options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as conn:
            conn.execute(sa.text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


def _app(url: str) -> Any:
    """The app on ``url`` (its instance folder is the test's: SCOREKEEPER_INSTANCE)."""
    from scorekeeper import create_app

    return create_app(config_for(url))


def _roster_before_the_keys(url: str) -> None:
    from flask_migrate import upgrade

    from scorekeeper.data.database import migrations_directory

    app = _app(url)
    with app.app_context():
        upgrade(directory=migrations_directory(), revision=BEFORE)
        with db.engine.begin() as conn:
            for player_id, name, since in ROSTER:
                conn.execute(
                    sa.text("INSERT INTO player (id, name, created_at) VALUES (:i, :n, :t)"),
                    {"i": player_id, "n": name, "t": since},
                )
            if db.engine.dialect.name == "postgresql":
                conn.execute(sa.text("SELECT setval('player_id_seq', 4)"))
        db.engine.dispose()


def _keys(app: Any) -> dict[str, str | None]:
    with app.app_context():
        rows = db.session.execute(sa.select(models.Player.name, models.Player.name_key)).all()
        found = {name: key for name, key in rows}
        db.session.remove()
    return found


def test_the_migration_keeps_every_spelling_names_the_others_and_the_merge_page_offers_them(
    old_database: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    _roster_before_the_keys(old_database)
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SECRET_KEY")}
    env.update(DATABASE_URL=old_database, SCOREKEEPER_INSTANCE=str(tmp_path / "instance"))
    run = subprocess.run(
        [str(SCRIPT), "init-db"], capture_output=True, text=True, env=env, timeout=300, check=False
    )
    assert run.returncode == 0, run.stderr
    said = run.stderr
    assert "Player 2, 'ann', is another spelling of player 1, 'Ann'" in said, said
    assert "Player 3, '\uff21nn', is another spelling of player 1, 'Ann'" in said, said
    assert "merge them on the page of either (/players/1)" in said

    app = _app(old_database)
    assert _keys(app) == {"Ann": "ann", "ann": None, "\uff21nn": None, "Bob": "bob"}
    client = app.test_client()
    roster = client.get("/players").get_data(as_text=True)
    assert "Written like another player" in text(roster)
    assert 'href="/players/2"><bdi>ann</bdi>' in roster and 'href="/players/3"' in roster
    shown = client.get("/players/1")
    assert "are written like Ann" in text(shown.get_data(as_text=True))
    assert page(shown).selected["merge-other"] == "2"  # the first other spelling, chosen already

    # Typed again, the name is Ann's: the others stay apart until merged.
    game_id = create_game(client, "auction-pitch", ["ANN", "Bob"])
    assert exported(client, game_id)["players"] == ["Ann", "Bob"]

    merged = client.post("/players/1/merge", data={"merge-other": "2", "merge-confirm": "y"})
    assert merged.status_code == 302
    # Ann merged into the fullwidth spelling: the name's key goes to it, so the name is still
    # one player when typed.
    merged = client.post("/players/3/merge", data={"merge-other": "1", "merge-confirm": "y"})
    assert merged.status_code == 302
    assert _keys(app) == {"\uff21nn": "ann", "Bob": "bob"}
    game_id = create_game(client, "auction-pitch", ["ann", "Cy"])
    assert exported(client, game_id)["players"] == ["\uff21nn", "Cy"]
    with app.app_context():
        db.engine.dispose()
