"""What the table recorded, as database rows: players, games, seats and hands, and the events
and seasons whose rounds are played as games.

Standings are never stored as truth: they come from replaying the hands through
the engine (``scorekeeper.rules``). The few derived columns on ``Game``
(``finished``, ``winner``) are a cache for listing pages, rewritten by every
write in ``operations``.

Long because every table is declared here, one class each: the ORM, Alembic's comparison
and the foreign keys between tables read one metadata.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship, validates

from .. import rules
from ..rules.game import name_key
from .extensions import db

#: Longest name or place of a game night.
NIGHT_NAME_MAX = 80
#: Longest one-time key of a hand form (see HandKey).
HAND_KEY_MAX = 64
#: Longest exact money text cached per player and game (a 32-character stake times units).
MONEY_TEXT_MAX = 64
#: Longest address a login attempt is counted under (an IPv6 address with its zone fits).
LOGIN_ADDRESS_MAX = 64


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


#: The unique index that makes one person one player: on ``Player.name_key``.
NAME_KEY_INDEX = "uq_player_name_key"


class Player(db.Model):  # type: ignore[name-defined]  # Flask-SQLAlchemy's db.Model is made at run time
    """A person on the roster, shared across games.

    ``name_key`` is what every spelling of the name shares (``rules.game.name_key``), and
    unique: two requests that add "Ana" and "ana" at the same moment make one player. It is
    set whenever the name is (``_keyed``; a Core INSERT gives it). It is empty only for a
    player the name keys' migration found to be another spelling of an older player's name,
    until the two are merged or one is renamed (``operations.players``).
    """

    __tablename__ = "player"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(rules.NAME_MAX), unique=True)
    name_key: Mapped[str | None] = mapped_column(Text, default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    seats: Mapped[list[Seat]] = relationship(back_populates="player")

    __table_args__ = (Index(NAME_KEY_INDEX, "name_key", unique=True),)

    @validates("name")
    def _keyed(self, _attribute: str, name: str) -> str:
        self.name_key = name_key(name)
        return name


class Game(db.Model):  # type: ignore[name-defined]  # Flask-SQLAlchemy's db.Model is made at run time
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
    stake: Mapped[str | None] = mapped_column(String(rules.STAKE_MAX_LENGTH), default=None)
    version: Mapped[int] = mapped_column(default=0)
    finished: Mapped[bool] = mapped_column(default=False)
    winner: Mapped[str | None] = mapped_column(String(rules.NAME_MAX), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(default=None)
    # The game night this game was played at, if any (see Night). Deleting a night
    # first takes its games out of it (operations.nights.delete_night).
    night_id: Mapped[int | None] = mapped_column(ForeignKey("night.id"), default=None)
    night: Mapped[Night | None] = relationship()
    # The game "Play again" started from this one, once it has (a second tap lands there).
    next_game_id: Mapped[int | None] = mapped_column(
        ForeignKey("game.id", ondelete="SET NULL", name="fk_game_next_game_id"),
        index=True,
        default=None,
    )
    # Time called after this many played hands (RULES.md 11.4), by the organiser or a
    # tournament's director; None while it has not been.
    called: Mapped[int | None] = mapped_column(default=None)
    # Each hand is to be confirmed by a player of another side (operations.trail).
    confirm_hands: Mapped[bool] = mapped_column(default=False)
    # The version the scores last changed at: a confirmation, a dispute or a signature
    # bumps ``version`` (open boards hear of it) but not this, so a hand form opened
    # before it is still good (``writing.check_version``).
    score_version: Mapped[int] = mapped_column(default=0)
    # When a player of every side signed the result; the game is locked since (only the
    # organiser or a tournament's director changes it). None: not signed, or unlocked.
    signed_at: Mapped[datetime | None] = mapped_column(default=None)

    seats: Mapped[list[Seat]] = relationship(
        back_populates="game", order_by="Seat.position", cascade="all, delete-orphan"
    )
    hands: Mapped[list[Hand]] = relationship(
        back_populates="game", order_by="Hand.number", cascade="all, delete-orphan"
    )

    __table_args__ = (Index("ix_game_created_at", "created_at"),)


class Seat(db.Model):  # type: ignore[name-defined]  # Flask-SQLAlchemy's db.Model is made at run time
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


class Hand(db.Model):  # type: ignore[name-defined]  # Flask-SQLAlchemy's db.Model is made at run time
    """One hand as recorded at the table. Players are named by seat position.

    ``points`` maps each point key to the seat that took it, or null for nobody.
    ``game_count`` lists each seat's count toward Game, in seat order, if the table counted.
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
    game_count: Mapped[list[int] | None] = mapped_column(JSON, default=None)
    # The seat that dealt it when someone dealt out of turn; None: the usual dealer.
    dealer_seat: Mapped[int | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    game: Mapped[Game] = relationship(back_populates="hands")

    __table_args__ = (UniqueConstraint("game_id", "number", name="uq_hand_game_number"),)


class HandKey(db.Model):  # type: ignore[name-defined]  # Flask-SQLAlchemy's db.Model is made at run time
    """A one-time key a hand was recorded with: the form's (or a phone's), unique everywhere.

    A form sent again with the same key is answered with the hand it recorded, never a
    second one. The key outlives an undone hand (``hand_id`` becomes null), so an old page
    cannot bring that hand back; it goes with its game.
    """

    __tablename__ = "hand_key"

    key: Mapped[str] = mapped_column(String(HAND_KEY_MAX), primary_key=True)
    game_id: Mapped[int] = mapped_column(
        ForeignKey("game.id", ondelete="CASCADE", name="fk_hand_key_game_id"), index=True
    )
    hand_id: Mapped[int | None] = mapped_column(
        ForeignKey("hand.id", ondelete="SET NULL", name="fk_hand_key_hand_id"),
        index=True,
        default=None,
    )
    #: The hand number it recorded.
    number: Mapped[int]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class RuleSet(db.Model):  # type: ignore[name-defined]  # Flask-SQLAlchemy's db.Model is made at run time
    """A table's house rules saved under a name ("Thursday rules"), to pick next time.

    ``house_rules`` holds the switches as a game record gives them (only those that
    differ from the variant's preset); the engine checks them again when they are used.
    """

    __tablename__ = "rule_set"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(rules.NAME_MAX), unique=True)
    variant: Mapped[str] = mapped_column(String(32))
    house_rules: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class Night(db.Model):  # type: ignore[name-defined]  # Flask-SQLAlchemy's db.Model is made at run time
    """A game night: the games played at one sitting, settled up together.

    The current night (the one new games join) is the newest night not yet ended
    and opened in the last ``CURRENT_FOR`` hours; ending a night, or starting the
    next one, closes it.
    """

    __tablename__ = "night"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(NIGHT_NAME_MAX))
    place: Mapped[str | None] = mapped_column(String(NIGHT_NAME_MAX), default=None)
    date: Mapped[date]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    ended_at: Mapped[datetime | None] = mapped_column(default=None)

    __table_args__ = (Index("ix_night_date", "date"), Index("ix_night_created_at", "created_at"))


class LoginFailure(db.Model):  # type: ignore[name-defined]  # Flask-SQLAlchemy's db.Model is made at run time
    """A login attempt from an address, counted as failed until it succeeds (``auth``): kept
    in the database, so the limit is one for every worker and machine of the install."""

    __tablename__ = "login_failure"

    id: Mapped[int] = mapped_column(primary_key=True)
    #: Where the attempt came from (the client's address).
    address: Mapped[str] = mapped_column(String(LOGIN_ADDRESS_MAX))
    at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (Index("ix_login_failure_address_at", "address", "at"),)


#: Longest "who" of a trail entry: ``player:`` or ``device:`` and a name or a label.
WHO_MAX = 120
#: Longest label a phone picks for itself ("Dana's phone").
DEVICE_LABEL_MAX = 40
#: Longest hash of an event's director's code ("scrypt:16384:8:1$<salt>$<hex>").
DIRECTOR_HASH_MAX = 200


class Change(db.Model):  # type: ignore[name-defined]  # Flask-SQLAlchemy's db.Model is made at run time
    """One entry of a game's trail: a hand recorded, corrected, undone, the game deleted, a
    hand confirmed or disputed, a side's signature, the game locked or unlocked.

    Only ever inserted (``operations.trail``): no page edits or deletes an entry. The
    entries of one game make a chain: each ``hash`` is SHA-256 over the entry's canonical
    JSON and the ``prev_hash`` of the one before (``operations.trail.entry_hash``), so an
    entry changed behind the app's back shows. ``game_id`` is no foreign key: a deleted
    game's trail stays, and ``game_created_at`` tells it from a later game given its id.
    ``before``/``after`` are hands as the game record writes them (GAME-RECORD.md).
    """

    __tablename__ = "change"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int]
    game_created_at: Mapped[datetime]
    #: Its place in the game's chain, from 1.
    seq: Mapped[int]
    hand: Mapped[int | None] = mapped_column(default=None)
    kind: Mapped[str] = mapped_column(String(16))
    at: Mapped[datetime]
    who: Mapped[str] = mapped_column(String(WHO_MAX))
    before: Mapped[Any | None] = mapped_column(JSON, default=None)
    after: Mapped[Any | None] = mapped_column(JSON, default=None)
    detail: Mapped[Any | None] = mapped_column(JSON, default=None)
    prev_hash: Mapped[str] = mapped_column(String(64))
    hash: Mapped[str] = mapped_column(String(64))

    __table_args__ = (
        UniqueConstraint("game_id", "game_created_at", "seq", name="uq_change_game_seq"),
    )


class Counted:
    """The counted statistics columns, named as ``stats.summary.Counts`` names them: one
    player's in one game (``PlayerGame``) or added up over all of them (``PlayerStats``)."""

    bids: Mapped[int] = mapped_column(default=0)
    bids_made: Mapped[int] = mapped_column(default=0)
    bid_total: Mapped[int] = mapped_column(default=0)
    set_backs: Mapped[int] = mapped_column(default=0)
    smudges_attempted: Mapped[int] = mapped_column(default=0)
    smudges_made: Mapped[int] = mapped_column(default=0)
    holes: Mapped[int] = mapped_column(default=0)
    units: Mapped[int] = mapped_column(default=0)


class PlayerGame(Counted, db.Model):  # type: ignore[name-defined]  # Flask-SQLAlchemy's db.Model is made at run time
    """A cache: one player's part in one game, summed up from a replay of the game.

    Rewritten from the fresh result by every write in ``operations`` (and by the
    seed command), so the roster, player and night pages add up rows instead of
    replaying games. ``money`` is exact decimal text; ``cents`` holds the same
    amount as an integer, for sums in SQL, when it is small enough to add safely.
    """

    __tablename__ = "player_game"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(
        ForeignKey("game.id", ondelete="CASCADE", name="fk_player_game_game_id")
    )
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id", name="fk_player_game_player_id"))
    # The game's start, copied here so a player's games list newest first from one index.
    played_at: Mapped[datetime]
    variant: Mapped[str] = mapped_column(String(32))
    position: Mapped[int]
    team: Mapped[str | None] = mapped_column(String(rules.NAME_MAX), default=None)
    finished: Mapped[bool] = mapped_column(default=False)
    won: Mapped[bool] = mapped_column(default=False)
    score: Mapped[int] = mapped_column(default=0)
    hands: Mapped[int] = mapped_column(default=0)
    money: Mapped[str | None] = mapped_column(String(MONEY_TEXT_MAX), default=None)
    cents: Mapped[int | None] = mapped_column(BigInteger, default=None)

    game: Mapped[Game] = relationship()
    player: Mapped[Player] = relationship()

    __table_args__ = (
        UniqueConstraint("game_id", "player_id", name="uq_player_game_game_player"),
        Index("ix_player_game_player_played_at", "player_id", "played_at"),
    )


class PlayerStats(Counted, db.Model):  # type: ignore[name-defined]  # Flask-SQLAlchemy's db.Model is made at run time
    """A cache: one player's ``PlayerGame`` rows added up, so the roster reads one row a player.

    Moved by the difference each time a game's rows are rewritten, and added up again
    from ``PlayerGame`` where that cannot be done (``stats/cache.py`` says when, and how
    two games saved at once each count). ``money`` is the exact total as text; ``cents``
    the same in whole cents for sorting, when it fits.
    """

    __tablename__ = "player_stats"

    player_id: Mapped[int] = mapped_column(
        ForeignKey("player.id", name="fk_player_stats_player_id"), primary_key=True
    )
    entered: Mapped[int] = mapped_column(default=0)
    games: Mapped[int] = mapped_column(default=0)
    won: Mapped[int] = mapped_column(default=0)
    money: Mapped[str | None] = mapped_column(String(MONEY_TEXT_MAX + 16), default=None)
    cents: Mapped[int | None] = mapped_column(BigInteger, default=None)


# A night's games in order, and the latest games in no night, both from one index.
Index("ix_game_night_id_created_at", Game.night_id, Game.created_at)


#: What an event is: a tournament (one sitting, its own standings) or a league night (one
#: of a season's events, adding to its table).
EVENT_KINDS = ("tournament", "league")
#: How an event seats each round (``rules.events.seating``).
EVENT_FORMATS = ("progressive", "round-robin", "teams", "individual")
#: How a season's table counts an event: points by placing, or a point a game won.
SEASON_SCORINGS = ("placing", "wins")


class Season(db.Model):  # type: ignore[name-defined]  # Flask-SQLAlchemy's db.Model is made at run time
    """A league's season: its events (league nights) and how its table counts them.

    ``scoring`` is ``placing`` (``placing_points[i]`` points for the (i+1)th place of a
    night, none past the list) or ``wins`` (a point a game won)."""

    __tablename__ = "season"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(NIGHT_NAME_MAX))
    scoring: Mapped[str] = mapped_column(String(16), default="placing")
    placing_points: Mapped[list[int]] = mapped_column(JSON, default=list)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (UniqueConstraint("name", name="uq_season_name"),)


class Event(db.Model):  # type: ignore[name-defined]  # Flask-SQLAlchemy's db.Model is made at run time
    """A tournament or a league night: many tables, rounds, one director.

    Every table plays the same game: ``variant`` and ``house_rules`` (a preset's switches, or
    a saved rule set's, named in ``rule_set_name`` as it was picked; the switches include
    ``hands`` and ``target``: RULES.md 11.4). ``entry_fee`` is exact money text and
    ``prize_split`` the pot's percentages by place (null: no money). ``version`` goes up with
    every change (a round started, a player added), so a form opened on an older state is
    refused. Standings are never stored: they come from the tables' games.
    """

    __tablename__ = "event"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(NIGHT_NAME_MAX))
    kind: Mapped[str] = mapped_column(String(16), default="tournament")
    date: Mapped[date]
    place: Mapped[str | None] = mapped_column(String(NIGHT_NAME_MAX), default=None)
    format: Mapped[str] = mapped_column(String(16))
    variant: Mapped[str] = mapped_column(String(32))
    house_rules: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    rule_set_name: Mapped[str | None] = mapped_column(String(rules.NAME_MAX), default=None)
    rounds: Mapped[int]
    #: The round clock's length; None: rounds are untimed (the director still calls time).
    round_minutes: Mapped[int | None] = mapped_column(default=None)
    entry_fee: Mapped[str | None] = mapped_column(String(rules.STAKE_MAX_LENGTH), default=None)
    prize_split: Mapped[list[int] | None] = mapped_column(JSON, default=None)
    #: The room's board hides the standings until the last round is over.
    standings_hidden: Mapped[bool] = mapped_column(default=False)
    #: The tie-breaks in order (``rules.events.standings``' names); None: the format's own.
    tie_breaks: Mapped[list[str] | None] = mapped_column(JSON, default=None)
    season_id: Mapped[int | None] = mapped_column(
        ForeignKey("season.id", ondelete="SET NULL", name="fk_event_season_id"),
        index=True,
        default=None,
    )
    version: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(default=None)
    #: Fixed teams: after the round robin, a knockout of the top ``knockout_size`` teams
    #: (a power of 2; None: no knockout), each match the best of ``best_of`` games.
    knockout_size: Mapped[int | None] = mapped_column(default=None)
    best_of: Mapped[int | None] = mapped_column(default=None)
    #: The knockout's teams (a team is its first player's id) in seed order, drawn from the
    #: standings when it started (None: not started).
    knockout_seeds: Mapped[list[int] | None] = mapped_column(JSON, default=None)
    #: A hash of the director's code (``operations.directors``): another device that enters
    #: the code directs the event too. Only the hash is kept; null: no code drawn yet.
    director_code_hash: Mapped[str | None] = mapped_column(String(DIRECTOR_HASH_MAX), default=None)

    __table_args__ = (Index("ix_event_date", "date"),)


class EventPlayer(db.Model):  # type: ignore[name-defined]  # Flask-SQLAlchemy's db.Model is made at run time
    """A player of an event: seated from round ``from_round`` on (a late arrival's is later
    than 1), and not after round ``withdrawn_after`` if they withdrew. ``team`` names a
    fixed team's players alike (the teams format)."""

    __tablename__ = "event_player"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(
        ForeignKey("event.id", ondelete="CASCADE", name="fk_event_player_event_id")
    )
    player_id: Mapped[int] = mapped_column(
        ForeignKey("player.id", name="fk_event_player_player_id"), index=True
    )
    from_round: Mapped[int] = mapped_column(default=1)
    withdrawn_after: Mapped[int | None] = mapped_column(default=None)
    team: Mapped[str | None] = mapped_column(String(rules.NAME_MAX), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    player: Mapped[Player] = relationship(lazy="joined")

    __table_args__ = (
        UniqueConstraint("event_id", "player_id", name="uq_event_player_event_player"),
    )


class EventRound(db.Model):  # type: ignore[name-defined]  # Flask-SQLAlchemy's db.Model is made at run time
    """A round of an event, stored when it starts, with its clock: running since
    ``started_at`` less ``paused_seconds`` (and paused since ``paused_at`` if it is), time
    called at ``called_at``. ``byes`` lists the players (ids) who sat this round out."""

    __tablename__ = "event_round"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(
        ForeignKey("event.id", ondelete="CASCADE", name="fk_event_round_event_id")
    )
    number: Mapped[int]
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    paused_at: Mapped[datetime | None] = mapped_column(default=None)
    paused_seconds: Mapped[int] = mapped_column(default=0)
    called_at: Mapped[datetime | None] = mapped_column(default=None)
    byes: Mapped[list[int]] = mapped_column(JSON, default=list)

    __table_args__ = (UniqueConstraint("event_id", "number", name="uq_event_round_event_number"),)


class EventTable(db.Model):  # type: ignore[name-defined]  # Flask-SQLAlchemy's db.Model is made at run time
    """A table of a round: ``seats`` its players' ids in seat order, ``sides`` the seat
    positions of each partnership (null: everyone for themselves), and the ordinary game its
    phones record (null only if that game was deleted)."""

    __tablename__ = "event_table"

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(
        ForeignKey("event_round.id", ondelete="CASCADE", name="fk_event_table_round_id")
    )
    number: Mapped[int]
    game_id: Mapped[int | None] = mapped_column(
        ForeignKey("game.id", ondelete="SET NULL", name="fk_event_table_game_id"), default=None
    )
    seats: Mapped[list[int]] = mapped_column(JSON, default=list)
    sides: Mapped[list[list[int]] | None] = mapped_column(JSON, default=None)

    __table_args__ = (
        UniqueConstraint("round_id", "number", name="uq_event_table_round_number"),
        UniqueConstraint("game_id", name="uq_event_table_game_id"),
    )


class EventKnockoutGame(db.Model):  # type: ignore[name-defined]  # Flask-SQLAlchemy's db.Model is made at run time
    """One game of a knockout match: game ``number`` of match ``match`` of the bracket's
    round ``stage``, ``top`` against ``bottom`` (teams: their first player's id), played at
    table ``table`` (the table card's code leads to its newest game) as an ordinary game
    (null only if that game was deleted). Who won is never stored: it is the game's."""

    __tablename__ = "event_knockout_game"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(
        ForeignKey("event.id", ondelete="CASCADE", name="fk_event_knockout_game_event_id")
    )
    stage: Mapped[int]
    match: Mapped[int]
    number: Mapped[int]
    table: Mapped[int]
    top: Mapped[int]
    bottom: Mapped[int]
    game_id: Mapped[int | None] = mapped_column(
        ForeignKey("game.id", ondelete="SET NULL", name="fk_event_knockout_game_game_id"),
        default=None,
    )
    seats: Mapped[list[int]] = mapped_column(JSON, default=list)
    sides: Mapped[list[list[int]] | None] = mapped_column(JSON, default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (
        UniqueConstraint(
            "event_id", "stage", "match", "number", name="uq_event_knockout_game_match_number"
        ),
        UniqueConstraint("game_id", name="uq_event_knockout_game_game_id"),
    )
