"""What the setup form reads: the saved rule sets it offers, the nights a game may join, and
the game a rematch starts from."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from .. import operations, rules
from ..data import models
from ..data.extensions import db
from ..i18n import gettext, isolated
from ..operations.errors import NotFound
from ..operations.rows import Loaded
from ..operations.rule_sets import RuleSetRow
from ..sheets.words import house_rules_said
from ..web.routing import parse_id


@dataclass(frozen=True)
class NightName:
    """A night the setup form offers to join."""

    id: int
    name: str
    place: str | None


def nights_to_offer(*also: int | None) -> list[NightName]:
    """The nights a new game may join: those being played (``operations.nights``), newest
    first, and ``also`` the night the page was opened from or a rematch's (which may have
    ended: the table is going on with the same sitting), if they still exist."""
    wanted = [*operations.nights.open_night_ids(), *(n for n in also if n is not None)]
    wanted = list(dict.fromkeys(wanted))
    if not wanted:
        return []
    found = {
        row.id: NightName(row.id, row.name, row.place)
        for row in db.session.execute(
            select(models.Night.id, models.Night.name, models.Night.place).where(
                models.Night.id.in_(wanted)
            )
        )
    }
    return [found[n] for n in wanted if n in found]


def night_label(night: NightName) -> str:
    """How the form names a night to choose: its name, and its place, each isolated (an option
    holds no markup)."""
    if night.place:
        return gettext(
            "%(night)s (%(place)s)", night=isolated(night.name), place=isolated(night.place)
        )
    return isolated(night.name)


def rematch_of(variant: rules.Variant, wanted: str) -> Loaded | None:
    """The game named by ``?again=<id>`` when it is a game of ``variant`` (else None: the form
    opens empty, as without the link)."""
    game_id = parse_id(wanted)
    if game_id is None:
        return None
    try:
        loaded = operations.loading.load(game_id)
    except NotFound:
        return None
    return loaded if loaded.game.variant.key == variant.key else None


@dataclass(frozen=True)
class SavedRules:
    """A saved rule set a form opens with: its row, and its switches applied to the preset."""

    row: RuleSetRow
    house: rules.HouseRules

    @property
    def said(self) -> str:
        return rules_said(self.row)


def saved_rules(variant: rules.Variant, wanted: str) -> SavedRules | None:
    """The saved rule set named by ``?rules=<id>`` for this variant, with its switches applied
    (a set the engine no longer accepts is not offered)."""
    rule_set_id = parse_id(wanted)
    if rule_set_id is None:
        return None
    found = operations.rule_sets.rule_set(rule_set_id)
    if found is None or found.variant != variant.key:
        return None
    house = _house(found)
    return None if house is None else SavedRules(found, house)


def _house(row: RuleSetRow) -> rules.HouseRules | None:
    if row.variant not in rules.VARIANTS:
        return None
    try:
        return rules.find_variant(row.variant).house_rules(dict(row.house_rules))
    except rules.RuleError:
        return None


def rules_said(row: RuleSetRow) -> str:
    """A saved set in one line: what it changes from its variant's preset, in the page's
    language (``first to 11 (not 7); only a made bid goes out``)."""
    house = _house(row)
    if house is None:
        return ""
    said = house_rules_said(rules.find_variant(row.variant), house)
    return "; ".join(said) if said else gettext("the rules as the book has them")


@dataclass(frozen=True)
class OfferedRuleSet:
    """A saved set as the chooser lists it."""

    id: int
    name: str
    variant_key: str
    #: The variant's name (English, as the engine has it: the page translates it).
    variant_name: str
    said: str


def offered_rule_sets(variant_key: str | None = None) -> list[OfferedRuleSet]:
    """The saved sets a form may open with (of one variant, if given), by name: each with its
    variant and what it changes. A set of a variant unknown here, or whose switches the
    engine no longer accepts, is not offered."""
    found = []
    for row in operations.rule_sets.rule_sets(variant_key):
        if _house(row) is None:
            continue
        variant = rules.find_variant(row.variant)
        found.append(OfferedRuleSet(row.id, row.name, row.variant, variant.name, rules_said(row)))
    return found
