"""Join by QR code: the game page and the board show the board's address as a QR code and in
large type, for the address the other phones at the table reach (issue 14)."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
import qr_images

from scorekeeper.serving import network, qr
from scorekeeper.serving.network import address_for_phones

from .tables import ap_hand, import_game, record

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
LAN = "192.168.1.20"
CLUB = "pitch.club.example"


@pytest.fixture
def app_config(app_config: dict[str, Any], database_url: str) -> dict[str, Any]:
    """Served on loopback, one LAN address and a club's own name, as ``serve`` would be.
    (Naming database_url keeps its parametrisation: pytest loses it otherwise.)"""
    return {**app_config, "SERVED_HOSTS": [*network.LOOPBACK_HOSTS, LAN, CLUB]}


@pytest.fixture
def game_id(client: Any) -> int:
    return import_game(
        client, record("auction-pitch", PLAYERS, [ap_hand("Bob", 3, "Bob", "Bob", "Cy", "Bob")])
    )


def _codes(html: str) -> list[str]:
    """Decode every QR code the page drew (its inline SVG), as a scanner would read it."""
    svgs = re.findall(r'<svg viewBox="[^"]*" class="qr-code">.*?</svg>', html, re.S)
    return [text for svg in svgs for text in qr_images.decoded(qr_images.svg_picture(svg))]


def _get(client: Any, path: str, host: str) -> str:
    response = client.get(path, headers={"Host": host})
    assert response.status_code == 200
    return str(response.get_data(as_text=True))


# The address: a small function of the request's Host, where the server listens, the LAN.


def test_a_request_on_loopback_names_the_lan_address_when_serving_on_every_interface() -> None:
    for host in ("127.0.0.1:5000", "localhost:5000", "[::1]:5000"):
        origin = address_for_phones(
            host, listening_on="0.0.0.0", served=network.LOOPBACK_HOSTS, lan=[LAN, "10.0.0.7"]
        )
        assert origin == f"http://{LAN}:5000"


def test_a_request_on_loopback_stays_on_loopback_when_no_phone_could_reach_the_server() -> None:
    assert address_for_phones("127.0.0.1:5000", listening_on="127.0.0.1", lan=[LAN]) == (
        "http://127.0.0.1:5000"
    )
    assert address_for_phones("127.0.0.1:5000", listening_on=None, lan=[LAN]) == (
        "http://127.0.0.1:5000"
    )
    assert address_for_phones("127.0.0.1:5000", listening_on="0.0.0.0", lan=[]) == (
        "http://127.0.0.1:5000"
    )


def test_a_request_on_a_lan_address_names_that_address_and_keeps_its_port() -> None:
    served = [*network.LOOPBACK_HOSTS, LAN, "10.0.0.7"]
    for listening_on in ("0.0.0.0", LAN, None):
        assert address_for_phones(
            "10.0.0.7:8123", listening_on=listening_on, served=served, lan=[LAN, "10.0.0.7"]
        ) == ("http://10.0.0.7:8123")


def test_a_configured_host_name_is_named_as_it_came_with_its_scheme_and_port() -> None:
    served = [*network.LOOPBACK_HOSTS, CLUB, ".tables.example"]
    assert address_for_phones(
        "Pitch.Club.Example", scheme="https", listening_on="0.0.0.0", served=served, lan=[LAN]
    ) == (f"https://{CLUB}")
    assert address_for_phones("room2.tables.example:8443", served=served, lan=[LAN]) == (
        "http://room2.tables.example:8443"
    )


@pytest.mark.parametrize(
    "host",
    [
        "evil.example",
        "evil.example:5000",
        "127.0.0.1.evil.example",
        "127.0.0.1:5000@evil.example",
        "127.0.0.1:5000/evil",
        "127.0.0.1:99999",
        '127.0.0.1:5000"><script>',
        "",
        None,
    ],
)
def test_a_host_the_host_check_would_refuse_gives_no_address_at_all(host: str | None) -> None:
    assert address_for_phones(host, listening_on="0.0.0.0", served=network.LOOPBACK_HOSTS) is None


def test_behind_a_proxy_that_checks_the_host_any_well_formed_name_is_taken() -> None:
    assert address_for_phones("scores.example.org", served=None) == "http://scores.example.org"
    assert address_for_phones("scores.example.org:5000/x", served=None) is None


# The pages.


def test_the_board_shows_a_qr_code_that_decodes_to_its_own_url_and_the_url_in_words(
    client: Any, game_id: int
) -> None:
    html = _get(client, f"/games/{game_id}/board", f"{LAN}:5000")
    board = f"http://{LAN}:5000/games/{game_id}/board"
    assert _codes(html) == [board]
    url = re.search(r'<a class="join-url" href="([^"]+)" translate="no">(.*?)</a>', html, re.S)
    assert url, html
    assert url.group(1) == f"/games/{game_id}/board"  # on this page's own origin
    assert unescape(re.sub(r"<wbr>", "", url.group(2))) == f"{LAN}:5000/games/{game_id}/board"
    assert "Only this device" not in html


def test_the_game_page_folds_the_code_away_under_show_the_board_to_the_table(
    client: Any, game_id: int
) -> None:
    html = _get(client, f"/games/{game_id}", f"{CLUB}")
    folded = re.search(r'<details class="card join-card">\s*<summary>(.*?)</summary>', html)
    assert folded and folded.group(1) == "Show the board to the table"
    assert _codes(html) == [f"http://{CLUB}/games/{game_id}/board"]
    # Below the standings and the hand form: it never pushes them down the phone's screen.
    assert html.index('class="standings') < html.index("join-card")
    assert html.index('id="hand-form"') < html.index("join-card")


def test_opened_on_the_server_itself_the_code_names_the_lan_address_serve_listens_on(
    app: Any, client: Any, game_id: int
) -> None:
    app.config["LISTEN_HOST"] = "0.0.0.0"  # as `scorekeeper serve --host 0.0.0.0` sets it
    html = _get(client, f"/games/{game_id}/board", "127.0.0.1:5000")
    lan = network.lan_addresses()
    if lan:
        assert _codes(html) == [f"http://{lan[0]}:5000/games/{game_id}/board"]
        assert "Only this device" not in html
    else:  # a machine on no network: the code can only name itself, and says so
        assert _codes(html) == [f"http://127.0.0.1:5000/games/{game_id}/board"]
        assert "Only this device can open this address" in html


def test_served_on_loopback_only_the_code_says_how_to_let_the_phones_join(
    client: Any, game_id: int
) -> None:
    html = _get(client, f"/games/{game_id}/board", "localhost:5000")
    assert _codes(html) == [f"http://localhost:5000/games/{game_id}/board"]
    assert "Only this device can open this address" in html
    assert "scorekeeper serve --host 0.0.0.0" in html


def test_the_code_speaks_romanian_on_a_romanian_page(client: Any, game_id: int) -> None:
    response = client.get(
        f"/games/{game_id}", headers={"Host": f"{LAN}:5000", "Accept-Language": "ro"}
    )
    html = response.get_data(as_text=True)
    assert "Arătați tabela jucătorilor de la masă" in html
    assert "Show the board to the table" not in html


def test_a_drawn_code_is_kept_for_the_next_page_that_shows_it() -> None:
    url = f"http://{LAN}:5000/games/9/board"
    assert qr.svg(url) is qr.svg(url)
    assert qr_images.decoded(qr_images.svg_picture(str(qr.svg(url)))) == [url]
