"""Commands that need the web app: they import Flask and the app only when they run."""

from __future__ import annotations

import click


def register(group: click.Group) -> None:
    """Add the web app's commands to the ``scorekeeper`` command group."""
    group.add_command(init_db)
    group.add_command(serve)


@click.command("init-db")
def init_db() -> None:
    """Create or upgrade the database to the latest schema."""
    from . import create_app
    from .database import upgrade_database

    app = create_app()
    with app.app_context():
        upgrade_database()
    click.echo(f"Database ready: {app.config['SQLALCHEMY_DATABASE_URI']}")


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on; 0.0.0.0 serves the local network.")
@click.option("--port", default=5000, show_default=True, type=int)
@click.option("--threads", default=8, show_default=True, type=int)
def serve(host: str, port: int, threads: int) -> None:
    """Serve the app with the production WSGI server (waitress)."""
    import waitress

    from . import create_app
    from .database import upgrade_database
    from .network import addresses_to_type

    app = create_app()
    with app.app_context():
        upgrade_database()
    for url in addresses_to_type(host, port):
        click.echo(f"Open {url}")
    waitress.serve(app, host=host, port=port, threads=threads, ident="scorekeeper")
