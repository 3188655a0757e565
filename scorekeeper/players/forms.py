"""The roster's forms: rename a player, merge another spelling into one."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, SelectField, StringField
from wtforms.validators import InputRequired

from .. import rules
from ..web.forms import WRITTEN, Form, NameLength


def _strip(value: Any) -> Any:
    return value.strip() if isinstance(value, str) else value


class RenameForm(Form):
    name = StringField(
        _l("New name"),
        filters=[_strip],
        validators=[
            InputRequired(_l("Type the new name.")),
            NameLength(rules.NAME_MAX, _l("A name has at most %(max)s characters.")),
        ],
        render_kw=WRITTEN,
    )


class MergeForm(Form):
    other = SelectField(
        _l("Other spelling"),
        coerce=int,
        validators=[InputRequired(_l("Choose the player to merge into this one."))],
        description=_l("Their games become this player's games, and that name leaves the roster."),
    )
    confirm = BooleanField(
        _l("Yes, these are the same person"),
        validators=[InputRequired(_l("Tick the box to confirm they are the same person."))],
    )
