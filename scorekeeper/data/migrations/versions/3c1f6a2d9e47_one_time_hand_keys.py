"""One-time hand keys: a form's key is kept apart from the hand, for good

A hand form carries a one-time key; the hand saved with it is found by the key, so the
same form sent again (a double tap, Back, a second try) answers with that hand instead
of recording it twice. The key used to be a column of the hand, so undoing the hand
forgot the key and the old form could record it again; and a key was unique per game
only, so a form posted to another game recorded there. Keys now live in their own
table, unique everywhere, and outlive an undone hand (its ``hand_id`` becomes null).

Revision ID: 3c1f6a2d9e47
Revises: 6b9d9fbfc39e
Create Date: 2026-12-01 11:50:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "3c1f6a2d9e47"
down_revision = "6b9d9fbfc39e"
branch_labels = None
depends_on = None

#: Longest key (a form's or a phone's): frozen here, as the app's may change.
KEY_MAX = 64


def upgrade():
    # The keys the hands were saved with, so the same pages sent again still find their
    # hand. Two games could hold one key (it was unique per game): the first one keeps it.
    # Copied aside first: on SQLite the hand table is rebuilt below, and dropping the old
    # one would set every hand_id to null if hand_key already pointed at it.
    op.create_table(
        "hand_key_moving",
        sa.Column("key", sa.String(length=KEY_MAX), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("hand_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.execute(
        """
        INSERT INTO hand_key_moving (key, game_id, hand_id, number, created_at)
        SELECT h.token, h.game_id, h.id, h.number, h.created_at FROM hand h
        WHERE h.token IS NOT NULL
          AND h.id = (SELECT min(o.id) FROM hand o WHERE o.token = h.token)
        """
    )
    with op.batch_alter_table("hand") as batch:
        batch.drop_constraint("uq_hand_game_token", type_="unique")
        batch.drop_column("token")
    op.create_table(
        "hand_key",
        sa.Column("key", sa.String(length=KEY_MAX), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("hand_id", sa.Integer(), nullable=True),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["game.id"], name="fk_hand_key_game_id", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["hand_id"], ["hand.id"], name="fk_hand_key_hand_id", ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("key"),
    )
    op.create_index("ix_hand_key_game_id", "hand_key", ["game_id"])
    op.create_index("ix_hand_key_hand_id", "hand_key", ["hand_id"])
    op.execute(
        "INSERT INTO hand_key (key, game_id, hand_id, number, created_at) "
        "SELECT key, game_id, hand_id, number, created_at FROM hand_key_moving"
    )
    op.drop_table("hand_key_moving")


def downgrade():
    # The hand table is rebuilt on SQLite: drop the keys' table (kept aside) before it.
    op.create_table(
        "hand_key_moving",
        sa.Column("key", sa.String(length=KEY_MAX), nullable=False),
        sa.Column("hand_id", sa.Integer(), nullable=True),
    )
    op.execute("INSERT INTO hand_key_moving (key, hand_id) SELECT key, hand_id FROM hand_key")
    op.drop_index("ix_hand_key_hand_id", table_name="hand_key")
    op.drop_index("ix_hand_key_game_id", table_name="hand_key")
    op.drop_table("hand_key")
    with op.batch_alter_table("hand") as batch:
        batch.add_column(sa.Column("token", sa.String(length=KEY_MAX), nullable=True))
        batch.create_unique_constraint("uq_hand_game_token", ["game_id", "token"])
    op.execute(
        "UPDATE hand SET token = (SELECT m.key FROM hand_key_moving m WHERE m.hand_id = hand.id)"
    )
    op.drop_table("hand_key_moving")
