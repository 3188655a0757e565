"""DNS rebinding: the app answers only to the names it is served as (Flask's TRUSTED_HOSTS).

A web page visited on the laptop could point its own name at 127.0.0.1 and then drive
the app as if from the same origin; the Host header it sends still names that page's
site, so every request naming a host the app is not served as is refused with a 400.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper import create_app
from scorekeeper.data.extensions import db
from scorekeeper.serving.network import local_addresses


@pytest.mark.parametrize(
    "host",
    ["localhost", "localhost:5000", "127.0.0.1", "127.0.0.1:5000", "[::1]", "[::1]:5000"],
)
def test_the_loopback_names_are_served(client: Any, host: str) -> None:
    assert client.get("/", headers={"Host": host}).status_code == 200


def test_the_lan_addresses_serve_prints_are_served(client: Any) -> None:
    for address in local_addresses():
        assert client.get("/", headers={"Host": f"{address}:5000"}).status_code == 200


@pytest.mark.parametrize("host", ["evil.example", "evil.example:5000", "127.0.0.1.evil.example"])
def test_any_other_host_is_refused_with_a_400_page(client: Any, host: str) -> None:
    response = client.get("/", headers={"Host": host})
    assert response.status_code == 400
    assert "Traceback" not in response.get_data(as_text=True)
    imported = client.post("/games/import", json={}, headers={"Host": host})
    assert imported.status_code == 400


def test_a_club_names_its_own_hosts_in_scorekeeper_hosts(
    app_config: dict[str, Any], monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.setenv("SCOREKEEPER_HOSTS", "pitch.club.example, .tables.example")
    app = create_app(app_config)
    client = app.test_client()
    try:
        assert client.get("/", headers={"Host": "pitch.club.example"}).status_code == 200
        assert client.get("/", headers={"Host": "room2.tables.example"}).status_code == 200
        assert client.get("/", headers={"Host": "127.0.0.1:5000"}).status_code == 200
        assert client.get("/", headers={"Host": "evil.example"}).status_code == 400
    finally:
        with app.app_context():
            db.engine.dispose()


def test_a_stop_signal_that_lands_while_a_channel_handles_its_event_still_stops_the_server() -> (
    None
):
    """The server's loop takes an exception raised in a channel's handler for that channel's
    error and serves on; ``Stop`` (what SIGTERM and SIGHUP raise) must get through it, or a
    signal that arrives while the listening socket accepts, or the threads' wake-up pipe is
    read, is lost."""
    from waitress import wasyncore

    from scorekeeper.serving.server import Stop

    taken_for_errors: list[str] = []

    class Channel:
        def handle_read_event(self) -> None:
            raise Stop("SIGTERM")

        def handle_error(self) -> None:
            taken_for_errors.append("read")

    with pytest.raises(Stop):
        wasyncore.read(Channel())
    assert taken_for_errors == []
