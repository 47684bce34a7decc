"""Search over posts and thread titles, and the folding of text for case-insensitive matching.

Two engines, chosen by the database (docs/search.md):

- **PostgreSQL**: Russian full-text search. The WHERE clause is
  ``to_tsvector('russian'::regconfig, search_text) @@ websearch_to_tsquery('russian'::regconfig, q)``,
  the very expression of the GIN index made by games/migrations/0002 (SEARCH_INDEX), so the
  planner can use it. Ranked by ts_rank, snippets by ts_headline.
- **Anything else** (SQLite, the embedded default): every word of the query must appear in the
  text as a substring, both sides compared after ``fold`` (lower case, ё→е). On SQLite ``fold``
  is a deterministic Python function registered on each connection, because SQLite's lower()
  and LIKE fold ASCII letters only.

What is searched: ``Post.search_text`` (the public plain text of a post, [private] texts left out,
kept by games.services.posts), of posts that are not deleted, in threads the viewer may read
(games.permissions.filter_visible_threads); and the titles of those threads.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.contrib.postgres.search import SearchHeadline, SearchQuery, SearchRank, SearchVector, SearchVectorField
from django.db import connection as default_connection
from django.db.backends.signals import connection_created
from django.db.models import Expression, F, Func, Q, QuerySet, TextField, Value
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
    """A post's stored tsvector (``games_post.search_vector``, PostgreSQL only: a generated column
    kept by the database, migration 0012, with its GIN index). Resolved to a column of whatever
    alias the post table has in the query (a subquery's posts are ``U0``), as Django's own
    columns are; the model does not declare it, since SQLite has no such column."""

    output_field = SearchVectorField()
    _target = SearchVectorField()
    _target.column = "search_vector"

    def resolve_expression(self, query=None, allow_joins=True, reuse=None, summarize=False, for_save=False):
        return Col(query.get_initial_alias(), self._target, self.output_field)


def post_vector() -> Expression:
    """The posts' searchable document: the stored vector (computed once, when the post is written)."""
    return StoredVector()


# Relevance ranks the newest this many matches of a query (a word every post has would otherwise
# rank a million posts for one page): docs/search.md, "Cost".
RANKED_MAX = 2_000


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


def visible_threads(*, user, game: Game | None = None) -> QuerySet[Thread]:
    """The threads whose posts the viewer may find: what games.permissions lets him read,
    narrowed to one game's game, discussion and private threads when asked."""
    threads = permissions.filter_visible_threads(user, Thread.objects.all())
    if game is not None:
        threads = threads.filter(Q(pk__in=[game.game_thread_id, game.discussion_thread_id]) | Q(game=game))
    return threads


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
    threads = visible_threads(user=user, game=game)
    posts = Post.objects.filter(is_deleted=False, thread__in=threads.values("pk"))
    if author is not None:
        posts = permissions.filter_posts_shown_as(posts, author)  # a signed post is its shown author's
    words = query_words(q)
    if full_text:
        query = text_query(q)
        posts = posts.alias(document=post_vector()).filter(document=query).order_by("-created_at", "-pk")
        if sort == SORT_RELEVANCE:
            newest = posts.values("pk")[:RANKED_MAX]
            posts = (Post.objects.filter(pk__in=newest).annotate(rank=SearchRank(post_vector(), query))
                     .order_by("-rank", "-created_at", "-pk"))
    else:
        if not words:
            return SearchResults(page=page, full_text=False)
        posts = match_all_words(posts, "search_text", q).order_by("-created_at", "-pk")
    offset = (page - 1) * per_page
    rows = list(posts.select_related("thread", "author", "shown_author").defer("body", "html")[offset:offset + per_page + 1])
    for post in rows:
        post.shown_user = permissions.shown_author(user, post)  # the author this viewer is shown
    results = SearchResults(page=page, has_next=len(rows) > per_page, full_text=full_text)
    rows = rows[:per_page]
    if full_text:
        matched = _matched_words([p.pk for p in rows], q)
        results.hits = [SearchHit(post=p, snippet=snippet(p.search_text, matched.get(p.pk) or words, whole_words=True),
                                  rank=getattr(p, "rank", None)) for p in rows]
    else:
        results.hits = [SearchHit(post=p, snippet=snippet(p.search_text, words)) for p in rows]
    if page == 1:
        results.threads = _thread_hits(threads=threads, q=q, words=words, author=author, full_text=full_text)
    return results


def _matched_words(post_ids: list[int], q: str) -> dict[int, list[str]]:
    """For the page's posts only (it is the costly part): which words of each post the query
    matched, as PostgreSQL's stemmer sees it, read from ts_headline's marks. The snippet itself
    is cut and escaped in Python from the post's text, because ts_headline drops anything that
    looks like an HTML tag (a post may well say "<script>" in plain text)."""
    if not post_ids:
        return {}
    clean = Replace(Replace(F("search_text"), Value(_START), Value("")), Value(_STOP), Value(""))
    rows = Post.objects.filter(pk__in=post_ids).annotate(headline=SearchHeadline(
        clean, text_query(q), config=SEARCH_CONFIG, start_sel=_START, stop_sel=_STOP, highlight_all=True,
    )).values_list("pk", "headline")
    return {pk: marked_words(headline) for pk, headline in rows}


def _thread_hits(*, threads: QuerySet[Thread], q: str, words: list[str], author, full_text: bool) -> list[ThreadHit]:
    found = Thread.objects.filter(pk__in=threads.values("pk"))
    if author is not None:
        found = found.filter(created_by=author)
    if full_text:
        found = found.alias(title_document=SearchVector("title", config=SEARCH_CONFIG)).filter(title_document=text_query(q))
    else:
        found = match_all_words(found, "title", q)
    found = found.order_by(F("last_post_at").desc(nulls_last=True), "-pk")[:THREAD_HITS]
    return [ThreadHit(thread=t, title=highlight(t.title, words)) for t in found]


def explain_post_search(q: str) -> str:
    """The PostgreSQL plan of the post search's filter, for checking that the GIN index serves it."""
    posts = Post.objects.filter(is_deleted=False).alias(document=post_vector()).filter(document=text_query(q))
    return posts.only("pk").explain()
