"""Reading the message catalogue and the code's marked strings, for the language tests."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from scorekeeper import i18n

ROOT = Path(__file__).resolve().parents[2]
PO = i18n.TRANSLATIONS / "ro" / "LC_MESSAGES" / "messages.po"
MO = PO.with_suffix(".mo")
#: The keywords `make messages` extracts (Babel's defaults plus ours).
KEYWORDS = {"N_": None, "_l": None, "lazy_gettext": None}
#: Placeholders that must survive translation: %(name)s and the engine's {name}.
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w+\}|%%")
#: A word: a run of letters (diacritics included).
WORD = re.compile(r"[^\W\d_]+")


@cache
def romanian() -> Catalog:
    with PO.open("rb") as f:
        return read_po(f)


def extracted_ids() -> set[str | tuple[str, ...]]:
    """Every msgid the code and templates mark, extracted as `make messages` does."""
    from babel.messages.extract import DEFAULT_KEYWORDS

    with (ROOT / "babel.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)
    keywords = {**DEFAULT_KEYWORDS, **KEYWORDS}
    found: set[str | tuple[str, ...]] = set()
    for folder in ("scorekeeper", "templates"):
        for _file, _line, message, _comments, _context in extract_from_dir(
            str(ROOT / folder), method_map, options_map, keywords=keywords
        ):
            found.add(message if isinstance(message, str) else tuple(message))
    return found


def message_key(message_id: str | tuple[str, ...]) -> str:
    return message_id if isinstance(message_id, str) else message_id[0]


@cache
def english_only_words() -> frozenset[str]:
    """Words of the English msgids that no Romanian translation uses: seen on a Romanian
    page, such a word means a string escaped translation."""
    english: set[str] = set()
    romanian_words: set[str] = set()
    for message in romanian():
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        for text in ids:
            english.update(w.lower() for w in WORD.findall(PLACEHOLDER.sub(" ", text)))
        for text in strings:
            romanian_words.update(w.lower() for w in WORD.findall(PLACEHOLDER.sub(" ", text)))
    return frozenset(w for w in english - romanian_words if len(w) >= 3)
