"""Languages: the message catalogue, the active translation, and locale-aware formatting.

One gettext for the whole program. Inside the web app the language is the request's
(Flask-Babel picks it: the switch remembered in the session, else Accept-Language);
outside it (the command line, a script) it is the one set with :func:`use_locale`,
English by default. The module needs Babel but not Flask, so the command line's
``score`` stays light.

Strings are written in English in the code and marked for extraction with ``_`` /
``gettext`` / ``ngettext`` (translated where they run) or :func:`N_` (translated later,
where they are shown: tables of labels, the engine's message templates).
``make messages`` extracts them into ``translations/messages.pot`` and updates each
language's ``.po``; ``make translations`` compiles the ``.mo`` files the app reads.
"""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token
from datetime import date, datetime
from decimal import Decimal, localcontext
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale, dates, numbers
from babel.support import NullTranslations, Translations

from .rules.errors import N_, Phrase
from .rules.game import STAKE_PATTERN
from .rules.night import EXACT

__all__ = ["N_", "gettext", "ngettext", "use_locale"]

#: The languages the app speaks, each named in its own language (as the switch shows them).
LANGUAGES: dict[str, str] = {"en": "English", "ro": "Română"}
DEFAULT_LOCALE = "en"
#: The catalogue: ``translations/<lang>/LC_MESSAGES/messages.{po,mo}`` and ``messages.pot``.
TRANSLATIONS = Path(__file__).resolve().parent / "translations"
DOMAIN = "messages"

log = logging.getLogger(__name__)


class CheckedTranslations(Translations):
    """A catalogue that reports each message it has no translation for.

    A miss is logged once per message, as a warning: it means a string reached a page
    in English. The tests that walk every page in Romanian fail on any.
    """

    def __init__(self, locale: str, source: NullTranslations) -> None:
        super().__init__()
        self.locale = locale
        self.merge(source)  # type: ignore[arg-type]  # a NullTranslations merges as an empty one
        if hasattr(source, "plural"):
            self.plural = source.plural
        self.misses: set[str] = set()
        self.on_miss: Callable[[str, str], None] | None = None

    def _miss(self, message: str) -> None:
        if message and message not in self.misses:
            self.misses.add(message)
            log.warning("no %s translation for %r", self.locale, message)
            if self.on_miss is not None:
                self.on_miss(self.locale, message)

    def gettext(self, message: str) -> str:
        if message not in self._catalog:
            self._miss(message)
        return super().gettext(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        if (msgid1, 0) not in self._catalog:
            self._miss(msgid1)
        return super().ngettext(msgid1, msgid2, n)

    ugettext = gettext
    ungettext = ngettext


@cache
def translations_for(locale: str) -> NullTranslations:
    """The compiled catalogue of ``locale``; English, the source language, has none."""
    if locale == DEFAULT_LOCALE or locale not in LANGUAGES:
        return NullTranslations()
    return CheckedTranslations(locale, Translations.load(str(TRANSLATIONS), [locale], DOMAIN))


def negotiate(requested: str | None) -> str:
    """The supported language closest to ``requested`` (``ro_RO.UTF-8`` gives ``ro``)."""
    if not requested:
        return DEFAULT_LOCALE
    tag = requested.split(".")[0].split("@")[0].replace("-", "_").lower()
    for candidate in (tag, tag.split("_")[0]):
        if candidate in LANGUAGES:
            return candidate
    return DEFAULT_LOCALE


# --- The active language --------------------------------------------------------------------

_current: ContextVar[str] = ContextVar("scorekeeper_locale", default=DEFAULT_LOCALE)


def locale_from_environment() -> str:
    """The language the environment asks for (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), as gettext
    reads them; English when none names a language we speak."""
    import os

    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        if value := os.environ.get(name):
            return negotiate(value.split(":")[0])
    return DEFAULT_LOCALE


def current_locale() -> str:
    """The language in use here: the request's in the web app (set when it starts), the
    job's in a background job, the command line's in a command."""
    return _current.get()


def set_locale(locale: str) -> Token[str]:
    """Speak ``locale`` from now on in this context; hand the token back to reset_locale."""
    return _current.set(locale if locale in LANGUAGES else DEFAULT_LOCALE)


def reset_locale(token: Token[str]) -> None:
    _current.reset(token)


def active_translations() -> NullTranslations:
    """The catalogue of the language in use (each is loaded once per process)."""
    return translations_for(_current.get())


@contextmanager
def use_locale(locale: str) -> Iterator[None]:
    """Speak ``locale`` inside the block (a command, a background job, a PDF printed later)."""
    token = set_locale(locale)
    try:
        yield
    finally:
        _current.reset(token)


def gettext(message: str, /, **variables: Any) -> str:
    """Translate ``message``; ``%(name)s`` placeholders are filled from ``variables``."""
    text = active_translations().ugettext(message)
    return text % variables if variables else text


def ngettext(singular: str, plural: str, num: int, /, **variables: Any) -> str:
    """Translate by count; ``%(num)s`` is the count."""
    variables.setdefault("num", num)
    return active_translations().ungettext(singular, plural, num) % variables


_ = gettext


# --- Formatting for the locale ---------------------------------------------------------------


@cache
def _babel_locale(code: str) -> Locale:
    return Locale.parse(code)


def _locale() -> Locale:
    return _babel_locale(_current.get())


def number(value: int | Decimal | float) -> str:
    """A count or score, with the locale's digit grouping and minus sign."""
    if type(value) is int and -1000 < value < 1000:
        # No grouping below a thousand, and English and Romanian both write "-5": a chart
        # or sheet formats hundreds of these, and Babel takes 20 µs for each.
        return str(value)
    with localcontext(EXACT):  # every digit, however many (see money)
        return numbers.format_decimal(value, locale=_locale())


def money(amount: Decimal | None) -> str:
    """An amount of money to two places: ``1.50`` in English, ``1,50`` in Romanian.

    The stake has no currency (the table knows what it plays for), so none is shown.
    """
    if amount is None:
        return ""
    # A stake may have up to 32 characters, and money more digits than the 28 of the
    # default context, where formatting would raise: format every digit.
    with localcontext(EXACT):
        return numbers.format_decimal(amount, format="#,##0.00", locale=_locale())


def decimal_sign() -> str:
    """The locale's decimal sign: ``.`` in English, ``,`` in Romanian."""
    return str(numbers.get_decimal_symbol(_locale()))


def read_amount(typed: str, *, whole_digits: int = 6, places: int = 4) -> str | None:
    """Read an amount of money typed into a form, the way the page writes numbers (``0,25`` in
    Romanian) or with a point (``0.25``, which every keyboard has). Return it as the game
    record writes it (``"0.25"``), or None if it is not an amount: no sign, no exponent, no
    digit grouping (``1.000,50`` would be read two ways), at most ``whole_digits`` digits
    before the decimal sign and ``places`` after it."""
    text = typed.strip()
    sign = decimal_sign()
    if sign != "." and text.count(sign) + text.count(".") == 1:
        text = text.replace(sign, ".")
    if not STAKE_PATTERN.fullmatch(text):  # the engine's one spelling of a stake
        return None
    whole, _, fraction = text.partition(".")
    return text if len(whole) <= whole_digits and len(fraction) <= places else None


def day(value: date | datetime | None, form: str = "medium") -> str:
    """A date as the locale writes it (``Nov 29, 2026``; ``29 nov. 2026``)."""
    if value is None:
        return ""
    if isinstance(value, datetime):
        value = value.date()
    return dates.format_date(value, format=form, locale=_locale())


def moment(value: datetime | None, form: str = "medium") -> str:
    """A date and time as the locale writes them."""
    if value is None:
        return ""
    return dates.format_datetime(value, format=form, locale=_locale())


def clock(value: datetime | None) -> str:
    """A time of day, as the locale writes it (``9:47 PM``; ``21:47``)."""
    if value is None:
        return ""
    return dates.format_time(value, format="short", locale=_locale())


# --- The engine's errors, in the current language ---------------------------------------------

#: Parameters that name one of the engine's variants by its (English, catalogued) name.
_NAME_PARAMS = frozenset({"variant", "point_name"})


def _known(word: str) -> str:
    """Translate the name of one of the engine's variants or points; a name that is not in the
    catalogue (a table's own, a quoted value) as it is."""
    catalogue = getattr(active_translations(), "_catalog", {})
    return str(catalogue.get(word) or word)


def _param(key: str, value: Any) -> Any:
    """Say a parameter of a RuleError in the current language: the engine's own words come
    as a :class:`~scorekeeper.rules.errors.Phrase` (translated by its template, with its own
    parameters said the same way); names and quoted input stay as they are."""
    if isinstance(value, Phrase):
        params = {name: _param(name, inner) for name, inner in value.params.items()}
        text = active_translations().ugettext(value.template)
        return text.format(**params) if params else text
    if key in _NAME_PARAMS and isinstance(value, str):
        return _known(value)
    return value


def said(phrase: Any) -> str:
    """Words of the engine's own (a :class:`~scorekeeper.rules.errors.Phrase`: the standings'
    tie-breaks, say) in the current language; anything else as it is."""
    return str(_param("", phrase))


def error_detail(error: Any) -> str:
    """What a :class:`~scorekeeper.rules.RuleError` says is wrong, in the current language."""
    from .rules.errors import MESSAGES, one_line

    params = {key: _param(key, value) for key, value in error.params.items()}
    return one_line(active_translations().ugettext(MESSAGES[error.code]).format(**params))


def error_message(error: Any) -> str:
    """The whole one-line message, the place first (``hand 3: ...``), in the current language."""
    from .rules.errors import one_line

    place = error.place
    if error.hand is not None:
        place = (
            gettext("hand %(number)s: %(field)s", number=error.hand, field=error.field)
            if ":" in place
            else gettext("hand %(number)s", number=error.hand)
        )
    elif place == "record":
        place = gettext("record")
    return one_line(f"{place}: {error_detail(error)}")


# --- Words the table wrote, inside our own sentences -------------------------------------------

#: The characters that open a direction embedding or override, or an isolate, and those that
#: close them (POP DIRECTIONAL FORMATTING, POP DIRECTIONAL ISOLATE).
_EMBEDDINGS, _ISOLATES = "\u202a\u202b\u202d\u202e", "\u2066\u2067\u2068"
_POP_EMBEDDING, _POP_ISOLATE = "\u202c", "\u2069"
#: The bidirectional classes that can move the text around a name: right-to-left letters
#: and the explicit embeddings, overrides and isolates.
_MOVING = frozenset({"R", "AL", "LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"})


def isolated(text: str) -> str:
    """A name (or a team, a night, a note) as our own sentences write it in plain text: as it
    is if it is all left-to-right, else between FIRST STRONG ISOLATE and POP DIRECTIONAL
    ISOLATE, so that a right-to-left name, or one with a direction override in it, cannot
    reorder the words after it. Whatever the name opened is closed before; a closing
    character of its own that would close something outside it is left out.

    (A page isolates the names it shows with ``<bdi>``; this is for text that cannot hold
    markup: a flash message, a page's title, a JSON answer a phone shows, the terminal.)"""
    if not any(unicodedata.bidirectional(ch) in _MOVING for ch in text):
        return text
    kept: list[str] = []
    opened: list[str] = []
    for ch in text:
        if ch in _EMBEDDINGS:
            opened.append(_POP_EMBEDDING)
        elif ch in _ISOLATES:
            opened.append(_POP_ISOLATE)
        elif ch == _POP_EMBEDDING:
            if not opened or opened[-1] != _POP_EMBEDDING:
                continue
            opened.pop()
        elif ch == _POP_ISOLATE:
            if _POP_ISOLATE not in opened:
                continue
            while opened.pop() != _POP_ISOLATE:
                pass
        kept.append(ch)
    return "\u2068" + "".join(kept) + "".join(reversed(opened)) + "\u2069"
