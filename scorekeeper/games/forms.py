"""The forms of a game: setting one up, and recording a hand.

Forms check shapes and types only (a choice among the seats, a whole number);
the engine checks the rules, and the views put its message next to the field.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_babel.speaklater import LazyString
from wtforms import (
    BooleanField,
    Field,
    HiddenField,
    IntegerField,
    RadioField,
    SelectField,
    StringField,
    SubmitField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Length, NumberRange, Optional, ValidationError

from .. import rules
from ..forms import AMOUNT_EXAMPLE, AmountField, Form
from ..i18n import N_, current_locale, gettext, money
from ..rules.variants import AllPass, LowTo, Smudge

NOBODY = "nobody"
# The labels are lazy: the choices are made once, and each page says them in its language.
SALE_LABELS = {
    "pitched": _l("Pitched (seller plays 4)"),
    "sold": _l("Sold (seller scores the bid)"),
    "kept": _l("Kept (high bidder scores the bid)"),
}
LOW_TO_LABELS = {
    LowTo.HOLDER: _l("Low goes to the player who was dealt it"),
    LowTo.TAKER: _l("Low goes to the player who wins it in a trick"),
}
SMUDGE_LABELS = {
    Smudge.NOT_IN_HOLE: _l("A made smudge bid wins, unless the pitcher is in the hole"),
    Smudge.ALWAYS: _l("A made smudge bid always wins"),
    Smudge.OFF: _l("No smudge: the top bid is an ordinary bid"),
}
ALL_PASS_LABELS = {
    AllPass.DEALER_TAKES: _l("The dealer must take the bid at the minimum"),
    AllPass.REDEAL_SAME_DEALER: _l("Redeal by the same dealer"),
    AllPass.REDEAL_NEXT_DEALER: _l("Redeal by the next dealer"),
}
#: What a sale needs tapped besides the points (a pitched hand: nothing, the seller pitches 4).
SALE_NEEDS = {
    "sold": (("pitcher", N_("Choose who bought the bid.")), ("bid", N_("Choose the bid."))),
    "kept": (("bid", N_("Choose the bid.")), ("high_bidder", N_("Choose the high bidder."))),
}


def choices(pairs: Any) -> list[SelectChoice]:
    """Declare (value, label) pairs as WTForms choices (a lazy label stays lazy)."""
    return [
        SelectChoice(str(value), label if isinstance(label, LazyString) else str(label))
        for value, label in pairs
    ]


class TapField(RadioField):
    """A row of tap buttons; a value that is not one of them gets a message naming the field."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        # Blank is "not tapped": an optional field then holds "", never " " to int() later.
        super().process_formdata([str(v).strip() for v in valuelist])

    @property
    def options_required(self) -> bool:
        """Whether each button carries ``required``: as WTForms' own options would, from the
        validators the field has now (a passed-out hand swaps them for Optional)."""
        return any(getattr(v, "field_flags", {}).get("required") for v in self.validators)

    def pre_validate(self, form: Any) -> None:
        allowed = {c.value if isinstance(c, SelectChoice) else c[0] for c in self.choices}
        if self.data not in (None, "") and self.data not in allowed:
            raise ValidationError(
                gettext(
                    "%(value)s is not one of the choices for %(field)s.",
                    value=repr(self.data),
                    field=str(self.label.text),
                )
            )


def point_field_name(key: str) -> str:
    return f"point_{key}"


#: Where the engine's error fields show on the hand form.
def form_field_for(error_field: str | None) -> str | None:
    if error_field is None:
        return None
    if error_field.startswith("points."):
        return point_field_name(error_field.split(".", 1)[1])
    return {
        "pitcher": "pitcher",
        "bid": "bid",
        "sale": "sale",
        "high_bidder": "high_bidder",
        "note": "note",
    }.get(error_field)


class HandFormBase(Form):
    """Fields every hand form has; ``hand_form`` adds the variant's own."""

    version = HiddenField()
    token = HiddenField()
    note = StringField(
        _l("Note (optional)"),
        validators=[
            Optional(),
            Length(max=rules.NOTE_MAX, message=_l("A note has at most %(max)d characters.")),
        ],
    )
    save = SubmitField(_l("Save hand"))
    passed_out = SubmitField(_l("Everyone passed"))

    game: rules.Game

    @property
    def is_passed(self) -> bool:
        return bool(self.passed_out.data)

    def validate(self, extra_validators: Mapping[str, Any] | None = None) -> bool:
        """Check shapes; for a passed-out hand only the note matters."""
        if self.is_passed:
            self.pitcher.validators = [Optional()]
            self.bid.validators = [Optional()]
            for point in self.game.variant.points:
                self[point_field_name(point.key)].validators = [Optional()]
            if "sale" in self:
                self.sale.validators = [Optional()]
        valid = super().validate(extra_validators)
        if "sale" in self and not self.is_passed:
            # Which taps a Sell-Out hand needs depends on the sale: say so by the field,
            # rather than let the engine report a missing name as "null".
            for name, message in SALE_NEEDS.get(self.sale.data or "", ()):
                if self[name].data in (None, "") and not self[name].errors:
                    self[name].errors = [*self[name].errors, gettext(message)]
                    valid = False
        return valid

    def to_hand(self, seller: str | None) -> rules.Hand:
        """Build the engine's hand from the submitted choices (names from seat numbers)."""
        names = self.game.players
        note = (self.note.data or "").strip() or None
        if self.is_passed:
            return rules.Hand.passed_out(note)

        def seat_name(value: Any) -> str | None:
            if value in (None, "", NOBODY):
                return None
            return names[int(value)]

        sale = rules.Sale(self.sale.data) if "sale" in self and self.sale.data else None
        pitcher = seat_name(self.pitcher.data)
        bid = int(self.bid.data) if self.bid.data not in (None, "") else None
        # Kept and pitched hands are pitched by the seller: spare the table a tap.
        if pitcher is None and sale in (rules.Sale.KEPT, rules.Sale.PITCHED):
            pitcher = seller
        if bid is None and sale is rules.Sale.PITCHED:
            bid = 4
        return rules.Hand(
            pitcher=pitcher,
            bid=bid,
            points={
                p.key: seat_name(self[point_field_name(p.key)].data)
                for p in self.game.variant.points
            },
            sale=sale,
            high_bidder=seat_name(self.high_bidder.data) if "high_bidder" in self else None,
            note=note,
        )

    def fill_from(self, hand: rules.Hand) -> None:
        """Prefill the form with a recorded hand (to edit it)."""
        seat = {name: str(i) for i, name in enumerate(self.game.players)}
        self.note.data = hand.note or ""
        if hand.passed:
            return
        self.pitcher.data = seat.get(hand.pitcher or "")
        self.bid.data = str(hand.bid)
        for key, name in hand.points.items():
            self[point_field_name(key)].data = NOBODY if name is None else seat[name]
        if "sale" in self:
            self.sale.data = hand.sale.value if hand.sale else None
            self.high_bidder.data = seat.get(hand.high_bidder or "")


def hand_form(game: rules.Game, **kwargs: Any) -> HandFormBase:
    """Build the hand form for a game: a button per seat for each choice."""
    form_class = _hand_form_class(
        game.variant.key, game.players, game.house_rules.low_to, current_locale()
    )
    form = form_class(**kwargs)
    form.game = game
    if not form.token.data:
        form.token.data = secrets.token_urlsafe(16)
    return form


@lru_cache(maxsize=256)
def _hand_form_class(
    variant_key: str, players: tuple[str, ...], low_to: LowTo, locale: str
) -> type[HandFormBase]:
    """The form class of a game's table, built once: building one is most of the form's cost,
    and every page of a game needs the same. ``locale`` is in the key: the labels are in it."""
    variant = rules.VARIANTS[variant_key]
    seats = choices((i, name) for i, name in enumerate(players))
    sale_only = variant.sales

    class HandForm(HandFormBase):
        pass

    HandForm.pitcher = TapField(
        gettext("Who won the bid?")
        if not sale_only
        else gettext("Who pitched? (the buyer, or the seller)"),
        choices=seats,
        validators=[Optional() if sale_only else InputRequired(gettext("Choose who won the bid."))],
    )
    HandForm.bid = TapField(
        gettext("Bid"),
        choices=choices((b, b) for b in range(variant.min_bid, variant.max_bid + 1)),
        validators=[Optional() if sale_only else InputRequired(gettext("Choose the bid."))],
    )
    nobody = gettext("Nobody")
    for point in variant.points:
        options = list(seats)
        if point.may_be_nobody:
            options.append(SelectChoice(NOBODY, nobody))
        name = gettext(point.name)
        label = name
        if point.key == "low":
            label = (
                gettext("%(point)s (holder)", point=name)
                if low_to is LowTo.HOLDER
                else gettext("%(point)s (taker)", point=name)
            )
        setattr(
            HandForm,
            point_field_name(point.key),
            TapField(
                label,
                choices=options,
                description=gettext(point.help),
                validators=[InputRequired(gettext("Choose who took %(point)s.", point=name))],
            ),
        )
    if sale_only:
        HandForm.sale = TapField(
            gettext("The sale"),
            choices=choices(SALE_LABELS.items()),
            validators=[InputRequired(gettext("Choose pitched, sold or kept."))],
        )
        HandForm.high_bidder = TapField(
            gettext("High bidder (kept hands only)"), choices=seats, validators=[Optional()]
        )
    return HandForm


# --- Setting up a game -----------------------------------------------------------------------


class NewGameForm(Form):
    """Seats, partnerships, first dealer, house rules and stake for a new game."""

    first_dealer = TapField(_l("Deals first"), default="0", validators=[InputRequired()])
    target = IntegerField(
        _l("Target score"),
        validators=[InputRequired(_l("Give the target score.")), NumberRange(1, 999)],
    )
    low_to = SelectField(_l("Low"), choices=choices(LOW_TO_LABELS.items()))
    smudge = SelectField(_l("Smudge"), choices=choices(SMUDGE_LABELS.items()))
    all_pass = SelectField(_l("When everyone passes"), choices=choices(ALL_PASS_LABELS.items()))
    payout_in_hole = IntegerField(
        _l("Units a loser at 0 or below pays"), validators=[InputRequired(), NumberRange(0, 99)]
    )
    payout_per_setback = IntegerField(
        _l("Extra units per set-back"), validators=[InputRequired(), NumberRange(0, 99)]
    )
    stake = AmountField(
        _l("Stake per unit (money, optional)"),
        validators=[Optional(), Length(max=12)],
        message=N_("Write the stake as a number such as %(example)s."),
    )
    # The night being played when the form was shown, and whether the game joins it (the
    # tick box, on by default: the page names the night, so nothing joins it silently).
    night = HiddenField()
    join_night = BooleanField(default=True)
    create = SubmitField(_l("Start the game"))

    def night_offered(self) -> int | None:
        """The id of the night the form offered to join, if any."""
        raw = self.night.data or ""
        return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 10 else None

    def chosen_night(self) -> int | None:
        """The night the game joins: the one offered, if its box was ticked."""
        return self.night_offered() if self.join_night.data else None


def new_game_form(variant: rules.Variant, max_seats: int, **kwargs: Any) -> NewGameForm:
    """Build the setup form for a variant, house rules prefilled from its preset."""

    class Form(NewGameForm):
        pass

    for i in range(max_seats):
        setattr(
            Form,
            f"name_{i}",
            StringField(
                gettext("Seat %(number)s", number=i + 1),
                validators=[Optional(), Length(max=rules.NAME_MAX)],
            ),
        )
        setattr(
            Form,
            f"team_{i}",
            StringField(
                gettext("Team of seat %(number)s", number=i + 1),
                validators=[Optional(), Length(max=rules.NAME_MAX)],
            ),
        )
    if variant.smudge_bid is None:
        # No smudge bid, no smudge switch (RULES.md 5): the page shows no such field to post.
        Form.smudge = None
    preset = variant.preset
    form = Form(**kwargs)
    form.stake.description = gettext(
        "For example %(example)s. Leave empty to settle in units only.",
        example=money(AMOUNT_EXAMPLE),
    )
    form.first_dealer.choices = choices(
        (i, gettext("Seat %(number)s", number=i + 1)) for i in range(max_seats)
    )
    if not form.is_submitted():
        form.target.data = preset.target
        form.low_to.data = preset.low_to.value
        if "smudge" in form:
            form.smudge.data = preset.smudge.value
        form.all_pass.data = preset.all_pass.value
        form.payout_in_hole.data = preset.payout_in_hole
        form.payout_per_setback.data = preset.payout_per_setback
        if variant.teams_required:
            # Team names are the table's data: prefilled in the table's language.
            us, them = gettext("Us"), gettext("Them")
            for i in range(max_seats):
                form[f"team_{i}"].data = us if i % 2 == 0 else them
    return form


def seat_fields(form: NewGameForm, max_seats: int) -> list[tuple[int, Field, Field]]:
    return [(i, form[f"name_{i}"], form[f"team_{i}"]) for i in range(max_seats)]


def house_rule_changes(form: NewGameForm, variant: rules.Variant) -> dict[str, Any]:
    """Return only the switches that differ from the variant's preset."""
    preset = variant.preset.as_dict()
    chosen: dict[str, Any] = {
        "target": form.target.data,
        "low_to": form.low_to.data,
        "all_pass": form.all_pass.data,
        "payout_in_hole": form.payout_in_hole.data,
        "payout_per_setback": form.payout_per_setback.data,
    }
    if variant.smudge_bid is not None:
        chosen["smudge"] = form.smudge.data
    return {k: v for k, v in chosen.items() if v != preset[k]}
