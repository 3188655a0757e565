"""The roster's forms: rename a player, merge another spelling into one."""

from __future__ import annotations

from typing import Any

from flask_wtf import FlaskForm
from wtforms import BooleanField, SelectField, StringField
from wtforms.validators import InputRequired, Length

from .. import rules


def _strip(value: Any) -> Any:
    return value.strip() if isinstance(value, str) else value


class RenameForm(FlaskForm):  # type: ignore[misc]
    name = StringField(
        "New name",
        filters=[_strip],
        validators=[
            InputRequired("Type the new name."),
            Length(max=rules.NAME_MAX, message=f"A name has at most {rules.NAME_MAX} characters."),
        ],
    )


class MergeForm(FlaskForm):  # type: ignore[misc]
    other = SelectField(
        "Other spelling",
        coerce=int,
        validators=[InputRequired("Choose the player to merge into this one.")],
        description="Their games become this player's games, and that name leaves the roster.",
    )
    confirm = BooleanField(
        "Yes, these are the same person",
        validators=[InputRequired("Tick the box to confirm they are the same person.")],
    )
