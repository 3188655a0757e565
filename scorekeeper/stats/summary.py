"""One player's part in one game, summed up from the game's replayed result.

The definitions, where the rules leave them open:

- A **bid taken** is a played hand the player pitched. A Cinch contract of 0 (the
  dealer naming trump when everyone passed) is not a bid. **Made** is the engine's
  ``made``; the **average bid** is over the bids taken.
- A **set-back** is a bid the player took and was set back on (RULES.md section 3),
  or a hand the player dealt that everyone passed and that set the dealer's side back
  (``all_pass: dealer-set``, section 11.3; it is not a bid). A failed Cinch contract is
  not a set-back (section 6), but it is a bid not made.
- A **smudge attempt** is a bid of the variant's smudge amount while the smudge is
  on; a **smudge made** is a hand the engine marks as a smudge (made from the
  hole too, where it only scores the points).
- **Times in the hole** counts the hands after which the player's side went from
  0 or more to below 0.
- **Units** and **money** are the player's net result from the game's settlement,
  so only a finished game has them; money only where the game had a stake.
- A game is **played** (for the win rate) once it is finished; it is **won** by its
  winner whatever the reason, the most points after the last hand included (11.4).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from decimal import Decimal

from .. import rules
from ..rules.night import game_shares


@dataclass(frozen=True)
class Counts:
    """What a player's statistics add up, game by game: the one declaration of them (the
    ``player_game`` and ``player_stats`` columns are named alike, ``models.Counted``)."""

    bids: int
    bids_made: int
    bid_total: int
    set_backs: int
    smudges_attempted: int
    smudges_made: int
    holes: int
    units: int
    money: Decimal | None


#: The counts that are summed as whole numbers (money is added exactly, apart).
SUMMED: tuple[str, ...] = tuple(f.name for f in fields(Counts) if f.name != "money")


@dataclass(frozen=True)
class PlayerLine(Counts):
    """A player's statistics in one game."""

    player: str
    position: int
    team: str | None
    finished: bool
    won: bool
    score: int
    hands: int


def summarise(result: rules.GameResult) -> dict[str, PlayerLine]:
    """Sum up each seated player's game, by name, in seat order."""
    game = result.game
    variant = game.variant
    smudge_bid = variant.smudge_in_force(game.house_rules)
    counts = {
        p: dict.fromkeys(("bids", "made", "total", "set", "tried", "smudged"), 0)
        for p in game.players
    }
    holes = dict.fromkeys(game.sides, 0)
    before = dict.fromkeys(game.sides, 0)
    for hand in result.hands:
        for side in game.sides:
            if before[side] >= 0 > hand.scores[side]:
                holes[side] += 1
        before = dict(hand.scores)
        if hand.passed and hand.set_back:
            # Everyone passed and the dealer was set back (all_pass: dealer-set): the
            # dealer's set-back, though not a bid (RULES.md 11.3).
            counts[hand.dealer]["set"] += 1
        if hand.passed or not hand.bid or hand.pitcher is None:
            continue
        mine = counts[hand.pitcher]
        mine["bids"] += 1
        mine["total"] += hand.bid
        mine["made"] += bool(hand.made)
        mine["set"] += hand.set_back
        mine["tried"] += smudge_bid is not None and hand.bid == smudge_bid
        mine["smudged"] += rules.Event.SMUDGE in hand.events
    shares = game_shares(result.settlement) if result.settlement is not None else {}
    lines = {}
    for position, player in enumerate(game.players):
        side = game.side_of(player)
        share = shares.get(player)
        mine = counts[player]
        lines[player] = PlayerLine(
            player=player,
            position=position,
            team=side if game.teams is not None else None,
            finished=result.finished,
            won=result.winner == side,
            score=result.scores[side],
            hands=len(result.hands),
            bids=mine["bids"],
            bids_made=mine["made"],
            bid_total=mine["total"],
            set_backs=mine["set"],
            smudges_attempted=mine["tried"],
            smudges_made=mine["smudged"],
            holes=holes[side],
            units=share.units if share else 0,
            money=share.money if share else None,
        )
    return lines
