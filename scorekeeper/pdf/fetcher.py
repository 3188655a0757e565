"""The only way a printed page loads anything: the app's own files under ``static/``.

WeasyPrint asks its URL fetcher for every stylesheet, image and font a document
names. Ours answers only for files inside the static folder, named either by the
app's own origin (``https://scorekeeper.invalid/static/...``, the base URL every
printed document is rendered with) or by a ``file:`` URL that resolves inside the
folder. Everything else is refused: no network, no ``file:`` path outside
``static/`` (``..`` and symbolic links are resolved before the check), no
``data:`` or other scheme.
"""

from __future__ import annotations

import mimetypes
from pathlib import Path
from urllib.parse import unquote, urlsplit
from urllib.request import url2pathname

from weasyprint.urls import URLFetcher, URLFetcherResponse

from .urls import BASE_URL, ORIGIN, STATIC_PREFIX, static_url

__all__ = ["BASE_URL", "ORIGIN", "STATIC_PREFIX", "RefusedURL", "StaticFilesOnly", "static_url"]


class RefusedURL(ValueError):
    """A printed document asked for something that is not one of the app's static files."""


class StaticFilesOnly(URLFetcher):
    """A WeasyPrint URL fetcher that serves files under ``static_folder`` and refuses the rest."""

    def __init__(self, static_folder: str | Path) -> None:
        # No protocol is allowed to the parent class: if anything ever reached it, it refuses.
        super().__init__(allowed_protocols=(), allow_redirects=False, fail_on_errors=False)
        self.root = Path(static_folder).resolve(strict=True)

    def path_for(self, url: str) -> Path:
        """Return the static file ``url`` names; raise RefusedURL for anything else."""
        parts = urlsplit(url)
        scheme = parts.scheme.lower()
        if url.startswith(STATIC_PREFIX):
            candidate = self.root / unquote(parts.path[len("/static/") :])
        elif scheme == "file" and parts.netloc in ("", "localhost"):
            candidate = Path(url2pathname(parts.path))
        else:
            raise RefusedURL(
                f"refused {url[:200]!r}: a printed page loads only the app's static files"
            )
        try:
            path = candidate.resolve(strict=True)
        except (OSError, RuntimeError):
            raise RefusedURL(f"refused {url[:200]!r}: no such static file") from None
        if not path.is_relative_to(self.root) or not path.is_file():
            raise RefusedURL(f"refused {url[:200]!r}: not a file under static/")
        return path

    def fetch(self, url: str, headers: object = None) -> URLFetcherResponse:
        path = self.path_for(url)
        mimetype = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return URLFetcherResponse(path.as_uri(), path.read_bytes(), {"Content-Type": mimetype})
