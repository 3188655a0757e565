"""A finished game remembers the game played after it ("Play again")

Revision ID: c4d8e2f6a1b3
Revises: b7e3f1a9c5d2
Create Date: 2026-12-01 14:00:00.000000

Adds ``game.next_game_id``: the game "Play again" started from this one, so a second tap
(or a second phone) lands on that game instead of starting another. Deleting that game
empties the column (ON DELETE SET NULL). Indexed, so deleting a game need not scan every
game for it.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "c4d8e2f6a1b3"
down_revision = "b7e3f1a9c5d2"
branch_labels = None
depends_on = None


def upgrade():
    if op.get_bind().dialect.name == "sqlite":
        # In place, not a batch "move and copy": with foreign keys on, dropping the old game
        # table would cascade to its seats and hands (as in 6b9d9fbfc39e).
        op.execute(
            "ALTER TABLE game ADD COLUMN next_game_id INTEGER "
            "REFERENCES game (id) ON DELETE SET NULL"
        )
    else:
        op.add_column("game", sa.Column("next_game_id", sa.Integer(), nullable=True))
        op.create_foreign_key(
            "fk_game_next_game_id", "game", "game", ["next_game_id"], ["id"], ondelete="SET NULL"
        )
    op.create_index("ix_game_next_game_id", "game", ["next_game_id"], unique=False)


def downgrade():
    op.drop_index("ix_game_next_game_id", table_name="game")
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE game DROP COLUMN next_game_id")
    else:
        op.drop_constraint("fk_game_next_game_id", "game", type_="foreignkey")
        op.drop_column("game", "next_game_id")
