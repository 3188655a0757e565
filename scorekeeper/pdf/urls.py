"""How printed documents name the app's static files (no WeasyPrint needed to know it)."""

from __future__ import annotations

#: The origin printed documents are rendered at. ``.invalid`` never resolves (RFC 2606),
#: so even a fetcher that let it through could not reach the network with it.
ORIGIN = "https://scorekeeper.invalid"
STATIC_PREFIX = ORIGIN + "/static/"
BASE_URL = ORIGIN + "/"


def static_url(filename: str) -> str:
    """Name a static file the way a printed document links to it."""
    return STATIC_PREFIX + filename.lstrip("/")
