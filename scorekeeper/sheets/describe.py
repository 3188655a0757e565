"""Say in words what a hand did, as a player at the table would: "Bob made 3"."""

from __future__ import annotations

from .. import rules
from ..i18n import gettext
from ..rules import Event
from .words import bid_words


def _who(game: rules.Game, player: str) -> str:
    """Name a player, with their team in partnership play."""
    if game.teams is None:
        return player
    return f"{player} ({game.side_of(player)})"


def describe_hand(result: rules.GameResult, hand: rules.HandResult) -> str:
    """Describe one scored hand in a sentence or two."""
    game = result.game
    if hand.passed:
        nxt = result.next_dealer if hand.number == len(result.hands) else None
        passed = gettext("Everyone passed.")
        if nxt is None:
            return passed
        return " ".join([passed, gettext("%(dealer)s deals.", dealer=nxt)])
    pitcher = hand.pitcher or ""
    side = game.side_of(pitcher)
    who = _who(game, pitcher)
    parts: list[str] = []
    sale = hand.hand.sale
    if sale is rules.Sale.SOLD:
        parts.append(
            gettext(
                "%(seller)s sold the bid to %(buyer)s for %(bid)s.",
                seller=hand.seller,
                buyer=pitcher,
                bid=hand.bid,
            )
        )
    elif sale is rules.Sale.KEPT:
        parts.append(
            gettext(
                "%(pitcher)s kept the bid at %(bid)s; %(high_bidder)s scores %(bid)s.",
                pitcher=pitcher,
                bid=hand.bid,
                high_bidder=hand.hand.high_bidder,
            )
        )
    elif sale is rules.Sale.PITCHED:
        parts.append(gettext("%(pitcher)s pitched.", pitcher=pitcher))
    if game.variant.scoring is rules.variants.Scoring.CINCH:
        scorer = next((s for s, d in hand.delta.items() if d > 0), None)
        if hand.made:
            parts.append(gettext("%(pitcher)s made %(bid)s.", pitcher=who, bid=hand.bid))
        else:
            parts.append(
                gettext("%(pitcher)s failed the bid of %(bid)s.", pitcher=who, bid=hand.bid)
            )
        if scorer is not None:
            parts.append(
                gettext("%(side)s score %(points)s.", side=scorer, points=hand.delta[scorer])
            )
        else:
            parts.append(gettext("Nobody scores."))
    elif Event.SMUDGE in hand.events and hand.won and result.win_reason is rules.WinReason.SMUDGE:
        return " ".join([*parts, gettext("%(pitcher)s smudges and wins!", pitcher=who)])
    elif hand.made:
        parts.append(gettext("%(pitcher)s made %(bid)s.", pitcher=who, bid=hand.bid))
        if Event.SMUDGE in hand.events:
            parts.append(gettext("A smudge from the hole only scores the points."))
    elif hand.in_the_hole(side):
        parts.append(
            gettext(
                "%(pitcher)s is set back %(bid)s and is in the hole.", pitcher=who, bid=hand.bid
            )
        )
    else:
        parts.append(gettext("%(pitcher)s is set back %(bid)s.", pitcher=who, bid=hand.bid))
    if hand.won and result.win_reason is rules.WinReason.SMUDGE_FAILED:
        parts.append(gettext("A failed smudge loses the game."))
    if hand.won and result.winner is not None:
        parts.append(gettext("%(winner)s wins!", winner=result.winner))
    return " ".join(parts)


def summarize_hand(result: rules.GameResult, hand: rules.HandResult) -> str:
    """Name a hand in a few words, to ask about it: "Bob bid 3, set back"."""
    if hand.passed:
        return gettext("everyone passed")
    return bid_words(hand)
