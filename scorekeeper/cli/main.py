"""The ``scorekeeper`` command line: score a record offline, list variants, serve the app."""

from __future__ import annotations

import inspect
import re
import sys
from collections.abc import Iterable, Sequence
from typing import Any

import click

from .. import i18n
from ..i18n import N_, gettext
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
from . import files

#: Click's own words in a help page (its formatter's and its help option's), marked for the
#: catalogue: a help page is said in the command line's language like everything else.
CLICK_WORDS = {
    "Usage:": N_("Usage:"),
    "Options": N_("Options"),
    "Commands": N_("Commands"),
    "Positional arguments": N_("Positional arguments"),
    "Show this message and exit.": N_("Show this message and exit."),
}
#: The part click adds to an option's help: ``[default: 8]``, ``[required]``.
_EXTRA = re.compile(r"\[default: (?P<default>.*?)\]|\[required\]")


class SpeakingFormatter(click.HelpFormatter):
    """Click's help formatter, saying click's own words in the command line's language."""

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        if prefix is None:
            prefix = gettext(CLICK_WORDS["Usage:"]) + " "
        super().write_usage(prog, args, prefix)

    def write_heading(self, heading: str) -> None:
        super().write_heading(gettext(CLICK_WORDS[heading]) if heading in CLICK_WORDS else heading)

    def write_dl(self, rows: Iterable[tuple[str, str]], *args: Any, **kwargs: Any) -> None:
        super().write_dl([(term, _said(text)) for term, text in rows], *args, **kwargs)


def _said(text: str) -> str:
    """An option's help as click wrote it, its own words in the command line's language."""
    for english, marked in CLICK_WORDS.items():
        text = text.replace(english, gettext(marked))

    def extra(found: re.Match[str]) -> str:
        if found.group("default") is None:
            return "[" + gettext("required") + "]"
        return "[" + gettext("default: %(value)s", value=found.group("default")) + "]"

    return _EXTRA.sub(extra, text)


class SpeakingContext(click.Context):
    formatter_class = SpeakingFormatter


def _speak_help(command: click.Command) -> None:
    """Say every help text of ``command`` and its subcommands in the language in use, from the
    English they were written in (kept on first use, so each run translates afresh)."""
    command.context_class = SpeakingContext
    english = command.__dict__.setdefault(
        "_english_help", inspect.cleandoc(command.help) if command.help else None
    )
    if english:
        command.help = gettext(english)
    for param in command.params:
        english = param.__dict__.setdefault("_english_help", getattr(param, "help", None))
        if english:
            param.help = gettext(english)
    for sub in getattr(command, "commands", {}).values():
        _speak_help(sub)


def language_asked(args: Sequence[str]) -> str:
    """The language the command line is asked to speak: ``--lang`` before the command's name,
    else the environment's. Read before click parses anything, so ``--lang ro --help``, which
    click answers before it reads ``--lang``, is Romanian too."""
    for i, arg in enumerate(args):
        if not arg.startswith("-"):
            break  # the command's name: its own options follow
        value = arg.partition("=")[2] if arg.startswith("--lang=") else None
        if arg == "--lang" and i + 1 < len(args):
            value = args[i + 1]
        if value in i18n.LANGUAGES:
            return value
    return i18n.locale_from_environment()


def _database_problem(error: BaseException) -> str | None:
    """What a database error says, in one line; None for any other error."""
    exc = sys.modules.get("sqlalchemy.exc")
    if exc is None or not isinstance(error, exc.SQLAlchemyError):
        return None
    reason = str(getattr(error, "orig", None) or error).splitlines()[0]
    return gettext(
        "error: the database cannot be used (%(reason)s); `scorekeeper init-db` creates or "
        "upgrades it",
        reason=reason,
    )


class ScorekeeperGroup(click.Group):
    """The command group; the web commands load Flask only when they run.

    Every problem a command meets is one line on standard error and status 2, never a
    traceback or a usage page: a file (the commands open their files themselves), a usage
    error of click's (``error: ...; see scorekeeper pdf --help``), a database that is not
    set up. Help pages are said in the command line's language."""

    context_class = SpeakingContext

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        args = list(sys.argv[1:] if args is None else args)
        with i18n.use_locale(language_asked(args)):
            _speak_help(self)
            if not standalone_mode:
                return super().main(args, prog_name, complete_var, False, **extra)
            try:
                code = super().main(args, prog_name, complete_var, False, **extra)
            except click.exceptions.NoArgsIsHelpError as asked:
                asked.show()  # the group's help, as asked for by giving no command
                sys.exit(asked.exit_code)
            except click.Abort:
                click.echo(gettext("Aborted."), err=True)
                sys.exit(1)
            except click.ClickException as error:
                click.echo(one_line(_usage_problem(error)), err=True)
                sys.exit(error.exit_code)
            except Exception as error:
                problem = _database_problem(error)
                if problem is None:
                    raise
                click.echo(one_line(problem), err=True)
                sys.exit(2)
            sys.exit(code if isinstance(code, int) else 0)


def _usage_problem(error: click.ClickException) -> str:
    """A usage error of click's on one line, with where to read how the command is used."""
    context = getattr(error, "ctx", None)
    problem = error.format_message().rstrip(".")
    if context is None:
        return gettext("error: %(problem)s", problem=problem)
    return gettext(
        "error: %(problem)s; see %(command)s --help", problem=problem, command=context.command_path
    )


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
    return files.read_bytes(path)


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
