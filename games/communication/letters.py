"""The player's letters to the GM (issue 6: «a private GM thread for each player: questions,
order confirmations, private results»).

The site writes there as the game's GM account, in the site's language: the private results of
each close, the confirmation of each order or card input the player sent himself, a correction
after a rolled-back close, and the letters a rule set delivers itself (its adapter's
`close_letters`, through `gm_post` and `tell`). docs/architecture.md ("Private communication")
describes it.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from games.models import Game, Phase, Post, Seat, Thread
from games.selectors.genders import seat_genders
from games.rulesets import registry
from games.services import ActionRefused, notifications
from games.services.posts import post_create, post_edit
from games.wording import event_text, speaking_of

CONFIRMATION_LINES = 30  # a confirmation post takes at most this many lines, then a new one starts


def as_written(text) -> str:
    """A text shown in a GM post exactly as written: a zero-width space after every "[" keeps a
    player's words (or a name) from becoming markup, a link or a [private] tag."""
    return str(text).replace("[", "[\u200b")


def gm_post(*, game: Game, thread: Thread, body: str, now: datetime) -> Post | None:
    """A post by the game's GM account in one of the game's private threads. A refusal (the GM's
    account disabled) is logged and skipped: it must not undo a close or a player's order."""
    try:
        return post_create(thread=thread, author=game.gm, body=body, now=now)
    except ActionRefused as refused:
        logging.getLogger(__name__).warning("Could not post in thread %s of game %s: %s", thread.pk, game.pk,
                                            refused.message)
        return None


def tell(*, game: Game, post: Post | None, user_ids, text, now: datetime, key: str = "") -> None:
    """The bell: a "private message" notification that links to the new letter (never its text);
    once per letter (or per `key`)."""
    if post is not None:
        notifications.notify(users=list(user_ids), kind=notifications.Kind.PRIVATE_MESSAGE, text=text,
                             url=post.get_absolute_url(), game=game, key=key or f"gm_post:{post.pk}", now=now)


def letters_thread(game: Game, seat: Seat | int) -> Thread | None:
    """The seat's letters to the GM (None before the deal made them)."""
    return Thread.objects.filter(game=game, kind=Thread.Kind.GM_CHAT, seat=seat).first()


def _phase_name(phase: Phase) -> str:
    return notifications.phase_label(phase)


def _letters_apart(game: Game) -> frozenset[str]:
    """The event kinds the game's rule set delivers as letters of their own (SiteRuleset.letters_apart)."""
    adapter = registry.find(game.ruleset)
    return adapter.letters_apart if adapter is not None else frozenset()


def private_results_post(*, game: Game, phase: Phase, events, now: datetime) -> list[Post]:
    """Called by the close once its events are stored: each seat that received private events
    (audience `seat:<pk>`) gets ONE post in its letters to the GM listing their texts; a team's
    events (`faction:<f>`) go to the team chat when the game has one, else to each member's
    letters. The role page keeps showing them as before. The events the rule set delivers as
    letters of their own (its adapter's `letters_apart`: the cards' card and mafia messages) are
    left out. Each reader is told by the bell."""
    seats = {s.pk: s for s in game.seats.select_related("user")}
    apart = _letters_apart(game)
    letters, chats = {}, {}
    for thread in Thread.objects.filter(game=game, kind__in=(Thread.Kind.GM_CHAT, Thread.Kind.FACTION)):
        if thread.kind == Thread.Kind.GM_CHAT:
            letters[thread.seat_id] = thread
        else:
            chats[thread.faction] = thread
    lines: dict[int, list[str]] = {}
    targets: dict[int, tuple[Thread, set[int]]] = {}  # thread pk -> (thread, the user ids told)
    # in the site's language; a sentence about a player agrees with the seat's user (as stored)
    with translation.override(settings.LANGUAGE_CODE), speaking_of(seat_genders(seats.values())):
        for event in events:
            if event.kind in apart:
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
                lines.setdefault(thread.pk, []).append(as_written(text))
                targets[thread.pk] = (thread, readers | targets.get(thread.pk, (thread, set()))[1])
        posts = []
        for thread_pk, (thread, readers) in targets.items():
            header = (_("[b]%(phase)s: the team's results[/b]") if thread.kind == Thread.Kind.FACTION
                      else _("[b]%(phase)s: your results[/b]")) % {"phase": _phase_name(phase)}
            post = gm_post(game=game, thread=thread, body="\n".join([str(header), *lines[thread_pk]]), now=now)
            tell(game=game, post=post, user_ids=readers, now=now,
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
    thread = letters_thread(game, seat)
    if thread is None or phase is None:
        return None
    with translation.override(settings.LANGUAGE_CODE):
        header = str(_("[b]%(phase)s: confirmations[/b]")) % {"phase": _phase_name(phase)}
        line = f"{timezone.localtime(now):%H:%M} — {as_written(confirmation.message)}"
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
        return gm_post(game=game, thread=locked, body=f"{header}\n{line}", now=now)


def private_results_rolled_back(*, game: Game, phase: Phase, closed_at: datetime | None, now: datetime) -> int:
    """The GM rolled back the close of `phase` (games.services.moderation.resolution_rollback):
    every private thread where that close wrote (its results, its letters: the GM account's posts
    made at the very moment of the close) gets a correction after them. The posts themselves
    stay, as the public results post does: the players have read them, and the archive keeps what
    happened. Returns how many threads were told."""
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
        gm_post(game=game, thread=thread, body=body, now=now)
    return len(threads)
