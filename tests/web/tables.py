"""Helpers for the view tests: count rows, read pages. The builders of games, records and
posted hands are in tests/builders.py; they are imported here under the names the view
tests have always used from this module.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from typing import Any

from builders import (
    FORMAT,
    SETUP_RULE_FIELDS,
    ap_hand,
    ap_two_hand_record,
    create_game,
    hand_form,
    import_game,
    post_ap_hand,
    post_hand,
    record,
    setup_form,
    taken,
    version_of,
)
from sqlalchemy import func, select

from scorekeeper.data import models
from scorekeeper.data.extensions import db

#: The points a Ten-Point Pitch game (and the joker rule sets) count out first, as the
#: pages show their rows.
JOKER_POINTS = ["high", "low", "jack", "off_jack", "big_joker", "little_joker"]

__all__ = [
    "FORMAT",
    "JOKER_POINTS",
    "SETUP_RULE_FIELDS",
    "Page",
    "ap_hand",
    "ap_two_hand_record",
    "create_game",
    "exported",
    "flashes",
    "game_count",
    "hand_count",
    "hand_form",
    "html_of",
    "import_game",
    "opened",
    "page",
    "post_ap_hand",
    "post_hand",
    "post_opened",
    "record",
    "setup_form",
    "taken",
    "text",
    "version_of",
]


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


def exported(client: Any, game_id: int) -> dict[str, Any]:
    response = client.get(f"/games/{game_id}.json")
    assert response.status_code == 200
    data: dict[str, Any] = json.loads(response.get_data(as_text=True))
    return data


def html_of(client: Any, url: str) -> str:
    """The page at ``url``, which must answer 200, as text."""
    response = client.get(url)
    assert response.status_code == 200
    html: str = response.get_data(as_text=True)
    return html


def opened(client: Any, game_id: int) -> dict[str, str]:
    """The hidden fields of the hand form as the game page gives them (key, hand, version)."""
    form = page(client.get(f"/games/{game_id}"))
    return {name: str(form.value(name)) for name in ("token", "number", "version")}


def post_opened(
    client: Any, game_id: int, players: list[str], form: dict[str, str], **taps: Any
) -> Any:
    """Post the hand form of a game as ``opened`` gave it (no script), with ``taps``."""
    return client.post(f"/games/{game_id}", data={**form, **hand_form(players, **taps)})


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
