"""The game night forms: start or edit a night, add a game to it."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import IntegerField
from wtforms.validators import InputRequired, NumberRange

from ..operations.nights import NIGHT_NAME_MAX
from ..web.forms import Form, dated_form
from ..web.routing import MAX_ID


# A base made by a function is one mypy cannot follow; its fields are dated_form's.
class NightForm(
    dated_form(_l("Give the night a name."), _l("Give the night's date."), NIGHT_NAME_MAX)  # type: ignore[misc]
):
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
