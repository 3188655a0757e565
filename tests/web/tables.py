"""Helpers for the view tests: set up games and post hands as the forms would, count rows.

Everything goes through the real views (or, to set up a long game quickly, the real
import): nothing here stands in for our own code.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from html.parser import HTMLParser
from typing import Any

from sqlalchemy import func, select

from scorekeeper import rules
from scorekeeper.data import models
from scorekeeper.data.extensions import db

FORMAT = rules.FORMAT


def setup_form(
    variant_key: str,
    names: Iterable[str],
    *,
    teams: Iterable[str] | None = None,
    first_dealer: int = 0,
    **changes: Any,
) -> dict[str, str]:
    """Fill the new-game form as a person would: names, teams, and the prefilled house rules."""
    variant = rules.VARIANTS[variant_key]
    preset = variant.preset.as_dict()
    data = {
        "first_dealer": str(first_dealer),
        "target": str(preset["target"]),
        "low_to": preset["low_to"],
        "all_pass": preset["all_pass"],
        "payout_in_hole": str(preset["payout_in_hole"]),
        "payout_per_setback": str(preset["payout_per_setback"]),
        "stake": "",
    }
    if variant.smudge_bid is not None:  # the page shows the smudge switch only then
        data["smudge"] = preset["smudge"]
    if not variant.shape_fixed:  # the shape of the game, as the page prefills it
        data["shape_shown"] = "1"
        for key in preset["points"]:
            data[f"in_play_{key}"] = "y"
        for name in ("min_bid", "max_bid", "win_rule", "pitcher_scores", "gap", "smudge_failed"):
            data[name] = str(preset[name])
        data["smudge_bid"] = "" if preset["smudge_bid"] is None else str(preset["smudge_bid"])
    for i, name in enumerate(names):
        data[f"name_{i}"] = name
    for i, team in enumerate(teams or ()):
        data[f"team_{i}"] = team
    data.update({key: str(value) for key, value in changes.items()})
    return data


def create_game(client: Any, variant_key: str, names: Iterable[str], **kwargs: Any) -> int:
    """Set up a game through the new-game form and return its id."""
    response = client.post(
        f"/games/new/{variant_key}", data=setup_form(variant_key, names, **kwargs)
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    match = re.fullmatch(r"/games/(\d+)", response.headers["Location"])
    assert match, response.headers["Location"]
    return int(match.group(1))


def import_game(client: Any, record: Mapping[str, Any]) -> int:
    """Create a game from a record posted as a JSON body; return its id. A record identical
    to a game kept already is asked for again (``?again=<that game>``), as a person would."""
    response = client.post("/games/import", json=record)
    if response.status_code == 409:
        response = client.post(f"/games/import?again={response.get_json()['game']}", json=record)
    assert response.status_code == 201, response.get_data(as_text=True)
    return int(response.get_json()["id"])


def record(
    variant_key: str,
    players: list[str],
    hands: list[dict[str, Any]],
    **extra: Any,
) -> dict[str, Any]:
    """A game record (GAME-RECORD.md) with the given hands."""
    return {"format": FORMAT, "variant": variant_key, "players": players, "hands": hands, **extra}


def ap_hand(
    pitcher: str, bid: int, high: str, low: str, jack: str | None, game: str | None
) -> dict[str, Any]:
    """An Auction Pitch hand as the record writes it."""
    return {
        "pitcher": pitcher,
        "bid": bid,
        "points": {"high": high, "low": low, "jack": jack, "game": game},
    }


def hand_form(
    players: list[str],
    *,
    pitcher: str | None = None,
    bid: int | None = None,
    version: int | None = None,
    token: str | None = None,
    teams: Iterable[str] | None = None,
    **points: str | None,
) -> dict[str, str]:
    """The hand form's fields as the tap buttons post them: seat numbers, 'nobody', bids.

    Points are given by key (``high="Bob"``, ``jack=None`` for nobody); ``sale`` and
    ``high_bidder`` are passed through the same way, and so are ``dealer`` (who dealt, by
    name or as posted) and ``rest`` (the side the rest goes to, by a player's name or as
    posted). In partnership play (``teams``: each seat's team, as set up) a point's button
    is the team of the player named.
    """
    seat = {name: str(i) for i, name in enumerate(players)}
    taker = dict(seat)
    if teams is not None:
        from scorekeeper.games.forms import TEAM_VALUE

        team_of = dict(zip(players, teams, strict=True))
        order = list(dict.fromkeys(team_of.values()))  # the sides, by each team's first seat
        taker = {name: TEAM_VALUE.format(order.index(team)) for name, team in team_of.items()}
    data: dict[str, str] = {}
    if pitcher is not None:
        data["pitcher"] = seat.get(pitcher, pitcher)
    if bid is not None:
        data["bid"] = str(bid)
    if version is not None:
        data["version"] = str(version)
    if token is not None:
        data["token"] = token
    for key, name in points.items():
        if key == "sale":
            data["sale"] = str(name)
        elif key == "high_bidder":
            data["high_bidder"] = seat.get(str(name), str(name))
        elif key == "dealer":
            data["dealer"] = seat.get(str(name), str(name))
        elif key == "rest":
            data["rest"] = taker.get(str(name), str(name))
        else:
            data[f"point_{key}"] = "nobody" if name is None else taker.get(name, name)
    return data


def post_hand(client: Any, game_id: int, players: list[str], **fields: Any) -> Any:
    """Post the hand form of a game as the page would (with the game's current version)."""
    if "version" not in fields:
        fields["version"] = version_of(client, game_id)
    return client.post(f"/games/{game_id}", data=hand_form(players, **fields))


def hand_count(app: Any, game_id: int | None = None) -> int:
    """Count the hands stored (for one game, or in all)."""
    with app.app_context():
        query = select(func.count()).select_from(models.Hand)
        if game_id is not None:
            query = query.where(models.Hand.game_id == game_id)
        count = db.session.execute(query).scalar_one()
        db.session.remove()
    return int(count)


def game_count(app: Any) -> int:
    with app.app_context():
        count = db.session.execute(select(func.count()).select_from(models.Game)).scalar_one()
        db.session.remove()
    return int(count)


def version_of(client: Any, game_id: int) -> int:
    response = client.get(f"/games/{game_id}/version.json")
    assert response.status_code == 200
    return int(response.get_json()["version"])


def exported(client: Any, game_id: int) -> dict[str, Any]:
    response = client.get(f"/games/{game_id}.json")
    assert response.status_code == 200
    data: dict[str, Any] = json.loads(response.get_data(as_text=True))
    return data


def flashes(html: str) -> list[str]:
    """The flash messages on a page, as text."""
    return [text(m) for m in re.findall(r'<p class="flash[^"]*">(.*?)</p>', html, re.S)]


def text(html: str) -> str:
    """A fragment of HTML as the words a person reads (tags gone, entities decoded)."""
    from html import unescape

    html = re.sub(r"</?bdi>", "", html)  # a name isolated in <bdi> reads as the name, no space
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


class Page(HTMLParser):
    """A parsed page: its controls, labels, links, fieldsets and error lists."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.controls: list[dict[str, str | None]] = []
        self.label_for: set[str] = set()
        self.labels_open = 0
        self.wrapped: list[dict[str, str | None]] = []
        self.urls: list[str] = []
        self.ids: list[str] = []
        self.errors: dict[str, list[str]] = {}
        self.form_errors: list[str] = []
        #: The list of what needs attention at the top of a refused form: (link, words).
        self.attention: list[tuple[str, str]] = []
        self._in_attention = 0
        self._link: str | None = None
        self._error_list: str | None = None
        self._in_form_errors = 0
        self._item: list[str] | None = None
        self._select: str | None = None
        self.selected: dict[str, str] = {}
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.append(str(a["id"]))
        for key in ("href", "src", "action"):
            if a.get(key):
                self.urls.append(str(a[key]))
        if tag == "label":
            self.labels_open += 1
            if a.get("for"):
                self.label_for.add(str(a["for"]))
        if tag == "select":
            self._select = str(a.get("name"))
        # The browser submits the selected option, else the first one.
        if (
            tag == "option"
            and self._select is not None
            and ("selected" in a or self._select not in self.selected)
        ):
            self.selected[self._select] = str(a.get("value"))
        if tag in ("input", "select", "textarea"):
            control = {"tag": tag, **a}
            self.controls.append(control)
            if self.labels_open:
                self.wrapped.append(control)
        if tag == "ul" and "errors" in (a.get("class") or "").split():
            self._error_list = str(a.get("id", "")).removesuffix("-errors")
            self.errors.setdefault(self._error_list, [])
        if tag == "div" and "form-errors" in (a.get("class") or "").split():
            self._in_form_errors = 1
        elif tag == "div" and self._in_form_errors:
            self._in_form_errors += 1
        if tag == "div" and "attention" in (a.get("class") or "").split():
            self._in_attention = 1
        elif tag == "div" and self._in_attention:
            self._in_attention += 1
        if tag == "a" and self._in_attention:
            self._link = str(a.get("href"))
            self._item = []
        if tag == "li" and self._error_list is not None:
            self._item = []
        if tag == "p" and self._in_form_errors:
            self._item = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        if tag == "label":
            self.labels_open -= 1
        if tag == "ul":
            self._error_list = None
        if tag == "li" and self._item is not None and self._error_list is not None:
            self.errors[self._error_list].append(" ".join("".join(self._item).split()))
            self._item = None
        if tag == "p" and self._item is not None and self._in_form_errors:
            self.form_errors.append(" ".join("".join(self._item).split()))
            self._item = None
        if tag == "div" and self._in_form_errors:
            self._in_form_errors -= 1
        if tag == "a" and self._link is not None and self._item is not None:
            self.attention.append((self._link, " ".join("".join(self._item).split())))
            self._link = self._item = None
        if tag == "div" and self._in_attention:
            self._in_attention -= 1

    def handle_data(self, data: str) -> None:
        if self._item is not None:
            self._item.append(data)

    def unlabelled(self) -> list[dict[str, str | None]]:
        """Controls a screen reader cannot name: no label (for or around), no aria-label."""
        return [
            c
            for c in self.controls
            if c.get("type") not in ("hidden", "submit", "button")
            and c.get("id") not in self.label_for
            and not any(c is w for w in self.wrapped)
            and not c.get("aria-label")
            and not c.get("aria-labelledby")
        ]

    def checked(self, name: str) -> str | None:
        """The value of the checked radio (or the selected value) named ``name``."""
        for c in self.controls:
            if c.get("name") == name and "checked" in c:
                return c.get("value")
        return None

    def submitted(self) -> dict[str, str]:
        """What the browser would post for the page's form as it stands (no button pressed)."""
        data: dict[str, str] = dict(self.selected)
        for c in self.controls:
            name, kind = c.get("name"), c.get("type")
            if not name or c["tag"] != "input" or kind in ("submit", "button", "file"):
                continue
            if kind in ("radio", "checkbox"):
                if "checked" in c:
                    data[name] = c.get("value") or "on"
            else:
                data[name] = c.get("value") or ""
        return data

    def value(self, name: str) -> str | None:
        for c in self.controls:
            if c.get("name") == name:
                return c.get("value")
        return None


def page(response: Any) -> Page:
    return Page(response.get_data(as_text=True))
