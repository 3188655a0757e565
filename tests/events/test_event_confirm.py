"""An event's hands confirmed by the other side, and its director: every table's game asks for
confirmation; the director's screen lists each table's unconfirmed and disputed hands (read
from every table's trail in one query); a disputed hand holds the next round back until it
is settled; the browser that set the event up directs it, another device does once it enters
the director's code, and only a director corrects a signed game (the trail says so).

The real views on a real database (SQLite, and PostgreSQL when TEST_DATABASE_URL names
one); the table phones are clients of their own, on the hall's network (not loopback).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event
from web.tables import flashes, hand_form, text, version_of

from scorekeeper import operations
from scorekeeper.data.extensions import db

from .test_event_pages import NAMES, _create, _register, _start, _state
from .test_event_pages import _version as operations_version

#: Each seat's side as the hand form posts it (seats 0 and 2 against 1 and 3).
SIDES = ["A", "B", "A", "B"]
PASSWORD = "grange-secret"


def _phone(app: Any, address: str = "192.168.1.31") -> Any:
    """A table phone: a client of its own, on the hall's network."""
    phone = app.test_client()
    phone.environ_base["REMOTE_ADDR"] = address
    return phone


def _names(app: Any, game_id: int) -> list[str]:
    with app.app_context():
        found = list(operations.loading.load(game_id).names)
        db.session.remove()
    return found


def _hand(client: Any, app: Any, game_id: int, pitcher: int, *, edit: int | None = None) -> Any:
    """Seat ``pitcher`` bids 2 and its side takes every point (posted as a phone taps it)."""
    names = _names(app, game_id)
    side = SIDES[pitcher]
    data = hand_form(
        names,
        teams=SIDES,
        pitcher=names[pitcher],
        bid=2,
        version=version_of(client, game_id),
        **dict.fromkeys(("high", "low", "jack", "game"), names[SIDES.index(side)]),
    )
    url = f"/games/{game_id}/hands/{edit}/edit" if edit else f"/games/{game_id}"
    return client.post(url, data=data)


def _answer(client: Any, app: Any, game_id: int, number: int, seat: int, answer: str) -> Any:
    name = _names(app, game_id)[seat]
    return client.post(
        f"/games/{game_id}/hands/{number}/answer", data={"name": name, "answer": answer}
    )


def _trail(app: Any, game_id: int) -> list[operations.trail.Entry]:
    with app.app_context():
        found = operations.trail.entries(operations.loading.load(game_id).row)
        db.session.remove()
    return found


def _night(client: Any, app: Any, **fields: str) -> tuple[int, list[int]]:
    """An event of 8 set up by ``client`` (its director), round 1 started: its games."""
    event_id = _create(client, **fields)
    _register(client, event_id, NAMES[:8])
    assert _start(client, app, event_id).status_code == 302
    tables = _state(app, event_id).current.tables
    return event_id, [t.game_id for t in tables]


@contextmanager
def _trail_reads(app: Any) -> Iterator[list[str]]:
    """The statements that read the trail's table while inside."""
    seen: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if re.search(r'\bfrom "?change"?\b', statement.lower()):
            seen.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", count)


def test_every_table_asks_for_confirmation_and_the_director_sees_each_tables_hands(
    client: Any, app: Any
) -> None:
    event_id, (one, two) = _night(client, app, hands="3")
    with app.app_context():
        assert all(operations.loading.load(g).row.confirm_hands for g in (one, two))
        db.session.remove()
    phone = _phone(app)
    for pitcher in (0, 1):
        assert _hand(phone, app, one, pitcher).status_code == 302
    assert _hand(phone, app, two, 0).status_code == 302
    assert _answer(phone, app, one, 1, 1, "confirm").status_code == 302  # seat 1: other side
    assert _answer(phone, app, one, 2, 0, "dispute").status_code == 302
    # The game page asks the other side, as any game that asks for confirmation does.
    assert "waits for" in text(phone.get(f"/games/{two}").get_data(as_text=True))

    with _trail_reads(app) as reads:
        page = client.get(f"/events/{event_id}")
    assert page.status_code == 200
    # Every table's trail in one query, however many tables.
    assert len(reads) == 1, reads
    html = page.get_data(as_text=True)
    first = text(html[html.index('id="table-1"') : html.index('id="table-2"')])
    assert "1 hand disputed: hand 2" in first and "not confirmed yet" not in first
    second = text(html[html.index('id="table-2"') :])
    assert "1 hand not confirmed yet: hand 1" in second
    assert f'href="/games/{one}/hands/2"' in html and f'href="/games/{two}/hands/1"' in html
    # Settled: confirmed after all, the table says every hand is.
    assert _answer(phone, app, one, 2, 2, "confirm").status_code == 302
    html = client.get(f"/events/{event_id}").get_data(as_text=True)
    first = text(html[html.index('id="table-1"') : html.index('id="table-2"')])
    assert "Every hand confirmed." in first and "disputed" not in first


def test_a_disputed_hand_holds_the_next_round_back_until_it_is_settled(
    client: Any, app: Any
) -> None:
    event_id, (one, two) = _night(client, app, hands="2")
    phone = _phone(app)
    for game_id in (one, two):
        _hand(phone, app, game_id, 0)
        _hand(phone, app, game_id, 2)
    _answer(phone, app, two, 2, 1, "dispute")
    assert _state(app, event_id).current.finished  # every table has finished...
    refused = _start(client, app, event_id)
    said = flashes(client.get(refused.headers["Location"]).get_data(as_text=True))
    assert (
        "Round 1 has a disputed hand: table 2, hand 2. Correct it on the table's game page, "
        "or have the other side confirm it, then start the next round." in said
    )
    assert len(_state(app, event_id).rounds) == 1
    # Said in Romanian too (the page's language).
    ro_headers = {"Accept-Language": "ro"}
    version = {"version": str(operations_version(app, event_id))}
    client.post(f"/events/{event_id}/rounds", data=version, headers=ro_headers)
    ro = client.get(f"/events/{event_id}", headers=ro_headers)
    assert any("masa 2, mâna 2" in f for f in flashes(ro.get_data(as_text=True)))

    # The other side confirms it: the hands only waiting (every other) do not hold it back.
    _answer(phone, app, two, 2, 3, "confirm")
    assert _start(client, app, event_id).status_code == 302
    state = _state(app, event_id)
    assert len(state.rounds) == 2
    with app.app_context():
        assert operations.table_marks.table_marks([operations.loading.load(one)])[one].waiting
        db.session.remove()


def test_the_directors_code_makes_another_device_a_director(client: Any, app: Any) -> None:
    event_id, _games = _night(client, app, hands="1", rounds="3")
    other = _phone(app, "192.168.1.40")
    seen = other.get(f"/events/{event_id}").get_data(as_text=True)
    assert 'id="become-director"' in seen
    assert 'id="shown-director-code"' not in seen and 'id="call-time"' not in seen
    # Not the director: the round's clock is not theirs, and nothing changes.
    refused = other.post(f"/events/{event_id}/clock/call")
    said = flashes(other.get(refused.headers["Location"]).get_data(as_text=True))
    assert any("Only the event's director can do that" in f for f in said)
    assert _state(app, event_id).current.called_at is None

    wrong = other.post(f"/events/{event_id}/director", data={"director-code": "AAAA-AAAA"})
    assert wrong.status_code == 400
    assert "That is not this event's director's code" in text(wrong.get_data(as_text=True))

    mine = client.get(f"/events/{event_id}").get_data(as_text=True)
    code = re.search(r'id="shown-director-code">([A-Z0-9-]+)<', mine)
    assert code is not None
    typed = code[1].replace("-", " ").lower()  # as read aloud and typed on a phone
    assert (
        other.post(f"/events/{event_id}/director", data={"director-code": typed}).status_code == 302
    )
    seen = other.get(f"/events/{event_id}").get_data(as_text=True)
    assert 'id="call-time"' in seen and code[1] in seen
    assert other.post(f"/events/{event_id}/clock/call").status_code == 302
    assert _state(app, event_id).current.called_at is not None

    # A new code ends the old one's devices, and only those.
    client.post(f"/events/{event_id}/director/code")
    other.post(f"/events/{event_id}/clock/pause")
    assert 'id="become-director"' in other.get(f"/events/{event_id}").get_data(as_text=True)
    assert 'id="shown-director-code"' in client.get(f"/events/{event_id}").get_data(as_text=True)


def _signed(phone: Any, app: Any, game_id: int) -> None:
    """Two hands (the game's count), then a player of each side signs: locked."""
    _hand(phone, app, game_id, 0)
    _hand(phone, app, game_id, 2)
    names = _names(app, game_id)
    for seat in (0, 1):
        assert phone.post(f"/games/{game_id}/sign", data={"name": names[seat]}).status_code == 302
    with app.app_context():
        assert operations.loading.load(game_id).row.signed_at is not None
        db.session.remove()


def test_only_the_director_corrects_a_signed_event_game_and_the_trail_says_so(
    client: Any, app: Any
) -> None:
    event_id, (one, _two) = _night(client, app, hands="2")
    phone = _phone(app)
    _signed(phone, app, one)
    before = len(_trail(app, one))
    refused = _hand(phone, app, one, 1, edit=1)
    assert refused.status_code == 403
    words = text(refused.get_data(as_text=True))
    assert "was signed by every side" in words
    assert "only the event's director can correct, undo or delete it now" in words
    # The phone's script's door says the same words, in JSON (no correction offered).
    kept = {**hand_form(_names(app, one), teams=SIDES, pitcher=_names(app, one)[1], bid=2)}
    kept.update(token="phone-kept-after-signing", number="1", save="Save")
    door = phone.post(f"/games/{one}/hands.json", data=kept)
    assert (door.status_code, door.mimetype, door.json["status"]) == (
        403,
        "application/json",
        "refused",
    )
    assert (
        "only the event's director can correct, undo or delete it now" in door.json["messages"][0]
    )
    assert len(_trail(app, one)) == before
    # The director's screen says the table is locked; the game page offers the director
    # (not the phone) to open it again.
    director = text(client.get(f"/events/{event_id}").get_data(as_text=True))
    assert "signed by every side: locked" in director
    assert "Open the game again" in client.get(f"/games/{one}").get_data(as_text=True)
    on_phone = phone.get(f"/games/{one}").get_data(as_text=True)
    assert "Open the game again" not in on_phone
    assert "Only the event's director can correct, undo or delete it now." in text(on_phone)

    corrected = _hand(client, app, one, 1, edit=1)
    assert corrected.status_code == 302, corrected.get_data(as_text=True)[:500]
    last = _trail(app, one)[-1]
    assert (last.kind, last.who, last.hand) == ("corrected", "director", 1)
    assert last.detail["signed"] is True
    hand = text(client.get(f"/games/{one}/hands/1").get_data(as_text=True))
    assert "by the director" in hand
    assert client.post(f"/games/{one}/unlock").status_code == 302
    assert _trail(app, one)[-1].kind == "unlocked"
    assert _trail(app, one)[-1].who == "director"


def test_with_an_organiser_password_the_code_is_enough_to_direct(client: Any, app: Any) -> None:
    app.config["ORGANISER_PASSWORD"] = PASSWORD
    assert client.post("/login", data={"password": PASSWORD}).status_code == 302
    event_id, (one, _two) = _night(client, app, hands="2")
    code = re.search(
        r'id="shown-director-code">([A-Z0-9-]+)<',
        client.get(f"/events/{event_id}").get_data(as_text=True),
    )
    assert code is not None
    helper = _phone(app, "192.168.1.50")  # no organiser login
    refused = helper.post(f"/events/{event_id}/clock/call")
    assert "/login" in refused.headers["Location"]
    assert (
        helper.post(f"/events/{event_id}/director", data={"director-code": code[1]}).status_code
        == 302
    )
    assert helper.post(f"/events/{event_id}/clock/pause").status_code == 302
    assert _state(app, event_id).current.paused_at is not None
    # The helper records and corrects at the event's tables, as its director.
    assert _hand(helper, app, one, 0).status_code == 302
    assert _trail(app, one)[-1].who == "director"
    # ... but is no organiser elsewhere: a game of its own still needs the login.
    assert "/login" in helper.get("/games/new/auction-pitch").headers["Location"]


def test_the_serving_machine_itself_directs_without_a_password(client: Any, app: Any) -> None:
    event_id, _games = _night(client, app)
    laptop = app.test_client()  # on loopback, with no mark: the laptop the night runs from
    seen = laptop.get(f"/events/{event_id}").get_data(as_text=True)
    assert 'id="call-time"' in seen
    # ... and may draw a code of its own, which makes it the director.
    laptop.post(f"/events/{event_id}/director/code")
    assert 'id="shown-director-code"' in laptop.get(f"/events/{event_id}").get_data(as_text=True)


def test_wrong_directors_codes_make_the_address_wait_as_the_login_does(
    client: Any, app: Any
) -> None:
    event_id, _games = _night(client, app, hands="1", rounds="3")
    code = re.search(
        r'id="shown-director-code">([A-Z0-9-]+)<',
        client.get(f"/events/{event_id}").get_data(as_text=True),
    )
    assert code is not None
    guesser = _phone(app, "192.168.1.66")
    attempts = app.config.get("LOGIN_ATTEMPTS", 5)
    for _ in range(attempts):
        wrong = guesser.post(f"/events/{event_id}/director", data={"director-code": "AAAA-AAAA"})
        assert wrong.status_code == 400
    # The limit reached: even the right code waits, and the page says how long.
    blocked = guesser.post(f"/events/{event_id}/director", data={"director-code": code[1]})
    assert blocked.status_code == 429
    wait = int(blocked.headers["Retry-After"])
    assert 0 < wait <= app.config.get("LOGIN_WINDOW_SECONDS", 300)
    said = text(blocked.get_data(as_text=True))
    assert f"Too many wrong codes. Try again in {wait} seconds." in said
    assert 'id="become-director"' in guesser.get(f"/events/{event_id}").get_data(as_text=True)
    # Another address, the director's helper, is not held back by the guesser.
    helper = _phone(app, "192.168.1.67")
    assert (
        helper.post(f"/events/{event_id}/director", data={"director-code": "AAAA-AAAA"}).status_code
        == 400
    )
    right = helper.post(f"/events/{event_id}/director", data={"director-code": code[1]})
    assert right.status_code == 302
    assert 'id="call-time"' in helper.get(f"/events/{event_id}").get_data(as_text=True)
