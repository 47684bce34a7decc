"""The one visibility and permission module: who may see and do what in threads and games.

Every view and query asks here. A secret's existence is itself secret, so `check_see_*` raises
Http404 rather than 403, and each check has a queryset twin `filter_visible_*` that applies the
same rule in the database (never only in a template).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser
from django.db.models import Exists, F, OuterRef, Q, QuerySet
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.backends import MODERATORS_GROUP
from config.prepared import PreparedQuery
from games.engine.rulesets import RULESETS, get_ruleset
from games.engine.rulesets.base import site_style
from games.models import Game, GameBan, GameEvent, Post, Seat, Thread
from games.rulesets import registry


@dataclass(frozen=True)
class Verdict:
    allowed: bool
    reason: str = ""

    def __bool__(self) -> bool:
        return self.allowed


ALLOWED = Verdict(True)


_NOT_JOINED = object()


def _joined_game(thread: Thread):
    """The game that a select_related (`with_game`) joined onto this thread row (None: no
    game), or _NOT_JOINED."""
    if thread.kind in Thread.PRIVATE_KINDS:
        return Thread.game.field.get_cached_value(thread, default=_NOT_JOINED)
    relation = {Thread.Kind.GAME: Thread.game_as_game_thread, Thread.Kind.DISCUSSION: Thread.game_as_discussion_thread}
    descriptor = relation.get(thread.kind)
    return descriptor.related.get_cached_value(thread, default=_NOT_JOINED) if descriptor else _NOT_JOINED


def with_game(threads: QuerySet[Thread]) -> QuerySet[Thread]:
    """Threads with a game thread's game (and its GM and current phase) joined into the same
    query, so that game_of costs no query of its own for the busiest pages. Only that one
    relation: joining the discussion and private relations too made the query slower (6.4 ms,
    measured) than two separate ones (3.3 ms); this join costs 2.3 ms."""
    return threads.select_related("game_as_game_thread__gm", "game_as_game_thread__current_phase")


def game_of(thread: Thread) -> Game | None:
    """The game a thread belongs to, or None for a standalone thread (cached on the instance;
    free when the thread was loaded through `with_game`)."""
    if not hasattr(thread, "_game_cache") and thread.kind in (*Thread.PRIVATE_KINDS, Thread.Kind.GAME, Thread.Kind.DISCUSSION):
        joined = _joined_game(thread)
        if joined is not _NOT_JOINED:
            thread._game_cache = joined
    if thread.kind in Thread.PRIVATE_KINDS:
        if not hasattr(thread, "_game_cache"):
            thread._game_cache = Game.objects.select_related("gm", "current_phase").filter(pk=thread.game_id).first()
        return thread._game_cache
    if thread.kind not in (Thread.Kind.GAME, Thread.Kind.DISCUSSION):
        return None
    if not hasattr(thread, "_game_cache"):
        games = Game.objects.select_related("gm", "current_phase")
        if thread.kind == Thread.Kind.GAME:
            thread._game_cache = games.filter(game_thread=thread).first()
        else:
            thread._game_cache = games.filter(discussion_thread=thread).first()
    return thread._game_cache


def roster_rows(game: Game) -> list[tuple[int, int, bool, str, list[str]]]:
    """(seat id, user id, alive, display name, aliases) of every seat, fetched once per game instance:
    a roster is at most a few dozen rows, as cheap as one EXISTS and reused by every check."""
    if not hasattr(game, "_roster_rows"):
        game._roster_rows = list(game.seats.order_by("number").values_list("pk", "user_id", "is_alive", "user__display_name", "aliases"))
    return game._roster_rows


# --- Seeing ------------------------------------------------------------------------------------
def _knows_team(game: Game, role: str, seat=None) -> bool:
    """Whether a seat of this role knows its team (its chat, its events); never a seat that does
    not know its own role (knows_own_role: the Show's Крот)."""
    spec = get_ruleset(game.ruleset).roles.get(role)
    return bool(spec and spec.knows_team) and (seat is None or knows_own_role(game, seat))


def knows_own_role(game: Game, seat) -> bool:
    """Whether a seat's player knows his own role while the game runs: its rule set decides
    (SiteRuleset.role_known_to_holder; the Show's Крот «не знает свою Роль»). Such a seat's role is
    hidden from himself and his team-mates, and he is not in his team's chat or events."""
    if seat is None or game.status != Game.Status.RUNNING:
        return True
    adapter = registry.find(game.ruleset)
    return adapter is None or adapter.role_known_to_holder(game=game, seat=seat)


def can_see_thread(user, thread: Thread) -> bool:
    """Game, discussion and forum threads are public. A team chat is read by the team where the
    rules make it know itself; letters to the GM by that seat's player; the lounge by every
    logged-in user who is not a living player of the game. The GMs read all; after the game everyone does."""
    if thread.kind not in Thread.PRIVATE_KINDS:
        return True
    game = game_of(thread)
    if game is None:
        return False
    if game.status == Game.Status.FINISHED or is_game_master(user, game):
        return True
    seat = seat_of(user, game)
    if thread.kind == Thread.Kind.FACTION:
        return seat is not None and seat.faction == thread.faction and _knows_team(game, seat.role, seat)
    if thread.kind == Thread.Kind.GM_CHAT:
        return seat is not None and seat.pk == thread.seat_id
    if thread.kind == Thread.Kind.ROOM:
        return seat is not None and thread.members.filter(pk=seat.pk).exists()
    # The lounge: the fallen and the spectators, logged in (else a living player would read it by
    # logging out); the rule set may say otherwise (the Show's slaves' chat: SiteRuleset.lounge_reader).
    return user.is_authenticated and lounge_reader(game, seat)


def in_play(game: Game, seat) -> bool:
    """Whether a seat still plays: posts, votes, orders and talks as its phase allows. The game's
    rule set decides (SiteRuleset.in_play): a dead or jailed player does not; the Show's slave,
    not free, does. A seat of a game whose rule set is not registered: its status is "active"."""
    if seat is None:
        return False
    adapter = registry.find(game.ruleset)
    return adapter.in_play(seat) if adapter is not None else seat.status == "active"


def in_play_statuses(game: Game | None = None) -> frozenset[str]:
    """The seat statuses that still play in a game's rule set, or in any rule set (for a query
    over every game, such as the due-soon notices)."""
    adapters = [registry.find(game.ruleset)] if game is not None else registry.adapters()
    statuses = frozenset().union(*(a.in_play_statuses for a in adapters if a is not None))
    return statuses or frozenset({"active"})


def lounge_reader(game: Game, seat) -> bool:
    """Whether a seat reads and writes the game's lounge while it runs: a spectator (no seat)
    does; a seat as its rule set says (SiteRuleset.lounge_reader: out of play; the Show's slaves)."""
    if seat is None:
        return True
    adapter = registry.find(game.ruleset)
    return adapter.lounge_reader(seat) if adapter is not None else not in_play(game, seat)


def check_see_thread(user, thread: Thread) -> None:
    if not can_see_thread(user, thread):
        raise Http404


def _open_to_all() -> Q:
    """The threads everybody reads: all but the private threads of a game not finished."""
    return ~Q(kind__in=Thread.PRIVATE_KINDS) | Q(game__status=Game.Status.FINISHED)


def filter_visible_threads(user, threads: QuerySet[Thread], *, unfinished_seats: list | None = None) -> QuerySet[Thread]:
    """can_see_thread as a query, for every list of threads. `unfinished_seats`: the user's seats
    in every game that is not finished (running or signing up; each with its game), when the
    caller has read them (the desk): a finished game's threads are everyone's, so they are all
    the seats this rule reads."""
    if user.is_authenticated and user.is_staff:
        return threads
    visible = _open_to_all()
    if not user.is_authenticated:
        return threads.filter(visible)
    visible |= Q(game__gm=user) | Q(game__co_gms=user) | Q(kind=Thread.Kind.GM_CHAT, seat__user=user)
    visible |= Q(kind=Thread.Kind.ROOM, members__user=user)
    if unfinished_seats is not None:
        seats = [s for s in unfinished_seats if s.game.status != Game.Status.FINISHED]
    else:
        seats = list(Seat.objects.filter(user=user).exclude(game__status=Game.Status.FINISHED).select_related("game")
                     .only("game__ruleset", "game__status", "faction", "role", "status"))
    for seat in seats:
        if seat.faction and _knows_team(seat.game, seat.role, seat):
            visible |= Q(kind=Thread.Kind.FACTION, game_id=seat.game_id, faction=seat.faction)
    living_in = [s.game_id for s in seats if not lounge_reader(s.game, s)]
    visible |= Q(kind=Thread.Kind.LOUNGE) & ~Q(game_id__in=living_in)
    return threads.filter(visible).distinct()


def hidden_threads(user) -> QuerySet[Thread]:
    """The threads the viewer may NOT read: the exact complement of filter_visible_threads over
    all threads, taken among the few that are not open to all (the private threads of games
    still running). A search over a million posts filters them by `thread NOT IN` this short
    list, which lets the planner walk the date index, instead of joining every thread of the
    site through the visibility rule (issue 30; docs/search.md)."""
    sealed = Thread.objects.exclude(_open_to_all())
    return sealed.exclude(pk__in=filter_visible_threads(user, sealed).values("pk"))


def filter_visible_game_threads(user, game: Game, threads: QuerySet[Thread]) -> QuerySet[Thread]:
    """filter_visible_threads for the private threads of one game (its archive): the same rule
    (can_see_thread), from the viewer's seat in this game alone instead of his seats in every
    game. A room's membership is a subquery, so that the caller may join the members itself."""
    threads = threads.filter(game=game)
    if game.status == Game.Status.FINISHED or is_game_master(user, game):
        return threads
    visible = ~Q(kind__in=Thread.PRIVATE_KINDS)
    if not user.is_authenticated:
        return threads.filter(visible)
    seat = seat_of(user, game)
    if seat is not None:
        visible |= Q(kind=Thread.Kind.GM_CHAT, seat=seat)
        visible |= Q(kind=Thread.Kind.ROOM) & Exists(
            Thread.members.through.objects.filter(thread_id=OuterRef("pk"), seat_id=seat.pk))
        if seat.faction and _knows_team(game, seat.role, seat):
            visible |= Q(kind=Thread.Kind.FACTION, faction=seat.faction)
    if lounge_reader(game, seat):
        visible |= Q(kind=Thread.Kind.LOUNGE)
    return threads.filter(visible)


def filter_visible_posts(user, thread: Thread, posts: QuerySet[Post]) -> QuerySet[Post]:
    """Posts of a thread the viewer may list. Deleted posts stay listed as placeholders (their
    numbers are cited); their text is shown only to moderators (see can_see_post_body)."""
    check_see_thread(user, thread)
    return posts.filter(thread=thread)


def can_see_post_body(user, post: Post) -> bool:
    return not post.is_deleted or is_moderator(user, post.thread)


def can_see_post_media(user, post: Post) -> bool:
    """A media post's file (games:post_media) is his who reads the post's text: the thread's
    readers (the slaves' chat is its readers'), and of a hidden post its moderators only."""
    return can_see_thread(user, post.thread) and can_see_post_body(user, post)


def post_media_is_public(post: Post) -> bool:
    """Whether a media post's file is anybody's (an anonymous reader may hear it), so that a shared
    cache may keep its address; else only the reader's own browser may (games:post_media)."""
    return can_see_post_media(AnonymousUser(), post)


# --- Roles -------------------------------------------------------------------------------------


def is_site_moderator(user) -> bool:
    """Staff and members of the Moderators group (managed in the admin) moderate everywhere."""
    if not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    cached = getattr(user, "_is_site_moderator", None)
    if cached is None:
        cached = user._is_site_moderator = user.groups.filter(name=MODERATORS_GROUP).exists()
    return cached


def is_moderator(user, thread: Thread) -> bool:
    """Site moderators moderate everywhere; a game's GMs moderate the game's two threads."""
    if not user.is_authenticated:
        return False
    if is_site_moderator(user):
        return True
    game = game_of(thread)
    return game is not None and is_game_master(user, game)


def is_game_master(user, game: Game) -> bool:
    """The GM, a co-GM, or staff (cached per game instance and user)."""
    if not user.is_authenticated:
        return False
    if user.is_staff or game.gm_id == user.pk:
        return True
    cache = game.__dict__.setdefault("_co_gm_ids", None)
    if cache is None:
        known = game.__dict__.get(f"_co_gm_{user.pk}")  # remember_co_gm: this viewer's answer alone
        if known is not None:
            return known
        cache = game._co_gm_ids = set(game.co_gms.values_list("pk", flat=True))
    return user.pk in cache


def seat_of(user, game: Game):
    """The viewer's seat in the game, or None."""
    if not user.is_authenticated:
        return None
    key = f"_seat_of_{user.pk}"
    if key not in game.__dict__:
        game.__dict__[key] = Seat.objects.filter(game=game, user=user).first()
    return game.__dict__[key]


def remember_seats(user, game: Game, seats) -> None:
    """Fill the per-instance caches that seat_of and roster_rows read from the list of all the
    game's seats (users selected) that a page fetched anyway (the thread page's vote button), so
    that neither costs a query of its own. `seats` must be every seat of the game."""
    game._seats_with_users = seats
    game._roster_rows = [(s.pk, s.user_id, s.is_alive, s.user.display_name, s.aliases) for s in seats]
    if user.is_authenticated:
        game.__dict__[f"_seat_of_{user.pk}"] = next((s for s in seats if s.user_id == user.pk), None)


def seats_with_users(user, game: Game) -> list:
    """Every seat of the game with its user, in seat order, fetched once per game instance; also
    fills the caches of seat_of (for `user`) and roster_rows (remember_seats). Posting and the
    thread page that answers the post share the instance, so the roster is read once for both."""
    seats = game.__dict__.get("_seats_with_users")
    if seats is None:
        seats = _SEATS_WITH_USERS.fetch(game.pk)
        for seat in seats:
            Seat.game.field.set_cached_value(seat, game)  # as game.seats gives them
    remember_seats(user, game, seats)
    return seats


def remembered_seats(game: Game) -> list | None:
    """Every seat of the game with its user, in seat order, when this game instance has read them
    (seats_with_users, remember_seats), else None: for a page's other readers (a rule set's panels)."""
    return game.__dict__.get("_seats_with_users")


# game.seats.select_related("user").order_by("number"), compiled once per connection (config.prepared).
_SEATS_WITH_USERS = PreparedQuery(lambda game_id: (
    Seat._default_manager.filter(game_id=game_id).select_related("user").order_by("number")))


def read_roster(user, game: Game) -> None:
    """What the checks of one user's post and its vote reading ask of the roster (issue 30 part
    3): every seat as roster_rows has it, and `user`'s own seat (seat_of), its user being `user`:
    one query without the other players' user rows, which seats_with_users reads for a page's vote
    buttons (twelve users made into instances for the checks of one poster). Nothing if this game
    instance knows them already."""
    if "_roster_rows" in game.__dict__ and (not user.is_authenticated or f"_seat_of_{user.pk}" in game.__dict__):
        return
    seats = _ROSTER.fetch(game.pk)
    for seat in seats:
        Seat.game.field.set_cached_value(seat, game)
    game._roster_rows = [(s.pk, s.user_id, s.is_alive, s.__dict__.pop(_ROSTER_NAME), s.aliases) for s in seats]
    if user.is_authenticated:
        mine = next((s for s in seats if s.user_id == user.pk), None)
        if mine is not None:
            Seat.user.field.set_cached_value(mine, user)
        game.__dict__[f"_seat_of_{user.pk}"] = mine


# The seats in order with their players' names (roster_rows'), compiled once per connection.
_ROSTER_NAME = "roster_display_name"
_ROSTER = PreparedQuery(lambda game_id: (
    Seat._default_manager.filter(game_id=game_id).annotate(**{_ROSTER_NAME: F("user__display_name")}).order_by("number")))


def forget_game_of(thread: Thread) -> None:
    """Make game_of read the thread's game afresh (its joined copy included)."""
    thread.__dict__.pop("_game_cache", None)
    relation = {Thread.Kind.GAME: Thread.game_as_game_thread, Thread.Kind.DISCUSSION: Thread.game_as_discussion_thread}
    descriptor = relation.get(thread.kind)
    if descriptor is not None and descriptor.related.is_cached(thread):
        descriptor.related.delete_cached_value(thread)


def forget_game_caches(game: Game) -> None:
    """Drop what this game instance remembered of its seats, co-GMs and bans (after a write that
    changes them within the same request, such as a phase closed on a majority)."""
    for key in [k for k in game.__dict__ if k.startswith(("_seat_of_", "_banned_"))]:
        del game.__dict__[key]
    for key in ("_roster_rows", "_seats_with_users", "_co_gm_ids"):
        game.__dict__.pop(key, None)


def is_banned_from(user, game: Game) -> bool:
    """A GameBan of this user in this game (cached per game instance and user)."""
    key = f"_banned_{user.pk}"
    if key not in game.__dict__:
        game.__dict__[key] = game.bans.filter(user=user).exists()
    return game.__dict__[key]


def read_game_staff(user, game: Game) -> None:
    """The game's co-GMs and whether `user` is banned from it, in one query instead of two, into
    the per-instance caches is_game_master and is_banned_from read (the posting path asks both)."""
    if game.__dict__.get("_co_gm_ids") is not None and (not user.is_authenticated
                                                         or f"_banned_{user.pk}" in game.__dict__):
        return  # (is_game_master leaves None there when it asked about one viewer alone)
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(_staff_sql(connection.vendor), [game.pk, game.pk, user.pk if user.is_authenticated else None])
        rows = cursor.fetchall()
    game.__dict__["_co_gm_ids"] = {user_id for user_id, kind in rows if kind == 0}
    if user.is_authenticated:
        game.__dict__[f"_banned_{user.pk}"] = any(kind == 1 for _user_id, kind in rows)


@functools.cache
def _staff_sql(_vendor: str) -> str:
    from django.db import connection

    quote = connection.ops.quote_name
    co_gms, bans = Game.co_gms.through._meta.db_table, GameBan._meta.db_table
    return (f"SELECT {quote('user_id')}, 0 FROM {quote(co_gms)} WHERE {quote('game_id')} = %s "
            f"UNION ALL SELECT {quote('user_id')}, 1 FROM {quote(bans)} WHERE {quote('game_id')} = %s "
            f"AND {quote('user_id')} = %s")


def remember_co_gm(game: Game, user, is_co_gm: bool) -> None:
    """Fill the per-instance cache is_game_master reads for one viewer: whether `user` is a co-GM
    of the game, from a read the page made anyway (games.selectors.play.game_for_page's facts)."""
    if user.is_authenticated:
        game.__dict__[f"_co_gm_{user.pk}"] = bool(is_co_gm)


def remember_co_gms(game: Game, co_gm_ids) -> None:
    """Fill the per-instance cache is_game_master reads with all of the game's co-GMs' user ids,
    from a read the page made anyway (or knows to be empty: games.selectors.play.game_for_page)."""
    game.__dict__["_co_gm_ids"] = set(co_gm_ids)


# The names of staff_annotations' values on a game instance.
_HAS_CO_GMS, _AUTHOR_BANNED = "staff_has_co_gms", "staff_user_banned"


def staff_annotations(user_id) -> dict:
    """Annotations for a read of games (the posting path's locking read) that tell what
    read_game_staff reads for `user_id`: whether the game has co-GMs (their ids are read only
    then: most games have none) and whether that user is banned from it. remember_staff takes them."""
    return {_HAS_CO_GMS: Exists(Game.co_gms.through.objects.filter(game_id=OuterRef("pk"))),
            _AUTHOR_BANNED: Exists(GameBan.objects.filter(game_id=OuterRef("pk"), user_id=user_id))}


def remember_staff(user, game: Game) -> None:
    """Fill the caches of is_banned_from (for `user`, the id the annotations were made for) and,
    when the game has no co-GM, of is_game_master from staff_annotations' values on `game`."""
    has_co_gms, banned = game.__dict__.pop(_HAS_CO_GMS), game.__dict__.pop(_AUTHOR_BANNED)
    if not has_co_gms:
        game.__dict__["_co_gm_ids"] = set()
    if user.is_authenticated:
        game.__dict__[f"_banned_{user.pk}"] = bool(banned)


def remember_viewer(user, game: Game, *, seat, co_gm_ids, banned: bool | None = None) -> None:
    """Fill the per-instance caches that seat_of and is_game_master read, from rows a page over
    many games fetched in bulk (the desk), so that asking about each game costs no query. `seat`
    is the user's seat in the game or None; `co_gm_ids` all of the game's co-GMs' user ids;
    `banned`, when given, what is_banned_from answers for the user (the thread page keeps it)."""
    if user.is_authenticated:
        game.__dict__[f"_seat_of_{user.pk}"] = seat
        if banned is not None:
            game.__dict__[f"_banned_{user.pk}"] = banned
    game.__dict__["_co_gm_ids"] = set(co_gm_ids)


# --- Secrets of a game: roles, orders, private events ------------------------------------------
def event_audiences(user, game: Game) -> set[str] | None:
    """The audiences whose events this viewer may read; None means all of them (the game's GMs,
    and everyone once the game is over: archives are unsealed)."""
    if game.status == Game.Status.FINISHED or is_game_master(user, game):
        return None
    audiences = {"public"}
    seat = seat_of(user, game)
    if seat is not None:
        audiences.add(f"seat:{seat.pk}")
        if seat.faction and knows_own_role(game, seat):
            audiences.add(f"faction:{seat.faction}")
    return audiences


def filter_visible_events(user, game: Game, events: QuerySet) -> QuerySet:
    audiences = event_audiences(user, game)
    events = events.filter(game=game)
    return events if audiences is None else events.filter(audience__in=audiences)


def can_see_role_of(user, game: Game, seat) -> bool:
    """A role is seen by its holder, by team-mates where the rules make them know each other, by
    the GMs, and by everyone after the game."""
    if game.status == Game.Status.FINISHED or is_game_master(user, game):
        return True
    mine = seat_of(user, game)
    if mine is None:
        return False
    if mine.pk == seat.pk:
        return knows_own_role(game, mine)
    spec = get_ruleset(game.ruleset).roles.get(mine.role)
    return bool(spec and spec.knows_team and mine.faction == seat.faction and knows_own_role(game, mine)
                and knows_own_role(game, seat))


def can_see_privileges(user, game: Game, seat) -> bool:
    """A hero's privileges (the Show's «Привилегии», «о котором герой в тайне от остальных узнает»)
    are seen by that hero, the GMs, and everyone once the game is over; by nobody before the start."""
    return can_see_full_status(user, game, seat)


# --- Who wrote a post --------------------------------------------------------------------------
def can_see_true_author(user, game: Game | None) -> bool:
    """A post shown under another player's name (Post.shown_author: the Show's Говорун, /fake) is
    seen as its true author's by the game's GMs, and by everyone once the game is over (the
    archive); by everyone else as the shown one's."""
    return game is None or game.status == Game.Status.FINISHED or is_game_master(user, game)


def shown_author(user, post: Post, game: Game | None = None):
    """The author `user` is shown for `post` (see can_see_true_author): every page that names a
    post's author (the thread, search, quotes, the post's history, the feeds) asks this."""
    if not post.shown_author_id:
        return post.author
    if game is None:
        game = game_of(post.thread)
    return post.author if can_see_true_author(user, game) else post.shown_author


def may_learn_post_is_signed(user, post: Post) -> bool:
    """Whether `user` may be told that a post is signed with another player's name without being
    shown whose it is: a site moderator outside the game (the report queue: a ban falls on the one
    who wrote it). Who sees the true author knows anyway; a player (a moderator too) learns
    nothing, for that it is signed is the game's secret."""
    if not post.shown_author_id:
        return False
    game = game_of(post.thread)
    return can_see_true_author(user, game) or (is_site_moderator(user) and seat_of(user, game) is None)


def filter_posts_shown_as(posts: QuerySet[Post], person) -> QuerySet[Post]:
    """The posts shown as written by `person` (a profile's recent posts, a search by author): a
    post signed with another name counts as that one's, for every viewer (its true author is
    never found through it)."""
    return posts.filter(Q(shown_author__isnull=True, author=person) | Q(shown_author=person))


def can_see_full_status(user, game: Game, seat) -> bool:
    """A hero's full status (the Show's /fullstatus: his public, secret and innate keys, his role and
    rights) is seen by that hero, the GMs, and everyone once the game is over; by nobody before the start."""
    if seat is None or game.status == Game.Status.SIGNUPS:
        return False
    if game.status == Game.Status.FINISHED or is_game_master(user, game):
        return True
    mine = seat_of(user, game)
    return mine is not None and mine.pk == seat.pk


def can_see_about_me(user, game: Game, seat) -> bool:
    """A hero's «Обо мне» (the Show: his bet on a winner, who bet on him, his coins in the show): that
    hero and the GMs while it runs («скрыто»), everyone once it is over; nobody before the start."""
    return can_see_full_status(user, game, seat)


def can_see_bets_of(user, game: Game, seat) -> bool:
    """Whom a hero bet on and who bet on him: the same eyes as his «Обо мне»."""
    return can_see_about_me(user, game, seat)


def can_see_ratings(user, game: Game) -> bool:
    """The Show's ratings, their history and the results' splits: «Все Рейтинги скрыты» until the
    end, except from the GMs; everyone's once the show is over."""
    if game.status == Game.Status.FINISHED:
        return True
    return game.status == Game.Status.RUNNING and is_game_master(user, game)


def can_see_show_books(user, game: Game) -> bool:
    """A show's own accounts (its bank, its winners' pot, the Demon's escrows) and every hero's net
    in it so far, while it runs: the GMs only. An escrow tells whose slave pays the Demon, a net
    tells a burden paid to a Reptiloid or a grant's share: secrets the results page publishes only
    once the show is over (can_see_ratings)."""
    return game.status in (Game.Status.RUNNING, Game.Status.FINISHED) and is_game_master(user, game)


def check_see_full_status(user, game: Game, seat) -> None:
    if not can_see_full_status(user, game, seat):
        raise Http404


def sees_every_order(user, game: Game) -> bool:
    """Whether every order of the game is the viewer's to read (filter_visible_orders filters
    nothing out): the GMs', and everybody's once the game is over."""
    return game.status == Game.Status.FINISHED or is_game_master(user, game)


def filter_visible_orders(user, game: Game, orders: QuerySet) -> QuerySet:
    """Orders are seen by their author and the GMs while the game runs; by all afterwards."""
    orders = orders.filter(phase__game=game)
    if sees_every_order(user, game):
        return orders
    seat = seat_of(user, game)
    return orders.filter(actor=seat) if seat is not None else orders.none()


def filter_visible_private_messages(user, game: Game, messages: QuerySet) -> QuerySet:
    """A [private] message's text: its recipient, its sender and the GMs; everyone after the game."""

    messages = messages.filter(post__thread__game_as_game_thread=game)
    if can_read_private_texts(user, game):
        return messages
    seat = seat_of(user, game)
    return messages.filter(Q(recipient=seat) | Q(sender=seat)) if seat is not None else messages.none()


def filter_visible_deferred_messages(user, game: Game, rows: QuerySet, *, delivered: bool) -> QuerySet:
    """Deferred messages kept on a rule set's order rows, the actor their sender and the target their
    receiver (the Show's sympathies: «отправляет ему отложенное сообщение»; «все получают
    отправленные им ранее сообщения-Симпатии» at the «Выбор Союзника» stage): the sender and the
    GMs read them; the receiver once the rules deliver them (`delivered`); everybody after the
    game, as every [private] text (can_read_private_texts); nobody else."""
    rows = rows.filter(phase__game=game, valid=True)
    if can_read_private_texts(user, game):
        return rows
    seat = seat_of(user, game)
    if seat is None:
        return rows.none()
    return rows.filter(Q(actor=seat) | Q(target=seat)) if delivered else rows.filter(actor=seat)


def filter_visible_anonymous(user, game: Game, messages: QuerySet) -> QuerySet:
    """Who sent an anonymous message is known to the sender and the GMs (everyone after the game);
    its recipient reads only the text, as a private event."""
    messages = messages.filter(game=game)
    if game.status == Game.Status.FINISHED or is_game_master(user, game):
        return messages
    seat = seat_of(user, game)
    return messages.filter(sender=seat) if seat is not None else messages.none()


def filter_unsealed_games(games: QuerySet[Game]) -> QuerySet[Game]:
    """Games whose roles, factions, statuses, votes' meaning and outcome anybody may read, whoever
    asks: the finished ones (archives are unsealed). Public statistics (games.selectors.stats: profiles,
    leaderboards) count only these, so a running game reveals nothing through them."""
    return games.filter(status=Game.Status.FINISHED)


def filter_visible_gm_actions(user, game: Game, actions: QuerySet) -> QuerySet:
    """The GM's log (GMAction): the game's GMs while it runs; everyone after the game."""
    actions = actions.filter(game=game)
    if game.status == Game.Status.FINISHED or is_game_master(user, game):
        return actions
    return actions.none()


def check_see_archive(user, game: Game) -> None:
    """A game's archive, replay and JSON export (games.views.archive): everybody's once the game
    is finished (everything is unsealed); while it runs only its GMs see them, as a preview of
    what will be unsealed; before the deal there is nothing to archive. Otherwise 404."""
    if game.status == Game.Status.FINISHED:
        return
    if game.status == Game.Status.RUNNING and is_game_master(user, game):
        return
    raise Http404


def check_see_role_page(user, game: Game) -> None:
    """The private role page exists for the game's players and GMs; for others it is a 404."""
    if game.status == Game.Status.SIGNUPS or (seat_of(user, game) is None and not is_game_master(user, game)):
        raise Http404


def viewer_for(request, game: Game):
    """Whose eyes a page uses: the requester's, or, for the game's GMs asking `?pov=<seat id>`,
    that player's (the GM's "point of view"). Returns (viewer, the seat viewed as or None)."""
    raw = request.GET.get("pov")
    if raw and is_game_master(request.user, game):
        try:
            seat = Seat.objects.select_related("user").get(game=game, pk=int(raw))
        except (ValueError, Seat.DoesNotExist):
            raise Http404 from None
        return seat.user, seat
    return request.user, None


def check_gm(user, game: Game) -> None:
    if not is_game_master(user, game):
        raise Http404


def is_seated(user, game: Game) -> bool:
    return user.is_authenticated and any(row[1] == user.pk for row in roster_rows(game))


# --- Doing -------------------------------------------------------------------------------------
def can_post(user, thread: Thread, *, now=None) -> Verdict:
    """Who writes where. The order of the checks is the order of the reasons a refused poster reads:
    the account first, then the thread, then the game's rules about the living and the dead."""
    now = now or timezone.now()
    if not user.is_authenticated:
        return Verdict(False, _("Log in to post."))
    if not user.is_active:
        return Verdict(False, _("Your account is disabled."))
    if user.banned_until is not None and user.banned_until > now:
        return Verdict(False, _("You are banned until %(when)s: %(reason)s") % {
            "when": timezone.localtime(user.banned_until).strftime("%d.%m.%Y %H:%M"), "reason": user.ban_reason})
    moderator = is_moderator(user, thread)
    private = thread.kind in Thread.PRIVATE_KINDS
    # A thread one may not read is not one to write in, whoever asks (a site moderator who is not
    # the game's GM does not read its private threads while it runs).
    if private and not can_see_thread(user, thread):
        return Verdict(False, _("This thread is not yours."))
    game = game_of(thread)
    if private and not moderator and game.status == Game.Status.FINISHED:
        # The private threads are the archive once the game is over: unsealed for all to read,
        # written by nobody but the moderators (post-game talk goes to the public threads).
        return Verdict(False, _("The game is over: its private threads are kept as they were, read-only."))
    if (thread.is_locked or (thread.lock_at is not None and thread.lock_at <= now)) and not moderator:
        return Verdict(False, _("The thread is locked."))
    if game is not None and not moderator and is_banned_from(user, game):
        return Verdict(False, _("You are banned from this game."))
    if private and not moderator:
        seat = seat_of(user, game)
        if thread.kind == Thread.Kind.FACTION and not in_play(game, seat):
            return Verdict(False, _("Only the team's players still in play write in the team chat."))
        if thread.kind == Thread.Kind.ROOM and (seat is None or (not in_play(game, seat)
                                                                  and not talks_when_dead(game, seat))):
            return Verdict(False, _("Only the room's members still in play write in the room."))
        if thread.kind == Thread.Kind.LOUNGE and not lounge_reader(game, seat):
            return Verdict(False, _("Living players do not write in the lounge."))
    if game is not None and thread.kind == Thread.Kind.GAME and not moderator:
        if game.status != Game.Status.FINISHED and not is_seated(user, game) and not _observers_post(game):
            return Verdict(False, _("Only the players and the GM post in a running game's thread."))
    if game is not None and not moderator and game.status == Game.Status.RUNNING:
        verdict = _ruleset_talk(user, thread, game, now)
        if verdict is not None:
            return verdict
        if thread.kind == Thread.Kind.GAME and _removed(user, game):
            # Out of the game as a replaced player is (issue 29), whatever the rule set lets its
            # dead say (a rule set's own refusal, asked first, gives its own reason).
            return Verdict(False, _("The GM removed you from this game: you no longer post in its thread."))
        if thread.kind == Thread.Kind.GAME and _silent_night(user, game):
            return Verdict(False, _("It is night: the table is silent, and the players in play do not post in the "
                                    "game thread until the day begins."))
    return ALLOWED


# The status a modkill gives a seat (games.services.moderation.seat_modkill), and the club's fourth
# foul («уход игрока из-за стола … не имеет 30 секунд на прощание»).
REMOVED = "removed"


def _removed(user, game: Game) -> bool:
    seat = seat_of(user, game)
    return seat is not None and seat.status == REMOVED


def _observers_post(game: Game) -> bool:
    """Whether observers write in this running game's thread: its rule set says (SiteRuleset.observers_post)."""
    adapter = registry.find(game.ruleset)
    return game.status == Game.Status.RUNNING and adapter is not None and adapter.observers_post


def night_silence(game: Game) -> bool:
    """The game option "night_silence": whether the game thread is closed to the players at night.
    The GM sets it; unset, the rule set's default (SiteStyle.night_silence: club's «Ночью строго
    запрещено жестикулировать и издавать звуки»)."""
    value = (game.options or {}).get("night_silence")
    if value is not None:
        return bool(value)
    return site_style(RULESETS.get(game.ruleset)).night_silence


def _silent_night(user, game: Game) -> bool:
    """A player in play at a silent night. A player out of play is left to the rule set's own
    rule (club: the farewell of one voted out is said before the table falls silent)."""
    if not night_silence(game):  # asked first: it costs no query
        return False
    phase = game.current_phase
    if phase is None or phase.kind != "night":
        return False
    return in_play(game, seat_of(user, game))


def talks_when_dead(game: Game, seat) -> bool:
    """A seat out of play that still talks in public and in its rooms, as its rule set says
    (SiteRuleset.talks_when_out_of_play; cards: the dead «Мститель», «Будучи мертвым, может
    продолжать публично общаться с другими игроками и участвовать в старых и новых чат-комнатах»)
    — not in the team chat, which is neither public nor a room."""
    if seat is None or in_play(game, seat):
        return False
    adapter = registry.find(game.ruleset)
    return adapter is not None and adapter.talks_when_out_of_play(seat)


# The threads where a game's players talk to each other (not letters to the GM, not the lounge).
_TALK_KINDS = (Thread.Kind.GAME, Thread.Kind.DISCUSSION, Thread.Kind.FACTION, Thread.Kind.ROOM)


def _quiet_phase(thread: Thread, game: Game, adapter) -> Verdict | None:
    """A phase of a kind the rule set keeps quiet (SiteRuleset.quiet_phases; cards, 001: «Также
    недопустима любая, в том числе публичная, коммуникация до начала первой ночи, пока идет сбор
    колод»): nobody but the GMs posts where the players talk."""
    phase = game.current_phase
    if phase is None or thread.kind not in _TALK_KINDS:
        return None
    reason = adapter.quiet_phases.get(phase.kind)
    return Verdict(False, reason) if reason is not None else None


def _silent_out_of_play(user, thread: Thread, game: Game, now, adapter) -> Verdict | None:
    """The rule "silent" (cards, 001: the dead «не должны продолжать общение со все еще
    участвующими в игре»): a player out of play does not post in the game thread, the discussion,
    team chats or rooms while the game runs (the lounge stays his) — except one who talks when
    dead (`talks_when_dead`: cards' Avenger), who keeps the game thread, the discussion and his
    rooms."""
    if thread.kind not in _TALK_KINDS:
        return None
    seat = seat_of(user, game)
    if seat is not None and not in_play(game, seat):
        if thread.kind != Thread.Kind.FACTION and talks_when_dead(game, seat):
            return None
        return Verdict(False, _("The dead do not talk to the players still in the game."))
    return None


def _farewell_post(user, thread: Thread, game: Game, now, adapter) -> Verdict | None:
    """The rule "farewell" (club, 003): «Убитый днём игрок имеет 30 секунд на прощание с городом»,
    and «У игрока, которого забирает дон, так же есть 30 секунд на прощание с городом»; but «У
    игроков, убитых ночью нет 30 секунд для прощания с городом. Они покидают стол без звуков и без
    жестов», and a player removed for fouls «не имеет 30 секунд на прощание». On the forum the
    thirty seconds are one farewell post in the game thread, written before the phase after his
    death closes; anyone else out of play does not post there. The public events that give a
    farewell are the rule set's `farewell_events` (club: voted out, or taken to the grave by the
    voted-out don). (The discussion, the lounge and the letters to the GM are not the table: they
    keep their general rules.)"""
    if thread.kind != Thread.Kind.GAME:
        return None
    seat = seat_of(user, game)
    if seat is None or in_play(game, seat):
        return None
    deaths = (GameEvent.objects.filter(game=game, kind__in=adapter.farewell_events, data__seat=seat.pk,
                                       phase__voided_at__isnull=True, phase__closed_at__isnull=False)
              .select_related("phase").order_by("-pk"))
    death = next((e for e in deaths if not e.data.get("retracted")), None)
    if death is None:
        return Verdict(False, _("Players out of play do not post in the game thread: those killed at night or "
                                "removed leave the table without a word."))
    following = game.phases.filter(voided_at__isnull=True, pk__gt=death.phase_id).order_by("pk").first()
    if following is None or following.closed_at is not None:
        return Verdict(False, _("Your farewell time is over: players out of play do not post in the game thread."))
    if Post.objects.filter(thread=thread, author=user, created_at__gte=death.phase.closed_at).exists():
        return Verdict(False, _("You have said your farewell: one post is all a player out of play writes."))
    return None


# What a player out of play may post, by the name a rule set gives (SiteRuleset.out_of_play_talk);
# "free" (the plain game's) adds nothing to the general rules.
_OUT_OF_PLAY_RULES = {"silent": _silent_out_of_play, "farewell": _farewell_post}


def _ruleset_talk(user, thread: Thread, game: Game, now) -> Verdict | None:
    """The game's rule set's own rules about who talks while it runs: its quiet phases first,
    then what a player out of play may post."""
    adapter = registry.find(game.ruleset)
    if adapter is None:
        return None
    verdict = _quiet_phase(thread, game, adapter)
    if verdict is not None:
        return verdict
    seat = seat_of(user, game) if thread.kind in _TALK_KINDS else None
    if seat is not None and in_play(game, seat):
        reason = adapter.talk_refusal(seat, thread.kind)  # the Show: a slave talks in the slaves' chat only
        if reason is not None:
            return Verdict(False, reason)
    rule = _OUT_OF_PLAY_RULES.get(adapter.out_of_play_talk)
    return rule(user, thread, game, now, adapter) if rule is not None else None


def can_start_thread(user, kind: str) -> Verdict:
    if not user.is_authenticated:
        return Verdict(False, _("Log in to start a thread."))
    if kind not in Thread.STANDALONE_KINDS:
        return Verdict(False, _("Threads cannot be started in this section."))
    return ALLOWED


def can_edit_post(user, post: Post, *, now=None) -> Verdict:
    from django.conf import settings

    now = now or timezone.now()
    if not user.is_authenticated:
        return Verdict(False, _("Log in to edit posts."))
    if is_moderator(user, post.thread):
        return ALLOWED
    if post.author_id != user.pk:
        return Verdict(False, _("You can edit only your own posts."))
    if post.is_deleted:
        return Verdict(False, _("The post has been deleted."))
    window = settings.MAFIA_POST_EDIT_WINDOW_SECONDS
    if (now - post.created_at).total_seconds() > window:
        return Verdict(
            False,
            _("Posts can be edited only within %(minutes)d minutes of posting.") % {"minutes": window // 60},
        )
    if post.thread.is_locked:
        return Verdict(False, _("The thread is locked."))
    return ALLOWED


def can_open_post_editor(user, post: Post, *, now=None) -> Verdict:
    """The edit page (its form is filled with the post's raw BBCode): can_edit_post, and the text
    holds no [private] tag. What was delivered stays as delivered (games.services.posts.post_edit
    refuses such a save for everyone), so the page is refused too, for everyone, with the reason —
    which is also what keeps the raw text of a running game's [private] messages from a site
    moderator who is not its GM. Nothing is lost: a moderator still hides such a post. (The Edit
    link itself follows can_edit_post: the cached post lists do not carry the bodies.)"""
    verdict = can_edit_post(user, post, now=now)
    if verdict and has_private_messages(post.body):
        return Verdict(False, _("Posts with private messages cannot be edited."))
    return verdict


def has_private_messages(body: str) -> bool:
    """Whether a post's BBCode holds a [private] tag (the same test post_edit makes)."""
    return "[private" in (body or "").lower()


def can_read_private_texts(user, game: Game | None) -> bool:
    """Whether this viewer may read every [private] text of the game: its GMs while it runs,
    everybody afterwards. (Others read the texts they sent or received, filter_visible_private_messages.)"""
    return game is None or game.status == Game.Status.FINISHED or is_game_master(user, game)


def can_see_post_source(user, post: Post, body: str) -> bool:
    """The raw BBCode of a post or of an old version of it (the edit history's "BBCode" boxes):
    for its thread's moderators — but a source that holds [private] texts only for those who may
    read all of them, so that a site moderator who is not the game's GM reads none while it runs."""
    if not is_moderator(user, post.thread):
        return False
    return not has_private_messages(body) or can_read_private_texts(user, game_of(post.thread))


def can_delete_post(user, post: Post) -> Verdict:
    if not is_moderator(user, post.thread):
        return Verdict(False, _("Only moderators can delete posts."))
    return ALLOWED


# --- Cards (a rule set with card pages): a player's Hand, Sleeve and deck -------------------------
def has_cards_pages(game: Game) -> bool:
    """Whether the game's rule set has the card pages and a card collection (the capability
    "cards_pages": the `cards` rule set)."""
    adapter = registry.find(game.ruleset)
    return adapter is not None and adapter.has("cards_pages")


def check_cards_game(game: Game) -> None:
    """The card pages exist only for games of a rule set with card pages that have been dealt."""
    if not has_cards_pages(game) or game.status == Game.Status.SIGNUPS or not game.state:
        raise Http404


def can_see_cards(user, game: Game, seat) -> bool:
    """A seat's containers (Hand, Sleeve, deck) and its plays are seen by the seat's player and
    the game's GMs — never by team-mates through these pages (the mafia learn each other's decks
    and Hands once, through the `mafia_decks` event), nor by anyone after a guess of a seat id
    of another game. «Количество карт в Рукаве и колоде знает только владелец.»"""
    if seat is None or seat.game_id != game.pk:
        return False
    if is_game_master(user, game):
        return True
    return user.is_authenticated and seat.user_id == user.pk


def check_see_cards(user, game: Game, seat) -> None:
    """404 unless `can_see_cards` (and the game is a dealt cards game)."""
    check_cards_game(game)
    if not can_see_cards(user, game, seat):
        raise Http404


def check_gm_cards(user, game: Game) -> None:
    """The GM card dashboard: the game's GMs of a dealt cards game; 404 for everyone else."""
    check_cards_game(game)
    check_gm(user, game)


def filter_visible_card_events(user, game: Game, seat, events: QuerySet) -> QuerySet:
    """The events of one seat's card pages: what the viewer may read (filter_visible_events)
    narrowed to that seat's own audience and its team's, after check_see_cards."""
    check_see_cards(user, game, seat)
    audiences = [f"seat:{seat.pk}"]
    if seat.faction and _knows_team(game, seat.role):
        audiences.append(f"faction:{seat.faction}")
    return filter_visible_events(user, game, events).filter(audience__in=audiences)
