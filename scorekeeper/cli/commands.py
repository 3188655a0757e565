"""Commands that need the web app: they import Flask and the app only when they run."""

from __future__ import annotations

import gc
import json
import sys
import threading
from typing import Any
from urllib.parse import urlsplit

import click
from babel.support import LazyProxy

from .. import i18n
from ..i18n import gettext, ngettext
from .pdf import pdf_command
from .seed import seed_command


def register(group: click.Group) -> None:
    """Add the web app's commands to the ``scorekeeper`` command group."""
    group.add_command(init_db)
    group.add_command(serve)
    group.add_command(set_password)
    group.add_command(backup)
    group.add_command(export_all)
    group.add_command(import_all)
    group.add_command(seed_command)
    group.add_command(pdf_command)
    group.add_command(verify)


def configured_app() -> Any:
    """The configured app; a setting or data folder it cannot run with is one line, status 2."""
    from .. import create_app
    from ..config import SettingError

    try:
        return create_app()
    except SettingError as error:
        click.echo(gettext("error: %(problem)s", problem=error), err=True)
        sys.exit(2)


@click.command("init-db")
def init_db() -> None:
    """Create or upgrade the database to the latest schema."""
    from ..data.database import command_context, shown, upgrade_database

    app = configured_app()
    with command_context(app):  # its connections closed when done, as every command's
        upgrade_database()
    click.echo(gettext("Database ready: %(url)s", url=shown(app.config["SQLALCHEMY_DATABASE_URI"])))


#: Allocations between two collections of the youngest objects (Python's default: 700).
#: A page makes tens of thousands of short-lived objects; collecting every 700 of them
#: was a tenth of a recorded hand's time (bench/fullstack_bench.py).
YOUNG_COLLECTION_EVERY = 20_000


def ready_to_serve() -> None:
    """Move everything made at start (modules, the app, its templates) out of the garbage
    collector's sight: a full collection then scans only what requests made. A list page
    allocates enough to start one now and then, and scanning the whole program put its
    slowest tenth at 170 ms instead of under 100 (bench/pages_bench.py does the same).
    Young objects are collected less often, too."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_COLLECTION_EVERY, *gc.get_threshold()[1:])


@click.command()
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on; 0.0.0.0 serves the phones on the local network.",
)
@click.option("--port", default=5000, show_default=True, type=int)
@click.option(
    "--threads",
    default=None,
    type=int,
    help="Threads for requests (default 8); the live boards' streams take none.",
)
def serve(host: str, port: int, threads: int | None) -> None:
    """Serve the app with the production WSGI server (waitress)."""
    from ..auth.access import password_required
    from ..data.database import upgrade_database
    from ..pdf import pool
    from ..serving import server as serving
    from ..serving.network import addresses_to_type

    app = configured_app()
    with app.app_context():
        upgrade_database()
    if app.config.get("SERVED_HOSTS") is not None and host not in ("0.0.0.0", "::", ""):
        # Served on one address: that address is a name the app answers to.
        app.config["SERVED_HOSTS"] = [
            *app.config["SERVED_HOSTS"],
            f"[{host}]" if ":" in host else host,
        ]
    app.config["LISTEN_HOST"] = host  # pages name the LAN address when opened on loopback
    say_where_the_data_is(app)
    urls = addresses_to_type(host, port)
    for url in urls:
        click.echo(gettext("Open %(url)s", url=url))
    print_join_code(urls[0])
    if not host.startswith("127.") and host != "localhost" and not password_required(app):
        click.echo(
            gettext(
                "Anyone on this network can change the scores. To require a login for changes, "
                "run `scorekeeper set-password` or set SCOREKEEPER_PASSWORD."
            ),
            err=True,
        )
    ready_to_serve()
    if pool.worker_count(app.config.get("PDF_WORKERS")) > 0:
        # On a thread: the server answers at once; a history printed a moment later waits
        # only for what is left of the start.
        threading.Thread(target=pool.warm_up, name="pdf-warm-up", daemon=True).start()
    try:
        serving.serve(
            app,
            host=host,
            port=port,
            threads=serving.thread_count(app, threads or serving.REQUEST_THREADS),
            stopping=pool.stop,  # the layout workers end with the server, within seconds
        )
    except serving.CannotListen as error:
        click.echo(
            gettext(
                "error: cannot listen on %(host)s port %(port)s: %(reason)s. Is another "
                "server there? Choose another with --port.",
                host=host,
                port=port,
                reason=error.strerror,
            ),
            err=True,
        )
        pool.stop()
        sys.exit(2)


def say_where_the_data_is(app: Any) -> None:
    """Say where the database is, and where backups go: the data folder of an installed
    copy is not where a person would look (``scorekeeper/places.py``)."""
    from ..data.database import place, sqlite_database

    with app.app_context():
        click.echo(gettext("Database: %(place)s", place=place()))
        on_file = sqlite_database()
    if on_file:
        backups = app.extensions["scorekeeper.places"].backups
        click.echo(gettext("Backups: %(folder)s (scorekeeper backup makes one)", folder=backups))
    else:
        click.echo(gettext("Backups: pg_dump, or scorekeeper export-all"))


def print_join_code(url: str) -> None:
    """Print ``url`` as a QR code for the phones to scan, when someone is looking at a terminal
    that can draw it (not into a log) and a phone could open it (not a loopback address).
    The server has no game yet at start: the code opens the list of games."""
    from ..serving import qr
    from ..serving.network import host_name, is_loopback

    if not sys.stdout.isatty() or not qr.can_draw_on(sys.stdout.encoding):
        return
    if is_loopback(host_name(urlsplit(url).netloc)):
        return
    click.echo(qr.terminal(url), nl=False)
    click.echo(gettext("Scan the code with a phone's camera to open %(url)s.", url=url))


@click.command("set-password")
@click.option(
    "--password",
    # Asked in the language chosen when the command runs (--lang is read after this is made).
    prompt=LazyProxy(lambda: gettext("Password"), enable_cache=False),
    hide_input=True,
    confirmation_prompt=LazyProxy(lambda: gettext("Repeat for confirmation"), enable_cache=False),
    help="The organiser password (asked for when not given).",
)
def set_password(password: str) -> None:
    """Require an organiser login for changes; only a hash is stored, in the instance folder."""
    from werkzeug.security import generate_password_hash

    from ..auth.access import password_hash_path

    if len(password) < 4:
        click.echo(gettext("error: choose a password of at least 4 characters"), err=True)
        sys.exit(2)
    app = configured_app()
    path = password_hash_path(app)
    path.write_text(generate_password_hash(password))
    path.chmod(0o600)
    click.echo(gettext("Organiser password set (%(path)s).", path=path))


@click.command()
@click.argument("file", required=False)
def backup(file: str | None) -> None:
    """Copy the SQLite database to FILE, consistently, while the app keeps running.

    Without FILE, into the backups folder that serve names, named by the time.
    """
    from datetime import datetime

    from ..data.database import command_context
    from .backup import backup_sqlite
    from .files import writable_target

    app = configured_app()
    if file is None:
        folder = app.extensions["scorekeeper.places"].backups
        folder.mkdir(parents=True, exist_ok=True)
        file = str(folder / f"scorekeeper-{datetime.now():%Y-%m-%d-%H%M%S}.sqlite3")
    target = writable_target(file)
    with command_context(app):
        try:
            pages = backup_sqlite(target)
        except ValueError as error:
            click.echo(gettext("error: %(problem)s", problem=error), err=True)
            sys.exit(2)
    click.echo(
        ngettext(
            "Backed up %(num)s page to %(file)s",
            "Backed up %(num)s pages to %(file)s",
            pages,
            file=file,
        )
    )


@click.command("export-all")
@click.argument("file")
def export_all(file: str) -> None:
    """Write every game, as game records with their dates, to FILE ('-' for standard output)."""
    from ..data.database import command_context
    from .backup import export_collection
    from .files import writable_target, write_text

    if file != "-":
        writable_target(file)  # refused before the database is read
    app = configured_app()
    with command_context(app):
        collection = export_collection()
    write_text(file, json.dumps(collection, indent=1, ensure_ascii=False) + "\n")
    click.echo(
        ngettext("Exported %(num)s game.", "Exported %(num)s games.", len(collection["games"])),
        err=True,
    )


@click.command("import-all")
@click.argument("file")
def import_all(file: str) -> None:
    """Add every game of an export-all FILE to this database; a bad file adds nothing, and
    what is here already is left out."""
    from ..data.database import command_context
    from ..rules import RuleError
    from .backup import import_collection, say_written
    from .files import read_bytes

    text = read_bytes(file)
    app = configured_app()
    with command_context(app):
        try:
            written = import_collection(text)
        except RuleError as error:
            click.echo(i18n.error_message(error), err=True)
            sys.exit(2)
    for line in say_written(written):
        click.echo(line)


@click.command()
@click.argument("game", required=False, type=int)
def verify(game: int | None) -> None:
    """Say whether each game's trail of changes is whole (or GAME's): every entry as it was
    written, each naming the one before. Status 1 names the first entry that is not."""
    from .. import operations
    from ..data.database import command_context

    app = configured_app()
    with command_context(app):
        checks = operations.trail_check.verify(game)
    if not checks:
        click.echo(gettext("No trail to check: no game has a change kept yet."))
        return
    broken = 0
    for found in checks:
        name = (
            gettext("Game %(number)s", number=found.game_id)
            if found.kept
            else gettext("Game %(number)s (deleted)", number=found.game_id)
        )
        if found.whole:
            click.echo(
                ngettext(
                    "%(game)s: the trail is whole (%(num)s entry).",
                    "%(game)s: the trail is whole (%(num)s entries).",
                    found.entries,
                    game=name,
                )
            )
            continue
        broken += 1
        what = found.broken_kind or ""
        if found.broken_hand is not None:
            what = gettext("%(kind)s, hand %(number)s", kind=what, number=found.broken_hand)
        click.echo(
            gettext(
                "%(game)s: the trail is broken at entry %(number)s (%(what)s): it was changed "
                "outside the app.",
                game=name,
                number=found.broken,
                what=what,
            )
        )
    if broken:
        sys.exit(1)
