"""The hand form of a game's table: its class, built once a table and language (a button per
seat for each choice, the variant's points and bids, the Game counter, the sale), and the
form a page shows made from it (``hand_form``).

What every hand form reads, checks and fills is ``forms.HandFormBase``.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, ClassVar

from markupsafe import Markup
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Optional

from .. import i18n, rules
from ..i18n import gettext, isolated, ngettext
from ..lru import LRU, per_app
from ..operations import hands
from ..rules.variants import LowTo
from ..web.widgets import DealerField, GameCounterField, TapField, TeamTapField, choices
from .forms import (
    NOBODY,
    PASSED_DEALER_SET,
    SALE_LABELS,
    TEAM_VALUE,
    HandFormBase,
    count_field_name,
    point_field_name,
)


def hand_form(game: rules.Game, usual_dealer: str | None = None, **kwargs: Any) -> HandFormBase:
    """Build the hand form for a game: a button per seat for each choice. ``usual_dealer`` is
    who is due to deal the hand (the dealer choice offers them first, as "in turn")."""
    teams = None if game.teams is None else tuple((s, game.members(s)) for s in game.sides)
    form = _kept_form_class(game.variant, game.players, game.house_rules.low_to, teams)(**kwargs)
    form.game = game
    if game.house_rules.all_pass is rules.AllPass.DEALER_SET:
        # One tap records the pass, and says what it costs (RULES.md 11.3).
        form.passed_out.label.text = gettext(PASSED_DEALER_SET)
    if not form.token.data:
        form.token.data = hands.new_key()
    in_turn = (
        gettext("%(dealer)s (in turn)", dealer=usual_dealer)
        if usual_dealer is not None
        else gettext("In turn")
    )
    form.dealer.choices = [
        SelectChoice("", in_turn),
        *(
            SelectChoice(str(i), name)
            for i, name in enumerate(game.players)
            if name != usual_dealer
        ),
    ]
    return form


#: The hand form classes a process keeps: one a table and language, while it plays.
FORM_CLASSES_KEPT = 256


def _kept_form_class(
    variant: rules.Variant,
    players: tuple[str, ...],
    low_to: LowTo,
    teams: tuple[tuple[str, tuple[str, ...]], ...] | None,
) -> type[HandFormBase]:
    """``_hand_form_class``, built once a table and language: a table asks for it twice a
    hand (the Save checked, the next hand's form drawn), and it is the same each time."""
    kept: LRU[type[HandFormBase]] = per_app(
        "scorekeeper.hand_form_classes", lambda: LRU(FORM_CLASSES_KEPT)
    )
    key = (i18n.current_locale(), variant, players, low_to, teams)
    return kept.get_or_make(key, lambda: _hand_form_class(variant, players, low_to, teams))


def _hand_form_class(
    variant: rules.Variant,
    players: tuple[str, ...],
    low_to: LowTo,
    teams: tuple[tuple[str, tuple[str, ...]], ...] | None = None,
) -> type[HandFormBase]:
    """The form class of a game's table, its labels in the request's language. ``variant`` is the
    game's own (its points and bids after the house rules); ``teams`` are its sides with
    their players, in partnership play (the point rows then offer teams). Nothing of one
    form is kept on its class (a form's own choices, such as the dealer's, are set on the
    form), so ``_kept_form_class`` may hand the class to every form of that table."""
    seats = choices((i, name) for i, name in enumerate(players))
    sale_only = variant.sales

    class HandForm(HandFormBase):
        drawn_rows: ClassVar[dict[Hashable, Markup]] = {}

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
                        "Team %(team)s: %(players)s",
                        team=isolated(side),
                        players=", ".join(isolated(member) for member in members),
                    ),
                    "members": " · ".join(isolated(member) for member in members),
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
        said_alone=True,
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
                short=name,
                description=gettext(point.help),
                validators=[InputRequired(gettext("Choose who took %(point)s.", point=name))],
            ),
        )
    if len(takers) == 2:
        # Two sides: "the rest to" one of them, then only the exceptions are tapped.
        HandForm.rest = TapField(
            gettext("The rest"),
            choices=list(takers),
            description=gettext("every point not tapped goes to the side tapped here"),
            validators=[Optional()],
            unsaid=True,
        )
    HandForm.dealer = DealerField(
        gettext("Who dealt"),
        choices=[SelectChoice("", gettext("In turn"))],
        seats=len(players),
        validators=[Optional()],
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
                    gettext("Count of %(name)s", name=isolated(name)),
                    rules.variants.GAME_COUNT_MAX,
                    None,
                )
            )
            boxes.extend(
                (
                    count_field_name(i, card),
                    gettext(
                        "%(cards)s taken by %(name)s", cards=card_names[card], name=isolated(name)
                    ),
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
