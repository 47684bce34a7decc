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

from django.db.models import Max, Min, Value
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
from games.selectors.orders import action_label, order_action_text, order_reason_text
from games.selectors.votes import (
    CountView,
    effective_ballots_by_phase,
    seats_in_order,
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
def _seats(game: Game) -> list[Seat]:
    return list(game.seats.select_related("user").order_by("number"))


def _event_rows(user, game: Game, seats_by_id: dict[int, Seat], holders: SeatHolders | None = None) -> list[EventRow]:
    events = permissions.filter_visible_events(user, game, GameEvent.objects.select_related("phase"))
    return [
        EventRow(event=e, text=e.text or event_text(game.ruleset, e.kind, e.data),
                 audience=audience_label(e.audience, seats_by_id, holders, e.created_at), secret=e.audience != "public",
                 retracted=bool((e.data or {}).get("retracted")))
        for e in events.order_by("created_at", "pk")
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


def _seat_rows(user, game: Game, seats: list[Seat], events: list[EventRow]) -> list[SeatRow]:
    replacements = defaultdict(list)
    for r in Replacement.objects.filter(seat__game=game).select_related("old_user", "new_user", "created_by"):
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
    order of day 1 is its sender's, even if someone else holds the seat now)."""
    orders = permissions.filter_visible_orders(
        user, game, Order.objects.select_related("actor__user", "target__user", "source_seat__user", "recorded_by"))
    rows = list(orders.order_by("recorded_at", "pk"))
    holders = holders if holders is not None else SeatHolders.for_game(game)
    for order in rows:
        if holders:  # first, so that every text below names the seats as they were
            order.actor = holders.seat_at(order.actor, order.recorded_at)
            order.target = holders.seat_at(order.target, order.recorded_at)
            order.source_seat = holders.seat_at(order.source_seat, order.recorded_at)
        order.reason_text = order_reason_text(order.reason) if order.reason else ""
        order.action_text = order_action_text(order)
    return rows


def gm_log_rows(user, game: Game, seats: list[Seat] | None = None) -> list[GMLogRow]:
    """The GM log in words, oldest first, as the viewer may read it (the GM dashboard's and the
    archive's)."""
    seats = seats if seats is not None else _seats(game)
    return _gm_log(user, game, {s.pk: s for s in seats}, {p.pk: p for p in game.phases.all()},
                   SeatHolders.for_game(game, seats))


def _gm_log(user, game: Game, seats_by_id: dict[int, Seat], phases_by_id: dict[int, Phase],
            holders: SeatHolders | None = None) -> list[GMLogRow]:
    """Each seat a line names is named as it was when the GM acted."""
    from accounts.models import User

    actions = list(permissions.filter_visible_gm_actions(user, game, GMAction.objects.select_related("user"))
                   .order_by("created_at", "pk"))
    user_ids = {v for a in actions for k, v in (a.data or {}).items() if k in ("user", "old", "new") and isinstance(v, int)}
    users = {u.pk: u.display_name for u in User.objects.filter(pk__in=user_ids)} if user_ids else {}

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
    phases = list(game.phases.order_by("opened_at", "pk"))
    blocks = {p.pk: PhaseBlock(phase=p, label=phase_label(p), voided=p.voided_at is not None) for p in phases}
    loose = []
    for row in events:
        block = blocks.get(row.event.phase_id)
        (block.events if block else loose).append(row)
    if with_orders:
        for order in _orders(user, game, holders):
            blocks[order.phase_id].orders.append(order)
    if with_counts:
        # Every day's ballots and the table in one query each, however long the game (issue 30).
        days = [phase for phase in phases if phase.kind in voting_kinds(game)]
        ballots = effective_ballots_by_phase(days)
        seats = seats_in_order(game) if days else []
        for phase in days:
            phase.game = game
            blocks[phase.pk].count = count_as_cast(vote_count(phase=phase, seats=seats, ballots=ballots[phase.pk]),
                                                   game=game, holders=holders)
    ordered = [blocks[p.pk] for p in phases]
    return [b for b in ordered if not b.voided], [b for b in ordered if b.voided], loose


def game_archive(user, game: Game) -> Archive:
    """Everything the archive page shows. The caller has checked permissions.check_see_archive."""
    seats = _seats(game)
    seats_by_id = {s.pk: s for s in seats}
    holders = SeatHolders.for_game(game, seats)
    events = _event_rows(user, game, seats_by_id, holders)
    live, voided, loose = _phase_blocks(user, game, events, with_orders=True, with_counts=True, holders=holders)
    phases_by_id = {b.phase.pk: b.phase for b in live + voided}
    private = list(permissions.filter_visible_private_messages(
        user, game, PrivateMessage.objects.select_related("sender__user", "recipient__user", "post", "phase"))
        .order_by("post__number", "index"))
    anonymous = list(permissions.filter_visible_anonymous(
        user, game, AnonymousMessage.objects.select_related("sender__user", "recipient__user", "phase", "decided_by"))
        .order_by("created_at", "pk"))
    for message in [*private, *anonymous]:  # each named as it was when it was sent
        message.sender = holders.seat_at(message.sender, message.created_at)
        message.recipient = holders.seat_at(message.recipient, message.created_at)
    threads = list(permissions.filter_visible_threads(user, game.private_threads.all())
                   .select_related("seat__user", "opened_by", "closes_with").prefetch_related("members__user")
                   .order_by("kind", "pk"))
    kind_order = {Thread.Kind.FACTION: 0, Thread.Kind.GM_CHAT: 1, Thread.Kind.LOUNGE: 2}
    return Archive(
        game=game,
        sealed=game.status != Game.Status.FINISHED,
        winner_label=faction_label(game.winner) if game.winner else "",
        seats=_seat_rows(user, game, seats, events),
        phases=live, voided=voided, loose_events=loose,
        private_messages=private,
        anonymous=anonymous,
        rooms=[t for t in threads if t.kind == Thread.Kind.ROOM],
        threads=sorted((t for t in threads if t.kind != Thread.Kind.ROOM), key=lambda t: (kind_order.get(t.kind, 9), t.pk)),
        gm_log=_gm_log(user, game, seats_by_id, phases_by_id, holders),
        commitment=commitment_reveal(game, seats),
    )


# --- The replay --------------------------------------------------------------------------------
def _day_posts(game: Game, phase: Phase):
    posts = Post.objects.filter(thread_id=game.game_thread_id, created_at__gte=phase.opened_at)
    if phase.closed_at is not None:
        posts = posts.filter(created_at__lt=phase.closed_at)
    return posts


def _post_range(game: Game, phase: Phase) -> tuple[int | None, int | None]:
    span = _day_posts(game, phase).aggregate(first=Min("number"), last=Max("number"))
    return span["first"], span["last"]


def post_ranges(game: Game, phases: list[Phase]) -> dict[int, tuple[int | None, int | None]]:
    """_post_range of several days in one round trip (a UNION ALL of each day's own range query,
    each served by the index as alone): the replay's charts, flat in the number of days (issue 30)."""
    if not phases:
        return {}
    parts = [_day_posts(game, phase).order_by().annotate(day=Value(phase.pk)).values("day")
             .annotate(first=Min("number"), last=Max("number")).values_list("day", "first", "last") for phase in phases]
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
    seats = _seats(game)
    holders = SeatHolders.for_game(game, seats)
    events = _event_rows(user, game, {s.pk: s for s in seats}, holders)
    live, voided, loose = _phase_blocks(user, game, events, with_orders=False, with_counts=True, holders=holders)
    days = [block for block in live + voided if block.count is not None]
    ranges = post_ranges(game, [block.phase for block in days])
    for block in days:
        block.chart = day_chart(game, block.phase, block.count, seats, holders, post_range=ranges[block.phase.pk])
    return Replay(game=game, sealed=game.status != Game.Status.FINISHED,
                  winner_label=faction_label(game.winner) if game.winner else "",
                  phases=live, voided=voided, loose_events=loose)
