"""The fields a phone taps: a row of tap buttons, and the Game counter's boxes.

Each draws itself as a field's widget does (``TapField.buttons``, ``CountBox.__html__``):
the markup WTForms' own options would give, without a field object per button or box.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask_babel.speaklater import LazyString
from markupsafe import Markup, escape
from wtforms import (
    Field,
    RadioField,
    SelectField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import ValidationError

from ..i18n import N_, gettext, isolated


def choices(pairs: Any) -> list[SelectChoice]:
    """Declare (value, label) pairs as WTForms choices (a lazy label stays lazy)."""
    return [
        SelectChoice(str(value), label if isinstance(label, LazyString) else str(label))
        for value, label in pairs
    ]


class TapField(RadioField):
    """A row of tap buttons; a value that is not one of them gets a message naming the field."""

    #: What a value that is none of the buttons is told (N_: said in the page's language).
    not_a_choice = N_("%(value)s is not one of the choices for %(field)s.")

    def __init__(
        self,
        *args: Any,
        said_alone: bool = False,
        unsaid: bool = False,
        short: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        #: The row's name alone, when its label says more after it ("Low" of "Low (holder)",
        #: "Three" of "Three (3 points)"): the page sets the rest under the name, smaller.
        self.short = short
        #: Whether a tap says its button's words alone in a hand's summary ("Bogdan"), not
        #: after the row's ("Bid: 2").
        self.said_alone = said_alone
        #: Whether its taps are left out of a hand's summary (a shortcut that only fills
        #: other rows in, as "the rest to" does: the rows it filled say the hand).
        self.unsaid = unsaid

    def process_formdata(self, valuelist: list[Any]) -> None:
        # Blank is "not tapped": an optional field then holds "", never " " to int() later.
        super().process_formdata([str(v).strip() for v in valuelist])

    @property
    def options_required(self) -> bool:
        """Whether each button carries ``required``: as WTForms' own options would, from the
        validators the field has now (a passed-out hand swaps them for Optional)."""
        return any(getattr(v, "field_flags", {}).get("required") for v in self.validators)

    def buttons(self) -> Markup:
        """The row's buttons, as its widget: a radio input and its label each (the input
        hidden by the stylesheet, the label the button), the HTML WTForms' options would
        give, without making a field per button. A choice's ``render_kw`` may name the
        input to a screen reader (``aria-label``) and put words under the label
        (``members``: a team's players). Each input says what its tap is in a hand's
        summary (``data-said``: "Bid: 2", the row's words and the button's): the words a
        phone shows for a hand it keeps unsent (static/js/offline.js). A label is isolated
        (``<bdi>``; in ``data-said``, ``i18n.isolated``): it may be a name the table wrote."""
        required = " required" if self.options_required else ""
        name = escape(self.name)
        row = escape(self.label.text)
        found = []
        for i, (value, label, checked, kw) in enumerate(self.iter_choices()):
            given = kw or {}
            said = f' aria-label="{escape(given["aria-label"])}"' if given.get("aria-label") else ""
            members = f' data-members="{escape(given["members"])}"' if given.get("members") else ""
            words = escape(label)
            alone = escape(isolated(str(label)))
            tap = alone if self.said_alone else f"{row}: {alone}"
            tells = "" if self.unsaid else f' data-said="{tap}"'
            button = f"{escape(self.id)}-{i}"
            found.append(
                f'<span class="tap"><input {"checked " if checked else ""}id="{button}" '
                f'name="{name}"{required} type="radio" value="{escape(value)}"{said}'
                f'{tells}><label for="{button}"{members}><bdi>{words}</bdi></label></span>'
            )
        return Markup("\n".join(found))

    def pre_validate(self, form: Any) -> None:
        allowed = {c.value if isinstance(c, SelectChoice) else c[0] for c in self.choices}
        if self.data not in (None, "") and self.data not in allowed:
            raise ValidationError(
                gettext(self.not_a_choice, value=repr(self.data), field=str(self.label.text))
            )


class DealerField(SelectField):
    """Who dealt the hand: "in turn" (the rotation's dealer, the first option, value ""), or
    a seat. Any seat is taken, the rotation's dealer too (then the hand was dealt in turn)."""

    #: What a value that is no seat is told (N_: said in the page's language).
    not_a_seat = N_("%(value)s is not one of the seats: choose who dealt this hand.")

    def __init__(self, *args: Any, seats: int = 0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seats = seats

    def process_formdata(self, valuelist: list[Any]) -> None:
        super().process_formdata([str(v).strip() for v in valuelist])

    def options(self) -> Markup:
        """The select's options, as its widget draws them; each but "in turn" says its choice
        in a hand's summary (``data-said``: "Dealt by: Dana"), as a tap button does."""
        row = escape(self.label.text)
        found = []
        for value, label, selected, _ in self.iter_choices():
            words = escape(isolated(str(label)))
            said = f' data-said="{row}: {words}"' if value else ""
            chosen = " selected" if selected else ""
            found.append(f'<option value="{escape(value)}"{chosen}{said}>{words}</option>')
        return Markup("".join(found))

    def pre_validate(self, form: Any) -> None:
        if self.data in (None, ""):
            return
        if not (self.data.isascii() and self.data.isdigit() and int(self.data) < self.seats):
            raise ValidationError(gettext(self.not_a_seat, value=repr(self.data)))


class TeamTapField(TapField):
    """A point's row in partnership play: a button per team (and "nobody")."""

    not_a_choice = N_("%(value)s is not one of this game's teams: choose a team for %(field)s.")


@dataclass
class CountBox:
    """One box of the Game counter: a player's count, or their cards of one rank."""

    #: Its input's name and id (``count_field_name``).
    name: str
    #: What a screen reader says for it, and what its messages start with.
    label: str
    #: The largest number it takes.
    most: int
    #: What a card of its rank counts toward Game (None: the box is a player's count).
    worth: int | None = None
    #: What was typed in it ("" for nothing), to show again.
    typed: str = ""
    #: Its number: None when left empty (or when what was typed is not a number).
    value: int | None = None

    @property
    def shown(self) -> str:
        """What the box shows: what was typed, else its number, else nothing."""
        return self.typed or ("" if self.value is None else str(self.value))

    def __html__(self) -> str:
        """The box on the page, as a field's widget draws it: a number input in a label
        that names it to a screen reader; a card box says its worth (``data-worth``, which
        static/js/counter.js adds up). Its name and range are the form's own; its label
        and what was typed are escaped."""
        kind, worth = (
            ("player-count", "")
            if self.worth is None
            else ("card-count", f' data-worth="{self.worth}"')
        )
        return (
            f'<label class="{kind}"><span class="sr-only">{escape(self.label)}</span>'
            f'<input type="number" inputmode="numeric" min="0" max="{self.most}" '
            f'name="{self.name}" id="{self.name}" value="{escape(self.shown)}"{worth}></label>'
        )


#: WTForms' own words for a box that is not a whole number or is out of range (as its
#: IntegerField and NumberRange say them), translated by its catalogue, not ours.
NOT_AN_INTEGER = "Not a valid integer value."
OUT_OF_RANGE = "Number must be between %(min)s and %(max)s."


class GameCounterField(Field):
    """The Game counter (RULES.md section 10) as one field: each player's count and their
    cards of each rank, a box each, read from the form's data by the boxes' names.

    One field rather than an IntegerField a box (24 of them in a four-player game):
    the form is made twice for every hand saved, and those fields were half its cost.
    A box left empty is no number; one that is not a whole number, or is out of its range,
    is refused as an IntegerField with a NumberRange would refuse it, naming the box.
    The engine's own messages about the counts are added to ``errors`` too.
    """

    def __init__(
        self, boxes: tuple[tuple[str, str, int, int | None], ...] = (), **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self.box_specs = boxes
        self.boxes: dict[str, CountBox] = {}

    def process(self, formdata: Any, data: Any = None, extra_filters: Any = None) -> None:
        self.process_errors: list[str] = []
        self.boxes = {
            name: CountBox(name, label, most, worth) for name, label, most, worth in self.box_specs
        }
        if formdata is None:
            return
        for box in self.boxes.values():
            box.typed = str(formdata.get(box.name, "")).strip()
            try:
                box.value = int(box.typed) if box.typed else None
            except ValueError:
                box.value = None

    @property
    def data(self) -> dict[str, int | None]:
        """Each box's number, by its name."""
        return {name: box.value for name, box in self.boxes.items()}

    @property
    def typed_in(self) -> bool:
        """Whether anything was typed in the counter."""
        return any(box.typed for box in self.boxes.values())

    def fill(self, name: str, value: int) -> None:
        """Show ``value`` in the box ``name`` (a recorded hand's count, to correct it)."""
        self.boxes[name].value = value

    def value_of(self, name: str) -> int | None:
        return self.boxes[name].value

    def pre_validate(self, form: Any) -> None:
        for box in self.boxes.values():
            if not box.typed:
                continue
            if box.value is None:
                self.errors.append(f"{box.label}: {self.gettext(NOT_AN_INTEGER)}")
            elif not 0 <= box.value <= box.most:
                said = self.gettext(OUT_OF_RANGE) % {"min": 0, "max": box.most}
                self.errors.append(f"{box.label}: {said}")
