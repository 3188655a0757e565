"""The forms of a game: setting one up, and recording a hand.

Forms check shapes and types only (a choice among the seats, a whole number);
the engine checks the rules, and the views put its message next to the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_babel.speaklater import LazyString
from markupsafe import Markup, escape
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
from ..i18n import N_, gettext, money, ngettext
from ..operations import hands
from ..rules.variants import LowTo
from ..web.forms import AMOUNT_EXAMPLE, AmountField, Form, NameLength
from ..web.routing import parse_id

NOBODY = "nobody"
# The labels are the engine's words, said lazily: the choices are made once, and each page
# says them in its language.
SALE_LABELS = {sale.value: _l(words) for sale, words in rules.SALE_CHOICES.items()}


def switch_choices(switch: str) -> list[SelectChoice]:
    """The setup form's choices of a house-rule switch, in the engine's words."""
    return choices((value, _l(words)) for value, words in rules.SWITCH_CHOICES[switch].items())


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

    #: What a value that is none of the buttons is told (N_: said in the page's language).
    not_a_choice = N_("%(value)s is not one of the choices for %(field)s.")

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
        (``members``: a team's players)."""
        required = " required" if self.options_required else ""
        name = escape(self.name)
        found = []
        for i, (value, label, checked, kw) in enumerate(self.iter_choices()):
            given = kw or {}
            said = f' aria-label="{escape(given["aria-label"])}"' if given.get("aria-label") else ""
            members = f' data-members="{escape(given["members"])}"' if given.get("members") else ""
            button = f"{escape(self.id)}-{i}"
            found.append(
                f'<span class="tap"><input {"checked " if checked else ""}id="{button}" '
                f'name="{name}"{required} type="radio" value="{escape(value)}"{said}>'
                f'<label for="{button}"{members}>{escape(label)}</label></span>'
            )
        return Markup("\n".join(found))

    def pre_validate(self, form: Any) -> None:
        allowed = {c.value if isinstance(c, SelectChoice) else c[0] for c in self.choices}
        if self.data not in (None, "") and self.data not in allowed:
            raise ValidationError(
                gettext(self.not_a_choice, value=repr(self.data), field=str(self.label.text))
            )


class TeamTapField(TapField):
    """A point's row in partnership play: a button per team (and "nobody")."""

    not_a_choice = N_("%(value)s is not one of this game's teams: choose a team for %(field)s.")


#: A team button's value: the team's place in the game's sides (``Game.sides``), never its
#: name, which a table may have typed as anything ("nobody" included).
TEAM_VALUE = "team-{}"


def point_field_name(key: str) -> str:
    return f"point_{key}"


def count_field_name(seat: int, card: str | None = None) -> str:
    """A Game counter field: a player's count (``gc_0``) or cards of one rank (``gc_0_ten``)."""
    return f"gc_{seat}" if card is None else f"gc_{seat}_{card}"


#: Where the engine's error fields show on the hand form.
def form_field_for(error_field: str | None) -> str | None:
    if error_field is None:
        return None
    if error_field.startswith("points."):
        return point_field_name(error_field.split(".", 1)[1])
    if error_field.startswith("game_count"):
        return "game_count"
    return {
        "pitcher": "pitcher",
        "bid": "bid",
        "sale": "sale",
        "high_bidder": "high_bidder",
        "note": "note",
    }.get(error_field)


#: What the Game counter writes for each rank (translated where the page shows them).
CARD_MARKS = {"ten": N_("10"), "ace": N_("A"), "king": N_("K"), "queen": N_("Q"), "jack": N_("J")}


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


@dataclass(frozen=True)
class CounterPlayer:
    seat: int
    name: str
    count: CountBox
    #: Each rank's box, with the mark the counter writes over it (the box knows its worth).
    cards: tuple[tuple[CountBox, str], ...]


@dataclass(frozen=True)
class CounterSide:
    name: str
    count: int | None
    players: tuple[CounterPlayer, ...]
    #: The value of the side's Game button in partnership play (the script taps it).
    team: str | None = None


class HandFormBase(Form):
    """Fields every hand form has; ``hand_form`` adds the variant's own."""

    version = HiddenField()
    #: The one-time key of this form (``operations.hands.record_hand``), and the hand it is for.
    token = HiddenField()
    number = HiddenField()
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
    #: The number of the last hand, when this one was tapped the same: the page asks first.
    same_as: int | None = None
    #: In partnership play, the team each team button stands for (its value → the side); the
    #: point rows then offer teams, not players. Empty in individual play.
    team_buttons: Mapping[str, str] = {}

    @property
    def is_passed(self) -> bool:
        return bool(self.passed_out.data)

    def needing_attention(self) -> list[tuple[str, str]]:
        """Every field's message, top to bottom, with the id of the field: the summary a
        refused hand shows first (the form's own messages show above it)."""
        found: list[tuple[str, str]] = []
        points = [point_field_name(point.key) for point in self.game.variant.points]
        for name in ["sale", "pitcher", "bid", "high_bidder", *points, "note"]:
            if name in self:
                found.extend((self[name].id, str(error)) for error in self[name].errors)
        return found

    @property
    def counts_game(self) -> bool:
        """Whether this form has the Game counter (a game whose Game is the game-count)."""
        return "game_count" in self

    def game_counts(self) -> dict[str, int] | None:
        """Each player's count toward Game as the counter was filled in, or None if it was
        left empty. A player's cards (tens, aces...) are added up here; without them, the
        count typed for the player; a player left empty took nothing (RULES.md 10)."""
        if not self.counts_game:
            return None
        counter: GameCounterField = self.game_count
        found: dict[str, int | None] = {}
        for i, name in enumerate(self.game.players):
            cards = [
                (worth, counter.value_of(count_field_name(i, card)))
                for card, worth in rules.GAME_COUNT_CARDS
            ]
            if any(n is not None for _, n in cards):
                found[name] = sum(worth * (n or 0) for worth, n in cards)
            else:
                found[name] = counter.value_of(count_field_name(i))
        if all(v is None for v in found.values()):
            return None
        return {name: v or 0 for name, v in found.items()}

    def side_counts(self) -> dict[str, int] | None:
        """Each side's count toward Game, as the counter was filled in (for the page)."""
        counts = self.game_counts()
        return None if counts is None else rules.counts_by_side(self.game, counts)

    def validate(self, extra_validators: Mapping[str, Any] | None = None) -> bool:
        """Check shapes; for a passed-out hand only the note matters."""
        if self.is_passed:
            self.pitcher.validators = [Optional()]
            self.bid.validators = [Optional()]
            for point in self.game.variant.points:
                self[point_field_name(point.key)].validators = [Optional()]
            if "sale" in self:
                self.sale.validators = [Optional()]
        elif self.counts_game and self.game_count.typed_in:
            # Counted: Game may be left for the count to credit.
            self[point_field_name("game")].validators = [Optional()]
        valid = super().validate(extra_validators)
        if "sale" in self and not self.is_passed:
            # Which taps a Sell-Out hand needs depends on the sale: say so by the field,
            # rather than let the engine report a missing name as "null".
            for name, message in SALE_NEEDS.get(self.sale.data or "", ()):
                if self[name].data in (None, "") and not self[name].errors:
                    self[name].errors = [*self[name].errors, gettext(message)]
                    valid = False
        return valid

    def to_hand(self, dealer: str | None) -> rules.Hand:
        """Build the engine's hand from the submitted choices (names from seat numbers), as
        ``dealer`` dealt it: the engine fills in what a Sell-Out sale leaves untapped."""
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
        taps = {p.key: self[point_field_name(p.key)].data for p in self.game.variant.points}
        by_team = {key: self.team_buttons[v] for key, v in taps.items() if v in self.team_buttons}
        points = {key: None if key in by_team else seat_name(v) for key, v in taps.items()}
        counts = self.game_counts()
        if counts is not None and taps.get("game") in (None, ""):
            # Game left untapped: the count credits it (or nobody, on a tie).
            points["game"] = rules.game_by_count(self.game, counts)
            if self.team_buttons and points["game"] is not None:
                # To its team, credited as a tap on that team would be.
                by_team["game"] = self.game.side_of(points["game"])
        hand = rules.Hand(
            pitcher=pitcher,
            bid=bid,
            points=points,
            sale=sale,
            high_bidder=seat_name(self.high_bidder.data) if "high_bidder" in self else None,
            note=note,
            game_count=counts,
        )
        # Kept and pitched hands are pitched by the seller: spare the table a tap.
        hand = self.game.filled_in(hand, dealer)
        if not by_team:
            return hand
        # A team's point goes to the player the engine names for it (the pitcher may be
        # the seller the line above filled in).
        credited = {key: self.game.point_taker(side, hand.pitcher) for key, side in by_team.items()}
        return replace(hand, points={**hand.points, **credited})

    def counter_sides(self) -> list[CounterSide]:
        """The Game counter as the page lays it out: each side, its count so far, its players."""
        by_side = self.side_counts()
        marks = {card: gettext(mark) for card, mark in CARD_MARKS.items()}
        team = {side: value for value, side in self.team_buttons.items()}
        boxes = self.game_count.boxes
        return [
            CounterSide(
                name=side,
                count=None if by_side is None else by_side[side],
                players=tuple(
                    CounterPlayer(
                        seat=(seat := self.game.players.index(name)),
                        name=name,
                        count=boxes[count_field_name(seat)],
                        cards=tuple(
                            (boxes[count_field_name(seat, card)], marks[card])
                            for card, _ in rules.GAME_COUNT_CARDS
                        ),
                    )
                    for name in self.game.members(side)
                ),
                team=team.get(side),
            )
            for side in self.game.sides
        ]

    def counter_errors(self) -> list[str]:
        """Every error of the Game counter: a count that is not a number or out of range
        (naming its box), or the engine's."""
        return [str(e) for e in self.game_count.errors]

    def fill_from(self, hand: rules.Hand) -> None:
        """Prefill the form with a recorded hand (to edit it)."""
        seat = {name: str(i) for i, name in enumerate(self.game.players)}
        self.note.data = hand.note or ""
        if hand.passed:
            return
        self.pitcher.data = seat.get(hand.pitcher or "")
        self.bid.data = str(hand.bid)
        team = {side: value for value, side in self.team_buttons.items()}
        for key, name in hand.points.items():
            if name is None:
                tapped = NOBODY
            elif team:
                # Whichever partner a record credits, the team's button is the one tapped.
                tapped = team[self.game.side_of(name)]
            else:
                tapped = seat[name]
            self[point_field_name(key)].data = tapped
        if hand.game_count is not None and self.counts_game:
            for name, count in hand.game_count.items():
                self.game_count.fill(count_field_name(int(seat[name])), count)
        if "sale" in self:
            self.sale.data = hand.sale.value if hand.sale else None
            self.high_bidder.data = seat.get(hand.high_bidder or "")


def hand_form(game: rules.Game, **kwargs: Any) -> HandFormBase:
    """Build the hand form for a game: a button per seat for each choice."""
    teams = None if game.teams is None else tuple((s, game.members(s)) for s in game.sides)
    form_class = _hand_form_class(game.variant, game.players, game.house_rules.low_to, teams)
    form = form_class(**kwargs)
    form.game = game
    if not form.token.data:
        form.token.data = hands.new_key()
    return form


def _hand_form_class(
    variant: rules.Variant,
    players: tuple[str, ...],
    low_to: LowTo,
    teams: tuple[tuple[str, tuple[str, ...]], ...] | None = None,
) -> type[HandFormBase]:
    """The form class of a game's table, its labels in the request's language. ``variant`` is the
    game's own (its points and bids after the house rules); ``teams`` are its sides with
    their players, in partnership play (the point rows then offer teams). Built afresh for
    each form: keeping the classes (an ``lru_cache`` keyed by table and language until
    issue 17) saved 0.2 to 0.26 ms of an 8 ms request, about 3 %, too little for a cache."""
    seats = choices((i, name) for i, name in enumerate(players))
    sale_only = variant.sales

    class HandForm(HandFormBase):
        pass

    takers = seats
    point_field: type[TapField] = TapField
    if teams is not None:
        HandForm.team_buttons = {TEAM_VALUE.format(i): side for i, (side, _) in enumerate(teams)}
        # The team's name on the button; its players said to a screen reader, and shown
        # under the name (the stylesheet writes ``members``: the label's text stays the name).
        takers = [
            SelectChoice(
                TEAM_VALUE.format(i),
                side,
                render_kw={
                    "aria-label": gettext(
                        "Team %(team)s: %(players)s", team=side, players=", ".join(members)
                    ),
                    "members": " · ".join(members),
                },
            )
            for i, (side, members) in enumerate(teams)
        ]
        point_field = TeamTapField

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
        options = list(takers)
        if point.may_be_nobody:
            options.append(SelectChoice(NOBODY, nobody))
        name = gettext(point.name)
        label = name
        if rules.variants.low_to_applies(point):
            label = (
                gettext("%(point)s (holder)", point=name)
                if low_to is LowTo.HOLDER
                else gettext("%(point)s (taker)", point=name)
            )
        elif point.worth_shown:
            label = ngettext(
                "%(point)s (%(num)s point)", "%(point)s (%(num)s points)", point.value, point=name
            )
        setattr(
            HandForm,
            point_field_name(point.key),
            point_field(
                label,
                choices=options,
                description=gettext(point.help),
                validators=[InputRequired(gettext("Choose who took %(point)s.", point=name))],
            ),
        )
    if variant.counts_game:
        card_names = {
            "ten": gettext("Tens"),
            "ace": gettext("Aces"),
            "king": gettext("Kings"),
            "queen": gettext("Queens"),
            "jack": gettext("Jacks"),
        }
        boxes: list[tuple[str, str, int, int | None]] = []
        for i, name in enumerate(players):
            boxes.append(
                (
                    count_field_name(i),
                    gettext("Count of %(name)s", name=name),
                    rules.variants.GAME_COUNT_MAX,
                    None,
                )
            )
            boxes.extend(
                (
                    count_field_name(i, card),
                    gettext("%(cards)s taken by %(name)s", cards=card_names[card], name=name),
                    4,
                    worth,
                )
                for card, worth in rules.GAME_COUNT_CARDS
            )
        HandForm.game_count = GameCounterField(tuple(boxes))
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
