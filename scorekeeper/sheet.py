"""A score sheet for the terminal: a row per hand, as a pencil sheet would have it."""

from __future__ import annotations

from .rules import Event, GameResult, HandResult

WIN_WORDS = {
    "smudge": "by a smudge",
    "bid-out": "by making the bid (pitcher first)",
    "count-out": "on the count-out",
    "gap": "by a lead of the gap",
    "first-to-target": "first to the target",
}


def ringed(score: int) -> str:
    """Mark a score in the hole the way paper does, with a ring: ``(-3)``."""
    return f"({score})" if score < 0 else str(score)


def hand_outcome(hand: HandResult) -> str:
    """Say in a few words what the hand did: ``made``, ``set back 3``, ``sold, made``."""
    if hand.passed:
        return "passed out"
    words = [e.value for e in hand.events if e in (Event.SOLD, Event.KEPT, Event.PITCHED)]
    if hand.made:
        words.append("made")
    elif Event.SET_BACK in hand.events:
        words.append(f"set back {hand.bid}")
    else:
        words.append("failed")
    if Event.SMUDGE in hand.events:
        words.append("smudge")
    if hand.won:
        words.append("WON")
    return ", ".join(words)


def terminal_sheet(result: GameResult) -> str:
    """Render the whole game as plain text, scores in the hole in parentheses."""
    game = result.game
    sides = result.sides
    rules = game.house_rules
    lines = [f"{game.variant.name}: first to {rules.target}"]
    if game.teams is not None:
        lines.append(
            "Teams: " + "; ".join(f"{side} ({', '.join(game.members(side))})" for side in sides)
        )
    else:
        lines.append("Players: " + ", ".join(game.players))
    width = max([6, *(len(s) for s in sides)])
    names = max([7, *(len(p) for p in game.players)])
    header = (
        f"{'#':>3}  {'Dealer':<{names}}  {'Pitcher':<{names}}  {'Bid':>3}  {'Result':<22}"
        + "".join(f"  {s:>{width}}" for s in sides)
    )
    lines += ["", header, "-" * len(header)]
    for hand in result.hands:
        lines.append(
            f"{hand.number:>3}  {hand.dealer:<{names}}  {hand.pitcher or '':<{names}}  "
            f"{'' if hand.bid is None else hand.bid:>3}  {hand_outcome(hand):<22}"
            + "".join(f"  {ringed(hand.scores[s]):>{width}}" for s in sides)
        )
    lines.append("")
    lines.append("Scores: " + ", ".join(f"{s} {ringed(result.scores[s])}" for s in sides))
    lines.append("(a score in parentheses is in the hole)")
    if result.winner is None:
        lines.append(f"Not finished. Next dealer: {result.next_dealer}")
        return "\n".join(lines)
    reason = WIN_WORDS[result.win_reason.value] if result.win_reason else ""
    lines.append(f"Winner: {result.winner}, {reason}, at hand {result.winning_hand}")
    settlement = result.settlement
    if settlement is not None:
        lines.append("Settlement:")
        for payment in settlement.payments:
            unit_word = "unit" if payment.units == 1 else "units"
            money = f" = {payment.amount:.2f}" if payment.amount is not None else ""
            lines.append(
                f"  {payment.payer} pays {payment.payee} {payment.units} {unit_word}{money}"
            )
        if not settlement.payments:
            lines.append("  nobody owes anything")
    return "\n".join(lines)
