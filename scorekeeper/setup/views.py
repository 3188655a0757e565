"""Setting up a game: choose a variant (or a saved rule set), then seats, rules, stake and
night; and the table's saved rule sets, renamed or deleted."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from flask import Blueprint, flash, redirect, render_template, request, url_for
from werkzeug.wrappers.response import Response as BaseResponse

from .. import operations, rules
from ..auth.access import organiser_page
from ..i18n import gettext
from ..operations.errors import Conflict, NotFound
from ..operations.rule_sets import NameTaken, RuleSetRow
from ..rules.game import name_key
from ..stats.queries import roster_names
from ..web.routing import find_variant, parse_id
from . import forms, queries, refusals
from . import shape as form_shape

bp = Blueprint("setup", __name__)

ViewResult = str | BaseResponse | tuple[str, int] | tuple[BaseResponse, int]

#: Where a form sent opens: the top of the form, where what needs attention is listed.
ATTENTION = "setup-attention"


@bp.get("/games/new")
def choose_variant() -> str:
    """List the table's saved house rules (each with its variant and what it changes), then
    the variants as their rule books play them, then the ready-made rule sets of the wider
    family (RULES.md 11.2), each with its summary."""
    night = parse_id(request.args.get("night", ""))
    return render_template(
        "setup/choose_variant.html",
        variants=rules.VARIANTS.values(),
        ready_made=queries.ready_made_sets(),
        rule_sets=queries.offered_rule_sets(),
        night=night,
    )


@dataclass
class _Refused:
    """What a setup form sent was refused for, by where it shows."""

    seats: list[str] = field(default_factory=list)
    points: list[str] = field(default_factory=list)
    above: list[str] = field(default_factory=list)


@bp.route("/games/new/<variant_key>", methods=["GET", "POST"])
def new_game(variant_key: str) -> ViewResult:
    """Set up a game: seats, partnerships, first dealer, house rules, stake and night."""
    variant = find_variant(variant_key)
    saved = queries.saved_rules(variant, request.args.get("rules", ""))
    ready = None if saved else queries.ready_made(variant, request.args.get("set", ""))
    rematch = queries.rematch_of(variant, request.args.get("again", ""))
    prefill = (
        saved.house
        if saved
        else ready.house
        if ready
        else rematch.game.house_rules
        if rematch
        else None
    )
    form = forms.new_game_form(variant, variant.max_seats, prefill=prefill)
    roster = roster_names()
    sent = form.is_submitted()
    posted = request.form.getlist(forms.ORDER_FIELD) if forms.ORDER_FIELD in request.form else None
    order = form_shape.point_order(variant, (prefill or variant.preset).points, posted)
    move = request.form.get("move", "") if sent else ""
    refused = _Refused()
    question: RuleSetRow | None = None
    status = 200
    if not sent:
        form.night.data = str(
            rematch.row.night_id if rematch and rematch.row.night_id else _night_asked() or ""
        )
        if rematch:
            forms.fill_from_game(form, rematch, variant.max_seats)
    if move:
        # A point moved in the count-out order: the form is drawn again, nothing started.
        order = form_shape.moved(order, move)
    elif form.validate_on_submit():
        outcome = _start(form, variant, roster, order, rematch, refused)
        if isinstance(outcome, BaseResponse):
            return outcome
        question = outcome
        status = 409 if question is not None else 400
    elif sent:
        # The fields' own refusals are listed; so is what the rules refuse in the rest.
        changes = _without_refused(form, variant, order)
        if _seats_sent_well(form, variant):
            _game_from_form(form, variant, roster, changes, refused)
        else:  # a seat refused already would be refused twice: the house rules only
            try:
                variant.house_rules(dict(changes))
            except rules.RuleError as error:
                _place(refusals.refusal(error, form), form, refused)
        status = 400
    shape = form_shape.read_shape(form, variant, order)
    form_shape.show_shape(form, variant, shape)
    form.night.choices += [
        (str(n.id), queries.night_label(n))
        for n in queries.nights_to_offer(form.chosen_night(), _night_asked())
    ]
    point_rows = [] if variant.shape_fixed else form_shape.point_rows(form, variant, order)
    return render_template(
        "setup/new.html",
        form=form,
        variant=variant,
        seats=forms.seat_fields(form, variant.max_seats),
        roster=roster,
        refused=refused,
        attention=_attention(form, refused),
        question=question,
        question_said=queries.rules_said(question) if question else "",
        point_rows=point_rows,
        points_total=sum(p.value for p, box in point_rows if box.data),
        shape=shape,
        smudge_named=forms.smudge_possible(variant),
        rule_sets=queries.offered_rule_sets(variant.key),
        saved=saved,
        ready=ready,
        action=request.full_path.rstrip("?"),
        variants=rules.VARIANTS,
        attention_id=ATTENTION,
    ), status


def _night_asked() -> int | None:
    """The night the page was opened from (``?night=<id>``), if any."""
    return parse_id(request.args.get("night", ""))


def _start(
    form: forms.NewGameForm,
    variant: rules.Variant,
    roster: Sequence[str],
    order: Sequence[str],
    rematch: operations.rows.Loaded | None,
    refused: _Refused,
) -> BaseResponse | RuleSetRow | None:
    """Start the game the form describes and go to it; or say on the form why not (``refused``
    filled in, None), or return the saved set whose name the form would take over, to ask
    first (nothing is written)."""
    changes = form_shape.read_shape(form, variant, order).changes
    game = _game_from_form(form, variant, roster, changes, refused)
    name = _rule_set_name(form, refused)
    if game is None or name is None:
        return None
    replacing = parse_id(request.form.get("replace_rules", ""))
    if name:
        holder = operations.rule_sets.named(name)
        if holder is not None and holder.id != replacing:
            return holder
    try:
        game_id = operations.games.create_game(
            game,
            rule_set_name=name or None,
            replacing=replacing,
            night_id=form.chosen_night(),
            follows=rematch.row.id if rematch else None,
            confirm_hands=bool(form.confirm_hands.data),
        )
    except NameTaken as taken:  # saved under that name meanwhile, on another phone
        return operations.rule_sets.rule_set(int(taken.params["id"]))
    except Conflict as error:
        refused.above.append(operations.errors.explain(error))
        return None
    return redirect(url_for("games.show", game_id=game_id))


def _without_refused(
    form: forms.NewGameForm, variant: rules.Variant, order: Sequence[str]
) -> dict[str, object]:
    """The switches a form sent, but those whose field was refused already (a number that
    is none, say): the rules are asked about the rest only."""
    changes = form_shape.read_shape(form, variant, order).changes
    return {k: v for k, v in changes.items() if k not in form or not form[k].errors}


def _seats_sent_well(form: forms.NewGameForm, variant: rules.Variant) -> bool:
    """Whether no seat, team, first dealer or stake field was refused on its own."""
    names = [f"name_{i}" for i in range(variant.max_seats)]
    names += [f"team_{i}" for i in range(variant.max_seats)]
    return not any(form[name].errors for name in [*names, "first_dealer", "stake"])


def _place(refusal: refusals.Refusal, form: forms.NewGameForm, refused: _Refused) -> None:
    """Put a refusal where the form shows it: next to its field, the seats or the points."""
    if refusal.field == refusals.SEATS:
        refused.seats.append(refusal.message)
    elif refusal.field == refusals.POINTS:
        refused.points.append(refusal.message)
    elif refusal.field and refusal.field in form:
        form[refusal.field].errors = [*form[refusal.field].errors, refusal.message]
    else:
        refused.above.append(refusal.message)


def _rule_set_name(form: forms.NewGameForm, refused: _Refused) -> str | None:
    """The name to save the house rules under, checked as a player's name is; "" for none,
    None if it is refused (said next to it)."""
    name = (form.rules_name.data or "").strip()
    if not name:
        return ""
    try:
        rules.game.check_name(name, "rules_name")
    except rules.RuleError as error:
        _place(refusals.refusal(error, form), form, refused)
        return None
    return name


def _game_from_form(
    form: forms.NewGameForm,
    variant: rules.Variant,
    roster: Sequence[str],
    changes: dict[str, object],
    refused: _Refused,
) -> rules.Game | None:
    """The game the setup form describes, or None with every refusal said on the form: the
    house rules are checked on their own first, so a wrong bid and a missing player are
    both listed. A typed name is trimmed, and a name on the roster in another case ("ana"
    for "Ana") is that player, spelled as the roster has it."""
    spelled: dict[str, str] = {}
    for known in roster:
        spelled.setdefault(name_key(known), known)
    seats = []
    for _, name_field, team_field in forms.seat_fields(form, variant.max_seats):
        name = (name_field.data or "").strip()
        seats.append((spelled.get(name_key(name), name), (team_field.data or "").strip()))
    house_rules_fine = True
    try:
        variant.house_rules(dict(changes))
    except rules.RuleError as error:
        _place(refusals.refusal(error, form), form, refused)
        house_rules_fine = False
    try:
        game = rules.Game.from_seats(
            variant,
            seats,
            dealer_seat=int(form.first_dealer.data or 0),
            same=name_key,
            house_rules=changes if house_rules_fine else {},
            stake=form.stake.amount,
        )
    except rules.RuleError as error:
        _place(refusals.refusal(error, form), form, refused)
        return None
    return game if house_rules_fine else None


#: The form's fields top to bottom, as the page lays them out after the seats, for the list
#: of what needs attention (a field the form lacks is skipped).
_FIELDS_IN_ORDER = (
    "target",
    "hands",
    "low_to",
    "all_pass",
    "payout_in_hole",
    "payout_per_setback",
    "min_bid",
    "max_bid",
    "smudge_bid",
    "smudge",
    "smudge_failed",
    "win_rule",
    "pitcher_scores",
    "gap",
    "rules_name",
    "stake",
    "night",
)


def _attention(form: forms.NewGameForm, refused: _Refused) -> list[tuple[str, str]]:
    """Everything the form was refused for, top to bottom, each with the id of the place it
    is said (a link to it): the summary a refused setup opens at."""
    found = [("setup-form", message) for message in refused.above]
    found += [("setup-form", str(e)) for e in form.form_errors]
    if "csrf_token" in form:
        found += [("setup-form", str(e)) for e in form.csrf_token.errors]
    found += [("seats", message) for message in refused.seats]
    for i in range(len([n for n in form._fields if n.startswith("name_")])):
        for name in (f"name_{i}", f"team_{i}"):
            label = gettext("Seat %(number)s", number=i + 1)
            found += [(form[name].id, f"{label}: {e}") for e in form[name].errors]
    found += [("seats", str(e)) for e in form.first_dealer.errors]
    points_label = gettext("Points in play")
    for name in _FIELDS_IN_ORDER:
        if name == "min_bid":
            found += [("points-in-play", f"{points_label}: {m}") for m in refused.points]
        if name in form:
            label = form[name].label.text
            found += [(form[name].id, f"{label}: {e}") for e in form[name].errors]
    return found


def _rule_set(rule_set_id: int) -> RuleSetRow:
    found = operations.rule_sets.rule_set(rule_set_id)
    if found is None:
        raise NotFound("no-rule-set", id=rule_set_id)
    return found


@bp.route("/house-rules/<id:rule_set_id>/rename", methods=["GET", "POST"])
@organiser_page
def rename_rules(rule_set_id: int) -> ViewResult:
    """Give a saved set of house rules another name."""
    found = _rule_set(rule_set_id)
    form = forms.RenameRuleSetForm(data={"name": found.name})
    if form.validate_on_submit():
        name = (form.name.data or "").strip()
        try:
            operations.rule_sets.rename_rule_set(rule_set_id, name)
        except rules.RuleError as error:
            form.name.errors = [*form.name.errors, refusals.refusal(error, form).message]
        except NameTaken as taken:
            form.name.errors = [*form.name.errors, operations.errors.explain(taken)]
        else:
            flash(gettext("The house rules “%(old)s” are now “%(new)s”.", old=found.name, new=name))
            return redirect(url_for("setup.choose_variant"))
    status = 400 if form.is_submitted() else 200
    return render_template(
        "setup/rename_rules.html", form=form, rule_set=found, said=queries.rules_said(found)
    ), status


@bp.route("/house-rules/<id:rule_set_id>/delete", methods=["GET", "POST"])
@organiser_page
def delete_rules(rule_set_id: int) -> ViewResult:
    """Delete a saved set of house rules, after asking; the games played with them keep theirs."""
    found = _rule_set(rule_set_id)
    if request.method == "POST":
        name = operations.rule_sets.delete_rule_set(rule_set_id)
        flash(
            gettext(
                "The house rules “%(name)s” were deleted; the games played with them keep "
                "their rules.",
                name=name,
            )
        )
        return redirect(url_for("setup.choose_variant"))
    return render_template(
        "setup/delete_rules.html", rule_set=found, said=queries.rules_said(found)
    )
