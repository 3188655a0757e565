"""`make test` on a fresh machine that has only Python: the tests that need a missing system
part skip (outside CI), and one line at the end names what to install.

The fresh machine is this one with its parts hidden (tests/fresh_machine.py: a private
mount namespace where Chromium, pdftoppm, node and libharfbuzz-subset0 are /dev/null and
../shared is empty, with CI and TEST_DATABASE_URL unset). A part of the suite runs
there in a real pytest subprocess: the PDF fetcher tests (whose collection used to stop
on WeasyPrint's HarfBuzz warning), a browser test, a pdftoppm test, a script's node tests,
a database test and the HarfBuzz checks below.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import fresh_machine
import pytest
import system_parts

#: WeasyPrint's own words when it finds no HarfBuzz subset library.
HARFBUZZ_WARNING = (
    "HarfBuzz-Subset will be required by future versions of WeasyPrint. "
    "Please install this library with your package manager."
)
SUBSET = [
    "tests/pdf/test_pdf_fetcher.py",
    "tests/browser/test_play.py::test_an_auction_pitch_game_is_played_through_to_a_smudge_win",
    "tests/pdf/test_pdf_sheet.py::test_a_sheet_turns_into_a_picture_of_a_letter_page_with_pdftoppm",
    "tests/test_scripts.py::test_the_pure_part_passes_its_node_tests[offline-next.test.mjs]",
    "tests/web/test_healthz.py",
    "tests/rules/test_rules_record.py::"
    "test_the_projects_copies_of_the_worked_examples_match_the_spec_byte_for_byte",
    "tests/test_fresh_machine.py::test_the_harfbuzz_check_agrees_with_weasyprints_own",
    "tests/test_fresh_machine.py::"
    "test_weasyprints_harfbuzz_warning_is_an_error_unless_the_library_is_missing",
]


def _require_hiding() -> None:
    reason = fresh_machine.can_hide()
    if reason is not None:
        system_parts.skip_or_fail_in_ci(reason)


def _pytest_on_a_fresh_machine(tmp_path: Path, **env: str) -> tuple[int, list[str], str]:
    """Run SUBSET on a fresh machine: its status, the lines of its report, all it printed."""
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        f"--basetemp={tmp_path / 'inner'}",
        *SUBSET,
    ]
    completed = fresh_machine.run(command, env=fresh_machine.environment(**env), timeout=600)
    return completed.returncode, completed.stdout.splitlines(), completed.stdout + completed.stderr


def test_the_harfbuzz_check_agrees_with_weasyprints_own() -> None:
    with warnings.catch_warnings():
        # Only to read WeasyPrint's verdict; the test below checks the filter itself.
        warnings.filterwarnings("ignore", message="HarfBuzz-Subset", category=DeprecationWarning)
        from weasyprint.text import ffi
    assert system_parts.harfbuzz_subset_present() == (ffi.harfbuzz_subset is not None)


def test_weasyprints_harfbuzz_warning_is_an_error_unless_the_library_is_missing() -> None:
    def warn() -> None:
        warnings.warn_explicit(
            HARFBUZZ_WARNING, DeprecationWarning, "ffi.py", 528, module="weasyprint.text.ffi"
        )

    if system_parts.harfbuzz_subset_present():
        with pytest.raises(DeprecationWarning, match="HarfBuzz-Subset"):
            warn()
    else:
        warn()  # filtered: the library is really absent, and the summary line says so
    # Any other DeprecationWarning from WeasyPrint stays an error either way.
    with pytest.raises(DeprecationWarning, match="something else"):
        warnings.warn_explicit(
            "something else", DeprecationWarning, "ffi.py", 1, module="weasyprint.text.ffi"
        )


def test_a_fresh_machine_passes_with_skips_and_one_line_naming_what_to_install(
    tmp_path: Path,
) -> None:
    _require_hiding()
    status, lines, output = _pytest_on_a_fresh_machine(tmp_path)
    assert status == 0, output
    assert "HarfBuzz-Subset will be required" not in output
    assert "error" not in lines[-1] and "failed" not in lines[-1], output
    assert " passed, " in lines[-1] and " skipped" in lines[-1], output
    summary = [line for line in lines if line.startswith(system_parts.SUMMARY_START)]
    assert len(summary) == 1, output
    line = summary[0]
    assert lines.index(line) == len(lines) - 2, "the line comes just before the closing counts"
    assert "chromium (1 test skipped)" in line, line
    assert "poppler-utils (1 test skipped)" in line, line
    assert "nodejs (1 test skipped)" in line, line
    assert "libharfbuzz-subset0 (PDFs made without it)" in line, line
    assert "apt-get install chromium nodejs poppler-utils libharfbuzz-subset0" in line, line
    assert "database tests ran on SQLite only): set TEST_DATABASE_URL" in line, line
    # The comparison with ../shared skips, as in a clone on its own.
    assert "no ../shared/spec/examples beside the project" in output, output


def test_in_ci_a_missing_chromium_poppler_or_node_still_fails_the_tests_that_need_them(
    tmp_path: Path,
) -> None:
    _require_hiding()
    status, lines, output = _pytest_on_a_fresh_machine(tmp_path, CI="true")
    assert status == 1, output
    assert "/usr/bin/chromium is missing: install Debian's chromium package" in output
    assert "pdftoppm is missing: install Debian's poppler-utils package" in output
    assert "node is missing: install Debian's nodejs package" in output
    assert "2 failed" in lines[-1] and "1 error" in lines[-1], output
