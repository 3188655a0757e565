"""The engine's refusal of a setup, said in the setup form's own words.

The engine says what is wrong in the record's words (``max_bid 7 is above 4, the total
value of the points in play``), which is right for the command line and a record's
import, but a person at the setup form never saw ``max_bid``, a point key or ``null``.
So a refusal is put into words here, from its stable code and parameters (never by
reading the English), with the form's labels and choices, in the page's language, and
placed next to the field it is about.

Codes the form's own refusals do not cover (a seat, a team, a name) are said as the
engine says them: those messages name players and seats, never a key.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .. import i18n, rules
from ..i18n import N_, gettext
from ..rules.variants import AllPass, Smudge, SmudgeFailed
from .forms import NewGameForm, choice_words

#: Where a refusal shows: next to the seats (players, teams, who deals first).
SEATS = "seats"
#: Next to the points in play.
POINTS = "points"
#: Above the form.
FORM = ""

#: Each code's sentence in the form's words (N_: said in the page's language), filled with
#: the parameters ``_params`` gives it. A field's label names it where the sentence needs it.
MESSAGES: Mapping[str, str] = {
    "switch-max-bid-total": N_(
        "%(bid)s is more than the points in play are worth: %(total)s. Lower the highest "
        "bid, or tick more points."
    ),
    "switch-min-above-max": N_(
        "The lowest bid, %(min)s, is above the highest bid, %(max)s: lower the lowest bid "
        "or raise the highest."
    ),
    "switch-min-above-points": N_(
        "The points ticked are worth %(max)s, less than the lowest bid, %(min)s: tick more "
        "points, or lower the lowest bid."
    ),
    "switch-smudge-bid-range": N_(
        "%(bid)s is not a bid of this game: give a bid from %(min)s to %(max)s, or leave it "
        "empty for no smudge."
    ),
    "switch-smudge-failed": N_(
        "There is no smudge in this game, so a failed bid cannot lose it at once: give a "
        "smudge or moon bid, or choose “%(set_back)s”."
    ),
    "switch-smudge-failed-sides": N_(
        "A failed smudge can lose the game at once only with exactly two sides (two players, "
        "or two teams); this game has %(count)s."
    ),
    "switch-points-needs": N_("Tick %(point)s: every hand has one."),
    "switch-points-ten-game": N_(
        "%(ten)s and %(game)s cannot both be in play in %(variant)s: its Game is the ten of "
        "trumps. Untick one."
    ),
    "switch-dealer-set": N_("%(value)s cannot be played in %(variant)s."),
    "switch-points-clash": N_("%(one)s and %(other)s cannot both be in play: untick one."),
    "switch-points-list": N_("Tick the points in play from the list."),
    "switch-points-unknown": N_("Tick the points in play from the list."),
    "switch-points-twice": N_("Tick the points in play from the list."),
    "switch-value": N_("%(value)s is not one of the choices for %(field)s."),
    "switch-range": N_("%(field)s must be a whole number of at least %(min)s."),
    "switch-bid": N_("%(field)s must be a whole number, or left empty."),
    "switch-no-smudge": N_(
        "There is no smudge bid, so there is no smudge to choose: give a smudge or moon bid."
    ),
    "switch-not-for-variant": N_("%(field)s cannot be changed in %(variant)s."),
    "switch-target-null": N_(
        "Give the target score, or a number of hands to end the game after (the most "
        "points then win)."
    ),
    "switch-hands": N_("%(field)s must be a whole number from 1 to %(max)s, or left empty."),
    "switch-no-target-smudge": N_(
        "Without a target no bid wins at once: choose “%(off)s”, or give a target score."
    ),
    "switch-no-target-smudge-failed": N_(
        "Without a target a failed smudge cannot lose the game: choose “%(set_back)s”, or "
        "give a target score."
    ),
    "unknown-switch": N_("This form sent a house rule the game does not have."),
}


@dataclass(frozen=True)
class Refusal:
    """A refusal as the form shows it: the field it goes next to (a form field's name,
    ``SEATS``, ``POINTS``, or ``FORM`` above the form) and what it says."""

    field: str
    message: str


def _label(form: NewGameForm, name: str) -> str:
    return str(form[name].label.text) if name in form else name


def _point_name(key: Any) -> str:
    point = rules.POINTS.get(str(key).strip('"'))
    return gettext(point.name) if point is not None else str(key)


def _params(error: rules.RuleError, form: NewGameForm, field: str) -> dict[str, Any]:
    """The parameters of the form's sentence for ``error``, in the form's words."""
    p = error.params
    said: dict[str, Callable[[], dict[str, Any]]] = {
        "switch-max-bid-total": lambda: {"bid": p["max_bid"], "total": p["total"]},
        "switch-min-above-max": lambda: {"min": p["min_bid"], "max": p["max_bid"]},
        "switch-smudge-bid-range": lambda: {
            "bid": p["bid"],
            "min": p["min_bid"],
            "max": p["max_bid"],
        },
        "switch-smudge-failed": lambda: {
            "set_back": choice_words("smudge_failed", SmudgeFailed.SET_BACK),
        },
        "switch-smudge-failed-sides": lambda: {"count": p["count"]},
        "switch-points-needs": lambda: {"point": _point_name(p["point"])},
        "switch-hands": lambda: {"field": _label(form, field), "max": p["max"]},
        "switch-no-target-smudge": lambda: {"off": choice_words("smudge", Smudge.OFF)},
        "switch-no-target-smudge-failed": lambda: {
            "set_back": choice_words("smudge_failed", SmudgeFailed.SET_BACK),
        },
        "switch-points-ten-game": lambda: {
            "ten": _point_name("ten"),
            "game": gettext(rules.variants.TEN_OF_TRUMPS_GAME.name),
            "variant": gettext(str(p.get("variant", ""))),
        },
        "switch-dealer-set": lambda: {
            "value": "“" + choice_words("all_pass", AllPass.DEALER_SET) + "”",
            "variant": gettext(str(p.get("variant", ""))),
        },
        "switch-points-clash": lambda: {
            "one": _point_name(p["one"]),
            "other": _point_name(p["other"]),
        },
        "switch-value": lambda: {"value": p["value"], "field": _label(form, field)},
        "switch-range": lambda: {"min": p["min"], "field": _label(form, field)},
        "switch-bid": lambda: {"field": _label(form, field)},
        "switch-not-for-variant": lambda: {
            "field": _label(form, field),
            "variant": gettext(str(p.get("variant", ""))),
        },
    }
    found = said.get(error.code)
    return found() if found is not None else {}


def refusal(error: rules.RuleError, form: NewGameForm) -> Refusal:
    """Say the engine's refusal of a setup in the form's words, next to its field."""
    field_name = error.field or ""
    switch = field_name.removeprefix("house_rules.")
    if error.code in MESSAGES:
        code = error.code
        if switch == "points" or code == "switch-points-ten-game":
            where = POINTS
            if code == "switch-min-above-max":
                code = "switch-min-above-points"
        elif switch in form:
            where = switch
        else:
            where = FORM
        return Refusal(where, gettext(MESSAGES[code], **_params(error, form, switch)))
    # Seats, teams and names: the engine names the players and seats, never a key.
    if field_name in ("players", "teams", "first_dealer"):
        where = SEATS
    elif field_name in form:
        where = field_name
    else:
        where = FORM
    return Refusal(where, i18n.error_detail(error))
