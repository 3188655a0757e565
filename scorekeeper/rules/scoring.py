"""Scoring a game: replay its hands in order (RULES.md sections 3, 6, 7 and 9).

``score_game`` is the one entry point. It checks every hand against the rules
and the scores so far, and returns plain frozen values: a ``HandResult`` per
hand, the running scores, the winner, how they won, and the settlement.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from .errors import N_, Phrase, RuleError, quote
from .game import PITCHED_BID, Game, Hand, Sale, check_note, in_the_hole
from .settlement import Settlement, settle
from .variants import GAME_COUNT_MAX, AllPass, Scoring, Smudge, SmudgeFailed, WinRule


class WinReason(StrEnum):
    SMUDGE = "smudge"
    SMUDGE_FAILED = "smudge-failed"
    BID_OUT = "bid-out"
    COUNT_OUT = "count-out"
    GAP = "gap"
    FIRST_TO_TARGET = "first-to-target"
    #: The last hand was reached and one side is alone at the top (RULES.md 11.4).
    MOST_POINTS = "most-points"


#: How a sheet says the game was won (N_: translated where shown).
WIN_WORDS: dict[WinReason, str] = {
    WinReason.SMUDGE: N_("by a smudge"),
    WinReason.SMUDGE_FAILED: N_("by the other side's failed smudge"),
    WinReason.BID_OUT: N_("by making the bid (pitcher first)"),
    WinReason.COUNT_OUT: N_("on the count-out"),
    WinReason.GAP: N_("by a lead of the gap"),
    WinReason.FIRST_TO_TARGET: N_("first to the target"),
    WinReason.MOST_POINTS: N_("with the most points"),
}


class Event(StrEnum):
    """What happened in a hand, in the order GAME-RECORD.md lists them."""

    SOLD = "sold"
    KEPT = "kept"
    PITCHED = "pitched"
    MADE = "made"
    SET_BACK = "set-back"
    SMUDGE = "smudge"
    WON = "won"
    PASSED = "passed"


#: How a hand's outcome says a Sell-Out sale (N_: translated where shown).
SALE_WORDS: dict[Event, str] = {
    Event.SOLD: N_("sold"),
    Event.KEPT: N_("kept"),
    Event.PITCHED: N_("pitched"),
}


@dataclass(frozen=True)
class HandResult:
    """One scored hand. ``taken`` is None for a passed-out hand; ``delta`` includes sale points.

    ``dealer`` is who dealt the hand: the usual dealer (``usual_dealer``, who was due to
    deal it) unless the hand names another (GAME-RECORD.md, a hand's own ``dealer``).
    """

    number: int
    dealer: str
    #: Who was due to deal the hand: the first dealer, or the next after the hand before.
    usual_dealer: str
    hand: Hand
    made: bool | None
    taken: Mapping[str, int] | None
    delta: Mapping[str, int]
    scores: Mapping[str, int]
    events: tuple[Event, ...]
    seller: str | None = None
    #: What the set-back cost: the bid of a played hand set back, or the lowest bid on a
    #: passed hand that set the dealer's side back (``all_pass: dealer-set``); else None.
    set_back_by: int | None = None

    @property
    def out_of_turn(self) -> bool:
        """Whether someone other than the usual dealer dealt the hand."""
        return self.dealer != self.usual_dealer

    @property
    def passed(self) -> bool:
        return self.hand.passed

    @property
    def pitcher(self) -> str | None:
        return self.hand.pitcher

    @property
    def bid(self) -> int | None:
        return self.hand.bid

    @property
    def won(self) -> bool:
        return Event.WON in self.events

    @property
    def set_back(self) -> bool:
        return Event.SET_BACK in self.events

    @property
    def sale_scorer(self) -> str | None:
        """Sell-Out: who scores the bid as sale points (RULES.md section 7), else None."""
        return sale_scorer(self.hand, self.seller)

    def in_the_hole(self, side: str) -> bool:
        """Whether ``side`` is below zero after this hand."""
        return in_the_hole(self.scores[side])


@dataclass(frozen=True)
class GameResult:
    """A whole game replayed: per-hand results, final standings, winner and settlement."""

    game: Game
    hands: tuple[HandResult, ...]
    scores: Mapping[str, int]
    setbacks: Mapping[str, int]
    winner: str | None
    win_reason: WinReason | None
    winning_hand: int | None
    next_dealer: str | None
    settlement: Settlement | None
    #: The number of the hand with which the game's hand limit (``Game.hand_limit``: its
    #: ``hands`` or time ``called``) was reached, or None: from then on the side alone at
    #: the top after a played hand wins (RULES.md 11.4).
    limit_hand: int | None = None

    @property
    def sides(self) -> tuple[str, ...]:
        return self.game.sides

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def played(self) -> int:
        """How many hands were played (passed-out hands are not: RULES.md 11.4)."""
        return sum(1 for hand in self.hands if not hand.passed)

    @property
    def hands_left(self) -> int | None:
        """How many more played hands the game's hand limit (``Game.hand_limit``) allows,
        0 once it is reached (a shared top plays on); None for a game without one."""
        limit = self.game.hand_limit
        return None if limit is None else max(limit - self.played, 0)

    @property
    def time_can_be_called(self) -> bool:
        """Whether a tournament director may still call time on the game: not won, not
        called already, and more than the hand being played left before its count of hands
        ends it (calling time then would change nothing)."""
        left = self.hands_left
        return not self.finished and self.game.called is None and (left is None or left > 1)

    def time_called_now(self) -> Game:
        """The game with time called after the hand being played (RULES.md 11.4): its
        ``called`` is the number of hands played so far and the one under way."""
        return self.game.call_time(self.played + 1)

    def in_the_hole(self, side: str) -> bool:
        """Whether ``side`` ends the game (so far) below zero."""
        return in_the_hole(self.scores[side])


def sale_scorer(hand: Hand, seller: str | None) -> str | None:
    """Who scores a Sell-Out hand's bid as sale points: the seller of a sold hand, the high
    bidder of a kept one; nobody on a pitched hand or outside Sell-Out (RULES.md section 7)."""
    if hand.sale is Sale.SOLD:
        return seller
    if hand.sale is Sale.KEPT:
        return hand.high_bidder
    return None


def score_game(game: Game, hands: Sequence[Hand], *, after: GameResult | None = None) -> GameResult:
    """Replay ``hands`` of ``game`` in order and return the result.

    ``after`` is the result of this game's first hands, already scored (a hand added to a
    game scored before): only the hands past them are replayed, from where it left the
    scores, the set-backs and the deal; the result is the one replaying them all gives.

    Raise RuleError, placed at the offending hand, for the first hand that breaks
    a rule (RULES.md section 9), including any hand after the game was won.
    Each hand is dealt by its own ``dealer`` if it names one, else by the usual dealer,
    and the next usual dealer follows from who really dealt (GAME-RECORD.md).
    A game with a hand limit (the ``hands`` switch, or time ``called``: RULES.md 11.4)
    that no side has won by sections 3 to 7 when its last played hand is reached is won
    by the side alone at the top then, or after the first played hand that leaves one.
    """
    sides = game.sides
    scores = dict.fromkeys(sides, 0)
    setbacks = dict.fromkeys(sides, 0)
    usual: str | None = game.dealer_first
    results: list[HandResult] = []
    winner: str | None = None
    reason: WinReason | None = None
    winning_hand: int | None = None
    limit = game.hand_limit
    played = 0
    limit_hand: int | None = None
    if after is not None:
        _check_scored_before(game, hands, after)
        scores, setbacks = dict(after.scores), dict(after.setbacks)
        usual, results = after.next_dealer, list(after.hands)
        winner, reason, winning_hand = after.winner, after.win_reason, after.winning_hand
        played, limit_hand = after.played, after.limit_hand
    for number, hand in enumerate(hands[len(results) :], start=len(results) + 1):
        if winner is not None:
            raise RuleError("hand-after-win", hand=number, winner=winner, winning_hand=winning_hand)
        assert usual is not None  # None only once the game is won
        try:
            dealer = _dealer_of(game, hand, usual)
            result, won = _score_hand(game, number, (dealer, usual), hand, scores)
        except RuleError as error:
            raise error.at_hand(number) from None
        if limit is not None and not hand.passed:
            played += 1
            if played == limit:
                limit_hand = number
            if won is None and played >= limit:
                won = _most_points(result.scores)
                if won is not None:
                    result = replace(result, events=(*result.events, Event.WON))
        results.append(result)
        scores = dict(result.scores)
        if result.set_back:
            # The pitcher's side, or on a passed hand the dealer's (RULES.md 11.3).
            setbacks[game.side_of(result.dealer if hand.passed else hand.pitcher or "")] += 1
        if won is not None:
            winner, reason = won
            winning_hand = number
        usual = _next_dealer(game, dealer, hand)
    settlement = settle(game, winner, scores, setbacks) if winner is not None else None
    return GameResult(
        game=game,
        hands=tuple(results),
        scores=scores,
        setbacks=setbacks,
        winner=winner,
        win_reason=reason,
        winning_hand=winning_hand,
        next_dealer=None if winner is not None else usual,
        settlement=settlement,
        limit_hand=limit_hand,
    )


def _check_scored_before(game: Game, hands: Sequence[Hand], after: GameResult) -> None:
    """Refuse to go on from a result that is not of this game's first hands (a caller's bug)."""
    if not (after.game is game or after.game == game) or len(after.hands) > len(hands):
        raise ValueError("score_game(after=...): a result of another game, or of more hands")
    for done, hand in zip(after.hands, hands, strict=False):
        if done.hand is not hand and done.hand != hand:
            raise ValueError(f"score_game(after=...): hand {done.number} is not the one scored")


def _most_points(scores: Mapping[str, int]) -> tuple[str, WinReason] | None:
    """The side alone at the top, once the last hand is reached (RULES.md 11.4); None while
    two or more sides share the highest score, and the game goes on."""
    top = max(scores.values())
    leaders = [side for side, score in scores.items() if score == top]
    return (leaders[0], WinReason.MOST_POINTS) if len(leaders) == 1 else None


def _next_dealer(game: Game, dealer: str, hand: Hand) -> str:
    """Who is due to deal after ``dealer`` dealt ``hand`` (RULES.md section 1): the deal passes
    left; a passed-out hand may be redealt by the same dealer."""
    if hand.passed and game.house_rules.all_pass is AllPass.REDEAL_SAME_DEALER:
        return dealer
    return game.left_of(dealer)


def _dealer_of(game: Game, hand: Hand, usual: str) -> str:
    """Who dealt ``hand``: the hand's own dealer, a seated player, or else the usual one."""
    if hand.dealer is None:
        return usual
    if hand.dealer not in game.seated:
        raise RuleError(
            "unknown-player", field="dealer", role=Phrase(N_("dealer")), name=quote(hand.dealer)
        )
    return hand.dealer


def usual_dealers(game: Game, hands: Sequence[Hand]) -> list[str]:
    """Who was due to deal each of ``hands``, in order, without scoring them (GAME-RECORD.md:
    the usual dealer follows from the actual dealer of the hand before). A hand's own dealer
    who is not seated is left to ``score_game`` to refuse; here it is the usual one."""
    due: list[str] = []
    usual = game.dealer_first
    for hand in hands:
        due.append(usual)
        dealer = hand.dealer if hand.dealer is not None and hand.dealer in game.seated else usual
        usual = _next_dealer(game, dealer, hand)
    return due


def _score_hand(
    game: Game,
    number: int,
    dealers: tuple[str, str],
    hand: Hand,
    before: Mapping[str, int],
) -> tuple[HandResult, tuple[str, WinReason] | None]:
    """Check and score one hand from the scores ``before`` it, dealt by the first of
    ``dealers`` when the second was due to deal; return it and any win."""
    if hand.note is not None:
        check_note(hand.note)
    if hand.passed:
        return _score_passed(game, number, dealers, hand, before), None
    dealer = dealers[0]
    variant = game.variant
    seller = game.seller_for(dealer)
    _check_played(game, dealer, hand, seller)
    pitcher = hand.pitcher
    bid = hand.bid
    assert pitcher is not None and bid is not None  # checked above
    side_map = game.side_map
    sides = game.sides
    pitching_side = side_map[pitcher]
    taken = dict.fromkeys(sides, 0)
    points = hand.points
    for point in variant.points:
        taker = points[point.key]
        if taker is not None:
            taken[side_map[taker]] += point.value
    made = taken[pitching_side] >= bid
    events: list[Event] = []
    sale_points: dict[str, int] | None = None  # only a Sell-Out hand has sale points
    if hand.sale is not None:
        sale_points = dict.fromkeys(sides, 0)
        events.append(Event(hand.sale.value))
        _check_sale(game, hand, seller or "", before)
        scorer = sale_scorer(hand, seller)
        if scorer is not None:
            sale_points[game.side_of(scorer)] += bid
    if variant.scoring is Scoring.CINCH:
        play = _cinch_play(game, pitching_side, bid, taken)
        if made:
            events.append(Event.MADE)
    else:
        play = dict(taken)
        if made:
            events.append(Event.MADE)
            if variant.pitcher_scores_bid:
                play[pitching_side] = bid
        else:
            events.append(Event.SET_BACK)
            play[pitching_side] = -bid
    # ``play`` is this hand's own dict, so it can be the delta when there is no sale.
    delta = (
        play if sale_points is None else {side: sale_points[side] + play[side] for side in sides}
    )
    after = {side: before[side] + delta[side] for side in sides}
    smudge_bid = variant.smudge_in_force(game.house_rules)
    smudged = smudge_bid is not None and bid == smudge_bid and made
    if smudged:
        events.append(Event.SMUDGE)
    failed_smudge = smudge_bid is not None and bid == smudge_bid and not made
    set_back_by = bid if Event.SET_BACK in events else None
    won = _find_winner(game, hand, before, sale_points, play, after, made, smudged, failed_smudge)
    if won is not None:
        events.append(Event.WON)
    result = HandResult(
        number=number,
        dealer=dealer,
        usual_dealer=dealers[1],
        hand=hand,
        made=made,
        taken=taken,
        delta=delta,
        scores=after,
        events=tuple(events),
        seller=seller,
        set_back_by=set_back_by,
    )
    return result, won


def _score_passed(
    game: Game, number: int, dealers: tuple[str, str], hand: Hand, before: Mapping[str, int]
) -> HandResult:
    """Score a passed-out hand, where the dealer need not take the bid: nothing (RULES.md
    section 3), or with ``all_pass: dealer-set`` the dealer's side set back by the lowest bid
    (section 11.3). No side wins on a passed hand."""
    dealer = dealers[0]
    all_pass = game.house_rules.all_pass
    min_bid = game.variant.min_bid
    if all_pass is AllPass.DEALER_TAKES:
        raise RuleError("passed-not-allowed", field="passed", min=min_bid)
    delta = dict.fromkeys(game.sides, 0)
    events: tuple[Event, ...] = (Event.PASSED,)
    set_back_by = None
    if all_pass is AllPass.DEALER_SET:
        delta[game.side_of(dealer)] = -min_bid
        events = (Event.PASSED, Event.SET_BACK)
        set_back_by = min_bid
    return HandResult(
        number=number,
        dealer=dealer,
        usual_dealer=dealers[1],
        hand=hand,
        made=None,
        taken=None,
        delta=delta,
        scores={side: before[side] + delta[side] for side in game.sides},
        events=events,
        seller=game.seller_for(dealer),
        set_back_by=set_back_by,
    )


def _check_played(game: Game, dealer: str, hand: Hand, seller: str | None) -> None:
    """Check a played hand's pitcher, bid, points and sale fields (RULES.md section 9)."""
    variant = game.variant
    seated = game.seated
    if hand.pitcher not in seated:
        raise RuleError(
            "unknown-player", field="pitcher", role=Phrase(N_("pitcher")), name=quote(hand.pitcher)
        )
    bid = hand.bid
    if bid is None or isinstance(bid, bool) or not isinstance(bid, int):
        raise RuleError(
            "wrong-type", field="bid", expected=Phrase(N_("a whole number")), actual=quote(bid)
        )
    if bid == 0 and variant.min_bid > 0:
        raise RuleError("bid-zero", field="bid")
    if bid < variant.min_bid:
        raise RuleError(
            "bid-below-min", field="bid", bid=bid, min=variant.min_bid, variant=variant.name
        )
    if bid > variant.max_bid:
        raise RuleError(
            "bid-above-max", field="bid", bid=bid, max=variant.max_bid, variant=variant.name
        )
    if bid == 0 and game.side_of(hand.pitcher) != game.side_of(dealer):
        raise RuleError(
            "bid-zero-pitcher", field="pitcher", dealer=quote(dealer), pitcher=quote(hand.pitcher)
        )
    for key in hand.points:
        if key not in variant.point_keys:
            raise RuleError(
                "point-unknown",
                field=f"points.{key}",
                variant=variant.name,
                point=key,
                allowed=", ".join(variant.point_keys),
            )
    for point in variant.points:
        if point.key not in hand.points:
            raise RuleError(
                "point-missing", field=f"points.{point.key}", point=point.key, variant=variant.name
            )
        taker = hand.points[point.key]
        if taker is None:
            if not point.may_be_nobody:
                raise RuleError("point-nobody", field=f"points.{point.key}", point_name=point.name)
        elif taker not in seated:
            raise RuleError(
                "unknown-player",
                field=f"points.{point.key}",
                role=Phrase(N_("{point} taker"), point=Phrase(point.name)),
                name=quote(taker),
            )
    if hand.game_count is not None:
        _check_game_count(game, hand, hand.game_count)
    if not variant.sales:
        if hand.sale is not None:
            raise RuleError("sale-not-allowed", field="sale", key="sale")
        if hand.high_bidder is not None:
            raise RuleError("sale-not-allowed", field="high_bidder", key="high_bidder")
        return
    if hand.sale is None:
        raise RuleError("sale-missing", field="sale")
    if hand.sale is Sale.KEPT:
        if hand.high_bidder is None:
            raise RuleError("high-bidder-missing", field="high_bidder")
        if hand.high_bidder not in seated:
            raise RuleError(
                "unknown-player",
                field="high_bidder",
                role=Phrase(N_("high bidder")),
                name=quote(hand.high_bidder),
            )
    elif hand.high_bidder is not None:
        raise RuleError("high-bidder-not-allowed", field="high_bidder")


#: What each card counts toward Game (RULES.md section 2): tens 10, aces 4, kings 3,
#: queens 2, jacks 1. The Jokers and the Off-Jack count nothing.
GAME_COUNT_CARDS: tuple[tuple[str, int], ...] = (
    ("ten", 10),
    ("ace", 4),
    ("king", 3),
    ("queen", 2),
    ("jack", 1),
)


def counts_by_side(game: Game, counts: Mapping[str, int]) -> dict[str, int]:
    """Add the players' counts toward Game up by side, in the game's side order."""
    by_side = dict.fromkeys(game.sides, 0)
    for name, value in counts.items():
        if name in game.seated:
            by_side[game.side_of(name)] += value
    return by_side


def game_by_count(game: Game, counts: Mapping[str, int]) -> str | None:
    """Who is credited with Game by these counts (RULES.md section 10): a player of the side
    with the strictly highest count (the one of them who counted most, the first seat on a
    tie), or None when the highest count is shared."""
    by_side = counts_by_side(game, counts)
    high = max(by_side.values())
    leaders = [side for side, value in by_side.items() if value == high]
    if len(leaders) > 1:
        return None
    members = game.members(leaders[0])
    return max(members, key=lambda name: (counts.get(name, 0), -members.index(name)))


def _check_game_count(game: Game, hand: Hand, counts: Mapping[str, int]) -> None:
    """Check a hand's Game count against who took ``game`` (RULES.md section 10).

    Every seated player is counted, each count a whole number ≥ 0, at most 80 in all;
    ``game`` goes to a player of the side with the strictly highest count, or to
    nobody when the highest count is shared.
    """
    variant = game.variant
    if not variant.counts_game:
        raise RuleError("game-count-not-allowed", field="game_count", variant=variant.name)
    for name in counts:
        if name not in game.seated:
            raise RuleError("game-count-unknown", field="game_count", name=quote(name))
    for name in game.players:
        if name not in counts:
            raise RuleError("game-count-missing", field=f"game_count.{name}", name=name)
        value = counts[name]
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise RuleError(
                "game-count-value", field=f"game_count.{name}", name=name, value=quote(value)
            )
    total = sum(counts.values())
    if total > GAME_COUNT_MAX:
        raise RuleError("game-count-total", field="game_count", total=total, max=GAME_COUNT_MAX)
    by_side = counts_by_side(game, counts)
    # Highest first; on equal counts, seat order, so the message names sides steadily.
    ranked = sorted(game.sides, key=lambda side: -by_side[side])
    leader, runner_up = ranked[0], ranked[1] if len(ranked) > 1 else ranked[0]
    high = by_side[leader]
    shared = len(ranked) > 1 and by_side[runner_up] == high
    taker = hand.points.get("game")
    if taker is None:
        if not shared:
            raise RuleError(
                "game-count-nobody",
                field="points.game",
                leader=leader,
                high=high,
                other=runner_up,
                low=by_side[runner_up],
            )
        return
    side = game.side_of(taker)
    if shared:
        raise RuleError("game-count-tied", field="points.game", taker=taker, count=high)
    if side != leader:
        raise RuleError(
            "game-count-disagrees",
            field="points.game",
            taker=taker,
            leader=leader,
            high=high,
            other=side,
            low=by_side[side],
        )


def sale_allowed(game: Game, hand: Hand, seller: str, before: Mapping[str, int]) -> bool:
    """Whether a Sell-Out hand's sale may be made at these scores (``before``: each side's
    score before the hand): who pitches it, its bid, and the two restrictions of section 7.
    For whoever makes up hands (the seed), so that only the engine knows the rule."""
    try:
        _check_sale(game, hand, seller, before)
    except RuleError:
        return False
    return True


def _check_sale(game: Game, hand: Hand, seller: str, before: Mapping[str, int]) -> None:
    """Check a Sell-Out hand against who may pitch and the two restrictions of section 7."""
    bid = hand.bid or 0
    target = game.house_rules.target
    if hand.sale is Sale.PITCHED:
        if hand.pitcher != seller:
            raise RuleError(
                "pitched-pitcher",
                field="pitcher",
                seller=quote(seller),
                pitcher=quote(hand.pitcher),
            )
        if bid != PITCHED_BID:
            raise RuleError("pitched-bid", field="bid", bid=bid)
        return
    if hand.sale is Sale.SOLD and hand.pitcher == seller:
        raise RuleError("sold-to-seller", field="pitcher", seller=quote(seller))
    if hand.sale is Sale.KEPT:
        if hand.pitcher != seller:
            raise RuleError(
                "kept-pitcher",
                field="pitcher",
                seller=quote(seller),
                pitcher=quote(hand.pitcher),
            )
        if hand.high_bidder == seller:
            raise RuleError("high-bidder-seller", field="high_bidder", seller=quote(seller))
    if target is None:
        return  # RULES.md 11.4: without a target neither restriction applies.
    seller_score = before[game.side_of(seller)]
    if seller_score + bid >= target:
        raise RuleError(
            "sale-gives-game",
            field="bid",
            bid=bid,
            seller=quote(seller),
            score=seller_score,
            target=target,
        )
    if hand.sale is Sale.KEPT:
        high_score = before[game.side_of(hand.high_bidder or "")]
        if high_score + bid >= target:
            raise RuleError(
                "kept-gives-game",
                field="sale",
                seller=quote(seller),
                high_bidder=quote(hand.high_bidder),
                score=high_score,
                bid=bid,
                target=target,
            )


def _cinch_play(
    game: Game, pitching_side: str, bid: int, taken: Mapping[str, int]
) -> dict[str, int]:
    """Score a Cinch hand (RULES.md section 6): only one side scores, and nobody is set back."""
    other = next(side for side in game.sides if side != pitching_side)
    b, o = taken[pitching_side], taken[other]
    play = dict.fromkeys(game.sides, 0)
    if b >= bid:
        if b > o:
            play[pitching_side] = b - o
        elif o > b:
            play[other] = o - b
    else:
        play[other] = game.variant.points_in_play + (bid - b)
    return play


def _find_winner(
    game: Game,
    hand: Hand,
    before: Mapping[str, int],
    sale_points: Mapping[str, int] | None,
    play: Mapping[str, int],
    after: Mapping[str, int],
    made: bool,
    smudged: bool,
    failed_smudge: bool = False,
) -> tuple[str, WinReason] | None:
    """Apply section 3 step 4: smudge, pitcher first, count-out (or first to target), gap.

    Before them all, with ``smudge_failed: loses`` (section 10), a failed smudge or
    moon bid loses the game at once: the other side (there are exactly two) wins.
    A game without a target (section 11.4) is won by none of them.
    """
    variant = game.variant
    rules = game.house_rules
    target = rules.target
    if target is None:
        return None
    side_map = game.side_map
    pitching_side = side_map[hand.pitcher or ""]
    if failed_smudge and rules.smudge_failed is SmudgeFailed.LOSES:
        other = next(side for side in game.sides if side != pitching_side)
        return other, WinReason.SMUDGE_FAILED
    if smudged and (rules.smudge is Smudge.ALWAYS or before[pitching_side] >= 0):
        return pitching_side, WinReason.SMUDGE
    if variant.win_rule is WinRule.FIRST_TO_TARGET:
        # Only one side scores in a Cinch hand, so at most one side can cross the target.
        for side in game.sides:
            if after[side] >= target:
                return side, WinReason.FIRST_TO_TARGET
        return None
    if made and after[pitching_side] >= target:
        return pitching_side, WinReason.BID_OUT
    if variant.win_rule is WinRule.COUNT_OUT:
        running = (
            dict(before)
            if sale_points is None
            else {side: before[side] + sale_points[side] for side in game.sides}
        )
        running[pitching_side] += play[pitching_side]
        for point in variant.points:
            taker = hand.points[point.key]
            if taker is None:
                continue
            side = side_map[taker]
            if side == pitching_side:
                continue
            running[side] += point.value
            if running[side] >= target:
                return side, WinReason.COUNT_OUT
    if variant.gap:
        leader = max(game.sides, key=after.__getitem__)
        if after[leader] >= target and all(
            after[leader] - after[side] >= variant.gap for side in game.sides if side != leader
        ):
            return leader, WinReason.GAP
    return None


def next_game(result: GameResult) -> Game:
    """The next game at the same table: the same seats, partnerships, variant, house rules
    and stake, the deal continuing to the left (RULES.md section 1): its first dealer is
    whoever would deal after the last hand recorded (the first dealer again, with none)."""
    game = result.game
    dealer = game.dealer_first
    if result.hands:
        last = result.hands[-1]
        dealer = _next_dealer(game, last.dealer, last.hand)
    # Time called on one game is not called on the next (RULES.md 11.4).
    return replace(game, first_dealer=dealer, called=None)
