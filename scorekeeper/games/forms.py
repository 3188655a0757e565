"""The hand form: who won the bid and for how much, who took each point, the Game counter,
and who dealt, when someone dealt out of turn.

It checks shapes and types only (a choice among the seats, a whole number); the engine
checks the rules, and the view puts its message next to the field.

What every hand form has is ``HandFormBase`` here; a table's own class, with the
variant's fields, is built in ``form_class``.

Long because: ``HandFormBase`` is one class, and its reading, checking, filling and the
engine's refusals said in its words work on the same fields; its parts are only ever read
together.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from flask_babel import lazy_gettext as _l
from markupsafe import Markup
from wtforms import (
    HiddenField,
    StringField,
    SubmitField,
)
from wtforms.validators import Length, Optional

from .. import i18n, rules
from ..i18n import N_, gettext, ngettext
from ..web.forms import WRITTEN, Form
from ..web.widgets import (
    CountBox,
    GameCounterField,
)

NOBODY = "nobody"
# The labels are the engine's words, said lazily: the choices are made once, and each page
# says them in its language.
SALE_LABELS = {sale.value: _l(words) for sale, words in rules.SALE_CHOICES.items()}


#: The pass button's words where everyone passing sets the dealer back (``dealer-set``).
PASSED_DEALER_SET = N_("All passed: the dealer is set")

#: What a sale needs tapped besides the points (a pitched hand: nothing, the seller pitches 4).
SALE_NEEDS = {
    "sold": (("pitcher", N_("Choose who bought the bid.")), ("bid", N_("Choose the bid."))),
    "kept": (("bid", N_("Choose the bid.")), ("high_bidder", N_("Choose the high bidder."))),
}


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
        "dealer": "dealer",
    }.get(error_field)


#: What the Game counter writes for each rank (translated where the page shows them).
CARD_MARKS = {"ten": N_("10"), "ace": N_("A"), "king": N_("K"), "queen": N_("Q"), "jack": N_("J")}


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
        render_kw=WRITTEN,
    )
    save = SubmitField(_l("Save hand"))
    passed_out = SubmitField(_l("Everyone passed"))

    game: rules.Game
    #: The number of the last hand, when this one was tapped the same: the page asks first.
    same_as: int | None = None
    #: In partnership play, the team each team button stands for (its value → the side); the
    #: point rows then offer teams, not players. Empty in individual play.
    team_buttons: Mapping[str, str] = {}
    #: Its rows as drawn (tap rows, the note, an empty Game counter), kept for the next hand's
    #: form (``web.templating.form_row``); each table's class has its own.
    drawn_rows: ClassVar[dict[Hashable, Markup]]

    @property
    def is_passed(self) -> bool:
        return bool(self.passed_out.data)

    def needing_attention(self) -> list[tuple[str, str]]:
        """Every field's message, top to bottom, with the id of the field: the summary a
        refused hand shows first (the form's own messages show above it)."""
        found: list[tuple[str, str]] = []
        points = [point_field_name(point.key) for point in self.game.variant.points]
        for name in [
            "sale",
            "pitcher",
            "bid",
            "high_bidder",
            "rest",
            *points,
            "game_count",
            "dealer",
            "note",
        ]:
            if name == "game_count" and self.counts_game:
                found.extend(("game-counter", str(error)) for error in self.counter_errors())
            elif name in self:
                found.extend((self[name].id, str(error)) for error in self[name].errors)
        return found

    @property
    def counts_game(self) -> bool:
        """Whether this form has the Game counter (a game whose Game is the game-count)."""
        return "game_count" in self

    def typed_counts(self) -> dict[str, int | None]:
        """Each player's count toward Game as the counter was filled in: a player's cards
        (tens, aces...) added up, else the count typed for the player, else None (not
        counted: an empty box is never taken for 0)."""
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
        return found

    def not_counted(self) -> list[str]:
        """The players left without a count while others were counted: the counter takes
        every player's count or none (RULES.md 10 lists every seated player)."""
        if not self.counts_game:
            return []
        counts = self.typed_counts()
        if all(v is None for v in counts.values()):
            return []
        return [name for name, v in counts.items() if v is None]

    def game_counts(self) -> dict[str, int] | None:
        """Each player's count toward Game as the counter was filled in, or None if it was
        left empty, or some player was left uncounted (``not_counted``: refused)."""
        if not self.counts_game:
            return None
        counts = self.typed_counts()
        if any(v is None for v in counts.values()):
            return None
        return {name: v for name, v in counts.items() if v is not None}

    def side_counts(self) -> dict[str, int] | None:
        """Each side's count toward Game so far, as the counter was filled in (for the page:
        a player left empty adds nothing), or None if nothing was typed."""
        if not self.counts_game:
            return None
        counts = self.typed_counts()
        if all(v is None for v in counts.values()):
            return None
        return rules.counts_by_side(self.game, {n: v or 0 for n, v in counts.items()})

    @property
    def takes_the_rest(self) -> bool:
        """Whether this form has "the rest to" (a game of two sides): one tap gives every
        point left untapped to one side, and only the exceptions are tapped."""
        return "rest" in self

    def _fill_the_rest(self) -> None:
        """Give every point left untapped to the side "the rest to" names (as the page's
        script shows it while tapping); Game is left to the count when the count is typed."""
        if not self.takes_the_rest or self.is_passed:
            return
        side = self.rest.data
        if side in (None, "") or side not in {choice.value for choice in self.rest.choices}:
            return
        counted = self.counts_game and self.game_count.typed_in
        game = self[point_field_name("game")] if counted else None
        for point in self.game.variant.points:
            field = self[point_field_name(point.key)]
            if field is not game and field.data in (None, ""):
                field.data = side
                field.raw_data = [side]  # as if tapped: InputRequired reads what was posted

    def dealer_named(self) -> str | None:
        """The player the form says dealt the hand, or None: dealt in turn."""
        value = self.dealer.data
        if value in (None, "") or not str(value).isdigit():
            return None
        seat = int(value)
        return self.game.players[seat] if seat < len(self.game.players) else None

    def validate(self, extra_validators: Mapping[str, Any] | None = None) -> bool:
        """Check shapes; for a passed-out hand only the note (and who dealt) matters."""
        self._fill_the_rest()
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
        missing = [] if self.is_passed else self.not_counted()
        if missing:
            # A box left empty is not 0: the count would credit Game on half a count.
            self.game_count.errors = [
                *self.game_count.errors,
                ngettext(
                    "Count every player or none: %(names)s has no count (type 0 for a "
                    "player who took no counting cards).",
                    "Count every player or none: %(names)s have no count (type 0 for a "
                    "player who took no counting cards).",
                    len(missing),
                    names=", ".join(missing),
                ),
            ]
            valid = False
        if "sale" in self and not self.is_passed:
            # Which taps a Sell-Out hand needs depends on the sale: say so by the field,
            # rather than let the engine report a missing name as "null".
            for name, message in SALE_NEEDS.get(self.sale.data or "", ()):
                if self[name].data in (None, "") and not self[name].errors:
                    self[name].errors = [*self[name].errors, gettext(message)]
                    valid = False
        return valid

    def to_hand(self, usual: str | None) -> rules.Hand:
        """Build the engine's hand from the submitted choices (names from seat numbers), as
        dealt by the player the form names, else by ``usual`` (who was due to deal it): the
        engine fills in what a Sell-Out sale leaves untapped, and keeps the dealer only when
        the hand was dealt out of turn (``Hand.dealt_by``)."""
        names = self.game.players
        note = (self.note.data or "").strip() or None
        dealer = self.dealer_named() or usual
        if self.is_passed:
            return rules.Hand.passed_out(note).dealt_by(dealer, usual)

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
        if by_team:
            # A team's point goes to the player the engine names for it (the pitcher may be
            # the seller the line above filled in).
            credited = {
                key: self.game.point_taker(side, hand.pitcher) for key, side in by_team.items()
            }
            hand = replace(hand, points={**hand.points, **credited})
        return hand.dealt_by(dealer, usual)

    def attach_error(self, error: rules.RuleError) -> None:
        """Show the engine's message next to the field it names (or above the form)."""
        name = form_field_for(error.field)
        said = count_contradiction(error, self.game) or i18n.error_message(error)
        if name is not None and name in self:
            self[name].errors = [*self[name].errors, said]
        else:
            self.form_errors.append(said)

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
        self.dealer.data = seat.get(hand.dealer or "", "")
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


#: The engine's refusals of a Game count against a tapped Game, in the hand form's words (by
#: code; never by reading the English): the contradiction is said, nothing is re-tapped.
COUNT_CONTRADICTIONS = {
    "game-count-disagrees": N_(
        "Game is tapped for %(taker)s, but %(leader)s counted %(high)s to %(other)s's "
        "%(low)s: tap Game for %(leader)s, or correct the count."
    ),
    "game-count-tied": N_(
        "Game is tapped for %(taker)s, but the highest count, %(count)s, is shared, so Game "
        "goes to nobody: tap Nobody for Game, or correct the count."
    ),
    "game-count-nobody": N_(
        "Game is tapped for nobody, but %(leader)s counted %(high)s to %(other)s's %(low)s: "
        "tap Game for %(leader)s, or correct the count."
    ),
}


def count_contradiction(error: rules.RuleError, game: rules.Game) -> str | None:
    """Say a Game tapped against the count as the hand form does, or None for another error.
    The tap is named by its side (a team button credits its team's player)."""
    words = COUNT_CONTRADICTIONS.get(error.code)
    if words is None:
        return None
    params = dict(error.params)
    if params.get("taker") in game.seated:
        params["taker"] = game.side_of(params["taker"])
    return gettext(words, **params)
