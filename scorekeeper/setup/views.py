"""Setting up a game: choose a variant (or a saved rule set), then seats, rules and stake."""

from __future__ import annotations

from collections.abc import Sequence

from flask import Blueprint, redirect, render_template, request, url_for
from werkzeug.wrappers.response import Response as BaseResponse

from .. import i18n, operations, rules
from ..operations.errors import Conflict
from ..rules.game import name_key
from ..stats.queries import roster_names
from ..web.routing import find_variant, parse_id
from . import forms, queries

bp = Blueprint("setup", __name__)

ViewResult = str | BaseResponse | tuple[str, int] | tuple[BaseResponse, int]


@bp.get("/games/new")
def choose_variant() -> str:
    """List the variants, each with a line saying what it is."""
    return render_template(
        "setup/choose_variant.html",
        variants=rules.VARIANTS.values(),
        variants_by_key=rules.VARIANTS,
        rule_sets=[(r.id, r.name, r.variant) for r in operations.rule_sets.rule_sets()],
    )


@bp.route("/games/new/<variant_key>", methods=["GET", "POST"])
def new_game(variant_key: str) -> ViewResult:
    """Set up a game: seats, partnerships, first dealer, house rules, stake."""
    variant = find_variant(variant_key)
    saved = _saved_rules(variant, request.args.get("rules", ""))
    rematch = queries.rematch_of(variant, request.args.get("again", ""))
    prefill = saved[1] if saved else rematch.game.house_rules if rematch else None
    form = forms.new_game_form(variant, variant.max_seats, prefill=prefill)
    roster = roster_names()
    setup_error: str | None = None
    points_errors: list[str] = []
    if not form.is_submitted():
        form.night.data = str(operations.nights.current_night_id() or "")
        if rematch:
            forms.fill_from_game(form, rematch, variant.max_seats)
    if form.validate_on_submit():
        try:
            game = _game_from_form(form, variant, roster)
            name = _rule_set_name(form)
        except rules.RuleError as error:
            # A switch's error goes next to its field; any other above the form.
            switch = (error.field or "").removeprefix("house_rules.")
            if switch == "points" and not variant.shape_fixed:
                points_errors.append(i18n.error_detail(error))
            elif error.field and error.field.startswith("house_rules.") and switch in form:
                form[switch].errors = [*form[switch].errors, i18n.error_detail(error)]
            elif error.field == "rules_name":
                form.rules_name.errors = [*form.rules_name.errors, i18n.error_detail(error)]
            else:
                setup_error = i18n.error_detail(error)
        else:
            try:
                game_id = operations.games.create_game(
                    game,
                    rule_set_name=name,
                    night_id=form.chosen_night(),
                    follows=rematch.row.id if rematch else None,
                )
            except Conflict as error:
                setup_error = operations.errors.explain(error)
            else:
                return redirect(url_for("games.show", game_id=game_id))
    status = 400 if form.is_submitted() else 200
    point_rows = [] if variant.shape_fixed else forms.point_rows(form, variant)
    offered = form.night_offered()
    return render_template(
        "setup/new.html",
        form=form,
        variant=variant,
        night=queries.night_name(offered) if offered is not None else None,
        seats=forms.seat_fields(form, variant.max_seats),
        roster=roster,
        setup_error=setup_error,
        point_rows=point_rows,
        points_total=sum(p.value for p, box in point_rows if box.data),
        points_errors=points_errors,
        rule_sets=[(r.id, r.name) for r in operations.rule_sets.rule_sets(variant.key)],
        saved_name=saved[0] if saved else None,
    ), status


def _saved_rules(variant: rules.Variant, wanted: str) -> tuple[str, rules.HouseRules] | None:
    """The saved rule set named by ``?rules=<id>`` for this variant, with its switches applied
    (a set the engine no longer accepts is not offered)."""
    rule_set_id = parse_id(wanted)
    if rule_set_id is None:
        return None
    found = operations.rule_sets.rule_set(rule_set_id)
    if found is None or found.variant != variant.key:
        return None
    try:
        return found.name, variant.house_rules(dict(found.house_rules))
    except rules.RuleError:
        return None


def _rule_set_name(form: forms.NewGameForm) -> str | None:
    """The name to save the house rules under, checked as a player's name is, or None."""
    name = (form.rules_name.data or "").strip()
    if not name:
        return None
    rules.game.check_name(name, "rules_name")
    return name


def _game_from_form(
    form: forms.NewGameForm, variant: rules.Variant, roster: Sequence[str]
) -> rules.Game:
    """The game the setup form describes. A typed name is trimmed, and a name on the roster
    in another case ("ana" for "Ana") is that player, spelled as the roster has it."""
    spelled: dict[str, str] = {}
    for known in roster:
        spelled.setdefault(name_key(known), known)
    seats = []
    for _, name_field, team_field in forms.seat_fields(form, variant.max_seats):
        name = (name_field.data or "").strip()
        seats.append((spelled.get(name_key(name), name), (team_field.data or "").strip()))
    return rules.Game.from_seats(
        variant,
        seats,
        dealer_seat=int(form.first_dealer.data or 0),
        same=name_key,
        house_rules=forms.house_rule_changes(form, variant),
        stake=form.stake.amount,
    )
