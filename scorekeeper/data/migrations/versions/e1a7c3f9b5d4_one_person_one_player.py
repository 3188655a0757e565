"""One person, one player: every player's name key, unique

Revision ID: e1a7c3f9b5d4
Revises: e7a1c9d3b5f4
Create Date: 2027-01-10 10:00:00.000000

Adds ``player.name_key``: what every spelling of a name shares (Unicode's NFKC, case
folded, characters that draw nothing left out, spaces run together), under a unique index,
so that "Ana" and "ana" typed at the same moment make one player.

A roster may already hold two spellings of one name ("Ana" and "ana", or "Ana" with a
zero-width space). Nothing is merged here, and nothing fails: the oldest player of each
name keeps the key, every other spelling is left without one (the merge page offers to
merge it) and is named in a warning, as init-db prints it. ``name_key`` below is a frozen
copy of ``rules.game.name_key`` as this migration was written.
"""

import logging
import re
import unicodedata

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "e1a7c3f9b5d4"
down_revision = "e7a1c9d3b5f4"
branch_labels = None
depends_on = None

log = logging.getLogger("alembic.runtime.migration")

_IGNORABLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f"
    "\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)
_SPACES = re.compile(r"\s+")


def name_key(name):
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return _SPACES.sub(" ", _IGNORABLE.sub("", folded)).strip()


def upgrade():
    op.add_column("player", sa.Column("name_key", sa.Text(), nullable=True))
    conn = op.get_bind()
    players = conn.execute(
        sa.text("SELECT id, name FROM player ORDER BY created_at, id")
    ).all()
    holders = {}
    keyed = []
    for player_id, name in players:
        key = name_key(name)
        holder = holders.get(key)
        if holder is None:
            holders[key] = (player_id, name)
            keyed.append({"id": player_id, "key": key})
            continue
        log.warning(
            "Player %s, %r, is another spelling of player %s, %r: if they are one person, "
            "merge them on the page of either (/players/%s); their games stay apart until then.",
            player_id,
            name,
            holder[0],
            holder[1],
            holder[0],
        )
    if keyed:
        conn.execute(sa.text("UPDATE player SET name_key = :key WHERE id = :id"), keyed)
    op.create_index("uq_player_name_key", "player", ["name_key"], unique=True)


def downgrade():
    op.drop_index("uq_player_name_key", table_name="player")
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE player DROP COLUMN name_key")
    else:
        op.drop_column("player", "name_key")
