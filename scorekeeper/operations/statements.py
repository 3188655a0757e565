"""The statements a page or a hand runs every time, built once here: building one costs more
than running it (bench/hotspots.py)."""

from __future__ import annotations

from sqlalchemy import bindparam, insert, select, update

from ..data import models
from ..stats import cache as stats_cache

# more than running it (bench/hotspots.py).

GAME = models.Game.__table__
NIGHT = models.Night.__table__
#: A game to read, with its night's name and place, in one round trip.
GAME_TO_READ = (
    select(GAME, NIGHT.c.name.label("night_name"), NIGHT.c.place.label("night_place"))
    .select_from(GAME.outerjoin(NIGHT, GAME.c.night_id == NIGHT.c.id))
    .where(GAME.c.id == bindparam("game_id"))
)
GAMES_TO_READ = (
    select(GAME, NIGHT.c.name.label("night_name"), NIGHT.c.place.label("night_place"))
    .select_from(GAME.outerjoin(NIGHT, GAME.c.night_id == NIGHT.c.id))
    .where(GAME.c.id.in_(bindparam("game_ids", expanding=True)))
)
SEAT = models.Seat.__table__
PLAYER = models.Player.__table__
#: Its players, in seat order (read only to replay a game not in Replays).
SEATED = (
    select(PLAYER.c.id, PLAYER.c.name)
    .select_from(SEAT.join(PLAYER, SEAT.c.player_id == PLAYER.c.id))
    .where(SEAT.c.game_id == bindparam("game_id"))
    .order_by(SEAT.c.position)
)
#: The same for a list of games.
SEATED_OF = (
    select(SEAT.c.game_id, PLAYER.c.id, PLAYER.c.name)
    .select_from(SEAT.join(PLAYER, SEAT.c.player_id == PLAYER.c.id))
    .where(SEAT.c.game_id.in_(bindparam("game_ids", expanding=True)))
    .order_by(SEAT.c.game_id, SEAT.c.position)
)
#: A game locked (on PostgreSQL) until the transaction ends (a game "Play again" follows).
GAME_TO_LOCK = select(GAME).where(GAME.c.id == bindparam("game_id")).with_for_update()
#: A game's derived columns and version, rewritten after a change (see ``cache_result``).
UPDATE_GAME = update(GAME).where(GAME.c.id == bindparam("game_id"))

HAND = models.Hand.__table__
#: The games' hands in order: the columns the engine reads, as plain rows (replaying a
#: game needs no ORM objects, and making them was most of the cost of loading one).
HANDS_OF = (
    select(
        HAND.c.game_id,
        HAND.c.passed,
        HAND.c.pitcher_seat,
        HAND.c.bid,
        HAND.c.points,
        HAND.c.sale,
        HAND.c.high_bidder_seat,
        HAND.c.note,
        HAND.c.game_count,
        HAND.c.dealer_seat,
    )
    .where(HAND.c.game_id.in_(bindparam("game_ids", expanding=True)))
    .order_by(HAND.c.game_id, HAND.c.number)
)
#: One hand of a game, by number (to correct or undo it).
THE_HAND = (HAND.c.game_id == bindparam("of_game")) & (HAND.c.number == bindparam("of_number"))
#: A game's hands after hand ``after`` (a correction that moves the win earlier removes them).
HANDS_AFTER = (HAND.c.game_id == bindparam("of_game")) & (HAND.c.number > bindparam("after"))
HAND_KEY = models.HandKey.__table__
#: The columns of a new hand (``hand_columns``, its game id and number), as parameters.
NEW_HAND_COLUMNS = (
    "game_id",
    "number",
    "passed",
    "pitcher_seat",
    "bid",
    "points",
    "sale",
    "high_bidder_seat",
    "note",
    "game_count",
    "dealer_seat",
)
NEW_HAND = (
    insert(HAND)
    .values({name: bindparam(f"new_{name}", type_=HAND.c[name].type) for name in NEW_HAND_COLUMNS})
    .returning(HAND.c.id, HAND.c.game_id, HAND.c.number)
    .cte("new_hand")
)
#: A new hand and the one-time key that saved it, in one statement (PostgreSQL: an INSERT
#: in a WITH; SQLite has none, and inserts the hand, then the key with the hand's id).
NEW_HAND_AND_KEY = insert(HAND_KEY).from_select(
    ["key", "game_id", "hand_id", "number", "created_at"],
    select(
        bindparam("new_key", type_=HAND_KEY.c.key.type),
        NEW_HAND.c.game_id,
        NEW_HAND.c.id,
        NEW_HAND.c.number,
        bindparam("new_key_made_at", type_=HAND_KEY.c.created_at.type),
    ),
)
#: Where a one-time key was used: its game, its hand number, and whether that hand is kept.
KEY_USED = select(HAND_KEY.c.game_id, HAND_KEY.c.number, HAND_KEY.c.hand_id).where(
    HAND_KEY.c.key == bindparam("key")
)
#: What a change reads of its game besides the row: the game's statistics rows (the change
#: rewrites them) and, for a hand form's one-time key, where that key was used if it was
#: (``key`` None: nowhere). A row each statistics row.
BESIDES_THE_GAME = [
    *stats_cache.JOINED,
    HAND_KEY.c.game_id.label("key_game_id"),
    HAND_KEY.c.number.label("key_number"),
    HAND_KEY.c.hand_id.label("key_hand_id"),
]
GAME_AND_THE_REST = stats_cache.joined_to(GAME).outerjoin(
    HAND_KEY, HAND_KEY.c.key == bindparam("key")
)
SEEN = GAME.alias("seen")
#: A game to change, locked (on PostgreSQL) until the transaction ends, with the rest in
#: the same round trip. Only the game's row is locked, so when the lock had to wait for
#: another change to commit, PostgreSQL hands back that row as it now is but the rows
#: joined to it as they were when the statement began. ``seen_version`` (the version read
#: in a subquery, as the statement began) then differs from the row's ``version``, and the
#: rest is read again after the lock (``AFTER_THE_LOCK``).
GAME_TO_CHANGE = (
    select(
        GAME,
        select(SEEN.c.version)
        .where(SEEN.c.id == GAME.c.id)
        .scalar_subquery()
        .label("seen_version"),
        *BESIDES_THE_GAME,
    )
    .select_from(GAME_AND_THE_REST)
    .where(GAME.c.id == bindparam("game_id"))
    .with_for_update(of=GAME)
)
AFTER_THE_LOCK = (
    select(*BESIDES_THE_GAME)
    .select_from(GAME_AND_THE_REST)
    .where(GAME.c.id == bindparam("game_id"))
)
