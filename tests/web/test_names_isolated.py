"""Every name and note the table wrote is isolated where a page shows it, so that a name with a
right-to-left override (U+202E) in it cannot reverse the page's own words after it.

Every page is walked with players, a team, a night, a place, a note and a saved rule set
whose names hold the override. Wherever the override stands in the markup it must be inside
a ``<bdi>`` (or an element with ``dir="auto"``) holding that name alone, or, in text that
cannot hold markup (a page's title, an attribute, a sentence said in words), between
FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE.
"""

from __future__ import annotations

from datetime import date
from html.parser import HTMLParser
from typing import Any

import pytest

from scorekeeper import operations, rules
from scorekeeper.data.extensions import db

RLO = "\u202e"
FSI, PDI = "\u2068", "\u2069"
ROZ = f"{RLO}Roz"
US = f"{RLO}Us"
NIGHT, PLACE = f"{RLO}Friday", f"{RLO}Kitchen"
NOTE = f"{RLO}a note"
RULES = f"{RLO}Thursday"
RENAMED, NEXT_NIGHT = f"{RLO}Bobby", f"{RLO}Saturday"
EVENT, SEASON = f"{RLO}Grange night", f"{RLO}Winter league"
#: Every name and note the table wrote here.
WRITTEN = (ROZ, US, NIGHT, PLACE, NOTE, RULES, RENAMED, NEXT_NIGHT, EVENT, SEASON)
#: And the names the event made of them: its tables' partnerships (filled by ``tables``).
MADE: list[str] = []

#: The pages that are not HTML a person reads, or are not about these games.
NOT_PAGES = {
    "static",
    "games.version",
    "games.export",
    "offline.service_worker",
    "nights.pdf",
    "pdf.game_sheet",
    "history.history_pdf",
    "history.job",
    "history.job_status",
    "history.download",
    "health.healthz",
    "rules_card.variant_pdf",
    "rules_card.game_pdf",
    "rules_card.rule_set_pdf",
    "live.events",
    "live.event_events",  # the room board's stream: no page
    "auth.login",  # no password set: it sends you on
    "event_room.version",
    "event_room.seats_pdf",
    "event_room.tables_pdf",
    "event_room.standings_pdf",
    "event_room.table",  # a table card's code: it sends you on to the table's game
}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


def _outside_text_isolates(text: str) -> bool:
    """Whether an override in ``text`` stands outside every FSI/LRI/RLI ... PDI pair."""
    depth = 0
    for ch in text:
        if ch in "\u2066\u2067\u2068":
            depth += 1
        elif ch == PDI and depth:
            depth -= 1
        elif ch == RLO and not depth:
            return True
    return False


class Isolation(HTMLParser):
    """Note each place an override stands that is not isolated as the module says."""

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.page = page
        self.open: list[tuple[str, bool, list[str]]] = []  # tag, isolates, text inside
        self.faults: list[str] = []
        self.feed(page)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        given = dict(attrs)
        isolates = tag == "bdi" or given.get("dir") == "auto"
        for name, value in attrs:
            if not value or RLO not in value or name.startswith("data-"):
                continue
            shown_alone = isolates and name in ("value", "label") and value in WRITTEN
            if not shown_alone and _outside_text_isolates(value):
                self.faults.append(f"<{tag} {name}={value!r}>")
        if tag in VOID:
            return
        if tag == "option" and self.open and self.open[-1][0] == "option":
            self.handle_endtag("option")
        self.open.append((tag, isolates, []))

    def handle_endtag(self, tag: str) -> None:
        if not any(t == tag for t, _, _ in self.open):
            return
        while self.open:
            closed, isolates, text = self.open.pop()
            whole = "".join(text)
            if (
                isolates
                and RLO in whole
                and not any(w.startswith(whole) for w in (*WRITTEN, *MADE))
            ):
                self.faults.append(f"<{closed}> isolates more than a name: {whole!r}")
            if closed == tag:
                return

    def handle_data(self, data: str) -> None:
        if self.open and self.open[-1][0] == "script":
            return
        for _, _, text in self.open:
            text.append(data)
        inside = any(isolates for _, isolates, _ in self.open)
        if RLO in data and _outside_text_isolates(data) and not inside:
            where = " > ".join(t for t, _, _ in self.open[-4:])
            self.faults.append(f"{where}: {data.strip()[:60]!r}")


@pytest.fixture
def tables(app: Any, client: Any) -> dict[str, int]:
    """A night with a finished staked game (a note in it), a partnership game, a Sell-Out
    game, a ten-point game, a saved rule set: every name holding the override."""
    with app.app_context():
        night = operations.nights.start_night(NIGHT, PLACE, date(2027, 1, 8))
        solo = operations.games.create_game(
            rules.Game.create("auction-pitch", [ROZ, "Bob", "Cy"], stake="0.25"),
            rule_set_name=RULES,
            night_id=night,
        )
        for n in range(3):  # Roz makes 3, 3, then smudges: the game is won
            last = n == 2
            hand = rules.Hand(
                pitcher=ROZ,
                bid=4 if last else 3,
                points={"high": ROZ, "low": ROZ, "jack": ROZ, "game": ROZ if last else "Cy"},
                note=NOTE,
            )
            operations.hands.record_hand(solo, hand, version=None)
        teams = operations.games.create_game(
            rules.Game.create(
                "auction-pitch",
                [ROZ, "Bob", "Cy", "Dee"],
                teams={US: [ROZ, "Cy"], "Them": ["Bob", "Dee"]},
            ),
            night_id=night,
        )
        operations.hands.record_hand(
            teams,
            rules.Hand(
                pitcher=ROZ, bid=2, points={"high": ROZ, "low": "Bob", "jack": None, "game": "Cy"}
            ),
            version=None,
        )
        sell_out = operations.games.create_game(
            rules.Game.create("sell-out", ["Bob", ROZ, "Cy"]), night_id=None
        )
        ten = operations.games.create_game(
            rules.Game.create(
                "ten-point",
                [ROZ, "Bob", "Cy", "Dee"],
                teams={US: [ROZ, "Cy"], "Them": ["Bob", "Dee"]},
            ),
            night_id=None,
        )
        season = operations.seasons.create_season(SEASON, "placing", [10, 8])
        event = operations.event_setup.create_event(
            operations.event_setup.EventSetup(
                name=EVENT,
                day=date(2027, 1, 9),
                place=PLACE,
                format="progressive",
                variant="auction-pitch",
                rounds=2,
                season_id=season,
            )
        )
        operations.event_setup.register(event, [ROZ, "Bob", "Cy", "Dee"])
        operations.rounds.start_round(event, version=None)
        table = operations.events.table_game(event, 1)
        assert table is not None
        loaded = operations.loading.load(table)
        assert loaded.game.teams is not None
        MADE[:] = [team for team, _ in loaded.game.teams]
        side = loaded.names[0]
        for pitcher in loaded.names[:2]:  # seat 0 takes everything: the game ends
            hand = rules.Hand(
                pitcher=pitcher, bid=2, points=dict.fromkeys(("high", "low", "jack", "game"), side)
            )
            operations.hands.record_hand(table, hand, version=None)
        players = dict(db.session.execute(db.text("SELECT name, id FROM player")).all())
        rule_set = db.session.execute(db.text("SELECT id FROM rule_set")).scalar_one()
        db.session.remove()
    return {
        "night": night,
        "solo": solo,
        "teams": teams,
        "sell_out": sell_out,
        "ten": ten,
        "roz": players[ROZ],
        "bob": players["Bob"],
        "rule_set": rule_set,
        "event": event,
        "season": season,
    }


def _pages(app: Any, tables: dict[str, int]) -> list[str]:
    games = [tables[k] for k in ("solo", "teams", "sell_out", "ten")]
    pages = []
    for rule in app.url_map.iter_rules():
        if "GET" not in (rule.methods or ()) or rule.endpoint in NOT_PAGES:
            continue
        arguments = set(rule.arguments)
        if "game_id" in arguments:
            played = games
            if rule.endpoint == "games.play_again_question":
                played = [tables["solo"]]  # the finished one
            elif rule.endpoint == "games.call_time_question":
                played = [g for g in games if g != tables["solo"]]  # the ones being played
            elif "number" in arguments or rule.endpoint == "games.undo":
                played = games[:2]  # the games with hands
            pages += [
                rule.build({"game_id": g, "number": 1}, append_unknown=False)[1] for g in played
            ]
        elif "player_id" in arguments:
            pages += [rule.build({"player_id": p})[1] for p in (tables["roz"], tables["bob"])]
        elif "event_id" in arguments:
            pages.append(rule.build({"event_id": tables["event"], "number": 1})[1])
        elif "season_id" in arguments:
            pages.append(rule.build({"season_id": tables["season"]})[1])
        elif "night_id" in arguments:
            pages.append(rule.build({"night_id": tables["night"]})[1])
        elif "rule_set_id" in arguments:
            pages.append(rule.build({"rule_set_id": tables["rule_set"]})[1])
        elif "variant_key" in arguments:
            pages += [rule.build({"variant_key": v})[1] for v in rules.VARIANTS]
        elif "rule_set_id" in arguments:
            pages.append(rule.build({"rule_set_id": tables["rule_set"]})[1])
        elif "set_key" in arguments:
            pages += [rule.build({"set_key": key})[1] for key in rules.RULE_SETS]
        else:
            pages.append(rule.build({})[1])
    pages += [
        f"/games/new/auction-pitch?again={tables['solo']}",
        f"/games/new/auction-pitch?rules={tables['rule_set']}",
        f"/games/new/ten-point?again={tables['ten']}",
        "/history?player=Bob",
    ]
    return pages


def test_every_name_and_note_on_every_page_is_isolated_from_the_words_around_it(
    app: Any, client: Any, tables: dict[str, int]
) -> None:
    # A name with a right-to-left override reversed the page's words after it: no <bdi>.
    faults = {}
    pages = _pages(app, tables)
    for path in pages:
        response = client.get(path)
        assert response.status_code == 200, path
        found = Isolation(response.get_data(as_text=True)).faults
        if found:
            faults[path] = found[:4]
    assert faults == {}, "\n".join(f"{k}: {v}" for k, v in faults.items())
    assert len(pages) > 30


def test_a_flash_naming_a_player_isolates_the_names(
    app: Any, client: Any, tables: dict[str, int]
) -> None:
    renamed = client.post(f"/players/{tables['bob']}/rename", data={"rename-name": RENAMED})
    assert renamed.status_code == 302
    page = client.get(renamed.headers["Location"]).get_data(as_text=True)
    assert "is now called" in page
    assert Isolation(page).faults == []
    started = client.post("/nights", data={"name": NEXT_NIGHT, "date": "2027-01-09"})
    assert started.status_code == 302
    assert Isolation(client.get(started.headers["Location"]).get_data(as_text=True)).faults == []
