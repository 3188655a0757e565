"""The trail: every change kept with who and when, each hand confirmed by the other side, the
result signed and the game locked, the trail carried by a game's export and import, and a
chain that shows a row changed behind the app's back.

Through the real views on a real database (SQLite, and PostgreSQL when TEST_DATABASE_URL
names one); the trail read back through ``operations.trail`` and by SQL."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from pypdf import PdfReader
from sqlalchemy import select, update
from sqlalchemy import text as sql

from scorekeeper import create_app, operations
from scorekeeper.cli.main import main
from scorekeeper.data.database import run, write_transaction
from scorekeeper.data.extensions import db

from .tables import create_game, exported, flashes, hand_form, import_game, text, version_of

PLAYERS = ["Ana", "Bogdan", "Cristi", "Dana"]
TEAMS = ["North-South", "East-West", "North-South", "East-West"]
PASSWORD = "table-secret"
#: The Unicode isolates a printed sheet sets around each name (removed to read the words).
ISOLATES = dict.fromkeys(range(0x2066, 0x206A))


def _game(client: Any, *, confirm: bool = True, target: int = 11) -> int:
    extra: dict[str, Any] = {"stake": "0.25", "target": target}
    if confirm:
        extra["confirm_hands"] = "y"
    return create_game(client, "auction-pitch", PLAYERS, teams=TEAMS, **extra)


def _hand(client: Any, game_id: int, *, device: str | None = None, **points: Any) -> Any:
    taps = {"pitcher": "Ana", "bid": 2, "high": "Ana", "low": "Ana", "jack": "Bogdan"}
    taps["game"] = "Cristi"
    taps.update(points)
    data = hand_form(PLAYERS, teams=TEAMS, version=version_of(client, game_id), **taps)
    if device is not None:
        data["device"] = device
    response = client.post(f"/games/{game_id}", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    return response


def _correct(client: Any, game_id: int, number: int, **points: Any) -> Any:
    taps = {"pitcher": "Ana", "bid": 2, "high": "Ana", "low": "Ana", "jack": "Bogdan"}
    taps["game"] = "Cristi"
    taps.update(points)
    data = hand_form(PLAYERS, teams=TEAMS, version=version_of(client, game_id), **taps)
    return client.post(f"/games/{game_id}/hands/{number}/edit", data=data)


def _trail(app: Any, game_id: int) -> list[operations.trail.Entry]:
    with app.app_context():
        found = operations.trail.entries(operations.loading.load(game_id).row)
        db.session.remove()
    return found


def _answer(client: Any, game_id: int, number: int, name: str, answer: str, **more: str) -> Any:
    return client.post(
        f"/games/{game_id}/hands/{number}/answer", data={"name": name, "answer": answer, **more}
    )


def _without_trail(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k != "trail"}


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None, microsecond=0)


def test_every_kind_of_change_leaves_one_entry_with_its_who_and_when(app: Any, client: Any) -> None:
    started = _now()
    game_id = _game(client)
    _hand(client, game_id, device="Dana's phone")
    _hand(client, game_id, pitcher="Bogdan", high="Bogdan", low="Dana")  # a phone with no label
    assert _correct(client, game_id, 1, jack="Ana").status_code == 302
    assert (
        _answer(client, game_id, 1, "Bogdan", "confirm", device="Bogdan's phone").status_code == 302
    )
    assert _answer(client, game_id, 2, "Ana", "dispute").status_code == 302
    undo = client.post(
        f"/games/{game_id}/undo", data={"number": "2", "version": version_of(client, game_id)}
    )
    assert undo.status_code == 302
    entries = _trail(app, game_id)
    ended = _now() + timedelta(seconds=1)
    assert [(e.kind, e.hand, e.who) for e in entries] == [
        ("recorded", 1, "device:Dana's phone"),
        ("recorded", 2, "phone"),
        ("corrected", 1, "phone"),
        ("confirmed", 1, "player:Bogdan"),
        ("disputed", 2, "player:Ana"),
        ("undone", 2, "phone"),
    ]
    assert all(started <= e.at <= ended for e in entries)
    assert entries[3].detail == {"device": "Bogdan's phone"}
    # The hand before and after, as the game record writes a hand.
    corrected = entries[2]
    assert corrected.before["points"]["jack"] == "Bogdan"
    assert corrected.after["points"]["jack"] == "Ana"
    assert entries[5].before["pitcher"] == "Bogdan" and entries[5].after is None
    # Deleting the game is the last entry; its trail stays with the whole record.
    with app.app_context():
        row = operations.loading.load(game_id).row
        db.session.remove()
    deleted = client.post(f"/games/{game_id}/delete", data={"version": version_of(client, game_id)})
    assert deleted.status_code == 302
    with app.app_context():
        kept = operations.trail.entries(row)
        checks = operations.trail_check.verify(game_id)
        db.session.remove()
    assert [(e.kind, e.who) for e in kept[6:]] == [("deleted", "phone")]
    assert kept[6].before["players"] == PLAYERS and len(kept[6].before["hands"]) == 1
    assert [(c.whole, c.kept, c.entries) for c in checks] == [(True, False, 7)]


def test_a_hand_waits_for_the_other_side_and_a_confirmation_changes_no_score(
    app: Any, client: Any
) -> None:
    game_id = _game(client)
    _hand(client, game_id)
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Hand 1 waits for East-West: confirm or dispute" in text(page)
    before = exported(client, game_id)
    # A player of the pitcher's own side may not confirm it: said, and nothing kept.
    refused = client.get(
        _answer(client, game_id, 1, "Cristi", "confirm").headers["Location"]
    ).get_data(as_text=True)
    assert "Cristi cannot answer for hand 1" in " ".join(flashes(refused))
    assert [e.kind for e in _trail(app, game_id)] == ["recorded"]
    confirmed = _answer(client, game_id, 1, "Dana", "confirm")
    page = client.get(confirmed.headers["Location"]).get_data(as_text=True)
    assert flashes(page) == ["Hand 1 confirmed by Dana."]
    assert "waits for" not in text(page)
    after = exported(client, game_id)
    assert _without_trail(after) == _without_trail(before)
    with app.app_context():
        assert operations.trail.unconfirmed(game_id) == []
        db.session.remove()
    # The next hand saves as ever: the confirmation changed no score.
    _hand(client, game_id, pitcher="Bogdan", high="Bogdan", low="Dana")
    with app.app_context():
        assert operations.trail.unconfirmed(game_id) == [2]
        db.session.remove()


def test_a_disputed_hand_is_marked_on_the_page_the_board_the_hand_and_the_pdf(
    app: Any, client: Any
) -> None:
    game_id = _game(client)
    _hand(client, game_id)
    _hand(client, game_id, pitcher="Bogdan", bid=2, high="Bogdan", low="Dana")
    assert _answer(client, game_id, 2, "Cristi", "dispute").status_code == 302
    page = text(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert (
        "Hand 2 was disputed by Cristi: correct it, or a player of North-South confirms it." in page
    )
    sheet = client.get(f"/games/{game_id}").get_data(as_text=True).split('id="sheet-title"')[1]
    assert 'class="hand disputed' in sheet and 'class="hand-mark disputed"' in sheet
    assert 'class="hand-mark waiting"' in sheet  # hand 1 still waits
    board = text(client.get(f"/games/{game_id}/board").get_data(as_text=True))
    assert "Hand 2 was disputed by Cristi" in board and "Hand 1 waits for East-West" in board
    hand = text(client.get(f"/games/{game_id}/hands/2").get_data(as_text=True))
    assert "Disputed by Cristi at" in hand
    pdf = client.get(f"/games/{game_id}/sheet.pdf")
    assert pdf.status_code == 200
    words = " ".join(page.extract_text() for page in PdfReader(_bytes(pdf)).pages)
    words = " ".join(words.translate(ISOLATES).split())
    assert "Hand 2 (!) was disputed by Cristi" in words
    assert "Hand 1 (?) waits for East-West" in words
    assert "disputed at" in words  # the footnote
    # Corrected, the hand waits again, and the dispute is gone.
    assert (
        _correct(client, game_id, 2, pitcher="Bogdan", high="Bogdan", low="Bogdan").status_code
        == 302
    )
    page = text(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "disputed by" not in page and "Hand 2 waits for North-South" in page


def _bytes(response: Any) -> Any:
    import io

    return io.BytesIO(response.get_data())


def _finished(client: Any) -> int:
    """A game finished in one hand (to 4: a sweep of the four points)."""
    game_id = _game(client, target=4)
    _hand(client, game_id, bid=4, jack="Ana", game="Ana")
    with client.application.app_context():
        assert operations.loading.load(game_id).result.finished
        db.session.remove()
    return game_id


def test_each_side_signs_and_the_signed_game_refuses_a_table_phones_correction(
    app: Any, client: Any
) -> None:
    game_id = _finished(client)
    page = text(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "Sign as Bogdan" in page and "Sign as Ana" in page
    client.post(f"/games/{game_id}/sign", data={"name": "Ana"})
    # Not locked yet: a correction goes through, and the signature given before it no
    # longer counts (it was for the result as it stood).
    assert _correct(client, game_id, 1, bid=4, jack="Ana", game="Ana").status_code == 302
    page = text(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "Sign as Ana" in page and "Sign as Cristi" in page
    client.post(f"/games/{game_id}/sign", data={"name": "Cristi"})
    locked = client.post(f"/games/{game_id}/sign", data={"name": "Dana"})
    page = client.get(locked.headers["Location"]).get_data(as_text=True)
    assert flashes(page)[-1] == "Signed by every side: the game is locked."
    assert "Signed by every side at" in text(page)
    before = exported(client, game_id)
    refused = _correct(client, game_id, 1, jack="Dana")
    assert refused.status_code == 403
    assert "was signed by every side" in text(refused.get_data(as_text=True))
    assert "only the organiser can correct, undo or delete it" in text(
        refused.get_data(as_text=True)
    )
    undo = client.post(
        f"/games/{game_id}/undo", data={"number": "1", "version": version_of(client, game_id)}
    )
    assert undo.status_code == 403
    gone = client.post(f"/games/{game_id}/delete", data={"version": version_of(client, game_id)})
    assert gone.status_code == 403
    assert _without_trail(exported(client, game_id)) == _without_trail(before)
    kinds = [(e.kind, e.who) for e in _trail(app, game_id)]
    assert kinds[-4:] == [
        ("corrected", "phone"),
        ("signed", "player:Cristi"),
        ("signed", "player:Dana"),
        ("locked", "player:Dana"),
    ]


def test_the_organiser_corrects_a_signed_game_and_the_trail_keeps_before_and_after(
    app: Any, client: Any
) -> None:
    app.config["ORGANISER_PASSWORD"] = PASSWORD
    assert client.post("/login", data={"password": PASSWORD}).status_code == 302
    game_id = _finished(client)
    # A player's own phone, not logged in, still signs (it changes no score).
    phone = app.test_client()
    for name in ("Ana", "Bogdan"):
        assert phone.post(f"/games/{game_id}/sign", data={"name": name}).status_code == 302
    # ... but corrects nothing: that needs the organiser's login.
    assert "/login" in _correct(phone, game_id, 1, jack="Bogdan").headers["Location"]
    corrected = _correct(client, game_id, 1, bid=4, jack="Bogdan", game="Ana")
    assert corrected.status_code == 302
    last = _trail(app, game_id)[-1]
    assert (last.kind, last.who, last.hand) == ("corrected", "organiser", 1)
    assert last.before["points"]["jack"] == "Ana" and last.after["points"]["jack"] == "Bogdan"
    assert last.detail["signed"] is True
    hand = text(client.get(f"/games/{game_id}/hands/1").get_data(as_text=True))
    # A point in partnership play is said by team.
    assert "corrected at" in hand and "by the organiser: Jack North-South → East-West;" in hand
    assert "the game is no longer won" in hand
    assert "(after the game was signed)" in hand
    with app.app_context():
        assert operations.loading.load(game_id).row.signed_at is not None  # still locked
        db.session.remove()
    client.post(f"/games/{game_id}/unlock")
    assert _trail(app, game_id)[-1].kind == "unlocked"


def test_the_trail_round_trips_through_export_and_import(app: Any, client: Any) -> None:
    game_id = _game(client)
    _hand(client, game_id, device="Dana's phone")
    _correct(client, game_id, 1, jack="Ana")
    _answer(client, game_id, 1, "Dana", "confirm")
    record = exported(client, game_id)
    assert record["trail"]["confirm_hands"] is True
    assert [e["kind"] for e in record["trail"]["entries"]] == ["recorded", "corrected", "confirmed"]
    copy = import_game(client, record)
    again = exported(client, copy)
    assert again == record
    with app.app_context():
        assert [c.whole for c in operations.trail_check.verify(copy)] == [True]
        db.session.remove()
    # Scoring ignores it: the same record without its trail scores the same.
    plain = import_game(client, _without_trail(record))
    assert _without_trail(exported(client, plain)) == _without_trail(record)
    assert "trail" not in exported(client, plain)


def test_a_trail_shaped_wrong_is_refused_and_nothing_is_imported(app: Any, client: Any) -> None:
    game_id = _game(client)
    _hand(client, game_id)
    record = exported(client, game_id)
    record["trail"]["entries"][0]["kind"] = "rewritten"
    # The same game as one kept, so asked for again (?again=), as a person would.
    response = client.post(f"/games/import?again={game_id}", json=record)
    assert response.status_code == 400
    assert "trail.entries[1]" in response.get_json()["error"]


def _cli(*args: str, instance: Path, database: str) -> Any:
    env = {"SCOREKEEPER_INSTANCE": str(instance), "DATABASE_URL": database, "LANG": "C"}
    return CliRunner(env=env).invoke(main, list(args), catch_exceptions=False)


def test_verify_passes_untouched_and_names_the_entry_changed_behind_the_apps_back(
    app: Any, client: Any, database_url: str, tmp_path: Path
) -> None:
    game_id = _game(client)
    _hand(client, game_id)
    _hand(client, game_id, pitcher="Bogdan", high="Bogdan", low="Dana")
    _correct(client, game_id, 1, jack="Ana")
    url = database_url.replace("postgresql://", "postgresql+psycopg://", 1)
    whole = _cli("verify", instance=tmp_path / "i", database=url)
    assert whole.exit_code == 0, whole.output
    assert whole.output.splitlines() == [f"Game {game_id}: the trail is whole (3 entries)."]
    page = text(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "The trail of changes is whole" in page
    # Someone with the database file makes hand 1's correction say Bogdan took the jack.
    with app.app_context(), db.engine.begin() as connection:
        connection.execute(
            sql("UPDATE change SET who = 'organiser' WHERE game_id = :g AND seq = 3"),
            {"g": game_id},
        )
    broken = _cli("verify", str(game_id), instance=tmp_path / "i", database=url)
    assert broken.exit_code == 1
    assert broken.output.splitlines() == [
        f"Game {game_id}: the trail is broken at entry 3 (corrected, hand 1): it was changed "
        "outside the app."
    ]
    page = text(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "The trail of changes is broken at entry 3" in page


def test_a_page_seen_before_still_shows_a_hand_rewritten_behind_the_apps_back(
    app: Any, client: Any
) -> None:
    """Entries a page read before are kept by what their rows hold: a hand's saved words
    changed afterwards, its hash left as it was, are read and checked afresh."""
    game_id = _game(client)
    _hand(client, game_id)
    _hand(client, game_id, pitcher="Bogdan", high="Bogdan", low="Dana")
    page = text(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "The trail of changes is whole" in page
    change = db.metadata.tables["change"]
    with app.app_context(), write_transaction():
        wanted = (change.c.game_id == game_id) & (change.c.seq == 2)
        after = run(select(change.c.after).where(wanted)).scalar_one()
        assert after["points"]["low"] != "Ana"
        rewritten = {**after, "points": {**after["points"], "low": "Ana"}}
        run(update(change).where(wanted).values(after=rewritten))
    page = text(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "The trail of changes is broken at entry 2" in page


def test_the_trail_round_trips_through_export_all_and_import_all(
    app: Any, client: Any, database_url: str, tmp_path: Path, migrated_sqlite: Path
) -> None:
    game_id = _finished(client)
    for name in ("Ana", "Bogdan"):
        client.post(f"/games/{game_id}/sign", data={"name": name})
    record = exported(client, game_id)
    source = database_url.replace("postgresql://", "postgresql+psycopg://", 1)
    file = tmp_path / "all.json"
    assert _cli("export-all", str(file), instance=tmp_path / "a", database=source).exit_code == 0
    collection = json.loads(file.read_text())
    assert collection["games"][0]["record"]["trail"] == record["trail"]
    folder = tmp_path / "b"
    folder.mkdir()
    empty = folder / "scorekeeper.sqlite3"
    empty.write_bytes(migrated_sqlite.read_bytes())
    target = f"sqlite:///{empty}"
    imported = _cli("import-all", str(file), instance=folder, database=target)
    assert imported.exit_code == 0, imported.output
    other = create_app({"SQLALCHEMY_DATABASE_URI": target, "SECRET_KEY": "t", "TESTING": True})
    with other.app_context():
        loaded = operations.loading.load(1)
        assert operations.loading.export_record(loaded)["trail"] == record["trail"]
        assert loaded.row.signed_at is not None  # still locked
        assert [c.whole for c in operations.trail_check.verify()] == [True]
        db.engine.dispose()
    checked = _cli("verify", instance=folder, database=target)
    assert checked.output.splitlines() == ["Game 1: the trail is whole (4 entries)."]


def test_a_settlement_moved_by_a_change_is_said_payer_by_payer(app: Any) -> None:
    from scorekeeper.sheets.trail import settlement_changes

    def paid(*payments: tuple[str, str, int, str]) -> dict[str, Any]:
        return {
            "units": {},
            "payments": [{"from": f, "to": t, "units": u, "amount": a} for f, t, u, a in payments],
        }

    moved = {
        "settlement": {
            "before": paid(("Cristi", "Ana", 1, "0.25"), ("Dana", "Ana", 1, "0.25")),
            "after": paid(("Cristi", "Ana", 2, "0.50"), ("Dana", "Ana", 1, "0.25")),
        }
    }
    with app.test_request_context():
        assert settlement_changes(moved) == "the settlement changed: Cristi pays 0.50, not 0.25"
        assert (
            settlement_changes(
                {"settlement": {"before": None, "after": paid(("Cristi", "Ana", 1, "0.25"))}}
            )
            == "the game is now won: Cristi pays 0.25"
        )
        assert settlement_changes({"signed": True}) is None


def test_a_database_from_before_the_trail_upgrades_and_its_games_play_on(app: Any) -> None:
    from flask_migrate import downgrade, upgrade

    from scorekeeper import rules
    from scorekeeper.data.database import migrations_directory

    with app.app_context():
        game_id = operations.games.create_game(rules.Game.create("auction-pitch", PLAYERS))
        for pitcher in ("Ana", "Bogdan"):
            hand = rules.Hand(
                pitcher=pitcher,
                bid=2,
                points={"high": pitcher, "low": pitcher, "jack": None, "game": "Cristi"},
            )
            operations.hands.record_hand(game_id, hand, version=None)
        db.session.remove()
        downgrade(directory=migrations_directory(), revision="f2b8d4a6c1e3")
        inspector = db.inspect(db.engine)
        assert "change" not in inspector.get_table_names()
        assert "score_version" not in {c["name"] for c in inspector.get_columns("game")}
        with db.engine.begin() as connection:
            old_version = connection.execute(
                sql("SELECT version FROM game WHERE id = :g"), {"g": game_id}
            ).scalar_one()
        upgrade(directory=migrations_directory())
        db.session.remove()
        row = operations.loading.load(game_id).row
        assert (row.version, row.score_version, row.confirm_hands, row.signed_at) == (
            old_version,
            old_version,
            False,
            None,
        )
        assert operations.trail.entries(row) == []  # its trail starts with its next change
        hand = rules.Hand(
            pitcher="Cristi",
            bid=2,
            points={"high": "Cristi", "low": "Cristi", "jack": None, "game": "Dana"},
        )
        # A form opened before the upgrade (the old version) still saves.
        operations.hands.record_hand(game_id, hand, version=old_version)
        entries = operations.trail.entries(operations.loading.load(game_id).row)
        assert [(e.seq, e.kind, e.hand) for e in entries] == [(1, "recorded", 3)]
        assert [c.whole for c in operations.trail_check.verify(game_id)] == [True]
        db.session.remove()


def test_a_correction_that_moves_the_win_earlier_keeps_each_hand_it_removes(
    app: Any, client: Any
) -> None:
    from scorekeeper import rules

    from .tables import ap_hand, record

    hands = [
        ap_hand("Ana", 3, "Ana", "Ana", None, "Ana"),
        ap_hand("Ana", 3, "Ana", "Ana", None, "Ana"),
        ap_hand("Bogdan", 2, "Bogdan", "Bogdan", None, "Cristi"),
        ap_hand("Cristi", 2, "Cristi", "Cristi", None, "Dana"),
        ap_hand("Ana", 4, "Ana", "Ana", "Ana", "Ana"),
    ]
    game_id = import_game(client, record("auction-pitch", PLAYERS, hands))
    jack_to_ana = rules.Hand(
        pitcher="Bogdan",
        bid=2,
        points={"high": "Bogdan", "low": "Bogdan", "jack": "Ana", "game": "Ana"},
    )
    with app.app_context(), operations.trail.acting(operations.trail.ORGANISER):
        operations.hands.replace_hand(game_id, 3, jack_to_ana, version=None, cut_after=3)
        db.session.remove()
    entries = _trail(app, game_id)
    assert [(e.kind, e.hand, e.who) for e in entries] == [
        ("corrected", 3, "organiser"),
        ("removed", 4, "organiser"),
        ("removed", 5, "organiser"),
    ]
    assert entries[1].before["pitcher"] == "Cristi" and entries[2].before["bid"] == 4
    hand = text(client.get(f"/games/{game_id}/hands/3").get_data(as_text=True))
    assert "by the organiser: Jack nobody → Ana; Game Cristi → Ana" in hand
