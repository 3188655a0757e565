"""The language follows the browser, a switch on every page overrides it, and it is declared."""

from __future__ import annotations

import re
from typing import Any

import pytest

from scorekeeper import i18n
from scorekeeper.rules import FORMAT


def import_game(client: Any, variant: str, players: list[str]) -> int:
    record = {"format": FORMAT, "variant": variant, "players": players, "hands": []}
    response = client.post("/games/import", json=record)
    if response.status_code == 409:  # the same game kept already: asked for again
        response = client.post(f"/games/import?again={response.get_json()['game']}", json=record)
    assert response.status_code == 201, response.get_data(as_text=True)
    return int(response.get_json()["id"])


def html_lang(response: Any) -> str:
    match = re.search(r'<html lang="([^"]+)"', response.get_data(as_text=True))
    assert match, "every page declares its language"
    return match.group(1)


def test_a_browser_asking_for_romanian_gets_romanian_pages(client: Any) -> None:
    response = client.get("/", headers={"Accept-Language": "ro-RO,ro;q=0.9,en;q=0.8"})
    assert html_lang(response) == "ro"
    assert "Partidă nouă" in response.get_data(as_text=True)


def test_a_browser_asking_for_english_or_nothing_known_gets_english(client: Any) -> None:
    for header in ("en-GB,en;q=0.9", "de-DE,de;q=0.9", ""):
        response = client.get("/", headers={"Accept-Language": header})
        assert html_lang(response) == "en"
        assert "New game" in response.get_data(as_text=True)


def test_every_page_offers_the_switch_to_each_language(client: Any) -> None:
    page = client.get("/players").get_data(as_text=True)
    assert 'action="/language"' in page
    for code, name in i18n.LANGUAGES.items():
        assert f'value="{code}"' in page and name in page


def test_the_switch_overrides_the_browser_and_is_remembered(client: Any) -> None:
    response = client.post("/language", data={"lang": "ro", "next": "/players"})
    assert response.status_code == 303
    assert response.headers["Location"] == "/players"
    english_browser = {"Accept-Language": "en"}
    assert html_lang(client.get("/", headers=english_browser)) == "ro"
    assert html_lang(client.get("/nights", headers=english_browser)) == "ro"
    client.post("/language", data={"lang": "en", "next": "/"})
    assert html_lang(client.get("/", headers={"Accept-Language": "ro"})) == "en"


def test_the_switch_goes_back_to_the_page_with_its_query(client: Any) -> None:
    response = client.post("/language", data={"lang": "ro", "next": "/history?page=2"})
    assert response.headers["Location"] == "/history?page=2"


@pytest.mark.parametrize("target", ["https://example.com/", "//example.com/x", "javascript:x", ""])
def test_the_switch_never_sends_the_browser_to_another_site(client: Any, target: str) -> None:
    response = client.post("/language", data={"lang": "ro", "next": target})
    assert response.headers["Location"] == "/"


def test_an_unknown_language_is_refused_with_a_message_and_changes_nothing(client: Any) -> None:
    client.post("/language", data={"lang": "ro"})
    response = client.post("/language", data={"lang": "xx"})
    assert response.status_code == 400
    assert "xx" in response.get_data(as_text=True)
    assert html_lang(client.get("/")) == "ro"


def test_a_romanian_game_page_speaks_romanian_and_formats_for_romania(client: Any) -> None:
    game_id = import_game(client, "auction-pitch", ["Ana", "Bogdan", "Cristi"])
    client.post("/language", data={"lang": "ro"})
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert html_lang_text(page) == "ro"
    assert "Pitch cu licitație" in page
    assert "Auction Pitch" not in page


def html_lang_text(page: str) -> str:
    match = re.search(r'<html lang="([^"]+)"', page)
    assert match
    return match.group(1)


def test_money_and_dates_are_written_the_romanian_way() -> None:
    from datetime import date
    from decimal import Decimal

    with i18n.use_locale("ro"):
        assert i18n.money(Decimal("1234.5")) == "1.234,50"
        assert i18n.number(-12) == "-12"
        assert i18n.day(date(2026, 11, 29)) == "29 nov. 2026"
    with i18n.use_locale("en"):
        assert i18n.money(Decimal("1234.5")) == "1,234.50"
        assert i18n.day(date(2026, 11, 29)) == "Nov 29, 2026"


def test_an_engine_error_is_translated_from_its_code_and_parameters() -> None:
    from scorekeeper import rules

    error = rules.RuleError(
        "bid-above-max", hand=3, field="bid", bid=5, max=4, variant="Auction Pitch"
    )
    with i18n.use_locale("ro"):
        assert i18n.error_message(error) == (
            "mâna 3: licitația 5 este peste maximul de 4 pentru Pitch cu licitație"
        )
    assert str(error) == "hand 3: bid 5 is above the maximum of 4 for Auction Pitch"
    assert i18n.error_message(error) == str(error)


def test_every_engine_message_has_a_romanian_template_with_the_same_parameters() -> None:
    from string import Formatter

    from scorekeeper.rules.errors import MESSAGES

    ro = i18n.translations_for("ro")
    for code, english in MESSAGES.items():
        romanian = ro.gettext(english)
        assert romanian != english or code in {"not-an-object"}, code

        def fields(text: str) -> set[str]:
            return {name for _, name, _, _ in Formatter().parse(text) if name}

        assert fields(romanian) == fields(english), code


@pytest.mark.parametrize(
    ("requested", "expected"),
    [("ro_RO.UTF-8", "ro"), ("ro", "ro"), ("en_US.UTF-8", "en"), ("C.UTF-8", "en"), ("", "en")],
)
def test_the_command_line_reads_the_language_from_the_locale_name(
    requested: str, expected: str
) -> None:
    assert i18n.negotiate(requested) == expected


def test_wtforms_own_messages_follow_the_page_language(client: Any) -> None:
    """WTForms' built-in messages (read once per process) speak each request's language."""
    from tests.web.tables import setup_form

    data = setup_form("auction-pitch", ["Ann", "Bob"], payout_in_hole="")
    for header, message in (
        ("ro-RO", "Acest câmp este obligatoriu."),
        ("en-US", "This field is required."),
        ("ro", "Acest câmp este obligatoriu."),
    ):
        response = client.post(
            "/games/new/auction-pitch", data=data, headers={"Accept-Language": header}
        )
        assert response.status_code == 400
        assert message in response.get_data(as_text=True)


def test_the_templates_gettext_escapes_values_and_keeps_jinjas_percent_rules() -> None:
    from markupsafe import Markup

    from scorekeeper.web.language import template_gettext, template_ngettext

    said = template_gettext("Played at %(night)s.", night="<b>Fri</b> & co")
    assert isinstance(said, Markup)
    assert said == "Played at &lt;b&gt;Fri&lt;/b&gt; &amp; co."
    assert template_gettext("Played at %(night)s.", night=Markup("<a>Fri</a>")) == (
        "Played at <a>Fri</a>."
    )
    assert template_gettext("100%% sure") == "100% sure"
    with i18n.use_locale("ro"):
        assert template_gettext("New game") == "Partidă nouă"
        assert template_ngettext("%(num)s game", "%(num)s games", 20) == "20 de partide"
        assert template_ngettext("%(num)s game", "%(num)s games", 1) == "1 partidă"


def test_a_team_named_with_a_space_is_said_whole_in_an_engine_error_in_each_language() -> None:
    from scorekeeper import rules

    record = {
        "format": FORMAT,
        "variant": "auction-pitch",
        "players": ["A", "B", "C", "D"],
        "teams": {"South Side": "A", "North": ["B", "C", "D"]},
        "hands": [],
    }
    with pytest.raises(rules.RuleError) as caught:
        rules.parse_record(record)
    error = caught.value
    assert str(error) == 'teams: must be a list of names for team "South Side", not a string'
    assert i18n.error_message(error) == str(error)
    with i18n.use_locale("ro"):
        assert i18n.error_message(error) == (
            'teams: trebuie să fie o listă de nume pentru echipa "South Side", nu un text'
        )
