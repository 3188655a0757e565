"""A printed page loads the app's own static files and nothing else: no network, no other file."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from scorekeeper.pdf.fetcher import ORIGIN, RefusedURL, StaticFilesOnly, static_url
from scorekeeper.pdf.render import write_pdf
from scorekeeper.places import find_places


@pytest.fixture
def static(tmp_path: Path) -> Path:
    """A static folder with the print stylesheet and a picture; a secret lies beside it."""
    folder = tmp_path / "static"
    (folder / "css").mkdir(parents=True)
    shutil.copy(find_places().static / "css" / "print.css", folder / "css" / "print.css")
    Image.new("RGB", (4, 4), "red").save(folder / "dot.png")
    Image.new("RGB", (4, 4), "blue").save(tmp_path / "secret.png")
    (tmp_path / "secret.css").write_text("body { color: red }")
    return folder


def images_in(pdf: bytes) -> int:
    return sum(len(page.images) for page in PdfReader(io.BytesIO(pdf)).pages)


def test_the_fetcher_serves_a_static_file_by_the_apps_origin_or_by_a_file_url(static: Path) -> None:
    fetcher = StaticFilesOnly(static)
    response = fetcher.fetch(static_url("css/print.css"))
    assert b"@page" in response.read()
    assert response.content_type == "text/css"
    response.close()
    response = fetcher.fetch((static / "dot.png").as_uri())
    assert response.read().startswith(b"\x89PNG")
    response.close()


@pytest.mark.parametrize(
    "url",
    [
        "http://example.com/style.css",
        "https://example.com/dot.png",
        "https://scorekeeper.invalid.example.com/static/dot.png",
        "ftp://example.com/dot.png",
        "data:image/png;base64,iVBORw0KGgo=",
        "//example.com/dot.png",
        f"{ORIGIN}/dot.png",  # the app's origin, but not under /static/
    ],
)
def test_the_fetcher_refuses_anything_on_the_network_or_not_a_file(static: Path, url: str) -> None:
    with pytest.raises(RefusedURL):
        StaticFilesOnly(static).fetch(url)


def test_the_fetcher_refuses_files_outside_static_however_they_are_named(static: Path) -> None:
    fetcher = StaticFilesOnly(static)
    (static / "escape.png").symlink_to(static.parent / "secret.png")
    for url in [
        "file:///etc/passwd",
        (static.parent / "secret.png").as_uri(),
        static_url("../secret.png"),
        static_url("%2e%2e/secret.png"),
        static_url("css/../../secret.css"),
        (static / "css" / ".." / ".." / "secret.css").as_uri(),
        static_url("escape.png"),  # a link inside static/ that points out of it
        static_url("nothing-here.png"),
        static_url("css"),  # a folder, not a file
    ]:
        with pytest.raises(RefusedURL):
            fetcher.fetch(url)


def test_a_document_that_links_outside_static_prints_without_it(static: Path) -> None:
    secret = (static.parent / "secret.png").as_uri()
    html = (
        f'<link rel="stylesheet" href="{(static.parent / "secret.css").as_uri()}">'
        f'<p>Allowed: <img src="{static_url("dot.png")}"></p>'
        f'<p>Refused: <img src="{secret}"><img src="https://example.com/x.png">'
        f'<img src="/etc/passwd"></p>'
    )
    printed = write_pdf(html, static)
    assert images_in(printed.pdf) == 1  # only the static picture
    assert printed.pages == 1
