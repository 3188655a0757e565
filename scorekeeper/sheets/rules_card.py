"""A rules card: a game's rules, one sentence each, said from the engine's own data.

Every fact on the card (bids, points, smudge, who scores Low, the target, the payouts)
is read from the variant as the game plays it and its house rules; every sentence is the
engine's (``SWITCH_SENTENCES``, ``CARD_SENTENCES``, ``SCORING_SENTENCES``,
``SALE_SENTENCES``, ``PAYOUT_SENTENCES``), in the current language. No web library:
the page and the printed card render the same lines.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from .. import i18n
from ..i18n import N_, gettext
from ..rules.game import PITCHED_BID, SALE_LIMITS_SENTENCE, SALE_SENTENCES, Game
from ..rules.rule_sets import RuleSet
from ..rules.settlement import PAYOUT_OUT_OF_HOLE, PAYOUT_SENTENCES
from ..rules.variants import (
    CARD_SENTENCES,
    SCORING_SENTENCES,
    SWITCH_SENTENCES,
    HouseRules,
    Scoring,
    Variant,
    low_to_applies,
)

#: One rule of the card: its key (a switch's name, ``point:<key>``, ``sale:<sale>``...)
#: and its sentence in the current language.
Line = tuple[str, str]
#: The key of a point's line is ``point:<point key>``.
POINT = "point:"

#: The card's parts, in order, each with the rule keys (or key prefixes) it holds.
SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (N_("Bidding"), ("bids", "smudge", "smudge_failed", "all_pass", "sale:", "sale_limits")),
    (N_("Points, in count-out order"), (POINT, "low_to", "game_tie")),
    (N_("Scoring a hand"), ("made", "set_back", "defenders")),
    (N_("Going out"), ("target", "hands", "win_rule", "gap")),
    (N_("Payouts"), ("payout_in_hole", "payout_per_setback", "stake")),
)


@dataclass(frozen=True)
class RulesCard:
    """A card as a page shows it: its title, and its lines in parts under their headings."""

    title: str
    subtitle: str
    lines: tuple[Line, ...]
    #: A ready-made rule set's one-line summary, which its card says under the title.
    summary: str = ""

    @property
    def sections(self) -> list[Section]:
        """The lines under their headings (a heading with no line is left out)."""
        parts = []
        for heading, keys in SECTIONS:
            held = [line for line in self.lines if _held(line[0], keys)]
            if held:
                counted = tuple(key.startswith(POINT) for key, _sentence in held)
                parts.append(Section(gettext(heading), tuple(held), counted))
        return parts


@dataclass(frozen=True)
class Section:
    """A part of the card: its heading, its lines, and which of them are counted points
    (numbered, in count-out order)."""

    heading: str
    lines: tuple[Line, ...]
    counted: tuple[bool, ...]

    @property
    def numbered(self) -> bool:
        return any(self.counted)

    def items(self) -> list[tuple[str, str, bool]]:
        """Each line with whether it is a counted point: ``(key, sentence, counted)``."""
        return [
            (key, text, counted)
            for (key, text), counted in zip(self.lines, self.counted, strict=True)
        ]


def _held(key: str, keys: tuple[str, ...]) -> bool:
    return any(key == k or (k.endswith(":") and key.startswith(k)) for k in keys)


def _switch(switch: str, value: object, /, **params: object) -> str:
    return gettext(SWITCH_SENTENCES[(switch, str(value))], **params)


def card_lines(variant: Variant, house: HouseRules, *, stake: str | None = None) -> list[Line]:
    """Say every rule of a game played as ``variant`` (shaped by ``house``), one sentence each,
    in the card's order: bidding, points, scoring, going out, payouts."""
    lines: list[Line] = []
    said = CARD_SENTENCES
    if variant.min_bid:
        lines.append(("bids", gettext(said["bids"], min=variant.min_bid, max=variant.max_bid)))
    else:
        lines.append(("bids", gettext(said["bids_from_zero"], max=variant.max_bid)))
    smudge_bid = variant.smudge_in_force(house)
    if variant.smudge_bid is None:
        lines.append(("smudge", gettext(said["no_smudge"])))
    else:
        name = gettext(variant.smudge_name)
        lines.append(("smudge", _switch("smudge", house.smudge, name=name, bid=variant.smudge_bid)))
    if smudge_bid is not None:
        lines.append(
            ("smudge_failed", _switch("smudge_failed", house.smudge_failed, bid=smudge_bid))
        )
    lines.append(("all_pass", _switch("all_pass", house.all_pass, min=variant.min_bid)))
    if variant.sales:
        for sale, sentence in SALE_SENTENCES.items():
            lines.append((f"sale:{sale}", gettext(sentence, bid=PITCHED_BID)))
        if house.target is not None:  # no limit on a sale without a target (RULES.md 11.4)
            lines.append(("sale_limits", gettext(SALE_LIMITS_SENTENCE, target=house.target)))
    for point in variant.points:
        text = gettext(
            said["point"], name=gettext(point.name), value=point.value, help=gettext(point.help)
        )
        lines.append((f"{POINT}{point.key}", text))
    if any(low_to_applies(point) for point in variant.points):
        lines.append(("low_to", _switch("low_to", house.low_to)))
    if variant.counts_game:
        lines.append(("game_tie", _switch("game_tie", house.game_tie)))
    scoring = SCORING_SENTENCES[variant.scoring]
    if variant.scoring is Scoring.STANDARD:
        lines.append(("made", _switch("pitcher_scores", house.pitcher_scores)))
    for key, sentence in scoring.items():
        lines.append((key, gettext(sentence, total=variant.points_in_play)))
    if house.target is None:
        # RULES.md 11.4: only the count of hands ends the game, so no win rule applies.
        lines.append(("target", gettext(said["no_target"])))
    else:
        lines.append(("target", gettext(said["target"], target=house.target)))
    if house.hands is not None:
        lines.append(("hands", gettext(said["hands"], hands=house.hands)))
    if house.target is not None:
        order = ", ".join(gettext(point.name) for point in variant.points)
        lines.append(
            ("win_rule", _switch("win_rule", variant.win_rule, target=house.target, points=order))
        )
        if variant.gap:
            lines.append(("gap", gettext(said["gap"], target=house.target, gap=variant.gap)))
    paid = PAYOUT_SENTENCES
    lines.append(
        (
            "payout_in_hole",
            gettext(paid["payout_in_hole"], base=PAYOUT_OUT_OF_HOLE, units=house.payout_in_hole),
        )
    )
    if house.payout_per_setback:
        lines.append(
            (
                "payout_per_setback",
                gettext(paid["payout_per_setback"], units=house.payout_per_setback),
            )
        )
    if stake is not None and Decimal(stake) > 0:
        lines.append(("stake", gettext(paid["stake"], stake=i18n.money(Decimal(stake)))))
    return lines


def variant_card(variant: Variant) -> RulesCard:
    """The card of a variant as its preset plays it (no game, no stake)."""
    return RulesCard(
        title=gettext(variant.name),
        subtitle=gettext(variant.description),
        lines=tuple(card_lines(variant, variant.preset)),
    )


def game_card(game: Game, game_id: int) -> RulesCard:
    """The card of one game: its variant shaped by its house rules, and its stake."""
    return RulesCard(
        title=gettext(game.variant.name),
        subtitle=gettext("game %(number)s", number=game_id),
        lines=tuple(card_lines(game.variant, game.house_rules, stake=game.stake)),
    )


def rule_set_card(rule_set: RuleSet) -> RulesCard:
    """The card of a ready-made rule set (RULES.md 11.2): its preset shaped by its switches."""
    return RulesCard(
        title=gettext(rule_set.name),
        subtitle=gettext("played as %(variant)s", variant=gettext(rule_set.preset.name)),
        lines=tuple(card_lines(rule_set.played, rule_set.house)),
        summary=gettext(rule_set.summary),
    )
