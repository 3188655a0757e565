"""A score sheet for the terminal: a row per hand, as a pencil sheet would have it."""

from __future__ import annotations

from ..i18n import gettext, money, ngettext
from ..rules import GameResult
from .words import hand_outcome, limit_words, play_to_words, ringed, win_words


def _cell(text: str, width: int, right: bool = False) -> str:
    return f"{text:>{width}}" if right else f"{text:<{width}}"


def terminal_sheet(result: GameResult) -> str:
    """Render the whole game as plain text, scores in the hole in parentheses."""
    game = result.game
    sides = result.sides
    lines = [
        gettext(
            "%(variant)s: %(play_to)s",
            variant=gettext(game.variant.name),
            play_to=play_to_words(game),
        )
    ]
    if game.called is not None:
        lines.append(
            ngettext(
                "Time called after %(num)s played hand.",
                "Time called after %(num)s played hands.",
                game.called,
            )
        )
    if game.teams is not None:
        teams = "; ".join(f"{side} ({', '.join(game.members(side))})" for side in sides)
        lines.append(gettext("Teams: %(teams)s", teams=teams))
    else:
        lines.append(gettext("Players: %(players)s", players=", ".join(game.players)))
    dealer, pitcher, bid, outcome = (
        gettext("Dealer"),
        gettext("Pitcher"),
        gettext("Bid"),
        gettext("Result"),
    )
    width = max([6, *(len(s) for s in sides)])
    names = max([7, len(dealer), len(pitcher), *(len(p) for p in game.players)])
    bids = max(3, len(bid))
    outcomes = max([22, len(outcome), *(len(hand_outcome(h)) for h in result.hands)])
    header = (
        f"{'#':>3}  {_cell(dealer, names)}  {_cell(pitcher, names)}  {_cell(bid, bids, True)}  "
        f"{_cell(outcome, outcomes)}" + "".join(f"  {s:>{width}}" for s in sides)
    )
    lines += ["", header, "-" * len(header)]
    for hand in result.hands:
        lines.append(
            f"{hand.number:>3}  {hand.dealer:<{names}}  {hand.pitcher or '':<{names}}  "
            f"{'' if hand.bid is None else hand.bid:>{bids}}  {hand_outcome(hand):<{outcomes}}"
            + "".join(f"  {ringed(hand.scores[s]):>{width}}" for s in sides)
        )
    lines.append("")
    scores = ", ".join(f"{s} {ringed(result.scores[s])}" for s in sides)
    lines.append(gettext("Scores: %(scores)s", scores=scores))
    lines.append(gettext("(a score in parentheses is in the hole)"))
    if result.winner is None:
        lines.append(gettext("Not finished. Next dealer: %(dealer)s", dealer=result.next_dealer))
        if result.limit_hand is not None:
            lines.append(
                gettext(
                    "The top score is shared after hand %(hand)s: the game goes on until one "
                    "side is alone at the top.",
                    hand=result.limit_hand,
                )
            )
        return "\n".join(lines)
    ended = limit_words(result)
    if ended:
        # RULES.md 11.4: the hand is in the words (most points after hand 6).
        lines.append(gettext("Winner: %(winner)s, %(how)s", winner=result.winner, how=ended))
    else:
        lines.append(
            gettext(
                "Winner: %(winner)s, %(how)s, at hand %(hand)s",
                winner=result.winner,
                how=win_words(result.win_reason.value if result.win_reason else None),
                hand=result.winning_hand,
            )
        )
    settlement = result.settlement
    if settlement is not None:
        lines.append(gettext("Settlement:"))
        for payment in settlement.payments:
            units = ngettext("%(num)s unit", "%(num)s units", payment.units)
            if payment.amount is not None:
                lines.append(
                    "  "
                    + gettext(
                        "%(payer)s pays %(payee)s %(units)s = %(amount)s",
                        payer=payment.payer,
                        payee=payment.payee,
                        units=units,
                        amount=money(payment.amount),
                    )
                )
            else:
                lines.append(
                    "  "
                    + gettext(
                        "%(payer)s pays %(payee)s %(units)s",
                        payer=payment.payer,
                        payee=payment.payee,
                        units=units,
                    )
                )
        if not settlement.payments:
            lines.append("  " + gettext("nobody owes anything"))
    return "\n".join(lines)
