"""A table's house rules saved under a name: save (asking before replacing), rename, delete,
list, find.

A name is the collection's: one set a name, names matched as players' are (ignoring case
and surrounding spaces, ``rules.game.name_key``). A set holds the switches as a game record
gives them; a game started from it keeps its own copy, so renaming or deleting a set
changes no game.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select

from .. import rules
from ..data import models
from ..data.database import run, write_transaction
from ..data.extensions import db
from ..data.models import utcnow
from ..rules.game import name_key
from .errors import NotFound, OperationError


class NameTaken(OperationError):
    """Another saved set already has this name: ``params`` name it (``name``, ``id``), so the
    page can ask whether to replace it."""

    default = "rule-set-name-taken"


@dataclass(frozen=True)
class RuleSetRow:
    """A table's house rules saved under a name: the switches a game record would give."""

    id: int
    name: str
    variant: str
    house_rules: dict[str, Any]
    created_at: datetime
    updated_at: datetime


_RULE_SET = models.RuleSet.__table__
_RULE_SET_COLUMNS = (
    _RULE_SET.c.id,
    _RULE_SET.c.name,
    _RULE_SET.c.variant,
    _RULE_SET.c.house_rules,
    _RULE_SET.c.created_at,
    _RULE_SET.c.updated_at,
)


def rule_sets(variant_key: str | None = None) -> list[RuleSetRow]:
    """The saved rule sets (of one variant, if given), by name, ignoring case (in Python:
    the two databases sort text differently)."""
    query = select(*_RULE_SET_COLUMNS)
    if variant_key is not None:
        query = query.where(_RULE_SET.c.variant == variant_key)
    found = [RuleSetRow(**row._mapping) for row in run(query)]
    return sorted(found, key=lambda r: (name_key(r.name), r.id))


def rule_set(rule_set_id: int) -> RuleSetRow | None:
    """A saved rule set by its id; None if there is none."""
    found = run(select(*_RULE_SET_COLUMNS).where(_RULE_SET.c.id == rule_set_id)).first()
    return None if found is None else RuleSetRow(**found._mapping)


def named(name: str) -> RuleSetRow | None:
    """The saved set with this name (in any case), or None."""
    wanted = name_key(name)
    return next((r for r in rule_sets() if name_key(r.name) == wanted), None)


def _holder(name: str) -> models.RuleSet | None:
    """The row of the set named ``name`` (in any case), read inside the write."""
    wanted = name_key(name)
    return next(
        (
            r
            for r in db.session.execute(select(models.RuleSet)).scalars()
            if name_key(r.name) == wanted
        ),
        None,
    )


def save_rule_set(name: str, game: rules.Game, *, replacing: int | None = None) -> int:
    """Save ``game``'s house rules under ``name`` in the open transaction; return the set's id.

    A name another set has is refused (``NameTaken``) unless ``replacing`` is that set's id:
    the table said yes to replacing it, and its rules (and variant) become these. Saving
    never replaces a set silently."""
    found = _holder(name)
    if found is not None and found.id != replacing:
        raise NameTaken(name=found.name, id=found.id)
    now = utcnow()
    if found is None:
        found = models.RuleSet(name=name, created_at=now)
        db.session.add(found)
    else:
        found.name = name
    found.variant = game.variant.key
    found.house_rules = dict(game.house_rules_given)
    found.updated_at = now
    db.session.flush()
    return int(found.id)


def rename_rule_set(rule_set_id: int, name: str) -> None:
    """Give a saved set another name (checked as a player's name is); a name another set has
    is refused (``NameTaken``), a change of case of its own is not."""
    rules.game.check_name(name, "rules_name")
    with write_transaction():
        found = db.session.get(models.RuleSet, rule_set_id)
        if found is None:
            raise NotFound("no-rule-set", id=rule_set_id)
        holder = _holder(name)
        if holder is not None and holder.id != rule_set_id:
            raise NameTaken(name=holder.name, id=holder.id)
        found.name = name
        found.updated_at = utcnow()


def delete_rule_set(rule_set_id: int) -> str:
    """Delete a saved set; the games started from it keep their rules. Return its name."""
    with write_transaction():
        found = db.session.get(models.RuleSet, rule_set_id)
        if found is None:
            raise NotFound("no-rule-set", id=rule_set_id)
        name = str(found.name)
        db.session.execute(delete(models.RuleSet).where(models.RuleSet.id == rule_set_id))
        return name
