"""A trail of every change, a hand confirmed by the other side, a game signed

Revision ID: a9c3e5f7b1d2
Revises: f2b8d4a6c1e3
Create Date: 2027-01-12 12:00:00.000000

Adds ``change``: one row for each hand recorded, corrected or undone, each game deleted,
each confirmation, dispute, signature, lock and unlock, with who and when, the hand before
and after, and a hash of the entry before (a chain per game). ``game_id`` is no foreign
key: a deleted game's trail stays. Adds to ``game``: ``confirm_hands`` (each hand waits for
the other side), ``score_version`` (the version its scores last changed at; a confirmation
bumps ``version`` only) and ``signed_at`` (locked since). Games already stored have no
trail before this: their chain starts with their next change.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "a9c3e5f7b1d2"
down_revision = "f2b8d4a6c1e3"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "change",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("game_created_at", sa.DateTime(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("hand", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("who", sa.String(length=120), nullable=False),
        sa.Column("before", sa.JSON(), nullable=True),
        sa.Column("after", sa.JSON(), nullable=True),
        sa.Column("detail", sa.JSON(), nullable=True),
        sa.Column("prev_hash", sa.String(length=64), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "game_created_at", "seq", name="uq_change_game_seq"),
    )
    op.add_column(
        "game", sa.Column("confirm_hands", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.add_column(
        "game", sa.Column("score_version", sa.Integer(), nullable=False, server_default="0")
    )
    op.add_column("game", sa.Column("signed_at", sa.DateTime(), nullable=True))
    op.execute("UPDATE game SET score_version = version")


def downgrade():
    for column in ("signed_at", "score_version", "confirm_hands"):
        if op.get_bind().dialect.name == "sqlite":
            op.execute(f"ALTER TABLE game DROP COLUMN {column}")
        else:
            op.drop_column("game", column)
    op.drop_table("change")
