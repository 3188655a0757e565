"""The project's own references stay in step with the engine, and link nothing outside it.

docs/RULES.md (the rules) and docs/GAME-RECORD.md (the JSON record) are ours, in our words;
every variant, point, house-rule switch and switch value the engine knows must be there,
and every field and value of the record the engine reads or writes. The engine's own data
is iterated, so a point or switch added to scorekeeper/rules/ without its documentation
fails here.
"""

from __future__ import annotations

import json
import re
from dataclasses import fields
from enum import StrEnum
from pathlib import Path
from typing import get_type_hints

import pytest

from scorekeeper.rules import (
    RULE_SETS,
    Event,
    Sale,
    WinReason,
    loads_record,
    output_document,
    record,
)
from scorekeeper.rules.variants import POINTS, SWITCH_NAMES, VARIANTS, HouseRules

REPO = Path(__file__).resolve().parents[1]
RULES = REPO / "docs" / "RULES.md"
GAME_RECORD = REPO / "docs" / "GAME-RECORD.md"
EXAMPLES = REPO / "tests" / "examples"
#: The Markdown files a reader of the project opens.
DOCUMENTS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
DECISIONS = REPO / "docs" / "DECISIONS.md"
#: What docs/DECISIONS.md must not say, so that it keeps: an issue's number (the reason is
#: written out instead), and a measured time or share (a number of milliseconds, of seconds
#: written "s", or a percentage): the numbers are bench/results.md's, written by make bench.
NOT_KEPT = re.compile(
    r"\bissues? #?\d+"  # (issue 14), issue #7
    r"|\d+(?:[.,]\d+)?\s?ms\b"  # 8.9 ms, 30-150ms
    r"|\d+(?:[.,]\d+)? s\b"  # 0.2 s, 20 s (not the 1990s)
    r"|\d+(?:[.,]\d+)?\s?%",  # 5%, 3 %
    re.IGNORECASE,
)


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _switch_values() -> list[tuple[str, str]]:
    """Every value of every switch whose values are a fixed list (an enum)."""
    hints = get_type_hints(HouseRules)
    return [
        (f.name, str(value))
        for f in fields(HouseRules)
        if isinstance(hints[f.name], type) and issubclass(hints[f.name], StrEnum)
        for value in hints[f.name]
    ]


@pytest.mark.parametrize("key", list(VARIANTS))
def test_every_variant_the_engine_knows_is_documented_in_rules_md(key: str) -> None:
    assert f"`{key}`" in _text(RULES), f"variant {key} is not in docs/RULES.md"


@pytest.mark.parametrize("key", list(RULE_SETS))
def test_every_ready_made_rule_set_is_documented_in_rules_md(key: str) -> None:
    assert f"`{key}`" in _text(RULES), f"rule set {key} is not in docs/RULES.md"


@pytest.mark.parametrize("key", list(POINTS))
def test_every_point_the_engine_knows_is_documented_in_rules_md(key: str) -> None:
    assert f"`{key}`" in _text(RULES), f"point {key} is not in docs/RULES.md"


@pytest.mark.parametrize("name", SWITCH_NAMES)
def test_every_house_rule_switch_the_engine_knows_is_documented_in_rules_md(name: str) -> None:
    assert f"`{name}`" in _text(RULES), f"switch {name} is not in docs/RULES.md"


@pytest.mark.parametrize(
    ("name", "value"), _switch_values(), ids=[f"{n}={v}" for n, v in _switch_values()]
)
def test_every_value_of_every_switch_is_documented_in_rules_md(name: str, value: str) -> None:
    assert f"`{value}`" in _text(RULES), f"{name}: {value} is not in docs/RULES.md"


def test_the_new_family_of_section_ten_is_documented_before_the_engine_has_it() -> None:
    # Issue 16 adds these to the engine; the reference says what they mean already.
    text = _text(RULES)
    names = [
        "off_jack",
        "big_joker",
        "little_joker",
        "three",
        "ten-point",
        "min_bid",
        "smudge_failed",
        "points",
        "max_bid",
        "smudge_bid",
        "win_rule",
        "pitcher_scores",
        "gap",
        "game_count",
        "smudge-failed",
        "bidder-only",
        "count-out",
    ]
    assert [n for n in names if f"`{n}`" not in text] == []
    assert "`game_count`" in _text(GAME_RECORD) and "`smudge-failed`" in _text(GAME_RECORD)


def test_every_field_of_the_record_the_engine_reads_is_documented_in_game_record_md() -> None:
    text = _text(GAME_RECORD)
    keys = {*record._RECORD_KEYS, *record._PLAYED_KEYS, *record._PASSED_KEYS}
    assert sorted(k for k in keys if f"`{k}`" not in text) == []
    assert f"`{record.FORMAT}`" in text or f'`"{record.FORMAT}"`' in text


def test_every_field_and_value_of_the_output_is_documented_in_game_record_md() -> None:
    text = _text(GAME_RECORD)
    keys: set[str] = set()
    for path in sorted(EXAMPLES.rglob("*.out.json")):
        document = json.loads(_text(path))
        keys.update(document)
        for hand in document["hands"]:
            keys.update(hand)
        if document["settlement"]:
            keys.update(document["settlement"])
            for payment in document["settlement"]["payments"]:
                keys.update(payment)
    # And what the engine writes, whatever the examples show.
    scored = output_document(
        loads_record((EXAMPLES / "game-record-example.json").read_bytes()).score()
    )
    keys.update(scored)
    values = {str(v) for enum in (WinReason, Event, Sale) for v in enum}
    missing = sorted(k for k in keys | values if f"`{k}`" not in text and f'`"{k}"`' not in text)
    assert missing == []


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.name)
def test_the_readme_and_docs_link_only_files_inside_the_project(document: Path) -> None:
    for target in LINK.findall(_text(document)):
        if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            continue  # a web address or a place in the same page
        path = (document.parent / target.split("#", 1)[0]).resolve()
        assert path.is_relative_to(REPO), f"{document.name} links {target}, outside the project"
        assert path.exists(), f"{document.name} links {target}, which does not exist"


def test_the_readme_links_the_projects_own_rules_and_record_references() -> None:
    links = LINK.findall(_text(REPO / "README.md"))
    assert "docs/RULES.md" in links and "docs/GAME-RECORD.md" in links


def test_the_architecture_map_names_every_folder_of_the_package_and_only_those() -> None:
    # docs/ARCHITECTURE.md's layer map is the tree as it is: a folder added or moved is
    # placed in it, and a folder it names exists.
    text = _text(REPO / "docs" / "ARCHITECTURE.md")
    table = text[text.index("## The layer map") : text.index("## One hand's path")]
    named = set(re.findall(r"`(?:scorekeeper/)?([a-z_]+)/`", table))
    folders = {
        p.name
        for p in (REPO / "scorekeeper").iterdir()
        if p.is_dir() and (p / "__init__.py").exists()
    }
    assert folders - named == set(), "folders the map leaves out"
    assert named - folders - {"templates", "static", "instance"} == set(), "named wrongly"


def test_the_readme_first_screen_has_the_two_commands_and_the_map() -> None:
    first = "\n".join(_text(REPO / "README.md").splitlines()[:40])
    assert "make run" in first and "make test" in first
    assert "docs/ARCHITECTURE.md" in first


def _not_kept(text: str) -> list[str]:
    return [m.group(0) for m in NOT_KEPT.finditer(" ".join(text.split()))]


def test_the_check_of_decisions_md_finds_issue_numbers_and_timings() -> None:
    sample = (
        "Points by team (issue 14). Issue 7 set it. Recording took 8.9 ms, 9.4ms without; "
        "a pause of 0.12 s, or 20 s; about 5% of the request, 3 % of it; 30-150 ms; 4.5\ns."
    )
    assert _not_kept(sample) == [
        "issue 14",
        "Issue 7",
        "8.9 ms",
        "9.4ms",
        "0.12 s",
        "20 s",
        "5%",
        "3 %",
        "150 ms",
        "4.5 s",
    ]
    # What a decision may say: sizes, counts, limits, a code named with its unit.
    fine = (
        "A record over 5 MB; 2^31 - 1; 64 games; 512 MB; LIVE_STREAMS + 8 threads; "
        "SQLITE_BUSY_TIMEOUT_MS; the 1990s; 4 sides; `IMPORT_BATCH_SECONDS`; 10-Point Pitch."
    )
    assert _not_kept(fine) == []


def test_decisions_md_names_no_issue_number_and_quotes_no_timing() -> None:
    # A decision says why in words and points to make bench for the numbers, so it stays
    # true when the machine, the numbers or the issue tracker change. Read as one line of
    # words, so a number and its unit split over two lines are found too.
    words = " ".join(_text(DECISIONS).split())
    found = [words[max(0, m.start() - 30) : m.end() + 10] for m in NOT_KEPT.finditer(words)]
    assert found == [], "docs/DECISIONS.md should say these in words: " + " | ".join(found)


def test_every_section_of_decisions_md_named_elsewhere_is_there() -> None:
    # Code and documents point into docs/DECISIONS.md by a heading's name; a heading renamed
    # leaves them pointing at nothing.
    headings = {
        line.lstrip("#").strip() for line in _text(DECISIONS).splitlines() if line.startswith("#")
    }
    pointers = re.compile(
        r'DECISIONS\.md,\s+"([^"]+)"'  # (docs/DECISIONS.md, "The house")
        r'|"([^"]+)"\s+in\s+`?(?:docs/)?DECISIONS\.md'  # "Offline and conflicts" in docs/...
    )
    places = [REPO / "README.md", *sorted(REPO.glob("docs/*.md"))]
    places += sorted((REPO / "scorekeeper").rglob("*.py")) + sorted((REPO / "tests").rglob("*.py"))
    named = {
        (path.relative_to(REPO).as_posix(), one or other)
        for path in places
        if path != Path(__file__)
        for one, other in pointers.findall(_text(path))
    }
    assert named, "no pointer into docs/DECISIONS.md found: the check reads nothing"
    assert sorted((where, name) for where, name in named if name not in headings) == []
    see = set(re.findall(r'see "([^"]+)"', _text(DECISIONS)))
    assert see - headings == set(), "docs/DECISIONS.md points at a section it does not have"
