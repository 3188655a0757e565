"""CSRF is enforced on every form when it is on, as it is outside the tests."""

from __future__ import annotations

import io
import json
import re
from typing import Any
from urllib.parse import urlencode

import pytest
from itsdangerous import BadSignature

from .tables import ap_hand, game_count, hand_count, hand_form, record, setup_form, text

PAIR = ["Ann", "Bob"]
REFUSED = "This form had expired or came from elsewhere, so nothing was saved."


@pytest.fixture
def app_config(app_config: dict[str, Any], database_url: str) -> dict[str, Any]:
    """Turn CSRF on. (Naming database_url keeps its parametrisation: pytest loses it otherwise.)"""
    return {**app_config, "WTF_CSRF_ENABLED": True}


def token_on(client: Any, url: str) -> str:
    match = re.search(
        r'name="csrf_token" type="hidden" value="([^"]+)"|name="csrf_token" value="([^"]+)"',
        client.get(url).get_data(as_text=True),
    )
    assert match, f"no CSRF token on {url}"
    return match.group(1) or match.group(2)


def tokens_on(client: Any, url: str) -> set[str]:
    """Every CSRF token the page at ``url`` carries (its forms' and its csrf_token()s)."""
    return set(
        re.findall(r'name="csrf_token"[^>]*value="([^"]+)"', client.get(url).get_data(as_text=True))
    )


@pytest.fixture
def game_id(client: Any) -> int:
    response = client.post(
        "/games/import",
        json=record("auction-pitch", PAIR, [ap_hand("Bob", 2, "Bob", "Bob", None, "Ann")]),
    )
    assert response.status_code == 201
    return int(response.get_json()["id"])


def version(client: Any, game_id: int) -> str:
    return str(client.get(f"/games/{game_id}/version.json").get_json()["version"])


def test_a_new_game_without_the_token_is_refused_and_with_it_created(client: Any, app: Any) -> None:
    data = setup_form("auction-pitch", PAIR)
    refused = client.post("/games/new/auction-pitch", data=data)
    assert refused.status_code == 400
    assert REFUSED in text(refused.get_data(as_text=True))
    assert game_count(app) == 0
    data["csrf_token"] = token_on(client, "/games/new/auction-pitch")
    assert client.post("/games/new/auction-pitch", data=data).status_code == 302
    assert game_count(app) == 1


def test_a_hand_without_the_token_is_refused_and_with_it_saved(
    client: Any, app: Any, game_id: int
) -> None:
    data = hand_form(PAIR, pitcher="Ann", bid=2, high="Ann", low="Ann", jack=None, game="Bob")
    data["version"] = version(client, game_id)
    refused = client.post(f"/games/{game_id}", data=data)
    assert refused.status_code == 400
    assert REFUSED in text(refused.get_data(as_text=True))
    assert hand_count(app, game_id) == 1
    data["csrf_token"] = token_on(client, f"/games/{game_id}")
    assert client.post(f"/games/{game_id}", data=data).status_code == 302
    assert hand_count(app, game_id) == 2


def test_a_forged_token_is_refused(client: Any, app: Any, game_id: int) -> None:
    data = hand_form(PAIR, pitcher="Ann", bid=2, high="Ann", low="Ann", jack=None, game="Bob")
    data.update(version=version(client, game_id), csrf_token="not-the-token")
    assert client.post(f"/games/{game_id}", data=data).status_code == 400
    assert hand_count(app, game_id) == 1


def test_an_edit_without_the_token_is_refused(client: Any, app: Any, game_id: int) -> None:
    before = client.get(f"/games/{game_id}.json").get_data()
    data = hand_form(PAIR, pitcher="Ann", bid=2, high="Ann", low="Ann", jack=None, game="Bob")
    data["version"] = version(client, game_id)
    assert client.post(f"/games/{game_id}/hands/1/edit", data=data).status_code == 400
    assert client.get(f"/games/{game_id}.json").get_data() == before


def test_undo_without_the_token_is_refused_and_with_it_done(
    client: Any, app: Any, game_id: int
) -> None:
    data = {"version": version(client, game_id), "number": "1"}
    assert client.post(f"/games/{game_id}/undo", data=data).status_code == 400
    assert hand_count(app, game_id) == 1
    data["csrf_token"] = token_on(client, f"/games/{game_id}")
    assert client.post(f"/games/{game_id}/undo", data=data).status_code == 302
    assert hand_count(app, game_id) == 0


def test_delete_without_the_token_is_refused_and_with_it_done(
    client: Any, app: Any, game_id: int
) -> None:
    data = {"version": version(client, game_id)}
    assert client.post(f"/games/{game_id}/delete", data=data).status_code == 400
    assert game_count(app) == 1
    data["csrf_token"] = token_on(client, f"/games/{game_id}/delete")
    assert client.post(f"/games/{game_id}/delete", data=data).status_code == 302
    assert game_count(app) == 0


def test_an_import_form_without_the_token_is_refused_and_with_it_imported(
    client: Any, app: Any
) -> None:
    content = record("auction-pitch", PAIR, [])

    def upload(extra: dict[str, str]) -> Any:
        return client.post(
            "/games/import",
            data={"record": (io.BytesIO(json.dumps(content).encode()), "game.json"), **extra},
            content_type="multipart/form-data",
        )

    before = game_count(app)
    refused = upload({})
    assert refused.status_code == 400
    assert REFUSED in text(refused.get_data(as_text=True))
    assert game_count(app) == before
    assert upload({"csrf_token": token_on(client, "/games/import")}).status_code == 303
    assert game_count(app) == before + 1


def test_a_json_import_needs_no_token_because_browsers_cannot_send_one_cross_site(
    client: Any, app: Any
) -> None:
    # A cross-site page can only send a JSON content type after a CORS preflight,
    # which the app never grants; so the JSON body is the API, without a form token.
    response = client.post("/games/import", json=record("auction-pitch", PAIR, []))
    assert response.status_code == 201
    assert "Access-Control-Allow-Origin" not in response.headers
    preflight = client.options(
        "/games/import",
        headers={"Origin": "https://elsewhere.example", "Access-Control-Request-Method": "POST"},
    )
    assert "Access-Control-Allow-Origin" not in preflight.headers


def test_every_form_on_the_pages_carries_the_token(client: Any, game_id: int) -> None:
    for url in (
        f"/games/{game_id}",
        f"/games/{game_id}/hands/1/edit",
        f"/games/{game_id}/delete",
        "/games/import",
        "/games/new/auction-pitch",
    ):
        html = client.get(url).get_data(as_text=True)
        forms = re.findall(r'<form[^>]*method="post"[^>]*>(.*?)</form>', html, re.S)
        assert forms, url
        for form in forms:
            assert 'name="csrf_token"' in form, url


def test_bytes_that_are_not_text_in_a_hand_with_its_token_are_refused_before_anything_reads_them(
    client: Any, app: Any, game_id: int
) -> None:
    # The CSRF check read the form first, and the check for text then found the body already
    # read: the note was saved as "\ufffd\ufffd".
    data = hand_form(PAIR, pitcher="Ann", bid=2, high="Ann", low="Ann", jack=None, game="Bob")
    data.update(version=version(client, game_id), csrf_token=token_on(client, f"/games/{game_id}"))
    body = urlencode(data).encode() + b"&note=%FF%FE"
    refused = client.post(
        f"/games/{game_id}", data=body, content_type="application/x-www-form-urlencoded"
    )
    assert refused.status_code == 400
    assert 'The field "note" is not valid text (UTF-8), so it was refused' in text(
        refused.get_data(as_text=True)
    )
    assert hand_count(app, game_id) == 1


def test_a_name_that_is_not_text_in_a_new_game_with_its_token_is_refused(
    client: Any, app: Any
) -> None:
    data = setup_form("auction-pitch", PAIR)
    data["csrf_token"] = token_on(client, "/games/new/auction-pitch")
    del data["name_0"]
    body = urlencode(data).encode() + b"&name_0=%FF%FEAnn"
    refused = client.post(
        "/games/new/auction-pitch", data=body, content_type="application/x-www-form-urlencoded"
    )
    assert refused.status_code == 400
    assert 'The field "name_0" is not valid text (UTF-8)' in text(refused.get_data(as_text=True))
    assert game_count(app) == 0


def test_the_session_is_signed_by_one_serializer_that_follows_the_apps_keys(app: Any) -> None:
    sessions = app.session_interface
    first = sessions.get_signing_serializer(app)
    assert sessions.get_signing_serializer(app) is first  # made once, not on every request
    signed = first.dumps({"director": 7})
    old_key = app.secret_key
    app.secret_key = "a key the sessions before were not signed with"
    with pytest.raises(BadSignature):
        sessions.get_signing_serializer(app).loads(signed)
    app.config["SECRET_KEY_FALLBACKS"] = [old_key]
    assert sessions.get_signing_serializer(app).loads(signed) == {"director": 7}


def _signing_clock_moves_on_a_minute(monkeypatch: pytest.MonkeyPatch) -> None:
    """From here on, tokens are signed as if a minute later (itsdangerous' clock)."""
    import time
    from types import SimpleNamespace

    import itsdangerous.timed

    monkeypatch.setattr(itsdangerous.timed, "time", SimpleNamespace(time=lambda: time.time() + 60))


def test_a_sessions_token_is_signed_once_and_kept_and_another_sessions_is_its_own(
    client: Any, app: Any, game_id: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tokens never expire here (WTF_CSRF_TIME_LIMIT None), so a session's token is signed
    once and kept: every page of one phone carries the same one, and every form on a page
    (the hand form's and the page's csrf_token()) says it, the first signing included (the
    signature's clock moves on a minute after the first page). Another phone's session has
    its own, which the first phone's token does not open."""
    on_page = tokens_on(client, f"/games/{game_id}")
    assert len(on_page) == 1
    first = on_page.pop()
    _signing_clock_moves_on_a_minute(monkeypatch)
    assert token_on(client, f"/games/{game_id}") == first
    assert token_on(client, "/games/new/auction-pitch") == first

    other = app.test_client()
    theirs = token_on(other, f"/games/{game_id}")
    assert theirs != first
    data = hand_form(PAIR, pitcher="Ann", bid=2, high="Ann", low="Ann", jack=None, game="Bob")
    data["version"] = version(other, game_id)
    refused = other.post(f"/games/{game_id}", data={**data, "csrf_token": first})
    assert refused.status_code == 400
    assert hand_count(app, game_id) == 1
    assert other.post(f"/games/{game_id}", data={**data, "csrf_token": theirs}).status_code == 302
    assert hand_count(app, game_id) == 2


def test_a_page_whose_view_builds_no_form_carries_the_kept_token_too(
    client: Any, game_id: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The language switch at the foot of every page asks the template for the token: on a
    page with no form of its own (the list of games, the history, the players) it is the
    one the game page's forms carry, however much later it is drawn."""
    first = token_on(client, "/")
    _signing_clock_moves_on_a_minute(monkeypatch)
    for url in ("/", "/history", "/players", f"/games/{game_id}"):
        assert tokens_on(client, url) == {first}, url


def test_where_tokens_expire_each_page_signs_its_own(
    app: Any, client: Any, game_id: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a time limit, a kept token would grow old: each request signs it afresh, as
    Flask-WTF does (its signature's clock moved on a minute between the two pages)."""
    app.config["WTF_CSRF_TIME_LIMIT"] = 3600
    first = token_on(client, f"/games/{game_id}")
    _signing_clock_moves_on_a_minute(monkeypatch)
    assert token_on(client, f"/games/{game_id}") != first
    app.config["WTF_CSRF_TIME_LIMIT"] = None
    kept = token_on(client, f"/games/{game_id}")
    assert token_on(client, f"/games/{game_id}") == kept
