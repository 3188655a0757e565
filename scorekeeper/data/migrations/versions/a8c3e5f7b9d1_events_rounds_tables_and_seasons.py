"""Events: tournaments and league nights, their players, rounds and tables; seasons

Revision ID: a8c3e5f7b9d1
Revises: a9c3e5f7b1d2
Create Date: 2026-12-02 02:10:00.000000

Adds ``season`` (a league's events grouped, and how its table counts), ``event`` (a
tournament or league night: its format, the game every table plays, its rounds, its money),
``event_player`` (who plays it: from which round, withdrawn after which), ``event_round``
(each round's clock) and ``event_table`` (a round's table: its seats and sides, and the
ordinary ``game`` its phones record). Nothing stored before changes.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "a8c3e5f7b9d1"
down_revision = "a9c3e5f7b1d2"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "season",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("scoring", sa.String(length=16), nullable=False),
        sa.Column("placing_points", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("name", name="uq_season_name"),
    )
    op.create_table(
        "event",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("date", sa.Date(), nullable=False),
        sa.Column("place", sa.String(length=80), nullable=True),
        sa.Column("format", sa.String(length=16), nullable=False),
        sa.Column("variant", sa.String(length=32), nullable=False),
        sa.Column("house_rules", sa.JSON(), nullable=False),
        sa.Column("rule_set_name", sa.String(length=40), nullable=True),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("round_minutes", sa.Integer(), nullable=True),
        sa.Column("entry_fee", sa.String(length=32), nullable=True),
        sa.Column("prize_split", sa.JSON(), nullable=True),
        sa.Column("standings_hidden", sa.Boolean(), nullable=False),
        sa.Column("tie_breaks", sa.JSON(), nullable=True),
        sa.Column("season_id", sa.Integer(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["season_id"], ["season.id"], name="fk_event_season_id", ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_event_date", "event", ["date"])
    op.create_index("ix_event_season_id", "event", ["season_id"])
    op.create_table(
        "event_player",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("from_round", sa.Integer(), nullable=False),
        sa.Column("withdrawn_after", sa.Integer(), nullable=True),
        sa.Column("team", sa.String(length=40), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["event_id"], ["event.id"], name="fk_event_player_event_id", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"], name="fk_event_player_player_id"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("event_id", "player_id", name="uq_event_player_event_player"),
    )
    op.create_index("ix_event_player_player_id", "event_player", ["player_id"])
    op.create_table(
        "event_round",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.Column("paused_at", sa.DateTime(), nullable=True),
        sa.Column("paused_seconds", sa.Integer(), nullable=False),
        sa.Column("called_at", sa.DateTime(), nullable=True),
        sa.Column("byes", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["event_id"], ["event.id"], name="fk_event_round_event_id", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("event_id", "number", name="uq_event_round_event_number"),
    )
    op.create_table(
        "event_table",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("sides", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(
            ["round_id"], ["event_round.id"], name="fk_event_table_round_id", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["game.id"], name="fk_event_table_game_id", ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("round_id", "number", name="uq_event_table_round_number"),
        sa.UniqueConstraint("game_id", name="uq_event_table_game_id"),
    )


def downgrade():
    op.drop_table("event_table")
    op.drop_table("event_round")
    op.drop_index("ix_event_player_player_id", table_name="event_player")
    op.drop_table("event_player")
    op.drop_index("ix_event_season_id", table_name="event")
    op.drop_index("ix_event_date", table_name="event")
    op.drop_table("event")
    op.drop_table("season")
