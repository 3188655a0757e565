"""Let the rules tests import their shorthand (rules_helpers.py) under any import mode.

With ``--import-mode=importlib`` pytest puts no test folder on sys.path, so this
folder is added here; the helper module's name is unique to keep clear of others.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)
