"""STYLE.md: the engine imports only the standard library; a fresh interpreter proves it."""

from __future__ import annotations

import json
from pathlib import Path

from command_line import run_python

REPO = Path(__file__).resolve().parents[2]
WEB_MODULES = {
    "flask",
    "sqlalchemy",
    "flask_sqlalchemy",
    "wtforms",
    "flask_wtf",
    "weasyprint",
    "click",
}

PROBE = """
import json, sys
before = set(sys.modules)
import scorekeeper.rules
import scorekeeper.rules.record
loaded = sorted(set(sys.modules) - before)
print(json.dumps({"loaded": loaded, "all": sorted(sys.modules),
                  "stdlib": sorted(sys.stdlib_module_names)}))
"""


def _probe() -> dict[str, list[str]]:
    return json.loads(run_python(PROBE, REPO))


def test_importing_the_engine_loads_no_web_library_nor_click():
    modules = _probe()["all"]
    assert [m for m in modules if m.split(".")[0] in WEB_MODULES] == []


def test_every_module_the_engine_loads_is_the_standard_library_or_its_own():
    probe = _probe()
    stdlib = set(probe["stdlib"])
    foreign = [
        m
        for m in probe["loaded"]
        if m.split(".")[0] not in stdlib and m.split(".")[0] != "scorekeeper"
    ]
    assert foreign == []
    assert "scorekeeper.rules.record" in probe["loaded"]
