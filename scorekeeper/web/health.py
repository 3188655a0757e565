"""``GET /healthz``: the smallest page the app serves, for monitors and the benchmark's floor."""

from __future__ import annotations

from flask import Blueprint, Response

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz() -> Response:
    """Answer "ok" without touching the database: the server and the app are up."""
    return Response("ok\n", mimetype="text/plain")
