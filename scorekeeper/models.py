"""What the table recorded, as database rows: players, games, seats and hands.

Standings are never stored as truth: they come from replaying the hands through
the engine (``scorekeeper.rules``). The few derived columns on ``Game``
(``finished``, ``winner``) are a cache for listing pages, rewritten by every
write in ``operations``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from . import rules
from .extensions import db


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class Player(db.Model):  # type: ignore[name-defined,misc]
    """A person on the roster, shared across games."""

    __tablename__ = "player"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(rules.NAME_MAX), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    seats: Mapped[list[Seat]] = relationship(back_populates="player")


class Game(db.Model):  # type: ignore[name-defined,misc]
    """One game: its variant, the house rules the table changed, its stake and its seats.

    ``house_rules`` holds only the switches the table set, as given, so a game
    exports exactly as it was imported. ``version`` goes up with every change; a
    form carries it, so a submission made against an older state is refused.
    """

    __tablename__ = "game"

    id: Mapped[int] = mapped_column(primary_key=True)
    variant: Mapped[str] = mapped_column(String(32))
    house_rules: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    # [[team name, [seat positions...]], ...] in the order the table named them; null = no teams.
    teams: Mapped[list[Any] | None] = mapped_column(JSON, default=None)
    first_dealer_seat: Mapped[int | None] = mapped_column(default=None)
    stake: Mapped[str | None] = mapped_column(String(32), default=None)
    version: Mapped[int] = mapped_column(default=0)
    finished: Mapped[bool] = mapped_column(default=False)
    winner: Mapped[str | None] = mapped_column(String(rules.NAME_MAX), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(default=None)

    seats: Mapped[list[Seat]] = relationship(
        back_populates="game", order_by="Seat.position", cascade="all, delete-orphan"
    )
    hands: Mapped[list[Hand]] = relationship(
        back_populates="game", order_by="Hand.number", cascade="all, delete-orphan"
    )

    __table_args__ = (Index("ix_game_created_at", "created_at"),)


class Seat(db.Model):  # type: ignore[name-defined,misc]
    """A player's seat at one game; ``position`` 0 is the first seat, then clockwise."""

    __tablename__ = "seat"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    position: Mapped[int]
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), index=True)

    game: Mapped[Game] = relationship(back_populates="seats")
    player: Mapped[Player] = relationship(back_populates="seats", lazy="joined")

    __table_args__ = (
        UniqueConstraint("game_id", "position", name="uq_seat_game_position"),
        UniqueConstraint("game_id", "player_id", name="uq_seat_game_player"),
    )


class Hand(db.Model):  # type: ignore[name-defined,misc]
    """One hand as recorded at the table. Players are named by seat position.

    ``points`` maps each point key to the seat that took it, or null for nobody.
    ``token`` is the form's one-time token: a resubmitted form records nothing twice.
    """

    __tablename__ = "hand"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    number: Mapped[int]
    passed: Mapped[bool] = mapped_column(default=False)
    pitcher_seat: Mapped[int | None] = mapped_column(default=None)
    bid: Mapped[int | None] = mapped_column(default=None)
    points: Mapped[dict[str, int | None] | None] = mapped_column(JSON, default=None)
    sale: Mapped[str | None] = mapped_column(String(16), default=None)
    high_bidder_seat: Mapped[int | None] = mapped_column(default=None)
    note: Mapped[str | None] = mapped_column(Text, default=None)
    token: Mapped[str | None] = mapped_column(String(64), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    game: Mapped[Game] = relationship(back_populates="hands")

    __table_args__ = (
        UniqueConstraint("game_id", "number", name="uq_hand_game_number"),
        UniqueConstraint("game_id", "token", name="uq_hand_game_token"),
    )

