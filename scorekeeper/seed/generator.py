"""Made-up game nights: every game played through the engine, hand by hand.

Every game is a legal game with a real result (the engine has the last word on each hand),
grouped into nights of a few games each, at a few clubs of regulars. Pure: nothing here
reads or writes a database (``operations.seeded.write_seeded`` writes what it makes;
``scorekeeper seed`` is the command). The same seed gives the same games.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from .. import rules
from ..operations.seeded import SeededGame, SeededNight
from .tables import (
    BID_WEIGHTS,
    FIRST_NAMES,
    NIGHT_NAMES,
    NOBODY_CHANCE,
    OWN_SHAPES,
    PLACES,
    STAKES,
    TARGETS,
    VARIANT_WEIGHTS,
)


@dataclass
class Club:
    """A group of regulars who play together; each player has a knack for making bids."""

    members: list[str]
    knack: dict[str, float] = field(default_factory=dict)


def _weighted(rng: random.Random, weights: dict[Any, int]) -> Any:
    return rng.choices(list(weights), weights=list(weights.values()))[0]


def random_setup(rng: random.Random, present: Sequence[str], stake: str | None) -> rules.Game:
    """Choose a variant, seats, partnerships and house rules the way a table would."""
    variant = rules.find_variant(_weighted(rng, VARIANT_WEIGHTS))
    if variant.teams_required:
        seats = 6 if len(present) >= 6 and rng.random() < 0.2 else 4
    else:
        most = min(variant.max_seats, len(present), 6)
        seats = rng.randint(max(variant.min_seats, 3), max(most, 3))
    players = rng.sample(list(present), seats)
    teams = None
    if variant.teams_required or (seats in (4, 6) and rng.random() < 0.3):
        size = 2 if (seats == 4 or (not variant.teams_required and rng.random() < 0.5)) else 3
        count = seats // size
        names = ("Us", "Them", "Others") if count <= 3 else ()
        # Partners sit across the table: seat i plays with seats i + count, i + 2*count ...
        teams = {names[t]: [players[i] for i in range(t, seats, count)] for t in range(count)}
    house: dict[str, Any] = {}
    target = rng.choice(TARGETS[variant.key])
    if target != variant.preset.target:
        house["target"] = target
    if rng.random() < 0.2:
        house["payout_per_setback"] = 1
    if variant.smudge_bid is not None and rng.random() < 0.1:
        house["smudge"] = "always"
    # "Pitch, but...": some tables play their own shape (RULES.md section 10).
    own_shape = OWN_SHAPES.get(variant.key)
    if own_shape is not None and rng.random() < own_shape[0]:
        house.update(copy.deepcopy(own_shape[1]))
        if "smudge_failed" in house and not (teams and len(teams) == 2):
            house["smudge_failed"] = "set-back"
    if stake is not None and rng.random() < 0.1:
        stake = rng.choice([s for s in STAKES if s])
    return rules.Game.create(
        variant,
        players,
        house_rules=house,
        teams=teams,
        first_dealer=rng.choice(players),
        stake=stake,
    )


def _points(
    rng: random.Random, game: rules.Game, pitcher: str, knack: float
) -> dict[str, str | None]:
    """Deal out the points: the pitcher's side takes each one more often than not."""
    side = game.side_of(pitcher)
    partners = game.members(side)
    others = [p for p in game.players if game.side_of(p) != side]
    points: dict[str, str | None] = {}
    for point in game.variant.points:
        if point.may_be_nobody and rng.random() < NOBODY_CHANCE.get(point.key, 0.05):
            points[point.key] = None
        elif rng.random() < knack:
            points[point.key] = rng.choice(partners)
        else:
            points[point.key] = rng.choice(others)
    return points


#: The sales, each falling back to the one before it when the scores forbid it.
_SALES = (rules.Sale.PITCHED, rules.Sale.SOLD, rules.Sale.KEPT)


def random_hand(
    rng: random.Random, game: rules.Game, club: Club, dealer: str, scores: dict[str, int]
) -> rules.Hand:
    """Make up one legal-looking hand (the engine has the last word)."""
    variant = game.variant
    if game.house_rules.all_pass is not rules.AllPass.DEALER_TAKES and rng.random() < 0.04:
        return rules.Hand.passed_out()
    # A table's own min_bid raises the lowest bid; the weights are the preset's.
    bid = max(_weighted(rng, BID_WEIGHTS[variant.key]), variant.min_bid)
    if not variant.sales:
        pitcher = rng.choice(game.players)
        knack = club.knack.get(pitcher, 0.55) + 0.02 * (variant.max_bid - bid)
        if variant.teams_required:  # a Cinch bid of 7 or more of 14 means a strong hand
            knack += 0.12
        return rules.Hand(pitcher=pitcher, bid=bid, points=_points(rng, game, pitcher, knack))
    seller = game.seller_for(dealer)
    assert seller is not None  # a game with sales always has a seller
    others = [p for p in game.players if p != seller]
    wanted = rng.choices(_SALES, weights=(20, 50, 30))[0]
    high = rng.choice(others)
    # The table's wish first, then the next one the scores allow (a pitched hand always is):
    # the engine says which a sale may be at these scores.
    for sale in _SALES[_SALES.index(wanted) :: -1]:
        if sale is rules.Sale.SOLD:  # bought by the high bidder, who pitches it
            hand = rules.Hand(pitcher=high, bid=bid, points={}, sale=sale)
        elif sale is rules.Sale.KEPT:  # the seller pitches, and the high bidder scores the bid
            hand = rules.Hand(pitcher=None, bid=bid, points={}, sale=sale, high_bidder=high)
        else:  # pitched: the seller plays the engine's contract
            hand = rules.Hand(pitcher=None, bid=None, points={}, sale=sale)
        hand = game.filled_in(hand, dealer)
        if rules.sale_allowed(game, hand, seller, scores):
            break
    assert hand.pitcher is not None
    knack = club.knack.get(hand.pitcher, 0.55)
    return dataclasses.replace(hand, points=_points(rng, game, hand.pitcher, knack))


def play_game(
    rng: random.Random, game: rules.Game, club: Club, most_hands: int = 400
) -> tuple[list[rules.Hand], rules.GameResult]:
    """Play hands until someone wins, checking them with the engine in batches.

    A batch is made up ahead (the deal's rotation is known); the engine then
    says where the game was won, or which hand broke a rule, and we cut there.
    Sell-Out hands depend on the scores, so that variant goes one hand at a time.
    """
    hands: list[rules.Hand] = []
    result = rules.score_game(game, hands)
    batch = 1 if game.variant.sales else 30
    refusals = 0
    while not result.finished and len(hands) < most_hands and refusals < 50:
        dealer = result.next_dealer or game.players[0]
        scores = dict(result.scores)
        for _ in range(batch):
            hand = random_hand(rng, game, club, dealer, scores)
            hands.append(hand)
            if not (hand.passed and game.house_rules.all_pass is rules.AllPass.REDEAL_SAME_DEALER):
                dealer = game.left_of(dealer)
        try:
            result = rules.score_game(game, hands)
        except rules.RuleError as error:
            # Keep the hands before the first one refused (or after the winning one).
            refusals += error.code != "hand-after-win"
            hands = hands[: (error.hand or 1) - 1]
            result = rules.score_game(game, hands)
    return hands, result


def _clubs(rng: random.Random, players: int) -> list[Club]:
    names = list(FIRST_NAMES)
    while len(names) < players:
        names.append(f"{rng.choice(FIRST_NAMES)} {chr(65 + len(names) % 26)}.")
    names = list(dict.fromkeys(names))[:players]
    rng.shuffle(names)
    size = max(8, len(names) // 3)
    clubs = [Club(names[i : i + size]) for i in range(0, len(names), size)]
    for club in clubs:
        club.knack = {name: rng.uniform(0.37, 0.53) for name in club.members}
    if len(clubs) > 1 and len(clubs[-1].members) < 6:
        clubs[-2].members += clubs.pop().members
        clubs[-1].knack = {name: rng.uniform(0.37, 0.53) for name in clubs[-1].members}
    return clubs


def generate(
    games: int, *, seed: int = 0, players: int = 48, end: date | None = None
) -> Iterator[SeededNight | SeededGame]:
    """Make up ``games`` games in nights of 3 to 8, one night every few days up to ``end``."""
    rng = random.Random(seed)
    clubs = _clubs(rng, players)
    end = end or date.today()
    nights: list[int] = []
    left = games
    while left > 0:
        size = min(left, rng.randint(3, 8))
        nights.append(size)
        left -= size
    day = end - timedelta(days=2 * len(nights))
    for number, size in enumerate(nights, start=1):
        day += timedelta(days=rng.choice((1, 2, 2, 3)) if number > 1 else 0)
        club = rng.choice(clubs)
        present = rng.sample(club.members, min(len(club.members), rng.randint(4, 8)))
        stake = rng.choice(STAKES)
        yield SeededNight(
            number, f"{rng.choice(NIGHT_NAMES)} {day:%d %b %Y}", rng.choice(PLACES), day
        )
        moment = datetime(day.year, day.month, day.day, 19, rng.randint(0, 59))
        for _ in range(size):
            game = random_setup(rng, present, stake)
            hands, result = play_game(rng, game, club)
            yield SeededGame(number, moment, game, hands, result)
            moment += timedelta(minutes=len(hands) * 2 + rng.randint(3, 15))
