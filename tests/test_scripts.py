"""The pages' scripts: ES modules served from static/js, one graph of relative imports and no
globals between them; their pure parts (a store, a pure function, the page's wiring, as
Workbox's background sync splits a script) pass their tests under Node's own runner.

The node tests are tests/js/*.test.mjs, run with ``node --test`` (no npm package, at run
time or in the tests); the whole of each script is tested through the browser
(tests/browser/). Without Node the node tests skip, and the line at the end of the run
names the Debian package to install; in CI (CI=true) they fail instead.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
import system_parts

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "static" / "js"
TEMPLATES = ROOT / "templates"
NODE_TESTS = sorted((ROOT / "tests" / "js").glob("*.test.mjs"))
#: The service worker is a worker's script, not a page's: a classic script of its own.
WORKER = SCRIPTS / "sw.js"
PAGE_SCRIPTS = sorted(p for p in SCRIPTS.glob("*.js") if p != WORKER)

SCRIPT_TAG = re.compile(r"<script\b[^>]*\bsrc=[^>]*>", re.IGNORECASE)
LOADED = re.compile(r"filename='js/([\w.-]+\.js)'")
IMPORTED = re.compile(r"""(?:\bfrom\s*|^\s*import\s*)["']([^"']+)["']""", re.MULTILINE)
#: A name put on the page's window (or globalThis) for another script to read.
GLOBAL = re.compile(r"\b(?:window|globalThis|self)\.[A-Za-z_$][\w$]*\s*=(?!=)")
COUNT = re.compile(r"^# (tests|pass|fail|cancelled|skipped|todo) (\d+)$", re.MULTILINE)


def _imports(script: Path) -> list[str]:
    return IMPORTED.findall(script.read_text(encoding="utf-8"))


def test_the_node_tests_and_the_scripts_are_found() -> None:
    assert len(NODE_TESTS) >= 6, NODE_TESTS
    assert len(PAGE_SCRIPTS) >= 10, PAGE_SCRIPTS


def test_every_script_a_template_loads_is_a_module() -> None:
    loose = [
        f"{path.relative_to(ROOT)}: {tag}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for tag in SCRIPT_TAG.findall(path.read_text(encoding="utf-8"))
        if 'type="module"' not in tag
    ]
    assert loose == []


def test_every_import_is_another_script_of_static_js_named_relatively() -> None:
    # Relative, so a LAN address serves them all and nothing is fetched from elsewhere; static,
    # so a page loads its whole graph at once and the service worker keeps it (static/js/sw.js
    # keeps whatever is under /static/).
    found = {script.name: _imports(script) for script in PAGE_SCRIPTS}
    assert "./connection.js" in found["offline.js"] and "./connection.js" in found["board.js"]
    wrong = [
        f"{name}: {target}"
        for name, targets in found.items()
        for target in targets
        if not target.startswith("./") or not (SCRIPTS / target).is_file()
    ]
    assert wrong == []
    dynamic = [s.name for s in PAGE_SCRIPTS if "import(" in s.read_text(encoding="utf-8")]
    assert dynamic == []


def test_every_page_script_is_loaded_by_a_template_or_imported_by_a_script() -> None:
    loaded = {
        name for path in TEMPLATES.rglob("*.html") for name in LOADED.findall(path.read_text())
    }
    imported = {target.removeprefix("./") for s in PAGE_SCRIPTS for target in _imports(s)}
    assert {s.name for s in PAGE_SCRIPTS} - loaded - imported == set()
    assert loaded - {s.name for s in PAGE_SCRIPTS} == set()


def test_no_script_leaves_a_global_for_another() -> None:
    assert {s.name: GLOBAL.findall(s.read_text(encoding="utf-8")) for s in PAGE_SCRIPTS} == {
        s.name: [] for s in PAGE_SCRIPTS
    }


def test_the_global_check_finds_a_name_left_on_the_window() -> None:
    source = "window.ScorekeeperConnection = {};\nif (window.fetch === x) {}\nself.x=1;\n"
    assert GLOBAL.findall(source) == ["window.ScorekeeperConnection =", "self.x="]


@pytest.mark.parametrize("tests", NODE_TESTS, ids=[path.name for path in NODE_TESTS])
def test_the_pure_part_passes_its_node_tests(tests: Path) -> None:
    node = system_parts.require("nodejs")
    env = {k: v for k, v in os.environ.items() if not k.startswith("NODE_")}
    run = subprocess.run(
        [str(node), "--test", "--test-reporter=tap", str(tests)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    counts = {name: int(n) for name, n in COUNT.findall(run.stdout)}
    failed = [line for line in run.stdout.splitlines() if line.lstrip().startswith("not ok")]
    assert run.returncode == 0 and failed == [], run.stdout[-4000:] + run.stderr[-2000:]
    assert counts.get("pass", 0) > 0, run.stdout
    assert counts.get("pass") == counts.get("tests"), counts
