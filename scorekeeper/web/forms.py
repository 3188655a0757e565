"""The base of every form: Flask-WTF's, with its CSRF protection, speaking the request's language.

Flask-WTF reads WTForms' own catalogue (its built-in validator messages) from disk on
every request that builds a form; here each language's is read once per process.
"""

from __future__ import annotations

import unicodedata
from decimal import Decimal
from functools import cache
from typing import Any

from babel.support import NullTranslations, Translations
from flask import current_app, g, session
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.csrf import CSRFProtect, generate_csrf
from wtforms import DateField, StringField
from wtforms.i18n import messages_path
from wtforms.validators import InputRequired, Length, Optional, ValidationError

from ..i18n import DEFAULT_LOCALE, N_, current_locale, gettext, money, read_amount
from ..lru import LRU, per_app


class KeptCSRFProtect(CSRFProtect):
    """Flask-WTF's CSRF check, whose templates' ``csrf_token()`` is the kept token
    (``page_csrf_token``): the language switch at the foot of every page asks for it, on
    pages whose view built no form too."""

    def init_app(self, app: Any) -> None:
        super().init_app(app)
        # Flask-WTF offers its own both ways: as a global and from a context processor.
        app.jinja_env.globals["csrf_token"] = page_csrf_token
        app.context_processor(lambda: {"csrf_token": page_csrf_token})


#: Every form's CSRF check (bound in ``create_app``); a JSON door checks it itself.
csrf = KeptCSRFProtect()


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


#: A field that holds words the table writes (a name, a team, a note) shows them in their own
#: direction, whatever the page's: a right-to-left name reads right to left, and a direction
#: override in it stays inside the field.
WRITTEN = {"dir": "auto"}


def strip(value: Any) -> Any:
    """A field filter: the text as typed, without the spaces round it."""
    return value.strip() if isinstance(value, str) else value


def printable(form: Any, field: Any) -> None:
    """A validator for words the table writes (a night's or an event's name, its place): no
    control characters."""
    if field.data and any(unicodedata.category(ch) in ("Cc", "Cs") for ch in field.data):
        raise ValidationError(
            _l("Use letters, digits and punctuation only (no control characters).")
        )


#: Signed CSRF tokens a process keeps: one a session's token (a phone, a laptop).
SIGNED_TOKENS_KEPT = 4096


class KeptCSRF(FlaskForm.Meta.csrf_class):
    """Flask-WTF's CSRF, a session's token signed once and kept, where tokens never expire
    (``WTF_CSRF_TIME_LIMIT`` None, as configured: a game night is longer than an hour).
    Flask-WTF signs it afresh on every request (a new serializer, an HMAC); unexpiring, each
    signing of one session's token is as good as another, and the templates'
    ``csrf_token()`` is the same one (``page_csrf_token``). A session without a token yet
    has it made by Flask-WTF, and its first signing is the one kept (signed again a second
    later, it would read otherwise). An expiring configuration goes through Flask-WTF as
    before."""

    def generate_csrf_token(self, csrf_token_field: Any) -> str:
        if self.meta.csrf_time_limit is not None:
            return str(super().generate_csrf_token(csrf_token_field))
        return signed_once(self.meta.csrf_field_name or "csrf_token", self.meta.csrf_secret)


def page_csrf_token() -> str:
    """The templates' ``csrf_token()``: the token the page's forms carry (``KeptCSRF``)."""
    config = current_app.config
    if config.get("WTF_CSRF_TIME_LIMIT", 3600) is not None:
        return str(generate_csrf())
    return signed_once(config.get("WTF_CSRF_FIELD_NAME", "csrf_token"), None)


def signed_once(name: str, secret: str | None) -> str:
    """The session's token signed, once for the session and kept, and the same for the rest
    of this request (Flask-WTF's own place for it, ``g``)."""
    if name in g:
        return str(g.get(name))
    kept: LRU[str] = per_app("scorekeeper.signed_csrf", lambda: LRU(SIGNED_TOKENS_KEPT))
    found = kept.get(_kept_key(name, secret)) if name in session else None
    if found is None:
        # Flask-WTF signs it, making the session's raw token first if it has none.
        found = str(generate_csrf(secret_key=secret, token_key=name))
        kept.put(_kept_key(name, secret), found)
    setattr(g, name, found)
    return found


def _kept_key(name: str, secret: str | None) -> tuple[Any, str, str]:
    """What a signed token depends on: the secret it is signed with and the session's raw
    token."""
    secret = secret or current_app.config.get("WTF_CSRF_SECRET_KEY")
    return (secret or current_app.secret_key, name, session[name])


class Form(FlaskForm):
    class Meta:
        csrf_class = KeptCSRF

        def get_translations(self, form: Any) -> NullTranslations:
            return wtforms_translations(current_locale())


#: What an amount field says when it cannot read what was typed (with an example in the
#: page's own way of writing money: 0.25, or 0,25 in Romanian).
AMOUNT_EXAMPLE = Decimal("0.25")


def dated_form(name_missing: str, date_missing: str, name_max: int) -> type[Form]:
    """The fields of a named day (a night, an event): its name (``name_missing`` when it has
    none), a place, both of at most ``name_max`` characters, and its date (``date_missing``).
    The form that subclasses it adds its own fields after them."""
    length = Length(max=name_max, message=_l("At most %(max)s characters."))

    class DatedForm(Form):
        name = StringField(
            _l("Name"),
            filters=[strip],
            validators=[InputRequired(name_missing), length, printable],
            render_kw=WRITTEN,
        )
        place = StringField(
            _l("Place"),
            filters=[strip],
            validators=[Optional(), length, printable],
            render_kw=WRITTEN,
        )
        date = DateField(
            _l("Date"),
            validators=[InputRequired(date_missing)],
            render_kw={"min": "1900-01-01", "max": "9999-12-31"},
        )

    return DatedForm


class AmountField(StringField):
    """An amount of money (a stake), typed as the page writes numbers or with a point.

    ``data`` keeps what was typed, to show it again; ``amount`` is it as the game record
    writes it (``"0.25"``), None when empty. Every money field of every form is one of
    these, so ``0,25`` is read the same way everywhere (``i18n.read_amount``).
    """

    def __init__(self, *args: Any, message: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.message = message

    @property
    def amount(self) -> str | None:
        typed = (self.data or "").strip()
        return read_amount(typed) if typed else None

    def pre_validate(self, form: Any) -> None:
        if (self.data or "").strip() and self.amount is None:
            raise ValidationError(gettext(self.message, example=money(AMOUNT_EXAMPLE)))


__all__ = ["N_", "WRITTEN", "AmountField", "Form", "csrf", "wtforms_translations"]
