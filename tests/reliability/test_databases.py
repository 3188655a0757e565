"""The database: real migrations, WAL and foreign keys on SQLite, and PostgreSQL when given."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import func, select, text

from scorekeeper import operations, rules
from scorekeeper.data import models
from scorekeeper.data.extensions import db


def _new_game(names: tuple[str, ...] = ("Ann", "Bob", "Cy")) -> int:
    return operations.games.create_game(rules.Game.create("auction-pitch", names))


def test_migrations_create_every_table_the_models_declare(app: Any) -> None:
    with app.app_context():
        inspector = db.inspect(db.engine)
        tables = set(inspector.get_table_names())
    assert {t.name for t in db.metadata.sorted_tables} <= tables
    assert "alembic_version" in tables


def test_migrations_create_every_column_the_models_declare(app: Any) -> None:
    with app.app_context():
        inspector = db.inspect(db.engine)
        for table in db.metadata.sorted_tables:
            columns = {c["name"] for c in inspector.get_columns(table.name)}
            assert {c.name for c in table.columns} <= columns, table.name


def test_a_hands_game_count_is_stored_by_seat_and_read_back_by_name(app: Any) -> None:
    counts = {"Ann": 12, "Bob": 9, "Cy": 4, "Dee": 30}
    points = dict(zip(rules.find_variant("ten-point").point_keys, "BCDBADBD", strict=True))
    names = dict(zip("ABCD", counts, strict=True))
    hand = rules.Hand(
        pitcher="Bob", bid=5, points={k: names[v] for k, v in points.items()}, game_count=counts
    )
    with app.app_context():
        game_id = operations.games.create_game(
            rules.Game.create(
                "ten-point", tuple(counts), teams={"NS": ["Ann", "Cy"], "EW": ["Bob", "Dee"]}
            )
        )
        operations.hands.record_hand(game_id, hand, version=None)
        stored = db.session.execute(select(models.Hand.game_count)).scalar_one()
        assert stored == [12, 9, 4, 30]
        # Read back from the table, as a game not kept in memory is replayed.
        (row,) = operations.loading._stored_hands([game_id])[game_id]
        assert operations.rows.engine_hand(row, tuple(counts)).game_count == counts


def test_sqlite_runs_in_wal_mode_with_foreign_keys_on(app: Any) -> None:
    with app.app_context():
        if db.engine.dialect.name != "sqlite":
            return
        with db.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1


def test_a_database_servers_connections_are_checked_before_use_a_files_are_not(
    app: Any,
) -> None:
    """A pooled PostgreSQL connection may have been dropped by a restart; a SQLite file's
    cannot, and checking it would be a query more on every request."""
    with app.app_context():
        checked = db.engine.pool._pre_ping
        assert checked is (db.engine.dialect.name != "sqlite")
    from scorekeeper import config

    url = "postgresql+psycopg://u@db/x"
    assert config.engine_options(url, {})["pool_pre_ping"] is True
    assert config.engine_options(url, {"pool_pre_ping": False})["pool_pre_ping"] is False
    assert "pool_pre_ping" not in config.engine_options("sqlite:///x.sqlite3", {})


def test_a_hand_that_breaks_a_rule_writes_nothing(app: Any) -> None:
    with app.app_context():
        game_id = _new_game()
        bad = rules.Hand(
            pitcher="Bob", bid=9, points={"high": "Bob", "low": "Bob", "jack": None, "game": "Bob"}
        )
        before = db.session.execute(select(models.Game.version)).scalar_one()
        try:
            operations.hands.record_hand(game_id, bad, version=before)
        except rules.RuleError as error:
            assert error.code == "bid-above-max"
        else:
            raise AssertionError("a bid of 9 was accepted")
        assert db.session.execute(select(func.count()).select_from(models.Hand)).scalar_one() == 0
        assert db.session.execute(select(models.Game.version)).scalar_one() == before


def test_deleting_a_game_deletes_its_seats_and_hands_but_keeps_the_players(app: Any) -> None:
    with app.app_context():
        game_id = _new_game()
        hand = rules.Hand(
            pitcher="Bob", bid=2, points={"high": "Bob", "low": "Ann", "jack": None, "game": "Bob"}
        )
        operations.hands.record_hand(game_id, hand, version=None)
        operations.games.delete_game(game_id)
        counts = {
            table: db.session.execute(text(f"SELECT count(*) FROM {table}")).scalar_one()
            for table in ("game", "seat", "hand", "player")
        }
    assert counts == {"game": 0, "seat": 0, "hand": 0, "player": 3}


def test_a_nul_character_in_a_form_is_refused_before_any_database_sees_it(
    app: Any, client: Any
) -> None:
    with app.app_context():
        game_id = _new_game()
    form = {
        "version": "0",
        "token": "a\x00b",
        "save": "1",
        "pitcher": "1",
        "bid": "2",
        "point_high": "1",
        "point_low": "1",
        "point_jack": "nobody",
        "point_game": "0",
    }
    response = client.post(f"/games/{game_id}", data=form)
    assert response.status_code == 400
    assert "NUL character" in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.execute(select(func.count()).select_from(models.Hand)).scalar_one() == 0


def test_a_note_with_a_control_character_is_refused_but_line_breaks_are_kept() -> None:
    game = rules.Game.create("auction-pitch", ["Ann", "Bob"])
    points = {"high": "Bob", "low": "Bob", "jack": None, "game": "Ann"}
    kept = rules.score_game(game, [rules.Hand("Bob", 2, points, note="first line\nsecond")])
    assert kept.hands[0].hand.note == "first line\nsecond"
    try:
        rules.score_game(game, [rules.Hand("Bob", 2, points, note="bell\x07")])
    except rules.RuleError as error:
        assert (error.code, error.hand, error.field) == ("note-control", 1, "note")
        assert str(error).startswith("hand 1: the note contains a control character")
    else:
        raise AssertionError("a note with a control character was accepted")


def _counts() -> dict[str, int]:
    return {
        table: db.session.execute(text(f"SELECT count(*) FROM {table}")).scalar_one()
        for table in ("game", "seat", "hand", "player")
    }


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (b"note=%FF%FE", "note"),  # percent-escaped bytes that are not UTF-8
        (b"note=ok%C3", "note"),  # a sequence cut short
        (b"note=\xff\xfe", "note"),  # raw bytes in the body
        (b"%FFnote=x", "\ufffdnote"),  # in a field's name
    ],
    ids=["escaped", "cut-short", "raw", "in-the-name"],
)
def test_invalid_utf8_in_a_hand_form_is_refused_naming_the_field_and_saves_nothing(
    app: Any, client: Any, body: bytes, field: str
) -> None:
    with app.app_context():
        game_id = _new_game()
    form = (
        b"version=0&token=t1&save=1&pitcher=1&bid=2&point_high=1&point_low=1"
        b"&point_jack=nobody&point_game=0&"
    )
    response = client.post(
        f"/games/{game_id}", data=form + body, content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert f"The field &#34;{field}&#34; is not valid text (UTF-8)" in page, page[-800:]
    with app.app_context():
        assert db.session.execute(select(func.count()).select_from(models.Hand)).scalar_one() == 0


def test_invalid_utf8_in_a_new_game_or_an_imported_record_changes_nothing(
    app: Any, client: Any
) -> None:
    with app.app_context():
        before = _counts()
    setup = (
        b"name_0=%FF%FE&name_1=Bob&first_dealer=0&target=7&low_to=holder&smudge=not-in-hole"
        b"&all_pass=dealer-takes&payout_in_hole=2&payout_per_setback=0"
    )
    response = client.post(
        "/games/new/auction-pitch", data=setup, content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 400
    assert "The field &#34;name_0&#34; is not valid text" in response.get_data(as_text=True)
    upload = (
        b'--x\r\nContent-Disposition: form-data; name="record_text"\r\n\r\n'
        b'{"format": "pitch-scorekeeper/1", "variant": "auction-pitch", '
        b'"players": ["\xff\xfe", "Bob"], "hands": []}\r\n--x--\r\n'
    )
    response = client.post(
        "/games/import", data=upload, content_type="multipart/form-data; boundary=x"
    )
    assert response.status_code == 400
    assert "The field &#34;record_text&#34; is not valid text" in response.get_data(as_text=True)
    with app.app_context():
        assert _counts() == before


def test_invalid_utf8_in_a_query_is_refused_and_valid_text_is_not(client: Any) -> None:
    refused = client.get("/history?player=%FF")
    assert refused.status_code == 400
    assert "The field &#34;player&#34; is not valid text" in refused.get_data(as_text=True)
    # Anș is valid text: the history looks for her (and says nobody of that name played).
    assert "not valid text" not in client.get("/history?player=An%C8%99").get_data(as_text=True)
