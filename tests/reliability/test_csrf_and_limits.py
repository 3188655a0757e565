"""CSRF on every form, and an upload size limit."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scorekeeper import operations, rules


@pytest.fixture
def app_config(app_config: dict[str, Any], database_url: str) -> dict[str, Any]:
    """CSRF on, and a small body limit (naming database_url keeps its parametrisation)."""
    return {**app_config, "WTF_CSRF_ENABLED": True, "MAX_CONTENT_LENGTH": 64 * 1024}


def test_every_form_post_without_the_csrf_token_is_refused(app: Any, client: Any) -> None:
    with app.app_context():
        game_id = operations.games.create_game(rules.Game.create("auction-pitch", ["Ann", "Bob"]))
    for path in (
        f"/games/{game_id}",
        f"/games/{game_id}/undo",
        f"/games/{game_id}/delete",
        "/games/new/auction-pitch",
        "/games/import",
    ):
        response = client.post(path, data={"version": "1"})
        assert response.status_code == 400, path
        assert "expired or came from elsewhere" in response.get_data(as_text=True)
    assert client.get(f"/games/{game_id}").status_code == 200


def test_an_upload_larger_than_the_limit_is_refused_with_a_clear_message(client: Any) -> None:
    big = json.dumps({"format": "pitch-scorekeeper/1", "pad": "x" * 100_000}).encode()
    response = client.post("/games/import", data=big, content_type="application/json")
    assert response.status_code == 413
    assert "too large" in response.get_json()["error"]
