"""Join a game's board by QR code: the board's address as the other phones reach it."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from flask import current_app, request, url_for
from markupsafe import Markup

from . import network, qr


@dataclass(frozen=True)
class JoinCode:
    """The board's address three ways: to open, to read out or type, and to scan."""

    url: str  # http://192.168.1.20:5000/games/12/board
    path: str  # /games/12/board: the link on the page (same origin; nothing points elsewhere)
    shown: str  # 192.168.1.20:5000/games/12/board: what a phone's address bar takes as typed
    svg: Markup
    this_machine_only: bool  # a loopback address: no other phone can open it


def board_code(game_id: int) -> JoinCode | None:
    """The join code of game ``game_id``'s board for this request, or None when the request
    named no host the app is served as (the host check refuses those first anyway)."""
    return code_for(url_for("games.board", game_id=game_id))


def code_for(path: str) -> JoinCode | None:
    """The join code of the page at ``path`` (an event's table card, say) as the other
    phones reach it, or None as ``board_code``."""
    origin = network.address_for_phones(
        request.host,
        scheme=request.scheme,
        listening_on=current_app.config.get("LISTEN_HOST"),
        served=current_app.config.get("SERVED_HOSTS"),
        lan=network.lan_addresses(),
    )
    if origin is None:
        return None
    url = origin + path
    shown = url.removeprefix("http://")
    return JoinCode(
        url=url,
        path=path,
        shown=shown,
        svg=qr.svg(url),
        this_machine_only=network.is_loopback(network.host_name(urlsplit(origin).netloc)),
    )
