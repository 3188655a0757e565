"""A game has at most 500 hands: refused at import (JSON, import-all, score) and at recording.

A real game is under a hundred hands; an 8,000-hand record cost 87 s of CPU for each
printed sheet. The limit lives once, in the engine (``rules.HANDS_MAX``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from command_line import invoke

from scorekeeper import rules
from scorekeeper.cli.backup import export_collection, import_collection

from .tables import (
    game_count,
    hand_count,
    import_game,
    page,
    post_ap_hand,
    record,
)

LIMIT_MESSAGE = "hands: a game has at most 500 hands, not 501"


def _record(hands: int) -> dict[str, Any]:
    """Ann and Bob, every hand passed and redealt: as long a game as asked, quickly."""
    return record(
        "auction-pitch",
        ["Ann", "Bob"],
        [{"passed": True}] * hands,
        house_rules={"all_pass": "redeal-next-dealer"},
    )


def test_the_limit_is_500_hands() -> None:
    assert rules.HANDS_MAX == 500


def test_a_record_of_500_hands_is_accepted_and_one_of_501_is_refused_naming_the_limit() -> None:
    assert len(rules.parse_record(_record(500)).hands) == 500
    with pytest.raises(rules.RuleError) as error:
        rules.parse_record(_record(501))
    assert str(error.value) == LIMIT_MESSAGE
    assert error.value.code == "too-many-hands"


def test_a_json_import_of_8000_hands_is_refused_and_creates_nothing(client: Any, app: Any) -> None:
    response = client.post("/games/import", json=_record(8000))
    assert response.status_code == 400
    assert response.get_json() == {"error": "hands: a game has at most 500 hands, not 8000"}
    assert game_count(app) == 0


def test_the_501st_hand_is_refused_at_the_table_and_not_saved(client: Any, app: Any) -> None:
    game_id = import_game(client, _record(500))
    response = post_ap_hand(client, game_id, ["Ann", "Bob"], "Ann", 2, "Ann", "Ann", None, "Bob")
    assert response.status_code == 400
    assert page(response).form_errors == [LIMIT_MESSAGE]
    assert hand_count(app, game_id) == 500


def test_import_all_refuses_a_collection_with_a_game_past_the_limit(app: Any) -> None:
    document = {
        "format": "pitch-scorekeeper/collection-1",
        "games": [{"record": _record(2)}, {"record": _record(501)}],
    }
    with app.app_context():
        with pytest.raises(rules.RuleError) as error:
            import_collection(json.dumps(document))
        assert str(error.value) == "game 2: hands: a game has at most 500 hands, not 501"
        assert export_collection()["games"] == []


def test_score_on_the_command_line_refuses_8000_hands_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "long.json"
    path.write_text(json.dumps(_record(8000)))
    done = invoke("--lang", "en", "score", str(path))
    assert done.returncode == 2
    assert done.stderr == "hands: a game has at most 500 hands, not 8000\n"
