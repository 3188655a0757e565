"""``scorekeeper pdf GAME_ID -o FILE`` writes the same sheet the web page serves."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from scorekeeper.cli.pdf import pdf_command

from .games import eventful_game, pdf_pages, result_of, store


def test_the_pdf_command_writes_a_games_sheet_to_a_file(
    app: Any, runner: Any, tmp_path: Path
) -> None:
    game, hands = eventful_game()
    game_id = store(app, game, hands)
    target = tmp_path / "sheet.pdf"

    outcome = runner.invoke(pdf_command, [str(game_id), "-o", str(target), "--paper", "a4"])

    assert outcome.exit_code == 0, outcome.output
    assert outcome.output == f"Wrote {target}: game {game_id}, 1 page.\n"
    (text,) = pdf_pages(target.read_bytes())
    result = result_of(app, game_id)
    assert f"{result.winner} won" in text
    assert "Ann" in text and "Dee" in text


def test_the_pdf_command_names_a_missing_game_and_writes_nothing(
    app: Any, runner: Any, tmp_path: Path
) -> None:
    target = tmp_path / "sheet.pdf"
    outcome = runner.invoke(pdf_command, ["41", "-o", str(target)])
    assert outcome.exit_code == 2
    assert "There is no game number 41." in outcome.output
    assert not target.exists()
