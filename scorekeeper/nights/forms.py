"""The game night forms: start or edit a night, add a game to it."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import DateField, IntegerField, StringField
from wtforms.validators import InputRequired, Length, NumberRange, Optional

from ..operations.nights import NIGHT_NAME_MAX
from ..web.forms import WRITTEN, Form, printable, strip
from ..web.routing import MAX_ID

#: WTForms fills in %(max)s.
_LENGTH = Length(max=NIGHT_NAME_MAX, message=_l("At most %(max)s characters."))


class NightForm(Form):
    name = StringField(
        _l("Name"),
        filters=[strip],
        validators=[InputRequired(_l("Give the night a name.")), _LENGTH, printable],
        render_kw=WRITTEN,
    )
    place = StringField(
        _l("Place"),
        filters=[strip],
        validators=[Optional(), _LENGTH, printable],
        render_kw=WRITTEN,
    )
    date = DateField(
        _l("Date"),
        validators=[InputRequired(_l("Give the night's date."))],
        render_kw={"min": "1900-01-01", "max": "9999-12-31"},
    )

    def values(self) -> tuple[str, str | None, Any]:
        return self.name.data, self.place.data or None, self.date.data


class AddGameForm(Form):
    game = IntegerField(
        _l("Game number"),
        validators=[
            InputRequired(_l("Type the game's number (it is on the game's page).")),
            NumberRange(min=1, max=MAX_ID, message=_l("A game number is a whole number from 1.")),
        ],
    )
