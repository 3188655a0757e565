"""The smallest page: monitors (and the benchmark's floor) ask whether the app is up."""

from __future__ import annotations

from typing import Any


def test_healthz_answers_ok_as_plain_text(client: Any) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.mimetype == "text/plain"
    assert response.get_data(as_text=True) == "ok\n"


def test_healthz_takes_no_post(client: Any) -> None:
    response = client.post("/healthz")
    assert response.status_code == 405
