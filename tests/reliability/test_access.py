"""Who may change the sheets: open on 127.0.0.1, an organiser login once a password is set."""

from __future__ import annotations

from typing import Any

import pytest
from builders import ap_form, ap_hand

from scorekeeper import operations, rules
from scorekeeper.web.security import HEADERS

PASSWORD = "cards-on-the-table"


@pytest.fixture
def app_config(app_config: dict[str, Any], database_url: str) -> dict[str, Any]:
    """An organiser password, and three wrong ones allowed (naming database_url keeps its
    parametrisation)."""
    return {**app_config, "ORGANISER_PASSWORD": PASSWORD, "LOGIN_ATTEMPTS": 3}


@pytest.fixture
def game_id(app: Any) -> int:
    with app.app_context():
        game_id = operations.games.create_game(rules.Game.create("auction-pitch", ["Ann", "Bob"]))
        operations.hands.record_hand(
            game_id,
            rules.Hand(**ap_hand("Bob", 2, "Bob", "Bob", None, "Ann")),
            version=0,
        )
        return game_id


def _write_routes(game_id: int) -> list[tuple[str, str]]:
    return [
        ("POST", f"/games/{game_id}"),
        ("POST", f"/games/{game_id}/hands/1/edit"),
        ("POST", f"/games/{game_id}/undo"),
        ("POST", f"/games/{game_id}/delete"),
        ("POST", "/games/new/auction-pitch"),
        ("POST", "/games/import"),
        ("GET", "/games/new"),
        ("GET", "/games/new/auction-pitch"),
        ("GET", f"/games/{game_id}/hands/1/edit"),
        ("GET", f"/games/{game_id}/undo"),
        ("GET", f"/games/{game_id}/delete"),
        ("GET", "/games/import"),
    ]


def test_every_write_route_needs_the_organiser_login_once_a_password_is_set(
    client: Any, game_id: int
) -> None:
    for method, path in _write_routes(game_id):
        response = client.open(path, method=method, data={"version": "1"})
        assert response.status_code == 302, (method, path)
        assert "/login" in response.headers["Location"], (method, path)
    # Nothing changed: the hand and the game are still there.
    page = client.get(f"/games/{game_id}")
    assert page.status_code == 200
    assert "Log in to record hands" in page.get_data(as_text=True)


def test_a_json_import_without_login_is_refused_with_403(client: Any) -> None:
    response = client.post("/games/import", json={"format": "x"})
    assert response.status_code == 403
    assert "organiser" in response.get_json()["error"]


def test_the_board_the_game_page_and_the_export_stay_readable_without_login(
    client: Any, game_id: int
) -> None:
    for path in (
        "/",
        f"/games/{game_id}",
        f"/games/{game_id}/board",
        f"/games/{game_id}.json",
        f"/games/{game_id}/version.json",
    ):
        assert client.get(path).status_code == 200, path


def test_the_organiser_logs_in_and_can_then_record_a_hand(client: Any, game_id: int) -> None:
    response = client.post("/login?next=/games/1", data={"password": PASSWORD})
    assert response.status_code == 302
    assert response.headers["Location"] == "/games/1"
    form = {
        **ap_form(["Ann", "Bob"], "Ann", 2, "Ann", "Ann", None, "Ann", version=1),
        "token": "organiser-form-key-0001",
        "save": "1",
    }
    assert client.post(f"/games/{game_id}", data=form).status_code == 302
    assert len(client.get(f"/games/{game_id}.json").get_json()["hands"]) == 2


def test_a_login_never_redirects_to_another_site(client: Any) -> None:
    response = client.post("/login?next=//evil.example/x", data={"password": PASSWORD})
    assert response.headers["Location"] == "/"


def test_a_wrong_password_is_refused_and_repeated_failures_must_wait(client: Any) -> None:
    for _ in range(3):
        response = client.post("/login", data={"password": "guess"})
        assert response.status_code == 401
        assert "not the organiser password" in response.get_data(as_text=True)
    blocked = client.post("/login", data={"password": PASSWORD})
    assert blocked.status_code == 429
    assert "Too many wrong passwords" in blocked.get_data(as_text=True)
    assert 0 < int(blocked.headers["Retry-After"]) <= 300


def test_the_session_cookie_is_http_only_and_same_site(client: Any) -> None:
    response = client.post("/login", data={"password": PASSWORD})
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie


def test_every_response_carries_the_security_headers(client: Any, game_id: int) -> None:
    for path in ("/", f"/games/{game_id}", "/static/css/app.css", "/no-such-page"):
        with client.get(path) as response:
            for name, value in HEADERS.items():
                assert response.headers.get(name) == value, (path, name)
    csp = HEADERS["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert "frame-ancestors 'none'" in csp


def test_no_page_has_an_inline_script(client: Any, game_id: int) -> None:
    for path in ("/", f"/games/{game_id}", f"/games/{game_id}/board", "/login"):
        html = client.get(path).get_data(as_text=True)
        for chunk in html.split("<script")[1:]:
            assert chunk.lstrip().startswith("src=") or " src=" in chunk.split(">", 1)[0], path
        assert "onclick=" not in html and "onload=" not in html


def test_the_login_limit_is_one_for_every_worker_of_the_install(
    app: Any, app_config: dict[str, Any], client: Any
) -> None:
    # Each worker process counted on its own: with 3 gunicorn workers, 15 checks, not 5.
    from scorekeeper import create_app
    from scorekeeper.data.extensions import db

    other_worker = create_app(app_config)  # another process's app, on the same database
    try:
        for _ in range(3):
            assert client.post("/login", data={"password": "guess"}).status_code == 401
        blocked = other_worker.test_client().post("/login", data={"password": PASSWORD})
        assert blocked.status_code == 429
        assert "Too many wrong passwords" in blocked.get_data(as_text=True)
    finally:
        with other_worker.app_context():
            db.engine.dispose()


def test_wrong_passwords_sent_at_once_are_checked_no_more_often_than_the_limit(
    app: Any, served: Any
) -> None:
    from .conftest import at_once

    answers = at_once(*[lambda: served.post("/login", {"password": "guess"})] * 8)
    assert sorted(status for status, _, _ in answers) == [401] * 3 + [429] * 5
