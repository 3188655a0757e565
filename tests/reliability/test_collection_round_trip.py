"""Moving the whole collection to a new machine keeps everything it had: every game, night,
saved rule set and "Play again" link comes through export-all → import-all, byte for byte
after a second round trip; and running import-all again adds nothing."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from builders import config_for
from click.testing import CliRunner
from sqlalchemy import func, select

from scorekeeper import create_app, operations, rules
from scorekeeper.cli.main import main
from scorekeeper.data import models
from scorekeeper.data.extensions import db

SWEEP = {"high": "Ann", "low": "Ann", "jack": "Ann", "game": "Ann"}


def _table(app: Any) -> dict[str, int]:
    """A collection with all there is to move: three saved sets (one of a table's own point
    order), a night, a finished game played again twice over (a chain of links), a rematch
    with changes, and a game in no night."""
    with app.app_context():
        night = operations.nights.start_night("Thursday", "Zoë's", date(2026, 11, 26))
        first = operations.games.create_game(
            rules.Game.create(
                "auction-pitch",
                ["Ann", "Bob", "Cy"],
                house_rules={"target": 1, "points": ["high", "low", "jack", "off_jack", "game"]},
            ),
            rule_set_name="Thursday rules",
            night_id=night,
        )
        operations.games.create_game(
            rules.Game.create("joker-pitch", ["Ann", "Bob"], house_rules={"target": 15}),
            rule_set_name="Joker Thursdays",
        )
        operations.games.create_game(
            rules.Game.create("pitch-six", ["Ann", "Bob", "Cy"], house_rules={"gap": 0}),
            rule_set_name="Pitch Six, no gap",
        )
        points = dict(SWEEP, off_jack=None)
        operations.hands.record_hand(
            first, rules.Hand(pitcher="Ann", bid=2, points=points), version=0
        )
        second = operations.games.play_again(first, version=1).id
        operations.hands.record_hand(
            second, rules.Hand(pitcher="Ann", bid=2, points=points), version=0
        )
        third = operations.games.play_again(second, version=1).id
        return {"first": first, "second": second, "third": third, "night": night}


def _run(*args: str, instance: Path, database: str) -> Any:
    env = {"SCOREKEEPER_INSTANCE": str(instance), "DATABASE_URL": database, "LANG": "C"}
    return CliRunner(env=env).invoke(main, list(args), catch_exceptions=False)


def _fresh(migrated_sqlite: Path, folder: Path) -> tuple[Path, str]:
    folder.mkdir()
    database = folder / "scorekeeper.sqlite3"
    database.write_bytes(migrated_sqlite.read_bytes())
    return folder, f"sqlite:///{database}"


def _counts(database: str) -> dict[str, int]:
    app = create_app(config_for(database))
    with app.app_context():
        counts = {
            table.__tablename__: db.session.execute(
                select(func.count()).select_from(table)
            ).scalar_one()
            for table in (models.Game, models.Hand, models.Night, models.RuleSet, models.Player)
        }
        db.engine.dispose()
    return counts


def test_export_all_import_all_brings_back_every_saved_set_and_play_again_link_byte_for_byte(
    app: Any, database_url: str, tmp_path: Path, migrated_sqlite: Path
) -> None:
    ids = _table(app)
    source = database_url.replace("postgresql://", "postgresql+psycopg://", 1)
    first_file, second_file, third_file = (tmp_path / f"{n}.json" for n in ("a", "b", "c"))
    assert (
        _run("export-all", str(first_file), instance=tmp_path / "a", database=source).exit_code == 0
    )
    exported = json.loads(first_file.read_text())
    assert exported["format"] == "pitch-scorekeeper/collection-3"
    assert [(r["name"], r["variant"], r["house_rules"]) for r in exported["rule_sets"]] == [
        (
            "Thursday rules",
            "auction-pitch",
            {"target": 1, "points": ["high", "low", "jack", "off_jack", "game"]},
        ),
        ("Joker Thursdays", "joker-pitch", {"target": 15}),
        ("Pitch Six, no gap", "pitch-six", {"gap": 0}),
    ]
    # The Play-again chain, by place in the file: game 1 → 4 → 5.
    assert [g.get("next_game") for g in exported["games"]] == [4, None, None, 5, None]
    assert exported["nights"][0]["games"] == [1, 4, 5]

    folder, empty = _fresh(migrated_sqlite, tmp_path / "b")
    imported = _run("import-all", str(first_file), instance=folder, database=empty)
    assert imported.exit_code == 0, imported.output
    assert imported.stdout.splitlines() == [
        "Imported 5 games.",
        "Imported 1 game night.",
        "Imported 3 sets of saved house rules.",
    ]
    _run("export-all", str(second_file), instance=folder, database=empty)
    folder_c, other = _fresh(migrated_sqlite, tmp_path / "c")
    _run("import-all", str(second_file), instance=folder_c, database=other)
    _run("export-all", str(third_file), instance=folder_c, database=other)
    assert second_file.read_bytes() == third_file.read_bytes()
    assert second_file.read_bytes() == first_file.read_bytes()

    # The links work on the new machine: Play again on the first game lands on the second.
    moved = create_app(config_for(empty))
    with moved.app_context():
        first = operations.loading.load(1)
        assert first.row.next_game_id == 4
        assert operations.games.play_again(1, version=first.row.version).started is False
        assert [r.name for r in operations.rule_sets.rule_sets()] == [
            "Joker Thursdays",
            "Pitch Six, no gap",
            "Thursday rules",
        ]
        db.engine.dispose()
    assert ids["third"] > ids["second"] > ids["first"]


def test_import_all_of_the_same_file_twice_adds_nothing_the_second_time(
    app: Any, database_url: str, tmp_path: Path, migrated_sqlite: Path
) -> None:
    _table(app)
    source = database_url.replace("postgresql://", "postgresql+psycopg://", 1)
    exported = tmp_path / "games.json"
    _run("export-all", str(exported), instance=tmp_path / "a", database=source)
    folder, target = _fresh(migrated_sqlite, tmp_path / "b")
    assert _run("import-all", str(exported), instance=folder, database=target).exit_code == 0
    before = _counts(target)
    again = _run("import-all", str(exported), instance=folder, database=target)
    assert again.exit_code == 0
    assert again.stdout.splitlines() == [
        "Imported 0 games.",
        "Already in this database, so left out: 5 games, 1 game night, "
        "3 sets of saved house rules.",
    ]
    assert _counts(target) == before
    # Into the database it came from, too: everything there is there already.
    into_source = _run("import-all", str(exported), instance=tmp_path / "a", database=source)
    assert into_source.stdout.splitlines()[0] == "Imported 0 games."


def test_a_saved_set_of_a_name_here_keeps_this_databases_rules_and_says_so(
    app: Any, tmp_path: Path, migrated_sqlite: Path
) -> None:
    folder, target = _fresh(migrated_sqlite, tmp_path / "b")
    other = create_app(config_for(target))
    with other.app_context():
        operations.games.create_game(
            rules.Game.create("auction-pitch", ["Ann", "Bob"], house_rules={"target": 21}),
            rule_set_name="thursday rules",
        )
        db.engine.dispose()
    _table(app)
    with app.app_context():
        from scorekeeper.cli.backup import export_collection

        document = export_collection()
    exported = tmp_path / "games.json"
    exported.write_text(json.dumps(document))
    result = _run("import-all", str(exported), instance=folder, database=target)
    assert result.exit_code == 0
    assert (
        "The saved house rules “Thursday rules” kept this database's rules: a set of that name "
        "is saved here with other rules."
    ) in result.stdout
    with other.app_context():
        kept = operations.rule_sets.named("Thursday rules")
        assert kept is not None and (kept.name, kept.house_rules) == (
            "thursday rules",
            {"target": 21},
        )
        db.engine.dispose()


@pytest.mark.parametrize(
    ("entry", "said"),
    [
        ({"name": "X", "variant": "bridge"}, 'rule set 1.variant: unknown variant "bridge"'),
        ({"name": " X", "variant": "pedro"}, 'rule set 1.name: " X" has leading or trailing'),
        (
            {"name": "X", "variant": "pedro", "house_rules": {"target": 0}},
            "rule set 1.house_rules.target: target must be a whole number of at least 1",
        ),
        ({"variant": "pedro"}, 'rule set 1: required key "name" is missing'),
        ({"name": "X", "variant": "pedro", "colour": 1}, 'rule set 1: unknown key "colour"'),
    ],
)
def test_import_all_refuses_a_bad_saved_set_on_one_line_and_adds_nothing(
    app: Any, entry: dict[str, Any], said: str
) -> None:
    from scorekeeper.cli.backup import export_collection, import_collection

    document = {"format": "pitch-scorekeeper/collection-3", "games": [], "rule_sets": [entry]}
    with app.app_context():
        with pytest.raises(rules.RuleError) as error:
            import_collection(json.dumps(document))
        assert str(error.value).startswith(said)
        assert export_collection()["rule_sets"] == []


def test_import_all_refuses_a_next_game_that_is_not_a_game_of_the_file(app: Any) -> None:
    from scorekeeper.cli.backup import import_collection

    record = {"format": rules.FORMAT, "variant": "pedro", "players": ["Ann", "Bob"], "hands": []}
    document = {
        "format": "pitch-scorekeeper/collection-3",
        "games": [{"record": record, "next_game": 2}],
    }
    with app.app_context(), pytest.raises(rules.RuleError) as error:
        import_collection(json.dumps(document))
    assert str(error.value) == "game 1.next_game: must be the number of a game of this file, not 2"
