"""A hand a form makes beside a recorded hand, choice by choice, in the words of the form's
buttons: what a conflict shows, and a correction the table chose for a phone's hand before
it is saved (``receive``, and ``views.edit_hand``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import rules
from ..i18n import gettext
from ..operations.rows import Loaded
from ..sheets.words import describe_hand
from . import form_class, forms

if TYPE_CHECKING:
    from wtforms import Field


@dataclass(frozen=True)
class Difference:
    """One choice of a hand (the pitcher, the bid, a point...), as this form and the recorded
    hand have it, in the words of the form's tap buttons."""

    #: The row's words ("High"), and its taker on each hand ("Ana"; "—" where untapped).
    label: str
    mine: str
    theirs: str
    differs: bool


@dataclass(frozen=True)
class Disagreement:
    """This form's hand beside the recorded hand in its place, every choice with its taker."""

    #: The recorded hand, and it in a sentence ("Dana made 2.").
    number: int
    said: str
    rows: tuple[Difference, ...]
    #: The recorded hand was saved from this very form before (the page came back by Back).
    from_this_form: bool

    @property
    def differences(self) -> int:
        return sum(row.differs for row in self.rows)


def compared(
    form: forms.HandFormBase, loaded: Loaded, number: int, *, from_this_form: bool = False
) -> Disagreement:
    """This form's hand beside recorded hand ``number``, choice by choice (a conflict shows
    it; a correction the table chose for a phone's hand shows it before it is saved)."""
    hand = loaded.result.hands[number - 1]
    return Disagreement(
        number=number,
        said=describe_hand(loaded.result, hand),
        rows=_differences(form, loaded, hand),
        from_this_form=from_this_form,
    )


def hand_of(form: forms.HandFormBase, usual: str | None) -> rules.Hand | None:
    """The hand a checked form makes, or None if it makes none (it has errors)."""
    if form.errors or form.form_errors:
        return None
    try:
        return form.to_hand(usual)
    except (rules.RuleError, ValueError):
        return None


def _differences(
    form: forms.HandFormBase, loaded: Loaded, recorded: rules.HandResult
) -> tuple[Difference, ...]:
    """This form's hand and the recorded one, choice by choice, in the words of the form's
    buttons. This form is first made into the hand it records (the rest tapped, the seller
    filled in, a team's point credited), so that the same hand reads the same."""
    game, usual = loaded.game, recorded.usual_dealer
    mine_hand = hand_of(form, usual)
    mine = form
    if mine_hand is not None:
        mine = form_class.hand_form(game, usual, formdata=None)
        mine.fill_from(mine_hand)
    theirs = form_class.hand_form(game, usual, formdata=None)
    theirs.fill_from(recorded.hand)
    mine_passed = form.is_passed if mine_hand is None else mine_hand.passed
    rows: list[Difference] = []
    if mine_passed or recorded.passed:
        rows.append(
            Difference(
                gettext("Everyone passed"),
                gettext("yes") if mine_passed else gettext("no"),
                gettext("yes") if recorded.passed else gettext("no"),
                mine_passed != recorded.passed,
            )
        )
    names = [
        "sale",
        "pitcher",
        "bid",
        "high_bidder",
        *(forms.point_field_name(p.key) for p in game.variant.points),
        "dealer",
    ]
    for name in names:
        if name not in mine:
            continue
        one = "" if mine_passed and name != "dealer" else str(mine[name].data or "")
        other = "" if recorded.passed and name != "dealer" else str(theirs[name].data or "")
        if not one and not other and name in ("high_bidder", "dealer"):
            continue  # a row neither hand uses: no high bidder, dealt in turn
        rows.append(
            Difference(
                str(mine[name].label.text),
                _chosen(mine[name], one),
                _chosen(theirs[name], other),
                one != other,
            )
        )
    mine_note, their_note = (mine.note.data or "").strip(), (recorded.hand.note or "").strip()
    if mine_note or their_note:
        rows.append(
            Difference(
                str(form.note.label.text),
                mine_note or "—",
                their_note or "—",
                mine_note != their_note,
            )
        )
    return tuple(rows)


def _chosen(field: Field, value: str) -> str:
    """The words of the button (or option) ``value`` of a row; "—" for none tapped."""
    for choice in field.iter_choices():
        if choice.value == value and (value or field.name == "dealer"):
            return str(choice.label)
    return "—"
