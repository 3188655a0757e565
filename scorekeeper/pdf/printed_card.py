"""A rules card printed on one page, from the page's own card (``RulesCard``)."""

from __future__ import annotations

from ..sheets.rules_card import RulesCard
from .printed_sheet import document_context, render_printed


def card_html(card: RulesCard, *, paper: str) -> str:
    """Render a rules card as HTML for WeasyPrint (needs an app context)."""
    return render_printed("pdf/rules_card.html", **document_context(paper), card=card)
