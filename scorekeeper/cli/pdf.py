"""``scorekeeper pdf GAME_ID -o FILE``: print one game's score sheet from the command line."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..i18n import gettext, ngettext


@click.command("pdf")
@click.argument("game_id", type=int)
@click.option(
    "-o",
    "--output",
    "output",
    type=str,
    help="Where to write the PDF ('-' for standard output).  [default: game-GAME_ID.pdf]",
)
@click.option(
    "--paper",
    type=click.Choice(["letter", "a4"], case_sensitive=False),
    default=None,
    help="Paper size.  [default: the PDF_PAPER setting, else letter]",
)
def pdf_command(game_id: int, output: str | None, paper: str | None) -> None:
    """Print the score sheet of game GAME_ID as a PDF."""
    from flask.cli import ScriptInfo

    from .. import operations
    from ..data.database import command_context
    from ..operations.errors import NotFound
    from ..pdf import printed_sheet as sheet
    from .commands import configured_app
    from .files import writable_target

    if output is not None and output != "-":
        writable_target(output)  # refused before the sheet is laid out
    # Under Flask's test runner (or `flask`), use the app it names; else the configured one,
    # whose connections are closed once the sheet is printed rather than left open.
    info = click.get_current_context().find_object(ScriptInfo)
    app = info.load_app() if info is not None else configured_app()
    target = output or f"game-{game_id}.pdf"
    with app.app_context() if info is not None else command_context(app):
        try:
            printed = sheet.game_sheet(game_id, paper=sheet.paper_size(paper))
        except NotFound as missing:
            click.echo(operations.errors.explain(missing), err=True)
            sys.exit(2)
        except sheet.BadPaper as error:
            click.echo(f"{error}.", err=True)
            sys.exit(2)
    if target == "-":
        with click.open_file("-", "wb") as stdout:  # click's binary standard output
            stdout.write(printed.pdf)
        return
    try:
        Path(target).write_bytes(printed.pdf)
    except OSError as error:
        click.echo(
            gettext("Cannot write %(file)s: %(reason)s.", file=target, reason=error.strerror),
            err=True,
        )
        sys.exit(2)
    click.echo(
        ngettext(
            "Wrote %(file)s: game %(id)s, %(num)s page.",
            "Wrote %(file)s: game %(id)s, %(num)s pages.",
            printed.pages,
            file=target,
            id=game_id,
        )
    )
