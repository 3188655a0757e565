"""A game as rows: the row types a game is read as, and the conversion between rows and the
engine's values (names in the engine, seat positions in the database)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any

from .. import rules
from ..data import models


@dataclass(frozen=True)
class NightRef:
    """What a game page shows of the game's night (as ``models.Night`` would give it)."""

    name: str
    place: str | None


@dataclass(frozen=True)
class GameRow:
    """A game's row as a page reads it, with its night's name and place: the columns of
    ``models.Game`` without the ORM, whose bookkeeping cost more than the query did on every
    page and every hand (bench/hotspots.py). Read-only; a change goes through the ORM or an
    UPDATE of the table."""

    id: int
    variant: str
    house_rules: dict[str, Any]
    teams: list[Any] | None
    first_dealer_seat: int | None
    stake: str | None
    version: int
    finished: bool
    winner: str | None
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    night_id: int | None
    night: NightRef | None
    #: The game "Play again" started from this one, if it has (see ``play_again``).
    next_game_id: int | None = None
    #: Time called after this many played hands (RULES.md 11.4), if it was.
    called: int | None = None
    #: Each hand waits for a player of another side to confirm it (``operations.trail``).
    confirm_hands: bool = False
    #: The version the scores last changed at (a confirmation bumps ``version`` only).
    score_version: int = 0
    #: When every side signed the result (locked since), if it was.
    signed_at: datetime | None = None


@dataclass(frozen=True)
class Loaded:
    """A game row with its engine values and its replayed result."""

    row: GameRow
    game: rules.Game
    hands: tuple[rules.Hand, ...]
    result: rules.GameResult
    #: Its players' ids, in seat order (the statistics rows a change rewrites are theirs).
    player_ids: tuple[int, ...]
    #: Its statistics rows by player id, as read with its lock for a change (else None).
    stats: Mapping[int, Mapping[str, Any]] | None = None

    @property
    def names(self) -> tuple[str, ...]:
        return self.game.players


#: A game's engine values: its game, its hands and their result; and its players' ids.
Replay = tuple[rules.Game, tuple[rules.Hand, ...], rules.GameResult, tuple[int, ...]]


def game_row(found: Any) -> GameRow:
    values = found._mapping
    night = None
    if values["night_id"] is not None and "night_name" in values:
        night = NightRef(values["night_name"], values["night_place"])
    return GameRow(**{name: values[name] for name in GAME_COLUMNS}, night=night)


GAME_COLUMNS = [f.name for f in fields(GameRow) if f.name != "night"]


# --- Between rows and the engine's values ---------------------------------------------------


def engine_game(row: GameRow, names: Sequence[str]) -> rules.Game:
    """Build the engine's game from a game row (checked again, as any setup is); ``names``
    are its seated players in seat order."""
    teams = None
    if row.teams is not None:
        teams = {team: [names[pos] for pos in positions] for team, positions in row.teams}
    first_dealer = names[row.first_dealer_seat] if row.first_dealer_seat is not None else None
    return rules.Game.create(
        row.variant,
        names,
        house_rules=row.house_rules or {},
        teams=teams,
        first_dealer=first_dealer,
        called=row.called,
        stake=row.stake,
    )


def engine_hand(row: models.Hand | Any, names: Sequence[str]) -> rules.Hand:
    """Build the engine's hand from a hand row (or its columns), turning seats into names."""
    dealer = None if row.dealer_seat is None else names[row.dealer_seat]
    if row.passed:
        return rules.Hand.passed_out(row.note, dealer)
    # Written out rather than through a helper: a list page builds hundreds of these.
    pitcher, high_bidder, sale = row.pitcher_seat, row.high_bidder_seat, row.sale
    counts = row.game_count
    return rules.Hand(
        pitcher=None if pitcher is None else names[pitcher],
        bid=row.bid,
        points={
            key: None if seat is None else names[seat] for key, seat in (row.points or {}).items()
        },
        sale=rules.Sale(sale) if sale else None,
        high_bidder=None if high_bidder is None else names[high_bidder],
        note=row.note,
        game_count=None if counts is None else dict(zip(names, counts, strict=True)),
        dealer=dealer,
    )


def hand_columns(hand: rules.Hand, seat_of: Mapping[str, int]) -> dict[str, Any]:
    """Turn an engine hand (already checked) into column values, names into seat positions."""

    def seat(name: str | None) -> int | None:
        return None if name is None else seat_of[name]

    if hand.passed:
        return {
            "passed": True,
            "pitcher_seat": None,
            "bid": None,
            "points": None,
            "sale": None,
            "high_bidder_seat": None,
            "note": hand.note,
            "game_count": None,
            "dealer_seat": seat(hand.dealer),
        }
    return {
        "passed": False,
        "pitcher_seat": seat(hand.pitcher),
        "bid": hand.bid,
        "points": {key: seat(name) for key, name in hand.points.items()},
        "sale": hand.sale.value if hand.sale else None,
        "high_bidder_seat": seat(hand.high_bidder),
        "note": hand.note,
        # Checked already: every seated player is counted, so a list in seat order holds it.
        "game_count": None
        if hand.game_count is None
        else [hand.game_count[name] for name in sorted(seat_of, key=seat_of.__getitem__)],
        "dealer_seat": seat(hand.dealer),
    }
