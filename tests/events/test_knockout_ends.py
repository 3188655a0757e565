"""The knockout's loose ends: the room's board keeps its results hidden while the director
keeps the standings hidden; the standings page says the knockout is being played until
its final is; the director's screen puts the bracket above the round robin's last round.

The pages are the real views on a real database; hands go through
``operations.hands.record_hand`` (``test_knockout._win``).
"""

from __future__ import annotations

import re
from typing import Any

from .test_knockout import _event, _play_round_robin, _start_knockout, _table_game, _win


def _board(client: Any, event_id: int) -> str:
    response = client.get(f"/events/{event_id}/board")
    assert response.status_code == 200
    html: str = response.get_data(as_text=True)
    return html[html.index('id="knockout-shown-title"') :] if "knockout-shown-title" in html else ""


def test_the_board_hides_the_knockouts_results_while_the_standings_are_hidden(
    client: Any, app: Any
) -> None:
    event_id = _event(client, knockout="2", best_of="3", standings_hidden="y")
    _play_round_robin(client, app, event_id)
    _start_knockout(client, app, event_id)
    _win(app, _table_game(client, event_id, 1), "Kings")
    _win(app, _table_game(client, event_id, 1), "Kings")

    hidden = _board(client, event_id)
    assert "kept hidden until the director shows them" in hidden
    assert "<bdi>Aces</bdi>" in hidden and "<bdi>Kings</bdi>" in hidden  # the pairing
    assert "Champion" not in hidden
    assert "wins the final" not in hidden
    assert not re.search(r'class="num wins"|class="bracket-games"| won"|decided', hidden)
    # The standings page, not the room's board, shows it all the while.
    assert "Champion: <bdi>Kings</bdi>" in client.get(f"/events/{event_id}/standings").get_data(
        as_text=True
    )

    # The director shows the standings: the board shows the results.
    shown = client.post(f"/events/{event_id}/board-standings", data={"hidden": "0"})
    assert shown.status_code == 302
    board = _board(client, event_id)
    assert "Champion: <bdi>Kings</bdi>" in board
    assert 'class="bracket-games"' in board and "kept hidden" not in board

    # Hidden again, then the event closes: the end shows them.
    client.post(f"/events/{event_id}/board-standings", data={"hidden": "1"})
    assert "Champion" not in _board(client, event_id)
    assert client.post(f"/events/{event_id}/finish").status_code == 302
    assert "Champion: <bdi>Kings</bdi>" in _board(client, event_id)


def _said(client: Any, event_id: int) -> str:
    page = client.get(f"/events/{event_id}/standings").get_data(as_text=True)
    found = re.search(r'<p class="muted" id="standings-said">(.*?)</p>', page, re.S)
    assert found is not None, page[:2000]
    return found.group(1)


def test_the_standings_say_final_only_once_the_knockouts_final_is_played(
    client: Any, app: Any
) -> None:
    event_id = _event(client, knockout="2", best_of="1")
    _play_round_robin(client, app, event_id)
    assert _said(client, event_id) == "Every round is played; the knockout is next."
    _start_knockout(client, app, event_id)
    playing = _said(client, event_id)
    assert "the knockout is being played" in playing and "Final" not in playing
    _win(app, _table_game(client, event_id, 1), "Aces")
    assert _said(client, event_id) == "Final: every round and the knockout are played."


def test_the_directors_screen_puts_the_bracket_above_the_finished_round(
    client: Any, app: Any
) -> None:
    event_id = _event(client, knockout="2", best_of="1")
    _play_round_robin(client, app, event_id)
    before = client.get(f"/events/{event_id}").get_data(as_text=True)
    assert 'id="round-title"' in before and 'id="last-round"' not in before
    assert before.index('id="round-title"') < before.index('id="knockout-title"')

    _start_knockout(client, app, event_id)
    page = client.get(f"/events/{event_id}").get_data(as_text=True)
    assert 'id="round-title"' not in page
    bracket = page.index('id="knockout-title"')
    folded = page.index('<details class="card last-round" id="last-round">')
    assert bracket < folded
    summary = re.search(r'id="last-round">\s*<summary>(.*?)</summary>', page, re.S)
    assert summary is not None
    assert summary.group(1) == "Round 3, the round robin's last: every table finished"
    # The finished round's tables are still there, folded, each game one tap away.
    assert "/games/" in page[folded : page.index("</details>", folded)]
    # Its own live region: the bracket's changes do not fold or unfold it.
    assert page.index('data-live="round"') < bracket < page.index('data-live="last-round"')


def test_call_time_calls_the_knockout_games_in_play(client: Any, app: Any) -> None:
    from scorekeeper import operations, rules

    from .test_knockout import TEAMS_BY_NAME, _state

    event_id = _event(client, knockout="4", best_of="3")
    _play_round_robin(client, app, event_id)
    _start_knockout(client, app, event_id)
    semis = [_table_game(client, event_id, n) for n in (1, 2)]
    page = client.get(f"/events/{event_id}").get_data(as_text=True)
    assert 'id="call-time-knockout"' in page

    called = client.post(f"/events/{event_id}/clock/call")
    assert called.status_code == 302
    said = client.get(called.headers["Location"]).get_data(as_text=True)
    assert "Time called: 2 tables finish the hand in play." in said
    with app.app_context():
        # Each semi-final's game ends after its hand in play (the first: none played yet).
        assert [operations.loading.load(g).row.called for g in semis] == [1, 1]
        # The round robin's clock, stopped with its last round, is left as it was.
        state = operations.events.load_event(event_id)
        assert state.current is not None and state.current.called_at is None
        # One hand, Aces take every point: the called game is over, the series goes on.
        loaded = operations.loading.load(semis[0])
        who = next(n for n in loaded.names if n in TEAMS_BY_NAME["Aces"])
        hand = rules.Hand(
            pitcher=who, bid=2, points={"high": who, "low": who, "jack": who, "game": who}
        )
        result = operations.hands.record_hand(semis[0], hand, version=loaded.row.version)
        assert result.finished
    assert _table_game(client, event_id, 1) != semis[0]
    assert _state(app, event_id).event.knockout_seeds is not None
