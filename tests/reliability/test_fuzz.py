"""Throw random form posts and JSON at the app: never a 500, a trace, or a half-save.

Every rejected request must leave the database exactly as it was (every row of
every table compared).
"""

from __future__ import annotations

import json
import random
import re
from datetime import date
from typing import Any

import pytest
from builders import SERVED, SETUP_RULE_FIELDS, config_for
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from scorekeeper import operations, rules
from scorekeeper.data.extensions import db

FUZZ_SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
COUNTER = {"requests": 0}


@pytest.fixture(scope="module", autouse=True)
def report_request_count() -> Any:
    """Print how many fuzzed requests this module sent (the issue asks for the figure)."""
    yield
    print(f"\nfuzzed requests sent: {COUNTER['requests']}")


# Values a hand form field might receive: real choices, near misses and junk.
field_values = st.one_of(
    st.sampled_from(
        [
            "0",
            "1",
            "2",
            "3",
            "4",
            "5",
            "7",
            "-1",
            "99",
            "nobody",
            "",
            " ",
            "1.5",
            "pitched",
            "sold",
            "kept",
            "abc",
            "0x1",
            "１",
            "null",
            "None",
        ]
    ),
    st.text(max_size=30),
    st.integers(min_value=-(10**12), max_value=10**12).map(str),
)
form_keys = st.sampled_from(
    [
        "pitcher",
        "bid",
        "point_high",
        "point_low",
        "point_jack",
        "point_game",
        "sale",
        "high_bidder",
        "note",
        "version",
        "token",
        "save",
        "passed_out",
        "name_0",
        "name_1",
        "name_2",
        "team_0",
        "team_1",
        *SETUP_RULE_FIELDS,
        "record_text",
        "extra",
    ]
)
forms = st.dictionaries(form_keys, field_values, max_size=14)


def table_state() -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, to prove a rejected request changed nothing."""
    state = {}
    for table in db.metadata.sorted_tables:
        rows = db.session.execute(text(f"SELECT * FROM {table.name} ORDER BY 1")).all()
        state[table.name] = [tuple(str(v) for v in row) for row in rows]
    db.session.rollback()
    return state


@pytest.fixture
def game_ids(app: Any) -> dict[str, int]:
    """A game in progress of each kind the forms differ for, with a hand or two."""
    with app.app_context():
        ids = {}
        ids["auction"] = operations.games.create_game(
            rules.Game.create("auction-pitch", ["Ann", "Bob", "Cy"])
        )
        operations.hands.record_hand(
            ids["auction"],
            rules.Hand(
                pitcher="Bob",
                bid=2,
                points={"high": "Bob", "low": "Cy", "jack": None, "game": "Bob"},
            ),
            version=0,
        )
        ids["sellout"] = operations.games.create_game(
            rules.Game.create("sell-out", ["Ann", "Bob", "Cy"])
        )
        ids["cinch"] = operations.games.create_game(
            rules.Game.create(
                "cinch",
                ["Ann", "Bob", "Cy", "Dee"],
                teams={"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]},
            )
        )
        return ids


def _check(app: Any, client: Any, method: str, path: str, **kwargs: Any) -> None:
    with app.app_context():
        before = table_state()
    response = client.open(path, method=method, **kwargs)
    COUNTER["requests"] += 1
    body = response.get_data(as_text=True)
    assert response.status_code < 500, (path, kwargs, body[:500])
    assert "Traceback" not in body
    if response.status_code >= 400:
        with app.app_context():
            assert table_state() == before, (path, kwargs, response.status_code)


def _check_import(app: Any, client: Any, **kwargs: Any) -> None:
    """``_check`` a record posted to the import, as ``kwargs`` give its body."""
    _check(app, client, "POST", "/games/import", **kwargs)


@FUZZ_SETTINGS
@given(
    form=forms,
    which=st.sampled_from(["auction", "sellout", "cinch"]),
    target=st.sampled_from(["hand", "edit", "undo", "delete"]),
)
def test_random_form_posts_to_a_game_never_fail_and_rejected_ones_change_nothing(
    app: Any,
    client: Any,
    game_ids: dict[str, int],
    form: dict[str, str],
    which: str,
    target: str,
) -> None:
    game_id = game_ids[which]
    path = {
        "hand": f"/games/{game_id}",
        "edit": f"/games/{game_id}/hands/1/edit",
        "undo": f"/games/{game_id}/undo",
        "delete": f"/games/{game_id}/delete",
    }[target]
    _check(app, client, "POST", path, data=form)


@FUZZ_SETTINGS
@given(form=forms, variant=st.sampled_from([*rules.VARIANTS, "no-such-variant"]))
def test_random_new_game_forms_never_fail_and_rejected_ones_change_nothing(
    app: Any, client: Any, form: dict[str, str], variant: str
) -> None:
    _check(app, client, "POST", f"/games/new/{variant}", data=form)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4)
    ),
    max_leaves=20,
)


def _mutated_records(draw: Any) -> Any:
    base = json.loads(
        '{"format": "pitch-scorekeeper/1", "variant": "auction-pitch", "players": ["Ann", "Bob"],'
        ' "hands": [{"pitcher": "Bob", "bid": 2, "points": {"high": "Bob", "low": "Ann",'
        ' "jack": null, "game": "Bob"}}]}'
    )
    key = draw(
        st.sampled_from(
            [
                "format",
                "variant",
                "players",
                "hands",
                "house_rules",
                "teams",
                "stake",
                "first_dealer",
                "surprise",
            ]
        )
    )
    base[key] = draw(json_values)
    return base


@FUZZ_SETTINGS
@given(document=st.one_of(json_values, st.composite(_mutated_records)()))
def test_random_json_imports_never_fail_and_rejected_ones_change_nothing(
    app: Any, client: Any, document: Any
) -> None:
    _check_import(app, client, data=json.dumps(document), content_type="application/json")


@FUZZ_SETTINGS
@given(raw=st.binary(max_size=300))
def test_random_bytes_as_an_uploaded_record_never_fail_and_change_nothing(
    app: Any, client: Any, raw: bytes
) -> None:
    import io

    upload = {"record": (io.BytesIO(raw), "game.json")}
    _check_import(app, client, data=upload, content_type="multipart/form-data")


#: Numbers around every bound a record's numbers meet: the forms', 32 and 64 bits, and beyond.
big_numbers = st.one_of(
    st.sampled_from([4, 7, 99, 100, 999, 1000, 2**31 - 1, 2**31, 2**63 - 1, 2**63, 10**19]),
    st.integers(0, 10**30),
)
stakes = st.one_of(
    st.sampled_from(["0.25", "999999.9999", "1234567", "1" * 27, "9" * 33]),
    st.from_regex(r"[0-9]{1,40}(\.[0-9]{1,12})?", fullmatch=True),
)


@st.composite
def _records_with_big_numbers(draw: Any) -> dict[str, Any]:
    switch = draw(st.sampled_from(["target", "payout_in_hole", "payout_per_setback"]))
    record: dict[str, Any] = {
        "format": rules.FORMAT,
        "variant": "auction-pitch",
        "players": ["Ann", "Bob"],
        "house_rules": {switch: draw(big_numbers)},
        "hands": [
            {
                "pitcher": "Bob",
                "bid": draw(st.one_of(st.just(4), big_numbers)),
                "points": {"high": "Bob", "low": "Bob", "jack": "Bob", "game": "Bob"},
            }
        ],
    }
    if draw(st.booleans()):
        record["stake"] = draw(stakes)
    return record


@FUZZ_SETTINGS
@given(document=_records_with_big_numbers())
def test_records_with_large_numbers_are_refused_or_shown_on_every_page(
    app: Any, client: Any, document: dict[str, Any]
) -> None:
    _check_import(app, client, data=json.dumps(document), content_type="application/json")
    for path in ("/", "/history", "/players", "/games/1", "/games/1/board"):
        _check(app, client, "GET", path)


@FUZZ_SETTINGS
@given(raw=st.binary(min_size=1, max_size=12))
def test_a_name_sent_as_any_bytes_is_saved_as_that_text_or_refused(
    app: Any, client: Any, raw: bytes
) -> None:
    """Bytes that are not UTF-8 were kept as "%FF" text; now they are refused, changing nothing."""
    from urllib.parse import quote_from_bytes

    from scorekeeper.data import models

    def names() -> set[str]:
        with app.app_context():
            return set(db.session.execute(db.select(models.Player.name)).scalars())

    before = names()
    body = (
        "name_0=" + quote_from_bytes(raw) + "&name_1=Bob&first_dealer=0&target=7&low_to=holder"
        "&smudge=not-in-hole&all_pass=dealer-takes&payout_in_hole=2&payout_per_setback=0"
    )
    _check(
        app,
        client,
        "POST",
        "/games/new/auction-pitch",
        data=body,
        content_type="application/x-www-form-urlencoded",
    )
    added = names() - before
    try:
        text = raw.decode()
    except UnicodeDecodeError:
        assert added <= {"Bob"}, added  # refused: no name made of the bytes' escapes
    else:
        assert added <= {"Bob", text.strip()}, added


# --- The shape of a request: field names and values, urlencoded and multipart --------------

#: Requests the shape fuzz sends: every POST route, many times over.
SHAPE_CASES = 10_000
#: In parts of their own (each its own seed), so that the suite's workers share them.
SHAPE_PARTS = 4

#: Field names and values as a browser never sends them (and some as it does), as bytes.
ODD_PIECES = [
    b"\\",
    b'"',
    b'\\"',
    b"",
    b" ",
    b"a\\",
    b"x\\\\",
    b"csrf_token",
    b"name_0",
    b"version",
    b"token",
    b"number",
    b"note",
    b"merge-other",
    b"rename-name",
    b"record",
    b"record_text",
    b"password",
    b"lang",
    b"next",
    b";",
    b"=",
    b"&",
    b"a;b=c",
    b"%",
    b"%FF%FE",
    b"%00",
    b"%2",
    b"%C3",
    b"\xff\xfe",
    b"\xed\xa0\x80",  # a surrogate written in UTF-8
    b"\x00",
    b"\r\n",
    b"\r\nContent-Type: text/plain",
    "Ana\u202eevil".encode(),
    "\ufffd".encode(),
    "Zo\u00eb".encode(),
    "\uff21".encode(),
    b"+",
    b"a+b",
    b"[]",
    b"__proto__",
    b"0",
    b"-1",
    b"99999999999999999999999",
    b"x" * 300,
]

#: Ways a multipart part may name itself in its Content-Disposition.
DISPOSITIONS = [
    b'form-data; name="%s"',
    b"form-data; name=%s",
    b"form-data; name*=UTF-8''%s",
    b'form-data; name="%s"; filename="a.json"',
    b'form-data; filename="%s"',
    b"form-data",
    b'form-data; name="%s"; name="x"',
    b'attachment; name="%s"',
    b'form-data; name="%s',
    b"",
]


def _piece(chance: random.Random) -> bytes:
    if chance.random() < 0.2:
        return bytes(chance.randrange(256) for _ in range(chance.randrange(1, 8)))
    pieces = [chance.choice(ODD_PIECES) for _ in range(chance.randrange(1, 3))]
    return b"".join(pieces)


def _urlencoded(chance: random.Random, token: bytes | None) -> tuple[bytes, str]:
    pairs = [b"csrf_token=" + token] if token else []
    for _ in range(chance.randrange(0, 6)):
        pair = _piece(chance)
        if chance.random() < 0.8:
            pair += b"=" + _piece(chance)
        pairs.append(pair)
    return b"&".join(pairs), "application/x-www-form-urlencoded"


def _multipart(chance: random.Random, token: bytes | None) -> tuple[bytes, str]:
    """A multipart body: its framing sound when it carries the CSRF ``token`` (so the form is
    read and reaches the view), else as often broken as not."""
    boundary = b"B" if token else chance.choice([b"B", b"----x", b'"q"', b"a b", b"\\", b""])
    parts = []
    if token:
        parts.append(b'--B\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n' + token)
        parts.append(b"\r\n")
    for _ in range(chance.randrange(0, 5)):
        disposition = chance.choice(DISPOSITIONS)
        header = disposition.replace(b"%s", _piece(chance)) if b"%s" in disposition else disposition
        extra = chance.choice([b"", b"\r\nContent-Type: application/json", b"\r\nX: y"])
        parts.append(
            b"--"
            + boundary
            + b"\r\nContent-Disposition: "
            + header
            + extra
            + b"\r\n\r\n"
            + _piece(chance)
            + b"\r\n"
        )
    if token:
        ending, given = b"--B--\r\n", boundary
    else:
        ending = chance.choice([b"--" + boundary + b"--\r\n", b"--" + boundary, b"", b"--"])
        given = chance.choice([boundary, boundary, b"other", b""])
    content_type = "multipart/form-data" + (
        f"; boundary={given.decode('latin-1')}" if given else ""
    )
    return b"".join(parts) + ending, content_type


def _post_paths(app: Any) -> list[str]:
    """Every route that takes a POST, its numbers filled in (game 1, hand 1, player 1...)."""
    paths = []
    for rule in app.url_map.iter_rules():
        if "POST" in (rule.methods or ()):
            values = {
                name: "auction-pitch" if name == "variant_key" else 1 for name in rule.arguments
            }
            paths.append(rule.build(values, append_unknown=False)[1])
    return sorted(paths)


def _csrf_token(client: Any) -> bytes:
    """The CSRF token of the client's session, as the import page carries it (the lightest
    page with a form: the setup page costs twenty times as much to draw)."""
    page = client.get("/games/import").get_data(as_text=True)
    token = re.search(r'type="hidden" name="csrf_token" value="([^"]+)"', page)
    assert token, "no CSRF token on the import page"
    return token.group(1).encode()


@pytest.fixture
def guarded(migrated_sqlite: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The app as served, CSRF on, with a game and a night in it. On SQLite only: a
    request's shape is checked before any database sees it (what a form holds is fuzzed on
    both databases above)."""
    import shutil

    from scorekeeper import create_app

    path = tmp_path / "shape.sqlite3"
    shutil.copy(migrated_sqlite, path)
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    app = create_app(config_for(f"sqlite:///{path}", **SERVED))
    with app.app_context():
        operations.games.create_game(rules.Game.create("auction-pitch", ["Ann", "Bob"]))
        operations.nights.start_night("Friday", None, date(2027, 1, 8))
        db.session.remove()
    yield app
    with app.app_context():
        db.engine.dispose()


def test_a_multipart_field_named_with_a_backslash_is_refused_in_words_on_every_post_route(
    guarded: Any,
) -> None:
    # name="\\" was a 500 on every POST route, anonymously: the quote is left open, so
    # Werkzeug keeps the field under no name, and the CSRF check read the names as text.
    body = b'--B\r\nContent-Disposition: form-data; name="\\"\r\n\r\n1\r\n--B--\r\n'
    client = guarded.test_client()
    for path in _post_paths(guarded):
        response = client.post(path, data=body, content_type="multipart/form-data; boundary=B")
        assert response.status_code == 400, path
        said = response.get_data(as_text=True)
        assert "A part of the form has no field name, so the form was refused" in said, path


@pytest.mark.parametrize("part", range(SHAPE_PARTS))
def test_no_field_name_or_value_of_any_shape_is_answered_with_a_server_error(
    guarded: Any, part: int
) -> None:
    # A multipart field named "\" (a quote left open: no name at all) was a 500 on every POST
    # route, anonymously: the CSRF check read the form's names as text.
    client = guarded.test_client()
    token = _csrf_token(client)
    paths = _post_paths(guarded)
    chance = random.Random(30 + part)
    failures = []
    reached = 0
    cases = SHAPE_CASES // SHAPE_PARTS
    for case in range(part * cases, (part + 1) * cases):
        path = paths[case % len(paths)]
        shape = _multipart if chance.random() < 0.5 else _urlencoded
        # Half carry the CSRF token, to pass its check into the form and the view.
        carried = chance.random() < 0.5
        body, content_type = shape(chance, token if carried else None)
        response = client.post(path, data=body, content_type=content_type)
        COUNTER["requests"] += 1
        if response.status_code >= 500 or b"Traceback" in response.data:
            failures.append((path, content_type, body[:200], response.status_code))
        if carried and b"This form had expired" not in response.data:
            reached += 1
        if "Set-Cookie" in response.headers:  # a new session (a login, a logout): a new token
            token = _csrf_token(client)
    assert failures == [], failures[:5]
    assert reached > cases // 4  # most that carried the token got past its check
