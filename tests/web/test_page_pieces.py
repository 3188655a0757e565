"""The game page's pieces are never stale: a sheet row, a row of tap buttons and the note
field follow a corrected hand, the language, a tap and an error (sheet rows and tap rows are
drawn once and kept while nothing they show changes: these tests change each and look at the
page)."""

from __future__ import annotations

import re
from typing import Any

from .tables import ap_hand, hand_form, import_game, post_hand, record, text, version_of

PAIR = ["Ann", "Bob"]
HANDS = [
    ap_hand("Ann", 2, "Ann", "Ann", "Bob", "Ann"),
    ap_hand("Bob", 3, "Bob", "Ann", "Bob", "Bob"),
]


def sheet_rows(html: str) -> list[str]:
    """The score sheet's hand rows, as text (the scores without the marks written under them)."""
    body = html.split('id="sheet-title"', 1)[1].split("</tbody>", 1)[0]
    body = re.sub(r'<span class="took">[^<]*</span>', "", body)
    return [text(row) for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)[1:]]


def test_a_corrected_hand_redraws_its_row_and_every_later_one(client: Any) -> None:
    game_id = import_game(client, record("auction-pitch", PAIR, HANDS))
    before = sheet_rows(client.get(f"/games/{game_id}").get_data(as_text=True))
    # Hand, dealer, then each side's score (Ann's bid of 2 beside hers), the result, correct.
    assert before[0] == "1 Ann 2 3 1 Ann · 2: made correct"

    fields = hand_form(PAIR, pitcher="Ann", bid=2, high="Ann", low="Ann", jack="Ann", game="Ann")
    fields["version"] = str(version_of(client, game_id))
    assert client.post(f"/games/{game_id}/hands/1/edit", data=fields).status_code == 302

    after = sheet_rows(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert after[0] == "1 ✎ Ann 2 4 0 Ann · 2: made correct"  # marked corrected (✎)
    assert after[1] != before[1]  # the same hand 2, from other scores
    assert after[1] == "2 Bob 5 3 3 Bob · 3: made correct"


def test_the_same_rows_in_another_language_are_drawn_in_it(client: Any) -> None:
    game_id = import_game(client, record("auction-pitch", PAIR, HANDS))
    english = client.get(f"/games/{game_id}").get_data(as_text=True)
    romanian = client.get(f"/games/{game_id}", headers={"Accept-Language": "ro"})
    rows = sheet_rows(romanian.get_data(as_text=True))

    assert all(row.endswith("corectați") for row in rows)
    assert 'aria-label="Corectați mâna 2"' in romanian.get_data(as_text=True)
    assert "Cine a câștigat licitația?" in text(romanian.get_data(as_text=True))
    assert sheet_rows(english) == sheet_rows(client.get(f"/games/{game_id}").get_data(as_text=True))


def test_an_error_on_a_field_shows_once_and_not_on_the_next_page(client: Any) -> None:
    game_id = import_game(client, record("auction-pitch", PAIR, HANDS))
    refused = post_hand(client, game_id, PAIR, bid=2, high="Ann", low="Ann", jack="Ann", game="Ann")
    assert refused.status_code == 400
    assert "Choose who won the bid." in text(refused.get_data(as_text=True))

    again = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Choose who won the bid." not in text(again)
    assert 'id="pitcher-errors"' not in again


def test_a_refused_note_keeps_what_was_typed_and_the_next_page_is_empty(client: Any) -> None:
    game_id = import_game(client, record("auction-pitch", PAIR, HANDS))
    refused = post_hand(client, game_id, PAIR, bid=2, high="Ann", low="Ann", jack="Ann", game="Ann")
    assert refused.status_code == 400
    typed = client.post(
        f"/games/{game_id}",
        data={**hand_form(PAIR, bid=2, version=version_of(client, game_id)), "note": "a <b> note"},
    ).get_data(as_text=True)
    assert 'value="a &lt;b&gt; note"' in typed

    fresh = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert re.search(r'<input [^>]*id="note"[^>]*value=""', fresh)


def checked(html: str) -> list[str]:
    """The ids of the tapped buttons of the hand form."""
    form = html.split('id="hand-form"', 1)[1].split("</form>", 1)[0]
    return re.findall(r'<input checked id="([^"]+)"', form)


def test_a_form_shown_again_with_its_taps_keeps_them_and_the_next_form_has_none(
    client: Any,
) -> None:
    """A tap row is drawn once a table and kept: a form shown again with taps (refused for
    one missing choice) shows them tapped, and the empty form after it shows none."""
    game_id = import_game(client, record("auction-pitch", PAIR, HANDS))
    before = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert checked(before) == []

    refused = post_hand(client, game_id, PAIR, pitcher="Bob", bid=3, high="Bob", low="Ann")
    assert refused.status_code == 400
    tapped = checked(refused.get_data(as_text=True))
    assert {"pitcher-1", "bid-1", "point_high-1", "point_low-0"} <= set(tapped)

    again = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert checked(again) == []


def test_the_kept_addresses_follow_where_the_app_is_served(client: Any) -> None:
    """The templates' addresses are built once and kept (``kept_url_for``): a page asked for
    under a prefix (a proxy's SCRIPT_NAME) links under it, and the page at the root again
    without it; a query value and Flask's own options are built as ``url_for`` builds them."""
    from flask import url_for

    from scorekeeper.web.templating import kept_url_for

    game_id = import_game(client, record("auction-pitch", PAIR, HANDS))
    board = f'href="/games/{game_id}/board"'
    at_root = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert board in at_root
    under = client.get(f"/games/{game_id}", base_url="http://localhost/pitch/")
    page = under.get_data(as_text=True)
    assert f'href="/pitch/games/{game_id}/board"' in page
    assert board not in page
    assert '/pitch/static/css/app.css"' in page
    assert board in client.get(f"/games/{game_id}").get_data(as_text=True)

    with client.application.test_request_context("/", base_url="http://localhost/pitch/"):
        for endpoint, values in (
            ("games.board", {"game_id": game_id}),
            ("auth.login", {"next": "/games/3?x=1"}),
            ("games.show", {"game_id": game_id, "_anchor": "hand-form"}),
            ("games.show", {"game_id": game_id, "_external": True}),
            ("history.index", {"variant": ["auction-pitch", "cinch"]}),
        ):
            assert kept_url_for(endpoint, **values) == url_for(endpoint, **values)
            assert kept_url_for(endpoint, **values) == url_for(endpoint, **values)  # as kept
