"""Reads of the games app: querysets and small read models for the views."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Count, IntegerField, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce, Greatest

from games import permissions
from games.caching import pagecache
from games.models import Game, Post, Seat, Thread, ThreadReadMark
from games.rulesets import registry
from games.selectors.search import Folded, match_all_words


def page_count(total: int, per_page: int) -> int:
    return max(1, math.ceil(total / per_page))


def page_of_number(number: int, per_page: int) -> int:
    return max(1, math.ceil(number / per_page))


@dataclass
class ThreadPage:
    posts: list[Post]
    page: int
    pages: int
    iso_authors: list  # users the page is filtered to (ISO); empty = whole thread
    per_page: int = 0

    @property
    def has_previous(self) -> bool:
        return self.page > 1

    @property
    def has_next(self) -> bool:
        return self.page < self.pages

    @property
    def last_number(self) -> int:
        return self.posts[-1].number if self.posts else 0

    @property
    def low(self) -> int:
        """The page of the whole thread shows the post numbers low + 1 .. high (no ISO filter)."""
        return (self.page - 1) * self.per_page

    @property
    def high(self) -> int:
        return self.page * self.per_page

    def page_range(self) -> list[int | None]:
        """Page numbers to link, with None for a gap: 1 … 4 5 [6] 7 8 … 20."""
        wanted = {1, self.pages, *range(self.page - 2, self.page + 3)}
        out: list[int | None] = []
        previous = 0
        for number in sorted(n for n in wanted if 1 <= n <= self.pages):
            if number - previous > 1:
                out.append(None)
            out.append(number)
            previous = number
        return out


def _post_rows(user, thread: Thread) -> QuerySet[Post]:
    # The search index's copy of the text is never shown on a page: not read.
    return permissions.filter_visible_posts(user, thread, Post.objects.defer("search_text")).select_related("author", "shown_author", "media")


def thread_page(*, user, thread: Thread, page: int | None, iso_author_ids: list[int] | None = None,
                per_page: int | None = None, truth: bool = True) -> ThreadPage:
    """One page of a thread. The whole thread pages by post number (keyset on the (thread,
    number) index, no OFFSET); an ISO filter pages its own, much smaller, list. Without `truth`
    (permissions.can_see_true_author) an ISO filter reads a post signed with another name as
    that one's (Post.shown_author), never as its true author's."""
    per_page = per_page or settings.MAFIA_POSTS_PER_PAGE
    rows = _post_rows(user, thread)
    if iso_author_ids:
        from accounts.models import User

        if truth:
            rows = rows.filter(author_id__in=iso_author_ids)
        else:
            rows = rows.filter(Q(shown_author__isnull=True, author_id__in=iso_author_ids)
                               | Q(shown_author_id__in=iso_author_ids))
        total = rows.count()
        pages = page_count(total, per_page)
        page = min(max(page or 1, 1), pages)
        posts = _with_thread(list(rows.order_by("number")[(page - 1) * per_page: page * per_page]), thread)
        authors = list(User.objects.filter(pk__in=iso_author_ids).order_by("display_name"))
        return ThreadPage(posts=posts, page=page, pages=pages, iso_authors=authors, per_page=per_page)
    bounds = thread_page_bounds(thread=thread, page=page, per_page=per_page)
    bounds.posts = thread_posts(user=user, thread=thread, low=bounds.low, high=bounds.high)
    return bounds


def thread_page_bounds(*, thread: Thread, page: int | None, per_page: int | None = None) -> ThreadPage:
    """Which page of the whole thread to show (clamped), without its posts (the post list may
    come from the cache, games/caching/pagecache.py)."""
    per_page = per_page or settings.MAFIA_POSTS_PER_PAGE
    pages = page_count(thread.post_count, per_page)
    page = min(max(page or 1, 1), pages)
    return ThreadPage(posts=[], page=page, pages=pages, iso_authors=[], per_page=per_page)


def thread_posts(*, user, thread: Thread, low: int, high: int) -> list[Post]:
    """The posts numbered low + 1 .. high, the authors joined (keyset on the (thread, number) index)."""
    rows = _post_rows(user, thread)
    return _with_thread(list(rows.filter(number__gt=low, number__lte=high).order_by("number")), thread)


def _with_thread(posts: list[Post], thread: Thread) -> list[Post]:
    """Give every post the page's own thread instance, so that the per-post permission checks
    (can_edit_post, can_see_post_body) share its cached game, roster and GM list instead of
    loading the thread and its game again for each post."""
    for post in posts:
        post.thread = thread
    return posts


def read_up_to(*, user, thread: Thread) -> int | None:
    """The number of the last post this user has read in the thread; None before the first visit."""
    if not user.is_authenticated:
        return None
    return ThreadReadMark.objects.filter(user=user, thread=thread).values_list("last_read_number", flat=True).first()


def first_unread_number(*, user, thread: Thread) -> int:
    """The number of the first post this user has not read (1 for a newcomer)."""
    if not user.is_authenticated:
        return 1
    return unread_from_mark(read_up_to(user=user, thread=thread), thread)


def unread_from_mark(mark: int | None, thread: Thread) -> int:
    return min((mark or 0) + 1, max(thread.post_count, 1))


def section_threads(*, user, kind: str) -> QuerySet[Thread]:
    threads = Thread.objects.filter(kind=kind).select_related("created_by")
    return permissions.filter_visible_threads(user, threads).order_by("-is_pinned", "-last_post_at", "-pk")


def games_by_status(*, user) -> dict[str, list[Game]]:
    """The main page's short list of games, grouped by status (the full list is game_listing)."""
    games = Game.objects.select_related("gm", "game_thread").order_by("-created_at")
    grouped: dict[str, list[Game]] = {value: [] for value in Game.Status.values}
    for game in games[:200]:
        grouped[game.status].append(game)
    return grouped


@dataclass(frozen=True)
class GameListFilters:
    """The game list's filters, read from a query string; anything unknown falls back to the
    default instead of failing (a hand-edited URL shows the default list, never a 500)."""

    STATUS_ALL = "all"
    STATUSES = (Game.Status.SIGNUPS.value, Game.Status.RUNNING.value, Game.Status.FINISHED.value, STATUS_ALL)
    SORTS = ("new", "old", "title", "players", "active")
    MAX_TITLE_QUERY = 200

    status: str = STATUS_ALL
    ruleset: str = ""  # "" = every rule set
    sort: str = "new"
    q: str = ""

    @classmethod
    def from_query(cls, params) -> GameListFilters:
        status = params.get("status") or cls.STATUS_ALL
        ruleset = params.get("ruleset") or ""
        sort = params.get("sort") or "new"
        q = " ".join((params.get("q") or "").split())[: cls.MAX_TITLE_QUERY]
        return cls(
            status=status if status in cls.STATUSES else cls.STATUS_ALL,
            ruleset=ruleset if ruleset in registry.keys() else "",
            sort=sort if sort in cls.SORTS else "new",
            q=q,
        )

    def as_params(self, **changes) -> list[tuple[str, str]]:
        """The non-default filters as query parameters, with `changes` applied (for links)."""
        values = {"status": self.status, "ruleset": self.ruleset, "sort": self.sort, "q": self.q, **changes}
        defaults = {"status": self.STATUS_ALL, "ruleset": "", "sort": "new", "q": ""}
        return [(key, str(value)) for key, value in values.items() if value and value != defaults.get(key)]


def _filtered_games(filters: GameListFilters) -> QuerySet[Game]:

    games = Game.objects.all()
    if filters.ruleset:
        games = games.filter(ruleset=filters.ruleset)
    if filters.q:
        games = match_all_words(games, "title", filters.q)
    return games


def game_listing(filters: GameListFilters) -> QuerySet[Game]:
    """The games of the list page in the chosen order, each with `players` (seats taken) and
    `active_at` (the last post in its game or discussion thread, else its creation): one query
    per page whatever the number of games (the counts are subqueries, the GM, threads and
    current phase are joined)."""
    games = _filtered_games(filters)
    if filters.status != GameListFilters.STATUS_ALL:
        games = games.filter(status=filters.status)
    seats = Seat.objects.filter(game=OuterRef("pk")).order_by().values("game").annotate(n=Count("pk")).values("n")
    games = games.select_related("gm", "game_thread", "discussion_thread", "current_phase").annotate(
        players=Coalesce(Subquery(seats, output_field=IntegerField()), 0),
        active_at=Greatest(Coalesce("game_thread__last_post_at", "created_at"),
                           Coalesce("discussion_thread__last_post_at", "created_at")),
    )
    order = {
        "new": ("-created_at", "-pk"),
        "old": ("created_at", "pk"),
        "title": (Folded("title").asc(), "pk"),
        "players": ("-players", "-created_at", "-pk"),
        "active": ("-active_at", "-pk"),
    }[filters.sort]
    return games.order_by(*order)


# The kept tab counts live until a game's row is written (pagecache.GAMES_KEY) or, at the latest,
# this long.
COUNTS_SECONDS = 24 * 3600


def game_status_counts(filters: GameListFilters) -> dict[str, int]:
    """How many games each status tab holds under the other filters (rule set, title), and
    "all". The games list's pages and tabs are counted from them (no COUNT of their own). Without
    a title search they are kept in the cache until a game's row is written (a game created,
    started, finished, deleted, any change to its row: `pagecache.GAMES_KEY`), so that the list
    of a site with years of games counts none of them on a reload (issue 30; docs/search.md,
    "Kept counts"); a title search counts its matches, one grouped query."""
    if filters.q:
        return _count_by_status(filters)
    key = f"games:counts:{filters.ruleset}:{pagecache.generation(pagecache.GAMES_KEY)}"
    counts = cache.get(key)
    if counts is None:
        counts = _count_by_status(filters)
        cache.set(key, counts, timeout=COUNTS_SECONDS)
    return counts


def _count_by_status(filters: GameListFilters) -> dict[str, int]:
    counts = {value: 0 for value in GameListFilters.STATUSES}
    for status, n in _filtered_games(filters).order_by().values_list("status").annotate(n=Count("pk")):
        counts[status] = n
    counts[GameListFilters.STATUS_ALL] = sum(n for key, n in counts.items() if key != GameListFilters.STATUS_ALL)
    return counts


def _post_authors_key(thread: Thread) -> str:
    # The creation time tells apart threads that reuse a number (SQLite after a rollback).
    return f"threads:authors:{thread.pk}:{thread.created_at.timestamp() if thread.created_at else 0}"


def post_authors_key(thread: Thread) -> str:
    """The cache key of the thread's author list (the thread page fetches it with its counters)."""
    return _post_authors_key(thread)


def post_authors_extend(*, thread: Thread, number: int, author_id: int) -> None:
    """After post `number` is committed: bring the cached author list up to it without a scan,
    when the list covers exactly the posts before it (else the next read catches up by query)."""
    from django.core.cache import cache

    key = _post_authors_key(thread)
    cached = cache.get(key)
    _authors_seen_remember(thread.pk, key, cached)
    if cached is not None and cached[0] == number - 1:
        entry = _authors_extended(cached, number, author_id)
        cache.set(key, entry, timeout=_AUTHORS_SECONDS)
        _authors_seen_remember(thread.pk, key, entry)


def post_authors_extend_on_commit(*, thread: Thread, number: int, author_id: int) -> None:
    """post_authors_extend when the current transaction commits. An entry (N, ids) is the same
    whoever made it and whenever (the authors of the thread's first N posts, which never change),
    so when this process saw the one covering the posts before this one (`_authors_seen`: read
    by the page or the reply, or written here), the extended entry is made now and written with
    the transaction's counters (pagecache.set_on_commit: no round trip of its own); else it is
    read and extended after the commit."""
    key = _post_authors_key(thread)
    seen = _authors_seen.get(thread.pk)
    if seen is None or seen[0] != key or seen[1][0] != number - 1:
        transaction.on_commit(partial(post_authors_extend, thread=thread, number=number, author_id=author_id))
        return
    entry = _authors_extended(seen[1], number, author_id)
    pagecache.set_on_commit(key, entry, _AUTHORS_SECONDS, then=partial(_authors_seen_remember, thread.pk, key, entry))


def post_authors_seen(*, thread: Thread, key: str, entry) -> None:
    """Tell this process the author list entry a caller fetched under `key` (post_authors_key;
    None: absent), so that a post in the thread extends it without reading it again."""
    _authors_seen_remember(thread.pk, key, entry)


def post_author_ids_seen(*, thread: Thread) -> list[int] | None:
    """post_author_ids from the entry this process last saw of the thread (`_authors_seen`: the
    post it just stored extended it), or None when it has none covering the thread's post count."""
    seen = _authors_seen.get(thread.pk)
    if seen is None or seen[0] != _post_authors_key(thread) or seen[1][0] < thread.post_count:
        return None
    return seen[1][1]


_AUTHORS_SECONDS = 24 * 3600
# Per process, the last author list entry seen of each thread: (its key, the entry).
_authors_seen: dict[int, tuple[str, tuple]] = {}


def _authors_seen_remember(thread_id: int, key: str, entry) -> None:
    if not (isinstance(entry, tuple) and len(entry) == 2):
        return
    old = _authors_seen.get(thread_id)
    if old is not None and old[0] == key and old[1][0] > entry[0]:
        return  # the newer one is kept
    if len(_authors_seen) > 50_000:
        _authors_seen.clear()
    _authors_seen[thread_id] = (key, entry)


def _authors_extended(entry: tuple, number: int, author_id: int) -> tuple:
    ids = entry[1] if author_id in entry[1] else sorted({*entry[1], author_id})
    return number, ids


def post_authors(*, thread: Thread) -> QuerySet:
    """Everyone who posted in the thread (for the ISO picker). Finding them scans the whole
    thread (30 ms at 10,000 posts), so their ids are cached with the post count they cover and
    brought up to date from the newer posts alone (a post's author never changes); the names are
    read fresh by primary key, so a renamed player shows his new name at once."""
    from accounts.models import User

    return User.objects.filter(pk__in=post_author_ids(thread=thread)).order_by("display_name")


@dataclass(frozen=True)
class AuthorName:
    """A poster as the ISO picker shows him."""
    pk: int
    display_name: str


def post_author_names(*, thread: Thread, stamps) -> list[AuthorName]:
    """post_authors as (id, name) pairs, kept under the site counter (every write to the users,
    a rename included, moves it) and the ids: the thread page reads no user row for its picker
    while no one was renamed (games/caching/pagecache.py)."""

    ids = post_author_ids(thread=thread)
    return pagecache.kept_value(f"authors:{','.join(map(str, ids))}", stamps, ("site",), lambda: [
        AuthorName(pk, name) for pk, name in post_authors(thread=thread).values_list("pk", "display_name")])


# The author a post is shown as to everyone (Post.shown_author, else its author): the ISO picker
# lists these, so that a post signed with another name names nobody else in it.
_SHOWN_AUTHOR = Coalesce("shown_author_id", "author_id")
_UNREAD = object()


def post_author_ids(*, thread: Thread, cached=_UNREAD) -> list[int]:
    """The ids of everyone who posted in the thread as shown (Post.shown_author, else the author),
    up to its post count (see post_authors). `cached`: the cache's entry under post_authors_key when
    the caller fetched it already (None: there was none)."""
    from django.core.cache import cache

    key = _post_authors_key(thread)
    if cached is _UNREAD:
        cached = cache.get(key)
    _authors_seen_remember(thread.pk, key, cached)
    if cached is not None and cached[0] >= thread.post_count:
        ids = cached[1]  # (newer than this page's count: a post came meanwhile; its author may show)
    else:
        posts = Post.objects.filter(thread=thread)
        if cached is not None:
            newer = posts.filter(number__gt=cached[0], number__lte=thread.post_count)
            ids = sorted(set(cached[1]) | set(newer.values_list(_SHOWN_AUTHOR, flat=True)))
        else:
            ids = sorted(set(posts.filter(number__lte=thread.post_count).values_list(_SHOWN_AUTHOR, flat=True)
                             .distinct()))
        cache.set(key, (thread.post_count, ids), timeout=_AUTHORS_SECONDS)
        _authors_seen_remember(thread.pk, key, (thread.post_count, ids))
    return ids

