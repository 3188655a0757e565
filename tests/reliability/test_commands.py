"""The maintenance commands: set-password, backup, export-all and import-all, run for real.

Each command is run once as a real process, as a user runs it (``run_process``); the rest
of the cases run it in this process through click's runner (``invoke``), which says the
same things in a fraction of the time.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest
from builders import CONFIG, app_on
from command_line import invoke, run_process

from scorekeeper import operations, rules


@pytest.fixture
def instance(tmp_path: Path, migrated_sqlite: Path) -> dict[str, str | None]:
    """An instance folder with a migrated database holding one finished game, as the changes
    to the environment that point the commands at it."""
    folder = tmp_path / "instance"
    folder.mkdir()
    database = folder / "scorekeeper.sqlite3"
    database.write_bytes(migrated_sqlite.read_bytes())
    env: dict[str, str | None] = {
        "DATABASE_URL": None,
        "SECRET_KEY": None,
        "SCOREKEEPER_INSTANCE": str(folder),
    }
    record = Path(__file__).resolve().parents[1] / "examples" / "game-record-example.json"
    app = app_on(f"sqlite:///{database}")
    with app.app_context():
        operations.games.import_record(rules.loads_record(record.read_text()))
        from scorekeeper.data.extensions import db

        db.engine.dispose()
    return env


def test_backup_without_a_file_writes_into_the_backups_folder_named_by_the_time(
    instance: dict[str, str | None],
) -> None:
    result = invoke("backup", env=instance)
    assert result.returncode == 0, result.stderr
    copies = list((Path(str(instance["SCOREKEEPER_INSTANCE"])) / "backups").iterdir())
    assert len(copies) == 1 and copies[0].name.startswith("scorekeeper-"), copies
    assert str(copies[0]) in result.stdout
    with sqlite3.connect(copies[0]) as copy:
        assert copy.execute("SELECT count(*) FROM hand").fetchone() == (3,)


def test_backup_writes_a_consistent_copy_of_the_database(
    instance: dict[str, str | None], tmp_path: Path
) -> None:
    target = tmp_path / "copies" / "tonight.sqlite3"
    result = run_process("backup", str(target), env=instance)
    assert result.returncode == 0, result.stderr
    assert "Backed up" in result.stdout
    with sqlite3.connect(target) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert conn.execute("SELECT count(*) FROM hand").fetchone() == (3,)


def test_export_all_and_import_all_round_trip_through_a_file(
    instance: dict[str, str | None], tmp_path: Path, migrated_sqlite: Path
) -> None:
    exported = tmp_path / "games.json"
    result = run_process("export-all", str(exported), env=instance)
    assert result.returncode == 0, result.stderr
    document = json.loads(exported.read_text())
    assert len(document["games"]) == 1
    assert document["games"][0]["record"]["players"] == ["Ann", "Bob", "Cy", "Dee"]
    other = tmp_path / "other"
    other.mkdir()
    (other / "scorekeeper.sqlite3").write_bytes(migrated_sqlite.read_bytes())
    env = dict(instance, SCOREKEEPER_INSTANCE=str(other))
    assert run_process("import-all", str(exported), env=env).stdout.strip() == "Imported 1 game."
    again = tmp_path / "again.json"
    # Each command ran once as a process above; the round trip's check runs in this one.
    assert invoke("export-all", str(again), env=env).returncode == 0
    assert json.loads(again.read_text()) == document


def test_import_all_of_a_broken_file_prints_one_line_and_exits_2(
    instance: dict[str, str | None], tmp_path: Path
) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "pitch-scorekeeper/collection-1", "games": [{"record": 1}]}')
    result = invoke("import-all", str(broken), env=instance)
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0
    assert result.stderr.startswith("game 1: record: must be a JSON object")


def test_set_password_stores_only_a_hash_and_then_writes_need_a_login(
    instance: dict[str, str | None], monkeypatch: pytest.MonkeyPatch
) -> None:
    result = run_process("set-password", "--password", "hearts-and-spades", env=instance)
    assert result.returncode == 0, result.stderr
    stored = (Path(str(instance["SCOREKEEPER_INSTANCE"])) / "organiser_password_hash").read_text()
    assert "hearts-and-spades" not in stored
    from scorekeeper import create_app

    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(instance["SCOREKEEPER_INSTANCE"]))
    monkeypatch.delenv("SCOREKEEPER_PASSWORD", raising=False)
    app = create_app(dict(CONFIG))
    client = app.test_client()
    assert "/login" in client.post("/games/1/undo", data={"version": "1"}).headers["Location"]
    client.post("/login", data={"password": "hearts-and-spades"})
    assert client.post("/games/1/undo", data={"version": "1", "number": "1"}).status_code == 302


def test_serve_names_the_addresses_to_type_into_the_phones() -> None:
    from scorekeeper.serving.network import addresses_to_type

    assert addresses_to_type("127.0.0.1", 5000) == ["http://127.0.0.1:5000/"]
    urls = addresses_to_type("0.0.0.0", 5000)
    assert urls and all(u.startswith("http://") and u.endswith(":5000/") for u in urls)


def test_serving_takes_what_start_made_out_of_the_garbage_collectors_sight() -> None:
    import gc

    from scorekeeper.cli.commands import YOUNG_COLLECTION_EVERY, ready_to_serve

    gc.unfreeze()
    thresholds = gc.get_threshold()
    try:
        ready_to_serve()
        assert gc.get_freeze_count() > 10_000  # modules, the app: all made before serving
        # What requests make is still collected: a cycle made now and dropped is freed.
        cycle: list[object] = []
        cycle.append(cycle)
        del cycle
        assert gc.collect() >= 1
        assert gc.get_threshold() == (YOUNG_COLLECTION_EVERY, *thresholds[1:])
    finally:
        gc.unfreeze()  # the tests after this one are not a server
        gc.set_threshold(*thresholds)


def _nested(depth: int, inner: str = "1") -> str:
    return "[" * depth + inner + "]" * depth


@pytest.mark.parametrize(
    "text",
    [
        _nested(100_000),
        '{"format": "pitch-scorekeeper/collection-1", "games": ' + _nested(100_000) + "}",
        # Deep enough to decode, then to overflow whatever reads or quotes it next.
        *(
            '{"format": "pitch-scorekeeper/collection-1", "games": [{"record": {'
            '"format": "pitch-scorekeeper/1", "variant": "auction-pitch", '
            '"players": ["Ann", "Bob"], "hands": [], "house_rules": {"target": '
            + _nested(depth)
            + "}}}]}"
            for depth in (900, 960, 985, 995)
        ),
        '{"format": ' + _nested(990) + "}",
    ],
    ids=[
        "a-list",
        "the-games",
        "target-900",
        "target-960",
        "target-985",
        "target-995",
        "the-format",
    ],
)
def test_import_all_of_deeply_nested_json_prints_one_line_and_exits_2(
    instance: dict[str, str | None], tmp_path: Path, text: str
) -> None:
    nested = tmp_path / "nested.json"
    nested.write_text(text)
    result = invoke("import-all", str(nested), env=instance, fresh_stack=True)
    assert result.returncode == 2, result.stderr[-300:]
    assert result.stderr.strip().count("\n") == 0, result.stderr[-300:]
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith(("collection: ", "game 1: ")), result.stderr[:200]


@pytest.mark.postgres
@pytest.mark.skipif(not os.environ.get("TEST_DATABASE_URL"), reason="needs TEST_DATABASE_URL")
def test_init_db_names_the_database_without_its_password(
    migrated_postgres: str, tmp_path: Path
) -> None:
    # It printed postgresql+psycopg://scorekeeper:<the password>@..., for anyone at the screen.
    from sqlalchemy.engine import make_url

    password = make_url(migrated_postgres).password
    assert password
    env = {
        "SECRET_KEY": None,
        "DATABASE_URL": os.environ["TEST_DATABASE_URL"],
        "SCOREKEEPER_INSTANCE": str(tmp_path / "i"),
    }
    result = invoke("init-db", env=env)
    assert result.returncode == 0, result.stderr
    assert "Database ready: postgresql+psycopg://" in result.stdout
    assert ":***@" in result.stdout
    assert f":{password}@" not in result.stdout + result.stderr
