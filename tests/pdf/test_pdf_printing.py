"""Every PDF a request asks for goes through the one bounded printing queue, and is kept.

A game's sheet and a night's settlement are laid out by the same queue of printing
jobs as the history (``pdf/jobs.py``), answered from what was printed while the game
(or night) has not changed, and a full queue answers 503 with Retry-After (a page in
the reader's language) at once, never holding the table's requests. And the paper
follows the language (A4 in Romanian, US Letter in English) unless set or asked for.
"""

from __future__ import annotations

import html
import io
import threading
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from scorekeeper import operations
from scorekeeper.operations import nights

from .games import eventful_game, hand, pdf_pages, store

RO = {"Accept-Language": "ro"}
EN = {"Accept-Language": "en"}
LETTER, A4 = (612, 792), (595, 842)
STATIC = Path(__file__).resolve().parents[2] / "static"


@pytest.fixture
def game_id(app: Any) -> int:
    game, hands = eventful_game()
    return store(app, game, hands[:2])


@pytest.fixture
def night_id(app: Any, game_id: int) -> int:
    with app.app_context():
        night = nights.start_night("Friday pitch", None, date(2026, 11, 27))
        nights.add_game(night, game_id)
        return night


def _printer() -> Any:
    from scorekeeper.pdf import printer

    return printer.printer()


def _record_a_hand(app: Any, game_id: int) -> None:
    with app.app_context():
        version = operations.loading.load(game_id).row.version
        operations.hands.record_hand(
            game_id, hand("Ann", 2, high="Ann", low="Ann", jack=None, game="Bob"), version=version
        )


def _size(data: bytes) -> tuple[int, int]:
    box = PdfReader(io.BytesIO(data)).pages[0].mediabox
    return round(float(box.width)), round(float(box.height))


def _laid_out(app: Any) -> int:
    with app.app_context():
        return _printer().laid_out


@pytest.fixture
def printer_held(app: Any) -> Iterator[threading.Event]:
    """Fill the printing queue with jobs that wait until the test lets them go."""
    go_on = threading.Event()
    with app.app_context():
        registry = _printer().jobs
        for number in range(registry.max_waiting):
            registry.start(("held", number), "held", "held.pdf", lambda progress: _held(go_on))
    yield go_on
    go_on.set()


def _held(go_on: threading.Event) -> bytes:
    assert go_on.wait(60)
    from scorekeeper.pdf.render import write_pdf

    return write_pdf("<p>held</p>", str(STATIC)).pdf


def test_a_sheet_is_laid_out_once_while_its_game_is_unchanged(
    app: Any, client: Any, game_id: int
) -> None:
    first = client.get(f"/games/{game_id}/sheet.pdf")
    assert first.status_code == 200
    for _ in range(3):
        again = client.get(f"/games/{game_id}/sheet.pdf")
        assert again.data == first.data
    assert _laid_out(app) == 1
    # A hand recorded: the next sheet is printed afresh, and shows it.
    _record_a_hand(app, game_id)
    changed = client.get(f"/games/{game_id}/sheet.pdf")
    assert _laid_out(app) == 2
    assert "Ann" in pdf_pages(changed.data)[0]
    assert changed.data != first.data
    # Another language or paper is another document.
    client.get(f"/games/{game_id}/sheet.pdf", headers=RO)
    client.get(f"/games/{game_id}/sheet.pdf?paper=a4")
    assert _laid_out(app) == 4


def test_a_night_pdf_is_laid_out_once_while_the_night_is_unchanged_and_is_not_stored(
    app: Any, client: Any, night_id: int, game_id: int
) -> None:
    first = client.get(f"/nights/{night_id}.pdf")
    assert first.status_code == 200
    assert first.headers["Cache-Control"] == "no-store"
    assert client.get(f"/nights/{night_id}.pdf").data == first.data
    assert _laid_out(app) == 1
    _record_a_hand(app, game_id)
    client.get(f"/nights/{night_id}.pdf")
    assert _laid_out(app) == 2


@pytest.mark.parametrize("kind", ["sheet", "night"])
def test_a_full_printing_queue_answers_503_with_retry_after_in_the_readers_language(
    app: Any, client: Any, game_id: int, night_id: int, printer_held: threading.Event, kind: str
) -> None:
    # One second's wait instead of five: the test waits it out in real time at the end.
    app.config["PDF_RETRY_SECONDS"] = 1
    url = f"/games/{game_id}/sheet.pdf" if kind == "sheet" else f"/nights/{night_id}.pdf"
    response = client.get(url, headers=EN)
    assert response.status_code == 503
    assert int(response.headers["Retry-After"]) > 0
    page = response.get_data(as_text=True)
    assert "The printer is busy" in page
    assert "Traceback" not in page
    # The same client asking again before its Retry-After is over: 429, in its language.
    again = client.get(url, headers=RO)
    assert again.status_code == 429
    assert int(again.headers["Retry-After"]) == 1
    assert "Ați cerut documente mai repede" in again.get_data(as_text=True)
    # Another client is told the printer is busy.
    romanian = client.get(url, headers=RO, environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert romanian.status_code == 503
    assert "Imprimanta este ocupată" in romanian.get_data(as_text=True)
    # Once the queue drains, the same address prints (once its wait is over).
    printer_held.set()
    for _ in range(200):
        if (answer := client.get(url)).status_code == 200:
            break
        threading.Event().wait(0.1)
    assert answer.status_code == 200
    assert answer.mimetype == "application/pdf"


def test_only_a_few_requests_wait_for_a_pdf_and_the_rest_are_told_to_come_back(
    app: Any, game_id: int
) -> None:
    """Waiting requests hold server threads, so only PDF_WAITING_REQUESTS may wait at once."""
    app.config.update(PDF_WAITING_REQUESTS=2, PDF_MAX_JOBS=2)
    go_on = threading.Event()
    with app.app_context():
        _printer().jobs.start(("held",), "held", "held.pdf", lambda p: _held(go_on))
    answers: list[int] = []

    def fetch() -> None:
        answers.append(app.test_client().get(f"/games/{game_id}/sheet.pdf").status_code)

    waiting = [threading.Thread(target=fetch) for _ in range(2)]
    for thread in waiting:
        thread.start()
    with app.app_context():
        for _ in range(200):
            if _printer().waiting == 2:
                break
            threading.Event().wait(0.05)
        assert _printer().waiting == 2
    # A third client (its own share untouched) is told to come back.
    third = app.test_client().get(
        f"/games/{game_id}/sheet.pdf", environ_base={"REMOTE_ADDR": "192.0.2.8"}
    )
    assert third.status_code == 503
    assert "Retry-After" in third.headers
    go_on.set()
    for thread in waiting:
        thread.join(60)
    assert answers == [200, 200]
    assert _laid_out(app) == 1  # the two waited for one job


@pytest.mark.parametrize("kind", ["sheet", "night", "history"])
def test_the_paper_follows_the_language_unless_set_or_asked_for(
    app: Any, client: Any, game_id: int, night_id: int, kind: str
) -> None:
    from .test_pdf_history import finish

    def printed(query: str = "", headers: dict[str, str] | None = None) -> bytes:
        if kind == "sheet":
            return client.get(f"/games/{game_id}/sheet.pdf{query}", headers=headers).data
        if kind == "night":
            return client.get(f"/nights/{night_id}.pdf{query}", headers=headers).data
        started = client.get(f"/history.pdf{query}", headers=headers)
        assert started.status_code == 303, started.get_data(as_text=True)
        status = finish(client, started.headers["Location"].split("?")[0])
        return client.get(status["download"]).data

    assert _size(printed(headers=EN)) == LETTER
    assert _size(printed(headers=RO)) == A4
    assert _size(printed("?paper=letter", headers=RO)) == LETTER
    assert _size(printed("?paper=A4", headers=EN)) == A4
    app.config["PDF_PAPER"] = "a4"
    assert _size(printed(headers=EN)) == A4
    assert _size(printed("?paper=letter", headers=EN)) == LETTER


@pytest.mark.parametrize("url", ["/games/1/sheet.pdf", "/nights/1.pdf", "/history.pdf"])
def test_a_paper_we_do_not_print_on_is_refused_naming_the_papers(
    client: Any, game_id: int, night_id: int, url: str
) -> None:
    response = client.get(url + "?paper=legal")
    assert response.status_code == 400
    assert "'legal' is not a paper size we print on; use one of: letter, a4" in html.unescape(
        response.get_data(as_text=True)
    )


def test_the_pdf_defaults_are_in_the_configuration() -> None:
    from scorekeeper import config

    settings = config.defaults("/tmp/instance")
    for name in (
        "PDF_PAPER",
        "PDF_WORKERS",
        "PDF_MAX_JOBS",
        "PDF_JOB_SECONDS",
        "PDF_HISTORY_MAX_GAMES",
        "PDF_WAITING_REQUESTS",
        "PDF_WAIT_SECONDS",
        "PDF_KEPT",
    ):
        assert name in settings, name
    assert settings["PDF_PAPER"] is None  # follow the language
