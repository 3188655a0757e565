"""Say in words what a hand did, as a player at the table would: "Bob made 3"."""

from __future__ import annotations

from .. import rules
from ..rules import Event


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
        return "Everyone passed." + (f" {nxt} deals." if nxt else "")
    pitcher = hand.pitcher or ""
    side = game.side_of(pitcher)
    parts: list[str] = []
    sale = hand.hand.sale
    if sale is rules.Sale.SOLD:
        parts.append(f"{hand.seller} sold the bid to {pitcher} for {hand.bid}.")
    elif sale is rules.Sale.KEPT:
        parts.append(
            f"{pitcher} kept the bid at {hand.bid}; {hand.hand.high_bidder} scores {hand.bid}."
        )
    elif sale is rules.Sale.PITCHED:
        parts.append(f"{pitcher} pitched.")
    if game.variant.scoring is rules.variants.Scoring.CINCH:
        scorer = next((s for s, d in hand.delta.items() if d > 0), None)
        if hand.made:
            parts.append(f"{_who(game, pitcher)} made {hand.bid}.")
        else:
            parts.append(f"{_who(game, pitcher)} failed the bid of {hand.bid}.")
        if scorer is not None:
            parts.append(f"{scorer} score {hand.delta[scorer]}.")
        else:
            parts.append("Nobody scores.")
    elif Event.SMUDGE in hand.events and hand.won and result.win_reason is rules.WinReason.SMUDGE:
        return " ".join([*parts, f"{_who(game, pitcher)} smudges and wins!"])
    elif hand.made:
        parts.append(f"{_who(game, pitcher)} made {hand.bid}.")
        if Event.SMUDGE in hand.events:
            parts.append("A smudge from the hole only scores the points.")
    else:
        in_hole = " and is in the hole" if hand.scores[side] < 0 else ""
        parts.append(f"{_who(game, pitcher)} is set back {hand.bid}{in_hole}.")
    if hand.won and result.winner is not None:
        parts.append(f"{result.winner} wins!")
    return " ".join(parts)
