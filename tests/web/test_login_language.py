"""Logging in and out starts a fresh session, but keeps the language the reader picked."""

from __future__ import annotations

from typing import Any

import pytest

PASSWORD = "cards-on-the-table"


@pytest.fixture
def app_config(app_config: dict[str, Any], database_url: str) -> dict[str, Any]:
    """An organiser password (naming database_url keeps its parametrisation)."""
    return {**app_config, "ORGANISER_PASSWORD": PASSWORD}


def page_language(client: Any, path: str = "/players") -> str:
    html = client.get(path).get_data(as_text=True)
    return html.split('<html lang="', 1)[1].split('"', 1)[0]


def test_logging_in_and_out_keeps_the_language_picked_with_the_switch(client: Any) -> None:
    client.post("/language", data={"lang": "ro"})
    assert page_language(client) == "ro"
    response = client.post("/login", data={"password": PASSWORD})
    assert response.status_code == 302
    assert page_language(client) == "ro"
    assert client.get("/games/new").status_code == 200  # logged in: a write page opens
    client.post("/logout")
    assert page_language(client) == "ro"
    assert "/login" in client.get("/games/new").headers["Location"]  # and logged out again


def test_logging_in_without_a_picked_language_leaves_it_to_the_browser(client: Any) -> None:
    client.post("/login", data={"password": PASSWORD})
    with client.session_transaction() as session:
        assert "lang" not in session
    assert page_language(client) == "en"
