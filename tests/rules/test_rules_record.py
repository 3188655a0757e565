"""GAME-RECORD.md: the JSON record in, the Output document out, and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from rules_helpers import assert_one_line

from scorekeeper.rules import (
    FORMAT,
    RuleError,
    dumps,
    loads_record,
    output_document,
    parse_record,
    record_to_json,
)

#: The worked examples, copied into the project as data (tests/examples).
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
#: Where the spec keeps them, beside the project when it was cloned next to ../shared (CI).
SPEC_EXAMPLES = Path(__file__).resolve().parents[3] / "shared" / "spec" / "examples"
RECORDS = sorted(p for p in EXAMPLES.glob("*.json") if not p.name.endswith(".out.json"))
SCORED = [p for p in RECORDS if p.with_suffix(".out.json").exists()]
#: The worked examples of RULES.md section 11, in a folder of their own, as the spec has them.
SECTION_11 = "section-11"
RECORDS_11 = sorted(
    p for p in (EXAMPLES / SECTION_11).glob("*.json") if not p.name.endswith(".out.json")
)
SCORED_11 = [p for p in RECORDS_11 if p.with_suffix(".out.json").exists()]
#: Every worked example that is refused, with the one line it is refused with.
REFUSED = sorted((EXAMPLES / SECTION_11).glob("*.error.txt")) + sorted(EXAMPLES.glob("*.error.txt"))


def _record(**changes: Any) -> dict[str, Any]:
    """A small valid Auction Pitch record, with ``changes`` applied (None removes a key)."""
    record: dict[str, Any] = {
        "format": FORMAT,
        "variant": "auction-pitch",
        "players": ["Ann", "Bob", "Cy"],
        "hands": [
            {
                "pitcher": "Bob",
                "bid": 2,
                "points": {"high": "Bob", "low": "Cy", "jack": None, "game": "Bob"},
            },
        ],
    }
    for key, value in changes.items():
        if value is None:
            record.pop(key, None)
        else:
            record[key] = value
    return record


def _hand(**changes: Any) -> dict[str, Any]:
    played: dict[str, Any] = {
        "pitcher": "Bob",
        "bid": 2,
        "points": {"high": "Bob", "low": "Cy", "jack": None, "game": "Bob"},
    }
    played.update(changes)
    return played


def _error(data: Any) -> RuleError:
    with pytest.raises(RuleError) as caught:
        parse_record(data)
    assert_one_line(caught.value)
    return caught.value


def test_the_worked_examples_are_kept_inside_the_project():
    assert EXAMPLES.is_relative_to(Path(__file__).resolve().parents[2])
    assert (EXAMPLES / "README.md").exists()
    assert len(RECORDS) == 12
    assert len(SCORED) == 10
    assert (EXAMPLES / SECTION_11 / "README.md").exists()
    assert len(RECORDS_11) == 7
    assert len(SCORED_11) == 6


@pytest.mark.parametrize("folder", ["", SECTION_11], ids=["examples", "section-11"])
def test_the_projects_copies_of_the_worked_examples_match_the_spec_byte_for_byte(folder):
    if not SPEC_EXAMPLES.is_dir():
        pytest.skip("no ../shared/spec/examples beside the project to compare the copies with")
    spec, copy = SPEC_EXAMPLES / folder, EXAMPLES / folder
    assert copy.is_dir(), f"tests/examples/{folder} is missing: copy the spec's"
    theirs = {p.name: p.read_bytes() for p in spec.iterdir() if p.is_file()}
    ours = {p.name: p.read_bytes() for p in copy.iterdir() if p.is_file()}
    assert sorted(ours) == sorted(theirs), (
        f"tests/examples/{folder} has other files than the spec's"
    )
    for name, content in theirs.items():
        assert ours[name] == content, f"tests/examples/{folder}/{name} differs from the spec's copy"
    # And the same folders: a folder of examples the spec adds must be copied too.
    assert sorted(p.name for p in copy.iterdir() if p.is_dir()) == sorted(
        p.name for p in spec.iterdir() if p.is_dir()
    )


@pytest.mark.parametrize("path", SCORED + SCORED_11, ids=lambda p: p.stem)
def test_every_example_scores_to_its_expected_output(path):
    expected = json.loads(path.with_suffix(".out.json").read_text(encoding="utf-8"))
    result = loads_record(path.read_bytes()).score()
    assert output_document(result) == expected


@pytest.mark.parametrize("error", REFUSED, ids=lambda p: p.name.removesuffix(".error.txt"))
def test_every_refused_example_is_refused_with_its_one_line(error):
    record = error.with_name(error.name.removesuffix(".error.txt") + ".json")
    with pytest.raises(RuleError) as caught:
        loads_record(record.read_bytes())
    assert assert_one_line(caught.value) == error.read_text(encoding="utf-8").strip()


@pytest.mark.parametrize("path", SCORED + SCORED_11, ids=lambda p: p.stem)
def test_every_example_exports_exactly_as_it_was_imported(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    record = parse_record(data)
    exported = record_to_json(record.game, record.hands)
    assert exported == data
    again = loads_record(dumps(exported))
    assert record_to_json(again.game, again.hands) == exported


def test_the_game_record_documents_output_for_its_first_two_hands():
    data = json.loads((EXAMPLES / "game-record-example.json").read_text(encoding="utf-8"))
    data["hands"] = data["hands"][:2]
    assert output_document(parse_record(data).score()) == {
        "format": "pitch-scorekeeper/1",
        "variant": "auction-pitch",
        "sides": ["North-South", "East-West"],
        "hands": [
            {
                "number": 1,
                "dealer": "Ann",
                "pitcher": "Bob",
                "bid": 2,
                "made": True,
                "taken": {"North-South": 1, "East-West": 2},
                "delta": {"North-South": 1, "East-West": 2},
                "scores": {"North-South": 1, "East-West": 2},
                "events": ["made"],
            },
            {
                "number": 2,
                "dealer": "Bob",
                "passed": True,
                "delta": {"North-South": 0, "East-West": 0},
                "scores": {"North-South": 1, "East-West": 2},
                "events": ["passed"],
            },
        ],
        "finished": False,
        "winner": None,
        "win_reason": None,
        "winning_hand": None,
        "scores": {"North-South": 1, "East-West": 2},
        "setbacks": {"North-South": 0, "East-West": 0},
        "next_dealer": "Cy",
        "settlement": None,
    }


def test_a_kept_sell_out_hand_carries_its_sale_and_high_bidder_in_the_output():
    data = json.loads((EXAMPLES / "sellout-sold-kept-passed-pitched.json").read_text("utf-8"))
    hands = output_document(parse_record(data).score())["hands"]
    assert (hands[1]["sale"], hands[1]["high_bidder"]) == ("kept", "Ann")
    assert "high_bidder" not in hands[0]


def test_the_hands_key_may_be_empty():
    result = parse_record(_record(hands=[])).score()
    assert output_document(result)["hands"] == []
    assert result.next_dealer == "Ann"


def test_a_note_is_kept_on_played_and_passed_hands():
    record = _record(
        house_rules={"all_pass": "redeal-next-dealer"},
        hands=[_hand(note="Bob forgot to lead trump"), {"passed": True, "note": "misdeal"}],
    )
    parsed = parse_record(record)
    assert [h.note for h in parsed.hands] == ["Bob forgot to lead trump", "misdeal"]
    assert record_to_json(parsed.game, parsed.hands) == record


def test_a_name_of_forty_characters_is_allowed():
    name = "N" * 40
    record = parse_record(_record(players=["Ann", "Bob", "Cy", name]))
    assert record.game.players[3] == name


def test_a_name_keeps_its_spelling():
    assert parse_record(_record(players=["ann", "Bob", "Cy"])).game.players[0] == "ann"


#: Other spellings of "Ann": each is Ann seated a second time.
ANN_SPELLED_AGAIN = {
    "in lower case": "ann",
    "with a zero-width space": "An\u200bn",
    "in fullwidth letters": "\uff21\uff4e\uff4e",
    "with a soft hyphen": "An\u00adn",
}


@pytest.mark.parametrize("spelling", ANN_SPELLED_AGAIN.values(), ids=ANN_SPELLED_AGAIN.keys())
def test_two_spellings_of_one_name_are_one_player_seated_twice(spelling: str) -> None:
    with pytest.raises(RuleError) as refused:
        parse_record(_record(players=["Ann", spelling, "Cy"]))
    assert (refused.value.code, refused.value.field) == ("look-alike-player", "players")


def test_an_accent_written_either_way_is_one_name() -> None:
    precomposed, combined = "Zo\u00eb", "Zoe\u0308"
    with pytest.raises(RuleError, match="written another way"):
        parse_record(_record(players=[precomposed, combined, "Cy"]))


def test_a_name_of_characters_that_draw_nothing_is_empty() -> None:
    with pytest.raises(RuleError) as refused:
        parse_record(_record(players=["Ann", "\u200b\u200d", "Cy"]))
    assert refused.value.code == "name-empty"


# --- Errors in the record's shape.

RECORD_ERRORS = [
    (
        "not an object",
        ["a", "list"],
        "wrong-type",
        None,
        "record: must be a JSON object, not a list",
    ),
    ("an unknown key", _record(colour="red"), "unknown-key", None, 'record: unknown key "colour"'),
    (
        "a missing variant",
        _record(variant=None),
        "missing-key",
        None,
        'record: required key "variant" is missing',
    ),
    (
        "missing hands",
        _record(hands=None),
        "missing-key",
        None,
        'record: required key "hands" is missing',
    ),
    (
        "another format",
        _record(format="pitch-scorekeeper/2"),
        "bad-format",
        None,
        'format: must be "pitch-scorekeeper/1", not "pitch-scorekeeper/2"',
    ),
    (
        "an unknown variant",
        _record(variant="bridge"),
        "unknown-variant",
        None,
        'variant: unknown variant "bridge"; the variants are auction-pitch, joker-pitch, '
        "racehorse-pitch, sell-out, pitch-six, pedro, cinch, ten-point",
    ),
    (
        "a variant that is not a string",
        _record(variant=7),
        "wrong-type",
        None,
        "variant: must be a string, not a number",
    ),
    (
        "players that are not a list",
        _record(players="Ann, Bob"),
        "wrong-type",
        None,
        "players: must be a list of names, not a string",
    ),
    (
        "a player that is not a string",
        _record(players=["Ann", 7]),
        "wrong-type",
        None,
        "players: must be a list of names (strings), not a number",
    ),
    (
        "an empty name",
        _record(players=["Ann", ""]),
        "name-empty",
        None,
        "players: a name cannot be empty",
    ),
    (
        "a name of 41 characters",
        _record(players=["Ann", "N" * 41]),
        "name-too-long",
        None,
        f'players: "{"N" * 40}…" is 41 characters long; a name has at most 40',
    ),
    (
        "a name with edge spaces",
        _record(players=["Ann", "Bob "]),
        "name-spaces",
        None,
        'players: "Bob " has leading or trailing spaces',
    ),
    (
        "a name with a tab",
        _record(players=["Ann", "B\tb"]),
        "name-control",
        None,
        'players: "B\\tb" contains a control character',
    ),
    (
        "a name with a lone surrogate",
        _record(players=["Ann", "B\ud800"]),
        "name-surrogate",
        None,
        'players: "B\\ud800" contains a lone surrogate, which is not a character',
    ),
    (
        "a name seated twice",
        _record(players=["Ann", "Bob", "Ann"]),
        "duplicate-player",
        None,
        'players: "Ann" is seated twice; names must be unique',
    ),
    (
        "teams of null",
        _record(teams=None) | {"teams": None},
        "wrong-type",
        None,
        "teams: must be an object of team name → players, not null",
    ),
    (
        "a stake that is a number",
        _record(stake=0.25),
        "wrong-type",
        None,
        'stake: must be a decimal string such as "0.25", not a number',
    ),
    (
        "a stake with a comma",
        _record(stake="0,25"),
        "bad-stake",
        None,
        'stake: "0,25" is not a stake; write a decimal such as "0.25"',
    ),
    (
        "a first dealer that is not a string",
        _record(first_dealer=1),
        "wrong-type",
        None,
        "first_dealer: must be a player's name, not a number",
    ),
    (
        "house rules that are not an object",
        _record(house_rules=["target"]),
        "wrong-type",
        None,
        "house_rules: must be an object of switches, not a list",
    ),
    (
        "hands that are not a list",
        _record(hands={}),
        "wrong-type",
        None,
        "hands: must be a list of hands, not an object",
    ),
    # Hands.
    (
        "a hand that is not an object",
        _record(hands=[[]]),
        "wrong-type",
        1,
        "hand 1: must be an object, not a list",
    ),
    (
        "an unknown key in a hand",
        _record(hands=[_hand(trump="hearts")]),
        "unknown-key",
        1,
        'hand 1: unknown key "trump"',
    ),
    (
        "a hand without a bid",
        _record(hands=[{"pitcher": "Bob", "points": {}}]),
        "missing-key",
        1,
        'hand 1: required key "bid" is missing',
    ),
    (
        "a bid written as a string",
        _record(hands=[_hand(bid="2")]),
        "wrong-type",
        1,
        "hand 1: bid: must be a whole number, not a string",
    ),
    (
        "a bid written as a float",
        _record(hands=[_hand(bid=2.0)]),
        "wrong-type",
        1,
        "hand 1: bid: must be a whole number, not a number",
    ),
    (
        "a bid of true",
        _record(hands=[_hand(bid=True)]),
        "wrong-type",
        1,
        "hand 1: bid: must be a whole number, not true/false",
    ),
    (
        "a pitcher that is not a string",
        _record(hands=[_hand(pitcher=None)]),
        "wrong-type",
        1,
        "hand 1: pitcher: must be a player's name, not null",
    ),
    (
        "points that are not an object",
        _record(hands=[_hand(points=["Bob"])]),
        "wrong-type",
        1,
        "hand 1: points: must be an object of point → player or null, not a list",
    ),
    (
        "a point taker that is not a name",
        _record(hands=[_hand(points={"high": 1, "low": "Cy", "jack": None, "game": None})]),
        "wrong-type",
        1,
        "hand 1: points.high: must be a player's name or null, not a number",
    ),
    (
        '"passed": false',
        _record(hands=[{"passed": False}]),
        "passed-false",
        1,
        'hand 1: "passed": false is not allowed; leave the key out for a played hand',
    ),
    (
        "a passed hand with a pitcher",
        _record(hands=[{"passed": True, "pitcher": "Bob"}]),
        "passed-extra",
        1,
        'hand 1: a passed-out hand has only "passed" (and a note or a dealer), not "pitcher"',
    ),
    (
        "a sale outside Sell-Out",
        _record(hands=[_hand(sale="sold")]),
        "sale-not-allowed",
        1,
        'hand 1: only Sell-Out hands have a "sale"',
    ),
    (
        "a note of 501 characters",
        _record(hands=[_hand(note="x" * 501)]),
        "note-too-long",
        1,
        "hand 1: the note is 501 characters long; at most 500 are allowed",
    ),
    (
        "a note that is not a string",
        _record(hands=[_hand(note=5)]),
        "wrong-type",
        1,
        "hand 1: note: must be a string, not a number",
    ),
]


@pytest.mark.parametrize(
    ("data", "code", "hand", "message"),
    [row[1:] for row in RECORD_ERRORS],
    ids=[row[0] for row in RECORD_ERRORS],
)
def test_a_record_of_the_wrong_shape_is_rejected_with_one_line(data, code, hand, message):
    error = _error(data)
    assert (error.code, error.hand) == (code, hand)
    assert str(error) == message


def test_a_sell_out_sale_must_be_one_of_the_three():
    data = _record(variant="sell-out", hands=[_hand(sale="given")])
    error = _error(data)
    assert (error.code, error.hand, error.field) == ("sale-value", 1, "sale")
    assert str(error) == 'hand 1: "sale" must be "pitched", "sold" or "kept", not "given"'


def test_a_high_bidder_must_be_a_name():
    data = _record(variant="sell-out", hands=[_hand(sale="kept", high_bidder=3)])
    error = _error(data)
    assert (error.code, error.hand, error.field) == ("wrong-type", 1, "high_bidder")


@pytest.mark.parametrize(
    ("text", "detail"),
    [
        (b"{", "is not valid JSON: Expecting property name enclosed in double quotes"),
        (b"", "is not valid JSON: Expecting value"),
        (b"\xff\xfe\xfa", "is not valid JSON"),
        (b"[" * 100_000, "is not valid JSON: it is nested too deeply"),
        ('{"format": NaN', "is not valid JSON"),
    ],
)
def test_text_that_is_not_json_is_one_line_naming_the_record(text, detail):
    with pytest.raises(RuleError) as caught:
        loads_record(text)
    error = caught.value
    assert (error.code, error.field, error.hand) == ("invalid-json", "record", None)
    assert assert_one_line(error).startswith("record: " + detail)


def test_a_record_larger_than_five_megabytes_is_refused_before_parsing():
    with pytest.raises(RuleError) as caught:
        loads_record(b" " * 5_000_001)
    assert str(caught.value) == "record: is not valid JSON: it is larger than 5 MB"


def test_a_json_value_that_is_not_an_object_is_refused():
    with pytest.raises(RuleError) as caught:
        loads_record(b"42")
    assert str(caught.value) == "record: must be a JSON object, not a number"


def test_unknown_keys_in_a_hand_are_refused_not_dropped():
    error = _error(_record(hands=[_hand(Pitcher="Bob")]))
    assert error.code == "unknown-key"
    assert error.params["key"] == "Pitcher"


def test_a_rule_broken_by_a_hand_rejects_the_whole_record():
    error = _error(_record(hands=[_hand(), _hand(bid=5)]))
    assert str(error) == "hand 2: bid 5 is above the maximum of 4 for Auction Pitch"


# --- Bounds: every number a record holds fits the databases and the money format -----------

TOO_MANY = "9" * 5000  # json.loads alone refuses over 4,300 digits, naming no field


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"house_rules": {"payout_in_hole": 10**19}}, "house_rules.payout_in_hole"),
        ({"house_rules": {"payout_in_hole": 10**17}}, "house_rules.payout_in_hole"),
        ({"house_rules": {"payout_in_hole": 1001}}, "house_rules.payout_in_hole"),
        ({"house_rules": {"payout_per_setback": 1001}}, "house_rules.payout_per_setback"),
        ({"house_rules": {"target": 2**31}}, "house_rules.target"),
        ({"house_rules": {"target": 2**63}}, "house_rules.target"),
        ({"hands": [_hand(bid=2**31)]}, "hand 1: bid"),
        ({"hands": [_hand(bid=10**30)]}, "hand 1: bid"),
    ],
)
def test_a_number_above_what_the_database_holds_is_refused_naming_the_field(changes, message):
    error = _error(_record(**changes))
    assert error.code == "number-too-large"
    assert assert_one_line(error).startswith(f"{message}: the number is too large; it can be")


@pytest.mark.parametrize(
    ("value", "huge", "message"),
    [
        ("7", TOO_MANY, "house_rules.target: the number is too large"),
        ("7", "-" + TOO_MANY, "house_rules.target: the number is too large"),
        ("8", TOO_MANY, "house_rules.payout_in_hole: the number is too large"),
        ("2", TOO_MANY, "hand 1: bid: the number is too large"),
        ('"Ann"', TOO_MANY, "players: must be a list of names (strings), not a number"),
        ('"auction-pitch"', TOO_MANY, "variant: must be a string, not a number"),
    ],
    ids=["target", "negative-target", "payout", "bid", "a-name", "the-variant"],
)
def test_a_number_of_thousands_of_digits_is_too_large_naming_the_field(value, huge, message):
    text = json.dumps(_record(house_rules={"target": 7, "payout_in_hole": 8}))
    text = text.replace(value, huge, 1)
    with pytest.raises(RuleError) as caught:
        loads_record(text)
    assert assert_one_line(caught.value).startswith(message)
    assert "set_int_max_str_digits" not in str(caught.value)
    assert len(str(caught.value)) < 200


@pytest.mark.parametrize(
    "stake", ["1" * 33, "1" * 30 + ".25", "0." + "1" * 40], ids=["33-digits", "33-long", "decimals"]
)
def test_a_stake_longer_than_its_database_column_is_refused(stake):
    error = _error(_record(stake=stake))
    assert (error.code, error.field) == ("stake-too-long", "stake")
    assert assert_one_line(error).startswith('stake: "')
    assert str(error).endswith("is too long for a stake: at most 32 characters")


def test_the_largest_numbers_a_record_may_hold_are_accepted():
    stake = "9" * 27 + ".9999"  # 32 characters, more digits than a default decimal context
    record = parse_record(
        _record(
            stake=stake,
            house_rules={"target": 2**31 - 1, "payout_in_hole": 1000, "payout_per_setback": 1000},
        )
    )
    assert record.game.stake == stake
    assert record.game.house_rules.payout_in_hole == 1000


_HAND_TEXT = (
    '{"pitcher": "Bob", "bid": 2, '
    '"points": {"high": "Bob", "low": "Cy", "jack": null, "game": "Bob"}}'
)


def _record_text(hand3: str = _HAND_TEXT, top: str = '"variant": "auction-pitch"') -> str:
    """A three-hand Auction Pitch record as text, so that a key can be written twice."""
    return (
        '{"format": "pitch-scorekeeper/1", ' + top + ', "players": ["Ann", "Bob", "Cy"], '
        '"hands": [' + ", ".join([_HAND_TEXT, _HAND_TEXT, hand3]) + "]}"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            _record_text(hand3=_HAND_TEXT.replace('"high": "Bob"', '"high": "Bob", "high": "Ann"')),
            'hand 3: duplicate key "high"',
        ),
        (
            _record_text(hand3=_HAND_TEXT.replace('"bid": 2', '"bid": 2, "bid": 3')),
            'hand 3: duplicate key "bid"',
        ),
        (
            _record_text(top='"variant": "cinch", "variant": "auction-pitch"'),
            'record: duplicate key "variant"',
        ),
        (
            _record_text(
                top='"variant": "auction-pitch", "house_rules": {"target": 7, "target": 11}'
            ),
            'house_rules: duplicate key "target"',
        ),
        (
            _record_text(
                top='"variant": "auction-pitch", "teams": {"A": ["Ann"], "A": ["Bob", "Cy"]}'
            ),
            'teams: duplicate key "A"',
        ),
    ],
)
def test_a_key_written_twice_is_refused_naming_the_key_and_the_hand(text, message):
    with pytest.raises(RuleError) as caught:
        loads_record(text)
    assert caught.value.code == "duplicate-key"
    assert assert_one_line(caught.value) == message


def test_the_same_key_in_two_different_hands_is_not_a_duplicate():
    assert len(loads_record(_record_text()).hands) == 3
