"""The event forms: set up an event or a season, register players, and the director's
buttons (each carries the event's version, so a tap made on an older screen is refused)."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import (
    BooleanField,
    Field,
    HiddenField,
    IntegerField,
    SelectField,
    SelectMultipleField,
    StringField,
    TextAreaField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Length, NumberRange, Optional, ValidationError
from wtforms.widgets import CheckboxInput, ListWidget

from ..operations.events import MAX_ROUND_MINUTES, MAX_ROUNDS
from ..operations.knockout import BEST_OF, KNOCKOUT_SIZES
from ..operations.nights import NIGHT_NAME_MAX
from ..rules import NAME_MAX
from ..web.forms import WRITTEN, AmountField, Form, dated_form, printable, strip

_LENGTH = Length(max=NIGHT_NAME_MAX, message=_l("At most %(max)s characters."))

#: The formats as the form offers them.
FORMAT_NAMES = {
    "progressive": _l("Progressive (winners move up, partners change)"),
    "round-robin": _l("Round robin with rotating partners"),
    "teams": _l("Fixed teams"),
    "individual": _l("Individual tables (no partners)"),
}
FORMAT_CHOICES = [SelectChoice(key, label) for key, label in FORMAT_NAMES.items()]


def numbers_in(text: str | None) -> list[int] | None:
    """The whole numbers in ``text`` ("50 30 20", "50, 30, 20"); None if there are none;
    ValueError if something else is there."""
    words = (text or "").replace(",", " ").replace(";", " ").replace("%", " ").split()
    if not words:
        return None
    return [int(word) for word in words]


class NumberList(StringField):
    """Whole numbers typed with spaces or commas between them ("50 30 20")."""

    def __init__(self, *args: Any, message: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.message = message

    @property
    def numbers(self) -> list[int] | None:
        try:
            return numbers_in(self.data)
        except ValueError:
            return None

    def pre_validate(self, form: Any) -> None:
        try:
            found = numbers_in(self.data)
        except ValueError:
            raise ValidationError(str(self.message)) from None
        if found is not None and (len(found) > 50 or any(n < 0 or n > 10_000 for n in found)):
            raise ValidationError(str(self.message))


def _knockout_field() -> SelectField:
    return SelectField(
        _l("Then a knockout (fixed teams)"),
        coerce=int,
        default=0,
        choices=[
            SelectChoice(0, _l("No knockout")),
            *(SelectChoice(n, _l("The top %(num)s teams", num=n)) for n in KNOCKOUT_SIZES),
        ],
        description=_l("After the round robin, the best teams by the standings play it out."),
    )


def _best_of_field() -> SelectField:
    return SelectField(
        _l("Each knockout match"),
        coerce=int,
        default=1,
        choices=[
            SelectChoice(1, _l("One game")),
            *(SelectChoice(n, _l("The best of %(num)s games", num=n)) for n in BEST_OF[1:]),
        ],
    )


# A base made by a function is one mypy cannot follow; its fields are dated_form's.
class EventForm(
    dated_form(_l("Give the event a name."), _l("Give the event's date."), NIGHT_NAME_MAX)  # type: ignore[misc]
):
    format = SelectField(_l("How the rounds are seated"), choices=FORMAT_CHOICES)
    game = SelectField(_l("The game every table plays"), validate_choice=True)
    hands = IntegerField(
        _l("End each game after this many played hands"),
        validators=[
            Optional(),
            NumberRange(
                min=1, max=200, message=_l("A number of hands is a whole number from 1 to 200.")
            ),
        ],
        description=_l("Optional. Four hands at a table of four: every player deals once."),
    )
    no_target = BooleanField(_l("Only the count of hands ends a game (no target)"))
    rounds = IntegerField(
        _l("Rounds"),
        default=4,
        validators=[
            InputRequired(_l("Give the number of rounds.")),
            NumberRange(
                min=1, max=MAX_ROUNDS, message=_l("Rounds: a whole number from 1 to %(max)s.")
            ),
        ],
    )
    round_minutes = IntegerField(
        _l("Minutes a round"),
        validators=[
            Optional(),
            NumberRange(
                min=1,
                max=MAX_ROUND_MINUTES,
                message=_l("Minutes: a whole number from 1 to %(max)s."),
            ),
        ],
        description=_l("Optional: the round clock. When it runs out, call time."),
    )
    entry_fee = AmountField(
        _l("Entry fee"),
        filters=[strip],
        message=_l("Write the entry fee as a number, such as %(example)s."),
        description=_l("Optional. The pot is paid out by place."),
    )
    prize_split = NumberList(
        _l("Prize split by place (percent)"),
        filters=[strip],
        default="50 30 20",
        message=_l("Write the prize split as percentages by place, such as 50 30 20."),
    )
    standings_hidden = BooleanField(_l("Hide the standings on the room's board until the end"))
    season = SelectField(_l("Season"), coerce=int, validate_choice=True)
    knockout = _knockout_field()
    best_of = _best_of_field()


class SeasonForm(Form):
    name = StringField(
        _l("Name"),
        filters=[strip],
        validators=[InputRequired(_l("Give the season a name.")), _LENGTH, printable],
        render_kw=WRITTEN,
    )
    scoring = SelectField(
        _l("A night counts"),
        choices=[
            SelectChoice("placing", _l("Points by placing")),
            SelectChoice("wins", _l("A point a game won")),
        ],
    )
    placing_points = NumberList(
        _l("Points for 1st, 2nd, 3rd..."),
        filters=[strip],
        default="10 8 6 5 4 3 2 1",
        message=_l("Write the points by placing as whole numbers, such as 10 8 6 4."),
    )


class MultiCheckbox(SelectMultipleField):
    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()


class RegisterForm(Form):
    version = HiddenField()
    roster = MultiCheckbox(_l("From the roster"), coerce=str, validate_choice=True)
    door = TextAreaField(
        _l("Added at the door (one name a line)"),
        render_kw={"rows": 3, **WRITTEN},
    )
    team = StringField(
        _l("Team (fixed teams only)"),
        filters=[strip],
        validators=[Optional(), Length(max=NAME_MAX, message=_l("At most %(max)s characters."))],
        render_kw=WRITTEN,
    )

    def names(self) -> list[str]:
        typed = [line.strip() for line in (self.door.data or "").splitlines() if line.strip()]
        return [*(self.roster.data or []), *typed]

    def validate_door(self, field: Field) -> None:
        for line in (field.data or "").splitlines():
            name = line.strip()
            if len(name) > NAME_MAX:
                raise ValidationError(
                    _l("A name is at most %(max)s characters: %(name)s", max=NAME_MAX, name=name)
                )


class VersionForm(Form):
    """A director's button: the event's version as the screen showed it."""

    version = HiddenField()

    def seen(self) -> int | None:
        try:
            return int(self.version.data)
        except (TypeError, ValueError):
            return None


class KnockoutForm(VersionForm):
    """The knockout changed on the director's screen before it starts."""

    knockout = _knockout_field()
    best_of = _best_of_field()


class HiddenStandingsForm(Form):
    hidden = HiddenField()


class DirectorCodeForm(Form):
    """Another device becomes the event's director by the code on the director's screen."""

    code = StringField(
        _l("The director's code"),
        filters=[strip],
        validators=[
            InputRequired(message=_l("Type the code the director's screen shows.")),
            Length(max=20, message=_l("At most %(max)s characters.")),
        ],
        render_kw={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"},
    )


__all__ = [
    "DirectorCodeForm",
    "EventForm",
    "HiddenStandingsForm",
    "KnockoutForm",
    "RegisterForm",
    "SeasonForm",
    "VersionForm",
]
