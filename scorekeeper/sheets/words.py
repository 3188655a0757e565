"""The words a sheet says about a hand, a win and a changed house rule, and a hand in a
sentence ("Bob made 3"), in the current language, from the engine's own (``rules``). No
web library: the terminal sheet says the same. Every name a sentence writes is
``i18n.isolated``: a right-to-left name cannot reorder the words after it."""

from __future__ import annotations

from .. import rules
from ..i18n import gettext, isolated, ngettext
from ..rules import (
    SALE_WORDS,
    WIN_WORDS,
    Event,
    Game,
    GameResult,
    HandResult,
    WinReason,
    in_the_hole,
)


def win_words(reason: str | None) -> str:
    """Say how the game was won (``by a smudge``), in the current language."""
    return gettext(WIN_WORDS[WinReason(reason)]) if reason else ""


def limit_words(result: GameResult) -> str:
    """Say how a game that reached its last hand ended (RULES.md 11.4): ``most points after
    hand 6``, ``time called after hand 3``, or ``most points after hand 5 (time called after
    hand 4)`` when a shared top played on; "" for a game won any other way, or not won."""
    if result.win_reason is not WinReason.MOST_POINTS:
        return ""
    won = gettext("most points after hand %(hand)s", hand=result.winning_hand)
    if not result.game.limit_is_called:
        return won
    called = gettext("time called after hand %(hand)s", hand=result.limit_hand)
    return called if result.limit_hand == result.winning_hand else f"{won} ({called})"


def play_to_words(game: Game) -> str:
    """Say what ends the game: ``first to 7``, ``first to 7, or the most points after 10
    hands``, ``the most points after 4 hands`` (RULES.md 3, 11.4)."""
    rules = game.house_rules
    if rules.hands is None:
        return gettext("first to %(target)s", target=rules.target)
    if rules.target is None:
        return ngettext(
            "the most points after %(num)s hand", "the most points after %(num)s hands", rules.hands
        )
    return ngettext(
        "first to %(target)s, or the most points after %(num)s hand",
        "first to %(target)s, or the most points after %(num)s hands",
        rules.hands,
        target=rules.target,
    )


def limit_line(result: GameResult) -> str:
    """Say, for a game not over that its count of hands or time called ends (RULES.md
    11.4), how many hands are left or that time was called: ``3 hands left: the highest
    score after hand 8 wins; a tie plays on.``, ``Time called: the highest score after hand
    5 wins; a tie plays on.``, or that the top is shared past the last hand; "" for a game
    over, or one only its target ends. The hand named is the one the limit falls on if no
    hand is passed out meanwhile (passed-out hands do not count)."""
    left = result.hands_left
    if result.finished or left is None:
        return ""
    called = result.game.limit_is_called
    if left == 0:
        if called:
            return gettext(
                "Time was called after hand %(hand)s and the top is shared: the game plays "
                "on until one side is alone at the top after a hand.",
                hand=result.limit_hand,
            )
        return gettext(
            "Hand %(hand)s was the last, and the top is shared: the game plays on until one "
            "side is alone at the top after a hand.",
            hand=result.limit_hand,
        )
    last = len(result.hands) + left
    if called:
        return gettext(
            "Time called: the highest score after hand %(hand)s wins; a tie plays on.", hand=last
        )
    return ngettext(
        "%(num)s hand left: the highest score after hand %(hand)s wins; a tie plays on.",
        "%(num)s hands left: the highest score after hand %(hand)s wins; a tie plays on.",
        left,
        hand=last,
    )


def ringed(score: int) -> str:
    """Mark a score in the hole the way paper does, with a ring: ``(-3)``."""
    return f"({score})" if in_the_hole(score) else str(score)


def hand_outcome(hand: HandResult) -> str:
    """Say in a few words what the hand did: ``made``, ``set back 3``, ``sold, made``."""
    if hand.passed:
        if hand.set_back:
            # all_pass: dealer-set (RULES.md 11.3): the dealer's side pays the lowest bid.
            return gettext("passed out, dealer set back %(bid)s", bid=hand.set_back_by)
        return gettext("passed out")
    words = [gettext(SALE_WORDS[e]) for e in hand.events if e in SALE_WORDS]
    if hand.made:
        words.append(gettext("made"))
    elif Event.SET_BACK in hand.events:
        words.append(gettext("set back %(bid)s", bid=hand.bid))
    else:
        words.append(gettext("failed"))
    if Event.SMUDGE in hand.events:
        words.append(gettext("smudge"))
    if hand.won:
        words.append(gettext("WON"))
    return ", ".join(words)


def bid_words(hand: HandResult) -> str:
    """Say the bid and what became of it, as the sheet's bid box does: ``Ann bid 3, made it``
    ("" for a hand with no bid)."""
    if hand.passed or hand.pitcher is None:
        return ""
    pitcher = isolated(hand.pitcher)
    if hand.made:
        return gettext("%(pitcher)s bid %(bid)s, made it", pitcher=pitcher, bid=hand.bid)
    if hand.set_back:
        return gettext("%(pitcher)s bid %(bid)s, set back", pitcher=pitcher, bid=hand.bid)
    return gettext("%(pitcher)s bid %(bid)s, failed", pitcher=pitcher, bid=hand.bid)


def sale_words(hand: HandResult) -> str:
    """Say how a Sell-Out hand's contract came about, as a paper sheet writes it under the
    pitcher: ``bought from Bob``, ``kept; Ann bid``, ``pitched`` ("" for any other hand)."""
    sale = hand.hand.sale
    if sale is rules.Sale.SOLD:
        return gettext("bought from %(seller)s", seller=isolated(hand.seller or ""))
    if sale is rules.Sale.KEPT:
        return gettext("kept; %(bidder)s bid", bidder=isolated(hand.hand.high_bidder or ""))
    if sale is rules.Sale.PITCHED:
        return gettext("pitched")
    return ""


def house_rule_words(name: str, value: object, preset: object) -> str:
    """Say a changed house-rule switch as a table would: ``first to 200 (not 7)``."""
    if name == "target":
        if value is None:
            return gettext("no target: only the count of hands ends the game")
        return gettext("first to %(target)s (not %(preset)s)", target=value, preset=preset)
    if name == "hands" and isinstance(value, int):
        return ngettext(
            "the game ends after %(num)s played hand",
            "the game ends after %(num)s played hands",
            value,
        )
    if name == "payout_in_hole" and isinstance(value, int):
        return ngettext(
            "a loser in the hole pays %(num)s unit (not %(preset)s)",
            "a loser in the hole pays %(num)s units (not %(preset)s)",
            value,
            preset=preset,
        )
    if name == "payout_per_setback" and isinstance(value, int):
        return ngettext(
            "a loser pays %(num)s more unit per set-back",
            "a loser pays %(num)s more units per set-back",
            value,
        )
    if name == "points" and isinstance(value, list):
        names = ", ".join(gettext(rules.POINTS[key].name) for key in value)
        return gettext("points in play: %(points)s", points=names)
    if name == "min_bid":
        return gettext("bids from %(bid)s (not %(preset)s)", bid=value, preset=preset)
    if name == "max_bid":
        return gettext("bids up to %(bid)s (not %(preset)s)", bid=value, preset=preset)
    if name == "smudge_bid" and value is not None:
        return gettext("the smudge bid is %(bid)s", bid=value)
    if name == "gap" and value:
        return gettext("a lead of %(gap)s at the target wins", gap=value)
    words = rules.SWITCH_WORDS.get((name, str(value)))
    return gettext(words) if words is not None else f"{name}: {value}"


def house_rules_said(variant: rules.Variant, house: rules.HouseRules) -> tuple[str, ...]:
    """Say every switch a table changed from ``variant``'s preset, in the preset's order, as a
    sheet says it (``first to 11 (not 7)``)."""
    preset = variant.preset.as_dict()
    return tuple(
        house_rule_words(name, value, preset[name])
        for name, value in house.as_dict().items()
        if value != preset[name]
    )


# --- A hand in a sentence, as a player at the table would say it: "Bob made 3" ---------


def _who(game: rules.Game, player: str) -> str:
    """Name a player, with their team in partnership play."""
    if game.teams is None:
        return isolated(player)
    return f"{isolated(player)} ({isolated(game.side_of(player))})"


def describe_hand(result: rules.GameResult, hand: rules.HandResult) -> str:
    """Describe one scored hand in a sentence or two."""
    game = result.game
    if hand.passed:
        nxt = result.next_dealer if hand.number == len(result.hands) else None
        passed = gettext("Everyone passed.")
        if hand.set_back:
            # all_pass: dealer-set (RULES.md 11.3): the dealer's side is set back.
            passed = gettext(
                "Everyone passed: %(dealer)s is set back %(bid)s.",
                dealer=_who(game, hand.dealer),
                bid=hand.set_back_by,
            )
        if nxt is None:
            return passed
        return " ".join([passed, gettext("%(dealer)s deals.", dealer=isolated(nxt))])
    side = game.side_of(hand.pitcher or "")
    who = _who(game, hand.pitcher or "")
    pitcher = isolated(hand.pitcher or "")
    parts: list[str] = []
    sale = hand.hand.sale
    if sale is rules.Sale.SOLD:
        parts.append(
            gettext(
                "%(seller)s sold the bid to %(buyer)s for %(bid)s.",
                seller=isolated(hand.seller or ""),
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
                high_bidder=isolated(hand.hand.high_bidder or ""),
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
                gettext(
                    "%(side)s score %(points)s.", side=isolated(scorer), points=hand.delta[scorer]
                )
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
        parts.append(gettext("%(winner)s wins!", winner=isolated(result.winner)))
    return " ".join(parts)


def summarize_hand(result: rules.GameResult, hand: rules.HandResult) -> str:
    """Name a hand in a few words, to ask about it: "Bob bid 3, set back"."""
    if hand.passed:
        if hand.set_back:
            return gettext("everyone passed, the dealer set back")
        return gettext("everyone passed")
    return bid_words(hand)
