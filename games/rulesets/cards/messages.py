"""What the cards rule set adds to the players' talk (001): the overt roles that change who may
talk to whom (the Postman, the Manager, the Conspirator), and the messages cards send — delivered
by the GM at the end of the phase, without the sender — and the mafia's one message.

The core reaches this module only through the cards adapter (games/rulesets/cards/site.py:
may_write_beyond_neighbours, room_sizes, may_call_conspiracy, deliver_queued,
close_events_screen, close_letters, letters_apart)."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from games.communication.letters import as_written, gm_post, letters_thread, tell
from games.engine.events import GM, Event, seat_audience
from games.models import AnonymousMessage, Game, Phase, Post, Seat
from games.rulesets.cards.engine.roles import overt_role
from games.rulesets.cards.engine.ruleset import has_link
from games.services import ActionRefused
from games.services.journal import gm_log, store_events
from games.wording import event_text

KEY = "cards"

# --- Overt roles that change who may talk to whom -------------------------------------------------
POSTMAN, MANAGER, CONSPIRATOR = "Почтальон", "Менеджер", "Заговорщик"
MANAGER_SIZES = (2, 3, 4)  # «Менеджер: Может создавать чат-комнаты на двух или четырех персонажей»


def overt_role_of(game: Game, seat_pk: int) -> str:
    """The registered overt role of a seat in a cards game («Класс»), by its canonical name, or ""
    (no overt role, a custom name, another rule set). Read from the engine state, which holds the
    overt roles as dealt at the start."""
    if game.ruleset != KEY or not game.state:
        return ""
    name = ((game.state.get("memory") or {}).get("overt") or {}).get(str(seat_pk))
    role = overt_role(name)
    return role.name if role is not None else ""


def room_sizes(game: Game, members: set[int], plain: tuple[int, ...]) -> tuple[int, ...]:
    """Two to four with the Manager in the room; else the plain sizes."""
    if any(overt_role_of(game, pk) == MANAGER for pk in members):
        return MANAGER_SIZES
    return plain


def is_conspirator(game: Game, seat_pk: int) -> bool:
    """«Заговорщик: Один раз за игру ... может создать [чат-комнату] на любое количество персонажей.»"""
    return overt_role_of(game, seat_pk) == CONSPIRATOR


def is_postman(game: Game, seat_pk: int) -> bool:
    """«Почтальон: Раз в день может отправить днём приватное сообщение любому игроку, указав
    публично получателя»."""
    return overt_role_of(game, seat_pk) == POSTMAN


# --- Messages cards send (001): delivered by the GM at the end of the phase, without the sender --
def card_message_check(*, text: str) -> str:
    """A card message's text, trimmed, or ActionRefused with the reason: «Сообщение не должно
    содержать ссылок (в т.ч. и косвенных ...) - это приравнивается к тайной коммуникации.» The
    engine refuses a play whose message has a link (`has_link`); the service checks every message
    it delivers again (defence in depth: a GM effect, a scheduled message, a future card)."""
    text = (text or "").strip()
    if not text:
        raise ActionRefused(_("The message is empty."), code="card_empty")
    if has_link(text):
        raise ActionRefused(_("A card's message may not contain a link."), code="card_link")
    return text[:2000]


def card_message_schedule(*, game: Game, sender: Seat, recipient: Seat, text: str, now: datetime | None = None):
    """Queue a card's message for delivery when the current phase closes (the cards rule set calls
    this when a card says "the GM passes a message")."""
    if recipient.game_id != game.pk or sender.game_id != game.pk:
        raise ActionRefused(_("Choose a player of this game."), code="card_bad_recipient")
    text = card_message_check(text=text)
    return AnonymousMessage.objects.create(game=game, kind=AnonymousMessage.Kind.CARD, sender=sender,
                                           recipient=recipient, phase=game.current_phase, text=text,
                                           created_at=now or timezone.now())


def card_messages_deliver(*, phase: Phase, now: datetime) -> int:
    """Called by the phase close (the adapter's deliver_queued): every scheduled card message of
    the phase reaches its recipient (a private event on his role page and a letter from the GM in
    his thread, without the sender); one with a link is refused (status rejected, noted in the GM
    log)."""
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


def _card_message_letter(*, game: Game, recipient: Seat, text: str, key: str, now: datetime,
                         sender_name: str | None = None) -> Post | None:
    """The letter that carries a message to its recipient: a post by the GM in his letters to the
    GM, without the sender (a card's) or naming him (the mafia's); the bell tells him."""
    thread = letters_thread(game, recipient)
    if thread is None:
        return None
    with translation.override(settings.LANGUAGE_CODE):
        if sender_name is None:
            body = event_text(KEY, "message", {"text": as_written(text)})
        else:
            body = event_text(KEY, "mafia_message", {"name": as_written(sender_name), "text": as_written(text)})
    post = gm_post(game=game, thread=thread, body=body, now=now)
    if sender_name is None:
        def told():
            return _("A card's message reached you in «%(game)s».") % {"game": game.title}
    else:
        def told():
            return _("A message from the mafia reached you in «%(game)s».") % {"game": game.title}
    tell(game=game, post=post, user_ids=[recipient.user_id], key=key, now=now, text=told)
    return post


def _card_message_refused_log(*, game: Game, phase: Phase | None, sender: Seat | None, recipient: Seat, code: str,
                              now: datetime) -> None:
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
    if game.ruleset != KEY:
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
    if game.ruleset != KEY:
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
