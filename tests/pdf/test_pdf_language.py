"""A PDF prints in the language chosen when printing: the request's, the job's, the command's.

Read back from the PDFs (pypdf): Romanian words are on the page and the English labels
they replace are not. Only what the printing code writes is checked here; the game's
settlement and chart come from templates and modules other tests walk in Romanian.
"""

from __future__ import annotations

import threading
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from sqlalchemy import update

from scorekeeper import i18n
from scorekeeper.cli.main import main
from scorekeeper.data import models
from scorekeeper.data.database import write_transaction
from scorekeeper.data.extensions import db
from scorekeeper.i18n import N_

from .games import eventful_game, pdf_pages, play_out, store

RO = {"Accept-Language": "ro"}
EN = {"Accept-Language": "en"}
#: Labels the sheet prints, and their Romanian (the glossary's words).
SHEET_WORDS = {
    "Seats": "Locuri",
    "Dealer": "Împarte",
    "House rules": "Reguli ale casei",
    "Notes Hand 2": "Note Mâna 2",  # the note under the table
}


def played_on(app: Any, game_id: int, moment: str) -> None:
    """Move a game's start to a known day (games are dated when they are stored)."""
    with app.app_context(), write_transaction():
        db.session.execute(
            update(models.Game)
            .where(models.Game.id == game_id)
            .values(created_at=datetime.fromisoformat(moment))
        )


def sheet_text(client: Any, game_id: int, headers: dict[str, str]) -> list[str]:
    response = client.get(f"/games/{game_id}/sheet.pdf", headers=headers)
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    return pdf_pages(response.data)


def test_a_sheet_asked_for_in_romanian_prints_in_romanian(app: Any, client: Any) -> None:
    game, hands = eventful_game()
    game_id = store(app, game, hands)
    played_on(app, game_id, "2026-03-14 19:05")

    (text,) = sheet_text(client, game_id, RO)
    line = " ".join(text.split())
    for english, romanian in SHEET_WORDS.items():
        assert romanian in line
        assert english not in line
    assert "Pitch cu licitație" in line  # the variant, by its Romanian name
    assert "Data sâmbătă, 14 martie 2026, 19:05 · terminată" in line  # as Romanian writes it
    assert "1 Ann (a împărțit primul)" in line
    assert "toți au dat pas" in line and "passed out" not in line
    assert "pagina 1 din 1" in line and "page 1 of" not in line  # the footer too

    (english_text,) = sheet_text(client, game_id, EN)
    english_line = " ".join(english_text.split())
    for english, romanian in SHEET_WORDS.items():
        assert english in english_line
        assert romanian not in english_line
    assert "page 1 of 1" in english_line


def test_an_unfinished_sheet_says_who_deals_next_in_romanian(app: Any, client: Any) -> None:
    game, hands = play_out("sell-out", ["Ann", "Bob", "Cy"])
    game_id = store(app, game, hands[:3])

    line = " ".join(" ".join(sheet_text(client, game_id, RO)).split())
    assert "Neterminată" in line and "Not finished" not in line
    assert "După 3 mâini:" in line
    assert "împarte mâna 4" in line and "vinde." in line and "deals hand" not in line
    assert "jucată de vânzător" in line and "pitched" not in line


def test_a_night_printed_in_romanian_numbers_its_pages_in_romanian(client: Any) -> None:
    response = client.post(
        "/nights", data={"name": "Friday pitch", "place": "", "date": "2026-11-27"}
    )
    assert response.status_code == 302
    printed = client.get(response.headers["Location"] + ".pdf", headers=RO)
    assert printed.status_code == 200 and printed.mimetype == "application/pdf"
    line = " ".join(" ".join(pdf_pages(printed.data)).split())
    assert "vineri, 27 noiembrie 2026" in line and "0 partide" in line
    assert "Nicio partidă." in line and "No game." not in line
    assert "pagina 1 din 1" in line and "page 1 of" not in line


def job_url(response: Any) -> str:
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    return str(response.headers["Location"]).split("?")[0]


def finish(client: Any, url: str, timeout: float = 180) -> dict[str, Any]:
    """Poll a printing job's status until it is over."""
    deadline = time.monotonic() + timeout
    while True:
        status: dict[str, Any] = client.get(url + ".json").get_json()
        if status["state"] in ("done", "failed") or time.monotonic() > deadline:
            return status
        time.sleep(0.1)


def test_a_history_printed_in_romanian_is_romanian_and_a_separate_file_from_the_english_one(
    app: Any, client: Any
) -> None:
    # Two worker processes lay out the sheets, as on the two-core machine it runs on.
    app.config.update(PDF_WORKERS=2)
    game, hands = eventful_game()
    store(app, game, hands)
    game, hands = play_out("auction-pitch", ["Ann", "Bob", "Cy"], stake="1")
    store(app, game, hands)
    game, hands = play_out("pedro", ["Cy", "Dee", "Eve"])
    store(app, game, hands[:2])

    romanian = job_url(client.get("/history.pdf", headers=RO))
    english = job_url(client.get("/history.pdf", headers=EN))
    assert romanian != english  # the language is part of what a job prints
    assert job_url(client.get("/history.pdf", headers=RO)) == romanian  # and it is found again
    romanian_status, english_status = finish(client, romanian), finish(client, english)
    assert romanian_status["state"] == english_status["state"] == "done", romanian_status
    assert romanian_status["stage"] == "Ready"  # the JSON status stays English
    romanian_pdf = client.get(romanian_status["download"]).data
    english_pdf = client.get(english_status["download"]).data
    assert romanian_pdf != english_pdf

    pages = pdf_pages(romanian_pdf)
    for number, text in enumerate(pages, start=1):  # numbered once, in Romanian
        assert f"pagina {number} din {len(pages)}" in text
        assert "page " not in text
    summary = " ".join(pages[0].split())
    assert "3 partide — terminate: 2, neterminate: 1" in summary
    assert "Jucători" in summary and "Cine e pe plus, cine e pe minus" in summary
    assert "Players" not in summary and "Who is up" not in summary
    sheets = " ".join(" ".join(pages[1:]).split())  # laid out by the worker processes
    assert "Împarte" in sheets and "Locuri" in sheets
    assert "Dealer" not in sheets and "Seats" not in sheets

    english_pages = pdf_pages(english_pdf)
    assert f"page 1 of {len(english_pages)}" in english_pages[0]
    assert "3 games: 2 finished, 1 not finished" in english_pages[0]
    assert "Dealer" in " ".join(english_pages[1:]) and "Împarte" not in " ".join(english_pages)


def test_a_printing_job_works_in_the_language_it_was_started_in_and_says_its_stage_in_the_readers(
    app: Any,
) -> None:
    from scorekeeper.history.views import jobs
    from scorekeeper.pdf.render import write_pdf

    pdf = write_pdf("<p>A history</p>", app.static_folder).pdf
    go_on = threading.Event()
    spoken: list[str] = []

    def work(progress: Any) -> bytes:
        spoken.append(i18n.current_locale())  # on the job's thread, outside the app
        with app.app_context():  # as the history's work renders its HTML
            spoken.append(i18n.current_locale())
        progress(1, 4, N_("Laid out %(done)s of %(all)s score sheets"), done=1, all=2)
        assert go_on.wait(60)
        return pdf

    with app.app_context(), i18n.use_locale("ro"):
        job = jobs().start(("language test",), "Istoric", "istoric.pdf", work)
    with app.app_context():
        english_job = jobs().start(("language test",), "History", "history.pdf", work)
        assert english_job.id != job.id  # the same work in English is another job
        deadline = time.monotonic() + 30
        while (found := jobs().get(job.id)) is None or found.done != 1:
            assert time.monotonic() < deadline
            time.sleep(0.05)
    assert found.stage == "Laid out 1 of 2 score sheets"  # in English, for the JSON status
    with app.app_context(), i18n.use_locale("ro"):
        assert found.stage_words == "Foi de scor așezate în pagină: 1 din 2"
    with app.app_context():
        assert found.stage_words == "Laid out 1 of 2 score sheets"

    go_on.set()
    with app.app_context():
        deadline = time.monotonic() + 30
        while not all((j := jobs().get(i)) and j.over for i in (job.id, english_job.id)):
            assert time.monotonic() < deadline
            time.sleep(0.05)
        done = jobs().get(job.id)
        assert done is not None and done.ready
        assert done.stage_words == "Ready"
        with i18n.use_locale("ro"):
            assert done.stage_words == "Gata"
    assert spoken[:2] == ["ro", "ro"]
    assert spoken[2:] == ["en", "en"]


@pytest.fixture
def command_line_database(app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Point the command line's own app at the test's database."""
    monkeypatch.setenv("DATABASE_URL", app.config["SQLALCHEMY_DATABASE_URI"])


def test_the_pdf_command_with_lang_ro_prints_the_sheet_and_its_words_in_romanian(
    app: Any, tmp_path: Path, command_line_database: None
) -> None:
    game, hands = eventful_game()
    game_id = store(app, game, hands)
    target = tmp_path / "foaie.pdf"

    outcome = CliRunner().invoke(main, ["--lang", "ro", "pdf", str(game_id), "-o", str(target)])

    assert outcome.exit_code == 0, outcome.output
    assert outcome.output == f"Am scris {target}: partida {game_id}, o pagină.\n"
    (text,) = pdf_pages(target.read_bytes())
    line = " ".join(text.split())
    assert "Împarte" in line and "pagina 1 din 1" in line
    assert "Dealer" not in line and "page 1 of" not in line

    missing = CliRunner().invoke(main, ["--lang", "ro", "pdf", "41", "-o", str(target)])
    assert missing.exit_code == 2
    assert missing.stderr == "Nu există partida cu numărul 41.\n"
