"""A table's house rules saved under a name: save, list, find."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from .. import rules
from ..data import models
from ..data.database import run
from ..data.extensions import db
from ..data.models import utcnow


def save_rule_set(name: str, game: rules.Game) -> None:
    found = db.session.execute(
        select(models.RuleSet).where(models.RuleSet.name == name)
    ).scalar_one_or_none()
    if found is None:
        found = models.RuleSet(name=name)
        db.session.add(found)
    found.variant = game.variant.key
    found.house_rules = dict(game.house_rules_given)
    found.updated_at = utcnow()


@dataclass(frozen=True)
class RuleSetRow:
    """A table's house rules saved under a name: the switches a game record would give."""

    id: int
    name: str
    variant: str
    house_rules: dict[str, Any]


_RULE_SET = models.RuleSet.__table__
_RULE_SET_COLUMNS = (_RULE_SET.c.id, _RULE_SET.c.name, _RULE_SET.c.variant, _RULE_SET.c.house_rules)


def rule_sets(variant_key: str | None = None) -> list[RuleSetRow]:
    """The saved rule sets (of one variant, if given), by name."""
    query = select(*_RULE_SET_COLUMNS).order_by(_RULE_SET.c.name)
    if variant_key is not None:
        query = query.where(_RULE_SET.c.variant == variant_key)
    return [RuleSetRow(**found._mapping) for found in run(query)]


def rule_set(rule_set_id: int) -> RuleSetRow | None:
    """A saved rule set by its id; None if there is none."""
    found = run(select(*_RULE_SET_COLUMNS).where(_RULE_SET.c.id == rule_set_id)).first()
    return None if found is None else RuleSetRow(**found._mapping)
