"""Commands that need the web app: they import Flask and the app only when they run."""

from __future__ import annotations

import gc
import json
import sys
import threading
from pathlib import Path
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


def _app() -> Any:
    from .. import create_app

    return create_app()


@click.command("init-db")
def init_db() -> None:
    """Create or upgrade the database to the latest schema."""
    from ..data.database import shown, upgrade_database

    app = _app()
    with app.app_context():
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
    help="Threads for requests besides the live boards' (default 8; plus LIVE_STREAMS).",
)
def serve(host: str, port: int, threads: int | None) -> None:
    """Serve the app with the production WSGI server (waitress)."""
    from ..auth.access import password_required
    from ..data.database import upgrade_database
    from ..pdf import bundle
    from ..serving import server as serving
    from ..serving.network import addresses_to_type

    app = _app()
    with app.app_context():
        upgrade_database()
    if app.config.get("SERVED_HOSTS") is not None and host not in ("0.0.0.0", "::", ""):
        # Served on one address: that address is a name the app answers to.
        app.config["SERVED_HOSTS"] = [
            *app.config["SERVED_HOSTS"],
            f"[{host}]" if ":" in host else host,
        ]
    app.config["LISTEN_HOST"] = host  # pages name the LAN address when opened on loopback
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
    if bundle.worker_count(app.config.get("PDF_WORKERS")) > 0:
        # On a thread: the server answers at once; a history printed a moment later waits
        # only for what is left of the start.
        threading.Thread(
            target=bundle.warm_up, args=(app.static_folder,), name="pdf-warm-up", daemon=True
        ).start()
    serving.serve(
        app,
        host=host,
        port=port,
        threads=serving.thread_count(app, threads or serving.REQUEST_THREADS),
    )


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
    app = _app()
    path = password_hash_path(app)
    path.write_text(generate_password_hash(password))
    path.chmod(0o600)
    click.echo(gettext("Organiser password set (%(path)s).", path=path))


@click.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
def backup(file: Path) -> None:
    """Copy the SQLite database to FILE, consistently, while the app keeps running."""
    from .backup import backup_sqlite

    app = _app()
    with app.app_context():
        try:
            pages = backup_sqlite(file)
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
@click.argument("file", type=click.File("w", encoding="utf-8"))
def export_all(file: Any) -> None:
    """Write every game, as game records with their dates, to FILE ('-' for standard output)."""
    from .backup import export_collection

    app = _app()
    with app.app_context():
        collection = export_collection()
    json.dump(collection, file, indent=1, ensure_ascii=False)
    file.write("\n")
    click.echo(
        ngettext("Exported %(num)s game.", "Exported %(num)s games.", len(collection["games"])),
        err=True,
    )


@click.command("import-all")
@click.argument("file", type=click.File("rb"))
def import_all(file: Any) -> None:
    """Add every game of an export-all FILE to this database; a bad file adds nothing."""
    from ..rules import RuleError
    from .backup import import_collection

    app = _app()
    with app.app_context():
        try:
            count = import_collection(file.read())
        except RuleError as error:
            click.echo(i18n.error_message(error), err=True)
            sys.exit(2)
    click.echo(ngettext("Imported %(num)s game.", "Imported %(num)s games.", count))
