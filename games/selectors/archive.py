"""The archive of a game: everything about it gathered for the archive and replay pages
(games.views.archive). Reads only.

Every secret is read through games.permissions (filter_visible_* and can_see_role_of), which
unseal everything once the game is over; the views let only the GMs see a running game's archive
(permissions.check_see_archive), so what a GM previews is exactly what everyone reads later.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Case, CharField, F, IntegerField, Max, Min, OuterRef, Q, Subquery, TextField, Value, When
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.utils import formats, timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from games import permissions
from games.selectors import charts
from games.wording import agreed, event_text, faction_label, role_label, seat_status_label, wording_of
from games.selectors.holders import SeatHolders, count_as_cast
from games.models import (
    AnonymousMessage,
    Game,
    GameEvent,
    GMAction,
    Order,
    Phase,
    Post,
    PrivateMessage,
    Replacement,
    Seat,
    Thread,
)
from games.selectors.commitment import commitment_reveal
from games.selectors.orders import action_label, order_action_text, order_reason_text, remember_phase_ledgers
from games.selectors.votes import (
    CountView,
    effective_ballots_by_phase,
    parse_measure,
    vote_count,
    vote_weights_for,
    voters_and_targets,
    voting_kinds,
)

# Events that take a seat out of play; their phase is when it left.
EXIT_KINDS = ("jailed", "killed", "executed", "removed", "taken", "modkilled")

STATUS_LABELS = {
    "active": gettext_lazy("in play at the end"),
    "jailed": gettext_lazy("jailed"),
    "killed": gettext_lazy("killed"),
    "executed": gettext_lazy("voted out"),
    "removed": gettext_lazy("removed from the game"),
}
# A fate that agrees with the player («изгнан»/«изгнана голосованием»; the plain msgid a noun).
AGREEING_FATES = {
    "killed": (pgettext_lazy("masculine", "killed"), pgettext_lazy("feminine", "killed")),
    "executed": (pgettext_lazy("masculine", "voted out"), pgettext_lazy("feminine", "voted out")),
    "removed": (pgettext_lazy("masculine", "removed from the game"), pgettext_lazy("feminine", "removed from the game")),
}

GM_ACTION_LABELS = {
    "start": gettext_lazy("dealt the roles and started the game"),
    "close_now": gettext_lazy("closed the phase before its deadline"),
    "deadline": gettext_lazy("moved the deadline"),
    "tie_break": gettext_lazy("decided a tie"),
    "foul": gettext_lazy("gave a foul"),
    "forfeit": gettext_lazy("declared a forfeit"),
    "manual_event": gettext_lazy("recorded an event"),
    "order_override": gettext_lazy("overrode an order"),
    "replace": gettext_lazy("replaced a player"),
    "modkill": gettext_lazy("removed a player from the game"),
    "rollback": gettext_lazy("rolled back a resolution"),
    "ban": gettext_lazy("banned a user from the game"),
    "co_gm_add": gettext_lazy("added a co-GM"),
    "co_gm_remove": gettext_lazy("removed a co-GM"),
    "anonymous_approve": gettext_lazy("delivered an anonymous message"),
    "anonymous_reject": gettext_lazy("rejected an anonymous message"),
    "card_effect_add": gettext_lazy("applied a card effect by hand"),
    "card_effect_remove": gettext_lazy("removed a card effect"),
    "communication": gettext_lazy("changed who may talk to whom"),
    "collection": gettext_lazy("changed the card collection"),
    # Written by the site at a close (no GM's hand): games.rulesets.cards.messages.card_messages_screen.
    "card_message_refused": gettext_lazy("refused a card's message"),
}

# Why a card's message was refused (games.rulesets.cards.messages.card_message_check).
CARD_MESSAGE_REFUSALS = {
    "card_link": gettext_lazy("the message contains a link"),
    "card_empty": gettext_lazy("the message is empty"),
}

GM_DATA_LABELS = {
    "seat": gettext_lazy("player"),
    "target": gettext_lazy("target"),
    "source": gettext_lazy("stolen from"),
    "phase": gettext_lazy("phase"),
    "user": gettext_lazy("user"),
    "old": gettext_lazy("replaced player"),
    "new": gettext_lazy("replacement"),
    "faction": gettext_lazy("team"),
    "audience": gettext_lazy("seen by"),
    "action": gettext_lazy("action"),
    "from": gettext_lazy("old deadline"),
    "to": gettext_lazy("new deadline"),
    "reason": gettext_lazy("reason"),
    "text": gettext_lazy("text"),
    "players": gettext_lazy("number of players"),
    "accepted": gettext_lazy("accepted"),
    "message": gettext_lazy("anonymous message"),
    "sender": gettext_lazy("sender"),
}


# --- Small readable labels ---------------------------------------------------------------------
def phase_label(phase: Phase | None) -> str:
    return phase.label if phase is not None else ""


def audience_label(audience: str, seats_by_id: dict[int, Seat], holders: SeatHolders | None = None,
                   when: datetime | None = None) -> str:
    """An event's audience in words: everyone, the GMs, a team, one seat (named as its holder at
    `when` when `holders` is given: an event told to a seat was told to whoever held it then)."""
    if audience == "public":
        return _("everyone")
    if audience == "gm":
        return _("GM only")
    kind, _sep, rest = audience.partition(":")
    if kind == "faction":
        return _("team: %(team)s") % {"team": faction_label(rest)}
    if kind == "seat":
        try:
            seat = seats_by_id.get(int(rest))
        except ValueError:
            seat = None
        if seat is not None:
            name = holders.name_at(seat.pk, when) if holders is not None else seat.user.display_name
            return _("seat %(number)s: %(name)s") % {"number": seat.number, "name": name}
    return audience


def _when(raw) -> str:
    try:
        moment = datetime.fromisoformat(str(raw))
    except ValueError:
        return str(raw)
    if timezone.is_aware(moment):
        moment = timezone.localtime(moment)
    return formats.date_format(moment, "j E Y, H:i")


# --- Rows --------------------------------------------------------------------------------------
@dataclass
class SeatRow:
    seat: Seat
    role_name: str
    faction_name: str
    fate: str
    out: bool
    replacements: list[Replacement] = field(default_factory=list)


@dataclass
class EventRow:
    event: GameEvent
    text: str
    audience: str
    secret: bool
    retracted: bool


@dataclass
class GMLogRow:
    action: GMAction
    label: str
    details: list[tuple[str, str]]


@dataclass
class PhaseBlock:
    phase: Phase
    label: str
    voided: bool
    count: CountView | None = None
    orders: list[Order] = field(default_factory=list)
    events: list[EventRow] = field(default_factory=list)
    chart: SafeString | None = None

    @property
    def public_events(self) -> list[EventRow]:
        return [row for row in self.events if not row.secret]

    @property
    def secret_events(self) -> list[EventRow]:
        return [row for row in self.events if row.secret]


@dataclass
class Archive:
    game: Game
    sealed: bool  # a running game's preview for its GMs
    winner_label: str
    seats: list[SeatRow]
    phases: list[PhaseBlock]
    voided: list[PhaseBlock]
    loose_events: list[EventRow]  # events tied to no phase (the deal, the roles)
    private_messages: list[PrivateMessage] = field(default_factory=list)
    anonymous: list[AnonymousMessage] = field(default_factory=list)
    rooms: list[Thread] = field(default_factory=list)
    threads: list[Thread] = field(default_factory=list)
    gm_log: list[GMLogRow] = field(default_factory=list)
    commitment: dict | None = None


# --- Gathering ---------------------------------------------------------------------------------
def _seats(user, game: Game) -> list[Seat]:
    """Every seat with its user, in seat order: read once per game instance (the checks of
    games.permissions, the count and the chart read the same list)."""
    return permissions.seats_with_users(user, game)


def game_phases(game: Game) -> list[Phase]:
    """The game's phases in order, read once per game instance (the archive's blocks, the GM log's
    phase names, the GM dashboard's rollback question)."""
    phases = game.__dict__.get("_phases_in_order")
    if phases is None:
        phases = game.__dict__["_phases_in_order"] = list(game.phases.order_by("opened_at", "pk"))
    return phases


# The GM actions whose data names a user by id under "user" (games.services: a ban, a co-GM added
# or removed); game_log joins his name to the line.
GM_LOG_USER_ACTIONS = ("ban", "co_gm_add", "co_gm_remove")
_EVENT_FIELDS = ("id", "game_id", "phase_id", "kind", "audience", "data", "text", "created_at")
_ACTION_FIELDS = ("id", "game_id", "user_id", "action", "data", "created_at")


def game_log(user, game: Game, phases_by_id: dict[int, Phase] | None = None) -> tuple[list[GameEvent], list[GMAction]]:
    """The game's events and its GM log as `user` may read them, each oldest first, in one round
    trip (issue 30): games.permissions filters each table (filter_visible_events,
    filter_visible_gm_actions), and a UNION ALL reads both in one shape. Each event's phase is
    taken from `phases_by_id` when given; each action's user is his id and display name (all the
    log shows of him)."""
    # The users' model, imported where the log's users are read, as _gm_log does (no module of
    # games.selectors imports accounts at load).
    from accounts.models import User

    def empty(**columns):
        out = {"log_source": Value(0, output_field=IntegerField()), "log_phase": Value(None, output_field=IntegerField()),
               "log_kind": Value("", output_field=CharField()), "log_audience": Value("", output_field=CharField()),
               "log_text": Value("", output_field=TextField()), "log_user": Value(None, output_field=IntegerField()),
               "log_user_name": Value(None, output_field=CharField()),
               "log_named": Value(None, output_field=CharField())}
        out.update(columns)
        return out

    # The user a line names by id (GM_LOG_USER_ACTIONS: the banned user, the co-GM added or
    # removed, often no seat of the game), his name joined to the line.
    named_id = Case(When(action__in=GM_LOG_USER_ACTIONS, then=Cast(KT("data__user"), IntegerField())), default=None)
    events = permissions.filter_visible_events(user, game, GameEvent.objects.all()).order_by().annotate(**empty())
    actions = (permissions.filter_visible_gm_actions(user, game, GMAction.objects.all()).order_by()
               .annotate(log_named_id=named_id)
               .annotate(**empty(log_source=Value(1, output_field=IntegerField()),
                                 log_named=Subquery(User.objects.filter(pk=OuterRef("log_named_id"))
                                                    .values("display_name")[:1]))))
    events = events.values_list("log_source", "pk", "phase_id", "kind", "audience", "data", "text", "created_at",
                                "log_user", "log_user_name", "log_named")
    actions = actions.values_list("log_source", "pk", "log_phase", "action", "log_audience", "data", "log_text",
                                  "created_at", "user_id", "user__display_name", "log_named")
    read_events, read_actions = [], []
    db = GameEvent.objects.db
    for (source, pk, phase_id, kind, audience, data, text, created_at, user_id, user_name,
         named) in events.union(actions, all=True):
        if source == 0:
            event = GameEvent.from_db(db, _EVENT_FIELDS, (pk, game.pk, phase_id, kind, audience, data, text, created_at))
            if phases_by_id is not None:
                event.phase = phases_by_id.get(phase_id)
            read_events.append(event)
        else:
            action = GMAction.from_db(db, _ACTION_FIELDS, (pk, game.pk, user_id, kind, data, created_at))
            action.user = User.from_db(db, ("id", "display_name"), (user_id, user_name)) if user_id else None
            action.named_user_name = named  # the name of the user its data names (GM_LOG_USER_ACTIONS), or None
            read_actions.append(action)
    read_events.sort(key=lambda e: (e.created_at, e.pk))
    read_actions.sort(key=lambda a: (a.created_at, a.pk))
    if permissions.event_audiences(user, game) is None:  # every event of the game: for the page's other readers
        game.__dict__["_all_events"] = read_events
    return read_events, read_actions


def all_events(game: Game) -> list[GameEvent] | None:
    """Every event of the game, oldest first, when the page read them all (game_log, for a viewer
    who may read every one: a rule set's GM panel finds its own there), else None."""
    return game.__dict__.get("_all_events")


def _event_rows(user, game: Game, seats_by_id: dict[int, Seat], holders: SeatHolders | None = None,
                events: list[GameEvent] | None = None) -> list[EventRow]:
    if events is None:
        events = list(permissions.filter_visible_events(user, game, GameEvent.objects.select_related("phase"))
                      .order_by("created_at", "pk"))
    return [
        EventRow(event=e, text=e.text or event_text(game.ruleset, e.kind, e.data),
                 audience=audience_label(e.audience, seats_by_id, holders, e.created_at), secret=e.audience != "public",
                 retracted=bool((e.data or {}).get("retracted")))
        for e in events
    ]


def _fates(seats: list[Seat], events: list[EventRow]) -> dict[int, tuple[str, bool]]:
    """Seat id -> (its fate in words, whether it was out at the end), from the seat's status and
    the phase of the last event (not rolled back) that took it out."""
    left_in: dict[int, Phase | None] = {}
    for row in events:
        seat_id = (row.event.data or {}).get("seat")
        if row.event.kind in EXIT_KINDS and not row.retracted and isinstance(seat_id, int):
            left_in[seat_id] = row.event.phase
    fates = {}
    for seat in seats:
        if seat.status == "active":
            fates[seat.pk] = (str(STATUS_LABELS["active"]), False)
            continue
        # a status of a rule set's own (the Show's «enslaved») in the shared words, never its code;
        # «изгнана голосованием» for a woman (the seat's player, games.wording.agreed)
        gender = seat.user.grammatical_gender if Seat.user.is_cached(seat) else ""
        if seat.status in AGREEING_FATES:
            status = str(agreed(gender, STATUS_LABELS[seat.status], *AGREEING_FATES[seat.status]))
        else:
            status = str(STATUS_LABELS.get(seat.status) or seat_status_label(seat.status, gender))
        phase = left_in.get(seat.pk)
        fates[seat.pk] = (_("%(status)s in %(phase)s") % {"status": status, "phase": phase_label(phase).lower()}
                          if phase is not None else status, True)
    return fates


def _seat_rows(user, game: Game, seats: list[Seat], events: list[EventRow], holders: SeatHolders) -> list[SeatRow]:
    replacements = defaultdict(list)
    for r in holders.replacements:
        replacements[r.seat_id].append(r)
    fates = _fates(seats, events)
    rows = []
    for seat in seats:
        visible = permissions.can_see_role_of(user, game, seat)
        fate, out = fates[seat.pk]
        rows.append(SeatRow(seat=seat, role_name=role_label(game.ruleset, seat.role) if visible else "",
                            faction_name=faction_label(seat.faction) if visible and seat.faction else "",
                            fate=fate, out=out, replacements=replacements[seat.pk]))
    return rows


def _orders(user, game: Game, holders: SeatHolders | None = None) -> list[Order]:
    """The orders the viewer may see, each seat named as it was when the order was recorded (an
    order of day 1 is its sender's, even if someone else holds the seat now). The seats are
    the holders' (every seat of the game, with its user), not joined again."""
    holders = holders if holders is not None else SeatHolders.for_game(game)
    orders = permissions.filter_visible_orders(user, game, Order.objects.select_related("recorded_by"))
    rows = list(orders.order_by("recorded_at", "pk"))
    for order in rows:
        for field, seat_id in (("actor", order.actor_id), ("target", order.target_id),
                               ("source_seat", order.source_seat_id)):
            if seat_id is not None and seat_id in holders.seats:
                setattr(order, field, holders.seats[seat_id])
    for order in rows:
        if holders:  # first, so that every text below names the seats as they were
            order.actor = holders.seat_at(order.actor, order.recorded_at)
            order.target = holders.seat_at(order.target, order.recorded_at)
            order.source_seat = holders.seat_at(order.source_seat, order.recorded_at)
        order.reason_text = order_reason_text(order.reason) if order.reason else ""
        order.action_text = order_action_text(order)
    return rows


def gm_log_rows(user, game: Game, seats: list[Seat] | None = None, *, holders: SeatHolders | None = None,
                actions: list[GMAction] | None = None) -> list[GMLogRow]:
    """The GM log in words, oldest first, as the viewer may read it (the GM dashboard's and the
    archive's). `holders` and `actions` (game_log's): when the caller has read them."""
    seats = seats if seats is not None else _seats(user, game)
    return _gm_log(user, game, {s.pk: s for s in seats}, {p.pk: p for p in game_phases(game)},
                   holders if holders is not None else SeatHolders.for_game(game, seats), actions=actions)


def _gm_log(user, game: Game, seats_by_id: dict[int, Seat], phases_by_id: dict[int, Phase],
            holders: SeatHolders | None = None, *, actions: list[GMAction] | None = None) -> list[GMLogRow]:
    """Each seat a line names is named as it was when the GM acted. A user a line names (a
    replaced player, a banned user, a co-GM) is named from the seats and replacements in hand,
    and only the others are read."""
    from accounts.models import User

    if actions is None:
        actions = list(permissions.filter_visible_gm_actions(user, game, GMAction.objects.select_related("user"))
                       .order_by("created_at", "pk"))
    user_ids = {v for a in actions for k, v in (a.data or {}).items() if k in ("user", "old", "new") and isinstance(v, int)}
    known = {s.user_id: s.user.display_name for s in seats_by_id.values()}
    for r in holders.replacements if holders is not None else ():
        known.update({r.old_user_id: r.old_user.display_name, r.new_user_id: r.new_user.display_name})
    known[game.gm_id] = game.gm.display_name
    for a in actions:  # the names game_log joined to the lines that name a user
        named, value = getattr(a, "named_user_name", None), (a.data or {}).get("user")
        if named is not None and isinstance(value, int):
            known[value] = named
    missing = user_ids - known.keys()
    users = {u: known[u] for u in user_ids - missing}
    if missing:
        users.update(User.objects.filter(pk__in=missing).values_list("pk", "display_name"))

    def seat_name(value, when) -> str:
        seat = seats_by_id.get(value) if isinstance(value, int) else None
        if seat is None:
            return "—"
        return f"#{seat.number} {holders.name_at(seat.pk, when) if holders is not None else seat.user.display_name}"

    wording = wording_of(game.ruleset)
    rows = []
    for action in actions:
        details = []
        for key, value in (action.data or {}).items():
            # The rule set words the data of its own actions first (cards: a card effect, a deck).
            own = wording.gm_log_detail(action.action, key, value,
                                        lambda seat_id, when=action.created_at: seat_name(seat_id, when))
            if own is not None:
                details.append(own)
                continue
            if key in ("seat", "target", "source", "sender"):
                # The replacement's own line names the seat by its newcomer; "old" names who left.
                shown = seat_name(value, action.created_at)
            elif key == "phase":
                shown = phase_label(phases_by_id.get(value)) or str(value)
            elif key in ("user", "old", "new"):
                shown = users.get(value, "—")
            elif key in ("faction", "winner"):
                shown = faction_label(str(value))
            elif key == "audience":
                shown = audience_label(str(value), seats_by_id, holders, action.created_at)
            elif key == "action":
                shown = action_label(str(value))
            elif key in ("from", "to"):
                shown = _when(value) if value else "—"
            elif key == "accepted" or isinstance(value, bool):
                shown = _("yes") if value else _("no")
            elif key == "reason" and action.action == "order_override":
                shown = order_reason_text(str(value)) if value else "—"
            elif key == "reason" and action.action == "card_message_refused":
                shown = str(CARD_MESSAGE_REFUSALS.get(str(value), value))
            elif key == "message":
                shown = f"#{value}"
            elif value in (None, ""):
                shown = "—"
            else:
                shown = str(value)
            details.append((str(GM_DATA_LABELS.get(key, key)), shown))
        label = wording.gm_action_labels.get(action.action) or GM_ACTION_LABELS.get(action.action, action.action)
        rows.append(GMLogRow(action=action, label=str(label), details=details))
    return rows


def _phase_blocks(user, game: Game, events: list[EventRow], *, with_orders: bool, with_counts: bool,
                  holders: SeatHolders | None = None) -> tuple[list, list, list]:
    holders = holders if holders is not None else SeatHolders.for_game(game)
    phases = game_phases(game)
    blocks = {p.pk: PhaseBlock(phase=p, label=phase_label(p), voided=p.voided_at is not None) for p in phases}
    loose = []
    for row in events:
        block = blocks.get(row.event.phase_id)
        (block.events if block else loose).append(row)
    orders = _orders(user, game, holders) if with_orders else None
    for order in orders or ():
        blocks[order.phase_id].orders.append(order)
    if with_counts:
        # Every day's ballots and the table in one query each, however long the game (issue 30).
        days = [phase for phase in phases if phase.kind in voting_kinds(game)]
        # After a replacement a count names each voter as he was when he posted: the posts'
        # times come with the ballots (holders.count_as_cast).
        times = {} if holders else None
        ballots = effective_ballots_by_phase(days, times=times)
        seats = sorted(holders.seats.values(), key=lambda s: s.number)
        if days and parse_measure(game) is not None:
            # A count with measures (cards' Veche) reads each day's order ledger: every day's at once,
            # from the orders in hand when they are all of them (permissions.sees_every_order).
            remember_phase_ledgers(days, orders if orders is not None and permissions.sees_every_order(user, game)
                                   else None)
        for phase in days:
            phase.game = game
            blocks[phase.pk].count = count_as_cast(vote_count(phase=phase, seats=seats, ballots=ballots[phase.pk]),
                                                   game=game, holders=holders, times=times)
    ordered = [blocks[p.pk] for p in phases]
    return [b for b in ordered if not b.voided], [b for b in ordered if b.voided], loose


def _in_hand(message, seats: dict[int, Seat], phases: dict[int, Phase]):
    """A message's sender, recipient and phase from the rows in hand (not joined again)."""
    for field, pk in (("sender", message.sender_id), ("recipient", message.recipient_id)):
        if pk in seats:
            setattr(message, field, seats[pk])
    message.phase = phases.get(message.phase_id) if message.phase_id is not None else None
    return message


_PRIVATE_FIELDS = ("id", "post_id", "index", "sender_id", "recipient_id", "phase_id", "html", "created_at")
_ANONYMOUS_FIELDS = ("id", "game_id", "kind", "sender_id", "recipient_id", "phase_id", "text", "status", "created_at")


def game_messages(user, game: Game) -> tuple[list[PrivateMessage], list[AnonymousMessage]]:
    """The game's [private] messages (in post order) and its anonymous and card messages (oldest
    first) as `user` may read them, in one round trip (issue 30): games.permissions filters each
    table (filter_visible_private_messages, filter_visible_anonymous), and a UNION ALL reads both in
    one shape. A private message's post is its id, thread and number (its link); the seats and
    phases are the caller's to attach (`_in_hand`)."""
    def shape(queryset, source: int, **columns):
        empty = {"msg_post": Value(None, output_field=IntegerField()), "msg_index": Value(None, output_field=IntegerField()),
                 "msg_number": Value(None, output_field=IntegerField()), "msg_thread": Value(None, output_field=IntegerField()),
                 "msg_kind": Value("", output_field=CharField()), "msg_status": Value("", output_field=CharField()),
                 "msg_text": Value("", output_field=TextField())}
        empty.update(columns)
        return (queryset.order_by().annotate(msg_source=Value(source, output_field=IntegerField()), **empty)
                .values_list("msg_source", "pk", "sender_id", "recipient_id", "phase_id", "created_at", "msg_text",
                             "msg_kind", "msg_status", "msg_post", "msg_index", "msg_number", "msg_thread"))

    private = shape(permissions.filter_visible_private_messages(user, game, PrivateMessage.objects.all()), 0,
                    msg_text=F("html"), msg_post=F("post_id"), msg_index=F("index"), msg_number=F("post__number"),
                    msg_thread=F("post__thread_id"))
    anonymous = shape(permissions.filter_visible_anonymous(user, game, AnonymousMessage.objects.all()), 1,
                      msg_text=F("text"), msg_kind=F("kind"), msg_status=F("status"))
    db = PrivateMessage.objects.db
    read_private, read_anonymous = [], []
    for (source, pk, sender, recipient, phase, created_at, text, kind, status, post, index, number,
         thread) in private.union(anonymous, all=True):
        if source == 0:
            message = PrivateMessage.from_db(db, _PRIVATE_FIELDS, (pk, post, index, sender, recipient, phase, text,
                                                                   created_at))
            message.post = Post.from_db(db, ("id", "thread_id", "number"), (post, thread, number))
            read_private.append(message)
        else:
            read_anonymous.append(AnonymousMessage.from_db(db, _ANONYMOUS_FIELDS, (
                pk, game.pk, kind, sender, recipient, phase, text, status, created_at)))
    read_private.sort(key=lambda m: (m.post.number, m.index))
    read_anonymous.sort(key=lambda m: (m.created_at, m.pk))
    return read_private, read_anonymous


def _private_threads(user, game: Game, seats: dict[int, Seat], phases: dict[int, Phase]) -> list[Thread]:
    """The game's private threads the viewer may see (games.permissions), each with its members:
    one query, a room's row once per member (its seats and phases are in hand)."""
    rows = (permissions.filter_visible_game_threads(user, game, game.private_threads.all())
            .annotate(member_id=F("members")).order_by("kind", "pk"))
    threads: dict[int, Thread] = {}
    for row in rows:
        thread = threads.get(row.pk)
        if thread is None:
            thread = threads[row.pk] = row
            thread.member_seats = []
            for field, pk, found in (("seat", row.seat_id, seats), ("opened_by", row.opened_by_id, phases),
                                     ("closes_with", row.closes_with_id, phases)):
                if pk is not None and pk in found:
                    setattr(thread, field, found[pk])
        if row.member_id is not None and row.member_id in seats:
            thread.member_seats.append(seats[row.member_id])
    for thread in threads.values():
        thread.member_seats.sort(key=lambda s: s.number)
    return list(threads.values())


def game_archive(user, game: Game) -> Archive:
    """Everything the archive page shows. The caller has checked permissions.check_see_archive.
    Flat in the game's length and the site's size (issue 30): the seats, replacements, phases,
    events with the GM log, orders, ballots, private and anonymous messages and private threads,
    one query each."""
    seats = _seats(user, game)
    seats_by_id = {s.pk: s for s in seats}
    holders = SeatHolders.for_game(game, seats)
    phases_by_id = {p.pk: p for p in game_phases(game)}
    events_read, actions = game_log(user, game, phases_by_id)
    events = _event_rows(user, game, seats_by_id, holders, events_read)
    live, voided, loose = _phase_blocks(user, game, events, with_orders=True, with_counts=True, holders=holders)
    private, anonymous = game_messages(user, game)
    private = [_in_hand(m, seats_by_id, phases_by_id) for m in private]
    anonymous = [_in_hand(m, seats_by_id, phases_by_id) for m in anonymous]
    for message in [*private, *anonymous]:  # each named as it was when it was sent
        message.sender = holders.seat_at(message.sender, message.created_at)
        message.recipient = holders.seat_at(message.recipient, message.created_at)
    threads = _private_threads(user, game, seats_by_id, phases_by_id)
    kind_order = {Thread.Kind.FACTION: 0, Thread.Kind.GM_CHAT: 1, Thread.Kind.LOUNGE: 2}
    return Archive(
        game=game,
        sealed=game.status != Game.Status.FINISHED,
        winner_label=faction_label(game.winner) if game.winner else "",
        seats=_seat_rows(user, game, seats, events, holders),
        phases=live, voided=voided, loose_events=loose,
        private_messages=private,
        anonymous=anonymous,
        rooms=[t for t in threads if t.kind == Thread.Kind.ROOM],
        threads=sorted((t for t in threads if t.kind != Thread.Kind.ROOM), key=lambda t: (kind_order.get(t.kind, 9), t.pk)),
        gm_log=_gm_log(user, game, seats_by_id, phases_by_id, holders, actions=actions),
        commitment=commitment_reveal(game, seats, holders.replacements),
    )


# --- The replay --------------------------------------------------------------------------------
def _day_posts(game: Game, phase: Phase):
    posts = Post.objects.filter(thread_id=game.game_thread_id, created_at__gte=phase.opened_at)
    if phase.closed_at is not None:
        posts = posts.filter(created_at__lt=phase.closed_at)
    return posts


def _day_range(phase: Phase) -> dict:
    """MIN and MAX of the day's post numbers, each with the day's own condition as its FILTER:
    the same values, but the planner can no longer answer them by walking the thread's number
    index from one end until a post of the day turns up (its min/max shortcut, which takes no
    FILTER). That walk is two probes for the thread's first or last day and every post of the
    thread for a day in between or a short last day; it chose it whenever it overrated how many
    of the thread's posts fall in the day, which the time's statistics over every thread of the
    site decide (the replay of the same game grew with the site, issue 30). With the filter the
    day's entries of the (thread, created_at, number) index are read alone, an index-only scan:
    the cost of the day's posts, whatever the site around them."""
    day = Q(created_at__gte=phase.opened_at)
    if phase.closed_at is not None:
        day &= Q(created_at__lt=phase.closed_at)
    return {"first": Min("number", filter=day), "last": Max("number", filter=day)}


def _post_range(game: Game, phase: Phase) -> tuple[int | None, int | None]:
    span = _day_posts(game, phase).aggregate(**_day_range(phase))
    return span["first"], span["last"]


def post_ranges(game: Game, phases: list[Phase]) -> dict[int, tuple[int | None, int | None]]:
    """_post_range of several days in one round trip (a UNION ALL of each day's own range query,
    each served by the index as alone): the replay's charts, flat in the number of days (issue 30)."""
    if not phases:
        return {}
    parts = [_day_posts(game, phase).order_by().annotate(day=Value(phase.pk)).values("day")
             .annotate(**_day_range(phase)).values_list("day", "first", "last") for phase in phases]
    rows = parts[0].union(*parts[1:], all=True) if len(parts) > 1 else parts[0]
    found = {day: (first, last) for day, first, last in rows}
    return {phase.pk: found.get(phase.pk, (None, None)) for phase in phases}


def day_chart(game: Game, phase: Phase, count: CountView, seats: list[Seat],
              holders: SeatHolders | None = None, post_range: tuple[int | None, int | None] | None = None) -> SafeString:
    """The SVG of a day's wagons over its posts, from the very ballots and rules of its count. A
    wagon is named by who held its seat that day ("Эсмеральда → Запасной" when it changed hands
    during the day), not by who holds it now."""
    voters, targets = voters_and_targets(phase, seats)
    history = charts.wagon_history(count.ballots, voters=voters, targets=targets,
                                   weights=vote_weights_for(game, seats))
    holders = holders if holders is not None else SeatHolders.for_game(game, seats)
    labels = {s.pk: " → ".join(holders.names_during(s.pk, phase.opened_at, phase.closed_at)) for s in seats}
    labels[charts.PEACE_KEY] = _("Peace")
    series = charts.chart_series(history, labels, others_label=_("others"))
    # x runs over the day's posts, and over every post holding one of its ballots (the ballots
    # come in post order).
    first, last = _post_range(game, phase) if post_range is None else post_range
    ballot_posts = [count.ballots[0].order, count.ballots[-1].order] if count.ballots else []
    start = min([n for n in (first, *ballot_posts) if n is not None], default=0)
    end = max([n for n in (last, *ballot_posts) if n is not None], default=start)
    label = phase_label(phase).lower()
    if series and count.plurality:  # no majority line: the most votes at the close decide
        desc = _("Votes on each player through %(phase)s, post by post. At the end: %(count)s.") % {
            "phase": label, "count": ", ".join(f"{line.label} — {line.final}" for line in series)}
    elif series:
        desc = _("Votes on each player through %(phase)s, post by post. At the end: %(count)s. Majority: %(majority)s.") % {
            "phase": label, "majority": count.majority,
            "count": ", ".join(f"{line.label} — {line.final}" for line in series)}
    else:
        desc = _("Nobody voted in %(phase)s.") % {"phase": label}
    texts = charts.ChartTexts(
        title=_("Wagons through %(phase)s") % {"phase": label}, desc=desc, x_label=_("post number in the game thread"),
        y_label=_("votes"), majority=_("majority"), empty=_("no votes"))
    return mark_safe(charts.vote_chart_svg(series, start=start, end=end, texts=texts,  # noqa: S308 (escaped by charts)
                                           chart_id=f"chart-{phase.pk}",
                                           majority=None if count.plurality else count.majority))


@dataclass
class Replay:
    game: Game
    sealed: bool
    winner_label: str
    phases: list[PhaseBlock]
    voided: list[PhaseBlock]
    loose_events: list[EventRow]

    @property
    def loose_public(self) -> list[EventRow]:
        return [row for row in self.loose_events if not row.secret]

    @property
    def loose_secret(self) -> list[EventRow]:
        return [row for row in self.loose_events if row.secret]


def game_replay(user, game: Game) -> Replay:
    """The replay page: each phase in order with its events (public, then secret) and, for each
    day, the chart of its wagons. The caller has checked permissions.check_see_archive."""
    seats = _seats(user, game)
    holders = SeatHolders.for_game(game, seats)
    phases_by_id = {p.pk: p for p in game_phases(game)}
    events = _event_rows(user, game, {s.pk: s for s in seats}, holders,
                         list(permissions.filter_visible_events(user, game, GameEvent.objects.all())
                              .order_by("created_at", "pk")))
    for row in events:
        row.event.phase = phases_by_id.get(row.event.phase_id)
    live, voided, loose = _phase_blocks(user, game, events, with_orders=False, with_counts=True, holders=holders)
    days = [block for block in live + voided if block.count is not None]
    ranges = post_ranges(game, [block.phase for block in days])
    for block in days:
        block.chart = day_chart(game, block.phase, block.count, seats, holders, post_range=ranges[block.phase.pk])
    return Replay(game=game, sealed=game.status != Game.Status.FINISHED,
                  winner_label=faction_label(game.winner) if game.winner else "",
                  phases=live, voided=voided, loose_events=loose)
