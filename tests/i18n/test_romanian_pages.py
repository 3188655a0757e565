"""A Romanian table meets no English: every page, form error and PDF, walked in Romanian.

The walk seeds a database with every variant, finished games, settlements and game nights,
then follows every link from the front page (a couple of each kind of URL) in Romanian. It
fails on a catalogue miss (a string sent through gettext with no Romanian entry) and on any
English-only word of the catalogue left on the page (a string that never went through
gettext at all); the players' own names, places and notes are data, not English.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from collections.abc import Iterator
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urljoin, urlsplit

import pytest
from pypdf import PdfReader

from scorekeeper import i18n

from .catalogue import WORD, english_only_words

#: Names of games and the card-table words Romanian players use as they are.
SAME_IN_ROMANIAN = {
    "pitch",
    "smudge",
    "pitcher",
    "joker",
    "pedro",
    "cinch",
    "sell",
    "out",
    "six",
    "racehorse",
    "setback",
    "high",
    "five",
    "double",
    "english",
    "pdf",
    "json",
    "scorekeeper",
}


@pytest.fixture
def misses() -> Iterator[list[str]]:
    """The messages that reach gettext with no Romanian translation, while the test runs."""
    found: list[str] = []
    romanian = i18n.translations_for("ro")
    assert isinstance(romanian, i18n.CheckedTranslations)
    romanian.misses.clear()
    romanian.on_miss = lambda _locale, message: found.append(message)
    yield found
    romanian.on_miss = None


@pytest.fixture
def seeded(app: Any) -> set[str]:
    """A database of every variant, nights and settlements; return the words of its data."""
    from scorekeeper.cli.seed import seed_database
    from scorekeeper.data import models
    from scorekeeper.data.extensions import db

    with app.app_context():
        seed_database(30, seed=8, players=10)
        data: set[str] = set()
        for table, columns in (
            (models.Player, ("name",)),
            (models.Night, ("name", "place")),
            (models.Hand, ("note",)),
        ):
            for row in db.session.query(*(getattr(table, c) for c in columns)):
                for value in row:
                    data.update(w.lower() for w in WORD.findall(value or ""))
        for (teams,) in db.session.query(models.Game.teams):
            for team in teams or ():  # stored as [[name, [members]], ...]
                name = team[0] if isinstance(team, list) else team
                data.update(w.lower() for w in WORD.findall(str(name)))
    return data


class _Page(HTMLParser):
    """The words a reader meets on a page (text, titles, placeholders, button values) and
    its same-site links."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.links: list[str] = []
        self._skip = 0
        self._untranslated: list[str] = []  # open elements marked translate="no" (an address)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag in ("script", "style"):
            self._skip += 1
        if found.get("translate") == "no":
            self._untranslated.append(tag)
        if tag == "a" and found.get("href"):
            self.links.append(found["href"] or "")
        for name in ("title", "placeholder", "aria-label", "alt"):
            if found.get(name):
                self.text.append(found[name] or "")
        if tag == "input" and found.get("type") in ("submit", "button") and found.get("value"):
            self.text.append(found["value"] or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self._skip:
            self._skip -= 1
        if self._untranslated and self._untranslated[-1] == tag:
            self._untranslated.pop()

    def handle_data(self, data: str) -> None:
        if not self._skip and not self._untranslated:
            self.text.append(data)


#: A record's key or value quoted in a Romanian message („players”): written as in the file.
QUOTED = re.compile(r"„[^”]*”")


def english_words(text: str, data_words: set[str]) -> list[str]:
    suspicious = english_only_words() - SAME_IN_ROMANIAN - data_words
    return sorted({w for w in WORD.findall(QUOTED.sub(" ", text)) if w.lower() in suspicious})


def url_kind(url: str) -> str:
    """Group URLs that show the same page for other data: /games/12 and /games/40."""
    parts = urlsplit(url)
    return re.sub(r"\d+", "N", parts.path) + (
        "?" + "&".join(sorted(re.sub(r"=.*", "", q) for q in parts.query.split("&")))
        if parts.query
        else ""
    )


SKIP = ("/static/", "/language", "/logout", "/history.pdf", "/healthz")


def walk(client: Any, start: str = "/", per_kind: int = 2) -> Iterator[tuple[str, Any]]:
    seen: set[str] = set()
    kinds: Counter[str] = Counter()
    queue = [start]
    while queue:
        url = queue.pop(0)
        if url in seen or url.startswith(SKIP) or kinds[url_kind(url)] >= per_kind:
            continue
        seen.add(url)
        kinds[url_kind(url)] += 1
        response = client.get(url)
        yield url, response
        if response.mimetype == "text/html":
            page = _Page()
            page.feed(response.get_data(as_text=True))
            for href in page.links:
                target = urljoin(url, href)
                parts = urlsplit(target)
                if parts.scheme or parts.netloc:
                    continue
                queue.append(parts.path + (f"?{parts.query}" if parts.query else ""))


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(data)).pages)


def test_every_page_and_pdf_reads_in_romanian_with_no_english(
    client: Any, seeded: set[str], misses: list[str]
) -> None:
    client.post("/language", data={"lang": "ro"})
    english: dict[str, list[str]] = {}
    visited = Counter[str]()
    for url, response in walk(client):
        assert response.status_code in (200, 302, 303), (url, response.status_code)
        if response.mimetype == "text/html":
            visited["html"] += 1
            page = _Page()
            page.feed(response.get_data(as_text=True))
            text = " ".join(page.text)
            assert re.search(r'<html lang="ro"', response.get_data(as_text=True)), url
        elif response.mimetype == "application/pdf":
            visited["pdf"] += 1
            text = pdf_text(response.get_data())
        else:
            continue
        if found := english_words(text, seeded):
            english[url] = found
    assert misses == [], "strings sent to gettext with no Romanian translation"
    assert english == {}, "English words on Romanian pages"
    # The walk reached the app's pages: games, a sheet PDF, players, nights, history.
    assert visited["html"] >= 15 and visited["pdf"] >= 1, visited


def test_forms_say_what_is_wrong_in_romanian(
    client: Any, seeded: set[str], misses: list[str]
) -> None:
    client.post("/language", data={"lang": "ro"})
    pages = []
    # A hand with a bid far above the maximum, and nothing else filled in.
    games = re.findall(r'href="/games/(\d+)"', client.get("/").get_data(as_text=True))
    assert games
    for game_id in games[:3]:
        response = client.post(f"/games/{game_id}", data={"bid": "99", "pitcher": "0"})
        pages.append(response.get_data(as_text=True))
    # A new game with no players, and an import of a broken record.
    pages.append(client.post("/games/new/auction-pitch", data={}).get_data(as_text=True))
    broken = io.BytesIO(b'{"format": "pitch-scorekeeper/1", "variant": "auction-pitch"}')
    pages.append(
        client.post(
            "/games/import",
            data={"record": (broken, "game.json")},
            content_type="multipart/form-data",
        ).get_data(as_text=True)
    )
    players = re.findall(r'href="/players/(\d+)"', client.get("/players").get_data(as_text=True))
    assert players
    pages.append(
        client.post(f"/players/{players[0]}/rename", data={"name": " "}).get_data(as_text=True)
    )
    english = {}
    for number, html in enumerate(pages):
        page = _Page()
        page.feed(html)
        if found := english_words(" ".join(page.text), seeded):
            english[number] = found
    assert misses == []
    assert english == {}
