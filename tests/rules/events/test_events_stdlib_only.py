"""The events engine is the engine's: the standard library and its own, no web library."""

from __future__ import annotations

import json
import re
from pathlib import Path

from command_line import run_python

REPO = Path(__file__).resolve().parents[3]

PROBE = """
import json, sys
before = set(sys.modules)
import scorekeeper.rules.events
loaded = sorted(set(sys.modules) - before)
print(json.dumps({"loaded": loaded, "stdlib": sorted(sys.stdlib_module_names)}))
"""


def test_the_events_engine_loads_only_the_standard_library_and_the_engine():
    probe = json.loads(run_python(PROBE, REPO))
    stdlib = set(probe["stdlib"])
    assert "scorekeeper.rules.events.seating" in probe["loaded"]
    foreign = [m for m in probe["loaded"] if m.split(".")[0] not in stdlib | {"scorekeeper"}]
    assert foreign == []
    ours = [m for m in probe["loaded"] if m.startswith("scorekeeper.")]
    assert all(m.startswith("scorekeeper.rules") for m in ours), ours


def test_every_message_code_raised_has_its_words():
    from scorekeeper.rules.events import MESSAGES

    source = "".join(
        p.read_text(encoding="utf-8")
        for p in (REPO / "scorekeeper" / "rules" / "events").glob("*.py")
    )
    raised = set(re.findall(r'EventError\(\s*"([a-z-]+)"', source))
    assert raised, "no codes found"
    assert raised <= set(MESSAGES), sorted(raised - set(MESSAGES))
