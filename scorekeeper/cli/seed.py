"""``scorekeeper seed --games N``: fill the database with realistic random game nights.

For demos and for the page benchmark: the games are made up by ``scorekeeper.seed`` and
written with bulk inserts (SQLAlchemy Core), statistics cache included, by
``operations.seeded.write_seeded``. Nothing goes through the web layer.
"""

from __future__ import annotations

import click

from .. import i18n


def seed_database(
    games: int, *, seed: int = 0, players: int = 48, chunk: int = 500
) -> dict[str, int]:
    """Write ``games`` generated games (with their nights and statistics) in one transaction."""
    from ..operations.seeded import write_seeded
    from ..seed.generator import generate

    return write_seeded(generate(games, seed=seed, players=players), chunk=chunk)


@click.command("seed")
@click.option(
    "--games",
    default=1000,
    show_default=True,
    type=click.IntRange(1, 1_000_000),
    help="How many games to make up.",
)
@click.option(
    "--seed",
    "rng_seed",
    default=0,
    show_default=True,
    type=int,
    help="Random seed: the same seed makes the same games.",
)
@click.option(
    "--players",
    default=48,
    show_default=True,
    type=click.IntRange(8, 10_000),
    help="How many players on the roster, in clubs of regulars.",
)
def seed_command(games: int, rng_seed: int, players: int) -> None:
    """Fill the database with GAMES realistic random games in game nights (for demos)."""
    import time

    from ..data.database import shown, upgrade_database
    from .commands import configured_app

    app = configured_app()
    started = time.perf_counter()
    with app.app_context():
        upgrade_database()
        counts = seed_database(games, seed=rng_seed, players=players)
    seconds = round(time.perf_counter() - started, 1)
    click.echo(
        i18n.gettext(
            "Seeded %(games)s (%(hands)s) in %(nights)s in %(seconds)s s: %(url)s",
            games=i18n.ngettext("%(num)s game", "%(num)s games", counts["games"]),
            hands=i18n.ngettext("%(num)s hand", "%(num)s hands", counts["hands"]),
            nights=i18n.ngettext("%(num)s night", "%(num)s nights", counts["nights"]),
            seconds=i18n.number(seconds),
            url=shown(app.config["SQLALCHEMY_DATABASE_URI"]),
        )
    )
