"""The JSON game record of GAME-RECORD.md: parse it, write it back, and write the scored Output.

``parse_record`` checks the record's shape (types, required and unknown keys,
names) and then scores it, so a record that parses is a valid game.
``record_to_json`` writes a record back so that export → import → export is
identical; ``output_document`` writes the Output document of ``score --json``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from .errors import N_, Phrase, RuleError, quote
from .game import STAKE_PATTERN, Game, Hand, Sale, check_hand_count, check_note
from .scoring import GameResult, HandResult, score_game, usual_dealers
from .settlement import Settlement

FORMAT = "pitch-scorekeeper/1"
#: Stakes and names are short; a record this large is not a game, so refuse it before parsing.
MAX_RECORD_BYTES = 5_000_000

# --- Bounds: what the databases and the money format hold -------------------------------------
#: The largest whole number anywhere in a record (a bid, a switch): the databases keep
#: numbers in 32-bit columns.
MAX_WHOLE = 2**31 - 1
#: The most units a loser pays for being in the hole, or per set-back: even the longest
#: record (5 MB, some 60,000 set-backs) then settles to units that fit a 32-bit column.
PAYOUT_MAX = 1000
#: The longest stake, as the database's column holds it; money (units times the stake) is
#: then at most 44 characters, and is formatted exactly, whatever its digits.
STAKE_MAX_LENGTH = 32
_MAX_NUMBER = {
    "house_rules.payout_in_hole": PAYOUT_MAX,
    "house_rules.payout_per_setback": PAYOUT_MAX,
}


class _TooLong(int):
    """A JSON integer with more digits than any bound allows, read without converting it
    (Python refuses to convert one of over 4,300 digits); its value is past every bound."""

    digits: str

    def __repr__(self) -> str:
        return f"{self.digits[:12]}… ({len(self.digits)} characters)"


def _read_int(digits: str) -> int:
    if len(digits) <= len(str(MAX_WHOLE)) + 1:
        return int(digits)
    too_long = _TooLong(MAX_WHOLE + 1)
    too_long.digits = digits
    return too_long


def _check_number(value: object, field: str, **place: Any) -> None:
    """Refuse a whole number above its bound, naming the field (the engine checks the least,
    so a number far below zero is refused there)."""
    most = _MAX_NUMBER.get(field, MAX_WHOLE)
    if isinstance(value, int) and not isinstance(value, bool) and value > most:
        raise RuleError("number-too-large", field=field, max=most, **place)


def _check_stake(stake: str) -> None:
    if len(stake) > STAKE_MAX_LENGTH:
        raise RuleError(
            "stake-too-long",
            field="stake",
            actual=quote(stake[:STAKE_MAX_LENGTH] + "…"),
            max=STAKE_MAX_LENGTH,
        )
    if not STAKE_PATTERN.fullmatch(stake):
        raise RuleError("bad-stake", field="stake", actual=quote(stake))


_RECORD_KEYS = (
    "format",
    "variant",
    "house_rules",
    "players",
    "teams",
    "first_dealer",
    "stake",
    "hands",
    "called",
    "trail",
)
_REQUIRED_KEYS = ("format", "variant", "players", "hands")
_PLAYED_KEYS = ("pitcher", "bid", "points", "sale", "high_bidder", "note", "game_count", "dealer")
_PASSED_KEYS = ("passed", "note", "dealer")


@dataclass(frozen=True)
class GameRecord:
    """A parsed record: the game's setup and its hands, as the table recorded them."""

    game: Game
    hands: tuple[Hand, ...]
    #: The record's ``trail`` (what was changed, by whom), as given: scoring never reads
    #: it; the store that imports the record keeps it (and checks its shape).
    trail: Any = field(default=None, compare=False)

    def score(self) -> GameResult:
        return score_game(self.game, self.hands)


def _type_name(value: object) -> str:
    """Name a JSON value's type in the engine's words (a Phrase, translated where shown)."""
    name = {
        dict: N_("an object"),
        list: N_("a list"),
        str: N_("a string"),
        bool: N_("true/false"),
        int: N_("a number"),
        float: N_("a number"),
        type(None): "null",
        _TooLong: N_("a number"),
    }.get(type(value))
    return Phrase(name) if name is not None else type(value).__name__


def _expect(value: object, kind: type | tuple[type, ...], expected: str, **place: Any) -> None:
    """Refuse a value not of ``kind``; ``expected`` (the engine's words) says what it must be."""
    if isinstance(value, kind) and not (isinstance(value, bool) and kind is not bool):
        return
    actual = _type_name(value)
    words = expected if isinstance(expected, Phrase) else Phrase(expected)
    raise RuleError("wrong-type", expected=words, actual=actual, **place)


def _check_keys(obj: Mapping[str, Any], allowed: Sequence[str], **place: Any) -> None:
    for key in obj:
        if key not in allowed:
            raise RuleError("unknown-key", key=key, **place)


def loads_record(text: str | bytes) -> GameRecord:
    """Parse a record from JSON text; every problem is a one-line RuleError."""
    if len(text) > MAX_RECORD_BYTES:
        raise RuleError(
            "invalid-json",
            field="record",
            detail=f"it is larger than {MAX_RECORD_BYTES // 1_000_000} MB",
        )
    data = read_json(text, "record")
    refuse_duplicate_keys(data)
    with nested_too_deeply("record"):
        return parse_record(data)


def read_json(text: str | bytes, field: str) -> Any:
    """Decode JSON text as records are read: an integer too long for any bound is kept as
    too large (for the field that has it to say so), and an object that wrote a key twice is
    marked (``refuse_duplicate_keys``); a problem is a one-line RuleError."""
    with nested_too_deeply(field):
        try:
            return json.loads(text, parse_int=_read_int, object_pairs_hook=_object)
        except (ValueError, UnicodeDecodeError) as error:
            detail = str(error).splitlines()[0] if str(error) else type(error).__name__
            raise RuleError("invalid-json", field=field, detail=detail) from None


@contextmanager
def nested_too_deeply(field: str) -> Iterator[None]:
    """Turn Python's RecursionError on a deeply nested document (while decoding it, or
    quoting a value from it in a message) into the one-line error that names ``field``."""
    try:
        yield
    except RecursionError:
        raise RuleError("invalid-json", field=field, detail="it is nested too deeply") from None


class _Duplicated(dict[str, Any]):
    """A decoded JSON object that had a key twice; ``duplicate`` is the first one repeated."""

    duplicate: str


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """Build a decoded JSON object, marking it when a key came twice (the last would win)."""
    obj = dict(pairs)
    if len(obj) == len(pairs):
        return obj
    marked = _Duplicated(obj)
    seen: set[str] = set()
    for key, _value in pairs:
        if key in seen:
            marked.duplicate = key
            break
        seen.add(key)
    return marked


def duplicated_key(value: Any) -> str | None:
    """The key a decoded JSON object (``read_json``) had twice, if any; only that object."""
    return value.duplicate if isinstance(value, _Duplicated) else None


def refuse_duplicate_keys(data: Any) -> None:
    """Refuse a decoded record (``read_json``) that wrote a key twice, at any depth: JSON
    keeps the last value, and a typo must not lose data (GAME-RECORD.md). The one-line
    error names the key and its place: ``hand 3: duplicate key "high"``."""
    # Depth first, in the order of the file, without recursion (a record may nest deeply).
    stack: list[tuple[Any, dict[str, Any]]] = [(data, {})]
    while stack:
        value, place = stack.pop()
        if isinstance(value, _Duplicated):
            raise RuleError("duplicate-key", key=value.duplicate, **place)
        inner: list[tuple[Any, dict[str, Any]]] = []
        if isinstance(value, dict):
            for key, item in value.items():
                if key == "hands" and not place and isinstance(item, list):
                    inner += [(hand, {"hand": n}) for n, hand in enumerate(item, start=1)]
                else:
                    inner.append((item, place or {"field": key}))
        elif isinstance(value, list):
            inner = [(item, place) for item in value]
        stack.extend(reversed(inner))


def parse_record(data: Any) -> GameRecord:
    """Check a decoded record's shape, build the game, and score it to check every hand."""
    _expect(data, dict, N_("a JSON object"), field="record")
    _check_keys(data, _RECORD_KEYS, field="record")
    for key in _REQUIRED_KEYS:
        if key not in data:
            raise RuleError("missing-key", field="record", key=key)
    if data["format"] != FORMAT:
        raise RuleError("bad-format", field="format", expected=FORMAT, actual=quote(data["format"]))
    _expect(data["variant"], str, N_("a string"), field="variant")
    house_rules = data.get("house_rules", {})
    _expect(house_rules, dict, N_("an object of switches"), field="house_rules")
    for switch, value in house_rules.items():
        _check_number(value, f"house_rules.{switch}")
    players = data["players"]
    _expect(players, list, N_("a list of names"), field="players")
    for name in players:
        _expect(name, str, N_("a list of names (strings)"), field="players")
    teams = data.get("teams")
    if teams is not None or "teams" in data:
        _expect(teams, dict, N_("an object of team name → players"), field="teams")
        for team, members in teams.items():
            words = Phrase(N_("a list of names for team {team}"), team=quote(team))
            _expect(members, list, words, field="teams")
            for name in members:
                _expect(name, str, N_("a list of names (strings)"), field="teams")
    first_dealer = data.get("first_dealer")
    if "first_dealer" in data:
        _expect(first_dealer, str, N_("a player's name"), field="first_dealer")
    stake = data.get("stake")
    if "stake" in data:
        _expect(stake, str, N_('a decimal string such as "0.25"'), field="stake")
        _check_stake(stake)
    called = data.get("called")
    if "called" in data:
        _expect(called, int, N_("a whole number"), field="called")
        _check_number(called, "called")
    game = Game.create(
        data["variant"],
        players,
        house_rules=house_rules,
        teams=teams,
        first_dealer=first_dealer,
        stake=stake,
        called=called,
    )
    hands_data = data["hands"]
    _expect(hands_data, list, N_("a list of hands"), field="hands")
    check_hand_count(len(hands_data))
    hands = tuple(_parse_hand(game, number, h) for number, h in enumerate(hands_data, start=1))
    record = GameRecord(game, hands, data.get("trail"))
    record.score()  # a record is only valid if every hand scores
    return record


def _parse_hand(game: Game, number: int, data: Any) -> Hand:
    """Check one hand's shape; the rules themselves are checked when it is scored."""
    place = {"hand": number}
    _expect(data, dict, N_("an object"), **place)
    note = data.get("note")
    if "note" in data:
        _expect(note, str, N_("a string"), field="note", **place)
        check_note(note, hand=number)
    dealer = data.get("dealer")
    if "dealer" in data:
        _expect(dealer, str, N_("a player's name"), field="dealer", **place)
    if "passed" in data:
        if data["passed"] is not True:
            raise RuleError("passed-false", field="passed", **place)
        for key in data:
            if key not in _PASSED_KEYS:
                if key in _PLAYED_KEYS:
                    raise RuleError("passed-extra", field=key, key=key, **place)
                raise RuleError("unknown-key", field=key, key=key, **place)
        return Hand.passed_out(note, dealer)
    _check_keys(data, _PLAYED_KEYS, **place)
    for key in ("pitcher", "bid", "points"):
        if key not in data:
            raise RuleError("missing-key", field=key, key=key, **place)
    _expect(data["pitcher"], str, N_("a player's name"), field="pitcher", **place)
    _expect(data["bid"], int, N_("a whole number"), field="bid", **place)
    _check_number(data["bid"], "bid", **place)
    points = data["points"]
    _expect(points, dict, N_("an object of point → player or null"), field="points", **place)
    for key, taker in points.items():
        if taker is not None:
            _expect(taker, str, N_("a player's name or null"), field=f"points.{key}", **place)
    sale = None
    if "sale" in data:
        if not game.variant.sales:
            raise RuleError("sale-not-allowed", field="sale", key="sale", **place)
        raw = data["sale"]
        if raw not in [s.value for s in Sale]:
            raise RuleError("sale-value", field="sale", value=quote(raw), **place)
        sale = Sale(raw)
    high_bidder = data.get("high_bidder")
    if "high_bidder" in data:
        _expect(high_bidder, str, N_("a player's name"), field="high_bidder", **place)
    game_count = data.get("game_count")
    if "game_count" in data:
        _expect(game_count, dict, N_("an object of player → count"), field="game_count", **place)
        for name, count in game_count.items():
            _expect(count, int, N_("a whole number"), field=f"game_count.{name}", **place)
    return Hand(
        pitcher=data["pitcher"],
        bid=data["bid"],
        points=dict(points),
        sale=sale,
        high_bidder=high_bidder,
        note=note,
        game_count=dict(game_count) if game_count is not None else None,
        dealer=dealer,
    )


def hand_to_json(hand: Hand, usual_dealer: str | None = None) -> dict[str, Any]:
    """Write one hand as the record has it; its own ``dealer`` only where it is not
    ``usual_dealer``, who was due to deal it (GAME-RECORD.md)."""
    out: dict[str, Any] = {}
    if hand.dealer is not None and hand.dealer != usual_dealer:
        out["dealer"] = hand.dealer
    if hand.passed:
        out["passed"] = True
    else:
        if hand.sale is not None:
            out["sale"] = hand.sale.value
        if hand.high_bidder is not None:
            out["high_bidder"] = hand.high_bidder
        out["pitcher"] = hand.pitcher
        out["bid"] = hand.bid
        out["points"] = dict(hand.points)
        if hand.game_count is not None:
            out["game_count"] = dict(hand.game_count)
    if hand.note is not None:
        out["note"] = hand.note
    return out


def record_to_json(game: Game, hands: Sequence[Hand]) -> dict[str, Any]:
    """Write a game record (GAME-RECORD.md, Input) that imports back to the same game."""
    out: dict[str, Any] = {"format": FORMAT, "variant": game.variant.key}
    if game.house_rules_given:
        out["house_rules"] = dict(game.house_rules_given)
    out["players"] = list(game.players)
    if game.teams is not None:
        out["teams"] = {name: list(members) for name, members in game.teams}
    if game.first_dealer is not None:
        out["first_dealer"] = game.first_dealer
    if game.stake is not None:
        out["stake"] = game.stake
    if game.called is not None:
        out["called"] = game.called
    out["hands"] = [
        hand_to_json(hand, usual)
        for hand, usual in zip(hands, usual_dealers(game, hands), strict=True)
    ]
    return out


def dumps(document: Mapping[str, Any]) -> str:
    """Serialise a record or Output document the way the examples are written."""
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def _hand_output(result: HandResult) -> dict[str, Any]:
    out: dict[str, Any] = {"number": result.number, "dealer": result.dealer}
    hand = result.hand
    if hand.passed:
        out["passed"] = True
    else:
        out["pitcher"] = hand.pitcher
        out["bid"] = hand.bid
        if hand.sale is not None:
            out["sale"] = hand.sale.value
        if hand.high_bidder is not None:
            out["high_bidder"] = hand.high_bidder
        out["made"] = result.made
        out["taken"] = dict(result.taken or {})
    out["delta"] = dict(result.delta)
    out["scores"] = dict(result.scores)
    out["events"] = [e.value for e in result.events]
    return out


def settlement_output(settlement: Settlement) -> dict[str, Any]:
    """Write a settlement as the Output document has it."""
    payments = []
    for p in settlement.payments:
        row: dict[str, Any] = {"from": p.payer, "to": p.payee, "units": p.units}
        if p.amount is not None:
            row["amount"] = f"{p.amount:.2f}"
        payments.append(row)
    return {"units": dict(settlement.units), "payments": payments}


def output_document(result: GameResult) -> dict[str, Any]:
    """Write the Output document of GAME-RECORD.md for a scored game."""
    return {
        "format": FORMAT,
        "variant": result.game.variant.key,
        "sides": list(result.sides),
        "hands": [_hand_output(h) for h in result.hands],
        "finished": result.finished,
        "winner": result.winner,
        "win_reason": result.win_reason.value if result.win_reason else None,
        "winning_hand": result.winning_hand,
        "scores": dict(result.scores),
        "setbacks": dict(result.setbacks),
        "next_dealer": result.next_dealer,
        "settlement": settlement_output(result.settlement) if result.settlement else None,
    }
