"""[private="Name"] messages inside game-thread posts (001): checked before the post is stored,
kept apart from the public HTML, and shown per viewer through games.permissions."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from html import unescape as html_unescape

from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games import permissions
from games.models import Game, Phase, Post, PrivateMessage, Seat, Thread
from games.rulesets import registry
from games.selectors.communication import private_mode
from games.selectors.votes import seats_matcher
from games.services import ActionRefused, notifications
from games.text import bbcode
from games.wording import agreed, suggestion_text

PLACEHOLDER_RE = re.compile(r'<div class="bb-private"[^>]*>[^<]*</div>')


@dataclass
class PendingPrivate:
    index: int
    sender: Seat
    recipient: Seat
    phase: Phase
    html: str


def neighbours(seats: list[Seat], seat: Seat, *, in_play: frozenset[str] = frozenset({"active"})) -> set[int]:
    """The seats on either side in the ring of players still in play (`in_play`: the statuses
    that still play in the game's rule set, permissions.in_play_statuses)."""
    ring = [s for s in sorted(seats, key=lambda s: s.number) if s.status in in_play or s.pk == seat.pk]
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
    if not permissions.in_play(game, sender):
        raise ActionRefused(_("Only players in play send private messages."), code="private_not_player")
    # The roster matcher of the vote reader (memoised per roster: games.selectors.votes).
    matcher = seats_matcher(seats)
    by_name = {s.user.display_name: s for s in seats}
    near = neighbours(seats, sender, in_play=permissions.in_play_statuses(game))
    far_used = False
    pending = []
    for index, tag in own:
        name = (tag.option or "").strip()
        found = matcher.match(name) if name else None
        if found is None or not found.ok:
            refusal = _("Private message: no player is called «%(name)s».") % {"name": name or "?"}
            if found is not None and found.candidates:  # a typo: the closest names, never a guess
                refusal = f"{refusal} {suggestion_text(found.candidates)}"
            raise ActionRefused(refusal, code="private_unknown")
        recipient = by_name[found.name]
        if recipient.pk == sender.pk:
            raise ActionRefused(_("Private message: you cannot write to yourself."), code="private_self")
        if not permissions.in_play(game, recipient):
            out = agreed(recipient.user.grammatical_gender, _("Private message: %(name)s is out of the game."),
                         pgettext_lazy("masculine", "Private message: %(name)s is out of the game."),
                         pgettext_lazy("feminine", "Private message: %(name)s is out of the game."))
            raise ActionRefused(out % {"name": found.name},
                                code="private_dead")
        if mode == "neighbours" and recipient.pk not in near:
            if not _may_send_far(game, phase, sender, near, already=far_used):
                raise ActionRefused(_("Private message: %(name)s is not your neighbour.") % {"name": found.name},
                                    code="private_not_neighbour")
            far_used = True
        html = bbcode.render_tree(bbcode.Element(tag="root", option=None, children=tag.children))
        pending.append(PendingPrivate(index=index, sender=sender, recipient=recipient, phase=phase, html=html))
    return pending


def _may_send_far(game: Game, phase: Phase, sender: Seat, near: set[int], *, already: bool) -> bool:
    """One message a day beyond the neighbours, for a seat the rule set allows it
    (SiteRuleset.may_write_beyond_neighbours: the cards' Postman); the recipient is public
    anyway: every [private] shows to whom it goes."""
    adapter = registry.find(game.ruleset)
    if already or adapter is None or not adapter.may_write_beyond_neighbours(game, sender.pk):
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
            "recipient": name,  # in the case the label governs: games/_private.html
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
