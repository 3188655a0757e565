"""The base of every form: Flask-WTF's (CSRF), speaking the request's language.

Flask-WTF reads WTForms' own catalogue (its built-in validator messages) from disk on
every request that builds a form; here each language's is read once per process.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from babel.support import NullTranslations, Translations
from flask_wtf import FlaskForm
from wtforms.i18n import messages_path

from .i18n import DEFAULT_LOCALE, current_locale


@cache
def wtforms_translations(locale: str) -> NullTranslations:
    """WTForms' own messages in ``locale`` (English, their source, needs none)."""
    if locale == DEFAULT_LOCALE:
        return NullTranslations()
    return Translations.load(messages_path(), [locale], "wtforms")


class NameLength:
    """Refuse a name longer than ``rules.NAME_MAX`` with a message saying so. Unlike WTForms'
    Length it sets no ``maxlength`` on the input, which would have the browser cut a long
    name silently as it is typed."""

    def __init__(self, maximum: int, message: Any) -> None:
        self.maximum = maximum
        self.message = message

    def __call__(self, form: Any, field: Any) -> None:
        from wtforms.validators import ValidationError

        if field.data and len(field.data.strip()) > self.maximum:
            raise ValidationError(str(self.message) % {"max": self.maximum})


def name_key(name: str) -> str:
    """What two spellings of one name share: "Ana" and "ana " are one player (case and
    surrounding spaces ignored)."""
    return name.strip().casefold()


class Form(FlaskForm):  # type: ignore[misc]
    class Meta:
        def get_translations(self, form: Any) -> NullTranslations:
            return wtforms_translations(current_locale())
