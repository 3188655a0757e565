"""The setup form: seats, partnerships, first dealer, house rules and stake for a new game.

It checks shapes and types only (a whole number, a name's length); the engine checks the
rules (``rules.Game.from_seats``), and the view puts its message next to the field.
"""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import (
    BooleanField,
    Field,
    HiddenField,
    IntegerField,
    SelectField,
    StringField,
    SubmitField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Length, NumberRange, Optional

from .. import i18n, rules
from ..i18n import N_, gettext, money
from ..operations.rows import Loaded
from ..web.forms import AMOUNT_EXAMPLE, WRITTEN, AmountField, Form, NameLength
from ..web.routing import parse_id
from ..web.widgets import TapField, choices


def switch_choices(switch: str) -> list[SelectChoice]:
    """The setup form's choices of a house-rule switch, in the engine's words."""
    return choices((value, _l(words)) for value, words in rules.SWITCH_CHOICES[switch].items())


class NewGameForm(Form):
    """Seats, partnerships, first dealer, house rules and stake for a new game."""

    first_dealer = TapField(_l("Deals first"), default="0", validators=[InputRequired()])
    target = IntegerField(
        _l("Target score"),
        validators=[InputRequired(_l("Give the target score.")), NumberRange(1, 999)],
    )
    low_to = SelectField(_l("Low"), choices=switch_choices("low_to"))
    smudge = SelectField(_l("Smudge"), choices=switch_choices("smudge"))
    all_pass = SelectField(_l("When everyone passes"), choices=switch_choices("all_pass"))
    payout_in_hole = IntegerField(
        _l("Units a loser at 0 or below pays"), validators=[InputRequired(), NumberRange(0, 99)]
    )
    payout_per_setback = IntegerField(
        _l("Extra units per set-back"), validators=[InputRequired(), NumberRange(0, 99)]
    )
    # The shape of the game (RULES.md section 10); not in Cinch or Sell-Out. A form sent
    # without it (no ``shape_shown``) plays the preset's shape; a number left empty too.
    shape_shown = HiddenField()
    min_bid = IntegerField(_l("Lowest bid"), validators=[Optional(), NumberRange(1, 99)])
    max_bid = IntegerField(_l("Highest bid"), validators=[Optional(), NumberRange(1, 99)])
    smudge_bid = IntegerField(
        _l("Smudge or moon bid"),
        validators=[Optional(), NumberRange(1, 99)],
        description=_l("A made bid of this wins at once. Leave it empty for none."),
    )
    # A choice left out is the preset's; any other value the engine refuses next to it.
    win_rule = SelectField(
        _l("Who goes out"), choices=switch_choices("win_rule"), validate_choice=False
    )
    pitcher_scores = SelectField(
        _l("A made bid scores"),
        choices=switch_choices("pitcher_scores"),
        validate_choice=False,
    )
    gap = IntegerField(
        _l("Gap"),
        validators=[Optional(), NumberRange(0, 999)],
        description=_l(
            "A side at the target that leads every other by this much wins; 0: no gap rule."
        ),
    )
    smudge_failed = SelectField(
        _l("A failed smudge or moon bid"),
        choices=switch_choices("smudge_failed"),
        validate_choice=False,
    )
    rules_name = StringField(
        _l("Save these house rules as (optional)"),
        validators=[Optional(), Length(max=rules.NAME_MAX)],
        description=_l("For example “Thursday rules”: pick them for the next game."),
        render_kw=WRITTEN,
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
        return parse_id(self.night.data)

    def chosen_night(self) -> int | None:
        """The night the game joins: the one offered, if its box was ticked."""
        return self.night_offered() if self.join_night.data else None


def in_play_field_name(key: str) -> str:
    return f"in_play_{key}"


def offered_points(variant: rules.Variant) -> tuple[rules.Point, ...]:
    """The points a table may put in play, in count-out order: the preset's in its order,
    then the others of RULES.md section 2 (Cinch's fives belong to Cinch)."""
    if variant.shape_fixed:
        return variant.points
    others = tuple(p for p in rules.variants.TABLE_POINTS if p.key not in variant.point_keys)
    return (*variant.points, *others)


def new_game_form(
    variant: rules.Variant,
    max_seats: int,
    *,
    prefill: rules.HouseRules | None = None,
    **kwargs: Any,
) -> NewGameForm:
    """Build the setup form for a variant, house rules prefilled from its preset (or from
    ``prefill``, a saved rule set's)."""

    class Form(NewGameForm):
        pass

    if variant.shape_fixed:
        for name in (
            "min_bid",
            "max_bid",
            "smudge_bid",
            "win_rule",
            "pitcher_scores",
            "gap",
            "smudge_failed",
            "shape_shown",
        ):
            setattr(Form, name, None)
    else:
        for point in offered_points(variant):
            setattr(Form, in_play_field_name(point.key), BooleanField(gettext(point.name)))

    for i in range(max_seats):
        setattr(
            Form,
            f"name_{i}",
            StringField(
                gettext("Seat %(number)s", number=i + 1),
                validators=[
                    Optional(),
                    NameLength(rules.NAME_MAX, _l("A name has at most %(max)s characters.")),
                ],
                render_kw=WRITTEN,
            ),
        )
        setattr(
            Form,
            f"team_{i}",
            StringField(
                gettext("Team of seat %(number)s", number=i + 1),
                validators=[
                    Optional(),
                    NameLength(rules.NAME_MAX, _l("A name has at most %(max)s characters.")),
                ],
                render_kw=WRITTEN,
            ),
        )
    if variant.smudge_bid is None:
        # No smudge bid, no smudge switch (RULES.md 5): the page shows no such field to post.
        Form.smudge = None
    preset = prefill or variant.preset
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
        if not variant.shape_fixed:
            form.shape_shown.data = "1"
            for point in offered_points(variant):
                form[in_play_field_name(point.key)].data = point.key in preset.points
            form.min_bid.data = preset.min_bid
            form.max_bid.data = preset.max_bid
            form.smudge_bid.data = preset.smudge_bid
            form.win_rule.data = preset.win_rule.value
            form.pitcher_scores.data = preset.pitcher_scores.value
            form.gap.data = preset.gap
            form.smudge_failed.data = preset.smudge_failed.value
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
    if not variant.shape_fixed and form.shape_shown.data:

        def number(field: Field, name: str) -> Any:
            """The field's value, or the preset's where it was left out or empty."""
            return preset[name] if field.data in (None, "") else field.data

        chosen.update(
            points=points_chosen(form, variant),
            min_bid=number(form.min_bid, "min_bid"),
            max_bid=number(form.max_bid, "max_bid"),
            smudge_bid=form.smudge_bid.data,
            win_rule=number(form.win_rule, "win_rule"),
            pitcher_scores=number(form.pitcher_scores, "pitcher_scores"),
            gap=number(form.gap, "gap"),
            smudge_failed=number(form.smudge_failed, "smudge_failed"),
        )
    # A highest bid or smudge bid left as the preset has it follows the points (section 10).
    return {k: v for k, v in chosen.items() if v != preset[k]}


def points_chosen(form: NewGameForm, variant: rules.Variant) -> list[str]:
    """The points ticked on the form, in the count-out order the form lists them."""
    return [p.key for p in offered_points(variant) if form[in_play_field_name(p.key)].data]


def point_rows(form: NewGameForm, variant: rules.Variant) -> list[tuple[rules.Point, Field]]:
    """Each offered point with its checkbox, as the form lists them."""
    return [(p, form[in_play_field_name(p.key)]) for p in offered_points(variant)]


def fill_from_game(form: NewGameForm, loaded: Loaded, max_seats: int) -> None:
    """Fill a new-game form's seats, teams, first dealer, stake and night from the game before
    (its house rules are the form's ``prefill``); the person may change any of them."""
    game = rules.scoring.next_game(loaded.result)
    team_of = {player: team for team, members in game.teams or () for player in members}
    for i in range(max_seats):
        name = game.players[i] if i < len(game.players) else ""
        form[f"name_{i}"].data = name
        form[f"team_{i}"].data = team_of.get(name, "")
    form.first_dealer.data = str(game.players.index(game.dealer_first))
    if game.stake is not None:
        # Written the page's way (0,25 in Romanian), which the stake field reads back.
        form.stake.data = game.stake.replace(".", i18n.decimal_sign())
    form.night.data = str(loaded.row.night_id or "")
