"""Search over posts and thread titles, and the folding of text for case-insensitive matching.

Two engines, chosen by the database (docs/search.md):

- **PostgreSQL**: Russian full-text search. The WHERE clause is
  ``search_vector @@ websearch_to_tsquery('russian'::regconfig, q)``, the stored generated
  column of migration 0012 with its GIN index (thread titles: ``title_vector``, 0013). Ranked
  by ts_rank, snippets by ts_headline.
- **Anything else** (SQLite, the embedded default): every word of the query must appear in the
  text as a substring, both sides compared after ``fold`` (lower case, ё→е). On SQLite ``fold``
  is a deterministic Python function registered on each connection, because SQLite's lower()
  and LIKE fold ASCII letters only.

What is searched: ``Post.search_text`` (the public plain text of a post, [private] texts left out,
kept by games.services.posts), of posts that are not deleted, in threads the viewer may read
(games.permissions: every thread but his ``hidden_threads``); and the titles of those threads.
"""

from __future__ import annotations

import json
import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.contrib.postgres.search import SearchHeadline, SearchQuery, SearchRank, SearchVectorField
from django.core.cache import cache
from django.db import connection as default_connection
from django.db import transaction
from django.db.backends.signals import connection_created
from django.db.models import DateTimeField, Expression, ExpressionWrapper, F, Func, Q, QuerySet, TextField, Value
from django.db.models.expressions import Col
from django.db.models.functions import Replace
from django.dispatch import receiver
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from games import permissions
from games.models import Game, Post, Seat, Thread

MAX_QUERY_LENGTH = 200
PER_PAGE = 20
MAX_PAGE = 500
MAX_WORDS = 12
THREAD_HITS = 10
SNIPPET_CHARS = 240
SEARCH_CONFIG = "russian"

SORT_RELEVANCE = "relevance"
SORT_NEWEST = "newest"

FOLD_FUNCTION = "mafia_fold"
_WORD_RE = re.compile(r"\w+")
# ts_headline marks matches with these private-use characters; the text is escaped first and
# only then are they turned into <mark> tags (any copy of them in a post is stripped before).
_START, _STOP = "\ue000", "\ue001"
_MARKED_RE = re.compile(f"{_START}(.*?){_STOP}", re.S)


# --- Folding -----------------------------------------------------------------------------------
def fold(text: str | None) -> str | None:
    """The form in which text is compared: lower case, ё written as е. Deterministic, and the
    same as ``REPLACE(LOWER(x), 'ё', 'е')`` on PostgreSQL for Cyrillic and Latin letters."""
    if text is None:
        return None
    return text.lower().replace("ё", "е")


def query_words(text: str) -> list[str]:
    """The folded words of a query (letters and digits; punctuation separates), without repeats."""
    words: list[str] = []
    for word in _WORD_RE.findall(fold(text) or ""):
        if word not in words:
            words.append(word)
    return words[:MAX_WORDS]


def _register_fold(wrapper) -> None:
    """Make ``mafia_fold(text)`` callable in SQL on a SQLite connection (replacing is harmless)."""
    if wrapper.vendor == "sqlite" and wrapper.connection is not None:
        wrapper.connection.create_function(FOLD_FUNCTION, 1, fold, deterministic=True)


@receiver(connection_created, dispatch_uid="games.selectors.search.register_fold")
def _fold_on_new_connections(sender, connection, **kwargs) -> None:
    _register_fold(connection)


class Folded(Func):
    """``fold(expression)`` in SQL. On SQLite it calls the registered Python function (and makes
    sure the connection it is compiled for has it: a connection opened before this module was
    imported missed the signal); elsewhere it is ``REPLACE(LOWER(x), 'ё', 'е')``."""

    arity = 1
    output_field = TextField()

    def as_sqlite(self, compiler, connection, **extra_context):
        connection.ensure_connection()
        _register_fold(connection)
        return super().as_sql(compiler, connection, function=FOLD_FUNCTION, **extra_context)

    def as_sql(self, compiler, connection, **extra_context):
        return super().as_sql(compiler, connection, template="REPLACE(LOWER(%(expressions)s), 'ё', 'е')",
                              **extra_context)


def match_all_words(queryset: QuerySet, field_name: str, text: str) -> QuerySet:
    """Rows whose `field_name` contains every word of `text`, case- and ё-insensitively, on any
    database (the game list's title search, the SQLite fallback of the full search)."""
    words = query_words(text)
    if not words:
        return queryset
    alias = f"_folded_{field_name}"
    queryset = queryset.alias(**{alias: Folded(field_name)})
    for word in words:
        queryset = queryset.filter(**{f"{alias}__contains": word})
    return queryset


# --- Full-text search (PostgreSQL) -------------------------------------------------------------
def full_text_available(connection=None) -> bool:
    return (connection or default_connection).vendor == "postgresql"


class StoredVector(Expression):
    """A stored tsvector column of the queried table (PostgreSQL only: a generated column kept by
    the database, with its GIN index: ``games_post.search_vector``, migration 0012;
    ``games_thread.title_vector``, 0013). Resolved to a column of whatever alias the table has
    in the query (a subquery's posts are ``U0``), as Django's own columns are; the models do not
    declare these columns, since SQLite has none."""

    def __init__(self, column: str):
        super().__init__(output_field=SearchVectorField())
        self.target = SearchVectorField()
        self.target.column = column

    def resolve_expression(self, query=None, allow_joins=True, reuse=None, summarize=False, for_save=False):
        return Col(query.get_initial_alias(), self.target, self.output_field)


def post_vector() -> Expression:
    """The posts' searchable document: the stored vector (computed once, when the post is written)."""
    return StoredVector("search_vector")


def title_vector() -> Expression:
    """A thread title's stored vector (computed when the thread is written)."""
    return StoredVector("title_vector")


# Relevance ranks the newest this many matches of a query (a word every post has would otherwise
# rank a million posts for one page): docs/search.md, "Cost".
RANKED_MAX = 2_000
# The newest this many posts of the site are searched first, walking the date index; only a query
# that finds too few matches among them searches all the posts (docs/search.md, "Cost").
RECENT_POSTS = 50_000
RECENT_SECONDS = 600  # how long the window's first date is kept in the cache


def text_query(q: str) -> SearchQuery:
    return SearchQuery(q, config=SEARCH_CONFIG, search_type="websearch")


# --- Highlighting --------------------------------------------------------------------------------
def _word_pattern(words: list[str], *, whole_words: bool = False) -> re.Pattern | None:
    if not words:
        return None
    alternatives = ["".join("[её]" if ch == "е" else re.escape(ch) for ch in word)
                    for word in sorted(words, key=len, reverse=True)]
    pattern = "|".join(alternatives)
    if whole_words:
        pattern = rf"(?<!\w)(?:{pattern})(?!\w)"
    return re.compile(pattern, re.IGNORECASE)


def highlight(text: str, words: list[str], *, whole_words: bool = False) -> SafeString:
    """`text` escaped, with every occurrence of a (folded) word wrapped in <mark>. The text is
    cut at the matches and each piece is escaped on its own, so a match never lands inside an
    entity (searching "amp" must not break "&amp;")."""
    pattern = _word_pattern(words, whole_words=whole_words)
    if pattern is None:
        return escape(text)
    out, pos = [], 0
    for match in pattern.finditer(text):
        out.append(escape(text[pos:match.start()]))
        out.append(f"<mark>{escape(match.group())}</mark>")
        pos = match.end()
    out.append(escape(text[pos:]))
    return mark_safe("".join(out))


def snippet(text: str, words: list[str], *, whole_words: bool = False, width: int = SNIPPET_CHARS) -> SafeString:
    """About `width` characters of `text` around its first match, highlighted."""
    pattern = _word_pattern(words, whole_words=whole_words)
    first = pattern.search(text) if pattern else None
    start = 0
    if first is not None and len(text) > width:
        start = max(0, min(first.start() - width // 3, len(text) - width))
        if start > 0:  # begin at a word
            space = text.find(" ", start, first.start())
            start = space + 1 if space != -1 else start
    end = min(len(text), start + width)
    if end < len(text):
        space = text.rfind(" ", start + width // 2, end)
        end = space if space != -1 else end
    body = highlight(text[start:end], words, whole_words=whole_words)
    return mark_safe(("… " if start > 0 else "") + body + (" …" if end < len(text) else ""))


def marked_words(headline: str) -> list[str]:
    """The (folded) words ts_headline marked with the sentinels: the forms of the query's words
    that this text holds ("проверил" for the query "проверить")."""
    words: list[str] = []
    for word in _MARKED_RE.findall(headline):
        word = fold(word)
        if word and word not in words:
            words.append(word)
    return words


# --- The search --------------------------------------------------------------------------------
@dataclass
class SearchHit:
    post: Post
    snippet: SafeString
    rank: float | None = None


@dataclass
class ThreadHit:
    thread: Thread
    title: SafeString


@dataclass
class SearchResults:
    hits: list[SearchHit] = field(default_factory=list)
    threads: list[ThreadHit] = field(default_factory=list)
    page: int = 1
    has_next: bool = False
    full_text: bool = False

    @property
    def has_previous(self) -> bool:
        return self.page > 1


def sort_choices(connection=None) -> list[str]:
    """The orders the current database offers; the first is the default."""
    return [SORT_RELEVANCE, SORT_NEWEST] if full_text_available(connection) else [SORT_NEWEST]


GAME_CHOICES_MAX = 60


def game_choices(*, user, chosen: Game | None = None) -> list[tuple[int, str]]:
    """The form's list of games to search in: the running and signing-up ones and the viewer's own
    (played or hosted), newest first, at most GAME_CHOICES_MAX, and the chosen one; not every game of the
    site (issue 30: a site of 5,000 finished games rendered 5,000 options on every search). Any
    other game is searched from its own page's link (`?game=<id>`)."""
    mine = Q(status__in=(Game.Status.RUNNING, Game.Status.SIGNUPS))
    if user.is_authenticated:
        mine |= Q(pk__in=Seat.objects.filter(user=user).values("game_id")) | Q(gm=user)
    rows = list(Game.objects.filter(mine).order_by("-created_at", "-pk").values_list("pk", "title")[:GAME_CHOICES_MAX])
    if chosen is not None and chosen.pk not in {pk for pk, _title in rows}:
        rows.insert(0, (chosen.pk, chosen.title))
    return rows


def _hidden_ids(user) -> list[int]:
    """The threads the viewer may not read (a few private threads of running games), read once
    per search: both queries exclude them by id."""
    return list(permissions.hidden_threads(user).values_list("pk", flat=True))


def _game_thread_ids(game: Game | None) -> list[int] | None:
    """One game's game, discussion and private threads (None: no game asked)."""
    if game is None:
        return None
    return list(Thread.objects.filter(Q(pk__in=[game.game_thread_id, game.discussion_thread_id]) | Q(game=game))
                .values_list("pk", flat=True))


def _limit_threads(rows: QuerySet, thread_field: str, hidden: list[int], in_game: list[int] | None) -> QuerySet:
    """`rows` (threads, or posts by their thread) outside the hidden threads, and in one game's
    threads when asked, both as lists of ids: `thread NOT IN (…)` rather than a join through the
    visibility rule, and `thread IN (…)` rather than a subquery, so that the planner estimates
    the posts from the thread column's statistics and keeps its index plans (issue 30: a word the
    game's thread of a million posts has everywhere took 1.3 s with a subquery of the game's
    threads, 70 ms with their list)."""
    if hidden:
        rows = rows.exclude(**{f"{thread_field}__in": hidden})
    if in_game is not None:
        rows = rows.filter(**{f"{thread_field}__in": in_game})
    return rows


def search(*, user, q: str, game: Game | None = None, author=None, sort: str | None = None,
           page: int = 1, per_page: int = PER_PAGE) -> SearchResults:
    """One page of posts matching `q` that `user` may read (never deleted ones), newest first or
    by relevance, and on the first page the threads whose titles match. `author` (a User) keeps
    his posts and threads only. OFFSET paging: one row more than the page tells if there is a
    next page, so no COUNT over all the matches is run."""
    full_text = full_text_available()
    if sort not in sort_choices():
        sort = sort_choices()[0]
    page = min(max(page, 1), MAX_PAGE)
    hidden, in_game = _hidden_ids(user), _game_thread_ids(game)
    posts = _limit_threads(Post.objects.filter(is_deleted=False), "thread_id", hidden, in_game)
    if author is not None:
        posts = permissions.filter_posts_shown_as(posts, author)  # a signed post is its shown author's
    words = query_words(q)
    offset = (page - 1) * per_page
    if full_text:
        query = text_query(q)
        if sort == SORT_RELEVANCE:
            ranked = _by_relevance(posts, query, offset, per_page + 1)
        else:
            ranked = [(pk, None) for pk in _by_date(posts, query, offset, per_page + 1)]
        results = SearchResults(page=page, has_next=len(ranked) > per_page, full_text=True)
        ranked = ranked[:per_page]
        found = _page_posts([pk for pk, _rank in ranked], q)
        rows = [found[pk] for pk, _rank in ranked if pk in found]  # (a post deleted meanwhile is left out)
        ranks = dict(ranked)
        for post in rows:
            post.shown_user = permissions.shown_author(user, post)  # the author this viewer is shown
        results.hits = [SearchHit(post=p, snippet=snippet(p.search_text, marked_words(p.headline) or words, whole_words=True),
                                  rank=ranks[p.pk]) for p in rows]
    else:
        if not words:
            return SearchResults(page=page, full_text=False)
        posts = match_all_words(posts, "search_text", q).order_by("-created_at", "-pk")
        rows = list(posts.select_related("thread", "author", "shown_author").defer("body", "html")[offset:offset + per_page + 1])
        for post in rows:
            post.shown_user = permissions.shown_author(user, post)  # the author this viewer is shown
        results = SearchResults(page=page, has_next=len(rows) > per_page, full_text=False)
        results.hits = [SearchHit(post=p, snippet=snippet(p.search_text, words)) for p in rows[:per_page]]
    if page == 1:
        threads = _limit_threads(Thread.objects.all(), "pk", hidden, in_game)
        results.threads = _thread_hits(threads=threads, q=q, words=words, author=author, full_text=full_text)
    return results


# --- PostgreSQL: the order of the matches ---------------------------------------------------------
# The GIN index finds a word's matches, but not in date order: ordering them costs a read of every
# match (about 3.5 µs each at a million posts: 350 ms for a word 100,000 posts have). Walking the
# date index backwards and testing each post's stored vector stops as soon as the page (or the
# RANKED_MAX newest) is found: a few milliseconds for a word many recent posts have. The planner
# takes that walk by itself when the column's statistics say the word is common, assuming its
# posts are spread evenly in time; but a word common in one old game and absent since would then
# walk most of the table (0.9 s at a million posts). So (docs/search.md, "Cost"):
#
# - when the planner expects the newest RECENT_POSTS posts to hold what is wanted, the walk,
#   bounded to them, with the planner's other ways turned off for that one statement (bounded,
#   it would AND both indexes' bitmaps, having no idea what the GIN index's bitmap costs: 174 ms
#   for a word one post in eight has, against 12 ms for the walk);
# - otherwise, or when the window held too few after all, the GIN index over all the posts, in an
#   order the date index cannot give: a cost that grows with the matches, as before issue 30.
#
# Either way the result is exactly the newest matches.
def recent_since() -> datetime | None:
    """The date of the RECENT_POSTS-th newest post (kept RECENT_SECONDS in the cache: any date
    gives the same results, the window only grows a little as posts come), or None when the
    site has fewer posts: then there is no window, and no walk is longer than RECENT_POSTS."""
    key = f"search:recent-since:{RECENT_POSTS}"
    since = cache.get(key)
    if since is None:
        dates = list(Post.objects.order_by("-created_at").values_list("created_at", flat=True)[RECENT_POSTS - 1:RECENT_POSTS])
        since = dates[0] if dates else ""
        cache.set(key, since, RECENT_SECONDS)
    return since or None


def _matching(posts: QuerySet[Post], query: SearchQuery) -> QuerySet[Post]:
    return posts.alias(document=post_vector()).filter(document=query)


def _newest_first(posts: QuerySet[Post], *, walk: bool = True) -> QuerySet[Post]:
    if walk:
        return posts.order_by("-created_at", "-pk")
    # The same order through an expression, which the date index cannot give: the planner finds
    # the matches through the GIN index and sorts them.
    unindexed = ExpressionWrapper(F("created_at") + Value(timedelta(0)), output_field=DateTimeField())
    return posts.order_by(unindexed.desc(), "-pk")


def _estimated_rows(posts: QuerySet[Post]) -> float:
    """The planner's estimate of the rows `posts` holds (from the lexemes' statistics; no scan)."""
    plan = json.loads(posts.order_by().values("pk").explain(format="json"))
    return plan[0]["Plan"]["Plan Rows"]


@contextmanager
def _walking_only():
    """Within: the planner may read a table in an index's order only (no sequential scan, no
    bitmap), for the bounded walk. SET LOCAL, in a transaction of its own; inside another one
    (a savepoint, which would keep the setting for the rest of it), reset at the end; an error
    rolls the setting back with the statement."""
    nested = default_connection.in_atomic_block
    with transaction.atomic(), default_connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off")
        yield
        if nested:
            cursor.execute("RESET enable_seqscan; RESET enable_bitmapscan")


def _in_order(posts: QuerySet[Post], query: SearchQuery, wanted: int, read):
    """`read(matches newest first)` for the first `wanted` matches, by the walk or the GIN index
    (see the comment above). `read` returns (its result, how many matches it saw)."""
    since = recent_since()
    if since is None:  # a small site: the planner's own choice, no walk longer than RECENT_POSTS
        return read(_newest_first(_matching(posts, query)))[0]
    recent = _matching(posts.filter(created_at__gte=since), query)
    if _estimated_rows(recent) >= wanted:
        with _walking_only():
            result, seen = read(_newest_first(recent))
        if seen >= wanted:
            return result
    return read(_newest_first(_matching(posts, query), walk=False))[0]


def _by_date(posts: QuerySet[Post], query: SearchQuery, offset: int, limit: int) -> list[int]:
    """The ids of matches offset..offset+limit, newest first."""
    def read(newest_first):
        ids = list(newest_first.values_list("pk", flat=True)[:offset + limit])
        return ids[offset:], len(ids)
    return _in_order(posts, query, offset + limit, read)


def _by_relevance(posts: QuerySet[Post], query: SearchQuery, offset: int, limit: int) -> list[tuple[int, float]]:
    """(id, rank) of matches offset..offset+limit among the newest RANKED_MAX, best first."""
    return _in_order(posts, query, RANKED_MAX, lambda newest_first: _rank_newest(newest_first, query, offset, limit))


def _rank_newest(newest_first: QuerySet[Post], query: SearchQuery, offset: int, limit: int) -> tuple[list[tuple[int, float]], int]:
    """Rank the first RANKED_MAX of `newest_first` in one statement, from the vectors the scan has
    just read (ranking them again by id cost 2,000 more index lookups: 19 ms against 12 at a
    million posts). Returns the page's (id, rank) and how many matches were ranked (0 when the
    page is past them)."""
    newest = newest_first.annotate(rank=SearchRank(post_vector(), query)).values_list("pk", "created_at", "rank")[:RANKED_MAX]
    sql, params = newest.query.sql_with_params()
    with default_connection.cursor() as cursor:
        cursor.execute(f"SELECT id, rank, count(*) OVER () FROM ({sql}) AS newest (id, created_at, rank) "
                       "ORDER BY rank DESC, created_at DESC, id DESC LIMIT %s OFFSET %s", [*params, limit, offset])
        rows = cursor.fetchall()
    return [(pk, rank) for pk, rank, _among in rows], (rows[0][2] if rows else 0)


def _page_posts(post_ids: list[int], q: str) -> dict[int, Post]:
    """The page's posts by id, each with `headline`: which words of it the query matched, as
    PostgreSQL's stemmer sees them, marked by ts_headline (computed for these posts only: it is
    the costly part). The snippet itself is cut and escaped in Python from the post's text,
    because ts_headline drops anything that looks like an HTML tag (a post may well say
    "<script>" in plain text)."""
    if not post_ids:
        return {}
    clean = Replace(Replace(F("search_text"), Value(_START), Value("")), Value(_STOP), Value(""))
    return (Post.objects.select_related("thread", "author", "shown_author").defer("body", "html")
            .annotate(headline=SearchHeadline(clean, text_query(q), config=SEARCH_CONFIG, start_sel=_START,
                                              stop_sel=_STOP, highlight_all=True))
            .in_bulk(post_ids))


def _thread_hits(*, threads: QuerySet[Thread], q: str, words: list[str], author, full_text: bool) -> list[ThreadHit]:
    found = threads
    if author is not None:
        found = found.filter(created_by=author)
    if full_text:
        found = found.alias(title_document=title_vector()).filter(title_document=text_query(q))
    else:
        found = match_all_words(found, "title", q)
    found = found.order_by(F("last_post_at").desc(nulls_last=True), "-pk")[:THREAD_HITS]
    return [ThreadHit(thread=t, title=highlight(t.title, words)) for t in found]


def explain_post_search(q: str) -> str:
    """The PostgreSQL plan of the post search's filter, for checking that the GIN index serves it."""
    return _matching(Post.objects.filter(is_deleted=False), text_query(q)).only("pk").explain()
