"""An organiser login lasts only while the password it was made with does, and until a logout.

And the login's rate limit counts an attempt before the slow hash is checked, so many
wrong passwords sent at once get no more checks than sent one by one.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from builders import ap_form
from click.testing import CliRunner
from werkzeug.security import generate_password_hash

from scorekeeper import operations, rules
from scorekeeper.auth.access import password_hash_path
from scorekeeper.cli.main import main

from .conftest import Served

FIRST, SECOND = "cards-on-the-table", "new-deck-tonight"
COOKIE = "scorekeeper_session"


@pytest.fixture
def game_id(app: Any) -> int:
    with app.app_context():
        return operations.games.create_game(rules.Game.create("auction-pitch", ["Ann", "Bob"]))


def _set_password(runner: Any, password: str) -> None:
    """Run ``scorekeeper set-password`` (on the app's instance folder, from the environment)."""
    result = CliRunner().invoke(main, ["set-password", "--password", password])
    assert result.exit_code == 0, result.output


def _hand(version: int) -> dict[str, str]:
    return {
        **ap_form(["Ann", "Bob"], "Ann", 2, "Ann", "Ann", None, "Bob", version=version),
        "save": "1",
    }


def _hands(client: Any, game_id: int) -> int:
    return len(client.get(f"/games/{game_id}.json").get_json()["hands"])


def _logged_in(app: Any, password: str) -> Any:
    client = app.test_client()
    assert client.post("/login", data={"password": password}).status_code == 302
    return client


def _copy(app: Any, client: Any) -> Any:
    """A second browser holding a copy of ``client``'s session cookie."""
    cookie = client.get_cookie(COOKIE)
    assert cookie is not None
    other = app.test_client()
    other.set_cookie(COOKIE, cookie.value)
    return other


def test_a_copied_login_cookie_records_a_hand_while_the_password_stands(
    app: Any, runner: Any, game_id: int
) -> None:
    _set_password(runner, FIRST)
    copied = _copy(app, _logged_in(app, FIRST))
    assert copied.post(f"/games/{game_id}", data=_hand(0)).status_code == 302
    assert _hands(copied, game_id) == 1


def test_a_password_change_ends_every_earlier_login_at_once(
    app: Any, runner: Any, game_id: int
) -> None:
    _set_password(runner, FIRST)
    organiser = _logged_in(app, FIRST)
    copied = _copy(app, organiser)
    _set_password(runner, SECOND)
    for client in (organiser, copied):
        response = client.post(f"/games/{game_id}", data=_hand(0))
        assert response.status_code == 302
        assert response.headers["Location"].startswith("/login")
    assert _hands(organiser, game_id) == 0
    # The new password logs in again.
    assert _logged_in(app, SECOND).post(f"/games/{game_id}", data=_hand(0)).status_code == 302
    assert _hands(organiser, game_id) == 1


def test_a_password_set_while_a_phone_plays_holds_from_its_next_request(
    app: Any, runner: Any, game_id: int
) -> None:
    """Each request looks once whether a password is set: the one after set-password
    (another process, the same instance folder) is refused, as is its page's form."""
    phone = app.test_client()
    assert phone.post(f"/games/{game_id}", data=_hand(0)).status_code == 302
    assert 'id="hand-form"' in phone.get(f"/games/{game_id}").get_data(as_text=True)
    _set_password(runner, FIRST)
    response = phone.post(f"/games/{game_id}", data=_hand(1))
    assert response.status_code == 302
    assert response.headers["Location"].startswith("/login")
    page = phone.get(f"/games/{game_id}").get_data(as_text=True)
    assert 'id="hand-form"' not in page
    assert "Log in to record hands" in page
    assert _hands(phone, game_id) == 1


def test_logging_out_ends_a_copy_of_the_cookie_too(app: Any, runner: Any, game_id: int) -> None:
    _set_password(runner, FIRST)
    organiser = _logged_in(app, FIRST)
    copied = _copy(app, organiser)
    assert organiser.post("/logout").status_code == 302
    response = copied.post(f"/games/{game_id}", data=_hand(0))
    assert response.status_code == 302
    assert response.headers["Location"].startswith("/login")
    assert _hands(copied, game_id) == 0


def test_a_password_changed_in_the_environment_ends_earlier_logins(
    app: Any, game_id: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_PASSWORD", FIRST)
    organiser = _logged_in(app, FIRST)
    monkeypatch.setenv("SCOREKEEPER_PASSWORD", SECOND)
    response = organiser.post(f"/games/{game_id}", data=_hand(0))
    assert response.headers["Location"].startswith("/login")
    assert _hands(organiser, game_id) == 0


def test_forty_wrong_passwords_sent_at_once_get_only_five_checks(app: Any, served: Served) -> None:
    path: Path = password_hash_path(app)
    path.write_text(generate_password_hash(FIRST))  # scrypt: each check takes a while
    statuses: list[int] = []
    lock = threading.Lock()
    start = threading.Barrier(40)

    def guess(number: int) -> None:
        start.wait()
        status, _, _ = served.post("/login", {"password": f"guess-{number}"})
        with lock:
            statuses.append(status)

    threads = [threading.Thread(target=guess, args=(n,)) for n in range(40)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert len(statuses) == 40
    # 401: the password was checked and was wrong; 429: refused before any check.
    assert statuses.count(401) == 5
    assert statuses.count(429) == 35
    # And the right password must wait too, once the address is blocked.
    status, _, _ = served.post("/login", {"password": FIRST})
    assert status == 429
