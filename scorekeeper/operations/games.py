"""Every read and write of a game: load, create, import, record, edit, undo, delete.

A game is read as one row type, ``GameRow`` (its columns, without the ORM), with its
engine values and replayed result (``Loaded``); the one cache of replays (``Replays``)
sits behind ``load``. Each write checks its input with the engine *before* writing (it
replays the game with the change applied), then writes in one transaction, so a rejected
hand changes nothing. Each takes the game's ``version`` as the form saw it and
refuses to write over a newer state.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from .. import rules
from ..data import models
from ..data.database import dialect, run, write_transaction
from ..data.extensions import db
from ..data.models import utcnow
from ..live import broker as live
from ..lru import LRU, per_app
from ..nights.queries import current_night_id
from ..stats import cache as stats_cache
from .errors import Conflict, NotFound, OperationError


class KeyUsed(Exception):
    """The form's one-time key recorded a hand already (a second tap, Back, a replay).

    ``game_id`` and ``number`` say where; ``kept`` is false when that hand was undone
    since. Nothing is written: the answer is the hand already saved, never a new one.
    """

    def __init__(self, game_id: int, number: int, kept: bool) -> None:
        super().__init__(f"key already used for hand {number} of game {game_id}")
        self.game_id = game_id
        self.number = number
        self.kept = kept


class SameAsLast(Exception):
    """The hand is the same as the last one recorded (``number``): ask before saving it."""

    def __init__(self, number: int) -> None:
        super().__init__(f"the same as hand {number}")
        self.number = number


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
        stake=row.stake,
    )


def engine_hand(row: models.Hand | Any, names: Sequence[str]) -> rules.Hand:
    """Build the engine's hand from a hand row (or its columns), turning seats into names."""
    if row.passed:
        return rules.Hand.passed_out(row.note)
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
    }


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


class Replays(LRU[Replay]):
    """The engine's view of the games last loaded or written in this process: their game,
    hands and result, by game id, creation time and version.

    A phone records a hand and is sent to the game page; without this, the form's POST
    and the page after it each read every hand and replayed the game again. Every change
    to a game bumps its version in the transaction that makes it (see ``_cache_result``
    and ``operations.players``), and an entry is added only for a version that was
    committed, so an entry is never stale; the creation time tells a game from a later
    one that reused a deleted game's id. The oldest entries make way.
    """

    def __init__(self, size: int = 64) -> None:
        super().__init__(size)

    @staticmethod
    def key(row: GameRow) -> Hashable:
        return (row.id, row.created_at, row.version)


def replays() -> Replays:
    """This app's replays."""
    return per_app("scorekeeper.replays", Replays)


# Statements a page or a hand runs every time are built once, here: building one costs
# more than running it (bench/hotspots.py).

_GAME = models.Game.__table__
_NIGHT = models.Night.__table__
#: A game to read, with its night's name and place, in one round trip.
_GAME_TO_READ = (
    select(_GAME, _NIGHT.c.name.label("night_name"), _NIGHT.c.place.label("night_place"))
    .select_from(_GAME.outerjoin(_NIGHT, _GAME.c.night_id == _NIGHT.c.id))
    .where(_GAME.c.id == bindparam("game_id"))
)
_GAMES_TO_READ = (
    select(_GAME, _NIGHT.c.name.label("night_name"), _NIGHT.c.place.label("night_place"))
    .select_from(_GAME.outerjoin(_NIGHT, _GAME.c.night_id == _NIGHT.c.id))
    .where(_GAME.c.id.in_(bindparam("game_ids", expanding=True)))
)
_SEAT = models.Seat.__table__
_PLAYER = models.Player.__table__
#: Its players, in seat order (read only to replay a game not in Replays).
_SEATED = (
    select(_PLAYER.c.id, _PLAYER.c.name)
    .select_from(_SEAT.join(_PLAYER, _SEAT.c.player_id == _PLAYER.c.id))
    .where(_SEAT.c.game_id == bindparam("game_id"))
    .order_by(_SEAT.c.position)
)
#: The same for a list of games.
_SEATED_OF = (
    select(_SEAT.c.game_id, _PLAYER.c.id, _PLAYER.c.name)
    .select_from(_SEAT.join(_PLAYER, _SEAT.c.player_id == _PLAYER.c.id))
    .where(_SEAT.c.game_id.in_(bindparam("game_ids", expanding=True)))
    .order_by(_SEAT.c.game_id, _SEAT.c.position)
)
#: A game locked (on PostgreSQL) until the transaction ends (a game "Play again" follows).
_GAME_TO_LOCK = select(_GAME).where(_GAME.c.id == bindparam("game_id")).with_for_update()
#: A game's derived columns and version, rewritten after a change (see ``_cache_result``).
_UPDATE_GAME = update(_GAME).where(_GAME.c.id == bindparam("game_id"))

_HAND = models.Hand.__table__
#: The games' hands in order: the columns the engine reads, as plain rows (replaying a
#: game needs no ORM objects, and making them was most of the cost of loading one).
_HANDS_OF = (
    select(
        _HAND.c.game_id,
        _HAND.c.passed,
        _HAND.c.pitcher_seat,
        _HAND.c.bid,
        _HAND.c.points,
        _HAND.c.sale,
        _HAND.c.high_bidder_seat,
        _HAND.c.note,
        _HAND.c.game_count,
    )
    .where(_HAND.c.game_id.in_(bindparam("game_ids", expanding=True)))
    .order_by(_HAND.c.game_id, _HAND.c.number)
)
#: One hand of a game, by number (to correct or undo it).
_THE_HAND = (_HAND.c.game_id == bindparam("of_game")) & (_HAND.c.number == bindparam("of_number"))
_HAND_KEY = models.HandKey.__table__
#: The columns of a new hand (``hand_columns``, its game id and number), as parameters.
_NEW_HAND_COLUMNS = (
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
)
_NEW_HAND = (
    insert(_HAND)
    .values(
        {name: bindparam(f"new_{name}", type_=_HAND.c[name].type) for name in _NEW_HAND_COLUMNS}
    )
    .returning(_HAND.c.id, _HAND.c.game_id, _HAND.c.number)
    .cte("new_hand")
)
#: A new hand and the one-time key that saved it, in one statement (PostgreSQL: an INSERT
#: in a WITH; SQLite has none, and inserts the hand, then the key with the hand's id).
_NEW_HAND_AND_KEY = insert(_HAND_KEY).from_select(
    ["key", "game_id", "hand_id", "number", "created_at"],
    select(
        bindparam("new_key", type_=_HAND_KEY.c.key.type),
        _NEW_HAND.c.game_id,
        _NEW_HAND.c.id,
        _NEW_HAND.c.number,
        bindparam("new_key_made_at", type_=_HAND_KEY.c.created_at.type),
    ),
)
#: Where a one-time key was used: its game, its hand number, and whether that hand is kept.
_KEY_USED = select(_HAND_KEY.c.game_id, _HAND_KEY.c.number, _HAND_KEY.c.hand_id).where(
    _HAND_KEY.c.key == bindparam("key")
)
#: What a change reads of its game besides the row: the game's statistics rows (the change
#: rewrites them) and, for a hand form's one-time key, where that key was used if it was
#: (``key`` None: nowhere). A row each statistics row.
_BESIDES_THE_GAME = [
    *stats_cache.JOINED,
    _HAND_KEY.c.game_id.label("key_game_id"),
    _HAND_KEY.c.number.label("key_number"),
    _HAND_KEY.c.hand_id.label("key_hand_id"),
]
_GAME_AND_THE_REST = stats_cache.joined_to(_GAME).outerjoin(
    _HAND_KEY, _HAND_KEY.c.key == bindparam("key")
)
_SEEN = _GAME.alias("seen")
#: A game to change, locked (on PostgreSQL) until the transaction ends, with the rest in
#: the same round trip. Only the game's row is locked, so when the lock had to wait for
#: another change to commit, PostgreSQL hands back that row as it now is but the rows
#: joined to it as they were when the statement began. ``seen_version`` (the version read
#: in a subquery, as the statement began) then differs from the row's ``version``, and the
#: rest is read again after the lock (``_AFTER_THE_LOCK``).
_GAME_TO_CHANGE = (
    select(
        _GAME,
        select(_SEEN.c.version)
        .where(_SEEN.c.id == _GAME.c.id)
        .scalar_subquery()
        .label("seen_version"),
        *_BESIDES_THE_GAME,
    )
    .select_from(_GAME_AND_THE_REST)
    .where(_GAME.c.id == bindparam("game_id"))
    .with_for_update(of=_GAME)
)
_AFTER_THE_LOCK = (
    select(*_BESIDES_THE_GAME)
    .select_from(_GAME_AND_THE_REST)
    .where(_GAME.c.id == bindparam("game_id"))
)


def load(game_id: int, *, for_update: bool = False) -> Loaded:
    """Load a game and replay it; raise NotFound if there is no such game.

    ``for_update``, its row is locked (on PostgreSQL) until the transaction ends, for a
    change to it; its night is then not read.
    """
    if for_update:
        return _lock(game_id, None)
    found = run(_GAME_TO_READ, {"game_id": game_id}).first()
    if found is None:
        raise NotFound(id=game_id)
    return _replayed(_game_row(found))


def _lock(game_id: int, key: str | None) -> Loaded:
    """``load(game_id, for_update=True)``, with the game's statistics rows as the lock
    leaves them; and raise ``KeyUsed`` if ``key`` (a hand form's) recorded a hand."""
    found = run(_GAME_TO_CHANGE, {"game_id": game_id, "key": key}).all()
    if not found:
        raise NotFound(id=game_id)
    game, rest = found[0], found
    if game.seen_version != game.version:  # the lock waited for another change: read again
        rest = run(_AFTER_THE_LOCK, {"game_id": game_id, "key": key}).all()
    if key is not None and rest[0].key_game_id is not None:
        used = rest[0]
        raise KeyUsed(used.key_game_id, used.key_number, used.key_hand_id is not None)
    loaded = _replayed(_game_row(game))
    return dataclasses.replace(loaded, stats=stats_cache.rows_joined(rest))


def _replayed(row: GameRow) -> Loaded:
    """A game row with its replay: the one kept in Replays, or made now (and kept)."""
    key = Replays.key(row)
    known = replays().get(key)
    if known is not None:
        return Loaded(row, *known)
    seated = list(run(_SEATED, {"game_id": row.id}))
    loaded = _replay(row, seated, _stored_hands([row.id]).get(row.id, ()))
    _keep(loaded)
    return loaded


def _keep(loaded: Loaded) -> None:
    replays().put(
        Replays.key(loaded.row), (loaded.game, loaded.hands, loaded.result, loaded.player_ids)
    )


def _game_row(found: Any) -> GameRow:
    values = found._mapping
    night = None
    if values["night_id"] is not None and "night_name" in values:
        night = NightRef(values["night_name"], values["night_place"])
    return GameRow(**{name: values[name] for name in _GAME_COLUMNS}, night=night)


_GAME_COLUMNS = [f.name for f in fields(GameRow) if f.name != "night"]


def load_many(game_ids: Sequence[int]) -> dict[int, Loaded | rules.RuleError]:
    """Load and replay a list page's games in three queries, not two or three per game.

    Maps each id to its game, or to the RuleError of a game that no longer replays;
    an id with no game is left out. (For reading only: nothing is locked.) A game kept
    in Replays (one just played, say) is not read or replayed again; the others are not
    added there, so a list does not push the games being played out of it.
    """
    ids = list(game_ids)
    rows = [_game_row(found) for found in run(_GAMES_TO_READ, {"game_ids": ids})]
    kept = replays()
    known = {row.id: replay for row in rows if (replay := kept.get(Replays.key(row))) is not None}
    found: dict[int, Loaded | rules.RuleError] = {}
    seated: dict[int, list[Any]] = {}
    hands: dict[int, list[Any]] = {}
    if len(known) < len(rows):
        wanted = [row.id for row in rows if row.id not in known]
        for seat in run(_SEATED_OF, {"game_ids": wanted}):
            seated.setdefault(seat.game_id, []).append(seat)
        hands = _stored_hands(wanted)
    for row in rows:
        if row.id in known:
            found[row.id] = Loaded(row, *known[row.id])
            continue
        try:
            found[row.id] = _replay(row, seated.get(row.id, []), hands.get(row.id, ()))
        except rules.RuleError as error:
            found[row.id] = error
    return found


def _stored_hands(game_ids: Sequence[int]) -> dict[int, list[Any]]:
    """Read the games' hands, in order, as rows of the columns the engine reads."""
    found: dict[int, list[Any]] = {}
    for hand in run(_HANDS_OF, {"game_ids": list(game_ids)}):
        found.setdefault(hand.game_id, []).append(hand)
    return found


def _replay(row: GameRow, seated: Sequence[Any], stored: Sequence[Any]) -> Loaded:
    """Replay a game from its row, its players (id and name, in seat order) and its hands."""
    game = engine_game(row, [seat.name for seat in seated])
    hands = tuple(engine_hand(h, game.players) for h in stored)
    result = rules.score_game(game, hands)
    return Loaded(row, game, hands, result, tuple(seat.id for seat in seated))


def export_record(loaded: Loaded) -> dict[str, Any]:
    """Write the game record (GAME-RECORD.md) of a stored game."""
    return rules.record_to_json(loaded.game, loaded.hands)


# --- Writes ------------------------------------------------------------------------------------


def _players_by_name(names: Sequence[str]) -> dict[str, models.Player]:
    """Find the roster's players by name, adding the new ones."""
    found = {
        p.name: p
        for p in db.session.execute(
            select(models.Player).where(models.Player.name.in_(list(names)))
        ).scalars()
    }
    for name in names:
        if name not in found:
            player = models.Player(name=name)
            db.session.add(player)
            found[name] = player
    return found


def _store_game(
    game: rules.Game, night_id: int | None = None, created_at: datetime | None = None
) -> Loaded:
    """Add a new game with its seats (and its new players) to the open transaction; return
    it as loaded, with no hand yet."""
    players = _players_by_name(game.players)
    seat_of = {name: i for i, name in enumerate(game.players)}
    row = models.Game(
        variant=game.variant.key,
        house_rules=dict(game.house_rules_given),
        teams=(
            [[team, [seat_of[p] for p in members]] for team, members in game.teams]
            if game.teams is not None
            else None
        ),
        first_dealer_seat=seat_of[game.first_dealer] if game.first_dealer is not None else None,
        stake=game.stake,
        night_id=night_id,
        **({"created_at": created_at} if created_at is not None else {}),
    )
    row.seats = [
        models.Seat(position=i, player=players[name]) for i, name in enumerate(game.players)
    ]
    db.session.add(row)
    db.session.flush()
    return Loaded(
        GameRow(**{name: getattr(row, name) for name in _GAME_COLUMNS}, night=None),
        game,
        (),
        rules.score_game(game, ()),
        tuple(players[name].id for name in game.players),
    )


def _cache_result(
    row: GameRow,
    result: rules.GameResult,
    player_ids: Sequence[int],
    now: datetime | None = None,
    existing: Mapping[int, Mapping[str, Any]] | None = None,
) -> GameRow:
    """Rewrite the derived columns from a fresh replay, and bump the version (one UPDATE
    of the table), and the players' statistics rows (``existing``: as read with the lock,
    if they were); return the row as it now is. ``now`` is the time of the change."""
    now = now or utcnow()
    changed = dataclasses.replace(
        row,
        finished=result.finished,
        winner=result.winner,
        finished_at=(row.finished_at or now) if result.finished else None,
        updated_at=now,
        version=row.version + 1,
    )
    run(
        _UPDATE_GAME,
        {
            "game_id": row.id,
            "finished": changed.finished,
            "winner": changed.winner,
            "finished_at": changed.finished_at,
            "updated_at": changed.updated_at,
            "version": changed.version,
        },
    )
    _refresh_stats(changed, result, player_ids, existing)
    return changed


def _refresh_stats(
    row: GameRow,
    result: rules.GameResult,
    player_ids: Sequence[int],
    existing: Mapping[int, Mapping[str, Any]] | None = None,
) -> None:
    stats_cache.refresh_game(row.id, row.created_at, row.variant, result, player_ids, existing)


def _write(action: Any) -> Any:
    """Run ``action`` in a write transaction; a unique-key race becomes a Conflict."""
    try:
        with write_transaction():
            return action()
    except IntegrityError:
        raise Conflict(Conflict.BUSY) from None


#: ``create_game``'s default: the game joins the night being played, if one is.
CURRENT_NIGHT = "current"


def create_game(
    game: rules.Game,
    *,
    rule_set_name: str | None = None,
    night_id: int | str | None = CURRENT_NIGHT,
    follows: int | None = None,
) -> int:
    """Store a new game (already checked by ``rules.Game.create``) and return its id.

    With ``rule_set_name`` (checked as a name is), its house rules are saved under that
    name in the same transaction, replacing a rule set of that name. The game joins
    ``night_id`` (a night that no longer exists: none), or with ``None`` no night;
    by default the night being played, as the new-game form's tick box offers. With
    ``follows`` (a rematch), it becomes that finished game's next game if it has none yet,
    so a "Play again" tapped after it lands there (see ``play_again``).
    """

    def action() -> int:
        # The game followed is locked first, as play_again locks it.
        before = run(_GAME_TO_LOCK, {"game_id": follows}).first() if follows is not None else None
        if rule_set_name is not None:
            _save_rule_set(rule_set_name, game)
        night: int | None = None
        if night_id == CURRENT_NIGHT:
            night = current_night_id()
        elif isinstance(night_id, int):
            night = db.session.execute(
                select(models.Night.id).where(models.Night.id == night_id)
            ).scalar()
        new = _store_game(game, night)
        _refresh_stats(new.row, new.result, new.player_ids)
        if before is not None and before.finished and before.next_game_id is None:
            run(_UPDATE_GAME, {"game_id": before.id, "next_game_id": new.row.id})
        return new.row.id

    result: int = _write(action)
    return result


def _save_rule_set(name: str, game: rules.Game) -> None:
    found = db.session.execute(
        select(models.RuleSet).where(models.RuleSet.name == name)
    ).scalar_one_or_none()
    if found is None:
        found = models.RuleSet(name=name)
        db.session.add(found)
    found.variant = game.variant.key
    found.house_rules = dict(game.house_rules_given)
    found.updated_at = utcnow()


@dataclass(frozen=True)
class RuleSetRow:
    """A table's house rules saved under a name: the switches a game record would give."""

    id: int
    name: str
    variant: str
    house_rules: dict[str, Any]


_RULE_SET = models.RuleSet.__table__
_RULE_SET_COLUMNS = (_RULE_SET.c.id, _RULE_SET.c.name, _RULE_SET.c.variant, _RULE_SET.c.house_rules)


def rule_sets(variant_key: str | None = None) -> list[RuleSetRow]:
    """The saved rule sets (of one variant, if given), by name."""
    query = select(*_RULE_SET_COLUMNS).order_by(_RULE_SET.c.name)
    if variant_key is not None:
        query = query.where(_RULE_SET.c.variant == variant_key)
    return [RuleSetRow(**found._mapping) for found in run(query)]


def rule_set(rule_set_id: int) -> RuleSetRow | None:
    """A saved rule set by its id; None if there is none."""
    found = run(select(*_RULE_SET_COLUMNS).where(_RULE_SET.c.id == rule_set_id)).first()
    return None if found is None else RuleSetRow(**found._mapping)


def store_record(
    record: rules.GameRecord,
    *,
    night_id: int | None = None,
    times: Mapping[str, datetime | None] | None = None,
) -> GameRow:
    """Add a parsed (so already valid) record's game and hands to the open transaction.

    ``times`` may give the game's ``created_at``, ``updated_at`` and ``finished_at`` (a
    backup's); those not given are now.
    """
    times = times or {}
    _refuse_what_is_not_stored(record)
    result = record.score()
    new = _store_game(record.game, night_id, times.get("created_at"))
    row = new.row
    if times.get("finished_at") is not None:
        row = dataclasses.replace(row, finished_at=times["finished_at"])
    seat_of = {name: i for i, name in enumerate(record.game.players)}
    if record.hands:
        run(
            insert(_HAND),
            [
                {"game_id": row.id, "number": n, **hand_columns(h, seat_of)}
                for n, h in enumerate(record.hands, start=1)
            ],
        )
    return _cache_result(row, result, new.player_ids, times.get("updated_at"))


def _refuse_what_is_not_stored(record: rules.GameRecord) -> None:
    """Refuse a record whose game has time ``called`` or a hand dealt out of turn (its own
    ``dealer``, RULES.md 11.4 and GAME-RECORD.md): the engine reads them, but no column
    keeps them yet, and storing the game without them would change it (a Sell-Out hand's
    seller, the next dealer, the end of the game). So they are refused as they were before
    the engine knew them, naming the key, until the database stores them."""
    if record.game.called is not None:
        raise rules.RuleError("unknown-key", field="record", key="called")
    for number, hand in enumerate(record.hands, start=1):
        if hand.dealer is not None:
            raise rules.RuleError("unknown-key", hand=number, field="dealer", key="dealer")


def import_record(record: rules.GameRecord) -> int:
    """Store a parsed game record with all its hands; return the game's id."""

    def action() -> int:
        return store_record(record).id

    game_id: int = _write(action)
    return game_id


def _check_version(loaded: Loaded, version: int | None) -> None:
    if version is not None and loaded.row.version != version:
        raise Conflict(Conflict.STALE)


def _changed(loaded: Loaded, hands: Sequence[rules.Hand], result: rules.GameResult) -> Loaded:
    """Rewrite the game's derived columns and version for its new hands; return the game as
    the change leaves it. Its open boards hear of it once this commits
    (scorekeeper/live/broker.py)."""
    row = _cache_result(loaded.row, result, loaded.player_ids, existing=loaded.stats)
    live.changed(row.id, row.version)
    return Loaded(row, loaded.game, tuple(hands), result, loaded.player_ids)


def _write_game(action: Callable[[], Loaded]) -> rules.GameResult:
    """Run a change to one game, and keep the state it committed for the page that follows
    (a phone is sent to the game page next; it need not read and replay the game again)."""
    changed: Loaded = _write(action)
    _keep(changed)
    return changed.result


def check_key(key: str) -> None:
    """Raise ``KeyUsed`` if ``key`` has recorded a hand (to answer a form sent again to a game
    that has ended since, with the hand it saved rather than "the game is over")."""
    used = run(_KEY_USED, {"key": key}).first()
    if used is not None:
        raise KeyUsed(used.game_id, used.number, used.hand_id is not None)


def same_taps(one: rules.Hand, other: rules.Hand) -> bool:
    """Whether two hands were tapped alike: the same pitcher, bid, points, sale and high
    bidder (the note aside). Passed-out hands never count: redeals follow each other."""
    if one.passed or other.passed:
        return False
    return (one.pitcher, one.bid, one.points, one.sale, one.high_bidder) == (
        other.pitcher,
        other.bid,
        other.points,
        other.sale,
        other.high_bidder,
    )


def record_hand(
    game_id: int,
    hand: rules.Hand | Callable[[Loaded], rules.Hand],
    *,
    version: int | None,
    key: str | None = None,
    number: int | None = None,
    ask_if_same: bool = False,
    again: int | None = None,
) -> rules.GameResult:
    """Add a hand at the end of the game, once.

    ``key`` is the form's one-time key (a phone may make its own): a key used before, in
    this game or another, raises ``KeyUsed`` and writes nothing. ``number`` is the hand
    the form was opened for: if the game has moved past it (another phone recorded it),
    or ``version`` is not the game's, a ``Conflict``. With ``ask_if_same`` (a hand form), a
    hand tapped as the last one was raises ``SameAsLast``, unless ``again`` names that last
    hand (the recorder was asked and said yes).

    ``hand`` may be a function of the game as locked that gives the hand: a hand form is
    then read and checked under the lock, and the game is read once, not once before and
    once under it. Whatever it raises passes through, and nothing is written.
    """

    def action() -> Loaded:
        loaded = _lock(game_id, key)
        new = hand(loaded) if callable(hand) else hand
        if number is not None and number != len(loaded.hands) + 1:
            raise Conflict(Conflict.STALE)
        _check_version(loaded, version)
        rules.check_hand_count(len(loaded.hands) + 1)
        last = len(loaded.hands)
        if ask_if_same and last and again != last and same_taps(loaded.hands[-1], new):
            raise SameAsLast(last)
        hands = (*loaded.hands, new)
        result = rules.score_game(loaded.game, hands)
        seat_of = {name: i for i, name in enumerate(loaded.names)}
        # Inserted by its game id, not added to row.hands: that would read every stored
        # hand first (and an ORM object for it costs more than the insert).
        _insert_hand({"game_id": game_id, "number": len(hands), **hand_columns(new, seat_of)}, key)
        return _changed(loaded, hands, result)

    try:
        return _write_game(action)
    except Conflict as conflict:
        if key is None or conflict.code != Conflict.BUSY:
            raise
    # Only a unique key can have raced (the game's row is locked): the same key saved by
    # another process for another game. Once more, the key is found and answered for.
    return _write_game(action)


def _insert_hand(columns: Mapping[str, Any], key: str | None) -> None:
    """Insert a new hand (its columns) and, if it was saved with one, its one-time key."""
    if key is None:
        run(insert(_HAND), columns)
    elif dialect() == "postgresql":
        made = {f"new_{name}": value for name, value in columns.items()}
        run(_NEW_HAND_AND_KEY, {**made, "new_key": key, "new_key_made_at": utcnow()})
    else:
        inserted = run(insert(_HAND), columns)
        run(
            insert(_HAND_KEY),
            {
                "key": key,
                "game_id": columns["game_id"],
                "hand_id": inserted.inserted_primary_key[0],  # type: ignore[index]  # an INSERT's key is never None
                "number": columns["number"],
                "created_at": utcnow(),
            },
        )


def replace_hand(
    game_id: int, number: int, hand: rules.Hand, *, version: int | None
) -> rules.GameResult:
    """Correct hand ``number``; every later score, the winner and the settlement follow."""

    def action() -> Loaded:
        loaded = load(game_id, for_update=True)
        _check_version(loaded, version)
        if not 1 <= number <= len(loaded.hands):
            raise NotFound("no-hand", game=game_id, number=number)
        hands = list(loaded.hands)
        hands[number - 1] = hand
        result = rules.score_game(loaded.game, hands)
        seat_of = {name: i for i, name in enumerate(loaded.names)}
        run(
            update(_HAND).where(_THE_HAND),
            {"of_game": game_id, "of_number": number, **hand_columns(hand, seat_of)},
        )
        return _changed(loaded, hands, result)

    return _write_game(action)


def undo_last_hand(game_id: int, *, version: int | None) -> rules.GameResult:
    """Remove the last hand recorded."""

    def action() -> Loaded:
        loaded = load(game_id, for_update=True)
        _check_version(loaded, version)
        if not loaded.hands:
            raise NotFound("no-hand-to-undo")
        hands = loaded.hands[:-1]
        result = rules.score_game(loaded.game, hands)
        run(delete(_HAND).where(_THE_HAND), {"of_game": game_id, "of_number": len(loaded.hands)})
        return _changed(loaded, hands, result)

    return _write_game(action)


def delete_game(game_id: int, *, version: int | None = None) -> None:
    """Delete a game with its seats and hands (its players stay on the roster)."""

    def action() -> None:
        loaded = load(game_id, for_update=True)
        _check_version(loaded, version)
        stats_cache.forget_game(game_id)
        run(delete(_GAME).where(_GAME.c.id == game_id))
        live.deleted(game_id)

    _write(action)


@dataclass(frozen=True)
class NextGame:
    """The game "Play again" leads to: its id, and whether this call started it (False: an
    earlier tap or another phone did, and this one changed nothing)."""

    id: int
    started: bool


def play_again(game_id: int, *, version: int | None) -> NextGame:
    """Start the next game at a finished game's table, once (``rules.scoring.next_game``: the
    same seats, partnerships, variant, house rules and stake, the deal continuing to the
    left), in the finished game's night (none if it had none).

    Checked under the finished game's lock, which also remembers the new game: a second
    tap, or another phone at the same moment, gets the game already started. A game not
    finished raises ``OperationError("not-finished")``; a ``version`` the game has moved
    past (a hand corrected or undone since the question was asked), ``Conflict``.
    """

    def action() -> NextGame:
        loaded = load(game_id, for_update=True)
        if not loaded.result.finished:
            raise OperationError("not-finished", id=game_id)
        if loaded.row.next_game_id is not None:
            return NextGame(loaded.row.next_game_id, started=False)
        _check_version(loaded, version)
        game = rules.scoring.next_game(loaded.result)
        new = _store_game(game, loaded.row.night_id)
        _refresh_stats(new.row, new.result, new.player_ids)
        run(_UPDATE_GAME, {"game_id": game_id, "next_game_id": new.row.id})
        return NextGame(new.row.id, started=True)

    found: NextGame = _write(action)
    return found
