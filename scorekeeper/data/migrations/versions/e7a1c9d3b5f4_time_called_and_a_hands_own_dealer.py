"""A game remembers when time was called, and a hand who really dealt it

Revision ID: e7a1c9d3b5f4
Revises: d5e9f3a7b2c8
Create Date: 2026-12-02 00:10:00.000000

Adds ``game.called`` (the number of played hands after which time was called, RULES.md
11.4; null: not called) and ``hand.dealer_seat`` (the seat that dealt a hand dealt out of
turn, GAME-RECORD.md's ``dealer``; null: the usual dealer). Both are nullable and added in
place, so every stored game replays as before.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "e7a1c9d3b5f4"
down_revision = "d5e9f3a7b2c8"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column("game", sa.Column("called", sa.Integer(), nullable=True))
    op.add_column("hand", sa.Column("dealer_seat", sa.Integer(), nullable=True))


def downgrade():
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE hand DROP COLUMN dealer_seat")
        op.execute("ALTER TABLE game DROP COLUMN called")
    else:
        op.drop_column("hand", "dealer_seat")
        op.drop_column("game", "called")
