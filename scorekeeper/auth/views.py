"""Log the organiser in and out."""

from __future__ import annotations

from flask import (
    Blueprint,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import lazy_gettext as _l
from werkzeug.wrappers.response import Response
from wtforms import PasswordField, SubmitField
from wtforms.validators import InputRequired, Length

from .. import operations
from ..i18n import gettext, ngettext
from ..web.forms import Form
from ..web.language import SESSION_KEY as LANGUAGE
from ..web.security import safe_target
from .access import (
    SESSION_KEY,
    check_password,
    end_every_login,
    is_organiser,
    login_proof,
    password_required,
)

bp = Blueprint("auth", __name__)


class LoginForm(Form):
    password = PasswordField(
        _l("Organiser password"),
        validators=[InputRequired(_l("Type the password.")), Length(max=200)],
    )
    submit = SubmitField(_l("Log in"))


def _fresh_session() -> None:
    """Start a new session (so no one keeps an old cookie's rights), keeping the language."""
    language = session.get(LANGUAGE)
    session.clear()
    if language is not None:
        session[LANGUAGE] = language


@bp.route("/login", methods=["GET", "POST"])
def login() -> str | Response | tuple[str, int] | tuple[str, int, dict[str, str]]:
    """Ask for the organiser password; a few failures in a row make the address wait."""
    form = LoginForm()
    next_url = safe_target(request.args.get("next"), url_for("games.index"))
    if not password_required():
        return redirect(next_url)
    key = request.remote_addr or "unknown"
    if form.validate_on_submit():
        # Counted before the (slow) check, so attempts sent at once cannot pass the limit; in
        # the database, so the limit is one for every worker.
        wait = operations.logins.attempt(
            key,
            attempts=current_app.config.get("LOGIN_ATTEMPTS", 5),
            window_seconds=current_app.config.get("LOGIN_WINDOW_SECONDS", 300.0),
        )
        if wait:
            seconds = int(wait) + 1
            form.password.errors = [
                ngettext(
                    "Too many wrong passwords. Try again in %(num)s second.",
                    "Too many wrong passwords. Try again in %(num)s seconds.",
                    seconds,
                )
            ]
            page = render_template("auth/login.html", form=form)
            return page, 429, {"Retry-After": str(seconds)}
        if check_password(form.password.data or ""):
            operations.logins.succeeded(key)
            _fresh_session()
            session[SESSION_KEY] = login_proof(current_app)
            session.permanent = True
            flash(gettext("Logged in: you can record and correct hands."), "info")
            return redirect(next_url)
        current_app.logger.warning("failed organiser login from %s", key)
        form.password.errors = [gettext("That is not the organiser password.")]
        return render_template("auth/login.html", form=form), 401
    status = 400 if form.errors else 200
    return render_template("auth/login.html", form=form), status


@bp.post("/logout")
def logout() -> Response:
    """Log out: every organiser login ends, on every device (a copied cookie's too)."""
    if is_organiser():
        end_every_login(current_app)
    _fresh_session()
    flash(gettext("Logged out."), "info")
    return redirect(url_for("games.index"))
