"""Throw random form posts and JSON at the app: never a 500, a trace, or a half-save.

Every rejected request must leave the database exactly as it was (every row of
every table compared).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
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
        "first_dealer",
        "target",
        "low_to",
        "smudge",
        "all_pass",
        "payout_in_hole",
        "payout_per_setback",
        "stake",
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
    _check(
        app,
        client,
        "POST",
        "/games/import",
        data=json.dumps(document),
        content_type="application/json",
    )


@FUZZ_SETTINGS
@given(raw=st.binary(max_size=300))
def test_random_bytes_as_an_uploaded_record_never_fail_and_change_nothing(
    app: Any, client: Any, raw: bytes
) -> None:
    import io

    _check(
        app,
        client,
        "POST",
        "/games/import",
        data={"record": (io.BytesIO(raw), "game.json")},
        content_type="multipart/form-data",
    )


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
    _check(
        app,
        client,
        "POST",
        "/games/import",
        data=json.dumps(document),
        content_type="application/json",
    )
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
