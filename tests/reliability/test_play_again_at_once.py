""" "Play again" tapped on several phones at once starts one next game, and every phone lands
on it: threads of one served process, the operation itself from threads, and several server
processes on one database, on SQLite and on PostgreSQL."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path
from typing import Any

from sqlalchemy import func, select

from scorekeeper import operations, rules
from scorekeeper.data import models
from scorekeeper.data.extensions import db

from .conftest import at_once
from .test_hand_keys import Phone, _server_processes

#: Phones tapping "Yes, start the next game" at once.
TAPS = 8


def _finished_game(app: Any) -> int:
    """Ana and Bogdan, Ana dealing first; Bogdan smudges in hand 1, so Bogdan deals next."""
    everything = dict.fromkeys(("high", "low", "jack", "game"), "Bogdan")
    record = rules.parse_record(
        {
            "format": rules.FORMAT,
            "variant": "auction-pitch",
            "players": ["Ana", "Bogdan"],
            "hands": [{"pitcher": "Bogdan", "bid": 4, "points": everything}],
        }
    )
    with app.app_context():
        try:
            game_id = operations.games.import_record(record)
        except operations.errors.AlreadyKept as same:  # a test before played it: again
            game_id = operations.games.import_record(record, again=same.params["id"])
        db.session.remove()
    return game_id


def _games(app: Any) -> int:
    with app.app_context():
        count = db.session.execute(select(func.count()).select_from(models.Game)).scalar_one()
        db.session.remove()
    return int(count)


def _question(phone: Phone, game_id: int) -> dict[str, str]:
    """Open "Play again" on a phone: the question's hidden fields (CSRF token, version)."""
    status, _, html = phone.request("GET", f"/games/{game_id}/again")
    assert status == 200, html
    return {
        name: unescape(value)
        for name, value in re.findall(r'name="(csrf_token|version)" value="([^"]*)"', html)
    }


def _tap_yes(phone: Phone, game_id: int, form: dict[str, str]) -> tuple[int, str]:
    """Post the question's form; follow to the page it sends to; return where and what it says."""
    status, location, _ = phone.request("POST", f"/games/{game_id}/again", form)
    assert status == 302, status
    status, _, html = phone.request("GET", location)
    assert status == 200, status
    said = re.findall(r'<p class="flash[^"]*">(.*?)</p>', html, re.S)
    return int(location.rsplit("/", 1)[1]), " ".join(unescape(" ".join(said)).split())


def _tap_at_once(app: Any, ports: list[int]) -> None:
    game_id = _finished_game(app)
    before = _games(app)
    phones = [Phone(ports[i % len(ports)]) for i in range(TAPS)]
    forms = [_question(phone, game_id) for phone in phones]
    answers = at_once(
        *[lambda p=p, f=f: _tap_yes(p, game_id, f) for p, f in zip(phones, forms, strict=True)]
    )
    assert _games(app) == before + 1
    landed = {where for where, _ in answers}
    assert len(landed) == 1, answers
    (next_id,) = landed
    said = sorted(words for _, words in answers)
    assert said == [f"Game {next_id} started: the same table, Bogdan deals first."] + [
        f"The next game was already started from that one: this is it, game {next_id}."
    ] * (TAPS - 1)
    with app.app_context():
        assert operations.loading.load(game_id).row.next_game_id == next_id
        assert operations.loading.load(next_id).game.first_dealer == "Bogdan"
        db.session.remove()


def test_taps_at_once_on_one_server_start_one_next_game_and_all_land_on_it(
    app: Any, served: Any
) -> None:
    app.config["WTF_CSRF_ENABLED"] = True
    for _ in range(3):
        _tap_at_once(app, [served.port])


def test_taps_at_once_on_several_server_processes_start_one_next_game(
    app: Any, database_url: str, tmp_path: Path
) -> None:
    with _server_processes(database_url, tmp_path, 3) as ports:
        for _ in range(2):
            _tap_at_once(app, ports)


def test_the_operation_called_from_threads_at_once_starts_one_game(app: Any) -> None:
    game_id = _finished_game(app)
    with app.app_context():
        version = operations.loading.load(game_id).row.version
        db.session.remove()

    def play_again() -> operations.games.NextGame:
        with app.app_context():
            try:
                return operations.games.play_again(game_id, version=version)
            finally:
                db.session.remove()

    found = at_once(*[play_again] * TAPS)
    assert len({f.id for f in found}) == 1
    assert sorted(f.started for f in found) == [False] * (TAPS - 1) + [True]
    assert _games(app) == 2


# --- The migration ------------------------------------------------------------------------------


def test_the_migration_down_and_up_keeps_every_game_and_play_again_works_after(app: Any) -> None:
    from flask_migrate import downgrade, upgrade

    from scorekeeper.data.database import migrations_directory

    game_id = _finished_game(app)
    with app.app_context():
        first = operations.games.play_again(game_id, version=None)
        db.session.remove()
        downgrade(directory=migrations_directory(), revision="b7e3f1a9c5d2")
        columns = {c["name"] for c in db.inspect(db.engine).get_columns("game")}
        assert "next_game_id" not in columns
        assert _games(app) == 2  # dropping the column dropped no game (nor its seats)
        upgrade(directory=migrations_directory())
        db.session.remove()
    assert _games(app) == 2
    with app.app_context():
        assert operations.loading.load(game_id).row.next_game_id is None  # the link went with it
        again = operations.games.play_again(game_id, version=None)
        assert again.started and again.id != first.id
        assert operations.loading.load(game_id).row.next_game_id == again.id
        assert len(operations.loading.load(first.id).game.players) == 2
        db.session.remove()
