"""The ``scorekeeper`` command line: ``score FILE [--json]`` and ``variants``.

The worked examples are the spec's, copied into ``tests/examples`` (a test in
tests/rules/test_rules_record.py keeps the copies equal to the spec's), and our own
hand-worked records are in ``records/`` here. The cases run in this process through
click's CliRunner; each command is run once as a real process, as a user at the table
would, and so are the tests of what only a process shows (a fresh interpreter's imports,
a real standard output's encoding).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from command_line import SCRIPT, Ran, invoke, run_process, run_python

from scorekeeper.cli.main import main

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
RECORDS = Path(__file__).resolve().parent / "records"

#: The spec's examples, section 11's in a folder of their own (as the spec keeps them).
EXAMPLE_OUTPUTS = sorted(EXAMPLES.glob("*.out.json")) + sorted(
    (EXAMPLES / "section-11").glob("*.out.json")
)
EXAMPLE_ERRORS = sorted(EXAMPLES.glob("*.error.txt")) + sorted(
    (EXAMPLES / "section-11").glob("*.error.txt")
)
OUR_OUTPUTS = sorted(RECORDS.glob("*.out.json"))

VARIANT_KEYS = [
    "auction-pitch",
    "joker-pitch",
    "racehorse-pitch",
    "sell-out",
    "pitch-six",
    "pedro",
    "cinch",
    "ten-point",
]


def _record_for(output: Path) -> Path:
    return output.with_name(output.name.removesuffix(".out.json") + ".json")


def _run(*args: str, stdin: bytes | None = None) -> Ran:
    """Run the command in this process; its output as bytes, as a process writes it."""
    return invoke(*args, stdin=stdin, text=False)


def _process(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """Run the installed console script, as a user at the table would."""
    return run_process(*args, stdin=stdin, text=False, cwd=REPO, timeout=60)


def _invoke(*args: str, stdin: bytes | None = None) -> Any:
    return CliRunner().invoke(main, list(args), input=stdin, catch_exceptions=False)


def assert_same_output(actual: dict[str, Any], expected: dict[str, Any]) -> None:
    """Compare two Output documents field by field, and each hand field by field."""
    assert sorted(actual) == sorted(expected)
    for key in expected:
        if key == "hands":
            continue
        assert actual[key] == expected[key], f"field {key!r}"
    assert len(actual["hands"]) == len(expected["hands"])
    for got, want in zip(actual["hands"], expected["hands"], strict=True):
        number = want["number"]
        assert sorted(got) == sorted(want), f"hand {number}: its fields"
        for key in want:
            assert got[key] == want[key], f"hand {number}: field {key!r}"


def test_the_worked_examples_and_our_records_are_found():
    assert SCRIPT.exists()
    assert len(EXAMPLE_OUTPUTS) == 10 + 6
    assert len(EXAMPLE_ERRORS) == 2 + 1
    assert len(OUR_OUTPUTS) == 6


@pytest.mark.parametrize("output", EXAMPLE_OUTPUTS, ids=lambda p: p.name.removesuffix(".out.json"))
def test_score_json_gives_each_worked_examples_output_field_by_field(output):
    completed = _run("score", str(_record_for(output)), "--json")
    assert completed.returncode == 0, completed.stderr.decode()
    assert completed.stderr == b""
    expected = json.loads(output.read_text(encoding="utf-8"))
    assert_same_output(json.loads(completed.stdout), expected)


@pytest.mark.parametrize("error", EXAMPLE_ERRORS, ids=lambda p: p.name.removesuffix(".error.txt"))
def test_score_refuses_each_worked_error_with_its_exact_line_and_status_two(error):
    record = error.with_name(error.name.removesuffix(".error.txt") + ".json")
    completed = _run("score", str(record), "--json")
    assert completed.returncode == 2
    assert completed.stdout == b""
    assert completed.stderr.decode("utf-8") == error.read_text(encoding="utf-8").strip() + "\n"


@pytest.mark.parametrize("output", OUR_OUTPUTS, ids=lambda p: p.name.removesuffix(".out.json"))
def test_score_json_gives_our_hand_worked_outputs_field_by_field(output):
    result = _invoke("score", str(_record_for(output)), "--json")
    assert result.exit_code == 0, result.stderr
    expected = json.loads(output.read_text(encoding="utf-8"))
    assert_same_output(json.loads(result.stdout), expected)


def test_our_records_cover_every_variant_the_examples_do_not():
    variants = {
        json.loads(_record_for(p).read_text(encoding="utf-8"))["variant"] for p in OUR_OUTPUTS
    }
    assert {"joker-pitch", "racehorse-pitch", "pedro", "pitch-six", "cinch", "sell-out"} <= variants


def test_score_json_is_written_exactly_as_the_examples_are():
    output = EXAMPLES / "ap-countout-order.out.json"
    completed = _process("score", str(_record_for(output)), "--json")
    assert completed.stdout == output.read_bytes()


def test_a_dash_reads_the_record_from_standard_input():
    output = EXAMPLES / "cinch-rule-book-examples.out.json"
    completed = _run("score", "-", "--json", stdin=_record_for(output).read_bytes())
    assert completed.returncode == 0, completed.stderr.decode()
    assert_same_output(json.loads(completed.stdout), json.loads(output.read_bytes()))


def test_a_dash_reads_standard_input_for_the_text_sheet_too():
    result = _invoke("score", "-", stdin=(EXAMPLES / "ap-countout-order.json").read_bytes())
    assert result.exit_code == 0
    assert "Winner: Cy, on the count-out, at hand 4" in result.stdout


def test_a_bad_record_prints_exactly_one_line_on_stderr_and_exits_two():
    record = json.loads((EXAMPLES / "ap-make-and-setback.json").read_text(encoding="utf-8"))
    record["hands"][2]["bid"] = 5
    completed = _run("score", "-", "--json", stdin=json.dumps(record).encode())
    assert completed.returncode == 2
    assert completed.stdout == b""
    assert completed.stderr == b"hand 3: bid 5 is above the maximum of 4 for Auction Pitch\n"


BAD_RECORDS = [
    ("garbage bytes", b"\xff\x00\xfe garbage", "record: is not valid JSON"),
    ("empty input", b"", "record: is not valid JSON"),
    ("a list", b"[]", "record: must be a JSON object, not a list"),
    (
        "an unknown key",
        b'{"format": "pitch-scorekeeper/1", "variant": "pedro", "players": ["A", "B"], '
        b'"hands": [], "colour": "red"}',
        'record: unknown key "colour"',
    ),
    (
        "a name with a newline",
        b'{"format": "pitch-scorekeeper/1", "variant": "pedro", "players": ["A\\nB", "C"], '
        b'"hands": []}',
        'players: "A\\nB" contains a control character',
    ),
    (
        "a bid written as a string",
        b'{"format": "pitch-scorekeeper/1", "variant": "pedro", "players": ["A", "B"], '
        b'"hands": [{"pitcher": "A", "bid": "5", "points": {}}]}',
        "hand 1: bid: must be a whole number, not a string",
    ),
    (
        "a name that is a lone surrogate",
        b'{"format": "pitch-scorekeeper/1", "variant": "pedro", "players": ["\\ud800", "B"], '
        b'"hands": []}',
        'players: "\\ud800" contains a lone surrogate, which is not a character',
    ),
    (
        "a point's taker written twice (the last would win)",
        b'{"format": "pitch-scorekeeper/1", "variant": "auction-pitch", "players": ["A", "B"], '
        b'"hands": [{"pitcher": "A", "bid": 2, "points": '
        b'{"high": "A", "high": "B", "low": "B", "jack": null, "game": "A"}}]}',
        'hand 1: duplicate key "high"',
    ),
    (
        "the variant written twice",
        b'{"format": "pitch-scorekeeper/1", "variant": "cinch", "variant": "pedro", '
        b'"players": ["A", "B"], "hands": []}',
        'record: duplicate key "variant"',
    ),
]


@pytest.mark.parametrize("as_json", [True, False], ids=["json", "text"])
@pytest.mark.parametrize(
    ("stdin", "line"), [r[1:] for r in BAD_RECORDS], ids=[r[0] for r in BAD_RECORDS]
)
def test_every_bad_record_is_one_line_on_stderr_with_status_two(stdin, line, as_json):
    args = ["score", "-", "--json"] if as_json else ["score", "-"]
    result = _invoke(*args, stdin=stdin)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.endswith("\n")
    assert result.stderr.splitlines() == [result.stderr.rstrip("\n")]
    assert result.stderr.startswith(line)


def test_a_valid_record_with_a_surrogate_escape_never_gives_a_traceback():
    # Fixed in the engine: the name was accepted and printing it raised UnicodeEncodeError.
    stdin = next(r[1] for r in BAD_RECORDS if r[0] == "a name that is a lone surrogate")
    completed = _process("score", "-", stdin=stdin)
    assert completed.returncode == 2
    assert b"Traceback" not in completed.stderr
    assert len(completed.stderr.splitlines()) == 1


RULE_SET_KEYS = [
    "seven-point",
    "nine-point",
    "eleven-point",
    "thirteen-point",
    "ten-point-with-ten",
    "smear",
    "sancho-pedro",
    "dom-pedro",
]


def test_variants_lists_all_eight_keys():
    completed = _process("variants")
    assert completed.returncode == 0
    # The variants come first; the ready-made rule sets follow, after a blank line.
    variants_part = completed.stdout.decode("utf-8").split("\n\n")[0]
    lines = variants_part.splitlines()
    keys = [line.split(":")[0] for line in lines if line and not line.startswith(" ")]
    assert keys == VARIANT_KEYS


def test_variants_lists_the_ready_made_rule_sets_after_the_variants_with_their_summary():
    completed = _run("variants")
    assert completed.returncode == 0
    _variants, rule_sets = completed.stdout.decode("utf-8").split("\n\n")
    heading, *lines = rule_sets.splitlines()
    assert heading == "Ready-made rule sets (a variant and its house rules):"
    keys = [line.split(":")[0] for line in lines if not line.startswith(" ")]
    assert keys == RULE_SET_KEYS
    assert "seven-point: 7-Point Pitch (ten-point)" in lines
    assert (
        "  10-Point Pitch with the Ten, and no Three or Game: seven points, bid 3 to 7, "
        "first to 21; a made bid of 7 shoots the moon." in lines
    )
    assert "  seats 2-7; bids 2-5; points high, low, jack, off_jack, game" in lines
    assert "  house rules: smudge_bid=null, all_pass=dealer-set, target=11" in lines
    assert "  seats 2-7; bids 1-21; points high, low, jack, game, pedro, nine, three" in lines


def test_variants_names_the_rule_sets_in_romanian_too():
    text = _invoke("--lang", "ro", "variants").stdout
    assert "smear: Smear cu 5 puncte (auction-pitch)" in text


def test_variants_shows_each_preset_from_the_rules_table():
    text = _invoke("variants").stdout
    assert "cinch: Cinch" in text
    assert "seats 3-6; bids 3-6; points high, low, jack, six, last_trick, game" in text
    assert "seats 2-7; bids 1-9; points high, low, jack, game, pedro" in text
    assert "target=51" in text


def test_the_text_sheet_shows_scores_in_the_hole_in_parentheses_and_names_the_winner():
    completed = _run("score", str(EXAMPLES / "ap-countout-order.json"))
    assert completed.returncode == 0
    text = completed.stdout.decode("utf-8")
    assert "Scores: Ann (-2), Bob 8, Cy 7, Dee (-2)" in text
    assert "(a score in parentheses is in the hole)" in text
    assert "Winner: Cy, on the count-out, at hand 4" in text
    rows = [line.split() for line in text.splitlines() if line.strip().startswith("3 ")]
    assert rows == [["3", "Cy", "Dee", "2", "set", "back", "2", "0", "6", "6", "(-2)"]]


def test_the_text_sheet_lists_the_payments_with_money():
    text = _invoke("score", str(RECORDS / "sell-out-stake-settlement.json")).stdout
    assert "Winner: Bob, on the count-out, at hand 5" in text
    assert "  Ann pays Bob 1 unit = 0.13" in text
    assert "  Cy pays Bob 1 unit = 0.13" in text


def test_the_text_sheet_names_partnerships_by_team():
    text = _invoke("score", str(RECORDS / "cinch-partnership-to-51.json")).stdout
    assert "Teams: North-South (Ann, Cy); East-West (Bob, Dee)" in text
    assert "Winner: North-South, first to the target, at hand 6" in text


def test_the_text_sheet_of_an_unfinished_game_names_the_next_dealer():
    text = _invoke("score", str(EXAMPLES / "ap-smudge-from-hole.json")).stdout
    assert "Scores: Ann 2, Bob 1, Cy 1" in text
    assert "Not finished. Next dealer: Cy" in text
    assert "made, smudge" in text
    assert "Winner" not in text


def test_the_text_sheet_shows_a_smudge_from_the_hole_in_parentheses_before_it():
    text = _invoke("score", str(EXAMPLES / "ap-smudge-from-hole.json")).stdout
    first = next(line for line in text.splitlines() if line.strip().startswith("1 "))
    assert first.split()[-3:] == ["2", "(-3)", "1"]


def test_a_missing_file_is_one_line_naming_it_with_status_two():
    missing = RECORDS / "no-such-record.json"
    completed = _run("score", str(missing), "--json")
    assert completed.returncode == 2
    assert completed.stdout == b""
    assert completed.stderr.decode() == f"{missing}: there is no such file\n"


def test_a_relative_missing_file_is_named_as_it_was_typed(monkeypatch):
    monkeypatch.chdir(REPO)
    completed = _run("score", "missing.json")
    assert completed.returncode == 2
    assert completed.stderr.decode() == "missing.json: there is no such file\n"


def test_a_folder_given_as_the_record_is_one_line_with_status_two(tmp_path):
    completed = _run("score", str(tmp_path))
    assert completed.returncode == 2
    assert completed.stdout == b""
    assert completed.stderr.decode() == f"{tmp_path}: is a folder, not a file\n"


def test_a_path_through_a_file_is_one_line_with_the_systems_reason(tmp_path):
    record = tmp_path / "game.json"
    record.write_bytes((EXAMPLES / "ap-countout-order.json").read_bytes())
    through = record / "more.json"
    completed = _run("score", str(through))
    assert completed.returncode == 2
    assert completed.stderr.decode() == f"{through}: cannot be read (Not a directory)\n"


def test_the_score_command_loads_no_web_library():
    probe = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from scorekeeper.cli.main import main\n"
        f"CliRunner().invoke(main, ['score', {str(EXAMPLES / 'ap-countout-order.json')!r}])\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'flask', 'sqlalchemy', 'flask_sqlalchemy', 'wtforms', 'flask_wtf', 'weasyprint'}))\n"
    )
    assert run_python(probe, REPO).strip() == "[]"


# --- RULES.md section 11 on the text sheet

SECTION_11 = EXAMPLES / "section-11"


def test_the_text_sheet_says_time_called_after_the_hand_it_was_called():
    completed = _run("score", str(SECTION_11 / "called-after-three.json"))
    assert completed.returncode == 0, completed.stderr.decode()
    text = completed.stdout.decode("utf-8")
    assert text.splitlines()[:2] == [
        "Auction Pitch: first to 7",
        "Time called after 3 played hands.",
    ]
    assert "Winner: Bob, time called after hand 3" in text
    assert "  Cy pays Bob 2 units = 2.00" in text


def test_the_text_sheet_says_most_points_after_the_hand_that_left_one_side_on_top():
    text = _invoke("score", str(SECTION_11 / "hands-tie-plays-on.json")).stdout
    assert text.splitlines()[0] == "Auction Pitch: the most points after 4 hands"
    assert "Winner: Ann, most points after hand 6" in text


def test_the_text_sheet_of_a_shared_top_after_the_last_hand_says_the_game_goes_on():
    record = json.loads((SECTION_11 / "hands-tie-plays-on.json").read_text(encoding="utf-8"))
    record["hands"] = record["hands"][:5]
    text = _invoke("score", "-", stdin=json.dumps(record).encode()).stdout
    assert "Not finished. Next dealer: Bob" in text
    assert (
        "The top score is shared after hand 5: the game goes on until one side is alone at "
        "the top." in text
    )


def test_the_text_sheet_says_time_called_beside_the_hand_that_broke_a_shared_top():
    # Time called after hand 1 on A 2, B 2; hand 2 leaves B alone at the top, 4 to 3.
    record = {
        "format": "pitch-scorekeeper/1",
        "variant": "auction-pitch",
        "house_rules": {"hands": 3},
        "players": ["A", "B"],
        "called": 1,
        "hands": [
            {
                "pitcher": "A",
                "bid": 2,
                "points": {"high": "A", "low": "A", "jack": "B", "game": "B"},
            },
            {
                "pitcher": "B",
                "bid": 2,
                "points": {"high": "B", "low": "B", "jack": "A", "game": None},
            },
        ],
    }
    text = _invoke("score", "-", stdin=json.dumps(record).encode()).stdout
    assert text.splitlines()[:2] == [
        "Auction Pitch: first to 7, or the most points after 3 hands",
        "Time called after 1 played hand.",
    ]
    assert "Winner: B, most points after hand 2 (time called after hand 1)" in text


def test_the_text_sheet_says_a_passed_hand_set_the_dealer_back():
    text = _invoke("score", str(SECTION_11 / "smear-dealer-set.json")).stdout
    rows = [line.split() for line in text.splitlines() if line.strip().startswith("1 ")]
    assert rows == [["1", "Ann", "passed", "out,", "dealer", "set", "back", "2", "(-2)", "0", "0"]]
