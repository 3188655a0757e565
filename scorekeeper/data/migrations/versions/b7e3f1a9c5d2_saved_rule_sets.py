"""A table's house rules saved under a name, to pick next time

Revision ID: b7e3f1a9c5d2
Revises: a16c0e7b2d41
Create Date: 2026-12-01 11:55:00.000000

Adds ``rule_set``: a name (unique, as a player's name is at most 40 characters), the
variant's key, and the switches as a game record gives them.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "b7e3f1a9c5d2"
down_revision = "a16c0e7b2d41"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "rule_set",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("variant", sa.String(length=32), nullable=False),
        sa.Column("house_rules", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("name"),
    )


def downgrade():
    op.drop_table("rule_set")
