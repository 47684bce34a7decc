"""[private="Name"] messages inside game-thread posts (001): checked before the post is stored,
kept apart from the public HTML, and shown per viewer through games.permissions."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _

from games import permissions
from games.models import Game, Phase, Post, PrivateMessage, Seat, Thread
from games.services import ActionRefused, notifications
from games.text import bbcode

# Who may be written to, per rule set; a game may override it with options["private_messages"].
DEFAULT_MODES = {"forum": "anyone", "club": "off", "cards": "neighbours", "show": "off"}
MODES = ("anyone", "neighbours", "off")
PLACEHOLDER_RE = re.compile(r'<div class="bb-private"[^>]*>[^<]*</div>')


def private_mode(game: Game) -> str:
    mode = (game.options or {}).get("private_messages") or DEFAULT_MODES.get(game.ruleset, "off")
    return mode if mode in MODES else "off"


@dataclass
class PendingPrivate:
    index: int
    sender: Seat
    recipient: Seat
    phase: Phase
    html: str


def neighbours(seats: list[Seat], seat: Seat) -> set[int]:
    """The seats on either side in the ring of players still in play."""
    ring = [s for s in sorted(seats, key=lambda s: s.number) if s.status == "active" or s.pk == seat.pk]
    if len(ring) < 2:
        return set()
    i = next(k for k, s in enumerate(ring) if s.pk == seat.pk)
    return {ring[(i - 1) % len(ring)].pk, ring[(i + 1) % len(ring)].pk} - {seat.pk}


def private_check(*, thread: Thread, author, body: str) -> list[PendingPrivate]:
    """The [private] messages of a post about to be written, or ActionRefused with the reason
    (the post is then not stored at all)."""
    if "[private" not in body.lower():
        return []
    root = bbcode.parse(body)
    tags = list(bbcode.iter_elements(root, "private"))
    if not tags:
        return []
    quoted = {id(e) for q in bbcode.iter_elements(root, "quote") for e in bbcode.iter_elements(q, "private")}
    own = [(i, tag) for i, tag in enumerate(tags) if id(tag) not in quoted]
    if not own:
        return []
    game = permissions.game_of(thread)
    if game is None or thread.kind != Thread.Kind.GAME:
        raise ActionRefused(_("Private messages are written in a game thread."), code="private_not_here")
    mode = private_mode(game)
    if mode == "off":
        raise ActionRefused(_("This game has no private messages."), code="private_off")
    if game.status != Game.Status.RUNNING:
        raise ActionRefused(_("Private messages are sent while the game runs."), code="private_not_running")
    phase = game.current_phase
    if phase is None or phase.kind not in (Phase.Kind.DAY, Phase.Kind.REVOTE) or not phase.is_open:
        raise ActionRefused(_("Private messages are sent by day."), code="private_not_day")
    seats = list(game.seats.select_related("user"))
    sender = next((s for s in seats if s.user_id == author.pk), None)
    if sender is None or sender.status != "active":
        raise ActionRefused(_("Only players in play send private messages."), code="private_not_player")
    from games.services.votes import roster_matcher

    matcher = roster_matcher(tuple((s.user.display_name, tuple(s.aliases or ())) for s in seats))
    by_name = {s.user.display_name: s for s in seats}
    near = neighbours(seats, sender)
    postman_used = False
    pending = []
    for index, tag in own:
        name = (tag.option or "").strip()
        found = matcher.match(name) if name else None
        if found is None or not found.ok:
            raise ActionRefused(_("Private message: no player is called «%(name)s».") % {"name": name or "?"},
                                code="private_unknown")
        recipient = by_name[found.name]
        if recipient.pk == sender.pk:
            raise ActionRefused(_("Private message: you cannot write to yourself."), code="private_self")
        if recipient.status != "active":
            raise ActionRefused(_("Private message: %(name)s is out of the game.") % {"name": found.name},
                                code="private_dead")
        if mode == "neighbours" and recipient.pk not in near:
            if not _postman_may_send(game, phase, sender, near, already=postman_used):
                raise ActionRefused(_("Private message: %(name)s is not your neighbour.") % {"name": found.name},
                                    code="private_not_neighbour")
            postman_used = True
        html = bbcode.render_tree(bbcode.Element(tag="root", option=None, children=tag.children))
        pending.append(PendingPrivate(index=index, sender=sender, recipient=recipient, phase=phase, html=html))
    return pending


# --- Overt roles (cards) that change who may talk to whom ----------------------------------------------
POSTMAN, MANAGER, CONSPIRATOR = "Почтальон", "Менеджер", "Заговорщик"


def overt_role_of(game: Game, seat_pk: int) -> str:
    """The registered overt role of a seat in a cards game («Класс»), by its canonical name, or ""
    (no overt role, a custom name, another rule set). Read from the engine state, which holds the
    overt roles as dealt at the start."""
    if game.ruleset != "cards" or not game.state:
        return ""
    from games.engine.rulesets.cards.roles import overt_role

    name = ((game.state.get("memory") or {}).get("overt") or {}).get(str(seat_pk))
    role = overt_role(name)
    return role.name if role is not None else ""


def _postman_may_send(game: Game, phase: Phase, sender: Seat, near: set[int], *, already: bool) -> bool:
    """«Почтальон: Раз в день может отправить днём приватное сообщение любому игроку, указав
    публично получателя» — one message a day beyond his neighbours (the recipient is public anyway:
    every [private] shows to whom it goes)."""
    if already or overt_role_of(game, sender.pk) != POSTMAN:
        return False
    sent_far = PrivateMessage.objects.filter(phase=phase, sender=sender).exclude(recipient_id__in=near).exists()
    return not sent_far


def private_store(*, post: Post, pending: list[PendingPrivate], now: datetime) -> None:
    if not pending:
        return
    PrivateMessage.objects.bulk_create([
        PrivateMessage(post=post, index=p.index, sender=p.sender, recipient=p.recipient, phase=p.phase, html=p.html,
                       created_at=now)
        for p in pending
    ])
    notifications.notify_private_messages(post=post, pending=pending, now=now)


def private_display(*, user, thread: Thread, posts: list[Post]) -> None:
    """Rewrite the placeholders of the posts on a page for this viewer: everyone sees that a post
    holds a message and to whom; the recipient, the sender and the GMs also see its text."""
    marked = [p for p in posts if "bb-private" in p.html]
    if not marked:
        return
    game = permissions.game_of(thread)
    messages = {}
    if game is not None:
        rows = PrivateMessage.objects.filter(post__in=marked).select_related("recipient__user", "sender__user")
        visible = set(permissions.filter_visible_private_messages(user, game, rows).values_list("pk", flat=True))
        for row in rows:
            messages[(row.post_id, row.index)] = (row, row.pk in visible)
    for post in marked:
        counter = iter(range(10_000))

        def replace(match, post=post, counter=counter):
            index = next(counter)
            recipient = re.search(r'data-recipient="([^"]*)"', match.group(0))
            row, shown = messages.get((post.pk, index), (None, False))
            return render_to_string("games/_private.html", {
                "recipient": row.recipient.user.display_name if row else (recipient.group(1) if recipient else ""),
                "html": row.html if row is not None and shown else None,
            }).strip()

        post.html = PLACEHOLDER_RE.sub(replace, post.html)


# --- Anonymous messages through the GM (002: «отправлять анонимные сообщения через ведущего») ----
ANONYMOUS_DEFAULTS = {"forum": {"limit": 5, "approval": False}}


def anonymous_rules(game: Game) -> dict | None:
    """{"limit": per player per game, "approval": the GM reads first} or None when the game has none."""
    configured = (game.options or {}).get("anonymous_messages", ANONYMOUS_DEFAULTS.get(game.ruleset))
    if not configured:
        return None
    return {"limit": int(configured.get("limit", 5)), "approval": bool(configured.get("approval", False))}


def anonymous_send(*, game: Game, user, recipient: Seat | None, text: str, now: datetime | None = None):
    from django.utils import timezone

    from games.models import AnonymousMessage

    now = now or timezone.now()
    rules = anonymous_rules(game)
    if rules is None:
        raise ActionRefused(_("This game has no anonymous messages."), code="anon_off")
    if game.status != Game.Status.RUNNING:
        raise ActionRefused(_("Anonymous messages are sent while the game runs."), code="anon_not_running")
    sender = permissions.seat_of(user, game)
    if sender is None or sender.status != "active":
        raise ActionRefused(_("Only players in play send anonymous messages."), code="anon_not_player")
    if recipient is None or recipient.game_id != game.pk:
        raise ActionRefused(_("Choose a player of this game."), code="anon_bad_recipient")
    if recipient.pk == sender.pk:
        raise ActionRefused(_("You cannot write to yourself."), code="anon_self")
    if recipient.status != "active":
        raise ActionRefused(_("That player is out of the game."), code="anon_dead")
    text = (text or "").strip()
    if not text:
        raise ActionRefused(_("The message is empty."), code="anon_empty")
    if len(text) > 2000:
        raise ActionRefused(_("The message is too long (at most 2000 characters)."), code="anon_long")
    sent = (AnonymousMessage.objects.filter(game=game, sender=sender, kind=AnonymousMessage.Kind.ANONYMOUS)
            .exclude(status=AnonymousMessage.Status.REJECTED).count())
    if sent >= rules["limit"]:
        raise ActionRefused(_("You have used all %(n)d anonymous messages of this game.") % {"n": rules["limit"]},
                            code="anon_limit")
    message = AnonymousMessage.objects.create(game=game, sender=sender, recipient=recipient, text=text, created_at=now)
    if not rules["approval"]:
        _anonymous_deliver(message, now)
    return message


def anonymous_decide(*, message, by, approve: bool, now: datetime | None = None):
    from django.utils import timezone

    from games.models import AnonymousMessage
    from games.services.lifecycle import gm_log

    now = now or timezone.now()
    if not permissions.is_game_master(by, message.game):
        raise ActionRefused(_("Only the GM decides."), code="not_allowed")
    if message.status != AnonymousMessage.Status.PENDING:
        raise ActionRefused(_("This message is already decided."), code="decided")
    message.decided_at, message.decided_by = now, by
    if approve:
        _anonymous_deliver(message, now)
    else:
        message.status = AnonymousMessage.Status.REJECTED
        message.save(update_fields=["status", "decided_at", "decided_by"])
    gm_log(game=message.game, user=by, action="anonymous_" + ("approve" if approve else "reject"),
           data={"message": message.pk}, now=now)
    return message


def _anonymous_deliver(message, now: datetime) -> None:
    """The recipient gets a private event without the sender's name; the sender stays on record
    for the GMs (and for everyone after the game)."""
    from games.engine.events import Event, seat_audience
    from games.models import AnonymousMessage
    from games.services.lifecycle import store_events

    message.status = AnonymousMessage.Status.DELIVERED
    message.save(update_fields=["status", "decided_at", "decided_by"])
    store_events(game=message.game, phase=message.game.current_phase, now=now,
                 events=[Event("anonymous_message", seat_audience(message.recipient_id), {"text": message.text})])
    notifications.notify_anonymous_delivered(message=message, now=now)


# --- Chat rooms (001: three characters name the same room in their posts' comment field) --------
ROOM_RE = re.compile(r"^\s*(?:комнат[аы]|room)\s*[:\-—–]\s*(?P<names>.+?)\s*$", re.IGNORECASE | re.DOTALL)
# The Conspirator's once-a-game room: «заговор: Вася, Петя, Маша, Коля» (the others name the same
# members with «комната:»).
CONSPIRACY_RE = re.compile(r"^\s*(?:заговор|conspiracy)\s*[:\-—–]\s*(?P<names>.+?)\s*$", re.IGNORECASE | re.DOTALL)
ROOM_SIZE = 3
MANAGER_SIZES = (2, 3, 4)  # «Менеджер: Может создавать чат-комнаты на двух или четырех персонажей»


def room_sizes(game: Game, members: set[int]) -> tuple[int, ...]:
    """The sizes a room of these members may have: three, or two to four with the Manager in it."""
    if any(overt_role_of(game, pk) == MANAGER for pk in members):
        return MANAGER_SIZES
    return (ROOM_SIZE,)


def _joins_a_conspiracy(game: Game, others: set[int]) -> bool:
    """A room of another size may be the Conspirator's: the others name it with «комната:»."""
    return any(overt_role_of(game, pk) == CONSPIRATOR and not _conspiracy_used(game, pk) for pk in others)


def _conspiracy_used(game: Game, seat) -> bool:
    # Only a conspiracy room lives without an end (closes_with is empty): ordinary rooms always
    # close with the phase after their day.
    return Thread.objects.filter(kind=Thread.Kind.ROOM, game=game, closes_with__isnull=True, members=seat).exists()


def rooms_enabled(game: Game) -> bool:
    return bool((game.options or {}).get("rooms", game.ruleset == "cards"))


@dataclass
class PendingRoom:
    phase: Phase
    proposer: Seat
    members: list[int]
    conspiracy: bool = False


def room_check(*, thread: Thread, author, comment: str) -> PendingRoom | None:
    """Read «комната: Вася, Петя» from a post's comment field, or refuse it with the reason. Any
    other comment is just a comment."""
    match = ROOM_RE.match(comment or "")
    conspiracy = False
    if match is None:
        match = CONSPIRACY_RE.match(comment or "")
        conspiracy = match is not None
    if match is None:
        return None
    game = permissions.game_of(thread)
    if game is None or thread.kind != Thread.Kind.GAME or not rooms_enabled(game):
        raise ActionRefused(_("This game has no chat rooms."), code="rooms_off")
    phase = game.current_phase
    if game.status != Game.Status.RUNNING or phase is None or phase.kind != Phase.Kind.DAY or not phase.is_open:
        raise ActionRefused(_("Rooms are agreed by day."), code="room_not_day")
    seats = list(game.seats.select_related("user"))
    proposer = next((s for s in seats if s.user_id == author.pk), None)
    if proposer is None or proposer.status != "active":
        raise ActionRefused(_("Only players in play take rooms."), code="room_not_player")
    from games.services.votes import roster_matcher

    matcher = roster_matcher(tuple((s.user.display_name, tuple(s.aliases or ())) for s in seats))
    by_name = {s.user.display_name: s for s in seats}
    members = {proposer.pk}
    for raw in re.split(r",|\s+и\s+", match.group("names")):
        name = raw.strip(" .!;")
        if not name:
            continue
        found = matcher.match(name)
        if not found.ok:
            raise ActionRefused(_("Room: no player is called «%(name)s».") % {"name": name}, code="room_unknown")
        seat = by_name[found.name]
        if seat.status != "active":
            raise ActionRefused(_("Room: %(name)s is out of the game.") % {"name": found.name}, code="room_dead")
        members.add(seat.pk)
    if conspiracy:
        if overt_role_of(game, proposer.pk) != CONSPIRATOR:
            raise ActionRefused(_("Only the Conspirator calls a conspiracy."), code="room_not_conspirator")
        if _conspiracy_used(game, proposer):
            raise ActionRefused(_("The Conspirator calls his conspiracy once a game."), code="room_conspiracy_used")
        if len(members) < 2:
            raise ActionRefused(_("Name at least one other player."), code="room_size")
    elif len(members) not in room_sizes(game, members) and not _joins_a_conspiracy(game, members - {proposer.pk}):
        if len(room_sizes(game, members)) > 1:
            raise ActionRefused(_("With the Manager a room is for two, three or four players."), code="room_size")
        raise ActionRefused(_("A room is for three: you and two other players."), code="room_size")
    return PendingRoom(phase=phase, proposer=proposer, members=sorted(members), conspiracy=conspiracy)


def room_store(*, post: Post, pending: PendingRoom | None, now: datetime) -> None:
    from games.models import RoomProposal

    if pending is not None:
        RoomProposal.objects.create(phase=pending.phase, proposer=pending.proposer, post=post,
                                    members=pending.members, created_at=now)


def rooms_open(*, game: Game, day: Phase, next_phase: Phase | None) -> list[Thread]:
    """At the day's close: a room opens for every set of three players in play (two to four with
    the Manager) who each, in their last proposal of the day, named exactly that room. It lives
    through the next phase. The Conspirator's «заговор:» opens a room of any size when every other
    member named the same members; it lives to the end of the game, beside his other rooms, and
    counts as the others' one room of the day."""
    from django.conf import settings
    from django.utils import translation

    from games.models import RoomProposal

    if not rooms_enabled(game):
        return []
    last: dict[int, tuple[int, ...]] = {}
    plots: dict[int, tuple[int, ...]] = {}  # the Conspirator's last «заговор:» of the day
    for proposal in RoomProposal.objects.filter(phase=day).select_related("post").order_by("created_at", "pk"):
        if CONSPIRACY_RE.match(proposal.post.comment or ""):
            plots[proposal.proposer_id] = tuple(proposal.members)
        else:
            last[proposal.proposer_id] = tuple(proposal.members)
    active = set(game.seats.filter(status="active").values_list("pk", flat=True))
    rooms = []
    wanted: list[tuple[tuple[int, ...], int | None]] = []  # (members, the conspirator or None)
    taken: set[int] = set()
    for conspirator, members in sorted(plots.items()):
        others = [m for m in members if m != conspirator]
        if conspirator in active and all(last.get(m) == members and m in active for m in others):
            wanted.append((members, conspirator))
            taken.update(others)  # the conspiracy is their one room of the day
    for members in sorted(set(last.values())):
        if any(m in taken for m in members) or any(members == w for w, _c in wanted):
            continue
        if len(members) in room_sizes(game, set(members)) and all(last.get(m) == members and m in active
                                                                   for m in members):
            wanted.append((members, None))
    for members, conspirator in wanted:
        with translation.override(settings.LANGUAGE_CODE):
            names = ", ".join(game.seats.filter(pk__in=members).order_by("number").values_list(
                "user__display_name", flat=True))
            title = str(_("%(game)s: room of %(names)s")) % {"game": game.title, "names": names}
        # A conspiracy room «не уничтожается до конца игры»: no phase closes it.
        room = Thread.objects.create(kind=Thread.Kind.ROOM, game=game, title=title, created_by=game.gm,
                                     opened_by=day, closes_with=next_phase if conspirator is None else None)
        room.members.set(members)
        rooms.append(room)
    return rooms


def rooms_close(*, phase: Phase) -> int:
    """When the phase a room lives through closes, the room becomes read-only."""
    return Thread.objects.filter(kind=Thread.Kind.ROOM, closes_with=phase, is_locked=False).update(is_locked=True)


def rooms_close_all(*, game: Game) -> int:
    """At the end of the game every room still open (the conspiracy's) becomes read-only."""
    return Thread.objects.filter(kind=Thread.Kind.ROOM, game=game, is_locked=False).update(is_locked=True)



# --- Messages cards send (001): delivered by the GM at the end of the phase, without the sender --
def card_message_schedule(*, game: Game, sender: Seat, recipient: Seat, text: str, now: datetime | None = None):
    """Queue a card's message for delivery when the current phase closes (the cards rule set calls
    this when a card says "the GM passes a message")."""
    from django.utils import timezone

    from games.models import AnonymousMessage

    if recipient.game_id != game.pk or sender.game_id != game.pk:
        raise ActionRefused(_("Choose a player of this game."), code="card_bad_recipient")
    if not (text or "").strip():
        raise ActionRefused(_("The message is empty."), code="card_empty")
    return AnonymousMessage.objects.create(game=game, kind=AnonymousMessage.Kind.CARD, sender=sender,
                                           recipient=recipient, phase=game.current_phase, text=text.strip()[:2000],
                                           created_at=now or timezone.now())


def card_messages_deliver(*, phase: Phase, now: datetime) -> int:
    """Called by the phase close: every card message of the phase reaches its recipient."""
    from games.models import AnonymousMessage

    pending = list(AnonymousMessage.objects.filter(phase=phase, kind=AnonymousMessage.Kind.CARD,
                                                   status=AnonymousMessage.Status.PENDING).select_related("game"))
    for message in pending:
        message.decided_at = now
        _anonymous_deliver(message, now)
    return len(pending)
