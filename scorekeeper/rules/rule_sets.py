"""Ready-made rule sets (RULES.md 11.2): the family's other games as named starting points.

7-, 9-, 11- and 13-Point Pitch, Smear, Sancho and Dom Pedro are not variants of their own:
each is a preset of section 4 with exactly the switches of the table in 11.2, declared
once here as data. A game made from one is the preset and those switches, as any table's
own rules (the record stores the variant and its ``house_rules``, never the set's key), so
a table may change any switch further. Find one by key with ``find_rule_set``, as a variant
is found with ``find_variant``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property
from types import MappingProxyType
from typing import Any

from .errors import N_
from .game import Game
from .variants import VARIANTS, HouseRules, Variant


@dataclass(frozen=True)
class RuleSet:
    """One ready-made rule set: its key, its name and one-line summary at the table (N_:
    translated where shown), the preset it starts from, and exactly its switches."""

    key: str
    name: str
    summary: str
    #: The key of the preset (section 4), as the record's ``variant`` names it.
    variant: str
    #: The switches of RULES.md 11.2's table, as a record's ``house_rules`` writes them.
    switches: Mapping[str, Any]

    @property
    def preset(self) -> Variant:
        return VARIANTS[self.variant]

    def house_rules(self, changes: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The switches a game of this set records: the set's, with a table's own
        ``changes`` over them (a new dict, its lists new too, for a form to change)."""
        own = {name: list(v) if isinstance(v, tuple) else v for name, v in self.switches.items()}
        return {**own, **(changes or {})}

    @cached_property
    def house(self) -> HouseRules:
        """The value in force of every switch in a game of this set (RULES.md 5, 10, 11)."""
        return self.preset.house_rules(self.house_rules())

    @cached_property
    def played(self) -> Variant:
        """The preset as a game of this set plays it: its points, bids and smudge bid."""
        return self.preset.shaped(self.house)

    def create(
        self,
        players: Sequence[str],
        *,
        house_rules: Mapping[str, Any] | None = None,
        teams: Mapping[str, Sequence[str]] | None = None,
        first_dealer: str | None = None,
        stake: str | Decimal | None = None,
    ) -> Game:
        """Set up a game of this rule set (``Game.create``), with a table's own
        ``house_rules`` over the set's switches."""
        return Game.create(
            self.variant,
            players,
            house_rules=self.house_rules(house_rules),
            teams=teams,
            first_dealer=first_dealer,
            stake=stake,
        )


def _switches(**switches: Any) -> Mapping[str, Any]:
    return MappingProxyType(switches)


#: The Jokers, the Jack and the Off-Jack of 10-Point Pitch, which the sets built on it keep.
_TEN_POINT_TRUMPS = ("high", "low", "jack", "off_jack", "big_joker", "little_joker")

RULE_SETS: dict[str, RuleSet] = {
    r.key: r
    for r in (
        RuleSet(
            key="seven-point",
            name=N_("7-Point Pitch"),
            summary=N_(
                "10-Point Pitch with the Ten, and no Three or Game: seven points, bid 3 to 7, "
                "first to 21; a made bid of 7 shoots the moon."
            ),
            variant="ten-point",
            switches=_switches(points=(*_TEN_POINT_TRUMPS, "ten"), min_bid=3, target=21),
        ),
        RuleSet(
            key="nine-point",
            name=N_("9-Point Pitch (Catch Five)"),
            summary=N_(
                "Auction Pitch with the Pedro (five of trumps) worth 5: nine points, bid 3 to 9, "
                "first to 31, no smudge."
            ),
            variant="auction-pitch",
            switches=_switches(
                points=("high", "low", "jack", "pedro", "game"),
                min_bid=3,
                smudge_bid=None,
                target=31,
            ),
        ),
        RuleSet(
            key="eleven-point",
            name=N_("11-Point Pitch"),
            summary=N_(
                "10-Point Pitch with the Ten and the Off-Ace in place of Game: eleven points, "
                "bid 5 to 11, first to 52; a made bid of 11 shoots the moon."
            ),
            variant="ten-point",
            switches=_switches(points=(*_TEN_POINT_TRUMPS, "ten", "three", "off_ace"), min_bid=5),
        ),
        RuleSet(
            key="thirteen-point",
            name=N_("13-Point Pitch"),
            summary=N_(
                "10-Point Pitch with the Ten and the Off-Three (3) in place of Game: thirteen "
                "points, bid 5 to 13, first to 52; a made bid of 13 shoots the moon."
            ),
            variant="ten-point",
            switches=_switches(points=(*_TEN_POINT_TRUMPS, "ten", "three", "off_three"), min_bid=5),
        ),
        RuleSet(
            key="ten-point-with-ten",
            name=N_("10-Point Pitch with the Ten"),
            summary=N_(
                "10-Point Pitch with the Ten in place of Game: ten points, bid 4 to 10, "
                "first to 52; a made bid of 10 shoots the moon."
            ),
            variant="ten-point",
            switches=_switches(points=(*_TEN_POINT_TRUMPS, "three", "ten")),
        ),
        RuleSet(
            key="smear",
            name=N_("5-Point Smear"),
            summary=N_(
                "Auction Pitch with the Off-Jack: five points, bid 2 to 5, first to 11, no "
                "smudge; if everyone passes, the dealer is set back 2."
            ),
            variant="auction-pitch",
            switches=_switches(
                points=("high", "low", "jack", "off_jack", "game"),
                smudge_bid=None,
                all_pass="dealer-set",
                target=11,
            ),
        ),
        RuleSet(
            key="sancho-pedro",
            name=N_("Sancho Pedro"),
            summary=N_(
                "Pedro with the Nine (nine of trumps) worth 9: eighteen points, bid 1 to 18, "
                "first to 50."
            ),
            variant="pedro",
            switches=_switches(points=("high", "low", "jack", "game", "pedro", "nine"), target=50),
        ),
        RuleSet(
            key="dom-pedro",
            name=N_("Dom Pedro"),
            summary=N_(
                "Sancho Pedro with the Three worth 3: twenty-one points, bid 1 to 21, first to 50."
            ),
            variant="pedro",
            switches=_switches(
                points=("high", "low", "jack", "game", "pedro", "nine", "three"), target=50
            ),
        ),
    )
}


def find_rule_set(key: str) -> RuleSet:
    """Return the ready-made rule set named by ``key``; raise ValueError for an unknown key."""
    try:
        return RULE_SETS[key]
    except KeyError:
        raise ValueError(f"unsupported rule set: {key!r}") from None
