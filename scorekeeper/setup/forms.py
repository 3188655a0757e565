"""The setup form: seats, partnerships, first dealer, house rules, stake and night of a new game.

It checks shapes and types only (a whole number, a name's length); the engine checks the
rules (``rules.Game.from_seats``), and the view says its refusal in the form's own words
(``refusals``) next to the field.

What the form's shape of the game means, and the form drawn again as the server read it,
is ``shape``'s; what the engine refuses is said apart, in ``refusals``.
"""

from __future__ import annotations

from collections.abc import Sequence
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
from ..rules.variants import Scoring, Smudge
from ..web.forms import AMOUNT_EXAMPLE, WRITTEN, AmountField, Form, NameLength
from ..web.routing import parse_id
from ..web.widgets import TapField, choices

#: The fields of the shape of the game (RULES.md section 10), which Cinch and Sell-Out lack.
SHAPE_FIELDS = (
    "min_bid",
    "max_bid",
    "smudge_bid",
    "win_rule",
    "pitcher_scores",
    "gap",
    "smudge_failed",
    "shape_shown",
    "drawn_total",
    "drawn_max",
)


def switch_choices(switch: str) -> list[SelectChoice]:
    """The setup form's choices of a house-rule switch, in the engine's words."""
    return choices((value, _l(words)) for value, words in rules.SWITCH_CHOICES[switch].items())


def choice_words(switch: str, value: str) -> str:
    """How the form offers one value of a switch, in the page's language."""
    return gettext(rules.SWITCH_CHOICES[switch][value])


class NewGameForm(Form):
    """Seats, partnerships, first dealer, house rules, stake and night for a new game."""

    first_dealer = TapField(_l("Deals first"), default="0", validators=[InputRequired()])
    # Left empty only in a game its count of hands ends (RULES.md 11.4): the engine says so.
    target = IntegerField(_l("Target score"), validators=[Optional(), NumberRange(1, 999)])
    hands = IntegerField(
        _l("End after this many hands (optional)"),
        validators=[Optional(), NumberRange(1, rules.variants.HANDS_SWITCH_MAX)],
        description=_l(
            "Passed-out hands do not count. Then the highest score wins (a tie plays on), "
            "unless a side reaches the target first; leave the target empty to play for "
            "the most points."
        ),
    )
    low_to = SelectField(_l("Low"), choices=switch_choices("low_to"))
    # A choice left out is the game's own; any other value is refused next to it, in words.
    smudge = SelectField(
        _l("A made smudge or moon bid"), choices=switch_choices("smudge"), validate_choice=False
    )
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
    #: The points' total and the highest bid as the page drew them: a highest bid still at
    #: the total, and a smudge bid still at the highest bid, follow the points ticked.
    drawn_total = HiddenField()
    drawn_max = HiddenField()
    min_bid = IntegerField(_l("Lowest bid"), validators=[Optional(), NumberRange(1, 99)])
    max_bid = IntegerField(_l("Highest bid"), validators=[Optional(), NumberRange(1, 99)])
    smudge_bid = IntegerField(
        _l("Smudge or moon bid"),
        validators=[Optional(), NumberRange(1, 99)],
        description=_l("A made bid of this wins at once. Leave it empty for none."),
    )
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
    # The night the game joins: none unless chosen here (the page opened from a night, or
    # from a game played at one, chooses it first). Any night that still exists is taken.
    night = SelectField(
        _l("Game night"),
        validate_choice=False,
        description=_l("A game joins a night only when it is chosen here."),
    )
    # Each hand waits for a player of another side to confirm it (off for an ordinary game;
    # a tournament's games ask for it).
    confirm_hands = BooleanField(
        _l("The other side confirms each hand"),
        description=_l(
            "Each hand waits until a player of another side confirms it on their phone, or "
            "by tapping their name on this one."
        ),
    )
    create = SubmitField(_l("Start the game"))

    def chosen_night(self) -> int | None:
        """The night the game joins, if one was chosen."""
        return parse_id(self.night.data or "")


class RenameRuleSetForm(Form):
    """A saved set's new name."""

    name = StringField(
        _l("New name"),
        validators=[
            InputRequired(_l("Give the house rules a name.")),
            NameLength(rules.NAME_MAX, _l("A name has at most %(max)s characters.")),
        ],
        render_kw=WRITTEN,
    )


def in_play_field_name(key: str) -> str:
    return f"in_play_{key}"


#: The name of each point row's hidden input: the rows' order is the count-out order.
ORDER_FIELD = "point_order"


def offered_points(variant: rules.Variant) -> tuple[rules.Point, ...]:
    """The points a table may put in play, as a form first lists them: the preset's in its
    count-out order, then the others of RULES.md section 2 (Cinch's fives belong to Cinch)."""
    if variant.shape_fixed:
        return variant.points
    others = tuple(p for p in rules.variants.TABLE_POINTS if p.key not in variant.point_keys)
    return (*variant.points, *others)


def counts_set_backs(variant: rules.Variant) -> bool:
    """Whether a failed bid is ever a set-back (not in Cinch: RULES.md section 6), so that a
    payout per set-back can mean something."""
    return variant.scoring is not Scoring.CINCH


def smudge_possible(variant: rules.Variant) -> bool:
    """Whether the game may have a smudge bid: the preset's, or one the table gives."""
    return variant.smudge_bid is not None or not variant.shape_fixed


def new_game_form(
    variant: rules.Variant,
    max_seats: int,
    *,
    prefill: rules.HouseRules | None = None,
    **kwargs: Any,
) -> NewGameForm:
    """Build the setup form for a variant, house rules prefilled from its preset (or from
    ``prefill``, a saved rule set's or a rematch's)."""

    class Form(NewGameForm):
        pass

    if variant.shape_fixed:
        for name in SHAPE_FIELDS:
            setattr(Form, name, None)
    else:
        for point in offered_points(variant):
            setattr(Form, in_play_field_name(point.key), BooleanField(gettext(point.name)))
    if not smudge_possible(variant):
        # No smudge bid and none to give, no smudge switch (RULES.md 5): none to post.
        Form.smudge = None
    if not counts_set_backs(variant):
        # A failed Cinch contract is never a set-back: a payout per set-back adds nothing.
        Form.payout_per_setback = None

    for i in range(max_seats):
        setattr(Form, f"name_{i}", _written_name(gettext("Seat %(number)s", number=i + 1)))
        setattr(Form, f"team_{i}", _written_name(gettext("Team of seat %(number)s", number=i + 1)))
    preset = prefill or variant.preset
    form = Form(**kwargs)
    form.stake.description = gettext(
        "For example %(example)s. Leave empty to settle in units only.",
        example=money(AMOUNT_EXAMPLE),
    )
    form.first_dealer.choices = choices(
        (i, gettext("Seat %(number)s", number=i + 1)) for i in range(max_seats)
    )
    form.night.choices = [SelectChoice("", gettext("No game night"))]
    # Only what the game can play: a dealer set back for passing is not Cinch's or Sell-Out's.
    form.all_pass.choices = [
        c for c in switch_choices("all_pass") if _plays(variant, "all_pass", c.value)
    ]
    if not form.is_submitted():
        form.target.data = preset.target
        form.hands.data = preset.hands
        form.low_to.data = preset.low_to.value
        if "smudge" in form:
            form.smudge.data = _smudge_shown(variant, preset).value
        form.all_pass.data = preset.all_pass.value
        form.payout_in_hole.data = preset.payout_in_hole
        if "payout_per_setback" in form:
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
            form.drawn_total.data = str(points_total(preset.points))
            form.drawn_max.data = str(preset.max_bid)
        if variant.teams_required:
            # Team names are the table's data: prefilled in the table's language.
            us, them = gettext("Us"), gettext("Them")
            for i in range(max_seats):
                form[f"team_{i}"].data = us if i % 2 == 0 else them
    return form


def _written_name(label: str) -> StringField:
    """An optional, length-checked name box for one seat (its player's or its team's)."""
    return StringField(
        label,
        validators=[
            Optional(),
            NameLength(rules.NAME_MAX, _l("A name has at most %(max)s characters.")),
        ],
        render_kw=WRITTEN,
    )


def _plays(variant: rules.Variant, switch: str, value: str) -> bool:
    """Whether the engine plays ``variant`` with this one switch so (a choice to offer)."""
    try:
        variant.house_rules({switch: value})
    except rules.RuleError:
        return False
    return True


def _smudge_shown(variant: rules.Variant, house: rules.HouseRules) -> Smudge:
    """The smudge choice a form shows: the game's own where it has a smudge bid, else what
    a smudge bid given would win by (``not-in-hole``, RULES.md section 10)."""
    if house.smudge_bid is not None:
        return house.smudge
    return smudge_default(variant)


def smudge_default(variant: rules.Variant) -> Smudge:
    """The smudge mode a smudge bid plays with when the table names none: the preset's where
    it has a smudge bid, else ``not-in-hole`` (RULES.md section 10)."""
    return variant.preset.smudge if variant.smudge_bid is not None else Smudge.NOT_IN_HOLE


def seat_fields(form: NewGameForm, max_seats: int) -> list[tuple[int, Field, Field]]:
    return [(i, form[f"name_{i}"], form[f"team_{i}"]) for i in range(max_seats)]


def points_total(keys: Sequence[str]) -> int:
    """What the points ``keys`` are worth together (the highest bid they allow)."""
    return sum(rules.POINTS[key].value for key in keys)


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
