"""Fixed teams: a knockout after the round robin, each match the best of N games

Revision ID: b3d5f7a9c1e2
Revises: a8c3e5f7b9d1
Create Date: 2026-12-03 12:00:00.000000

Adds to ``event`` the knockout's size (the top 2, 4, 8... teams; null: none), its best of N
games and its seeds (drawn when it starts), and ``event_knockout_game``: each game of a
knockout match, the table it is played at and the ordinary ``game`` its phones record.
Nothing stored before changes: every event has no knockout.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "b3d5f7a9c1e2"
down_revision = "a8c3e5f7b9d1"
branch_labels = None
depends_on = None


def upgrade():
    # Nullable columns added in place (ALTER TABLE ADD COLUMN on SQLite too): no batch copy
    # of the event table, whose players, rounds and tables cascade from it.
    op.add_column("event", sa.Column("knockout_size", sa.Integer(), nullable=True))
    op.add_column("event", sa.Column("best_of", sa.Integer(), nullable=True))
    op.add_column("event", sa.Column("knockout_seeds", sa.JSON(), nullable=True))
    op.create_table(
        "event_knockout_game",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("stage", sa.Integer(), nullable=False),
        sa.Column("match", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("table", sa.Integer(), nullable=False),
        sa.Column("top", sa.Integer(), nullable=False),
        sa.Column("bottom", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("sides", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["event_id"],
            ["event.id"],
            name="fk_event_knockout_game_event_id",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["game.id"], name="fk_event_knockout_game_game_id", ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint(
            "event_id", "stage", "match", "number", name="uq_event_knockout_game_match_number"
        ),
        sa.UniqueConstraint("game_id", name="uq_event_knockout_game_game_id"),
    )


def downgrade():
    op.drop_table("event_knockout_game")
    if op.get_bind().dialect.name == "sqlite":
        for column in ("knockout_seeds", "best_of", "knockout_size"):
            op.execute(f"ALTER TABLE event DROP COLUMN {column}")
    else:
        op.drop_column("event", "knockout_seeds")
        op.drop_column("event", "best_of")
        op.drop_column("event", "knockout_size")
