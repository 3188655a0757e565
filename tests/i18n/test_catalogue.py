"""The message catalogue is complete, up to date with the code, and compiled."""

from __future__ import annotations

import io
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from jinja2 import Environment

from .catalogue import (
    MO,
    PLACEHOLDER,
    ROOT,
    extracted_ids,
    message_key,
    romanian,
)


def test_the_romanian_catalogue_holds_exactly_the_strings_the_code_marks() -> None:
    in_code = {message_key(m) for m in extracted_ids()}
    in_catalogue = {message_key(m.id) for m in romanian() if m.id}
    assert sorted(in_code - in_catalogue) == [], "run `make messages` and translate the new strings"
    assert sorted(in_catalogue - in_code) == [], (
        "run `make messages` to drop strings no longer used"
    )


def test_every_romanian_entry_is_translated_and_not_fuzzy() -> None:
    untranslated = []
    for message in romanian():
        if not message.id:
            continue
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        if message.fuzzy or not all(strings):
            untranslated.append(message.id)
    assert untranslated == []


def test_romanian_plurals_have_the_three_forms_romanian_uses() -> None:
    catalogue = romanian()
    assert catalogue.num_plurals == 3
    for message in catalogue:
        if message.pluralizable:
            assert len(message.string) == 3 and all(message.string), message.id


def test_every_translation_keeps_the_placeholders_of_its_english() -> None:
    broken = []
    for message in romanian():
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        wanted = set(PLACEHOLDER.findall(ids[-1])) | set(PLACEHOLDER.findall(ids[0]))
        for text in strings:
            # A singular form may leave the count out ("o partidă"), nothing else.
            if not set(PLACEHOLDER.findall(text)) <= wanted or not (
                set(PLACEHOLDER.findall(ids[0])) - {"%(num)s", "%(num)d"}
                <= set(PLACEHOLDER.findall(text))
            ):
                broken.append((message.id, text))
    assert broken == []


def test_the_compiled_catalogue_is_the_po_file_compiled() -> None:
    compiled = io.BytesIO()
    write_mo(compiled, romanian())
    assert MO.read_bytes() == compiled.getvalue(), "run `make translations`"


class _TemplateText(HTMLParser):
    """Collect the literal text and readable attributes of a template with its Jinja parts
    replaced by spaces, so only words written straight into the HTML are left."""

    READABLE = ("title", "placeholder", "aria-label", "alt", "label")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        for name, value in attrs:
            if name in self.READABLE and value:
                self.found.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.found.append(data)


#: Names that are the same in every language.
NOT_TRANSLATED = {"Pitch Scorekeeper", "PDF", "JSON"}


def literal_words(source: str) -> list[str]:
    env = Environment(extensions=["jinja2.ext.i18n"])
    parts = []
    for _line, kind, value in env.lex(source):
        # A space keeps a tag with a Jinja part in it (<tr{% if %} class="x"{% endif %}>) a tag.
        parts.append(value if kind == "data" else " ")
    parser = _TemplateText()
    parser.feed("".join(parts))
    words = []
    for text in parser.found:
        for name in NOT_TRANSLATED:
            text = text.replace(name, "")
        words += re.findall(r"[A-Za-z]{2,}", text)
    return words


TEMPLATES = sorted((ROOT / "templates").rglob("*.html"))


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT / "templates")))
def test_no_template_writes_english_straight_into_the_page(path: Path) -> None:
    assert literal_words(path.read_text()) == []
