"""The app factory: a short list of register calls."""

from __future__ import annotations

from typing import Any

from flask import Flask

from . import config
from .places import find_places


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Create the app: defaults, then instance/config.py, then the environment, then tests."""
    places = find_places()
    app = Flask(
        __name__,
        instance_relative_config=True,
        instance_path=str(places.instance),
        template_folder=str(places.templates),
        static_folder=str(places.static),
    )
    app.extensions["scorekeeper.places"] = places
    config.make_instance_folder(app.instance_path)
    app.config.from_mapping(config.defaults(app.instance_path))
    app.config.from_pyfile("config.py", silent=True)
    if url := config.database_url_from_env():
        app.config["SQLALCHEMY_DATABASE_URI"] = url
    if test_config is not None:
        app.config.from_mapping(test_config)
    config.check(app.config)
    from .serving.club import loaded_by_gunicorn

    loaded_by_gunicorn(app.config["SQLALCHEMY_DATABASE_URI"])
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = config.engine_options(
        app.config["SQLALCHEMY_DATABASE_URI"], app.config.get("SQLALCHEMY_ENGINE_OPTIONS") or {}
    )
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = config.secret_key(app.instance_path)
    register_language(app)  # first: every later hook and error page speaks the language
    register_extensions(app)
    register_routing(app)  # before the blueprints: their routes use its converter
    register_blueprints(app)
    register_errors(app)
    register_template_helpers(app)
    return app


def register_extensions(app: Flask) -> None:
    from .auth import access
    from .data import database
    from .data.extensions import db, migrate
    from .live import broker as live
    from .pdf import printer
    from .web import security
    from .web.forms import csrf

    db.init_app(app)
    migrate.init_app(app, db, directory=database.migrations_directory())
    # Before the CSRF check, which reads the form: a request's shape (its host, bytes that are
    # not text, a field with no name) is refused before anything reads what it holds.
    security.init_app(app)
    csrf.init_app(app)
    database.init_app(app)
    live.init_app(app)
    access.init_app(app)
    # A client over its share of the printer is answered before its PDF's game is loaded.
    printer.init_app(app)


def register_language(app: Flask) -> None:
    from .web.language import init_app

    init_app(app)


def register_routing(app: Flask) -> None:
    from .web import routing

    routing.init_app(app)


def register_blueprints(app: Flask) -> None:
    from .auth.views import bp as auth
    from .events.knockout_views import bp as knockout
    from .events.room_views import bp as event_room
    from .events.views import bp as events
    from .games.offline import bp as offline
    from .games.rules_card import bp as rules_card
    from .games.views import bp as games
    from .history.views import bp as history
    from .live.views import bp as live
    from .nights.views import bp as nights
    from .pdf.views import bp as pdf
    from .players.views import bp as players
    from .setup.views import bp as setup
    from .trail.views import bp as trail
    from .web.health import bp as health

    app.register_blueprint(setup)
    app.register_blueprint(games)
    app.register_blueprint(offline)
    app.register_blueprint(players)
    app.register_blueprint(nights)
    app.register_blueprint(events)
    app.register_blueprint(knockout)
    app.register_blueprint(event_room)
    app.register_blueprint(pdf)
    app.register_blueprint(history)
    app.register_blueprint(auth)
    app.register_blueprint(health)
    app.register_blueprint(rules_card)
    app.register_blueprint(live)
    app.register_blueprint(trail)


def register_errors(app: Flask) -> None:
    from .web.errors import init_app

    init_app(app)


def register_template_helpers(app: Flask) -> None:
    from .web import templating

    templating.init_app(app)
