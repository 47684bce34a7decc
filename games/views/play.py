"""Playing a game: creating it, signing up, starting, the private role page with orders, and
the GM dashboard."""

from __future__ import annotations

from datetime import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import confirm, permissions
from games.wording import event_text, faction_goal, faction_label, role_help, role_label, speaking_of
from games.forms import CommunicationForm, GameCreateForm
from games.views.access import kept_viewer, login_first
from games.models import AnonymousMessage, Game, Order, Phase, Seat
from games.selectors.archive import audience_label, game_log, game_phases, gm_log_rows
from games.selectors.commitment import commitment_reveal
from games.selectors.genders import seat_genders
from games.selectors.holders import SeatHolders
from games.selectors.moderation import inactivity_table
from games.selectors.play import (
    anonymous_pending,
    anonymous_sent,
    dashboard_orders,
    game_for_page,
    has_any,
    refused_orders,
    rollback_phase,
    seat_choice,
    seat_replacements,
    standing_order_row,
    visible_events,
    visible_orders,
)
from games.selectors.state import allowed_actions, game_state, owed_actions, role_actions, table_style
from games.rulesets import registry
from games.rulesets.base import GmInput
from games.services import ActionRefused, gm_writes
from games.services.autohost import autohost_join, game_create_automatic
from games.services.gm_writes import COUNT, THREADS
from games.services.games import game_create, game_set_communication
from games.services.lifecycle import game_set_co_gm, game_signup, game_start, game_withdraw
from games.services.moderation import game_ban, resolution_rollback, seat_modkill, seat_replace
from games.selectors.orders import action_label, order_action_text, order_reason_text, standing_orders
from games.selectors.votes import remember_ballots, syntax_examples, vote_count, vote_target_ids, voting_kinds
from games.services.orders import order_override, order_submit, order_targets, takes_text_orders
from games.services.phases import phase_event_add, phase_set_deadline, phase_set_tie_break
from games.services.resolution import phase_close, phase_preview


_game = game_for_page
_seat_choice = seat_choice


def _parse_local(raw: str) -> datetime:
    try:
        return timezone.make_aware(datetime.fromisoformat(raw.strip()), timezone.get_current_timezone())
    except ValueError:
        raise ActionRefused(_("Enter the date and time as YYYY-MM-DD HH:MM."), code="bad_time") from None


@require_GET
def commitment_check(request: HttpRequest, pk: int) -> HttpResponse:
    """After the game: the revealed role list and salt, hashed here and in the browser, and the
    roles a rule changed since the deal beside it."""
    game = _game(pk)
    if game.status != Game.Status.FINISHED or not game.commitment:
        raise Http404
    reveal = commitment_reveal(game, list(game.seats.select_related("user")))
    return render(request, "games/commitment.html", {"game": game, "commitment": reveal})


@login_required
@require_http_methods(["GET", "POST"])
def game_new(request: HttpRequest) -> HttpResponse:
    # `?ruleset=show` opens the form with that rule set picked (and its player count, its fields).
    picked = request.GET.get("ruleset")
    form = GameCreateForm(request.POST or None, initial={"ruleset": picked} if picked in registry.keys() else None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            if data.get("automatic"):
                game = game_create_automatic(title=data["title"], ruleset=data["ruleset"], size=data["size"],
                                             role_table=data["roles"], phase_hours=data["phase_hours"],
                                             options=form.options_of(), by=request.user)
            else:
                game = game_create(title=data["title"], gm=request.user, ruleset=data["ruleset"], size=data["size"],
                                   role_table=data["roles"], phase_hours=data["phase_hours"], options=form.options_of())
        except ActionRefused as refused:
            form.add_error(None, refused.message)
        else:
            messages.success(request, _("The game is created and signups are open."))
            return redirect(game)
    return render(request, "games/game_new.html", {"form": form}, status=400 if form.errors else 200)


@login_required
@require_POST
def game_join(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game(pk)
    try:
        if request.POST.get("action") == "withdraw":
            game_withdraw(game=game, user=request.user)
            messages.success(request, _("You have left the game."))
        elif game.automatic:  # the site hosts it: it starts when this join fills the table
            autohost_join(game=game, user=request.user)
            messages.success(request, _("You have signed up."))
        else:
            game_signup(game=game, user=request.user, application=request.POST.get("application", ""),
                        overt_role=request.POST.get("overt_role", ""), contacts=request.POST.get("contacts", ""))
            messages.success(request, _("You have signed up."))
    except ActionRefused as refused:
        messages.error(request, refused.message)
    return redirect(game)


@login_required
@require_POST
@gm_writes.declare(gm_writes.changes(), game=gm_writes.game_of_url)  # the GM list of the game page
def co_gm_view(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game(pk)
    permissions.check_gm(request.user, game)
    try:
        user = game_set_co_gm(game=game, by=request.user, name=request.POST.get("name", ""),
                              add=request.POST.get("action") != "remove")
    except ActionRefused as refused:
        messages.error(request, refused.message)
    else:
        messages.success(request, _("Co-GMs updated: %(name)s.") % {"name": user.display_name})
    return redirect(game)


@login_required
@require_POST
@gm_writes.declare(gm_writes.changes(COUNT, THREADS), game=gm_writes.game_of_url)  # the deal, day or night 1 opened
def game_start_view(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game(pk)
    permissions.check_gm(request.user, game)
    if not confirm.is_confirmed(request):
        names = [s.user.display_name for s in game.seats.select_related("user").order_by("number")]
        return confirm.confirmation_page(request, question=confirm.start_question(names, game.size),
                                         cancel_url=game.get_absolute_url())
    try:
        game_start(game=game, by=request.user)
    except ActionRefused as refused:
        messages.error(request, refused.message)
    else:
        messages.success(request, _("The game has started: roles are dealt."))
    return redirect(game)


def _close_outcome(preview: dict | None) -> str:
    """What closing now would publish, from the dashboard's preview: its public events."""
    if not preview:
        return ""
    return " ".join(e["text"] for e in preview["events"] if e["audience"] == "public" and e["text"])


def _preview(game: Game, phase, state, seats_by_id, *, ballots=None, orders=None) -> dict | None:
    if phase is None or not phase.is_open or state is None:
        return None
    result = phase_preview(phase=phase, ballots=ballots, orders=orders)
    if result is None:
        return None
    with speaking_of(seat_genders(seats_by_id.values())):  # agreeing as the stored events will
        events = [{"audience": e.audience, "audience_label": audience_label(e.audience, seats_by_id),
                   "text": event_text(game.ruleset, e.kind, dict(e.data))}
                  for e in result.resolution.events]
    return {"outcome": dict(result.resolution.outcome), "events": events}


def _close_question(phase, preview: dict | None) -> str:
    return confirm.close_question(phase, _close_outcome(preview))


# The dashboard's own actions asked about before they are done (games/confirm.py); a rule set's GM
# inputs say it themselves (SiteRuleset.gm_inputs).
GM_CONFIRMED_ACTIONS = ("close", "deadline", "event", "replace", "modkill", "rollback", "ban")

# What each of the dashboard's own actions changes (games/services/gm_writes.py): the game always;
# the open day's count where the count shows it (its deadline, who may still vote, the names);
# the game's threads where it posts in them or changes who may post.
GM_ACTIONS = {
    "close": gm_writes.changes(COUNT, THREADS),
    "deadline": gm_writes.changes(COUNT),
    "tie_break": gm_writes.changes(),
    "override": gm_writes.changes(),
    "event": gm_writes.changes(),
    "replace": gm_writes.changes(COUNT, THREADS),
    "modkill": gm_writes.changes(COUNT, THREADS),
    "rollback": gm_writes.changes(COUNT, THREADS),
    "ban": gm_writes.changes(THREADS),
}


def _gm_write(game: Game, action: str) -> gm_writes.GmWrite | None:
    """What the dashboard's `action` declares it changes: its own table, or the game's rule
    set's GM input (SiteRuleset.gm_inputs, GmInput.changes); None for an unknown action (the
    core's order override too, where the rule set replaces inputs its own way)."""
    if action == "override" and not _core_override(game):
        return None
    if action in GM_ACTIONS:
        return GM_ACTIONS[action]
    gm_input = _gm_input(game, action or "")
    return gm_writes.changes(*gm_input.changes) if gm_input is not None else None


def _asks_first(action: str) -> bool:
    """Whether the dashboard asks before `action`: one of its own, or any rule set's confirmed GM
    input, whatever the game's rule set (a forged POST of another rule set's input is asked about
    as on its own game, and then refused as unknown here)."""
    return action in GM_CONFIRMED_ACTIONS or any(
        (gm_input := adapter.gm_inputs().get(action)) is not None and gm_input.confirmed
        for adapter in registry.adapters())


def _gm_question(game: Game, phase, action: str, post) -> str:
    """The dashboard's question for `action`, with the names the POST chose filled in."""
    if action == "close":
        state = game_state(game)
        seats_by_id = {s.pk: s for s in game.seats.select_related("user")}
        return _close_question(phase, _preview(game, phase, state, seats_by_id))
    seat = _seat_choice(game, post.get("seat"))
    values = {"seat": seat.user.display_name if seat else "—", "name": post.get("name", "").strip() or "—",
              "reason": post.get("reason", "").strip(), "faction": faction_label(post.get("faction", ""))}
    if action == "rollback":
        last = rollback_phase(game)
        values["phase"] = last.label if last is not None else "—"
    elif action == "deadline":
        values["phase"] = phase.label if phase is not None else "—"
        try:
            values["deadline_at"] = date_format(timezone.localtime(_parse_local(post.get("deadline_at", ""))), "j E, H:i")
        except ActionRefused:
            values["deadline_at"] = post.get("deadline_at", "").strip() or "—"
    elif action == "event":
        values["text"] = post.get("text", "").strip()[:200] or "—"
        audience = post.get("audience", "public")
        values["audience"] = {"public": _("everyone"), "gm": _("GMs only")}.get(audience) or (
            whom.user.display_name if (whom := _seat_choice(game, audience.removeprefix("seat:"))) else audience)
    return confirm.question(action, **values)


def _event_rows(user, game: Game, events: list | None = None):
    rows = [{"event": e, "text": e.text or event_text(game.ruleset, e.kind, e.data)}
            for e in (visible_events(user, game) if events is None else events)]
    return [row for row in rows if row["text"]]  # a fact with no words of its own (a night's summary) is no line


@require_GET
@login_first
def role_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The player's private page: role, goal, team, private results, orders."""
    game = _game(pk)
    viewer, pov_seat = permissions.viewer_for(request, game)
    permissions.check_see_role_page(viewer, game)
    seat = permissions.seat_of(viewer, game)
    if seat is not None and seat.user_id == getattr(viewer, "pk", None):
        seat.user = viewer  # at hand, no query: the status agrees with the player («убита»)
    if seat is None:  # a GM without a seat: the dashboard is his page
        return redirect("games:gm_dashboard", pk=game.pk)
    state = game_state(game)
    # A role its holder does not know (the Show's Крот: permissions.knows_own_role) is not told here.
    own = permissions.can_see_role_of(viewer, game, seat)
    # «Your team»: the heroes of his own team whose roles he may see — not every role he may see
    # (at the end every role is public, and a revealed enemy is not a teammate; issue 28). A
    # player who does not know his own role has no team to be shown: it would tell him his role.
    team = [s for s in game.seats.select_related("user").order_by("number")
            if own and s.pk != seat.pk and s.faction == seat.faction and permissions.can_see_role_of(viewer, game, s)]
    # A rule set whose inputs have forms on its own pages offers none here (cards: the cards page).
    actions = allowed_actions(game, state, seat.pk) \
        if state and game.status == Game.Status.RUNNING and registry.site(game.ruleset).orders_on_role_page else ()
    targets = order_targets(game=game, state=state, actor=seat, actions=actions,
                            seats=list(game.seats.select_related("user").order_by("number"))) if actions else []
    orders = visible_orders(viewer, game)
    holders = SeatHolders.for_game(game)
    for order in orders:
        # The seat's history stays, but a predecessor's order is his (games.selectors.holders).
        sender = holders.user_at(order.actor_id, order.recorded_at) if holders else None
        order.sent_by = sender.display_name if sender is not None and sender.pk != seat.user_id else ""
        if holders:
            order.target = holders.seat_at(order.target, order.recorded_at)
            order.source_seat = holders.seat_at(order.source_seat, order.recorded_at)
        order.reason_text = order_reason_text(order.reason) if order.reason else ""
        order.action_text = order_action_text(order)
    return render(request, "games/role.html", {
        "standing_order": _standing_order(viewer, game, seat),
        "game": game, "seat": seat, "team": team,
        "role_name": role_label(game.ruleset, seat.role) if own else _("Unknown: you must find out your role"),
        "role_help": role_help(game.ruleset, seat.role) if own else "",
        "faction_name": faction_label(seat.faction) if own else "—",
        "goal": faction_goal(seat.faction, game.ruleset) if own else "",
        "actions": [(a, action_label(a)) for a in actions], "targets": targets, "orders": orders,
        "kill_and_freeze": "kill" in actions and "freeze" in actions,
        "text_orders": takes_text_orders(game),
        "private_threads": permissions.filter_visible_threads(viewer, game.private_threads.all()).order_by("kind", "pk"),
        "anonymous": _anonymous_context(viewer, game, seat),
        "events": _event_rows(viewer, game), "phase": game.current_phase, "pov_seat": pov_seat,
        "replaced": seat_replacements(seat),
    })


def _standing_order(viewer, game: Game, seat: Seat) -> Order | None:
    """The order that stands now for this seat: the phase's last accepted one, from the role
    page or a letter to the GM alike (games.selectors.orders.standing_orders' rule), for a
    rule set whose orders are written in words; seen through the order permissions."""
    if game.current_phase_id is None or game.status != Game.Status.RUNNING or not takes_text_orders(game):
        return None
    standing = standing_order_row(viewer, game, seat)
    if standing is not None:
        standing.action_text = action_label(standing.action)
    return standing


@login_required
@require_POST
def order_view(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game(pk)
    permissions.check_see_role_page(request.user, game)
    try:
        if request.POST.get("text", "").strip():
            _order, confirmation = order_submit(game=game, user=request.user, text=request.POST["text"])
        else:
            also_freeze = _seat_choice(game, request.POST.get("also_freeze"))
            _order, confirmation = order_submit(
                game=game, user=request.user, action=request.POST.get("action", ""),
                target=_seat_choice(game, request.POST.get("target")), source=_seat_choice(game, request.POST.get("source")),
                detail={"freeze": also_freeze.pk} if also_freeze is not None else None)
    except ActionRefused as refused:
        messages.error(request, refused.message)
    else:
        (messages.success if confirmation.accepted else messages.error)(request, confirmation.message)
    return redirect("games:role", pk=game.pk)


@require_GET
@kept_viewer(game=True)
@login_first
def gm_dashboard(request: HttpRequest, pk: int) -> HttpResponse:
    # Flat in the game's length and the site's size (issue 30): each section's rows read once
    # and shared (the seats, the open phase's ledger and ballots, the phases, the events with the
    # GM log), the sections most games have none of (replacements, co-GMs, anonymous messages,
    # absences) probed in the game's own query.
    game = _game(pk, facts=True, viewer=request.user)
    permissions.check_gm(request.user, game)
    phase = game.current_phase
    if phase is not None:
        phase.game = game  # at hand: the count, the preview and the ledger read it
    seats = permissions.seats_with_users(request.user, game)
    seats_by_id = {s.pk: s for s in seats}
    last_actions = dashboard_orders(game, phase, seats)  # the phase's ledger, kept on it for every section
    count = vote_count(phase=phase, seats=seats) if phase is not None and phase.kind in voting_kinds(game) else None
    if count is not None:
        remember_ballots(phase, count.ballots)
    elif phase is not None and phase.kind != Phase.Kind.DAY:
        # No ballot is ever recorded in it: a post's votes are read only in a voting phase
        # (voting_phase), and a GM's correction goes to its post's day (vote_correct). A rule set
        # that reads the standing votes of every phase (cards' night) reads none.
        remember_ballots(phase, [])
    orders = standing_orders(phase) if phase is not None else {}
    state = game_state(game)
    seat_columns = registry.site(game.ruleset).gm_seat_columns  # the rule set's extra columns (cards: «Класс»)
    rows = []
    for seat in seats:
        actions = allowed_actions(game, state, seat.pk) if state and game.status == Game.Status.RUNNING else ()
        order = orders.get(seat.pk)
        rows.append({"seat": seat, "role": role_label(game.ruleset, seat.role), "actions": actions, "order": order,
                     "columns": [(column, getattr(seat, column.attribute, "")) for column in seat_columns],
                     "order_text": action_label(order.action) if order else "",
                     "owes_order": order is None and bool(state and game.status == Game.Status.RUNNING
                                                          and owed_actions(game, state, seat.pk))})
    # The preview resolves the same ledger the count and the table have read (issue 30: read once).
    preview = _preview(game, phase, state, seats_by_id, ballots=count.ballots if count is not None else None,
                       orders=orders if phase is not None else None)
    phases = game_phases(game)
    rolled_back = rollback_phase(game, phases)
    refused = refused_orders(phase)
    for order in refused:
        order.reason_text = order_reason_text(order.reason)
    events, actions = game_log(request.user, game, {p.pk: p for p in phases})
    holders = SeatHolders.for_game(game, seats)
    return render(request, "games/gm.html", {
        "anonymous_pending": anonymous_pending(game) if has_any(game, "any_pending_anonymous") else [],
        "style": table_style(game), "takes_source": _takes_source(game),
        "activity": inactivity_table(game=game, seats=seats, last_actions=last_actions,
                                     absences=has_any(game, "any_absence")),
        "game": game, "phase": phase, "rows": rows, "count": count, "preview": preview, "refused": refused,
        "close_question": _close_question(phase, preview),
        "rollback_phase_label": rolled_back.label if rolled_back is not None else "—",
        "winner_label": faction_label(game.winner) if game.winner else "",
        "log": list(reversed(gm_log_rows(request.user, game, seats, holders=holders, actions=actions)))[:50],
        "events": [{**row, "audience_label": audience_label(row["event"].audience, seats_by_id)}
                   for row in _event_rows(request.user, game, events)[-50:]], "all_actions": [(a, action_label(a)) for a in
                                                                                    role_actions(game)],
        "seats": seats, "seat_columns": seat_columns, "core_override": _core_override(game),
        # The vote options, as on the game page (issue 29: the GM sets «##vote only» here too).
        "syntax_choices": syntax_examples(game),
        "votes_in_posts": (adapter := registry.find(game.ruleset)) is None or adapter.votes_in_posts,
        **_gm_choices(game, phase, state, seats, rows),
    })


def _gm_choices(game: Game, phase, state, seats: list[Seat], rows: list[dict]) -> dict:
    """The dashboard's lists, from the rules that judge what they send: the tie-break names a
    seat the vote may name (vote_target_ids, asked again by phase_set_tie_break); an order is
    replaced for a seat with an action now, on a target (or source) one of those actions takes
    (order_targets: the engine's check_order, asked again when the order is judged). No dead or
    jailed player where the rules take none."""
    if phase is None or not phase.is_open or state is None or game.status != Game.Status.RUNNING:
        return {"tie_seats": [], "order_seats": [], "order_targets": []}
    tie = set(vote_target_ids(phase)) if phase.kind in voting_kinds(game) else set()
    actors = [row for row in rows if row["actions"]]
    targets: set[int] = set()
    for row in actors:
        targets.update(s.pk for s in order_targets(game=game, state=state, actor=row["seat"], actions=row["actions"],
                                                   seats=seats))
    return {"tie_seats": [s for s in seats if s.pk in tie], "order_seats": [row["seat"] for row in actors],
            "order_targets": [s for s in seats if s.pk in targets]}


def _takes_source(game: Game) -> bool:
    """Whether an order of this rule set may name a second player, whose action it takes (the
    forum's theft): the GM's order form offers "stolen from" only then."""
    # Only the GM's order form asks: imported when it is built.
    from games.text.orders import SLOT_SOURCE
    from games.wording import order_vocabulary  # the rule set's order words, asked here only

    try:
        return any(SLOT_SOURCE in words.slots for words in order_vocabulary(game.ruleset).actions)
    except KeyError:
        return False


@login_required
@require_POST
def gm_action(request: HttpRequest, pk: int) -> HttpResponse:
    """Every GM button of the dashboard: close now, deadline, tie-break, order override, manual event,
    moderation, and the game's rule set's own GM inputs (SiteRuleset.gm_inputs)."""
    game = _game(pk)
    permissions.check_gm(request.user, game)
    phase = game.current_phase
    action = request.POST.get("action")
    if _asks_first(action) and not confirm.is_confirmed(request):
        return confirm.confirmation_page(request, question=_gm_question(game, phase, action, request.POST),
                                         cancel_url=reverse("games:gm_dashboard", args=[game.pk]))
    now = timezone.now()
    write = _gm_write(game, action)
    try:
        if write is None:
            raise ActionRefused(_("Unknown action."), code="bad_action")
        with gm_writes.gm_writing(game=game, write=write):  # what it changes, declared
            if phase is None and action not in ("replace", "ban", "rollback"):
                raise ActionRefused(_("No phase is going on."), code="no_phase")
            if action == "close":
                if not phase_close(phase_id=phase.pk, now=now, by=request.user):
                    raise ActionRefused(_("The phase is already closed."), code="closed")
                messages.success(request, _("The phase is closed and the results are published."))
            elif action == "deadline":
                phase_set_deadline(phase=phase, by=request.user, deadline_at=_parse_local(request.POST.get("deadline_at", "")), now=now)
                messages.success(request, _("The deadline is changed."))
            elif action == "tie_break":
                phase_set_tie_break(phase=phase, by=request.user, seat=_seat_choice(game, request.POST.get("seat")), now=now)
                messages.success(request, _("The tie-break is saved."))
            elif action == "override":
                seat = _seat_choice(game, request.POST.get("seat"))
                if seat is None:
                    raise ActionRefused(_("Choose a player."), code="no_seat")
                _order, confirmation = order_override(
                    game=game, gm=request.user, seat=seat, action=request.POST.get("order_action", ""),
                    target=_seat_choice(game, request.POST.get("target")), source=_seat_choice(game, request.POST.get("source")), now=now)
                (messages.success if confirmation.accepted else messages.error)(request, confirmation.message)
            elif action in ("replace", "modkill", "rollback", "ban"):
                _moderate(request, game, action, now)
            elif action == "event":
                phase_event_add(phase=phase, by=request.user, text=request.POST.get("text", ""),
                                audience=request.POST.get("audience", "public"), now=now)
                messages.success(request, _("The event is recorded."))
            elif (gm_input := _gm_input(game, action)) is not None:
                gm_input.handler(request, game, phase, now)  # the rule set's own: it parses, writes, says
            else:
                raise ActionRefused(_("Unknown action."), code="bad_action")
    except ActionRefused as refused:
        messages.error(request, refused.message)
    return redirect("games:gm_dashboard", pk=game.pk)




def _core_override(game: Game) -> bool:
    """Whether the core's «Replace an order» serves the game's rule set (SiteRuleset.core_order_override)."""
    adapter = registry.find(game.ruleset)
    return adapter is None or adapter.core_order_override


def _gm_input(game: Game, action: str) -> GmInput | None:
    """The game's rule set's GM input of that name (SiteRuleset.gm_inputs), if it has one."""
    adapter = registry.find(game.ruleset)
    return adapter.gm_inputs().get(action) if adapter is not None else None


def _moderate(request: HttpRequest, game: Game, action: str, now) -> None:
    """The dashboard's moderation buttons; each service checks the GM again and logs."""
    from accounts.models import User, display_name_key

    reason = request.POST.get("reason", "").strip()
    if action == "rollback":
        phase = resolution_rollback(game=game, by=request.user, reason=reason, now=now)
        messages.success(request, _("The results of %(phase)s are rolled back; the phase is open again "
                                    "without a deadline.") % {"phase": phase.label.lower()})
        return
    user = User.objects.filter(display_name_key=display_name_key(request.POST.get("name", ""))).first()
    if action == "ban":
        game_ban(game=game, user=user, by=request.user, reason=reason, now=now)
        messages.success(request, _("Banned from the game."))
        return
    seat = _seat_choice(game, request.POST.get("seat"))
    if seat is None:
        raise ActionRefused(_("Choose a player."), code="no_seat")
    if action == "replace":
        seat_replace(game=game, seat=seat, new_user=user, by=request.user, reason=reason, now=now)
        messages.success(request, _("The seat has a new player."))
    else:
        seat_modkill(game=game, seat=seat, by=request.user, reason=reason, now=now)
        messages.success(request, _("The player is removed from the game."))


def _anonymous_context(viewer, game: Game, seat: Seat) -> dict | None:
    # The communication package imports the services: imported when a page needs it.
    from games.communication.anonymous import anonymous_rules

    rules = anonymous_rules(game)
    if rules is None:
        return None
    mine = anonymous_sent(viewer, game, seat)
    used = sum(1 for m in mine if m.status != AnonymousMessage.Status.REJECTED)
    recipients = [s for s in game.seats.select_related("user").order_by("number")
                  if s.pk != seat.pk and permissions.in_play(game, s)]
    return {"rules": rules, "sent": mine, "left": max(rules["limit"] - used, 0), "recipients": recipients,
            "open": game.status == Game.Status.RUNNING and permissions.in_play(game, seat)}


@login_required
@require_POST
@gm_writes.declare(gm_writes.changes(), game=gm_writes.game_of_url)  # the GM's decision (and a player's message)
def anonymous_view(request: HttpRequest, pk: int) -> HttpResponse:
    # The communication package imports the services: imported when a page needs it.
    from games.communication.anonymous import anonymous_decide, anonymous_send

    game = _game(pk)
    try:
        if request.POST.get("decide"):
            permissions.check_gm(request.user, game)
            raw = request.POST["decide"]
            message = get_object_or_404(AnonymousMessage, game=game, pk=int(raw) if raw.isdecimal() else 0)
            if request.POST.get("approve") != "1" and not confirm.is_confirmed(request):
                return confirm.confirmation_page(request, question=confirm.question(
                    "anonymous_reject", recipient=message.recipient.user.display_name),
                    cancel_url=reverse("games:gm_dashboard", args=[game.pk]))
            anonymous_decide(message=message, by=request.user, approve=request.POST.get("approve") == "1")
            messages.success(request, _("Done."))
            return redirect("games:gm_dashboard", pk=game.pk)
        permissions.check_see_role_page(request.user, game)
        anonymous_send(game=game, user=request.user, recipient=_seat_choice(game, request.POST.get("recipient")),
                       text=request.POST.get("text", ""))
    except ActionRefused as refused:
        messages.error(request, refused.message)
    else:
        messages.success(request, _("The message is sent through the GM."))
    return redirect("games:role", pk=game.pk)


@login_required
@require_POST
@gm_writes.declare(gm_writes.changes(THREADS), game=gm_writes.game_of_url)  # who may post where
def communication_options(request: HttpRequest, pk: int) -> HttpResponse:
    """The GM's form on the game page: [private] messages, rooms, team chat, anonymous messages."""
    game = get_object_or_404(Game, pk=pk)
    if not permissions.is_game_master(request.user, game):
        raise Http404
    form = CommunicationForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
        return redirect(game)
    try:
        game_set_communication(game=game, by=request.user, **form.cleaned_data)
    except ActionRefused as refused:
        messages.error(request, refused.message)
    else:
        messages.success(request, _("The communication settings are saved."))
    return redirect(game)
