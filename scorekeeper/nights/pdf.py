"""The night's settlement as a PDF, printed by WeasyPrint from a template of plain values.

The page needs nothing from outside (its CSS is inline, its charts are inline
SVG), so the URL fetcher refuses every URL but ``data:``: no network, no files.
"""

from __future__ import annotations

from typing import Any


def refusing_fetcher() -> Any:
    """Return a WeasyPrint URL fetcher that refuses the network and ``file:`` URLs."""
    from weasyprint.urls import URLFetcher

    class RefusingFetcher(URLFetcher):  # type: ignore[misc]
        def fetch(self, url: str, headers: Any = None) -> Any:
            if url.lower().startswith("data:"):
                return super().fetch(url, headers)
            raise ValueError(f"refused to fetch {url[:100]!r}: the night sheet loads nothing")

    return RefusingFetcher(allowed_protocols=("data",), allow_redirects=False)


def render_pdf(html: str) -> bytes:
    """Print HTML (made from plain values) to PDF bytes."""
    from weasyprint import HTML

    pdf: bytes = HTML(string=html, base_url=None, url_fetcher=refusing_fetcher()).write_pdf()
    return pdf
