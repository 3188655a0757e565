"""The rules card: a variant's or a game's rules, one sentence each, as a page and as a PDF.

``GET /rules/<variant>`` and ``/rules/<variant>.pdf``: a variant as its preset plays it.
``GET /rules/sets/<key>`` and ``.pdf``: a ready-made rule set (RULES.md 11.2), as it plays.
``GET /games/<id>/rules`` and ``/games/<id>/rules.pdf``: a game with its house rules and stake.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from flask import Blueprint, render_template
from werkzeug.wrappers.response import Response as BaseResponse

from .. import operations, rules
from ..operations.errors import NotFound
from ..pdf import printed_card
from ..pdf.views import printed, requested_paper
from ..sheets.rules_card import RulesCard, game_card, rule_set_card, variant_card
from ..web.routing import find_variant

bp = Blueprint("rules_card", __name__)


@bp.get("/rules/<variant_key>")
def variant_rules(variant_key: str) -> str:
    """Show a variant's rules card, as its preset plays it."""
    variant = find_variant(variant_key)
    return _page(
        variant_card(variant), pdf=("rules_card.variant_pdf", {"variant_key": variant.key})
    )


@bp.get("/rules/<variant_key>.pdf")
def variant_pdf(variant_key: str) -> BaseResponse:
    """Print a variant's rules card on one page (``?paper=a4`` or ``letter``)."""
    paper = requested_paper()
    variant = find_variant(variant_key)
    return _card_pdf(
        ("rules-card", variant.key),
        f"rules-{variant.key}.pdf",
        paper,
        lambda: variant_card(variant),
    )


@bp.get("/rules/sets/<set_key>")
def rule_set_rules(set_key: str) -> str:
    """Show a ready-made rule set's card (RULES.md 11.2): its preset with its switches."""
    found = _ready_made(set_key)
    return _page(rule_set_card(found), pdf=("rules_card.rule_set_pdf", {"set_key": found.key}))


@bp.get("/rules/sets/<set_key>.pdf")
def rule_set_pdf(set_key: str) -> BaseResponse:
    """Print a ready-made rule set's card on one page (``?paper=a4`` or ``letter``)."""
    paper = requested_paper()
    found = _ready_made(set_key)
    return _card_pdf(
        ("rules-card-set", found.key), f"rules-{found.key}.pdf", paper, lambda: rule_set_card(found)
    )


def _ready_made(set_key: str) -> rules.RuleSet:
    try:
        return rules.find_rule_set(set_key)
    except ValueError:
        raise NotFound("no-ready-made", name=set_key) from None


@bp.get("/games/<id:game_id>/rules")
def game_rules(game_id: int) -> str:
    """Show one game's rules card: its variant, its house rules, its stake."""
    loaded = operations.loading.load(game_id)
    card = game_card(loaded.game, game_id)
    return _page(card, pdf=("rules_card.game_pdf", {"game_id": game_id}), game_id=game_id)


@bp.get("/games/<id:game_id>/rules.pdf")
def game_pdf(game_id: int) -> BaseResponse:
    """Print one game's rules card on one page (``?paper=a4`` or ``letter``)."""
    paper = requested_paper()
    loaded = operations.loading.load(game_id)
    # The rules are fixed when the game is made; the id and creation time name them.
    key = ("rules-card", loaded.row.id, str(loaded.row.created_at))
    return _card_pdf(
        key, f"game-{game_id}-rules.pdf", paper, lambda: game_card(loaded.game, game_id)
    )


def _card_pdf(
    key: Hashable, filename: str, paper: str, card: Callable[[], RulesCard]
) -> BaseResponse:
    """Print a rules card on one page; ``card`` is made only when no print is kept under ``key``."""

    def html() -> str:
        return printed_card.card_html(card(), paper=paper)

    return printed(key, filename, html, paper=paper)


def _page(
    card: RulesCard, *, pdf: tuple[str, dict[str, object]], game_id: int | None = None
) -> str:
    return render_template("games/rules_card.html", card=card, pdf=pdf, game_id=game_id)
