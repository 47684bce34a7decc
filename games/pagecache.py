"""The thread page's caches (docs/architecture.md, "The thread page cache").

Two layers, both in the shared cache:

1. **The post list** of a page (the `<li>` of every post, the expensive part to render: 25 to
   100 posts through the template engine), shared by every viewer of the same *class*: the same
   language, time zone, moderator or not, may post or not, and, only for a page holding
   `[private]` messages, the same private-text audience (everyone after the game and the GMs;
   else each seat alone; else nobody). What differs per viewer inside the list (the Report and
   Edit links, the CSRF token of the moderators' forms, the "just posted" mark) is left as a
   placeholder and filled per request from the posts' numbers kept beside the HTML.
2. **The whole page** of one session (a reload of the same URL by the same browser): served with
   no SQL query and no template at all, as long as nothing was written to the database since it
   was rendered (below) and none of its clocks ran out (a scheduled lock, an edit window, a ban's
   end, at most `PAGE_SECONDS`).

Invalidation does not rely on every service remembering to call a hook. A wrapper on every
database connection (`install`, from GamesConfig.ready) watches the SQL each process sends: an
INSERT, UPDATE or DELETE bumps two counters in the cache, right after the statement and again
when its transaction commits (the first for the writing connection itself and for tests, which
never commit; the second so that a page rendered from the data before the commit is never kept
under the new counter):

- `site`: any write to any table except the sessions and the read marks (which the page shows
  nothing of). It stamps whole pages: a page is served again only if not a row changed.
- `posts`: writes to the posts, their revisions and private messages, and to users (names and
  avatars; a login's `last_login` alone does not count). It stamps post lists. The rest of what a
  list shows is in its key (the GM, the replaced players, the viewer class, the number of posts
  on the page).

Both counters are site-wide: a post in one thread also invalidates the lists of the others
(docs/performance.md says what that costs and what would scope it).
"""

from __future__ import annotations

import hashlib
import re
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone, translation

SITE_KEY = "pagecache:gen:site"
POSTS_KEY = "pagecache:gen:posts"
PAGE_SECONDS = 300  # the longest a whole page is kept (and served, if nothing changed)
LIST_SECONDS = 3600

# Tables whose writes never change what a thread page shows.
_IGNORED_TABLES = ('"django_session"', '"games_threadreadmark"')
# Tables whose writes change what a post list shows.
_POST_TABLES = ('"games_post"', '"games_postrevision"', '"games_privatemessage"', '"games_replacement"',
                '"accounts_user"')
_WRITES = ("INSERT", "UPDATE", "DELETE")


# --- The counters ------------------------------------------------------------------------------
def _start() -> int:
    # A counter that is lost (the cache was cleared, Redis restarted) must not restart at a value
    # that stamped an older entry: start it from the clock.
    return int(time.time() * 1000)


def _bump(key: str) -> None:
    try:
        cache.incr(key)
    except ValueError:
        cache.add(key, _start(), timeout=None)
        try:
            cache.incr(key)
        except ValueError:
            pass


def generation(key: str) -> int:
    value = cache.get(key)
    if value is None:
        value = _start()
        if not cache.add(key, value, timeout=None):
            value = cache.get(key) or value
    return value


def _bump_site() -> None:
    _bump(SITE_KEY)


def _bump_posts() -> None:
    _bump(POSTS_KEY)


def changed(*, posts: bool = True) -> None:
    """Invalidate by hand (what the SQL watcher does on every write)."""
    _bump_site()
    if posts:
        _bump_posts()


def _classify(sql: str) -> tuple[bool, bool]:
    """(changes pages, changes post lists) for one SQL statement."""
    head = sql.lstrip()[:7].upper()
    if not head.startswith(_WRITES):
        return False, False
    start = sql[:80]
    if any(table in start for table in _IGNORED_TABLES):
        return False, False
    posts = any(table in start for table in _POST_TABLES)
    if posts and '"accounts_user"' in start and head.startswith("UPDATE"):
        # A login's bookkeeping (UPDATE "accounts_user" SET "last_login" = ... WHERE ...).
        rest = sql.split(" SET ", 1)[-1]
        if rest.startswith('"last_login" = ') and " = " not in rest.split(" WHERE ", 1)[0][len('"last_login" = '):]:
            posts = False
    return True, posts


def _on_commit_once(connection, func) -> None:
    if not connection.in_atomic_block:
        return  # autocommit: the statement is committed already, and was bumped after it
    if any(entry[1] is func for entry in connection.run_on_commit):
        return
    transaction.on_commit(func, using=connection.alias)


def _watcher(connection):
    def watch(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if isinstance(sql, str):
            site, posts = _classify(sql)
            if site:
                _bump_site()
                _on_commit_once(connection, _bump_site)
            if posts:
                _bump_posts()
                _on_commit_once(connection, _bump_posts)
        return result

    watch.pagecache = True
    return watch


def _install_on(connection) -> None:
    if not any(getattr(w, "pagecache", False) for w in connection.execute_wrappers):
        connection.execute_wrappers.append(_watcher(connection))


def install() -> None:
    """Watch the writes of every database connection of this process (GamesConfig.ready)."""
    from django.db import connections
    from django.db.backends.signals import connection_created

    connection_created.connect(_connection_created, dispatch_uid="games.pagecache")
    for connection in connections.all(initialized_only=True):
        _install_on(connection)


def _connection_created(sender, connection, **kwargs):
    _install_on(connection)


# --- Layer 1: the post list --------------------------------------------------------------------
CSRF_SENTINEL = "pagecache-csrf-token"
ACTIONS_RE = re.compile(r"<!--pc-actions:(\d+)-->")


@dataclass
class PostList:
    html: str
    meta: list[tuple]  # (pk, number, author_id, created_at, is_deleted) of every post shown
    private: bool  # the page holds [private] messages: its lists are per private audience
    marked: list[int]  # the ids of those posts


def _digest(value: str) -> str:
    return hashlib.blake2b(value.encode(), digest_size=9).hexdigest()


def list_key(*, thread, low: int, high: int, viewer: str, extra: str, audience: str | None) -> str:
    created = thread.created_at.timestamp() if thread.created_at else 0
    parts = [str(thread.pk), str(created), str(generation(POSTS_KEY)), str(low), str(high),
             translation.get_language() or "", timezone.get_current_timezone_name(), viewer, extra]
    if audience is not None:
        parts.append(audience)
    return f"pagecache:list:{_digest('|'.join(parts))}"


def list_get(key: str) -> PostList | None:
    return cache.get(key)


def list_set(key: str, value: PostList) -> None:
    cache.set(key, value, timeout=LIST_SECONDS)


def meta_of(posts) -> list[tuple]:
    return [(p.pk, p.number, p.author_id, p.created_at, p.is_deleted) for p in posts]


def posts_from_meta(meta: list[tuple], thread) -> list:
    """Unsaved stand-ins of the page's posts (number, author, time, deleted), enough for the
    per-viewer links and for what the view reads of the page (its numbers)."""
    from games.models import Post

    posts = []
    for pk, number, author_id, created_at, is_deleted in meta:
        post = Post(pk=pk, number=number, author_id=author_id, created_at=created_at, is_deleted=is_deleted,
                    thread_id=thread.pk)
        post.thread = thread
        posts.append(post)
    return posts


def personalize(html: str, posts: list, *, request, user, just_posted: int | None = None) -> str:
    """Fill the viewer's own bits into a cached post list: the Report link (a logged-in reader,
    not on his own posts), the Edit link (games.permissions.can_edit_post, asked now: its time
    window runs while the list is cached), the CSRF token, the just-posted mark."""
    from django.middleware.csrf import get_token
    from django.urls import reverse
    from django.utils.html import format_html
    from django.utils.translation import gettext

    from games import permissions

    actions: dict[int, str] = {}
    if user.is_authenticated:
        report, edit = gettext("Report"), gettext("Edit")
        for post in posts:
            if post.is_deleted:
                continue
            bits = []
            if post.author_id != user.pk:
                bits.append(format_html('<a href="{}" class="muted">{}</a>', reverse("games:post_report", args=[post.pk]),
                                        report))
            if permissions.can_edit_post(user, post):
                bits.append(format_html('<a href="{}">{}</a>', reverse("games:post_edit", args=[post.pk]), edit))
            if bits:
                actions[post.pk] = "\n    ".join(bits)
    html = ACTIONS_RE.sub(lambda m: actions.get(int(m.group(1)), ""), html)
    if CSRF_SENTINEL in html:
        html = html.replace(CSRF_SENTINEL, get_token(request))
    if just_posted:
        html = html.replace(f'" id="p{just_posted}"', f' just-posted" id="p{just_posted}"', 1)
    return html


def edit_window_end(posts, user):
    """When the earliest Edit link shown to this (non-moderator) viewer disappears, or None."""
    if not user.is_authenticated:
        return None
    window = settings.MAFIA_POST_EDIT_WINDOW_SECONDS
    now = timezone.now()
    ends = [p.created_at.timestamp() + window for p in posts
            if p.author_id == user.pk and not p.is_deleted and (now - p.created_at).total_seconds() <= window]
    return min(ends) if ends else None


# --- Layer 2: the whole page of one session ----------------------------------------------------
@dataclass
class Page:
    generation: int
    valid_until: float
    body: bytes
    content_type: str


def _session_part(request) -> str | None:
    """What ties a cached page to one browser: its session and its CSRF cookie (the tokens in the
    page are masked from that cookie's secret). None: not cacheable (no CSRF cookie yet, or
    messages waiting to be shown)."""
    csrf = request.COOKIES.get(settings.CSRF_COOKIE_NAME)
    if not csrf or "messages" in request.COOKIES:
        return None
    session = getattr(request, "session", None)
    session_key = getattr(session, "session_key", None) or ""
    if session_key and "_messages" in session:
        return None
    return f"{session_key}|{csrf}"


def page_key(request) -> str | None:
    if request.method != "GET":
        return None
    who = _session_part(request)
    if who is None:
        return None
    htmx = getattr(request, "htmx", None)
    target = (htmx.target or "") if htmx else ""
    parts = [who, request.get_full_path(), translation.get_language() or "", timezone.get_current_timezone_name(),
             "htmx" if htmx else "", target, str(settings.MAFIA_POSTS_PER_PAGE),
             str(settings.MAFIA_POST_EDIT_WINDOW_SECONDS), str(settings.MAFIA_THREAD_POLL_SECONDS),
             str(settings.MAFIA_VOTE_POLL_SECONDS)]
    return f"pagecache:page:{_digest('|'.join(parts))}"


def csrf_secret_unchanged(request) -> bool:
    """The page's tokens were masked from the secret of the CSRF cookie the request sent (not
    from a new one the response is about to set)."""
    return bool(request.META.get("CSRF_COOKIE")) and request.META.get("CSRF_COOKIE") == request.COOKIES.get(
        settings.CSRF_COOKIE_NAME)


def page_get(key: str):
    """The cached response for this key, if nothing was written since it was rendered."""
    from django.http import HttpResponse

    found = cache.get_many([key, SITE_KEY])
    page = found.get(key)
    if page is None or found.get(SITE_KEY) != page.generation or time.time() >= page.valid_until:
        return None
    return HttpResponse(page.body, content_type=page.content_type)


def page_set(key: str, response, *, generation_before: int, valid_until: float | None) -> None:
    if response.status_code != 200 or response.streaming or response.cookies:
        return
    until = time.time() + PAGE_SECONDS
    if valid_until is not None:
        until = min(until, valid_until)
    seconds = until - time.time()
    if seconds < 1:
        return
    cache.set(key, Page(generation=generation_before, valid_until=until, body=response.content,
                        content_type=response["Content-Type"]), timeout=int(seconds) + 1)
