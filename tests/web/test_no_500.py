"""No input a client can send makes a page fail with a 500: odd values get a message."""

from __future__ import annotations

import io
import itertools
import json
from typing import Any

import pytest
from pypdf import PdfReader
from werkzeug.datastructures import MultiDict

from .tables import SETUP_RULE_FIELDS, ap_hand, import_game, record, setup_form

ODD_VALUES = [
    "",
    " ",
    "-1",
    "99999999999999999999999",
    "nobody",
    "٣",  # an Arabic-Indic digit: isdigit() but not ASCII
    "\x00",
    "<script>alert(1)</script>",
    "x" * 5000,
]


@pytest.fixture
def games(client: Any) -> dict[str, int]:
    """One game of each kind of form: plain, Sell-Out, Cinch, and a finished one."""
    return {
        "plain": import_game(
            client,
            record(
                "auction-pitch",
                ["Ann", "Bob", "Cy"],
                [ap_hand("Bob", 2, "Bob", "Bob", None, "Ann")],
            ),
        ),
        "sellout": import_game(
            client, record("sell-out", ["Ann", "Bob", "Cy"], [{"passed": True}])
        ),
        "cinch": import_game(
            client,
            record(
                "cinch",
                ["Ann", "Bob", "Cy", "Dee"],
                [],
                teams={"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]},
            ),
        ),
        "finished": import_game(
            client,
            record(
                "auction-pitch", ["Ann", "Bob"], [ap_hand("Bob", 4, "Bob", "Bob", "Bob", "Bob")]
            ),
        ),
    }


HAND_FIELDS = [
    "pitcher",
    "bid",
    "point_high",
    "point_jack",
    "sale",
    "high_bidder",
    "note",
    "version",
    "token",
    "passed_out",
]


def test_odd_values_in_every_hand_field_never_make_a_500(
    client: Any, games: dict[str, int]
) -> None:
    # Each odd value goes into each field once, on the game and page next in turn.
    pages = itertools.cycle(
        [f"/games/{game_id}{tail}" for game_id in games.values() for tail in ("", "/hands/1/edit")]
    )
    for field, value in itertools.product(HAND_FIELDS, ODD_VALUES):
        data = {
            "pitcher": "0",
            "bid": "2",
            "point_high": "0",
            "point_low": "1",
            "point_jack": "nobody",
            "point_game": "1",
            "sale": "sold",
            "version": "1",
            field: value,
        }
        url = next(pages)
        response = client.post(url, data=data)
        assert response.status_code < 500, (url, field, value)


def test_odd_values_in_every_setup_field_never_make_a_500(client: Any) -> None:
    fields = ["name_0", "team_0", *SETUP_RULE_FIELDS]
    variants = itertools.cycle(["auction-pitch", "pedro", "cinch"])
    for field, value in itertools.product(fields, ODD_VALUES):
        data = {
            "name_0": "Ann",
            "name_1": "Bob",
            "first_dealer": "0",
            "target": "7",
            "low_to": "holder",
            "smudge": "off",
            "all_pass": "dealer-takes",
            "payout_in_hole": "2",
            "payout_per_setback": "0",
            field: value,
        }
        variant = next(variants)
        response = client.post(f"/games/new/{variant}", data=data)
        assert response.status_code < 500, (variant, field, value)


def test_odd_versions_on_undo_and_delete_never_make_a_500(
    client: Any, games: dict[str, int]
) -> None:
    for value in ODD_VALUES:
        for url in (f"/games/{games['plain']}/undo", f"/games/{games['sellout']}/delete"):
            assert client.post(url, data={"version": value}).status_code < 500, (url, value)


def test_repeated_fields_and_odd_bodies_never_make_a_500(
    client: Any, games: dict[str, int]
) -> None:
    game_id = games["plain"]
    repeated = MultiDict(
        [
            ("pitcher", "0"),
            ("pitcher", "1"),
            ("bid", "2"),
            ("bid", "3"),
            ("version", "1"),
            ("version", "2"),
        ]
    )
    assert client.post(f"/games/{game_id}", data=repeated).status_code < 500
    for body, content_type in [
        (b"\xff\xfe", "application/x-www-form-urlencoded"),
        (b"pitcher=%ff%fe&bid=%00", "application/x-www-form-urlencoded"),
        (b"--x\r\nbroken", "multipart/form-data; boundary=x"),
        (b"{}", "text/plain"),
    ]:
        for url in (f"/games/{game_id}", "/games/import", "/games/new/auction-pitch"):
            response = client.post(url, data=body, content_type=content_type)
            assert response.status_code < 500, (url, body, content_type)


@pytest.mark.parametrize(
    "url",
    [
        "/games/0",
        "/games/-1",
        "/games/99999999999999999999",
        "/games/abc",
        "/games/1.5",
        "/games/1/hands/-1/edit",
        "/games/1/hands/99999999999999999999/edit",
        "/games/new/%00",
        "/games/99999999999999999999.json",
        "/games/99999999999999999999/board",
        # Above 2^63 SQLite cannot bind the number; above 2^31 no id column holds it.
        "/players/99999999999999999999",
        "/players/2147483648",
        "/nights/99999999999999999999",
        "/nights/99999999999999999999.pdf",
        "/games/99999999999999999999/sheet.pdf",
        "/games/18446744073709551616/version.json",
        "/games/1/hands/2147483648/edit",
    ],
)
def test_odd_urls_are_404s_not_500s(client: Any, url: str) -> None:
    assert client.get(url).status_code == 404


@pytest.mark.parametrize(
    "url",
    [
        "/players/99999999999999999999/rename",
        "/players/99999999999999999999/merge",
        "/nights/99999999999999999999/edit",
        "/nights/99999999999999999999/end",
        "/nights/99999999999999999999/games",
        "/nights/1/games/99999999999999999999/remove",
        "/games/99999999999999999999/undo",
    ],
)
def test_odd_ids_in_posted_urls_are_404s_not_500s(client: Any, url: str) -> None:
    assert client.post(url, data={"version": "1"}).status_code == 404


def test_every_number_in_an_address_is_read_by_the_one_id_converter(app: Any) -> None:
    from werkzeug.routing.converters import NumberConverter

    from scorekeeper.web.routing import IdConverter

    numbers = {
        (rule.rule, name): converter
        for rule in app.url_map.iter_rules()
        for name, converter in rule._converters.items()
        if isinstance(converter, NumberConverter)
    }
    assert ("/games/<id:game_id>", "game_id") in numbers
    assert {place for place, c in numbers.items() if not isinstance(c, IdConverter)} == set()


UNSAFE_TARGETS = [
    "/a\nb",  # a header cannot hold a line break: the redirect itself failed
    "/a\rSet-Cookie: x=1",
    "/a\tb",
    "//evil.example/x",
    "/\\evil.example/x",  # browsers read a backslash as a slash: //evil.example
    "https://evil.example/",
    "javascript:alert(1)",
    "games/1",
]


@pytest.mark.parametrize("target", UNSAFE_TARGETS)
def test_an_unsafe_next_after_login_or_the_language_switch_goes_home_not_to_a_500(
    client: Any, target: str
) -> None:
    for response in (
        client.get("/login", query_string={"next": target}),
        client.post("/language", data={"lang": "ro", "next": target}),
    ):
        assert response.status_code in (302, 303), (target, response.status_code)
        assert response.headers["Location"] == "/", target


def test_a_local_next_is_followed_after_login_and_the_language_switch(client: Any) -> None:
    assert client.get("/login?next=/players%3Fpage%3D2").headers["Location"] == "/players?page=2"
    response = client.post("/language", data={"lang": "en", "next": "/history"})
    assert response.headers["Location"] == "/history"


def _largest_game() -> dict[str, Any]:
    """Seven players, the longest stake and largest payouts a record may hold, and six losers
    set back ten times each before Ann smudges: money far past 28 digits."""
    players = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"]
    set_backs = [
        {"pitcher": p, "bid": 4, "points": {"high": p, "low": p, "jack": None, "game": None}}
        for _ in range(10)
        for p in players[1:]
    ]
    return record(
        "auction-pitch",
        players,
        [*set_backs, ap_hand("Ann", 4, "Ann", "Ann", "Ann", "Ann")],
        stake="9" * 27 + ".9999",
        house_rules={"target": 999, "payout_in_hole": 1000, "payout_per_setback": 1000},
    )


def test_a_game_with_the_largest_numbers_a_record_holds_shows_on_every_page(client: Any) -> None:
    # A 27-digit stake made every page that shows money fail on SQLite (a decimal
    # context of 28 digits); PostgreSQL refused a stake over 32 characters with a 500.
    game_id = import_game(client, _largest_game())
    # Each loser pays 1000 + 10 * 1000 units: 10,999,...,998.90; Ann takes six of those.
    assert "65,999,999,999,999,999,999,999,999,999,993.40" in client.get("/players").text
    for url in (f"/games/{game_id}", f"/games/{game_id}/board", "/history", "/players", "/"):
        assert client.get(url).status_code == 200, url
    sheet = client.get(f"/games/{game_id}/sheet.pdf")
    assert sheet.status_code == 200
    printed = "".join(page.extract_text() for page in PdfReader(io.BytesIO(sheet.data)).pages)
    assert printed.count("Ann 11,000") == 6  # each loser's payment to Ann, in units
    night = client.post("/nights", data={"name": "Big", "date": "2026-12-01"})
    assert night.status_code == 302, night.text[-500:]
    night_url = night.headers["Location"]
    added = client.post(f"{night_url}/games", data={"add-game": str(game_id)})
    assert added.status_code == 302, added.text[-500:]
    for url in (night_url, f"{night_url}.pdf", "/nights"):
        assert client.get(url).status_code == 200, url


@pytest.mark.parametrize(
    "changes",
    [
        {"stake": "1" * 33},
        {"house_rules": {"payout_in_hole": 10**19}},
        {"house_rules": {"payout_in_hole": 10**17}},
        {"house_rules": {"target": 2**31}},
    ],
)
def test_a_record_with_a_number_the_database_cannot_hold_is_refused_and_pages_still_show(
    client: Any, changes: dict[str, Any]
) -> None:
    bad = record("auction-pitch", ["Ann", "Bob"], [ap_hand("Bob", 4, "Bob", "Bob", "Bob", "Bob")])
    response = client.post("/games/import", json={**bad, **changes})
    assert response.status_code == 400
    field = next(iter(changes))
    assert response.get_json()["error"].startswith(field), response.get_json()
    for url in ("/", "/history", "/players"):
        assert client.get(url).status_code == 200, url


def test_a_number_of_thousands_of_digits_in_an_import_names_its_field(client: Any) -> None:
    text = json.dumps(record("auction-pitch", ["Ann", "Bob"], [], house_rules={"target": 7}))
    response = client.post(
        "/games/import",
        data=text.replace('"target": 7', '"target": ' + "9" * 5000),
        content_type="application/json",
    )
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error == "house_rules.target: the number is too large; it can be at most 2147483647"


def test_the_largest_game_the_setup_form_makes_exports_and_imports_back(client: Any) -> None:
    # The form's bounds lie within the record's: whatever a table sets up can move.
    largest = {"target": "999", "payout_in_hole": "99", "payout_per_setback": "99"}
    fits = setup_form("auction-pitch", ["Ann", "Bob"], stake="999999.9999", **largest)
    created = client.post("/games/new/auction-pitch", data=fits)
    assert created.status_code == 302
    exported = client.get(created.headers["Location"] + ".json").get_json()
    assert exported["stake"] == "999999.9999"
    game_id = created.headers["Location"].rsplit("/", 1)[1]
    assert client.post(f"/games/import?again={game_id}", json=exported).status_code == 201
    for field, value in [("target", "1000"), ("payout_in_hole", "100"), ("stake", "1234567")]:
        refused = setup_form("auction-pitch", ["Ann", "Bob"], **{**largest, field: value})
        assert client.post("/games/new/auction-pitch", data=refused).status_code == 400, field


@pytest.mark.parametrize("depth", [100_000, 900, 960, 985, 995])
def test_a_deeply_nested_record_imported_on_the_web_is_one_line_not_a_500(
    client: Any, depth: int
) -> None:
    nested = "[" * depth + "]" * depth
    text = (
        '{"format": "pitch-scorekeeper/1", "variant": "auction-pitch", "players": ["Ann", "Bob"],'
        ' "hands": [], "house_rules": {"target": ' + nested + "}}"
    )
    response = client.post("/games/import", data=text, content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["error"].count("\n") == 0
    page = client.post("/games/import", data={"record_text": text})
    assert page.status_code == 400
    assert client.get("/").status_code == 200
