"""The score history page, and the history printed as one PDF in the background."""

from __future__ import annotations

import re
import threading
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update

from scorekeeper import rules
from scorekeeper.data import models
from scorekeeper.data.database import write_transaction
from scorekeeper.data.extensions import db

from .games import eventful_game, ink_on_page, pdf_pages, play_out, result_of, score_words, store

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


@pytest.fixture(autouse=True)
def settings(app: Any) -> None:
    # Two worker processes lay out a history, as on the two-core machine it runs on;
    # two games a page, so three games make two pages.
    app.config.update(PDF_WORKERS=2, HISTORY_PAGE_SIZE=2)


def played_on(app: Any, game_id: int, day: str) -> None:
    """Move a game's start to another day (games are dated when they are stored)."""
    with app.app_context(), write_transaction():
        db.session.execute(
            update(models.Game)
            .where(models.Game.id == game_id)
            .values(created_at=datetime.fromisoformat(day + " 20:00"))
        )


@pytest.fixture
def three_games(app: Any) -> dict[str, int]:
    """A finished game (March), a finished partnership game (April), an unfinished Pedro (May)."""
    game, hands = eventful_game()
    eventful = store(app, game, hands)
    teams = {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}
    game, hands = play_out("auction-pitch", PLAYERS, teams=teams, stake="1")
    partners = store(app, game, hands)
    game, hands = play_out("pedro", ["Cy", "Dee", "Eve"])
    unfinished = store(app, game, hands[:2])
    played_on(app, eventful, "2026-03-14")
    played_on(app, partners, "2026-04-02")
    played_on(app, unfinished, "2026-05-09")
    return {"eventful": eventful, "partners": partners, "unfinished": unfinished}


def listed(client: Any, query: str = "") -> list[int]:
    """The game numbers the history page lists, in order."""
    response = client.get("/history" + query)
    assert response.status_code == 200, response.get_data(as_text=True)[:800]
    return [
        int(n)
        for n in re.findall(r'<span class="muted">#(\d+)</span>', response.get_data(as_text=True))
    ]


def test_the_history_lists_finished_and_unfinished_games_newest_first_a_page_at_a_time(
    client: Any, three_games: dict[str, int]
) -> None:
    first = listed(client)
    second = listed(client, "?page=2")
    assert first + second == [
        three_games["unfinished"],
        three_games["partners"],
        three_games["eventful"],
    ]
    page = client.get("/history").get_data(as_text=True)
    assert "Page 1 of 2" in page and "playing, after 2 hands" in page
    # The next page starts after the last game shown (?page=2 alone still works, above).
    assert f'rel="next" href="/history?page=2&amp;before={first[-1]}"' in page
    assert listed(client, "?page=9") == second  # past the end: the last page


def test_the_history_filters_by_player_game_dates_and_whether_finished(
    client: Any, three_games: dict[str, int]
) -> None:
    assert listed(client, "?player=Eve") == [three_games["unfinished"]]
    assert listed(client, "?player=Bob") == [three_games["partners"], three_games["eventful"]]
    assert listed(client, "?variant=pedro") == [three_games["unfinished"]]
    assert listed(client, "?date_from=2026-04-01&date_to=2026-04-30") == [three_games["partners"]]
    assert listed(client, "?date_to=2026-03-14") == [three_games["eventful"]]
    assert listed(client, "?status=playing") == [three_games["unfinished"]]
    assert listed(client, "?player=Ann&status=finished") == [
        three_games["partners"],
        three_games["eventful"],
    ]


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("?date_from=14/03/2026", "write the date as YYYY-MM-DD"),
        ("?date_from=2026-05-01&date_to=2026-04-01", "The end date comes before the start date."),
        ("?variant=poker", "is not a game we keep score of"),
        ("?player=Nobody+Here", "Nobody called &#39;Nobody Here&#39; has played here."),
        ("?status=lost", "Choose one of"),
        ("?page=abc", "is not a page number"),
        ("?page=0", "is not a page number"),
    ],
)
def test_a_bad_filter_gets_a_clear_message(
    client: Any, three_games: dict[str, int], query: str, message: str
) -> None:
    response = client.get("/history" + query)
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    if "page=" not in query:  # the PDF prints every page: it has no page number to check
        response = client.get("/history.pdf" + query)
        assert response.status_code == 400
        assert message in response.get_data(as_text=True)


def finish(client: Any, job_url: str, timeout: float = 180) -> dict[str, Any]:
    """Poll a printing job's status until it is over, as the page does."""
    deadline = time.monotonic() + timeout
    while True:
        status: dict[str, Any] = client.get(job_url + ".json").get_json()
        if status["state"] in ("done", "failed") or time.monotonic() > deadline:
            return status
        time.sleep(0.1)


def test_the_history_pdf_is_a_summary_then_every_sheet_numbered_as_one_document(
    app: Any, client: Any, three_games: dict[str, int], tmp_path: Path
) -> None:
    response = client.get("/history.pdf")
    assert response.status_code == 303
    job_url = response.headers["Location"].split("?")[0]
    status = finish(client, job_url)
    assert status["state"] == "done", status
    download = client.get(status["download"])
    assert download.status_code == 200 and download.mimetype == "application/pdf"
    assert "attachment" in download.headers["Content-Disposition"]
    pages = pdf_pages(download.data)

    assert len(pages) == status["pages"]
    for number, text in enumerate(pages, start=1):  # numbered once, as one document
        assert len(re.findall(r"page \d+ of \d+", text)) == 1, text[-200:]
        assert f"page {number} of {len(pages)}" in text
    summary = pages[0]
    assert summary.startswith("Score history")
    assert "3 games: 2 finished, 1 not finished" in summary
    for game_id in three_games.values():
        result = result_of(app, game_id)
        line = " ".join(summary.split())
        assert f"#{game_id}" in line
        for side in result.sides:
            assert f"{side} {score_words(result.scores[side])}" in line
        if result.settlement is not None:
            assert result.winner is not None
            for p in result.settlement.payments:
                assert f"{p.payer} → {p.payee} {p.units}" in line
                if p.amount is not None:
                    assert f"({p.amount:.2f})" in line
        # The summary names the page the game's sheet starts on, and the sheet is there.
        # (A row starts with its date, written short as the language does: 3/14/26.)
        row = re.search(rf"#{game_id} (.*?)(?=\n\d+/\d+/\d+ |\nWho is up|\Z)", summary, re.S)
        assert row is not None
        start = int(row.group(1).split()[-1])  # the last cell of the row: its page
        assert f"game {game_id}" in pages[start - 1].split("\n")[0]
    newest_first = [three_games[k] for k in ("unfinished", "partners", "eventful")]
    assert [int(n) for n in re.findall(r"#(\d+)", summary)] == newest_first
    # The page numbers are stamped over the pages, and the pages still show under them.
    (tmp_path / "history.pdf").write_bytes(download.data)
    for number in (1, len(pages)):
        # A page painted out under its stamp keeps only its footer: about 0.1 % ink.
        assert ink_on_page(tmp_path / "history.pdf", number, dpi=50)[1] > 0.004


def test_a_history_laid_out_in_the_web_process_is_the_one_the_workers_lay_out(
    app: Any, client: Any, three_games: dict[str, int]
) -> None:
    def printed(query: str) -> list[str]:
        status = finish(
            client, client.get("/history.pdf" + query).headers["Location"].split("?")[0]
        )
        assert status["state"] == "done", status
        pages = pdf_pages(client.get(status["download"]).data)
        # Each part says when it was printed, to the minute: leave the minute out.
        return [re.sub(r"printed .*", "printed", page) for page in pages]

    with_workers = printed("")
    app.config["PDF_WORKERS"] = 0  # no worker processes: every part laid out here
    here = printed("?date_from=2026-01-01")  # the same games (another job: another query)

    assert len(with_workers) == len(here) == 4
    assert here[1:] == with_workers[1:]  # the sheets (the summaries name their filters)
    assert here[0].split("\n")[2:] == with_workers[0].split("\n")[2:]


@pytest.fixture
def with_a_long_game(app: Any, three_games: dict[str, int]) -> dict[str, int]:
    """The three games, and a game of 60 hands (its sheet takes two pages) in the middle."""
    game = rules.Game.create("auction-pitch", PLAYERS, house_rules={"target": 200, "smudge": "off"})
    hands = [
        rules.Hand(pitcher=p, bid=2, points={"high": p, "low": p, "jack": None, "game": p})
        for p in ["Bob", "Cy", "Dee", "Ann"] * 15
    ]
    long_game = store(app, game, hands)
    played_on(app, long_game, "2026-04-20")
    return {**three_games, "long": long_game}


def summary_and_starts(client: Any, games: dict[str, int]) -> tuple[list[str], dict[str, int]]:
    """Print the history; its pages, and the page the summary says each game starts on."""
    status = finish(client, client.get("/history.pdf").headers["Location"].split("?")[0])
    assert status["state"] == "done", status
    pages = pdf_pages(client.get(status["download"]).data)
    starts = {}
    for name, game_id in games.items():
        row = re.search(rf"#{game_id} (.*?)(?=\n\d+/\d+/\d+ |\nWho is up|\Z)", pages[0], re.S)
        assert row is not None
        starts[name] = int(row.group(1).split()[-1])
    return pages, starts


def test_the_summary_counts_the_pages_of_a_sheet_longer_than_one(
    client: Any, with_a_long_game: dict[str, int]
) -> None:
    pages, starts = summary_and_starts(client, with_a_long_game)

    # Newest first: the unfinished game, the long one (two pages), then the other two.
    assert [starts[k] for k in ("unfinished", "long", "partners", "eventful")] == [2, 3, 5, 6]
    for name, start in starts.items():
        assert f"game {with_a_long_game[name]}" in pages[start - 1].split("\n")[0]
    assert len(pages) == 6


def test_a_sheet_longer_than_it_was_thought_to_be_is_still_counted(
    client: Any, with_a_long_game: dict[str, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorekeeper.pdf import history

    # Take every sheet for one page: the summary laid out beside the sheets is wrong, and
    # is laid out again once the long sheet is found to take two.
    monkeypatch.setattr(history, "ONE_PAGE_LINES", 1000)

    pages, starts = summary_and_starts(client, with_a_long_game)

    assert [starts[k] for k in ("unfinished", "long", "partners", "eventful")] == [2, 3, 5, 6]
    assert f"game {with_a_long_game['eventful']}" in pages[5].split("\n")[0]
    for number, text in enumerate(pages, start=1):
        assert f"page {number} of 6" in text


def test_the_same_history_asked_for_twice_is_printed_once(
    client: Any, three_games: dict[str, int]
) -> None:
    first = client.get("/history.pdf?player=Eve").headers["Location"].split("?")[0]
    second = client.get("/history.pdf?player=Eve").headers["Location"].split("?")[0]
    assert first == second
    assert finish(client, first)["state"] == "done"
    pages = pdf_pages(client.get(finish(client, first)["download"]).data)
    assert "games with Eve" in pages[0] and "1 game:" in pages[0]


def test_the_printing_page_shows_progress_and_asks_again_until_the_pdf_is_ready(
    app: Any, client: Any
) -> None:
    from scorekeeper.history.views import jobs
    from scorekeeper.pdf.render import write_pdf

    go_on = threading.Event()
    pdf = write_pdf("<p>A history</p>", app.static_folder).pdf

    def work(progress: Any) -> bytes:
        progress(3, 10, "Laid out 3 of 8 score sheets")
        assert go_on.wait(60)
        return pdf

    with app.app_context():
        job = jobs().start(("test",), "Score history", "score-history.pdf", work)
    deadline = time.monotonic() + 30
    while "30%" not in (page := client.get(f"/history/jobs/{job.id}").get_data(as_text=True)):
        assert time.monotonic() < deadline, page
        time.sleep(0.05)
    assert '<progress max="100" value="30"' in page
    assert "Laid out 3 of 8 score sheets" in page
    assert '<meta http-equiv="refresh" content="2">' in page  # no JavaScript needed
    assert f'href="/history/jobs/{job.id}">Check again</a>' in page
    assert client.get(f"/history/jobs/{job.id}/score-history.pdf").status_code == 303

    go_on.set()
    assert finish(client, f"/history/jobs/{job.id}")["state"] == "done"
    page = client.get(f"/history/jobs/{job.id}").get_data(as_text=True)
    assert "http-equiv" not in page
    assert f'href="/history/jobs/{job.id}/score-history.pdf"' in page
    assert client.get(f"/history/jobs/{job.id}/score-history.pdf").data == pdf


def test_an_unknown_printing_job_gets_a_clear_message(client: Any) -> None:
    for url in (
        "/history/jobs/nope",
        "/history/jobs/nope.json",
        "/history/jobs/nope/score-history.pdf",
    ):
        response = client.get(url)
        assert response.status_code == 404
        assert "no longer kept" in response.get_data(as_text=True)


def test_a_history_too_long_for_one_pdf_asks_for_narrower_filters(
    app: Any, client: Any, three_games: dict[str, int]
) -> None:
    app.config["PDF_HISTORY_MAX_GAMES"] = 2
    response = client.get("/history.pdf")
    assert response.status_code == 400
    assert "That is 3 games; one PDF prints at most 2." in response.get_data(as_text=True)
    narrower = client.get("/history.pdf?variant=pedro")
    assert narrower.status_code == 303
    assert finish(client, narrower.headers["Location"].split("?")[0])["state"] == "done"


def test_the_navigation_links_to_the_history(client: Any) -> None:
    assert 'href="/history">History</a>' in client.get("/").get_data(as_text=True)


def test_a_game_that_no_longer_replays_is_listed_with_the_engines_message(
    app: Any, client: Any
) -> None:
    game, hands = eventful_game()
    game_id = store(app, game, hands)
    with (
        app.app_context(),
        write_transaction(),
    ):  # a stored hand that breaks the rules (as a bad edit by hand would)
        db.session.execute(update(models.Hand).where(models.Hand.number == 1).values(bid=9))
    page = client.get("/history").get_data(as_text=True)
    assert f"game {game_id}" in page and "This game cannot be scored: hand 1" in page
    assert rules  # the engine's message is shown as it says it


def test_a_part_of_several_sheets_names_no_element_twice(
    app: Any, three_games: dict[str, int]
) -> None:
    """Sheets laid out together in one document keep their anchors apart (WeasyPrint warned
    "Anchor defined twice" for each finished game's result heading)."""
    from scorekeeper.pdf import history

    with app.test_request_context("/"):
        views = list(history.load_views(list(three_games.values())))
        finished = [v for v in views if v.finished]
        html = history.sheets_html(views, paper="letter")
    assert len(finished) >= 2
    ids = re.findall(r'\bid="([^"]+)"', html)
    assert ids and len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)


def test_warming_up_starts_the_fork_server_with_weasyprint_loaded() -> None:
    """``scorekeeper serve`` warms up on a thread, so the first history waits for no start."""
    import os

    from scorekeeper.pdf import pool

    pool.warm_up()

    def command_lines() -> list[str]:
        found = []
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                status = Path(f"/proc/{pid}/status").read_text()
                line = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            if f"\nPPid:\t{os.getpid()}\n" in status:
                found.append(line)
        return found

    servers = [line for line in command_lines() if "forkserver" in line]
    assert servers, command_lines()
    assert "weasyprint" in servers[0] and "scorekeeper.pdf.render" in servers[0]


def test_who_is_up_in_a_history_with_stakes_is_sorted_and_labelled_by_money(
    app: Any, client: Any
) -> None:
    """Bob loses the game played for money and wins two played for nothing: he is up in units
    (+1) but down in money (-2.00), so he is listed below Ann, as down."""
    for players, stake in ((["Bob", "Ann"], "2"), (["Ann", "Bob"], None), (["Ann", "Bob"], None)):
        game, hands = play_out("auction-pitch", players, stake=stake)
        game_id = store(app, game, hands)
        settlement = result_of(app, game_id).settlement
        assert settlement is not None
        assert settlement.payments[0].payee == players[1]  # the second seat wins here
    status = finish(client, client.get("/history.pdf").headers["Location"].split("?")[0])
    assert status["state"] == "done", status
    summary = pdf_pages(client.get(status["download"]).data)[0]
    up = " ".join(summary.split("Who is up, who is down", 1)[1].split())
    assert "sorted by money" in up and "Player money units" in up
    rows = re.findall(r"(Ann|Bob) (up|down|even) ([+-]?[\d.,]+) ([+-]?\d+)", up)
    assert rows == [("Ann", "up", "+2.00", "-1"), ("Bob", "down", "-2.00", "+1")], up
