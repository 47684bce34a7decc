"""[private="Name"] messages inside game-thread posts (001): checked before the post is stored,
kept apart from the public HTML, and shown per viewer through games.permissions."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from datetime import datetime
from html import unescape as html_unescape

from django.template.loader import render_to_string
from django.utils import translation
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
    from games.rulesets.cards.engine.roles import overt_role

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


@functools.lru_cache(maxsize=4096)
def _label_name(name: str, language: str) -> str:
    from games.text.names import inflect_name

    return inflect_name(name, "gent") if language.split("-")[0] == "ru" else name


def private_label_name(name: str) -> str:
    """The recipient's name as the label "Private message to X" needs it in the active language:
    the Russian translation puts it after «для», so it goes in the genitive («Личное сообщение
    для Красной Шапочки», inflected by games.text.names like the vote button); English keeps the
    name as written. Memoised per process (pymorphy3 is slow and names are few)."""
    if not name:
        return name
    return _label_name(name, translation.get_language() or "")


def _placeholders_rewrite(html: str, message_at) -> str:
    """Each placeholder of `html` rendered through games/_private.html: the label, and the text
    when `message_at(index)` returns (row, shown=True)."""
    counter = iter(range(10_000))

    def replace(match):
        row, shown = message_at(next(counter))
        recipient = re.search(r'data-recipient="([^"]*)"', match.group(0))
        name = row.recipient.user.display_name if row is not None else (
            html_unescape(recipient.group(1)) if recipient else "")
        return render_to_string("games/_private.html", {
            "recipient": private_label_name(name),
            "html": row.html if row is not None and shown else None,
        }).strip()

    return PLACEHOLDER_RE.sub(replace, html)


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
        post.html = _placeholders_rewrite(post.html, lambda index, post=post: messages.get((post.pk, index),
                                                                                             (None, False)))


def private_display_posts(*, user, posts: list[Post]) -> None:
    """private_display for posts of several threads (the reports queue): thread by thread."""
    by_thread: dict[int, list[Post]] = {}
    for post in posts:
        by_thread.setdefault(post.thread_id, []).append(post)
    for thread_posts in by_thread.values():
        private_display(user=user, thread=thread_posts[0].thread, posts=thread_posts)


def private_labels(html: str) -> str:
    """The placeholders of HTML that no delivered message stands behind (an old version of a post
    in its edit history): the same label as the thread shows, never a text."""
    if "bb-private" not in html:
        return html
    return _placeholders_rewrite(html, lambda index: (None, False))


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
    _anonymous_letter(message, now)
    notifications.notify_anonymous_delivered(message=message, now=now)


def _anonymous_letter(message, now: datetime) -> None:
    """The message also reaches the recipient's letters to the GM, as a post by the GM without the
    sender («отправлять анонимные сообщения через ведущего»), like the cards' messages."""
    from django.conf import settings
    from django.utils import translation

    from games.eventtext import event_text

    game = message.game
    thread = Thread.objects.filter(game=game, kind=Thread.Kind.GM_CHAT, seat_id=message.recipient_id).first()
    if thread is None:
        return
    with translation.override(settings.LANGUAGE_CODE):
        body = event_text(game.ruleset, "anonymous_message", {"text": _as_written(message.text)})
    _gm_post(game=game, thread=thread, body=body, now=now)


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
def card_message_check(*, text: str) -> str:
    """A card message's text, trimmed, or ActionRefused with the reason: «Сообщение не должно
    содержать ссылок (в т.ч. и косвенных ...) - это приравнивается к тайной коммуникации.» The
    engine refuses a play whose message has a link (`has_link`); the service checks every message
    it delivers again (defence in depth: a GM effect, a scheduled message, a future card)."""
    from games.rulesets.cards.engine.ruleset import has_link

    text = (text or "").strip()
    if not text:
        raise ActionRefused(_("The message is empty."), code="card_empty")
    if has_link(text):
        raise ActionRefused(_("A card's message may not contain a link."), code="card_link")
    return text[:2000]


def card_message_schedule(*, game: Game, sender: Seat, recipient: Seat, text: str, now: datetime | None = None):
    """Queue a card's message for delivery when the current phase closes (the cards rule set calls
    this when a card says "the GM passes a message")."""
    from django.utils import timezone

    from games.models import AnonymousMessage

    if recipient.game_id != game.pk or sender.game_id != game.pk:
        raise ActionRefused(_("Choose a player of this game."), code="card_bad_recipient")
    text = card_message_check(text=text)
    return AnonymousMessage.objects.create(game=game, kind=AnonymousMessage.Kind.CARD, sender=sender,
                                           recipient=recipient, phase=game.current_phase, text=text,
                                           created_at=now or timezone.now())


def card_messages_deliver(*, phase: Phase, now: datetime) -> int:
    """Called by the phase close: every scheduled card message of the phase reaches its recipient
    (a private event on his role page and a letter from the GM in his thread, without the
    sender); one with a link is refused (status rejected, noted in the GM log)."""
    from games.engine.events import Event, seat_audience
    from games.models import AnonymousMessage
    from games.services.lifecycle import store_events

    pending = list(AnonymousMessage.objects.filter(phase=phase, kind=AnonymousMessage.Kind.CARD,
                                                   status=AnonymousMessage.Status.PENDING)
                   .select_related("game__gm", "recipient__user", "sender__user"))
    delivered = 0
    for message in pending:
        message.decided_at = now
        try:
            card_message_check(text=message.text)
        except ActionRefused as refused:
            message.status = AnonymousMessage.Status.REJECTED
            message.save(update_fields=["status", "decided_at"])
            _card_message_refused_log(game=message.game, phase=phase, sender=message.sender,
                                      recipient=message.recipient, code=refused.code, now=now)
            continue
        message.status = AnonymousMessage.Status.DELIVERED
        message.save(update_fields=["status", "decided_at"])
        store_events(game=message.game, phase=phase, now=now, events=[
            Event("anonymous_message", seat_audience(message.recipient_id), {"text": message.text})])
        _card_message_letter(game=message.game, recipient=message.recipient, text=message.text,
                             key=f"anonymous:{message.pk}", now=now)
        delivered += 1
    return delivered


# --- The player's letters to the GM (issue 6: «a private GM thread for each player: questions,
# order confirmations, private results») -----------------------------------------------------------
# The site writes there as the game's GM account, in the site's language: the private results of
# each close, the confirmation of each order or card input the player sent himself, and the card
# messages. docs/architecture.md ("Private communication") describes it.
CONFIRMATION_LINES = 30  # a confirmation post takes at most this many lines, then a new one starts
# The close's private events that are delivered as letters of their own, not in the results post.
DELIVERED_APART = ("message", "mafia_message")


def _as_written(text) -> str:
    """A text shown in a GM post exactly as written: a zero-width space after every "[" keeps a
    player's words (or a name) from becoming markup, a link or a [private] tag."""
    return str(text).replace("[", "[\u200b")


def _gm_post(*, game: Game, thread: Thread, body: str, now: datetime) -> Post | None:
    """A post by the game's GM account in one of the game's private threads. A refusal (the GM's
    account disabled) is logged and skipped: it must not undo a close or a player's order."""
    import logging

    from games.services.posts import post_create

    try:
        return post_create(thread=thread, author=game.gm, body=body, now=now)
    except ActionRefused as refused:
        logging.getLogger(__name__).warning("Could not post in thread %s of game %s: %s", thread.pk, game.pk,
                                            refused.message)
        return None


def _tell(*, game: Game, post: Post | None, user_ids, text, now: datetime, key: str = "") -> None:
    """The bell: a "private message" notification that links to the new letter (never its text);
    once per letter (or per `key`)."""
    if post is not None:
        notifications.notify(users=list(user_ids), kind=notifications.Kind.PRIVATE_MESSAGE, text=text,
                             url=post.get_absolute_url(), game=game, key=key or f"gm_post:{post.pk}", now=now)


def _phase_name(phase: Phase) -> str:
    return notifications.phase_label(phase)


def private_results_post(*, game: Game, phase: Phase, events, now: datetime) -> list[Post]:
    """Called by the close once its events are stored: each seat that received private events
    (audience `seat:<pk>`) gets ONE post in its letters to the GM listing their texts; a team's
    events (`faction:<f>`) go to the team chat when the game has one, else to each member's
    letters. The role page keeps showing them as before. Card and mafia messages are letters of
    their own (card_messages_from_events). Each reader is told by the bell."""
    from django.conf import settings
    from django.utils import translation

    from games.eventtext import event_text

    seats = {s.pk: s for s in game.seats.select_related("user")}
    letters, chats = {}, {}
    for thread in Thread.objects.filter(game=game, kind__in=(Thread.Kind.GM_CHAT, Thread.Kind.FACTION)):
        if thread.kind == Thread.Kind.GM_CHAT:
            letters[thread.seat_id] = thread
        else:
            chats[thread.faction] = thread
    lines: dict[int, list[str]] = {}
    targets: dict[int, tuple[Thread, set[int]]] = {}  # thread pk -> (thread, the user ids told)
    with translation.override(settings.LANGUAGE_CODE):
        for event in events:
            if event.kind in DELIVERED_APART:
                continue
            kind, _sep, key = str(event.audience).partition(":")
            if kind == "seat":
                seat = seats.get(int(key)) if key.isdigit() else None
                routes = [(letters[seat.pk], {seat.user_id})] if seat is not None and seat.pk in letters else []
            elif kind == "faction" and key:
                team = [s for s in seats.values() if s.faction == key]
                if key in chats:
                    routes = [(chats[key], {s.user_id for s in team})]
                else:
                    routes = [(letters[s.pk], {s.user_id}) for s in team if s.pk in letters]
            else:
                continue
            text = event_text(game.ruleset, event.kind, dict(event.data))
            if not text:
                continue
            for thread, readers in routes:
                lines.setdefault(thread.pk, []).append(_as_written(text))
                targets[thread.pk] = (thread, readers | targets.get(thread.pk, (thread, set()))[1])
        posts = []
        for thread_pk, (thread, readers) in targets.items():
            header = (_("[b]%(phase)s: the team's results[/b]") if thread.kind == Thread.Kind.FACTION
                      else _("[b]%(phase)s: your results[/b]")) % {"phase": _phase_name(phase)}
            post = _gm_post(game=game, thread=thread, body="\n".join([str(header), *lines[thread_pk]]), now=now)
            _tell(game=game, post=post, user_ids=readers, now=now,
                  text=lambda: _("«%(game)s»: the GM sent you the results of %(phase)s.") % {
                      "game": game.title, "phase": _phase_name(phase)})
            if post is not None:
                posts.append(post)
    return posts


def order_confirmation_post(*, game: Game, seat: Seat, phase: Phase, confirmation, now: datetime) -> Post | None:
    """The confirmation a player got on screen for an order or a card input he sent himself (not
    the GM's overrides, not scenario files) is also written in his letters to the GM, one line
    per attempt with its time. Not to flood the thread, the lines of one phase are coalesced: when
    the thread's last post is the GM account's confirmation post of this phase (and has fewer than
    CONFIRMATION_LINES lines), the line is added to it (an edit, kept in its history); otherwise a
    new post starts. `confirmation` is an OrderConfirmation or a CardConfirmation."""
    from django.conf import settings
    from django.db import transaction
    from django.utils import timezone, translation

    from games.services.posts import post_edit

    thread = Thread.objects.filter(game=game, kind=Thread.Kind.GM_CHAT, seat=seat).first()
    if thread is None or phase is None:
        return None
    with translation.override(settings.LANGUAGE_CODE):
        header = str(_("[b]%(phase)s: confirmations[/b]")) % {"phase": _phase_name(phase)}
        line = f"{timezone.localtime(now):%H:%M} — {_as_written(confirmation.message)}"
    with transaction.atomic():
        locked = Thread.objects.select_for_update().get(pk=thread.pk)
        last = locked.posts.order_by("-number").first()
        if (last is not None and not last.is_deleted and last.author_id == game.gm_id
                and last.created_at >= phase.opened_at and last.body.startswith(header + "\n")
                and last.body.count("\n") < CONFIRMATION_LINES):
            try:
                return post_edit(post=last, editor=game.gm, body=f"{last.body}\n{line}", now=now)
            except ActionRefused:
                pass  # e.g. the body grew past the post limit: a new post then
        return _gm_post(game=game, thread=locked, body=f"{header}\n{line}", now=now)


def _card_message_letter(*, game: Game, recipient: Seat, text: str, key: str, now: datetime,
                         sender_name: str | None = None) -> Post | None:
    """The letter that carries a message to its recipient: a post by the GM in his letters to the
    GM, without the sender (a card's) or naming him (the mafia's); the bell tells him."""
    from django.conf import settings
    from django.utils import translation

    from games.eventtext import event_text

    thread = Thread.objects.filter(game=game, kind=Thread.Kind.GM_CHAT, seat=recipient).first()
    if thread is None:
        return None
    with translation.override(settings.LANGUAGE_CODE):
        if sender_name is None:
            body = event_text("cards", "message", {"text": _as_written(text)})
        else:
            body = event_text("cards", "mafia_message", {"name": _as_written(sender_name), "text": _as_written(text)})
    post = _gm_post(game=game, thread=thread, body=body, now=now)
    if sender_name is None:
        def told():
            return _("A card's message reached you in «%(game)s».") % {"game": game.title}
    else:
        def told():
            return _("A message from the mafia reached you in «%(game)s».") % {"game": game.title}
    _tell(game=game, post=post, user_ids=[recipient.user_id], key=key, now=now, text=told)
    return post


def _card_message_refused_log(*, game: Game, phase: Phase | None, sender: Seat | None, recipient: Seat, code: str,
                              now: datetime) -> None:
    from games.services.lifecycle import gm_log

    gm_log(game=game, user=None, action="card_message_refused", now=now,
           data={"phase": phase.pk if phase is not None else None, "sender": sender.pk if sender else None,
                 "target": recipient.pk, "reason": code})


def card_message_deliver(*, game: Game, phase: Phase | None, recipient: Seat, text: str, sender: Seat | None = None,
                         now: datetime):
    """A card's message reaches its recipient now: «цель получит его в конце фазы в сообщении от
    мастера. Цель не узнает, кто отправил сообщение.» A letter from the GM in the recipient's
    thread, without the sender; kept as an AnonymousMessage of kind CARD (delivered), whose sender
    the GMs see, and everyone in the archive and the export after the game. A message the GM
    applies by hand (no sender) is delivered the same way and not kept as a row. ActionRefused
    (nothing written) for an empty text or a link. Returns the row, or None."""
    from games.models import AnonymousMessage

    text = card_message_check(text=text)
    message = None
    if sender is not None:
        message = AnonymousMessage.objects.create(
            game=game, kind=AnonymousMessage.Kind.CARD, sender=sender, recipient=recipient, phase=phase, text=text,
            status=AnonymousMessage.Status.DELIVERED, created_at=now, decided_at=now)
    _card_message_letter(game=game, recipient=recipient, text=text, now=now,
                         key=f"anonymous:{message.pk}" if message is not None else "")
    return message


def card_messages_screen(*, game: Game, phase: Phase, events, now: datetime) -> list:
    """Before a cards close stores its events: a card's message whose text has a link is not
    delivered at all (its `message` event to the recipient is dropped, so not even his role page
    shows it); the GM's note of it says "not delivered" with the reason, the sender's attempt is
    kept as a rejected card message and the GM log records the refusal."""
    from games.engine.events import GM, Event
    from games.rulesets.cards.engine.ruleset import has_link
    from games.models import AnonymousMessage

    if game.ruleset != Game.Ruleset.CARDS:
        return list(events)
    seats = {s.pk: s for s in game.seats.all()}
    kept = []
    for event in events:
        linked = event.kind == "message" and has_link(str((event.data or {}).get("text") or ""))
        if linked and event.audience.startswith("seat:"):
            continue
        if linked and event.audience == GM and event.data.get("delivered"):
            sender, recipient = seats.get(event.data.get("sender")), seats.get(event.data.get("target"))
            if recipient is not None:
                if sender is not None:
                    AnonymousMessage.objects.create(
                        game=game, kind=AnonymousMessage.Kind.CARD, sender=sender, recipient=recipient, phase=phase,
                        text=str(event.data.get("text") or "")[:2000], status=AnonymousMessage.Status.REJECTED,
                        created_at=now, decided_at=now)
                _card_message_refused_log(game=game, phase=phase, sender=sender, recipient=recipient,
                                          code="card_link", now=now)
            event = Event(event.kind, event.audience, {**event.data, "delivered": False, "refused": "card_link"})
        kept.append(event)
    return kept


def card_messages_from_events(*, game: Game, phase: Phase, events, now: datetime) -> int:
    """After a cards close stored its events: every message the engine delivered reaches its
    recipient through card_message_deliver (read from the GM's note of it, which names the
    sender), and every mafia message (`mafia_message`: «Один раз каждый мафиози может прислать
    сообщение другому мафу») the same way, as a letter from the GM that names the mafioso who
    wrote it — the mafia know each other, so it is not anonymous, and it is kept as the engine's
    events only (not an AnonymousMessage). Returns how many letters were written."""
    from games.engine.events import GM

    if game.ruleset != Game.Ruleset.CARDS:
        return 0
    seats = {s.pk: s for s in game.seats.select_related("user")}
    written = 0
    for event in events:
        data = event.data or {}
        if event.audience != GM or not data.get("delivered"):
            continue
        recipient = seats.get(data.get("target"))
        if recipient is None:
            continue
        if event.kind == "message":
            try:
                card_message_deliver(game=game, phase=phase, recipient=recipient, text=str(data.get("text") or ""),
                                     sender=seats.get(data.get("sender")), now=now)
            except ActionRefused:
                continue  # card_messages_screen has recorded it
            written += 1
        elif event.kind == "mafia_message" and data.get("result") == "done":
            sender = seats.get(data.get("sender"))
            name = data.get("sender_name") or (sender.user.display_name if sender is not None else "?")
            _card_message_letter(game=game, recipient=recipient, text=str(data.get("text") or ""),
                                 sender_name=str(name), key="", now=now)
            written += 1
    return written


def private_results_rolled_back(*, game: Game, phase: Phase, closed_at: datetime | None, now: datetime) -> int:
    """The GM rolled back the close of `phase` (games.services.moderation.resolution_rollback):
    every private thread where that close wrote (its results, its letters: the GM account's posts
    made at the very moment of the close) gets a correction after them. The posts themselves
    stay, as the public results post does: the players have read them, and the archive keeps what
    happened. Returns how many threads were told."""
    from django.conf import settings
    from django.utils import translation

    if closed_at is None:
        return 0
    threads = list(Thread.objects.filter(game=game, kind__in=(Thread.Kind.GM_CHAT, Thread.Kind.FACTION),
                                         posts__author_id=game.gm_id, posts__created_at=closed_at)
                   .distinct().order_by("pk"))
    with translation.override(settings.LANGUAGE_CODE):
        body = str(_("[b]Correction:[/b] the GM rolled back the close of %(phase)s. The results and messages "
                     "posted here at that close no longer stand; what stands will be sent again when the phase "
                     "closes.")) % {"phase": _phase_name(phase)}
    for thread in threads:
        _gm_post(game=game, thread=thread, body=body, now=now)
    return len(threads)
