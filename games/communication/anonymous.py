"""Anonymous messages through the GM (002: «отправлять анонимные сообщения через ведущего»): a
player writes to another without his name; the GM may read them first. The rule set gives the
default (SiteRuleset.anonymous_default), a game may override it with options["anonymous_messages"]."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from games import permissions
from games.communication.letters import as_written, gm_post, letters_thread
from games.engine.events import Event, seat_audience
from games.models import AnonymousMessage, Game, Seat
from games.rulesets import registry
from games.selectors.communication import anonymous_rules
from games.services import ActionRefused, notifications
from games.services.journal import gm_log, store_events
from games.wording import event_text


def anonymous_send(*, game: Game, user, recipient: Seat | None, text: str, now: datetime | None = None):
    now = now or timezone.now()
    rules = anonymous_rules(game)
    if rules is None:
        raise ActionRefused(_("This game has no anonymous messages."), code="anon_off")
    if game.status != Game.Status.RUNNING:
        raise ActionRefused(_("Anonymous messages are sent while the game runs."), code="anon_not_running")
    sender = permissions.seat_of(user, game)
    if not permissions.in_play(game, sender):
        raise ActionRefused(_("Only players in play send anonymous messages."), code="anon_not_player")
    if recipient is None or recipient.game_id != game.pk:
        raise ActionRefused(_("Choose a player of this game."), code="anon_bad_recipient")
    if recipient.pk == sender.pk:
        raise ActionRefused(_("You cannot write to yourself."), code="anon_self")
    if not permissions.in_play(game, recipient):
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
    with transaction.atomic():
        message = AnonymousMessage.objects.create(game=game, sender=sender, recipient=recipient, text=text,
                                                  created_at=now)
        registry.site(game.ruleset).anonymous_sent(game=game, message=message, now=now)  # the Show's fee
        if not rules["approval"]:
            _anonymous_deliver(message, now)
    return message


def anonymous_decide(*, message, by, approve: bool, now: datetime | None = None):
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
    message.status = AnonymousMessage.Status.DELIVERED
    message.save(update_fields=["status", "decided_at", "decided_by"])
    store_events(game=message.game, phase=message.game.current_phase, now=now,
                 events=[Event("anonymous_message", seat_audience(message.recipient_id), {"text": message.text})])
    _anonymous_letter(message, now)
    notifications.notify_anonymous_delivered(message=message, now=now)


def _anonymous_letter(message, now: datetime) -> None:
    """The message also reaches the recipient's letters to the GM, as a post by the GM without the
    sender («отправлять анонимные сообщения через ведущего»), like the cards' messages."""
    game = message.game
    thread = letters_thread(game, message.recipient_id)
    if thread is None:
        return
    with translation.override(settings.LANGUAGE_CODE):
        body = event_text(game.ruleset, "anonymous_message", {"text": as_written(message.text)})
    gm_post(game=game, thread=thread, body=body, now=now)
