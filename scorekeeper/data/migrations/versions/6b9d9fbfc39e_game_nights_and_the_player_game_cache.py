"""Game nights, and the per-player game summaries that statistics add up

Revision ID: 6b9d9fbfc39e
Revises: 54226b96d397
Create Date: 2026-11-29 19:14:18.975533

Adds the ``night`` table, ``game.night_id``, and ``player_game``: one row per
player per game, summed up from a replay of the game (a cache that every write
keeps fresh). The games already stored are replayed here to fill it.
"""

import json
from types import SimpleNamespace

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "6b9d9fbfc39e"
down_revision = "54226b96d397"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "night",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("place", sa.String(length=80), nullable=True),
        sa.Column("date", sa.Date(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("ended_at", sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_night_created_at", "night", ["created_at"], unique=False)
    op.create_index("ix_night_date", "night", ["date"], unique=False)

    op.create_table(
        "player_game",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("played_at", sa.DateTime(), nullable=False),
        sa.Column("variant", sa.String(length=32), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("team", sa.String(length=40), nullable=True),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("bids", sa.Integer(), nullable=False),
        sa.Column("bids_made", sa.Integer(), nullable=False),
        sa.Column("bid_total", sa.Integer(), nullable=False),
        sa.Column("set_backs", sa.Integer(), nullable=False),
        sa.Column("smudges_attempted", sa.Integer(), nullable=False),
        sa.Column("smudges_made", sa.Integer(), nullable=False),
        sa.Column("holes", sa.Integer(), nullable=False),
        sa.Column("units", sa.Integer(), nullable=False),
        sa.Column("money", sa.String(length=64), nullable=True),
        sa.Column("cents", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["game.id"], name="fk_player_game_game_id", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"], name="fk_player_game_player_id"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "player_id", name="uq_player_game_game_player"),
    )
    op.create_index(
        "ix_player_game_player_played_at", "player_game", ["player_id", "played_at"], unique=False
    )

    if op.get_bind().dialect.name == "sqlite":
        # Not a batch "move and copy": with foreign keys on, dropping the old game
        # table would cascade to its seats and hands. SQLite can add a nullable
        # column with its foreign key in place.
        op.execute("ALTER TABLE game ADD COLUMN night_id INTEGER REFERENCES night (id)")
    else:
        op.add_column("game", sa.Column("night_id", sa.Integer(), nullable=True))
        op.create_foreign_key("game_night_id_fkey", "game", "night", ["night_id"], ["id"])
    op.create_index("ix_game_night_id_created_at", "game", ["night_id", "created_at"], unique=False)
    op.create_table(
        "player_stats",
        sa.Column("player_id", sa.Integer(), nullable=False),
        *(sa.Column(name, sa.Integer(), nullable=False) for name in STATS_COUNTS),
        sa.Column("money", sa.String(length=80), nullable=True),
        sa.Column("cents", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"], name="fk_player_stats_player_id"),
        sa.PrimaryKeyConstraint("player_id"),
    )

    _fill_player_game()


PLAYER_GAME = sa.table(
    "player_game",
    *(
        sa.column(name)
        for name in (
            "game_id",
            "player_id",
            "played_at",
            "variant",
            "position",
            "team",
            "finished",
            "won",
            "score",
            "hands",
            "bids",
            "bids_made",
            "bid_total",
            "set_backs",
            "smudges_attempted",
            "smudges_made",
            "holes",
            "units",
            "money",
            "cents",
        )
    ),
)


STATS_COUNTS = (
    "entered",
    "games",
    "won",
    "bids",
    "bids_made",
    "bid_total",
    "set_backs",
    "smudges_attempted",
    "smudges_made",
    "holes",
    "units",
)
PLAYER_STATS = sa.table(
    "player_stats", *(sa.column(n) for n in ("player_id", *STATS_COUNTS, "money", "cents"))
)


def _json(value):
    return json.loads(value) if isinstance(value, str) else value


# --- Frozen copies --------------------------------------------------------------------------
# What this revision needs of the app, copied as it was when the revision was written, so a
# later change to ``operations`` or ``stats`` cannot change (or break) an old upgrade. Only
# the engine (``scorekeeper.rules``, the scoring contract) is imported live.


def _engine_game(rules, row, names):
    """The engine's game of a game row (``operations.engine_game`` at this revision)."""
    teams = None
    if row["teams"] is not None:
        teams = {team: [names[pos] for pos in positions] for team, positions in row["teams"]}
    first = row["first_dealer_seat"]
    return rules.Game.create(
        row["variant"],
        names,
        house_rules=row["house_rules"] or {},
        teams=teams,
        first_dealer=names[first] if first is not None else None,
        stake=row["stake"],
    )


def _engine_hand(rules, row, names):
    """The engine's hand of a hand row (``operations.engine_hand`` at this revision)."""
    if row["passed"]:
        return rules.Hand.passed_out(row["note"])

    def name(seat):
        return None if seat is None else names[seat]

    return rules.Hand(
        pitcher=name(row["pitcher_seat"]),
        bid=row["bid"],
        points={key: name(seat) for key, seat in (row["points"] or {}).items()},
        sale=rules.Sale(row["sale"]) if row["sale"] else None,
        high_bidder=name(row["high_bidder_seat"]),
        note=row["note"],
    )


def _summarise(rules, result):
    """Each seated player's game, by name (``stats.summary.summarise`` at this revision)."""
    from scorekeeper.rules.night import game_shares

    game = result.game
    variant = game.variant
    smudge_on = variant.smudge_bid is not None and game.house_rules.smudge is not rules.Smudge.OFF
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
        if hand.passed or not hand.bid or hand.pitcher is None:
            continue
        mine = counts[hand.pitcher]
        mine["bids"] += 1
        mine["total"] += hand.bid
        mine["made"] += bool(hand.made)
        mine["set"] += hand.set_back
        mine["tried"] += smudge_on and hand.bid == variant.smudge_bid
        mine["smudged"] += rules.Event.SMUDGE in hand.events
    shares = game_shares(result.settlement) if result.settlement is not None else {}
    lines = {}
    for position, player in enumerate(game.players):
        side = game.side_of(player)
        share = shares.get(player)
        mine = counts[player]
        lines[player] = SimpleNamespace(
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


def _line_columns(line):
    """A player's game as ``player_game`` columns (``stats.cache.line_columns`` then)."""
    columns = {name: getattr(line, name) for name in LINE_COLUMNS}
    columns["money"] = None if line.money is None else format(line.money, "f")
    columns["cents"] = _cents(line.money)
    return columns


#: The columns of ``player_game`` a game's summary fills in (money and cents aside).
LINE_COLUMNS = (
    "position",
    "team",
    "finished",
    "won",
    "score",
    "hands",
    "bids",
    "bids_made",
    "bid_total",
    "set_backs",
    "smudges_attempted",
    "smudges_made",
    "holes",
    "units",
)


def _cents(money):
    """An amount in whole cents; None when there is none or it is 10**12 cents or more
    (``stats.cache.cents`` then)."""
    from decimal import localcontext

    from scorekeeper.rules.night import EXACT

    if money is None:
        return None
    with localcontext(EXACT):
        value = int(money.scaleb(2))
    return value if abs(value) < 10**12 else None


def _fill_player_game():
    """Replay every stored game once and write its players' summaries."""
    from scorekeeper import rules

    bind = op.get_bind()
    seats = {}
    for game_id, position, player_id, name in bind.execute(
        sa.text(
            "SELECT s.game_id, s.position, s.player_id, p.name FROM seat s "
            "JOIN player p ON p.id = s.player_id ORDER BY s.game_id, s.position"
        )
    ):
        seats.setdefault(game_id, []).append((player_id, name))
    hands = {}
    for row in bind.execute(
        sa.text(
            "SELECT game_id, passed, pitcher_seat, bid, points, sale, high_bidder_seat, note "
            "FROM hand ORDER BY game_id, number"
        )
    ).mappings():
        hands.setdefault(row["game_id"], []).append(
            {**row, "points": _json(row["points"]), "passed": bool(row["passed"])}
        )
    keep = {c.name for c in PLAYER_GAME.columns}
    batch = []
    totals = {}
    for game in bind.execute(
        sa.text(
            "SELECT id, variant, house_rules, teams, first_dealer_seat, stake, created_at FROM game"
        )
    ).mappings():
        row = {**game, "house_rules": _json(game["house_rules"]), "teams": _json(game["teams"])}
        seated = seats.get(game["id"], [])
        names = [name for _, name in seated]
        try:
            engine = _engine_game(rules, row, names)
            result = rules.score_game(
                engine, [_engine_hand(rules, h, names) for h in hands.get(game["id"], [])]
            )
        except rules.RuleError:
            continue  # a game the engine refuses has no statistics (none should exist)
        lines = _summarise(rules, result)
        for player_id, name in seated:
            _add_up(totals, player_id, lines[name])
            columns = {k: v for k, v in _line_columns(lines[name]).items() if k in keep}
            batch.append(
                {
                    **columns,
                    "game_id": game["id"],
                    "player_id": player_id,
                    "played_at": game["created_at"],
                    "variant": game["variant"],
                }
            )
        if len(batch) >= 2000:
            op.bulk_insert(PLAYER_GAME, batch)
            batch = []
    if batch:
        op.bulk_insert(PLAYER_GAME, batch)
    _write_totals(bind, totals)


def _add_up(totals, player_id, line):
    """Add one player's game to their running totals (money exactly, as Decimal)."""
    from decimal import Decimal, localcontext

    from scorekeeper.rules.night import EXACT

    mine = totals.setdefault(
        player_id, {**dict.fromkeys(STATS_COUNTS, 0), "money": Decimal(0), "staked": False}
    )
    mine["entered"] += 1
    mine["games"] += line.finished
    mine["won"] += line.won
    for name in STATS_COUNTS[3:]:
        mine[name] += getattr(line, name)
    if line.money is not None:
        with localcontext(EXACT):
            mine["money"] += line.money
        mine["staked"] = True


def _write_totals(bind, totals):
    from decimal import localcontext

    from scorekeeper.rules.night import EXACT

    rows = []
    for player_id in bind.execute(sa.text("SELECT id FROM player")).scalars():
        mine = totals.get(player_id, {**dict.fromkeys(STATS_COUNTS, 0), "staked": False})
        with localcontext(EXACT):
            money = mine["money"] if mine["staked"] else None
        rows.append(
            {
                "player_id": player_id,
                **{n: mine[n] for n in STATS_COUNTS},
                "money": None if money is None else format(money, "f"),
                "cents": _cents(money),
            }
        )
    if rows:
        op.bulk_insert(PLAYER_STATS, rows)


def downgrade():
    op.drop_table("player_stats")
    op.drop_index("ix_game_night_id_created_at", table_name="game")
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE game DROP COLUMN night_id")
    else:
        op.drop_constraint("game_night_id_fkey", "game", type_="foreignkey")
        op.drop_column("game", "night_id")
    op.drop_index("ix_player_game_player_played_at", table_name="player_game")
    op.drop_table("player_game")
    op.drop_index("ix_night_date", table_name="night")
    op.drop_index("ix_night_created_at", table_name="night")
    op.drop_table("night")
