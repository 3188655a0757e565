"""PostgreSQL announces every change to a game itself (live boards)

Revision ID: d5e9f3a7b2c8
Revises: c4d8e2f6a1b3
Create Date: 2026-12-01 17:10:00.000000

On PostgreSQL a trigger on ``game`` sends a notification on the channel the live boards
listen on (``scorekeeper/live.py``) whenever a game's version changes or the game is
deleted: delivered when the change commits, never if it rolls back, to every server
process. The write no longer sends it in a statement of its own (a round trip per hand
saved), and no writer can forget to. The payload is ``live.Change``'s:
``{"game": id, "version": version, "deleted": false}``. SQLite has no notifications: a
single server process delivers the changes itself, on commit.

The channel and payload are written out here, not imported: a migration keeps what it
needs (the app's names may change later; this revision must not).
"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "d5e9f3a7b2c8"
down_revision = "c4d8e2f6a1b3"
branch_labels = None
depends_on = None

CREATE_FUNCTION = """
CREATE OR REPLACE FUNCTION scorekeeper_game_changed() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('scorekeeper_games', json_build_object(
            'game', OLD.id, 'version', NULL, 'deleted', true)::text);
    ELSIF NEW.version IS DISTINCT FROM OLD.version THEN
        PERFORM pg_notify('scorekeeper_games', json_build_object(
            'game', NEW.id, 'version', NEW.version, 'deleted', false)::text);
    END IF;
    RETURN NULL;
END
$$ LANGUAGE plpgsql
"""

CREATE_TRIGGER = """
CREATE TRIGGER game_changed AFTER UPDATE OR DELETE ON game
FOR EACH ROW EXECUTE FUNCTION scorekeeper_game_changed()
"""


def upgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(CREATE_FUNCTION)
    op.execute(CREATE_TRIGGER)


def downgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP TRIGGER IF EXISTS game_changed ON game")
    op.execute("DROP FUNCTION IF EXISTS scorekeeper_game_changed()")
