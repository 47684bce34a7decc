"""Creating, editing, deleting and re-rendering posts."""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db import IntegrityError, connection, router, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from config.prepared import PreparedInsert, PreparedQuery, prepared_cursor
from games import permissions, selectors
from games.caching import pagecache
from games.caching.live import thread_state_remember_on_commit
from games.models import Game, Post, PostRevision, Thread, ThreadReadMark
from games.services import ActionRefused
from games.text import bbcode


# Characters that show nothing though they are not whitespace: format characters (zero-width
# space, joiners, BOM), combining marks with no letter, the Hangul fillers and the braille blank.
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Mn", "Me", "Zs", "Zl", "Zp"})
_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def _has_visible_content(body: str) -> bool:
    """Whether the rendered post shows anything: a visible character in its text once the tags are
    read (an image counts by its address), so `[b][/b]` or `[quote][/quote]` alone does not."""
    text = bbcode.plain_text(bbcode.parse(body)) if "[" in body else body
    return any(not c.isspace() and c not in _INVISIBLE and unicodedata.category(c) not in _INVISIBLE_CATEGORIES
               for c in text)


def post_clean_body(*, body: str) -> str:
    """Normalise and validate a post body; raise ActionRefused with the reason."""
    body = (body or "").replace("\r\n", "\n").replace("\r", "\n")
    # NUL characters are refused by PostgreSQL text columns; nobody types them on purpose.
    body = body.replace("\x00", "")
    if not body.strip():
        raise ActionRefused(_("The post is empty."), code="empty")
    if not _has_visible_content(body):
        raise ActionRefused(_("The post shows nothing: its tags are empty. Write some text in it."),
                            code="nothing_visible")
    # Counted after the line breaks are normalised, as the browser's maxlength counts them (a line
    # break is one character there, though the form sends two); PostForm's maxlength is this limit.
    limit = settings.MAFIA_POST_MAX_LENGTH
    if len(body) > limit:
        raise ActionRefused(
            _("The post is too long: %(length)d characters, the limit is %(limit)d.")
            % {"length": len(body), "limit": limit},
            code="too_long",
        )
    return body.rstrip()


def post_preview(*, body: str) -> str:
    return bbcode.render(post_clean_body(body=body))


POST_RATE_WINDOW_SECONDS = 60


def post_rate_check(*, author, thread: Thread | None = None, now: datetime | None = None) -> None:
    """The posting rate limit (docs/security.md): at most settings.MAFIA_POST_RATE posts a minute
    per user (0: no limit); refuse the next with how long to wait. Counted in the cache, per user
    and clock minute, with an atomic add + incr, so a post within the limit costs no SQL query;
    only a post over it asks whether the author is exempt: the GMs of the thread's game and the
    site moderators post freely."""
    from django.core.cache import cache
    from django.utils.translation import ngettext

    limit = settings.MAFIA_POST_RATE
    if limit <= 0 or not getattr(author, "is_authenticated", False):
        return
    stamp = int((now or timezone.now()).timestamp())
    key = f"posts:rate:{author.pk}:{stamp // POST_RATE_WINDOW_SECONDS}"
    cache.add(key, 0, timeout=2 * POST_RATE_WINDOW_SECONDS)
    try:
        count = cache.incr(key)
    except ValueError:  # the entry expired between add and incr
        cache.set(key, count := 1, timeout=2 * POST_RATE_WINDOW_SECONDS)
    if count <= limit:
        return
    if permissions.is_site_moderator(author) or (thread is not None and permissions.is_moderator(author, thread)):
        return
    wait = POST_RATE_WINDOW_SECONDS - stamp % POST_RATE_WINDOW_SECONDS
    raise ActionRefused(ngettext("You are posting too fast; wait %(seconds)d second.",
                                 "You are posting too fast; wait %(seconds)d seconds.", wait) % {"seconds": wait},
                        code="too_fast")


@dataclass(frozen=True)
class PostDraft:
    """A post's text made ready before the transaction: the cleaned body, its HTML and its
    searchable text (none of it made while the thread's row is locked)."""

    body: str
    html: str
    search_text: str


def post_draft(*, thread: Thread, author, body: str, now: datetime, rate_limited: bool = False) -> PostDraft:
    """The first step of posting, outside the transaction: the rate limit when asked
    (post_rate_check), the body cleaned (or refused) and rendered."""
    if rate_limited:
        post_rate_check(author=author, thread=thread, now=now)
    body = post_clean_body(body=body)
    return PostDraft(body=body, html=bbcode.render(body), search_text=bbcode.searchable_text(body))


def post_comment_clean(comment: str) -> str:
    """A post's comment as stored: one line, at most 300 characters."""
    return " ".join((comment or "").split())[:300]


# The locking read of a game thread's game, with its thread, GM and current phase, compiled once per
# connection (config.prepared: the ORM's compiling of this four-table read cost more than the
# statement and its instances together). The game thread is one game's (a one-to-one relation).
# With it, what permissions.read_game_staff would read (permissions.staff_annotations): whether the
# game has co-GMs (their ids are read only then) and whether the author is banned from it.
_GAME_FOR_POST = PreparedQuery(lambda thread_id, author_id: (
    Game.objects.select_related("game_thread", "gm", "current_phase")
    .select_for_update(no_key=True, of=("self", "game_thread")).filter(game_thread_id=thread_id)
    .annotate(**permissions.staff_annotations(author_id))[:1]), params=2)


def thread_lock_for_post(*, thread: Thread, author, now: datetime) -> Thread:
    """Inside the caller's transaction: the thread's row locked for numbering, or ActionRefused
    when `author` may not post there now (permissions.can_post)."""
    # The row lock serialises numbering on PostgreSQL; on SQLite the IMMEDIATE transaction
    # does. The unique (thread, number) constraint is the backstop for both.
    # The game is joined into the locking read (only the thread row is locked): can_post, the
    # vote reading and the page that answers the post then share one game instance and its
    # caches (co-GMs, bans, the roster) instead of reading each again.
    locked = None
    if thread.kind == Thread.Kind.GAME:
        # The game's row before its thread's, the order a close takes them in (it holds the game
        # while it writes its results into the thread), and a post in the game thread may lock
        # the game later (a vote that closes the day, the Show's message fee): one order, no
        # deadlock on PostgreSQL. Both in one statement, read from the game: PostgreSQL locks the
        # rows of `FOR ... OF games_game, games_thread` in that order. NO KEY UPDATE, as every
        # writer of a game takes it: rows that only reference the game (ledger lines, an anonymous
        # message) are not held up by it, while posts to the thread still queue one by one.
        # (The statement is compiled once per connection: _GAME_FOR_POST.)
        game = next(iter(_GAME_FOR_POST.fetch(thread.pk, author.pk)), None)
        if game is not None:
            locked = game.game_thread
            locked._game_cache = game  # what permissions.with_game's join gives (game_of costs nothing)
            permissions.remember_staff(author, game)
    if locked is None:
        locked = permissions.with_game(Thread.objects.select_for_update(of=("self",))).get(pk=thread.pk)
    if locked.kind == Thread.Kind.GAME and (joined := permissions.game_of(locked)) is not None:
        permissions.read_roster(author, joined)
        # The co-GMs and the author's ban, when the locking read did not tell them: one query.
        permissions.read_game_staff(author, joined)
    verdict = permissions.can_post(author, locked, now=now)
    if not verdict:
        raise ActionRefused(verdict.reason, code="not_allowed")
    return locked


# A post's INSERT, compiled once per connection (config.prepared: as save() writes it; its compiling
# cost as much as the statement).
_POST_INSERT = PreparedInsert(Post)


def post_store(*, thread: Thread, author, draft: PostDraft, comment: str, now: datetime, shown_author=None) -> Post:
    """Inside the caller's transaction, with `thread` locked (thread_lock_for_post): the post
    numbered and written, the thread's count moved, and, on commit, the poll's state and the ISO
    picker's author list told."""
    number = thread.post_count + 1
    # The page cache (games/caching/pagecache.py): these writes change this thread's pages alone;
    # nothing reads between them, so their counters' bumps go together (one round trip).
    with pagecache.writing(thread=thread.pk), pagecache.bumps_held():
        post = Post(
            thread=thread,
            number=number,
            author=author,
            body=draft.body,
            html=draft.html,
            search_text=draft.search_text,
            renderer_version=bbcode.RENDERER_VERSION,
            created_at=now,
            comment=comment,
            shown_author=shown_author,
        )
        _POST_INSERT.insert([post], using=router.db_for_write(Post, instance=post))  # Post.objects.create's save
        # Thread.objects.filter(pk=thread.pk).update(post_count=F("post_count") + 1, last_post_at=now),
        # its SQL sent as it is: the ORM's query building cost more than the statement.
        with prepared_cursor(connection) as cursor:  # prepared once per connection (config.prepared)
            cursor.execute(pagecache.count_update_sql(),
                           [1, connection.ops.adapt_datetimefield_value(now), thread.pk])
    # When the transaction commits, with its counters (one round trip): the poll's state
    # (games/caching/live.py), and the ISO picker's author list, which follows without rescanning.
    thread_state_remember_on_commit(thread.pk, thread.kind, number)
    selectors.post_authors_extend_on_commit(thread=thread, number=number, author_id=(shown_author or author).pk)
    post.vote_confirmation = None  # what a vote in it counted as: the posting service's (posting.py)
    return post


def post_stored_tell(*, thread: Thread, locked: Thread, post: Post, game_changed: bool = False) -> None:
    """After the transaction: the caller's `thread` takes the new count, and, in a game thread,
    the game instance the locking read joined (the page that answers the post reads it again
    for nothing otherwise), unless the posting changed the game (`game_changed`: it closed the
    day), when whatever the caller shows next is read afresh."""
    thread.post_count = post.number
    thread.last_post_at = post.created_at
    game = permissions.game_of(locked) if locked.kind == Thread.Kind.GAME else None
    if game is None:
        return
    if game_changed:
        permissions.forget_game_of(thread)
        permissions.forget_game_caches(game)
    else:
        thread._game_cache = game


def post_create(*, thread: Thread, author, body: str, now: datetime | None = None, comment: str = "",
                rate_limited: bool = False) -> Post:
    """Write a plain post: refused when the author may not post in the thread, else numbered,
    stored and counted. `rate_limited` applies the posting rate limit (post_rate_check). What a
    post in a game does besides ([private] messages, a room, votes, a close on majority) is the
    posting service's (games/services/posting.py, post_submit), which the site's reply form
    calls; services posting as the GM call this."""
    now = now or timezone.now()
    draft = post_draft(thread=thread, author=author, body=body, now=now, rate_limited=rate_limited)
    with transaction.atomic():
        locked = thread_lock_for_post(thread=thread, author=author, now=now)
        post = post_store(thread=locked, author=author, draft=draft, comment=post_comment_clean(comment), now=now)
    post_stored_tell(thread=thread, locked=locked, post=post)
    return post


def thread_mark_read(*, user, thread: Thread, number: int) -> None:
    """Move the reader's mark forward (never back). One guarded UPDATE in the common case. (Here,
    below the posting service: an htmx reply moves its poster's mark in the post's transaction.)"""
    if not user.is_authenticated or number <= 0:
        return
    # ThreadReadMark.objects.filter(user=user, thread=thread, last_read_number__lt=number)
    # .update(last_read_number=number), its SQL sent as it is (the ORM's building cost more).
    with prepared_cursor(connection) as cursor:  # prepared once per connection (config.prepared)
        cursor.execute(_mark_update_sql(), [number, number, thread.pk, user.pk])
        moved = cursor.rowcount
    if moved:
        return
    try:
        with transaction.atomic():
            ThreadReadMark.objects.get_or_create(user=user, thread=thread, defaults={"last_read_number": number})
    except IntegrityError:  # a concurrent request created it first; its value is as good
        pass


@functools.cache
def _mark_update_sql() -> str:
    quote = connection.ops.quote_name
    return (f"UPDATE {quote(ThreadReadMark._meta.db_table)} SET {quote('last_read_number')} = %s "
            f"WHERE {quote('last_read_number')} < %s AND {quote('thread_id')} = %s AND {quote('user_id')} = %s")


def post_edit(*, post: Post, editor, body: str, now: datetime | None = None) -> Post:
    now = now or timezone.now()
    verdict = permissions.can_edit_post(editor, post, now=now)
    if not verdict:
        raise ActionRefused(verdict.reason, code="not_allowed")
    body = post_clean_body(body=body)
    if body == post.body:
        return post
    if "[private" in post.body.lower() or "[private" in body.lower():
        # A private message was delivered as written; an edit may not rewrite or add one.
        raise ActionRefused(_("Posts with private messages cannot be edited."), code="private_edit")
    with transaction.atomic():
        locked = Post.objects.select_for_update().get(pk=post.pk)
        PostRevision.objects.create(post=locked, body=locked.body, replaced_at=now, replaced_by=editor)
        locked.body = body
        locked.html = bbcode.render(body)
        locked.search_text = bbcode.searchable_text(body)
        locked.renderer_version = bbcode.RENDERER_VERSION
        locked.edited_at = now
        locked.edit_count = F("edit_count") + 1
        locked.save(update_fields=["body", "html", "search_text", "renderer_version", "edited_at", "edit_count"])
    locked.refresh_from_db(fields=["edit_count"])
    return locked


def post_set_deleted(*, post: Post, moderator, deleted: bool, now: datetime | None = None, reason: str = "") -> Post:
    """Soft delete (or restore): the post keeps its number and its text for moderators."""
    verdict = permissions.can_delete_post(moderator, post)
    if not verdict:
        raise ActionRefused(verdict.reason, code="not_allowed")
    now = now or timezone.now()
    post.is_deleted = deleted
    post.deleted_at = now if deleted else None
    post.deleted_by = moderator if deleted else None
    post.deleted_reason = (reason or "")[:300] if deleted else ""
    post.save(update_fields=["is_deleted", "deleted_at", "deleted_by", "deleted_reason"])
    return post


def posts_refresh_html(*, posts: Iterable[Post]) -> int:
    """Re-render posts stored by an older renderer; returns how many were refreshed."""
    stale = [p for p in posts if p.renderer_version != bbcode.RENDERER_VERSION]
    for post in stale:
        post.html = bbcode.render(post.body)
        post.search_text = bbcode.searchable_text(post.body)
        post.renderer_version = bbcode.RENDERER_VERSION
    if stale:
        Post.objects.bulk_update(stale, ["html", "search_text", "renderer_version"])
    return len(stale)
