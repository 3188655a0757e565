"""An event's director's code

Revision ID: b3d7f1c5e9a2
Revises: b3d5f7a9c1e2
Create Date: 2027-01-20 12:00:00.000000

Adds ``event.director_code_hash``: a hash of the code another device enters to direct the
event too (only the hash is kept). Events set up before have none until their director
draws one.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "b3d7f1c5e9a2"
down_revision = "b3d5f7a9c1e2"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column("event", sa.Column("director_code_hash", sa.String(length=200), nullable=True))


def downgrade():
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE event DROP COLUMN director_code_hash")
    else:
        op.drop_column("event", "director_code_hash")
