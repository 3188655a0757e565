"""A hand's counts toward Game (RULES.md section 10: counting Game)

Revision ID: a16c0e7b2d41
Revises: 3c1f6a2d9e47
Create Date: 2026-12-01 11:40:00.000000

Adds ``hand.game_count``: each seat's count toward Game (tens 10, aces 4, kings 3,
queens 2, jacks 1), in seat order, or null when the table did not count. The hands
already stored did not count, so they keep null.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "a16c0e7b2d41"
down_revision = "3c1f6a2d9e47"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("hand") as batch:
        batch.add_column(sa.Column("game_count", sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table("hand") as batch:
        batch.drop_column("game_count")
