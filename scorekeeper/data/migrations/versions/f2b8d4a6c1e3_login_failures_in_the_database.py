"""The organiser login's failed attempts, in the database

Revision ID: f2b8d4a6c1e3
Revises: e1a7c3f9b5d4
Create Date: 2027-01-10 12:00:00.000000

Adds ``login_failure``: an attempt from an address, counted before its password is checked
and dropped when a login from there succeeds or the window has passed. Kept in the database
rather than in each process, so the limit is one for all the workers (and machines) of an
install: five wrong passwords, not five per worker.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "f2b8d4a6c1e3"
down_revision = "e1a7c3f9b5d4"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "login_failure",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_login_failure_address_at", "login_failure", ["address", "at"])


def downgrade():
    op.drop_index("ix_login_failure_address_at", table_name="login_failure")
    op.drop_table("login_failure")
