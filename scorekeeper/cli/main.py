"""The ``scorekeeper`` command line: score a record offline, list variants, serve the app."""

from __future__ import annotations

import sys

import click

from .. import i18n
from ..i18n import gettext
from ..rules import (
    RULE_SETS,
    VARIANTS,
    GameResult,
    RuleError,
    Variant,
    dumps,
    loads_record,
    output_document,
)
from ..rules.errors import one_line
from ..sheets.terminal import terminal_sheet


class ScorekeeperGroup(click.Group):
    """The command group; the web commands load Flask only when they run."""


@click.group(cls=ScorekeeperGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--lang",
    type=click.Choice(sorted(i18n.LANGUAGES)),
    help="Language of the output (default: from LANGUAGE, LC_ALL, LC_MESSAGES or LANG).",
)
@click.pass_context
def main(ctx: click.Context, lang: str | None) -> None:
    """Pitch Scorekeeper: score Auction Pitch and its family."""
    ctx.with_resource(i18n.use_locale(lang or i18n.locale_from_environment()))


def _read_record(path: str) -> bytes:
    """Read the record at ``path`` ('-' is standard input); a file that cannot be read is
    one line naming it and the problem, status 2, as for every other bad input."""
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        with open(path, "rb") as file:
            return file.read()
    except FileNotFoundError:
        problem = gettext("there is no such file")
    except IsADirectoryError:
        problem = gettext("is a folder, not a file")
    except OSError as error:
        problem = gettext("cannot be read (%(reason)s)", reason=error.strerror or error)
    click.echo(one_line(f"{path}: {problem}"), err=True)
    sys.exit(2)


@main.command()
@click.argument("file", type=click.Path(dir_okay=True, allow_dash=True))
@click.option(
    "--json", "as_json", is_flag=True, help="Print the Output document of GAME-RECORD.md."
)
def score(file: str, as_json: bool) -> None:
    """Score the game record FILE ('-' reads standard input) and print the score sheet."""
    record = _read_record(file)
    try:
        result: GameResult = loads_record(record).score()
    except RuleError as error:
        click.echo(i18n.error_message(error), err=True)
        sys.exit(2)
    if as_json:
        click.echo(dumps(output_document(result)), nl=False)
    else:
        click.echo(terminal_sheet(result))


def _shape_line(variant: Variant) -> str:
    """Say a game's seats, bids and points, in count-out order."""
    return "  " + gettext(
        "seats %(seats)s; bids %(bids)s; points %(points)s",
        seats=f"{variant.min_seats}-{variant.max_seats}",
        bids=f"{variant.min_bid}-{variant.max_bid}",
        points=", ".join(p.key for p in variant.points),
    )


def _switches_line(switches: dict[str, object]) -> str:
    """Say house rules as the record writes them (null for None), or "" if there are none
    to say; the bids and points are on the shape line."""
    rules = ", ".join(
        f"{k}={'null' if v is None else v}"
        for k, v in switches.items()
        if k not in ("points", "min_bid", "max_bid")
    )
    return "  " + gettext("house rules: %(rules)s", rules=rules) if rules else ""


@main.command()
def variants() -> None:
    """List the variants and their preset house rules, then the ready-made rule sets."""
    for variant in VARIANTS.values():
        click.echo(f"{variant.key}: {gettext(variant.name)}")
        click.echo(f"  {gettext(variant.description)}")
        click.echo(_shape_line(variant))
        click.echo(_switches_line(variant.preset.as_dict()))
    # RULES.md 11.2: each set is a variant with its switches, as a game records it.
    click.echo("")
    click.echo(gettext("Ready-made rule sets (a variant and its house rules):"))
    for rule_set in RULE_SETS.values():
        click.echo(
            gettext(
                "%(key)s: %(name)s (%(variant)s)",
                key=rule_set.key,
                name=gettext(rule_set.name),
                variant=rule_set.variant,
            )
        )
        click.echo(f"  {gettext(rule_set.summary)}")
        click.echo(_shape_line(rule_set.played))
        switches = _switches_line(rule_set.house_rules())
        if switches:
            click.echo(switches)


def _register_web_commands() -> None:
    """Attach the commands that need the web app (they import Flask lazily)."""
    from . import commands

    commands.register(main)


_register_web_commands()
