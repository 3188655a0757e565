"""The shape of the game (RULES.md section 10) as the new-game form sent it: the points in
their count-out order (a row moved up or down), the switches a record gives for them, the
bids that follow the points, and the form drawn again as the server read it.

A highest bid (or smudge bid) left as the page drew it follows the points ticked, and the
page drawn again says the bids that follow (``show_shape``), with or without the page's
script.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from wtforms import Field

from .. import rules
from ..rules.variants import Smudge
from ..web.routing import parse_id
from .forms import NewGameForm, in_play_field_name, offered_points, points_total, smudge_default


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
    total = points_total(points)
    typed_max = form.max_bid.data
    drawn_total = _drawn(form.drawn_total, points_total(preset.points))
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
    if smudge_bid is not None and smudge_mode and smudge_mode != smudge_default(variant):
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
    form.drawn_total.data = str(points_total(shape.points))
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
