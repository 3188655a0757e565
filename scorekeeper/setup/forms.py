"""The setup form: seats, partnerships, first dealer, house rules, stake and night of a new game.

It checks shapes and types only (a whole number, a name's length); the engine checks the
rules (``rules.Game.from_seats``), and the view says its refusal in the form's own words
(``refusals``) next to the field.

The shape of the game is drawn as the server would play the form as sent: a highest bid
(or smudge bid) left as the page drew it follows the points ticked, and the page drawn
again says the bids that follow (``shown_shape``), with or without the page's script.

Long because: the form, its house-rule fields and the shape drawn from them are read and
drawn as one form; what the engine refuses is said apart, in ``refusals``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
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
            form.drawn_total.data = str(_total(preset.points))
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
    return _smudge_default(variant)


def _smudge_default(variant: rules.Variant) -> Smudge:
    """The smudge mode a smudge bid plays with when the table names none: the preset's where
    it has a smudge bid, else ``not-in-hole`` (RULES.md section 10)."""
    return variant.preset.smudge if variant.smudge_bid is not None else Smudge.NOT_IN_HOLE


def seat_fields(form: NewGameForm, max_seats: int) -> list[tuple[int, Field, Field]]:
    return [(i, form[f"name_{i}"], form[f"team_{i}"]) for i in range(max_seats)]


def _total(keys: Sequence[str]) -> int:
    return sum(rules.POINTS[key].value for key in keys)


def _drawn(field: Field, fallback: int) -> int:
    """A number the page drew into a hidden field; ``fallback`` when the form sent none."""
    value = parse_id(field.data or "")
    return fallback if value is None else value


def point_order(
    variant: rules.Variant, first: Sequence[str], posted: Sequence[str] | None
) -> list[str]:
    """Every offered point's key in the order the form lists them: as posted (its rows'
    ``point_order``; unknown keys and repeats dropped), or for a form not sent ``first`` (the
    preset's or the prefill's points, in their count-out order); then the others, in the
    order ``offered_points`` lists them."""
    offered = [p.key for p in offered_points(variant)]
    seen: list[str] = []
    for key in first if posted is None else posted:
        if key in offered and key not in seen:
            seen.append(key)
    return [*seen, *(k for k in offered if k not in seen)]


def moved(order: Sequence[str], move: str) -> list[str]:
    """``order`` with one point moved a place up or down (``move`` is ``up:<key>`` or
    ``down:<key>``, a row's button); anything else leaves it as it is."""
    found = list(order)
    direction, _, key = move.partition(":")
    if key not in found or direction not in ("up", "down"):
        return found
    at = found.index(key)
    to = at - 1 if direction == "up" else at + 1
    if 0 <= to < len(found):
        found[at], found[to] = found[to], found[at]
    return found


def points_chosen(form: NewGameForm, order: Sequence[str]) -> list[str]:
    """The points ticked on the form, in the count-out order its rows give."""
    return [key for key in order if form[in_play_field_name(key)].data]


@dataclass(frozen=True)
class Shape:
    """What the house-rules part of a form sent means: the switches a record gives for it,
    and the bids as the server plays them (to draw the page again as it reads it)."""

    #: The switches that differ from the preset, as the game record gives them.
    changes: dict[str, Any]
    #: The points played, in count-out order.
    points: tuple[str, ...]
    #: The highest bid played: the one typed, or the points' total it follows.
    max_bid: int
    #: The smudge bid typed or followed (None: left empty).
    smudge_bid: int | None
    #: The smudge bid that wins or fails as a smudge: None where there is no smudge, the
    #: bid left empty or "No smudge" chosen.
    smudge_in_force: int | None


def house_rule_changes(
    form: NewGameForm, variant: rules.Variant, order: Sequence[str] = ()
) -> dict[str, Any]:
    """Return only the switches that differ from the variant's preset."""
    return read_shape(form, variant, order).changes


def read_shape(form: NewGameForm, variant: rules.Variant, order: Sequence[str]) -> Shape:
    """Read the house rules a form sent, as the switches a record gives (only those that
    differ from the preset), and the bids that follow the points.

    A highest bid left at the points' total as the page drew it (or empty) follows the
    points ticked; a smudge bid left at the highest bid as drawn follows the highest bid
    (RULES.md section 10's defaults). No smudge, chosen either way (an empty smudge bid, or
    "No smudge"), is no smudge; the smudge choice counts only beside a smudge bid."""
    preset = variant.preset
    as_given = preset.as_dict()
    chosen: dict[str, Any] = {
        "target": form.target.data,
        "hands": form.hands.data,
        "low_to": form.low_to.data,
        "all_pass": form.all_pass.data,
        "payout_in_hole": form.payout_in_hole.data,
    }
    if "payout_per_setback" in form:
        chosen["payout_per_setback"] = form.payout_per_setback.data
    changes = {k: v for k, v in chosen.items() if v != as_given[k]}
    smudge_mode = form.smudge.data if "smudge" in form else None
    if variant.shape_fixed or not form.shape_shown.data:
        if variant.smudge_bid is not None and smudge_mode and smudge_mode != preset.smudge:
            changes["smudge"] = smudge_mode
        in_force = preset.smudge_bid if smudge_mode != Smudge.OFF else None
        return Shape(changes, preset.points, preset.max_bid, preset.smudge_bid, in_force)
    points = points_chosen(form, order or offered_keys(variant))
    if points != list(preset.points):
        changes["points"] = points
    total = _total(points)
    typed_max = form.max_bid.data
    drawn_total = _drawn(form.drawn_total, _total(preset.points))
    drawn_max = _drawn(form.drawn_max, preset.max_bid)
    max_follows = typed_max in (None, "") or typed_max in (drawn_total, total)
    max_bid = total if max_follows else int(typed_max)
    if not max_follows:
        changes["max_bid"] = typed_max
    if form.min_bid.data not in (None, "") and form.min_bid.data != preset.min_bid:
        changes["min_bid"] = form.min_bid.data
    typed_smudge = form.smudge_bid.data
    smudge_bid: int | None
    if typed_smudge in (None, ""):
        smudge_bid = None
        if preset.smudge_bid is not None:
            changes["smudge_bid"] = None
    elif preset.smudge_bid is not None and typed_smudge in (drawn_max, max_bid):
        smudge_bid = max_bid  # still at the highest bid: it follows it
    else:
        smudge_bid = int(typed_smudge)
        changes["smudge_bid"] = smudge_bid
    if smudge_bid is not None and smudge_mode and smudge_mode != _smudge_default(variant):
        changes["smudge"] = smudge_mode
    for name in ("win_rule", "pitcher_scores", "smudge_failed"):
        value = form[name].data
        if value not in (None, "") and value != as_given[name]:
            changes[name] = value
    if form.gap.data not in (None, "") and form.gap.data != preset.gap:
        changes["gap"] = form.gap.data
    in_force = None if smudge_mode == Smudge.OFF else smudge_bid
    return Shape(changes, tuple(points), max_bid, smudge_bid, in_force)


def offered_keys(variant: rules.Variant) -> list[str]:
    return [p.key for p in offered_points(variant)]


def show_shape(form: NewGameForm, variant: rules.Variant, shape: Shape) -> None:
    """Draw the form again as the server read it: a highest bid and a smudge bid that
    followed the points show their new values, and the total and highest bid the page
    draws are the new ones (so the next post reads the form the same way)."""
    if variant.shape_fixed or not form.shape_shown.data:
        return
    if "max_bid" not in shape.changes and not form.max_bid.errors:
        _show(form.max_bid, shape.max_bid)
    if shape.smudge_bid is not None and not form.smudge_bid.errors:
        _show(form.smudge_bid, shape.smudge_bid)
    form.drawn_total.data = str(_total(shape.points))
    form.drawn_max.data = "" if form.max_bid.data is None else str(form.max_bid.data)


def _show(field: Field, value: int) -> None:
    """Show ``value`` in a number box, whatever was typed there (a box shows what was sent)."""
    field.data = value
    field.raw_data = [str(value)]


def point_rows(
    form: NewGameForm, variant: rules.Variant, order: Sequence[str]
) -> list[tuple[rules.Point, Field]]:
    """Each offered point with its checkbox, in the order the form lists them."""
    return [(rules.POINTS[key], form[in_play_field_name(key)]) for key in order]


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
