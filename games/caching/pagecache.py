"""The thread page's caches (docs/architecture.md, "The thread page cache").

Two layers, both in the shared cache:

1. **The post list** of a page (the `<li>` of every post, the expensive part to render: 25 to
   100 posts through the template engine), shared by every viewer of the same *class*: the same
   language, time zone, moderator or not, may post or not, shown the true authors of posts signed
   with another name or not (games.permissions.can_see_true_author), and, only for a page holding
   `[private]` messages, the same private-text audience (everyone after the game and the GMs;
   else each seat alone; else nobody). What differs per viewer inside the list (the Report and
   Edit links, the CSRF token of the moderators' forms, the "just posted" mark) is left as a
   placeholder and filled per request from the posts' numbers kept beside the HTML.
2. **The whole page** of one browser session (a reload of the same URL by the same browser):
   answered by `games.caching.middleware.ThreadPageCacheMiddleware` before the rest of the middleware
   runs, with no SQL query and no template, as long as the session is the one the page was
   rendered for, nothing it shows was written since, and none of its clocks ran out (a
   scheduled lock, an edit window, a ban's end, at most `PAGE_SECONDS`).

Under the post list, each post's `<li>` is kept alone by what it shows ("Layer 0" below): a list
out of date is rebuilt from them, rendering only the posts a write changed. Between the two, the
page's frame (the page without its post list, pagination, poll marker and first-unread link) is
kept per browser session across posts ("Layer 1: the frame").

The post list is keyed by the thread's *posts* counter, not its thread counter: a new post moves
only the latter, so the list kept before it stays true for the posts it covers and grows by the
posts added since (`PostList.high`, `PostList.extended`): after a post the page reads and renders
that post alone. Reads that only a write the counters see can change (the thread's row but its
post count, the game with its GM and phase, the roster, the co-GMs, the bell, the replaced
names, the session's user, the reader's read mark) are kept with the counters' values they were
read under (`kept_value`, `kept_user`) and fetched with the counters in one round trip
(`read_stamps`); the frame and its post list in a second one. A page after a post in its thread
then makes one query (the post count) and five round trips to the cache (the middleware's
lookup, the session, the counters with the kept reads, the frame with its list, the page kept).

**Invalidation: write counters, scoped.** A wrapper on every database connection (`install`,
from GamesConfig.ready) watches the SQL each process sends. Each INSERT, UPDATE or DELETE bumps
counters in the cache, right after the statement and again when its transaction commits (the
first for the writing connection itself and for tests, which never commit; the second so that a
page rendered from the data before the commit is never kept under the new counter). A
transaction's commit bumps go together, in one round trip, with the entries written when it
commits (`CommitBumps`, `set_on_commit`); a block after which nothing reads the page cache until
the commit leaves its statement-time bumps to that round trip (`bumps_held`). Which
counters depends on the table written and on what the code around it declared (`writing`):

- `thread:<pk>`: the posts, revisions and private messages of that thread and its own row,
  written inside `writing(thread=pk)` (post_create).
- `posts:<pk>` (`posts_key`): the same writes but a new post's own (its INSERT, the thread's count
  moved: `_appends`), which leave the posts before it as they were. `changed(thread=)` moves both;
  `posted(thread=)` only the thread's, as a post does.
- `game:<pk>`: the game's state (the game row, phases, votes, orders, seats, events, bans, ...)
  and the rows of its threads, written inside `writing(game=pk)` (post_submit's votes,
  phase_open, phase_close, order_submit).
- `user:<pk>`: a user's notifications (the bell), inside `writing(users=...)` (notify).
- `marks:<pk>` (`marks_key`): a reader's read marks, moved inside `writing(read_marks=pk)` (the
  thread page's own marking); `marks` (`MARKS_KEY`): a read mark nobody declared (every reader's
  kept mark is read again). No page is stamped with them: the kept read mark alone.
- `site`: every other write, and every write the code around it did not place: a write nobody
  declared invalidates every page (the fallback is always correct, only slower).
- `games` (`GAMES_KEY`): besides the above, any write to the games' own table (or a statement
  the watcher cannot place); no page is stamped with it, the games list's kept counts are. Writes to the
  sessions and a login's `last_login` change no counter.

A page of thread T of game G seen by user U is stamped with (site, thread:T, game:G, user:U),
read before the data it shows; its post list with (site, posts:T, game:G). A post in one game
leaves the pages of every other game (and the other threads of its own game) cached.
"""

from __future__ import annotations

import functools
import hashlib
import re
import time
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from django.conf import settings
from django.core.cache import DEFAULT_CACHE_ALIAS, cache, caches
from django.core.exceptions import DisallowedHost
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.http import HttpResponse
from django.urls import reverse
from django.utils import timezone, translation

from games import models as m
from games import permissions
from games.models import Phase
from games.permissions import has_private_messages

SITE_KEY = "pagecache:gen:site"
PAGE_SECONDS = 300  # the longest a whole page is kept (and served, if nothing changed)
LIST_SECONDS = 3600


def thread_key(pk: int) -> str:
    return f"pagecache:gen:t:{pk}"


def game_key(pk: int) -> str:
    return f"pagecache:gen:g:{pk}"


def user_key(pk: int) -> str:
    return f"pagecache:gen:u:{pk}"


def votes_key(pk: int) -> str:
    """Game `pk`'s vote ledger: its lines written inside `writing(game=pk)` (a post's votes, a GM's
    correction) move this counter instead of the game's, since nothing else a page shows is made
    from them: the whole page and its frame (which show the count box) are stamped with it, the
    post list, the kept reads of the game and the region an htmx reply answers with (which show
    no count) are not, so that a vote leaves them kept."""
    return f"pagecache:gen:v:{pk}"


def posts_key(pk: int) -> str:
    """Thread `pk`'s posts as they stand: moved by every write to the thread's rows but a new
    post's (its INSERT and the thread's count), so that a post list kept under it grows by the
    posts added since instead of being read and rendered again (`_post_list` in games/views/forum.py)."""
    return f"pagecache:gen:p:{pk}"


# Every game's row (its status, rule set, title): moved by any write to the games' table (an
# INSERT, a status or phase change, a DELETE, an undeclared statement), whatever its frame. The
# games list's tab counts are kept under it (games.selectors.game_status_counts, issue 30).
GAMES_KEY = "pagecache:gen:games"

# The read marks ("first unread"): a reader's own, moved by the writes declared as his
# (`writing(read_marks=...)`), and every reader's, moved by a write to them nobody declared.
MARKS_KEY = "pagecache:gen:marks"


def marks_key(pk: int) -> str:
    return f"pagecache:gen:m:{pk}"


# --- The counters ------------------------------------------------------------------------------
def _start() -> int:
    # A counter that is lost (the cache was cleared, Redis restarted or evicted it) must not
    # restart at a value that stamped an older entry: start it from the clock, in microseconds
    # (an old value is ahead of the clock only after more than a million bumps a second).
    return time.time_ns() // 1000


def _bump(key: str) -> None:
    try:
        cache.incr(key)
    except ValueError:
        cache.add(key, _start(), timeout=None)
        try:
            cache.incr(key)
        except ValueError:
            pass


def _bump_many(keys, sets: dict | None = None) -> None:
    """Bump each counter once: in one round trip where the cache can (config.cache's `incr_many`:
    a post moves two or three at once), a missing one started as `_bump` starts it. `sets`:
    {key: (value, timeout)} written in the same round trip."""
    keys = list(dict.fromkeys(keys))
    incr_many = getattr(cache, "incr_many", None)
    if incr_many is None or (len(keys) < 2 and not sets):
        for key in keys:
            _bump(key)
        if sets:
            set_each(sets)
        return
    found = incr_many(keys, sets=sets) if sets else incr_many(keys)
    for key in keys:
        if key not in found:
            _bump(key)


def generations(keys) -> dict[str, int]:
    """The current value of each counter (a missing one is started)."""
    keys = list(keys)
    found = cache.get_many(keys)
    for key in keys:
        if found.get(key) is None:
            value = _start()
            if not cache.add(key, value, timeout=None):
                value = cache.get(key) or value
            found[key] = value
    return found


def generation(key: str) -> int:
    return generations([key])[key]


def changed(*, thread: int | None = None, game: int | None = None, user: int | None = None, **_ignored) -> None:
    """Invalidate by hand: the pages of one thread, game or user, or with no argument every page
    (what the SQL watcher does for a write it cannot place)."""
    keys = [thread_key(thread), posts_key(thread)] if thread else []
    keys += [game_key(game)] if game else []
    keys += [user_key(user)] if user else []
    for key in keys or [SITE_KEY]:
        _bump(key)


def changed_games() -> None:
    """Invalidate by hand what is kept under the games counter (the games list's counts)."""
    _bump(GAMES_KEY)


def posted(*, thread: int) -> None:
    """What a new post in `thread` moves (its INSERT and the thread's count, `placement`): the
    thread's counter, not its posts' (the posts before it are as they were). The benchmark's
    stand-in for a post (bench/__main__.py, WritesMeanwhile)."""
    _bump(thread_key(thread))


# --- Where a write belongs ---------------------------------------------------------------------
def _user_ids(users) -> tuple[int, ...]:
    """users, user ids, or a queryset of users or user ids (values or values_list)."""
    ids = set()
    for item in users:
        if isinstance(item, dict):
            item = next(iter(item.values()), None)
        elif isinstance(item, tuple):
            item = item[0] if item else None
        item = getattr(item, "pk", item)
        if item is not None:
            ids.add(int(item))
    return tuple(sorted(ids))


@dataclass(frozen=True)
class _Frame:
    thread: int | None = None
    game: int | None = None
    users: tuple[int, ...] | None = None
    read_marks: int | None = None


_frames: ContextVar[tuple[_Frame, ...]] = ContextVar("pagecache_frames", default=())


def _pk(value) -> int | None:
    value = getattr(value, "pk", value)
    return int(value) if value is not None else None


@contextmanager
def writing(*, thread=None, game=None, users=None, read_marks=None):
    """Declare what the writes inside belong to: `thread` (a thread or its id) for the rows of
    that thread alone (its posts, revisions, private messages, its own row); `game` for the
    game's state and the rows of its threads; `users` (users, ids, or a queryset of ids) for
    their notifications; `read_marks` (a user or his id) for his read marks. Only what is
    declared is placed; any other write inside still bumps the site counter (a read mark nobody
    declared: every reader's marks counter). Frames nest: the innermost one that covers a table
    places its writes."""
    frame = _Frame(thread=_pk(thread), game=_pk(game), users=_user_ids(users) if users is not None else None,
                   read_marks=_pk(read_marks))
    token = _frames.set((*_frames.get(), frame))
    try:
        yield
    finally:
        _frames.reset(token)


def game_scoped(resolve):
    """Decorator for a service whose writes all belong to one game: `resolve(kwargs)` names the
    game (an instance or an id) from the service's keyword arguments."""
    def decorator(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with writing(game=resolve(kwargs)):
                return func(*args, **kwargs)
        return wrapper
    return decorator


def game_of_phase(phase_id) -> int | None:

    return Phase.objects.filter(pk=phase_id).values_list("game_id", flat=True).first()


THREAD, GAME, USER, IGNORED, USER_ROW, READ_MARK = "thread", "game", "user", "ignored", "user row", "read mark"


@functools.cache
def _categories() -> dict[str, str]:
    """Quoted table name -> what its rows belong to (the apps are loaded when the first
    statement runs)."""
    from django.contrib.auth import get_user_model
    from django.contrib.sessions.models import Session


    def tables(*models):
        return [f'"{model._meta.db_table}"' for model in models]

    out = {}
    for table in tables(m.Thread, m.Thread.members.through, m.Post, m.PostRevision, m.PrivateMessage):
        out[table] = THREAD
    for table in tables(m.Game, m.Game.co_gms.through, m.Seat, m.Phase, m.VoteRecord, m.Order, m.GameEvent,
                        m.GMAction, m.Replacement, m.GameBan, m.Prod, m.AnonymousMessage, m.RoomProposal,
                        m.BestPlayerVote, m.RatingDecision):
        out[table] = GAME
    out.update(dict.fromkeys(tables(m.Notification), USER))
    out.update(dict.fromkeys(tables(Session), IGNORED))
    out.update(dict.fromkeys(tables(m.ThreadReadMark), READ_MARK))  # no page's counter: the kept read mark's
    out.update(dict.fromkeys(tables(get_user_model()), USER_ROW))  # names, avatars, bans: every page
    return out


# Statements that may write, and how to find the table of the usual ones.
_WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE", "TRUNCATE", "MERGE", "COPY", "WITH", "ALTER", "DROP", "CREATE")
_TARGET_RE = re.compile(r'\s*(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|UPDATE|DELETE\s+FROM)\s+("[\w.]+"|[\w.]+)', re.I)
_SET_RE = re.compile(r'"(\w+)" = %s(?:, "(\w+)" = %s)*$')
# A user's columns that no page shows (a login's bookkeeping, the digest's clock).
_UNSHOWN_USER_COLUMNS = {"last_login", "last_digest_at"}


def _target(sql: str) -> str | None:
    """The quoted table a write statement writes to, or None when it cannot tell."""
    match = _TARGET_RE.match(sql)
    if not match:
        return None
    table = match.group(1)
    return table if table.startswith('"') else f'"{table}"'


def _unshown_user_update(sql: str) -> bool:
    """UPDATE "<users>" SET "last_login" = %s WHERE ...: nothing a page shows."""
    head, sep, rest = sql.partition(" SET ")
    if not sep or not head.lstrip().upper().startswith("UPDATE"):
        return False
    clause = rest.split(" WHERE ", 1)[0]
    if not _SET_RE.match(clause):
        return False
    columns = set(re.findall(r'"(\w+)" = %s', clause))
    return bool(columns) and columns <= _UNSHOWN_USER_COLUMNS


# A new post's own writes (post_store): its row, and the thread's count moved. The posts before it
# are unchanged by them, so they leave the thread's posts counter (`posts_key`) where it was.
_POST_INSERT = 'INSERT INTO "games_post" '
_COUNT_UPDATE = 'UPDATE "games_thread" SET "post_count" = ("games_thread"."post_count" + %s), "last_post_at" = %s WHERE '


def _appends(sql: str) -> bool:
    return sql.startswith(_POST_INSERT) or sql.startswith(_COUNT_UPDATE)


def count_update_sql() -> str:
    """The statement that counts a new post in its thread (params: 1, the post's time, the
    thread's id), as the ORM writes it: the posting path sends it as it is (issue 30 part 3:
    the ORM's query building cost more than the statement), placed as a new post's own write."""
    return _COUNT_UPDATE + '"games_thread"."id" = %s'


def placement(sql: str) -> tuple[str, ...]:
    """The counters one SQL statement bumps, given the frames declared around it; a write to the
    games' own rows moves the games counter too (`GAMES_KEY`), whatever else it moves."""
    if not sql.lstrip()[:8].upper().startswith(_WRITES):
        return ()
    table = _target(sql)
    placed = _placed(sql, table)
    return (*placed, GAMES_KEY) if table == _games_table() or table is None else placed


@functools.cache
def _games_table() -> str:
    return f'"{m.Game._meta.db_table}"'


def _placed(sql: str, table: str | None) -> tuple[str, ...]:
    category = _categories().get(table) if table else None
    if category == IGNORED:
        return ()
    if category == USER_ROW:
        return () if _unshown_user_update(sql) else (SITE_KEY,)
    if category == READ_MARK:
        for frame in reversed(_frames.get()):
            if frame.read_marks is not None:
                return (marks_key(frame.read_marks),)
        return (MARKS_KEY,)
    if category is not None:
        for frame in reversed(_frames.get()):
            if category == THREAD and frame.thread is not None:
                if _appends(sql):
                    return (thread_key(frame.thread),)
                return (thread_key(frame.thread), posts_key(frame.thread))
            if category in (THREAD, GAME) and frame.game is not None:
                if table == _ledger_table():
                    return (votes_key(frame.game),)
                return (game_key(frame.game),)
            if category == USER and frame.users is not None:
                return tuple(user_key(pk) for pk in frame.users)
    return (SITE_KEY,)


@functools.cache
def _ledger_table() -> str:
    return f'"{m.VoteRecord._meta.db_table}"'


class CommitBumps:
    """What one connection's transaction does to the cache when it commits: the counters it moved
    bumped again, all together (`_bump_many`, one round trip), with the entries `set_on_commit`
    writes then, from one on-commit callback registered by the transaction's first write (a
    savepoint rolled back with it discards it; the next write registers it again: an extra bump
    is never wrong, a missing one would be)."""

    __slots__ = ("connection", "keys", "sets", "then", "spent")

    def __init__(self, connection):
        self.connection = connection
        self.keys: set[str] = set()
        self.sets: dict[str, tuple] = {}
        self.then: list = []
        self.spent = False  # called since registered (a test's on-commit capture leaves it listed)

    def registered(self) -> bool:
        return not self.spent and any(entry[1] is self for entry in self.connection.run_on_commit)

    def _register(self) -> None:
        if not self.registered():
            # what a transaction rolled back left here was never committed
            self.keys, self.sets, self.then = set(), {}, []
            self.spent = False
            transaction.on_commit(self, using=self.connection.alias)

    def add(self, keys) -> None:
        self._register()
        self.keys.update(keys)

    def add_set(self, key: str, value, timeout, then) -> None:
        self._register()
        self.sets[key] = (value, timeout)
        if then is not None:
            self.then.append(then)

    def __call__(self) -> None:
        keys, sets, then = self.keys, self.sets, self.then
        self.keys, self.sets, self.then = set(), {}, []
        self.spent = True
        _bump_many(sorted(keys), sets)
        for func in then:
            func()


def _commit_bumps(connection) -> CommitBumps | None:
    for wrapper in connection.execute_wrappers:
        found = getattr(wrapper, "commit_bumps", None)
        if found is not None:
            return found
    return None


def set_on_commit(key: str, value, timeout, *, then=None, using: str = DEFAULT_DB_ALIAS) -> None:
    """Write a cache entry when the current transaction commits, then call `then` (the process's
    own memory of it): in the round trip that bumps the transaction's counters again when no
    savepoint is open (a post's: the poll's state, the ISO picker's authors); inside a savepoint,
    which may be rolled back alone, as transaction.on_commit does (its callbacks go with it).
    Outside a transaction: now."""
    connection = connections[using]
    commit = _commit_bumps(connection)
    if (connection.in_atomic_block and commit is not None
            and all(sid is None for sid in connection.savepoint_ids)):
        commit.add_set(key, value, timeout, then)
        return

    def write():
        cache.set(key, value, timeout=timeout)
        if then is not None:
            then()

    transaction.on_commit(write, using=using)


def bump_on_commit(key: str, *, using: str = DEFAULT_DB_ALIAS) -> None:
    """Bump a counter (not a write's: another version kept in the cache, such as a day's count's)
    when the current transaction commits: with its counters (one round trip) when no savepoint is
    open, as set_on_commit; else as transaction.on_commit does. A missing counter is started from
    the clock and bumped (`_bump`). Outside a transaction: now."""
    connection = connections[using]
    commit = _commit_bumps(connection)
    if (connection.in_atomic_block and commit is not None
            and all(sid is None for sid in connection.savepoint_ids)):
        commit.add((key,))
        return
    transaction.on_commit(functools.partial(_bump, key), using=using)


# The statement-time bumps held by `bumps_held` (None: sent after each statement).
_held: ContextVar[set | None] = ContextVar("pagecache_held", default=None)


@contextmanager
def bumps_held(*, using: str = DEFAULT_DB_ALIAS):
    """Hold the statement-time bumps of the writes inside. Only around writes after which nothing
    reads the page cache until their transaction commits (the posting path: a service, and no
    service reads the page cache, only views do): such a read would see them under counters not
    moved yet.

    The statement-time bump is for a reader in the writing transaction itself (other processes
    cannot see the writes before the commit, and the commit bumps every counter again: the
    window between a commit and its bump is the same with or without it). So when the block's
    transaction is one that commits when its outermost block ends (no savepoint open, which
    could be rolled back alone), the held bumps are simply left to the commit's (CommitBumps:
    one round trip for the transaction, none while its rows are locked); otherwise (a savepoint,
    a test's transaction that never commits, autocommit) they are sent together when the block
    ends. A block inside another joins it."""
    if _held.get() is not None:
        yield
        return
    held: set[str] = set()
    token = _held.set(held)
    try:
        yield
    finally:
        _held.reset(token)
        connection = connections[using]
        left_to_commit = (connection.in_atomic_block and connection.commit_on_exit
                          and all(sid is None for sid in connection.savepoint_ids)
                          and (commit := _commit_bumps(connection)) is not None and commit.registered()
                          and held <= commit.keys)
        if held and not left_to_commit:
            _bump_many(sorted(held))


def _after_write(connection, keys, commit: CommitBumps) -> None:
    held = _held.get()
    if held is not None:
        held.update(keys)
    else:
        _bump_many(keys)
    if not connection.in_atomic_block:
        return  # autocommit: the statement is committed already, and was bumped after it
    commit.add(keys)


def _watcher(connection):
    commit = CommitBumps(connection)

    def watch(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if isinstance(sql, str):
            keys = placement(sql)
            if keys:
                _after_write(connection, keys, commit)
        return result

    watch.commit_bumps = commit
    watch.pagecache = True
    return watch


def _install_on(connection) -> None:
    if not any(getattr(w, "pagecache", False) for w in connection.execute_wrappers):
        connection.execute_wrappers.append(_watcher(connection))


def install() -> None:
    """Watch the writes of every database connection of this process (GamesConfig.ready)."""
    from django.db import connections
    from django.db.backends.signals import connection_created

    connection_created.connect(_connection_created, dispatch_uid="games.caching.pagecache")
    for connection in connections.all(initialized_only=True):
        _install_on(connection)


def _connection_created(sender, connection, **kwargs):
    _install_on(connection)


# --- What a thread page is stamped with ---------------------------------------------------------
# Per process, what never changes: a thread's game (None: a standalone thread), a session's user.
_thread_games: dict[int, int | None] = {}
_session_users: dict[str, int | None] = {}
_MEMO_MAX = 50_000


def _remember(memo: dict, key, value) -> None:
    if len(memo) >= _MEMO_MAX:
        memo.clear()
    memo[key] = value


@dataclass
class Stamps:
    """The counters a thread page depends on, read before the data they stamp, and the kept reads
    fetched with them (`read_stamps`: one round trip to the cache). A page that is not a thread's
    (`read_page_stamps`) has no thread: `thread_id` None."""
    thread_id: int | None
    values: dict[str, int] = field(default_factory=dict)
    game_id: int | None = None
    game_known: bool = False  # False: the thread's game was not known when the counters were read
    user_id: int | None = None
    kept: dict[str, object] = field(default_factory=dict)  # kept reads fetched with the counters, by key
    fetched: dict[str, object] = field(default_factory=dict)  # other cache entries fetched with them (None: absent)

    @property
    def list_part(self) -> str:
        keys = [SITE_KEY, posts_key(self.thread_id)] + ([game_key(self.game_id)] if self.game_id else [])
        return "|".join(str(self.values.get(key)) for key in keys)

    def page_values(self) -> dict[str, int]:
        """The counters a whole page (Layer 2) is stamped with: the site's, the thread's, its
        game's and the viewer's. Not the posts' (every write that moves it moves the thread's)
        nor the read marks' (no counter of a page; the kept read mark's alone)."""
        return {key: value for key, value in self.values.items() if not key.startswith(_NOT_PAGE_PREFIXES)}


_NOT_PAGE_PREFIXES = ("pagecache:gen:p:", "pagecache:gen:m:", MARKS_KEY)


def _session_user_id(request) -> int | None:
    from django.contrib.auth import SESSION_KEY

    session = getattr(request, "session", None)
    try:
        value = session.get(SESSION_KEY) if session is not None else None
        return int(value) if value is not None else None
    except (TypeError, ValueError):
        return None


session_user_id = _session_user_id  # the session's user id without loading the user (views.access.kept_viewer)


def _kept_key(name: str) -> str:
    return f"pagecache:value:{_digest(name)}"


def read_stamps(request, thread_id: int, *, prefetch: tuple[str, ...] = (), fetch: tuple[str, ...] = ()) -> Stamps:
    """The page's counters, read first thing (before the thread, the game or the posts), in one
    round trip with the kept reads named in `prefetch` (`kept_value`'s names; "{game}" and
    "{user}" in a name stand for this thread's game and the session's user, a name whose id is
    not known yet is left out), the session's kept user (`kept_user`) and the viewer's kept read
    mark of this thread. `fetch`: other cache keys read in the same round trip (`Stamps.fetched`)."""
    stamps = Stamps(thread_id=thread_id)
    keys = [SITE_KEY, thread_key(thread_id), posts_key(thread_id)]
    if thread_id in _thread_games:
        stamps.game_known, stamps.game_id = True, _thread_games[thread_id]
        if stamps.game_id:
            keys += [game_key(stamps.game_id), votes_key(stamps.game_id)]
    stamps.user_id = _session_user_id(request)
    if stamps.user_id is not None:
        keys += [user_key(stamps.user_id), MARKS_KEY, marks_key(stamps.user_id)]
    kept = _prefetched(stamps, prefetch)
    if stamps.user_id is not None:
        kept.append(_kept_key(f"read-mark:{thread_id}:{stamps.user_id}"))
    return _fetch_stamps(stamps, keys, kept, fetch)


def read_page_stamps(request, *, game_id: int | None = None, prefetch: tuple[str, ...] = ()) -> Stamps:
    """read_stamps for a page that is not a thread's (the desk, a game's GM dashboard, archive and
    replay; issue 30): the counters of the site, of the game `game_id` and its vote ledger, and of
    the session's user, in one round trip with the session's kept user (`kept_user`), his kept
    bell (`unread:{user}`, the thread page's own) and the kept reads named in `prefetch`."""
    stamps = Stamps(thread_id=None, game_id=game_id, game_known=True)
    keys = [SITE_KEY]
    if game_id:
        keys += [game_key(game_id), votes_key(game_id)]
    stamps.user_id = _session_user_id(request)
    if stamps.user_id is not None:
        keys.append(user_key(stamps.user_id))
    return _fetch_stamps(stamps, keys, _prefetched(stamps, (*prefetch, BELL_READ)), ())


# The bell's count of unread notifications, kept under the site's and the user's counters (a
# notification is written inside `writing(users=...)`, his row's changes move the site's).
BELL_READ = "unread:{user}"


def _prefetched(stamps: Stamps, prefetch: tuple[str, ...]) -> list[str]:
    """The cache keys of the kept reads `prefetch` names ("{game}", "{user}", "{thread}" filled in;
    a name whose id is not known is left out) and of the session's kept user."""
    kept = []
    for name in prefetch:
        if ("{game}" in name and not stamps.game_id) or ("{user}" in name and stamps.user_id is None) \
                or ("{thread}" in name and stamps.thread_id is None):
            continue
        kept.append(_kept_key(name.format(game=stamps.game_id, user=stamps.user_id, thread=stamps.thread_id)))
    if stamps.user_id is not None:
        kept.append(_kept_key(f"user:{stamps.user_id}"))
    return kept


def _fetch_stamps(stamps: Stamps, keys: list[str], kept: list[str], fetch) -> Stamps:
    found = cache.get_many(keys + kept + list(fetch))
    stamps.kept = {key: found[key] for key in kept if key in found}
    stamps.fetched = {key: found.get(key) for key in fetch}
    for key in keys:
        value = found.get(key)
        if value is None:
            value = _start()
            if not cache.add(key, value, timeout=None):
                value = cache.get(key) or value
        stamps.values[key] = value
    return stamps


def complete_stamps(stamps: Stamps, game) -> None:
    """Once the thread is loaded: its game. If the game was not known beforehand, its counter is
    read now: good for the post list (whose key names the game's GM, and which reads the rest of
    the game after this) but not for a whole page (it showed the game as read before), which is
    then not kept (`Stamps.game_known`)."""
    game_id = game.pk if game is not None else None
    _remember(_thread_games, stamps.thread_id, game_id)
    if stamps.game_known and stamps.game_id == game_id:
        return
    stamps.game_known = game_id is None  # a thread's game never changes: with none, none was needed
    stamps.game_id = game_id
    if game_id:
        stamps.values.update(generations([game_key(game_id), votes_key(game_id)]))


# --- Reads kept under the counters --------------------------------------------------------------
VALUE_SECONDS = 3600
_MISSING = object()


def _scope_keys(stamps: Stamps, scopes: tuple[str, ...]) -> list[str] | None:
    thread = stamps.thread_id
    keys = {"site": SITE_KEY, "thread": thread_key(thread) if thread is not None else None,
            "posts": posts_key(thread) if thread is not None else None,
            "game": game_key(stamps.game_id) if stamps.game_id else None,
            "votes": votes_key(stamps.game_id) if stamps.game_id else None,
            "user": user_key(stamps.user_id) if stamps.user_id is not None else None,
            "marks": MARKS_KEY if stamps.user_id is not None else None,
            "own marks": marks_key(stamps.user_id) if stamps.user_id is not None else None}
    out = [keys[scope] for scope in scopes]
    return None if None in out or any(key not in stamps.values for key in out) else out


def kept_value(name: str, stamps: Stamps, scopes: tuple[str, ...], compute):
    """A page's read that only a write its counters see can change, kept with their values as
    read before the data (`stamps`): `scopes` names them ("site", "thread", "posts", "game",
    "votes", "user", "marks", "own marks"); a counter the stamps lack means no keeping (computed every
    time). `name` says what is read and for whom (ids); the entry is kept under the name and
    holds the counters' values it was read under: used only while they are the current ones
    (read again after any write those counters see, never served stale). Fetched with the
    counters when `read_stamps` was asked to (`prefetch`), else one cache read."""
    keys = _scope_keys(stamps, scopes)
    if keys is None:
        return compute()
    now = tuple(stamps.values[key] for key in keys)
    key = _kept_key(name)
    found = stamps.kept.get(key, _MISSING)
    if found is _MISSING:
        found = cache.get(key, _MISSING)
    if found is not _MISSING and isinstance(found, tuple) and len(found) == 2 and found[0] == (tuple(keys), now):
        return found[1]
    value = compute()
    cache.set(key, ((tuple(keys), now), value), timeout=VALUE_SECONDS)
    return value


def kept_user(request, stamps: Stamps) -> None:
    """The session's user from the cache instead of the database, when the request has not
    loaded him yet: Django's `auth.get_user` (the session's back end, its `get_user`, the
    session's hash checked against the user's) with the back end's answer kept under the site
    counter, which every write to a user's row moves (a name, a password, a ban, the moderators'
    group; not `last_login`, which no page shows). Anything but an exact match of the session's
    hash is left to Django's own path (the fallback secrets, a flushed session)."""
    # Django's auth helpers, imported where the request's user is made (as auth.get_user does).
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, load_backend
    from django.utils.crypto import constant_time_compare

    if stamps.user_id is None or hasattr(request, "_cached_user") or SITE_KEY not in stamps.values:
        return
    session = request.session
    backend_path, session_hash = session.get(BACKEND_SESSION_KEY), session.get(HASH_SESSION_KEY)
    if backend_path not in settings.AUTHENTICATION_BACKENDS or not session_hash:
        return
    key = _kept_key(f"user:{stamps.user_id}")
    now = ((SITE_KEY,), (stamps.values[SITE_KEY],))
    found = stamps.kept.get(key)
    if isinstance(found, tuple) and len(found) == 3 and found[0] == now and found[1] == backend_path:
        user = found[2]
    else:
        user = load_backend(backend_path).get_user(stamps.user_id)
        if user is None:
            return
        cache.set(key, (now, backend_path, user), timeout=VALUE_SECONDS)
    if user.pk == stamps.user_id and constant_time_compare(session_hash, _session_auth_hash(user)):
        request._cached_user = user  # what django.contrib.auth.middleware.get_user returns from now on
        # The user himself rather than the lazy object the auth middleware put there: every read
        # of an attribute through it costs two calls, and a reply reads the user's hundreds of times.
        request.user = user


# Per process, the session hash of each password hash seen: a keyed digest of it (Django's
# get_session_auth_hash, a function of the password's hash and the secret key alone).
_auth_hashes: dict[tuple[str, str], str] = {}


def _session_auth_hash(user) -> str:
    # Django's user model base, imported where the request's user is checked (as kept_user's helpers).
    from django.contrib.auth.base_user import AbstractBaseUser

    if type(user).get_session_auth_hash is not AbstractBaseUser.get_session_auth_hash:
        return user.get_session_auth_hash()  # a model's own: not known to depend on the password alone
    key = (user.password, type(user).__qualname__)
    found = _auth_hashes.get(key)
    if found is None:
        if len(_auth_hashes) > _MEMO_MAX:
            _auth_hashes.clear()
        found = _auth_hashes[key] = user.get_session_auth_hash()
    return found


# --- Layer 0: each post's <li> ------------------------------------------------------------------
# A page whose post list is out of date (any post, vote or phase of its game moves the counters
# that key the list) is rebuilt from the posts' own fragments: a write re-renders the posts it
# changed, not the 25 of the page. A fragment is keyed by everything its HTML is made of, read
# from the rows of this very request (never by a counter): the post's HTML as this viewer sees it
# (a digest: an edit, a re-render, the [private] texts he may read), its number, times, edit count,
# hidden state and reason, comment, author (id, name, avatar), the names he replaced, whether its
# body is shown; and the page's shared context (viewer class, the game's GM, the URLs, the vote
# link), the language, the time zone, the template and the catalogues. What differs per viewer
# inside stays a placeholder (the actions, the CSRF token), as in the list.
FRAGMENT_SECONDS = 6 * 3600
FRAGMENT_MARK = "<!--pc-post-->"
# Bump when code that shapes a post's <li> changes outside the template (its tags and filters).
FRAGMENT_VERSION = 1


@functools.cache
def _fragment_code_version() -> str:
    """The post list template's source and the compiled catalogues' sizes and times: a deploy
    that changes either never serves a fragment made by the old one."""
    from pathlib import Path

    from django.template.loader import get_template

    parts = [str(FRAGMENT_VERSION), settings.MEDIA_URL, get_template("games/_post_list.html").template.source]
    for folder in settings.LOCALE_PATHS:
        for path in sorted(Path(folder).glob("*/LC_MESSAGES/*.mo")):
            stat = path.stat()
            parts.append(f"{path}:{stat.st_size}:{stat.st_mtime_ns}")
    return _digest("|".join(parts))


def fragment_shared(context: dict) -> str:
    """The part of every fragment key that the page's context, language and time zone make: one
    digest per page (the context is the list template's, without its posts)."""
    items = sorted((name, str(getattr(value, "pk", value))) for name, value in context.items() if name != "posts")
    return _digest("|".join([_fragment_code_version(), translation.get_language() or "",
                             timezone.get_current_timezone_name(), repr(items)]))


def fragment_key(post, shared: str) -> str:
    """The key of one post's <li>: every field of the post and its author that the template reads."""
    author = getattr(post, "shown_user", None) or post.author  # the author this viewer class is shown
    signed = getattr(post, "signed_as", None)  # the name a post was signed with, shown to the truth's viewers
    parts = (post.pk, post.thread_id, post.number, post.created_at.isoformat(), post.edit_count,
             post.edited_at.isoformat() if post.edited_at else "", post.is_deleted, post.deleted_reason, post.comment,
             author.pk, author.display_name, author.avatar.name or "", signed.display_name if signed else "",
             tuple(post.replaced_names),
             bool(post.body_visible), _digest(post.html) if post.body_visible else "")
    return f"pagecache:post:{_digest(shared + chr(31) + repr(parts))}"


_fragment_edges: dict[str, tuple[str, str]] = {}  # the list template's text around its posts


def fragment_pieces(posts: list, context: dict, render, *, new: bool = False,
                    defer: dict | None = None) -> tuple[str, list[str], str] | None:
    """The post list of `posts` (prepared for the template) cut into (the text before the posts,
    each post's <li>, the text after): each <li> from the cache when kept, the others rendered
    together by `render(context)` and kept. None when the list cannot be cut (no post, or a post
    whose own text holds the marker): then it is rendered whole. `new`: the posts were stored by
    this request (the reply's post), so none has a kept <li> (its key holds its id): not looked
    up. `defer`: the <li> made are put there ({key: (value, timeout)}) for the caller to write
    with its own entries (`set_each`: one round trip) instead of being written now."""
    if not posts:
        return None
    shared = fragment_shared(context)
    keys = [fragment_key(post, shared) for post in posts]
    found = {} if new else cache.get_many(keys)
    version = _fragment_code_version()
    missing = [(key, post) for key, post in zip(keys, posts) if key not in found]
    if not missing and version not in _fragment_edges:
        missing = [(keys[0], posts[0])]  # this process has not yet seen the text around the posts
    if missing:
        html = render({**context, "posts": [post for _key, post in missing], "split": True})
        pieces = html.split(FRAGMENT_MARK)
        if len(pieces) != len(missing) + 2:  # a post whose own text holds the marker: never cut
            return None
        _fragment_edges[version] = (pieces[0], pieces[-1])
        made = {key: piece for (key, _post), piece in zip(missing, pieces[1:-1])}
        if defer is not None:
            defer.update({key: (piece, FRAGMENT_SECONDS) for key, piece in made.items()})
        else:
            cache.set_many(made, timeout=FRAGMENT_SECONDS)
        found.update(made)
    head, tail = _fragment_edges[version]
    return head, [found[key] for key in keys], tail


def render_fragments(posts: list, context: dict, render) -> str:
    """The post list's HTML for `posts` (prepared for the template), from the posts' kept
    fragments (`fragment_pieces`): the same HTML as rendering the whole list at once."""
    parts = fragment_pieces(posts, context, render)
    if parts is None:
        return render({**context, "posts": posts})
    head, pieces, tail = parts
    return head + "".join(pieces) + tail


# --- Layer 1: the post list --------------------------------------------------------------------
CSRF_SENTINEL = "pagecache-csrf-token"
ACTIONS_RE = re.compile(r"<!--pc-actions:(\d+)-->")


@dataclass
class PostList:
    html: str
    meta: list[tuple]  # (pk, number, author_id, created_at, is_deleted, has_private) of every post shown
    private: bool  # the page holds [private] messages: its lists are per private audience
    marked: list[int]  # the ids of those posts
    high: int = 0  # the number of the last post it covers (the page's posts up to it)
    # (the text before the posts, each post's <li>, the text after), when the list could be cut
    # apart: a list that can grow by the posts added since (`extended`).
    parts: tuple[str, list[str], str] | None = None

    def extended(self, newer: list, parts: tuple[str, list[str], str], high: int) -> PostList:
        """This list with the posts `newer` (numbered after `high`... up to the new `high`) added,
        their <li> in `parts` (from the same template and shared context)."""
        head, pieces, tail = self.parts
        pieces = [*pieces, *parts[1]]
        return PostList(html=head + "".join(pieces) + tail, meta=[*self.meta, *meta_of(newer)], private=self.private,
                        marked=self.marked, high=high, parts=(head, pieces, tail))


def _digest(value: str) -> str:
    return hashlib.blake2b(value.encode(), digest_size=9).hexdigest()


digest = _digest  # for the other caches keyed by what they show (games/views/votes.py)


def list_key(*, thread, stamps: Stamps, low: int, viewer: str, extra: str, audience: str | None) -> str:
    """The key of a page's post list: the thread, the counters of the site, the thread's posts
    (not a new post: the list then grows, `PostList.extended`) and the game, the page's first
    post, the viewer class. Not the last post: the entry says which it covers (`PostList.high`)."""
    created = thread.created_at.timestamp() if thread.created_at else 0
    parts = ["2", str(thread.pk), str(created), stamps.list_part, str(low),
             translation.get_language() or "", timezone.get_current_timezone_name(), viewer, extra]
    if audience is not None:
        parts.append(audience)
    return f"pagecache:list:{_digest('|'.join(parts))}"


def list_get(key: str) -> PostList | None:
    return cache.get(key)


def list_set(key: str, value: PostList, *, also: dict | None = None) -> None:
    """Keep a post list; `also`: other entries ({key: (value, timeout)}, the <li> made for it:
    `fragment_pieces(defer=)`) written in the same round trip."""
    if also:
        set_each({**also, key: (value, LIST_SECONDS)})
    else:
        cache.set(key, value, timeout=LIST_SECONDS)


def set_each(items: dict) -> None:
    """Write {key: (value, timeout)} in one round trip where the cache can (config.cache's
    `set_each`), else one by one."""
    writer = getattr(cache, "set_each", None)
    if writer is not None:
        writer(items)
        return
    for key, (value, timeout) in items.items():
        cache.set(key, value, timeout=timeout)


def meta_of(posts) -> list[tuple]:

    return [(p.pk, p.number, p.author_id, p.created_at, p.is_deleted, has_private_messages(p.body)) for p in posts]


class PostStub:
    """A post of a kept list as the per-viewer links and the page's clocks read it (its id,
    number, author, time, hidden flag, whether it holds [private] messages, its thread): not a
    model instance, 25 of which cost a fifth of a millisecond a page."""
    __slots__ = ("pk", "number", "author_id", "created_at", "is_deleted", "has_private", "thread_id", "thread")

    def __init__(self, pk, number, author_id, created_at, is_deleted, has_private, thread):
        self.pk, self.number, self.author_id, self.created_at = pk, number, author_id, created_at
        self.is_deleted, self.has_private, self.thread_id, self.thread = is_deleted, has_private, thread.pk, thread


def posts_from_meta(meta: list[tuple], thread) -> list[PostStub]:
    """Stand-ins of the page's posts (number, author, time, deleted), enough for the per-viewer
    links (permissions.can_edit_post reads no more of a post) and for what the view reads of the
    page (its numbers, the Edit links' clocks)."""
    return [PostStub(pk, number, author_id, created_at, is_deleted, bool(rest and rest[0]), thread)
            for pk, number, author_id, created_at, is_deleted, *rest in meta]


def personalize(html: str, posts: list, *, request, user, just_posted: int | None = None) -> str:
    """Fill the viewer's own bits into a cached post list: the Report link (a logged-in reader,
    not on his own posts), the Edit link (games.permissions.can_edit_post, asked now: its time
    window runs while the list is cached), the CSRF token, the just-posted mark."""
    from django.middleware.csrf import get_token
    from django.urls import get_script_prefix
    from django.utils.html import escape
    from django.utils.translation import gettext


    actions: dict[int, str] = {}
    if user.is_authenticated:
        # One reverse and one escape per link kind and page, not per post: the URL with the
        # post's id (a number) put in.
        report_head, _zero, report_tail, edit_head, _zero, edit_tail = _action_urls(get_script_prefix())
        report, edit = escape(gettext("Report")), escape(gettext("Edit"))
        moderator = bool(posts) and permissions.is_moderator(user, posts[0].thread)
        now = timezone.now()
        for post in posts:
            if post.is_deleted:
                continue
            bits = []
            if post.author_id != user.pk:
                bits.append(f'<a href="{report_head}/{int(post.pk)}/{report_tail}" class="muted">{report}</a>')
            # Only a moderator edits others' posts (permissions.can_edit_post): not asked of them.
            if (moderator or post.author_id == user.pk) and _may_edit(user, post, now):
                bits.append(f'<a href="{edit_head}/{int(post.pk)}/{edit_tail}">{edit}</a>')
            if bits:
                actions[post.pk] = "\n    ".join(bits)
    html = ACTIONS_RE.sub(lambda m: actions.get(int(m.group(1)), ""), html)
    if CSRF_SENTINEL in html:
        html = html.replace(CSRF_SENTINEL, get_token(request))
    if just_posted:
        html = html.replace(f'" id="p{just_posted}"', f' just-posted" id="p{just_posted}"', 1)
    return html


@functools.lru_cache(maxsize=64)
def _action_urls(_script_prefix: str) -> tuple[str, ...]:
    """The Report and Edit links' URLs around the post's id, escaped (per process and script prefix)."""
    from django.utils.html import escape

    return (*map(escape, reverse("games:post_report", args=[0]).rpartition("/0/")),
            *map(escape, reverse("games:post_edit", args=[0]).rpartition("/0/")))


def _may_edit(user, post, now) -> bool:
    """The Edit link: permissions.can_edit_post at `now`, and no [private] message in the post
    (such a post is never edited, permissions.can_open_post_editor)."""

    has_private = getattr(post, "has_private", None)
    if has_private is None:
        has_private = permissions.has_private_messages(post.body)
    return not has_private and bool(permissions.can_edit_post(user, post, now=now))


def edit_window_end(posts, user):
    """When the earliest Edit link shown to this (non-moderator) viewer disappears, or None."""
    if not user.is_authenticated:
        return None
    window = settings.MAFIA_POST_EDIT_WINDOW_SECONDS
    now = timezone.now()
    ends = [p.created_at.timestamp() + window for p in posts
            if p.author_id == user.pk and not p.is_deleted and (now - p.created_at).total_seconds() <= window]
    return min(ends) if ends else None


# --- Layer 1: the frame of one browser session's page --------------------------------------------
# Layer 2 below keeps a whole page until anything it shows is written; in a busy game every post
# moves the thread's counter and the next view renders the page again, of which the post list
# (Layer 0 makes that cheap) is only a part: the header, the vote count and buttons, the reply
# form, the moderation tools and the context behind them are the rest. What a post in the thread
# changes outside the list is the number of pages, the last post (the poll's marker) and the
# reader's first unread one: those are made per request ("pieces", games/views/forum.py) and
# the rest of the page, the frame, is kept with markers where they go.
#
# A frame is the page of one browser session (the same key as Layer 2's: session and CSRF cookies,
# host, URL, language cookie, htmx headers), stamped with every counter but the thread's, and
# keyed by what of the thread it shows: the thread row (all but its post count and last post
# time), the ids of the thread's authors (the ISO picker), the language and the time zone. Only
# for threads without members (a room's, a GM letter's or a team's members are written under the
# thread's counter and decide who may see and post). It is served while the session is the same
# (its data's digest, no message waiting), its counters unchanged and none of its clocks ran out.
FRAME_SECONDS = PAGE_SECONDS
FRAME_PIECES = ("pagination_html", "poll_html", "unread_link_html", "post_list_html", "reply_notice_html")


def _frame_marker(name: str) -> str:
    # An HTML comment: nothing a user writes can make one (his text is escaped or sanitised).
    return f"<!--pc-frame:{name}-->"


def frame_markers(pieces: dict) -> dict:
    from django.utils.safestring import mark_safe

    return {name: mark_safe(_frame_marker(name)) for name in pieces}  # noqa: S308 - a constant


@dataclass
class Frame:
    stamps: dict[str, int]  # the counters but the thread's, as read before the data
    session: str | None  # digest of the session's data it was rendered with
    valid_until: float
    parts: list[str]  # text, piece name, text, piece name, ..., text
    inputs: dict  # what the pieces need of the page's context (the post list's viewer class)

    def assemble(self, pieces: dict) -> str:
        return "".join(part if index % 2 == 0 else str(pieces[part]) for index, part in enumerate(self.parts))


_FRAME_SPLIT_RE = re.compile("<!--pc-frame:(" + "|".join(FRAME_PIECES) + ")-->")


@dataclass
class FrameKey:
    key: str
    session_key: str | None
    stamps: Stamps  # the page's counters, read before its data
    reply: bool = False  # the region an htmx reply answers with: it shows no vote count (`votes_key`)


def frame_key(request, thread, stamps: Stamps, *, author_ids, reply: bool = False) -> FrameKey | None:
    """The key of this request's frame, or None when its page is not framed (another kind of
    thread, a request Layer 2 would not keep either, a game not known before its counters).
    `reply`: the thread region that an htmx reply answers with (`reply_candidate`), kept for the
    browser session's next reply."""
    if thread.kind in m.Thread.PRIVATE_KINDS or not stamps.game_known:
        return None
    found = reply_candidate(request, thread.pk) if reply else candidate(request)
    if found is None:
        return None
    row = [(f.attname, getattr(thread, f.attname)) for f in thread._meta.concrete_fields
           if f.attname not in ("post_count", "last_post_at")]
    parts = [found.key, repr(row), ",".join(map(str, author_ids)), translation.get_language() or "",
             timezone.get_current_timezone_name(), str(stamps.user_id)]
    return FrameKey(key=f"pagecache:frame:{_digest(chr(31).join(parts))}", session_key=found.session_key, stamps=stamps,
                    reply=reply)


def session_state(request, session_key: str | None, *, unmodified: bool = False) -> tuple[bool, str | None]:
    """(usable, digest of the session's data, None without a session): usable when the request's
    session is the one its cookie names (`session_key`), with no message waiting, and, with
    `unmodified`, nothing the view did changed it (a kept whole answer: the next request's
    session is this one as it is now). What a kept answer records of the session, as
    `session_unchanged` compares it."""
    session = getattr(request, "session", None)
    if session is None or unmodified and session.modified:
        return False, None
    data = session._session  # loads it, if the view did not (then a missing one has no key)
    if session.session_key != session_key:
        return False, None  # not the session the cookie names (gone, or a new one)
    if session_key is None:
        return True, None
    if "_messages" in data:
        return False, None
    return True, session_digest(data)


def _frame_stamps(stamps: Stamps, *, reply: bool = False) -> dict[str, int]:
    """A frame's counters: the page's but the thread's; a reply's region (no count box) not the ledger's."""
    skip = {thread_key(stamps.thread_id)} | ({votes_key(stamps.game_id)} if reply and stamps.game_id else set())
    return {key: value for key, value in stamps.page_values().items() if key not in skip}


# Per process, the inputs (viewer class) each frame was last seen with: the page guesses its post
# list's key from them and fetches the list with the frame.
_frames_seen: dict[str, dict] = {}


def frame_inputs_seen(framing: FrameKey) -> dict | None:
    return _frames_seen.get(framing.key)


def frame_get(request, framing: FrameKey, stamps: Stamps, *, also: list[str] = ()) -> Frame | None:
    """The kept frame, or None; `also`: other keys read in the same round trip (`Stamps.fetched`).
    What the counters' read fetched already (`read_stamps(fetch=)`) is not read again."""
    wanted = [key for key in (framing.key, *also) if key not in stamps.fetched]
    if wanted:
        found = cache.get_many(wanted)
        stamps.fetched.update({key: found.get(key) for key in wanted})
    frame = stamps.fetched.get(framing.key)
    if frame is not None:
        _remember(_frames_seen, framing.key, frame.inputs)
    if frame is None or time.time() >= frame.valid_until or frame.stamps != _frame_stamps(stamps, reply=framing.reply):
        return None
    usable, session = session_state(request, framing.session_key)
    if not usable or session != frame.session:
        return None
    return frame


def frame_store(request, framing: FrameKey, html: str, *, inputs: dict, valid_until: float | None) -> Frame:
    """Split the page rendered with the markers into its frame, and keep it when the page may be
    kept: made with the CSRF cookie the browser sends, for the session its cookie names."""
    split = _FRAME_SPLIT_RE.split(html)
    until = time.time() + FRAME_SECONDS
    if valid_until is not None:
        until = min(until, valid_until)
    usable, session = session_state(request, framing.session_key)
    frame = Frame(stamps={}, session=session, valid_until=until, parts=split, inputs=dict(inputs))
    csrf = request.COOKIES.get(settings.CSRF_COOKIE_NAME)
    if usable and request.META.get("CSRF_COOKIE") == csrf and until - time.time() >= 1:
        frame.stamps = _frame_stamps(framing.stamps, reply=framing.reply)
        cache.set(framing.key, frame, timeout=int(until - time.time()) + 1)
        _remember(_frames_seen, framing.key, frame.inputs)
    return frame


# --- Layer 2: the whole page of one browser session ----------------------------------------------
@dataclass
class Page:
    stamps: dict[str, int]  # every counter the page depends on, as read before its data
    session: str | None  # digest of the session's data it was rendered with; None: no session
    valid_until: float
    status: int
    headers: list[tuple[str, str]]
    body: bytes


_SESSION_KEY_RE = re.compile(r"[a-z0-9]{8,64}")


@functools.cache
def path_re(url_name: str) -> re.Pattern:
    """The paths of URL `url_name` (one whole-number argument, a primary key: the match's group 1)."""
    head, _zero, tail = reverse(url_name, args=[0]).rpartition("/0/")
    return re.compile(re.escape(head) + r"/([1-9][0-9]{0,17})/" + re.escape(tail) + r"\Z")


# The shape of what is kept under a page's key (its counters: the vote ledger's since issue 30
# part 3): a deploy that changes it never serves a page, a frame or a validator kept by the old code.
KEPT_FORMAT = 2


@functools.cache
def _constant_part() -> str:
    # Whatever a deployment changes that the page depends on: the settings it reads, and the
    # secret key (sessions are checked against it, and the CSRF tokens made with it).
    return _digest("|".join(str(v) for v in (
        KEPT_FORMAT, settings.MAFIA_POSTS_PER_PAGE, settings.MAFIA_POST_EDIT_WINDOW_SECONDS, settings.MAFIA_THREAD_POLL_SECONDS,
        settings.MAFIA_VOTE_POLL_SECONDS, settings.SECRET_KEY, settings.LANGUAGE_CODE, settings.TIME_ZONE)))


@dataclass
class Candidate:
    """A GET of a thread page that a kept page may answer."""
    key: str
    thread_id: int
    session_key: str | None


# The htmx headers a page's key holds (the htmx middleware and the templates read them).
PAGE_HX = ("HTTP_HX_REQUEST", "HTTP_HX_TARGET", "HTTP_HX_BOOSTED", "HTTP_HX_HISTORY_RESTORE_REQUEST")


def request_key(request, prefix: str, *, target: str, tag: str | None = None, csrf: bool,
                session_needed: bool = False, hx: tuple[str, ...] = PAGE_HX) -> tuple[str, str | None] | None:
    """The cache key of an answer kept for what this request carries that the answer depends on
    (`prefix` and a digest of: `tag`, the session cookie, with `csrf` the CSRF cookie, the host,
    the scheme, `target` (the URL, or what stands for it), the language cookie, the headers `hx`
    and the deployment's `_constant_part`), with the session key its cookie names. None: never
    answered from (nor kept in) a cache: Django messages in a cookie (the answer would show them),
    DISALLOWED_USER_AGENTS set, with `csrf` no CSRF cookie yet (the answer would set one), with
    `session_needed` no session cookie, a session cookie of a form no session has, a host not
    allowed. One function for the thread page, the reply's region and the vote count's validator."""
    cookies = request.COOKIES
    if "messages" in cookies or settings.DISALLOWED_USER_AGENTS:
        return None
    csrf_cookie = cookies.get(settings.CSRF_COOKIE_NAME) if csrf else None
    if csrf and not csrf_cookie:
        return None
    session_key = cookies.get(settings.SESSION_COOKIE_NAME) or None
    if session_key is None and session_needed:
        return None
    if session_key is not None and not _SESSION_KEY_RE.fullmatch(session_key):
        return None
    try:
        host = request.get_host()
    except DisallowedHost:
        return None  # CommonMiddleware answers that
    meta = request.META
    parts = [*([tag] if tag is not None else []), session_key or "", *([csrf_cookie] if csrf else []), host,
             request.scheme, target, cookies.get(settings.LANGUAGE_COOKIE_NAME, ""), *(meta.get(name, "") for name in hx),
             _constant_part()]
    return f"{prefix}:{_digest(chr(31).join(parts))}", session_key


def candidate(request) -> Candidate | None:
    """For a GET of a thread page, the page key from what the request carries (`request_key`: the
    session and CSRF cookies, the host, scheme and URL, the language cookie, the htmx headers).
    None: this request is never answered from (nor kept in) the page cache: another URL or
    method, or a request `request_key` refuses."""
    if request.method != "GET":
        return None
    match = path_re("games:thread").match(request.path)
    if match is None:
        return None
    keyed = request_key(request, "pagecache:page", target=request.get_full_path(), csrf=True)
    if keyed is None:
        return None
    return Candidate(key=keyed[0], thread_id=int(match.group(1)), session_key=keyed[1])


def reply_candidate(request, thread_id: int) -> Candidate | None:
    """For an htmx reply to a thread (a POST that answers with the thread region), the key of its
    region's frame from what the request carries, as `candidate` makes a page's: the session and
    CSRF cookies (the form's token is made from the latter), the host and scheme, the thread, the
    language cookie and the htmx headers. Not the posted form: a frame is used only for a reply
    that stored its post, whose region shows an empty form. None: not kept (no CSRF or session
    cookie, Django messages in a cookie, a session cookie of a form no session has)."""
    if request.method != "POST":
        return None
    keyed = request_key(request, "pagecache:reply", tag="reply", target=str(int(thread_id)), csrf=True,
                        session_needed=True, hx=PAGE_HX[:3])
    if keyed is None:
        return None
    return Candidate(key=keyed[0], thread_id=int(thread_id), session_key=keyed[1])


def session_digest(data) -> str:
    return _digest(repr(sorted(data.items())))


@functools.cache
def _session_store(engine: str):
    from importlib import import_module

    return import_module(engine).SessionStore


def _session_cache_key(session_key: str) -> tuple[str, str] | None:
    """(cache key, cache alias) where the session engine keeps this session's data, for the
    engines that read sessions from the cache first (cache, cached_db); None for the others."""
    prefix = getattr(_session_store(settings.SESSION_ENGINE), "cache_key_prefix", None)
    if prefix is None:
        return None
    return prefix + session_key, settings.SESSION_CACHE_ALIAS


def _session_data(session_key: str):
    """The session's data as the session middleware would load it, or None if it is gone."""
    store = _session_store(settings.SESSION_ENGINE)(session_key)
    data = store.load()
    return data if store.session_key == session_key else None


def session_keys(session_key: str | None) -> tuple[tuple[str, str] | None, list[str]]:
    """(where the session's data is kept, `_session_cache_key`; the keys to read it with in the
    lookup's round trip to the default cache: none when it is kept elsewhere) for a kept answer's
    lookup; `session_unchanged` then compares it."""
    if session_key is None:
        return None, []
    session_cache = _session_cache_key(session_key)
    if session_cache is not None and session_cache[1] == DEFAULT_CACHE_ALIAS:
        return session_cache, [session_cache[0]]
    return session_cache, []


def session_unchanged(session_key: str | None, session_cache: tuple[str, str] | None, values: dict,
                      kept: str | None) -> bool:
    """Whether the session the request's cookie names (`session_key`) is in the store with the
    data a kept answer was made with (`kept`: its `session_digest`, None: made without a session),
    `values` what the lookup's round trip read (`session_keys`). A session that is gone (logged
    out, expired, flushed) or changed (a login, a language, a message waiting) never is."""
    if session_key is None:
        return kept is None
    if session_cache is None:
        data = _session_data(session_key)
    elif session_cache[1] == DEFAULT_CACHE_ALIAS:
        data = values.get(session_cache[0])
    else:
        data = caches[session_cache[1]].get(session_cache[0])
    return data is not None and "_messages" not in data and kept == session_digest(data)


def page_lookup(request, found: Candidate):
    """The kept response for this request, or None. One round trip to the cache when this
    process knows the thread's game and the session's user (else two): the page, the session,
    and the counters."""
    keys = [found.key, SITE_KEY, thread_key(found.thread_id)]
    game_id = _thread_games.get(found.thread_id)
    if game_id:
        keys += [game_key(game_id), votes_key(game_id)]
    user_id = _session_users.get(found.session_key) if found.session_key is not None else None
    if user_id:
        keys.append(user_key(user_id))
    session_cache, session_read = session_keys(found.session_key)
    values = cache.get_many(keys + session_read)
    page = values.get(found.key)
    if page is None or time.time() >= page.valid_until:
        return None
    if not session_unchanged(found.session_key, session_cache, values, page.session):
        return None
    missing = [key for key in page.stamps if key not in keys]
    if missing:
        values.update(cache.get_many(missing))
    for key, value in page.stamps.items():
        if values.get(key) != value:
            return None
    response = HttpResponse(page.body, status=page.status)
    for name, value in page.headers:
        response[name] = value
    return response


def offer(request, *, stamps: Stamps, valid_until: float | None) -> None:
    """The view's page may be kept (the middleware decides, once the response is complete)."""
    if not stamps.game_known:
        return
    request._pagecache_offer = (stamps, valid_until)


def page_store(request, found: Candidate, response) -> None:
    """Keep the response for this request's key, if the view offered it and it is the page of
    exactly this session, as the browser will ask for it again."""
    offered = getattr(request, "_pagecache_offer", None)
    if offered is None:
        return
    stamps, valid_until = offered
    if response.status_code != 200 or response.streaming:
        return
    csrf = request.COOKIES.get(settings.CSRF_COOKIE_NAME)
    if request.META.get("CSRF_COOKIE") != csrf:
        return  # the page's tokens were not made from the cookie the browser sends
    for name, morsel in response.cookies.items():
        # A cookie set (a new CSRF secret, a session saved) makes the next request differ. The
        # one exception: Django sends the same CSRF cookie again whenever a page uses its token,
        # to renew its expiry (a year); a kept page does not, a rendered one (at least every
        # PAGE_SECONDS while the page is read) still does.
        if name != settings.CSRF_COOKIE_NAME or morsel.value != csrf:
            return
    usable, session_part = session_state(request, found.session_key, unmodified=True)
    if not usable:
        return
    user = getattr(request, "user", None)
    user_id = user.pk if user is not None and user.is_authenticated else None
    if user_id is not None and user_id != stamps.user_id:
        return
    if found.session_key is not None:
        _remember(_session_users, found.session_key, stamps.user_id)
    until = time.time() + PAGE_SECONDS
    if valid_until is not None:
        until = min(until, valid_until)
    seconds = until - time.time()
    if seconds < 1:
        return
    cache.set(found.key, Page(stamps=stamps.page_values(), session=session_part, valid_until=until,
                              status=response.status_code, headers=list(response.items()), body=response.content),
              timeout=int(seconds) + 1)
