"""Forum views: the index, sections, thread pages, replies, preview, edits and moderation."""

from __future__ import annotations

import functools
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils import timezone, translation
from django.utils.cache import patch_cache_control
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from config.middleware import OWN_CACHE_CONTROL
from config.ranges import ranged_file_response
from games import confirm, permissions, selectors
from games.caching import pagecache
from games.forms import CommunicationForm, PostForm, PostValues, ThreadForm
from games.models import Game, Post, PostMedia, PrivateMessage, Thread
from games.rulesets import registry
from games.selectors.moderation import absences_by_user, replaced_names
from games.selectors.state import game_state, table_order, table_style
from games.selectors.autohost import hosted_by_site, standby_offer
from games.selectors.votes import syntax_examples, vote_profile_for, vote_targets_for, voting_kinds, voting_phase
from games.services import ActionRefused, gm_writes
from games.services.gm_writes import COUNT, THREADS
from games.services.posting import post_submit
from games.services.posts import (
    post_edit,
    post_preview,
    post_rate_check,
    post_set_deleted,
    posts_refresh_html,
)
from games.services.games import communication_of
from games.services.orders import order_from_letter, order_preview
from games.services.votes import vote_after_edit, vote_buttons, vote_preview, vote_text_for, ways_to_vote
from games.services.threads import thread_create, thread_mark_read, thread_schedule_lock, thread_set_locked
from games.text import bbcode
from games.text.votes import SYNTAX_NATIVE
from games.views.access import kept_viewer
from games.views.votes import current_count_html
from games.wording import faction_label, role_label


@functools.lru_cache(maxsize=4096)
def _vote_buttons(name: str, ruleset: str, language: str,
                  syntaxes: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """A player's vote buttons (pymorphy3 inflects the name, about 0.7 ms a player: memoised per
    process; the labels are in the active language, part of the key; the texts are written in
    the game's vote syntaxes, part of the key too)."""

    return tuple(vote_buttons(name, ruleset, syntaxes))


def _parse_page(value: str | None) -> int | None:
    try:
        return int(value) if value else None
    except ValueError:
        return None


def _iso_ids(request: HttpRequest) -> list[int]:
    ids = []
    for raw in request.GET.getlist("iso"):
        try:
            ids.append(int(raw))
        except ValueError:
            continue
    return ids[:20]


def _thread_url(thread: Thread, *, page: int | None = None, iso: list[int] | None = None, anchor: str = "") -> str:
    params = []
    if page:
        params.append(("page", page))
    for author_id in iso or []:
        params.append(("iso", author_id))
    query = f"?{urlencode(params)}" if params else ""
    return f"{_reverse('games:thread', thread.pk)}{query}{'#' + anchor if anchor else ''}"


def _visible_thread(request: HttpRequest, pk: int) -> Thread:
    thread = get_object_or_404(permissions.with_game(Thread.objects.all()), pk=pk)
    permissions.check_see_thread(request.user, thread)
    return thread


def _thread_row(pk: int, stamps, *, count: bool = True) -> Thread:
    """The thread's row: its post count and last post time read (a new post moves them and only
    the thread's counter), the rest kept under the site's, the thread's posts' and its game's
    counters (pagecache.placement: every other write to the row moves one of them). Without
    `count`, the post count of a kept row is left deferred: read if anything asks for it."""
    read = []

    def row():
        read.append(1)
        return Thread.objects.filter(pk=pk).first()

    thread = pagecache.kept_value(f"thread-row:{pk}", stamps, ("site", "posts", "game"), row)
    if thread is None:
        raise Http404
    if read:
        return thread  # read just now, its count with it
    if not count:
        thread.__dict__.pop("post_count", None)
        thread.__dict__.pop("last_post_at", None)
        return thread
    with connection.cursor() as cursor:
        # One integer: the ORM's query building would cost more than the query (about 0.2 ms).
        cursor.execute(_post_count_sql(), [pk])
        counts = cursor.fetchone()
    if counts is None:
        raise Http404
    thread.post_count = counts[0]
    # The last post's time, which the page does not show, is left deferred: read if anything asks.
    thread.__dict__.pop("last_post_at", None)
    return thread


@functools.cache
def _post_count_sql() -> str:
    quote = connection.ops.quote_name
    return f"SELECT {quote('post_count')} FROM {quote(Thread._meta.db_table)} WHERE {quote('id')} = %s"


def _visible_thread_kept(request: HttpRequest, pk: int, stamps, *, count: bool = True) -> Thread:
    """_visible_thread for a view of the page: the thread's row alone, with its game (its GM and
    current phase joined) kept under the game's and the site's counters, when this worker knows
    which game the thread belongs to (pagecache.read_stamps): a post in the thread moves neither,
    so the page after it reads one narrow row instead of the four-table join. Without `count`
    (the reply, whose posting service reads the thread's row locked), a kept row's post count
    is read only if asked for."""
    if not (stamps.game_known and stamps.game_id):
        return _visible_thread(request, pk)
    thread = _thread_row(pk, stamps, count=count)
    game = pagecache.kept_value(f"game-row:{stamps.game_id}", stamps, ("site", "game"), lambda: (
        Game.objects.select_related("gm", "current_phase").filter(pk=stamps.game_id).first()))
    owner = {Thread.Kind.GAME: "game_thread_id", Thread.Kind.DISCUSSION: "discussion_thread_id"}.get(thread.kind)
    if game is None or (getattr(game, owner) != thread.pk if owner else thread.game_id != game.pk):
        return _visible_thread(request, pk)  # not the game remembered (a number reused): read it
    thread._game_cache = game
    permissions.check_see_thread(request.user, thread)
    return thread


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    sections = [
        (kind, Thread.Kind(kind).label, selectors.section_threads(user=request.user, kind=kind)[:5])
        for kind in Thread.STANDALONE_KINDS
    ]
    return render(
        request,
        "games/index.html",
        {"sections": sections, "games": selectors.games_by_status(user=request.user)},
    )


@require_GET
def section(request: HttpRequest, kind: str) -> HttpResponse:
    if kind not in Thread.STANDALONE_KINDS:
        return render(request, "404.html", status=404)
    threads = selectors.section_threads(user=request.user, kind=kind)
    from django.core.paginator import Paginator

    page = Paginator(threads, 30).get_page(request.GET.get("page"))
    return render(
        request,
        "games/section.html",
        {"kind": kind, "label": Thread.Kind(kind).label, "page_obj": page,
         "can_start": permissions.can_start_thread(request.user, kind)},
    )


@login_required
@require_http_methods(["GET", "POST"])
def thread_new(request: HttpRequest, kind: str) -> HttpResponse:
    if kind not in Thread.STANDALONE_KINDS:
        return render(request, "404.html", status=404)
    form = ThreadForm(request.POST or None)
    error = None
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            post_rate_check(author=request.user)  # a new thread's first post counts as a post
            thread, _post = thread_create(
                kind=kind, title=form.cleaned_data["title"], author=request.user, body=form.cleaned_data["body"]
            )
        except ActionRefused as refused:
            error, status = refused.message, 400
        else:
            return redirect(thread)
    elif request.method == "POST":
        status = 400
    return render(
        request, "games/thread_new.html",
        {"form": form, "kind": kind, "label": Thread.Kind(kind).label, "error": error}, status=status,
    )


def _thread_context(request: HttpRequest, thread: Thread, *, page: int | None, form: PostForm | None = None,
                    error=None, preview_html: str | None = None, just_posted: int | None = None,
                    stamps=None, fresh: Post | None = None) -> dict:
    """The thread page's context. `stamps`: the page cache's counters, read before the thread
    (games/caching/pagecache.py); read here if not (then only the post list's key uses them).
    `fresh`: the post the request stored (_post_list)."""

    iso = _iso_ids(request)
    user = request.user
    game = permissions.game_of(thread)
    if stamps is None:
        stamps = pagecache.read_stamps(request, thread.pk)
    pagecache.complete_stamps(stamps, game)
    if game is not None and user.is_authenticated:
        _remember_game_reads(user, game, stamps)
    # A rule set whose ballots are its own (SiteRuleset.voting_kinds empty: the Show's hidden ones)
    # has no core vote count on its thread.
    has_votes = game is not None and thread.kind == Thread.Kind.GAME and bool(voting_kinds(game)) and (
        game.current_phase_id is not None or game.phases.exists())
    seats = []
    if has_votes and user.is_authenticated:
        # One query for the roster serves the vote button, seat_of and can_post's is_seated.
        seats = permissions.seats_with_users(user, game)
    moderator = permissions.is_moderator(user, thread)
    can_post = permissions.can_post(user, thread)
    if form is None:
        initial = ""
        quote_number = _parse_page(request.GET.get("quote"))
        if quote_number:
            quoted = Post.objects.filter(thread=thread, number=quote_number, is_deleted=False).select_related("author").first()
            if quoted:
                initial = bbcode.quote_source(permissions.shown_author(user, quoted, game).display_name,
                                              quoted.body) + "\n"
        vote_from = _parse_page(request.GET.get("vote_from"))
        if vote_from and user.is_authenticated:
            # "Post the changed vote" after an edit: the vote the author's edited post now reads as.
            edited = Post.objects.filter(thread=thread, number=vote_from, author=user, is_deleted=False).first()
            notice = vote_after_edit(post=edited, editor=user) if edited is not None else None
            if notice is not None and notice.new_text:
                initial = notice.new_text
        form = PostForm(initial={"body": initial})
    vote_count_html, vote_targets, peace_button, vote_ways = None, [], "", ""
    if has_votes:

        if game.current_phase is not None:
            game.current_phase.game = game  # the count and the vote button read the rule set's state from it
        # The thread region alone (an htmx reply or page change) does not show the count: it is
        # not computed for it (after a vote, the recount of the day). The reply's
        # "votes-changed" trigger makes the page fetch the count itself.
        vote_count_html = "" if _region_only(request) else current_count_html(request, game, stamps=stamps, roster=seats)
        phase = voting_phase(game=game)
        seat = permissions.seat_of(user, game)
        if seat is not None and phase is not None and phase.is_open:
            targets = vote_targets_for(phase, seats, seat.pk)  # the rule that judges the vote
            if targets is not None:
                language = translation.get_language() or ""
                syntaxes = tuple(sorted(game.vote_syntaxes or ()))
                vote_targets = [button for s in seats if s.pk in targets
                                for button in _vote_buttons(s.user.display_name, game.ruleset, language, syntaxes)]
                # «За мир» where the rule set's vote has peace (cards' Veche), asked, not switched on
                # its key: the text of a peace vote the game reads («[b]За мир[/b]», «##vote no lynch»).
                if vote_profile_for(game).peace_allowed:
                    peace_button = vote_text_for(kind="peace", syntaxes=syntaxes)
                # With the rule set's own words off (a «##vote only» game), the ways votes are written
                # here, told before a bold vote is posted and refused (issue 29, the second walk).
                if SYNTAX_NATIVE not in syntaxes:
                    vote_ways = ways_to_vote(game)
    page_data, post_list_html = _post_list(request, thread, game, page=page, iso=iso, moderator=moderator,
                                           can_post=bool(can_post), show_votes=vote_count_html is not None,
                                           just_posted=just_posted, stamps=stamps, fresh=fresh)
    if user.is_authenticated and user.pk == stamps.user_id and not _region_only(request):
        # The bell (games.context_processors.notifications memoises it on the request): the
        # user's notifications and his row, kept under his and the site's counters.
        from games.selectors.notifications import unread_count

        request._notifications_unread = pagecache.kept_value(
            f"unread:{user.pk}", stamps, ("site", "user"), lambda: unread_count(user))
    # Right after his own post (the reply's mark was moved to it first) the poster has read up to it.
    read_up_to = just_posted if just_posted and user.is_authenticated else _read_up_to(request, thread, stamps)
    return {
        "thread": thread,
        "game": game,
        "read_up_to": read_up_to,
        "vote_count_html": vote_count_html,
        "vote_targets": vote_targets,
        "peace_button": peace_button,
        "vote_ways": vote_ways,
        "vote_poll_seconds": settings.MAFIA_VOTE_POLL_SECONDS,
        "comment_field": game is not None and thread.kind == Thread.Kind.GAME and _rooms_enabled(game),
        # The file input of a media post, only where the rule set says the user owes one now.
        "media_kind": (registry.site(game.ruleset).media_post_kind(game=game, user=user)
                       if can_post and game is not None and thread.kind == Thread.Kind.GAME
                       and game.status == Game.Status.RUNNING else None),
        # Whom the poster may sign his post as (the Show's Говорун, /fake), where the rule set offers it.
        "sender_choices": (registry.site(game.ruleset).post_sender_choices(game=game, user=user)
                           if can_post and game is not None and thread.kind == Thread.Kind.GAME
                           and game.status == Game.Status.RUNNING else []),
        "page": page_data,
        "post_list_html": post_list_html,
        "iso": iso,
        "form": form,
        "error": error,
        "preview_html": preview_html,
        "can_post": can_post,
        "is_moderator": moderator,
        "just_posted": just_posted,
        "page_url": lambda n: _thread_url(thread, page=n, iso=iso),
        "iso_authors_all": selectors.post_author_names(thread=thread, stamps=stamps),
        "valid_until": _valid_until(thread, user, page_data.posts),
    }


def _remember_game_reads(user, game: Game, stamps, *, seats: bool = True) -> None:
    """The game's roster (every seat with its user), its co-GMs and the viewer's game ban, kept
    under the game's and the site's counters (seats, co-GMs and game bans are the game's rows,
    names and site bans the users': every write to them moves one of the two), handed to
    games.permissions' per-instance caches: the checks and the vote buttons of a page rendered
    again after a post read them from there, no query. Without `seats` (a page from its frame,
    which shows no vote button), what the viewer's checks ask is enough: the posting path read it."""

    if "_seats_with_users" in game.__dict__:
        return  # this request read them already: those are the ones to use
    if (game.__dict__.get("_co_gm_ids") is not None
            and all(name in game.__dict__ for name in ("_roster_rows", f"_seat_of_{user.pk}", f"_banned_{user.pk}"))):
        # The posting path read the roster rows, the poster's seat, the co-GMs and his ban, fresh:
        # only a page's vote buttons want more, every seat with its user (one query).
        if seats:
            permissions.seats_with_users(user, game)
        return

    def read() -> tuple[list, list[int]]:
        seats = list(game.seats.select_related("user").order_by("number"))
        for seat in seats:
            seat._state.fields_cache.pop("game", None)  # the game itself is not kept with them
        return seats, sorted(game.co_gms.values_list("pk", flat=True))

    seats, co_gm_ids = pagecache.kept_value(f"game-reads:{game.pk}", stamps, ("site", "game"), read)
    # The viewer's game ban (a row of the game's), kept the same way, per viewer.
    banned = pagecache.kept_value(f"game-ban:{game.pk}:{user.pk}", stamps, ("site", "game"),
                                  lambda: game.bans.filter(user=user).exists())
    for seat in seats:
        seat.game = game
    permissions.remember_seats(user, game, seats)
    permissions.remember_viewer(user, game, seat=next((s for s in seats if s.user_id == user.pk), None),
                                co_gm_ids=co_gm_ids, banned=banned)


def _url_prefix(name: str, *args) -> str:
    """A URL pattern's path up to its last number, for the post list's links (one reverse per
    page instead of several per post): ("games:post", 5) -> "/threads/5/posts/". Memoised per
    process and script prefix (the URL patterns do not change while it runs)."""
    return _url_prefix_of(get_script_prefix(), name, args)


def _reverse(name: str, *args) -> str:
    """reverse(name, args=args), memoised per process, script prefix and URLconf (the URL patterns do
    not change while it runs): a reply asked for the thread's URL, its poll's and its unread link's
    each time, a reverse each."""
    return _reverse_of(get_script_prefix(), get_urlconf(), name, args)


@functools.lru_cache(maxsize=16384)
def _reverse_of(_script_prefix: str, _urlconf, name: str, args: tuple) -> str:
    return reverse(name, args=list(args))


@functools.lru_cache(maxsize=8192)
def _url_prefix_of(_script_prefix: str, name: str, args: tuple) -> str:
    url = reverse(name, args=[*args, 0])
    head, _zero, _tail = url.rpartition("/0/")
    return head + "/"


def _private_audience(request: HttpRequest, game, marked: list[int]) -> str:
    """Which [private] texts of the page's marked posts this viewer may read, as a cache-key part:
    the ids games.permissions lets through (one query). Viewers who may read the same texts share
    a post list; no one is ever served a list rendered for another set."""
    if game is None or not marked:
        return ""

    rows = PrivateMessage.objects.filter(post_id__in=marked)
    visible = sorted(permissions.filter_visible_private_messages(request.user, game, rows).values_list("pk", flat=True))
    return ",".join(map(str, visible))


def _post_list(request: HttpRequest, thread: Thread, game, *, page: int | None, iso: list[int], moderator: bool,
               can_post: bool, show_votes: bool, just_posted: int | None, stamps, fresh: Post | None = None):
    """The page's posts and their list's HTML for this viewer: from the cache (games/caching/pagecache.py)
    when a viewer of the same class saw it since the last write to the posts, else rendered.
    `fresh`: the post this request stored (the reply), as the posting service wrote it: when it is
    the one post a kept list lacks, it is not read back."""

    user = request.user
    context = {
        "thread": thread, "gm_id": game.gm_id if game is not None else None, "is_moderator": moderator,
        "can_post": can_post, "csrf_token": pagecache.CSRF_SENTINEL,
        "thread_url": _url_prefix("games:post", thread.pk), "post_url": _url_prefix("games:post_edit"),
        "profile_url": _url_prefix("accounts:profile"),
        "votes_url": _reverse("games:votes", game.pk) if show_votes else "",
    }
    # A post signed with another name (Post.shown_author) shows its true author only to some viewers:
    # those are a class of their own for the cached lists (permissions.can_see_true_author).
    truth = permissions.can_see_true_author(user, game)
    context["truth"] = truth
    if iso:
        page_data = selectors.thread_page(user=user, thread=thread, page=page, iso_author_ids=iso, truth=truth)
        html = _render_post_list(request, thread, game, page_data.posts, context, moderator=moderator, stamps=stamps)
        return page_data, pagecache.personalize(html, page_data.posts, request=request, user=user, just_posted=just_posted)
    page_data = selectors.thread_page_bounds(thread=thread, page=page)
    high = min(page_data.high, thread.post_count)

    def key(audience=None):
        return _list_key(thread, game, stamps, page_data, moderator=moderator, can_post=can_post,
                         show_votes=show_votes, truth=truth, audience=audience)

    base_key = store_key = key()
    # Fetched with the frame when this process guessed its key (thread_detail), else read now.
    cached = stamps.fetched[base_key] if base_key in stamps.fetched else pagecache.list_get(base_key)
    if cached is not None and cached.private:
        store_key = key(_private_audience(request, game, cached.marked))
        cached = pagecache.list_get(store_key)
    entry = cached if cached is not None and cached.high == high else None
    if entry is None and cached is not None and cached.parts is not None and cached.high < high:
        # Kept under the thread's posts counter: the posts up to cached.high are as they were
        # (any other write to them moves it); only the posts added since are read and rendered.
        as_stored = fresh is not None and fresh.number == high == cached.high + 1
        newer = [fresh] if as_stored else selectors.thread_posts(user=user, thread=thread, low=cached.high, high=high)
        if newer and not any("bb-private" in p.html for p in newer):
            # (The <li> made are written with the list: one round trip; the reply's new post has
            # none kept yet, not looked up.)
            made: dict = {}
            parts = _post_list_parts(request, thread, game, newer, context, moderator=moderator, stamps=stamps,
                                     new=as_stored, defer=made)
            if parts is not None:
                entry = cached.extended(newer, parts, high)
                pagecache.list_set(store_key, entry, also=made)
    if entry is None:
        posts = selectors.thread_posts(user=user, thread=thread, low=page_data.low, high=high)
        marked = [p.pk for p in posts if "bb-private" in p.html]
        made = {}
        parts = _post_list_parts(request, thread, game, posts, context, moderator=moderator, stamps=stamps, defer=made)
        html = (parts[0] + "".join(parts[1]) + parts[2] if parts is not None
                else _template_render("games/_post_list.html")({**context, "posts": posts}))
        entry = pagecache.PostList(html=html, meta=pagecache.meta_of(posts), private=bool(marked), marked=marked,
                                   high=high, parts=parts)
        if marked:
            pagecache.list_set(base_key, pagecache.PostList(html="", meta=[], private=True, marked=marked))
            pagecache.list_set(key(_private_audience(request, game, marked)), entry, also=made)
        else:
            pagecache.list_set(base_key, entry, also=made)
    posts = pagecache.posts_from_meta(entry.meta, thread)
    page_data.posts = posts
    return page_data, pagecache.personalize(entry.html, posts, request=request, user=user, just_posted=just_posted)


def _list_key(thread: Thread, game, stamps, page_data, *, moderator: bool, can_post: bool, show_votes: bool,
              truth: bool = True, audience: str | None = None) -> str:
    """The cache key of a page's post list for a viewer class (pagecache.list_key); whether the viewer
    sees a signed post's true author (`truth`) is part of the class."""
    extra = f"{game.gm_id if game is not None else None}|{bbcode.RENDERER_VERSION}|{int(show_votes)}|{page_data.per_page}"
    return pagecache.list_key(thread=thread, stamps=stamps, low=page_data.low,
                              viewer=f"{int(moderator)}{int(can_post)}{int(truth)}", extra=extra, audience=audience)


def _template_render(name: str):
    # The template loader is Django's, loaded when a page renders (as the other views' helpers do).
    from django.template.loader import get_template

    return get_template(name).render


def _prepare_posts(request: HttpRequest, thread: Thread, game, posts: list[Post], *, moderator: bool, stamps,
                   truth: bool = True) -> None:
    """What the post list's template reads of each post besides its row: its HTML as this viewer
    may see it, the names its author replaced, whether its body shows."""
    # The communication package imports the services: imported when a page needs it.
    from games.communication.private_tag import private_display

    posts_refresh_html(posts=posts)
    private_display(user=request.user, thread=thread, posts=posts)
    replaced = {}
    if game is not None:

        # Replacements are the game's rows and the names users' rows: kept under those counters.
        replaced = pagecache.kept_value(f"replaced:{game.pk}", stamps, ("site", "game"), lambda: replaced_names(game))
    for post in posts:
        # The author this viewer class is shown (permissions.shown_author; the list's key has `truth`).
        post.shown_user = post.shown_author if post.shown_author_id and not truth else post.author
        post.signed_as = post.shown_author if post.shown_author_id and truth else None
        post.replaced_names = replaced.get(post.shown_user.pk, [])
        post.body_visible = moderator or not post.is_deleted  # permissions.can_see_post_body


def _render_post_list(request: HttpRequest, thread: Thread, game, posts: list[Post], context: dict, *,
                      moderator: bool, stamps) -> str:
    _prepare_posts(request, thread, game, posts, moderator=moderator, stamps=stamps, truth=context.get("truth", True))
    # Each post's <li> is kept by what it shows (games/caching/pagecache.py, "Layer 0"): only the posts
    # that changed since are rendered.
    return pagecache.render_fragments(posts, context, _template_render("games/_post_list.html"))


def _post_list_parts(request: HttpRequest, thread: Thread, game, posts: list[Post], context: dict, *,
                     moderator: bool, stamps, new: bool = False, defer: dict | None = None):
    """The post list of `posts` as (head, each post's <li>, tail), each <li> from its kept
    fragment when there is one; None when it cannot be cut apart (pagecache.fragment_pieces, which
    `new` and `defer` are passed to)."""
    _prepare_posts(request, thread, game, posts, moderator=moderator, stamps=stamps, truth=context.get("truth", True))
    return pagecache.fragment_pieces(posts, context, _template_render("games/_post_list.html"), new=new, defer=defer)


def _valid_until(thread: Thread, user, posts) -> float | None:
    """Until when a rendering of this page stays true with no write to the database: the clocks
    it depends on (a scheduled lock, the reader's ban ending, an Edit link's window)."""

    now = timezone.now()
    ends = [pagecache.edit_window_end(posts, user)]
    if thread.lock_at is not None and thread.lock_at > now:
        ends.append(thread.lock_at.timestamp())
    banned_until = getattr(user, "banned_until", None) if user.is_authenticated else None
    if banned_until is not None and banned_until > now:
        ends.append(banned_until.timestamp())
    ends = [end for end in ends if end is not None]
    return min(ends) if ends else None


# Per process, each pagination made: all it shows is the page's number, the number of pages, the
# thread's URL, the ISO filter and the language's words.
_paginations: dict[tuple, str] = {}


def _pagination_html(thread: Thread, page, iso: list[int]) -> str:
    """The pagination of the page, made once per process for what it shows."""
    # The template loader is Django's, loaded when a page renders (as the other views' helpers do).
    from django.template.loader import get_template

    key = (_reverse("games:thread", thread.pk), page.page, page.pages, tuple(iso), translation.get_language() or "")
    html = _paginations.get(key)
    if html is None:
        links = [(n, _thread_url(thread, page=n, iso=iso)) if n else (None, None) for n in page.page_range()]
        html = get_template("games/_pagination.html").render({
            "page": page, "page_links": links,
            "prev_url": _thread_url(thread, page=page.page - 1, iso=iso) if page.has_previous else None,
            "next_url": _thread_url(thread, page=page.page + 1, iso=iso) if page.has_next else None,
        })
        if len(_paginations) > 10_000:
            _paginations.clear()
        _paginations[key] = html
    return html


def _reply_notice(notices: dict) -> str:
    """What the reply form says after a reply: a refusal (`error`), how the post's vote or order
    was read (`vote_confirmation`, `order_confirmation`); nothing on a page view."""
    if not any(notices.get(name) for name in ("error", "vote_confirmation", "order_confirmation")):
        return ""
    return _template_render("games/_reply_notice.html")(notices).strip()


def _region_pieces(request: HttpRequest, thread: Thread, page, *, iso: list[int], post_list_html: str,
                   read_up_to: int | None, notices: dict | None = None) -> dict:
    """The parts of the thread page that a post in the thread changes (its number of pages, its
    last post, the reader's first unread one, the post list) or that say what a reply did (the
    form's notice), made per request: the rest of the page, its frame, may be kept across posts
    (games/caching/pagecache.py, "Layer 1")."""
    from django.utils.safestring import mark_safe

    pagination = _pagination_html(thread, page, iso)
    # The live-update poll, on the thread's last page only (games/views/live.py).
    poll_after = page.last_number if not page.has_next and not iso else None
    poll = format_html(
        '<div id="thread-poll" class="thread-poll" data-after="{}" aria-live="polite" hx-get="{}?after={}" '
        'hx-trigger="every {}s" hx-swap="innerHTML"></div>', poll_after,
        _reverse("games:thread_poll", thread.pk), poll_after, settings.MAFIA_THREAD_POLL_SECONDS,
    ) if poll_after is not None else ""
    unread = selectors.unread_from_mark(read_up_to, thread) if request.user.is_authenticated else None
    unread_link = format_html('<a href="{}">{}</a>', _reverse("games:thread_unread", thread.pk),
                              _("First unread")) if unread else ""
    return {"pagination_html": mark_safe(pagination), "poll_html": poll, "unread_link_html": unread_link,  # noqa: S308 - a template's output
            "post_list_html": mark_safe(post_list_html),  # noqa: S308 - rendered by games/_post_list.html
            "reply_notice_html": mark_safe(_reply_notice(notices or {}))}  # noqa: S308 - a template's output


def _render_thread(request: HttpRequest, context: dict, *, status: int = 200, framing=None) -> HttpResponse:
    """The thread page (or its region, for htmx). With `framing` (pagecache.frame_key's answer), its
    frame is kept for this browser session: rendered once with the pieces as markers, then the
    pieces put in."""
    pieces = _region_pieces(request, context["thread"], context["page"], iso=context["iso"],
                            post_list_html=context["post_list_html"], read_up_to=context["read_up_to"],
                            notices={name: context.get(name) for name in ("error", "vote_confirmation",
                                                                          "order_confirmation")})
    template = "games/thread.html"
    if _region_only(request):
        template += "#thread-region"
    if framing is None:
        return render(request, template, {**context, **pieces}, status=status)
    response = render(request, template, {**context, **pagecache.frame_markers(pieces)}, status=status)
    frame = pagecache.frame_store(request, framing, response.content.decode(), inputs=context["frame_inputs"],
                                  # the clocks but the Edit links' (the post list, made per request, shows them)
                                  valid_until=_valid_until(context["thread"], request.user, []))
    response.content = frame.assemble(pieces)
    return response


def _thread_from_frame(request: HttpRequest, thread: Thread, frame, *, page: int | None, stamps,
                       reply: Post | None = None, fresh: Post | None = None, notices: dict | None = None) -> HttpResponse:
    """The page from its kept frame: only the post list (itself from the cache or the posts' kept
    fragments), the pagination, the poll and the unread link are made. `reply`: the post an htmx
    reply stored (its region, whose poster's read mark moved with the post; `fresh`: that post as
    the list reads it, _as_listed; `notices`: what its form says)."""
    user = request.user
    game = permissions.game_of(thread)
    if game is not None and user.is_authenticated:
        _remember_game_reads(user, game, stamps, seats=False)  # the roster and co-GMs the post list's links ask of
    inputs = frame.inputs
    just_posted = reply.number if reply is not None else None
    page_data, post_list_html = _post_list(request, thread, game, page=page, iso=[], moderator=inputs["moderator"],
                                           can_post=inputs["can_post"], show_votes=inputs["show_votes"],
                                           just_posted=just_posted, stamps=stamps, fresh=fresh)
    read_up_to = just_posted if reply is not None else _read_up_to(request, thread, stamps)
    pieces = _region_pieces(request, thread, page_data, iso=[], post_list_html=post_list_html, read_up_to=read_up_to,
                            notices=notices)
    if reply is None and (read_up_to is None or read_up_to < page_data.last_number):
        _mark_read(user, thread, page_data.last_number)
    response = HttpResponse(frame.assemble(pieces))
    if reply is None:
        ends = [end for end in (frame.valid_until, _valid_until(thread, user, page_data.posts)) if end is not None]
        pagecache.offer(request, stamps=stamps, valid_until=min(ends) if ends else None)
    return response


def _region_only(request: HttpRequest) -> bool:
    """An htmx request for the thread region alone (games/thread.html#thread-region)."""
    return bool(request.htmx) and request.htmx.target == "thread-region"


# Per process, the cache key of a thread's author list (selectors.post_authors_key: the thread's
# id and creation time, which never change), so that the page fetches it with its counters.
_authors_keys: dict[int, str] = {}


def _author_ids(thread: Thread, stamps) -> list[int]:
    """selectors.post_author_ids, from the entry fetched with the page's counters when there was one."""
    key = selectors.post_authors_key(thread)
    if key in stamps.fetched:
        return selectors.post_author_ids(thread=thread, cached=stamps.fetched[key])
    if len(_authors_keys) > 50_000:
        _authors_keys.clear()
    _authors_keys[thread.pk] = key
    return selectors.post_author_ids(thread=thread)


# The reads a thread page keeps under the counters (pagecache.kept_value), fetched with them.
_PAGE_READS = ("thread-row:{thread}", "game-row:{game}", "game-reads:{game}", "game-ban:{game}:{user}", "replaced:{game}", "unread:{user}")


# What the reply reads before posting: the thread's row and its game (the rest the posting
# service reads itself, locked; unpickling the kept roster for nothing costs more than it saves).
_REPLY_READS = ("thread-row:{thread}", "game-row:{game}")


def _read_up_to(request: HttpRequest, thread: Thread, stamps) -> int | None:
    """The reader's read mark of the thread, kept under his and every reader's read-marks
    counters (only a write to the read marks moves it: `_mark_read` declares his own)."""
    user = request.user
    if not user.is_authenticated or stamps is None or user.pk != stamps.user_id:
        return selectors.read_up_to(user=user, thread=thread)
    return pagecache.kept_value(f"read-mark:{thread.pk}:{user.pk}", stamps, ("marks", "own marks"),
                                lambda: selectors.read_up_to(user=user, thread=thread))


def _mark_read(user, thread: Thread, number: int) -> None:
    """thread_mark_read, its write declared as this reader's (pagecache: his kept read mark's counter)."""
    with pagecache.writing(read_marks=user.pk if user.is_authenticated else None):
        thread_mark_read(user=user, thread=thread, number=number)


@require_GET
def thread_detail(request: HttpRequest, pk: int) -> HttpResponse:

    # A reload of a page kept for this browser is answered before this view, by
    # games.caching.middleware.ThreadPageCacheMiddleware. The counters the page depends on are read
    # first, before the data they stamp, with the reads kept under them and the session's user;
    # the middleware keeps the response if it may.
    authors_key = _authors_keys.get(pk)
    stamps = pagecache.read_stamps(request, pk, prefetch=_PAGE_READS, fetch=(authors_key,) if authors_key else ())
    pagecache.kept_user(request, stamps)
    thread = _visible_thread_kept(request, pk, stamps)
    page_param = request.GET.get("page")
    page = selectors.page_count(thread.post_count, _per_page()) if page_param == "last" else _parse_page(page_param)
    # The page's frame, kept for this browser session across posts in the thread (pagecache, "Layer 1").
    framing = None
    if not _iso_ids(request) and not ({"quote", "vote_from"} & request.GET.keys()):
        pagecache.complete_stamps(stamps, permissions.game_of(thread))
        framing = pagecache.frame_key(request, thread, stamps, author_ids=_author_ids(thread, stamps))
        frame = None
        if framing is not None:
            # The post list the frame was last seen with, fetched with it (one round trip).
            seen = pagecache.frame_inputs_seen(framing)
            also = [_list_key(thread, permissions.game_of(thread), stamps, selectors.thread_page_bounds(thread=thread, page=page),
                              moderator=seen["moderator"], can_post=seen["can_post"], show_votes=seen["show_votes"],
                              truth=seen.get("truth", True))
                    ] if seen else []
            frame = pagecache.frame_get(request, framing, stamps, also=also)
        if frame is not None:
            return _thread_from_frame(request, thread, frame, page=page, stamps=stamps)
    context = _thread_context(request, thread, page=page, stamps=stamps)
    last_number = context["page"].last_number
    if not context["iso"] and (context["read_up_to"] is None or context["read_up_to"] < last_number):
        _mark_read(request.user, thread, last_number)
    context["frame_inputs"] = {"moderator": context["is_moderator"], "can_post": bool(context["can_post"]),
                               "show_votes": context["vote_count_html"] is not None,
                               "truth": permissions.can_see_true_author(request.user, permissions.game_of(thread))}
    response = _render_thread(request, context, framing=framing)
    pagecache.offer(request, stamps=stamps, valid_until=context["valid_until"])
    return response


def _per_page() -> int:
    from django.conf import settings

    return settings.MAFIA_POSTS_PER_PAGE


@require_POST
def thread_reply(request: HttpRequest, pk: int) -> HttpResponse:
    # As a page view does (thread_detail): the counters first, with the kept thread row, game and
    # session's user fetched with them (one round trip, no query when they are kept). The posting
    # service reads the thread and its game again, locked, for everything it decides.
    # The thread's author list too (the ISO picker's), which the post extends when it commits
    # without reading it again (selectors.post_authors_extend_on_commit).
    authors_key = _authors_keys.get(pk)
    stamps = pagecache.read_stamps(request, pk, prefetch=_REPLY_READS, fetch=(authors_key,) if authors_key else ())
    pagecache.kept_user(request, stamps)
    thread = _visible_thread_kept(request, pk, stamps, count=False)
    if authors_key is not None:
        selectors.post_authors_seen(thread=thread, key=authors_key, entry=stamps.fetched[authors_key])
    values = PostValues(request.POST, request.FILES)
    values.is_valid()
    body = values.cleaned_data.get("body", "")
    upload = values.cleaned_data.get("media") or None
    if "preview" in request.POST:
        form = _reply_form(request)
        last_page = selectors.page_count(thread.post_count, _per_page())
        try:
            preview_html = post_preview(body=body)
        except ActionRefused as refused:
            return _render_thread(request, _thread_context(request, thread, page=last_page, form=form, error=refused.message),
                                  status=200 if request.htmx else 400)
        context = _thread_context(request, thread, page=last_page, form=form, preview_html=preview_html)
        context.update(_preview_readings(request, thread, body))
        return _render_thread(request, context)
    if not request.user.is_authenticated:
        if not request.htmx:
            return redirect(f"{reverse('account_login')}?{urlencode({'next': thread.get_absolute_url()})}")
    try:
        # The htmx reply answers with the region it read up to: the poster's read mark moves to
        # his post in the post's own transaction (a page view moves it after a redirect).
        post = post_submit(thread=thread, author=request.user, body=body, comment=values.cleaned_data.get("comment", ""),
                           rate_limited=True, upload=upload, shown_as=values.cleaned_data.get("shown_as") or None,
                           mark_read=bool(request.htmx))
    except ActionRefused as refused:
        last_page = selectors.page_count(thread.post_count, _per_page())
        return _render_thread(request, _thread_context(request, thread, page=last_page, form=_reply_form(request),
                                                       error=refused.message),
                              status=200 if request.htmx else 400)
    page = selectors.page_of_number(post.number, _per_page())
    confirmation = getattr(post, "vote_confirmation", None)
    # A player's letter to the GM that reads as an order is one (games.services.orders).
    order_confirmation = order_from_letter(post=post) if thread.kind == Thread.Kind.GM_CHAT else None
    if not request.htmx:
        if confirmation is not None:
            (messages.success if confirmation.all_good else messages.warning)(request, confirmation.message)
        if order_confirmation is not None:
            (messages.success if order_confirmation.accepted else messages.error)(request, order_confirmation.message)
        return HttpResponseRedirect(_thread_url(thread, page=page, anchor=f"p{post.number}"))
    response = _reply_region(request, thread, post, page=page, upload=upload, before=stamps, notices={
        "vote_confirmation": confirmation, "order_confirmation": order_confirmation})
    response["HX-Push-Url"] = _thread_url(thread, page=page) + f"#p{post.number}"
    if confirmation is not None:
        response["HX-Trigger-After-Swap"] = "votes-changed"
    return response


def _reply_form(request: HttpRequest) -> PostForm:
    """The reply form as sent, shown again (with what it says of its fields) under a refusal or a preview."""
    form = PostForm(request.POST, request.FILES)
    form.is_valid()
    return form


def _as_listed(post: Post, thread: Thread, *, upload) -> Post | None:
    """The post just stored, as the post list reads it back (selectors.thread_posts: its thread
    the page's instance, its author and signer, no file), or None when it is not the same (a file
    was stored with it: the list reads it)."""
    if upload is not None:
        return None
    post.thread = thread
    post._state.fields_cache["media"] = None  # no PostMedia row: what select_related("media") leaves
    return post


def _reply_region(request: HttpRequest, thread: Thread, post: Post, *, page: int, upload, notices: dict,
                  before=None) -> HttpResponse:
    """The thread region an htmx reply answers with: from the region's frame kept for this browser
    session's replies (pagecache.reply_candidate) when nothing it shows was written since, with
    the post list grown by the new post (read from what the posting service stored, not read back),
    else rendered and its frame kept. The counters are read after the post: what the post itself
    wrote (a vote moves its game's) renders the frame again. `before`: the counters the reply read
    before posting: the frame's key and its post list's are made from them and the author list
    this process extended with the post, and fetched with the counters (one round trip); a post
    moves none of the counters the list's key holds, and the frame's holds none."""
    fresh = _as_listed(post, thread, upload=upload)
    game = permissions.game_of(thread)
    framing, also = None, []
    author_ids = selectors.post_author_ids_seen(thread=thread)
    if before is not None and author_ids is not None and game is not None and before.game_id == game.pk:
        framing = pagecache.frame_key(request, thread, before, author_ids=author_ids, reply=True)
        if framing is not None:
            also = _reply_list_keys(thread, game, before, page, framing)
    if framing is not None:
        stamps = pagecache.read_stamps(request, thread.pk, prefetch=("replaced:{game}",), fetch=(framing.key, *also))
        pagecache.complete_stamps(stamps, game)
        framing.stamps = stamps
    else:
        authors_key = _authors_keys.get(thread.pk)
        stamps = pagecache.read_stamps(request, thread.pk, prefetch=("replaced:{game}",),
                                       fetch=(authors_key,) if authors_key else ())
        pagecache.complete_stamps(stamps, game)
        framing = pagecache.frame_key(request, thread, stamps, author_ids=_author_ids(thread, stamps), reply=True)
    if framing is not None:
        frame = pagecache.frame_get(request, framing, stamps, also=_reply_list_keys(thread, game, stamps, page, framing))
        if frame is not None:
            return _thread_from_frame(request, thread, frame, page=page, stamps=stamps, reply=post, fresh=fresh,
                                      notices=notices)
    context = _thread_context(request, thread, page=page, just_posted=post.number, stamps=stamps, fresh=fresh)
    context.update(notices)
    context["frame_inputs"] = {"moderator": context["is_moderator"], "can_post": bool(context["can_post"]),
                               "show_votes": context["vote_count_html"] is not None,
                               "truth": permissions.can_see_true_author(request.user, game)}
    return _render_thread(request, context, framing=framing)


def _reply_list_keys(thread: Thread, game, stamps, page: int, framing) -> list[str]:
    """The key of the post list the reply's frame was last seen with, under `stamps` (none when
    this process has not seen the frame)."""
    seen = pagecache.frame_inputs_seen(framing)
    if not seen:
        return []
    return [_list_key(thread, game, stamps, selectors.thread_page_bounds(thread=thread, page=page),
                      moderator=seen["moderator"], can_post=seen["can_post"], show_votes=seen["show_votes"],
                      truth=seen.get("truth", True))]


@require_POST
def thread_preview(request: HttpRequest, pk: int) -> HttpResponse:
    """The htmx preview: only the preview block, with how its vote (or, in the letters to the
    GM, its order) will be read."""
    thread = _visible_thread(request, pk)
    body = request.POST.get("body", "")
    try:
        html, error = post_preview(body=body), None
    except ActionRefused as refused:
        html, error = None, refused.message
    context = {"preview_html": html, "error": error}
    if html is not None:
        context.update(_preview_readings(request, thread, body))
    return render(request, "games/thread.html#preview", context)


def _preview_readings(request: HttpRequest, thread: Thread, body: str) -> dict:
    """What the preview says of the text's vote ("read as → X", "no vote", or the refusal with
    its reason) and, in a player's letters to the GM, of its order: the posting path's readers,
    nothing written (games.services.votes.vote_preview, games.services.orders.order_preview)."""
    if not request.user.is_authenticated:
        return {}
    return {"vote_preview": vote_preview(thread=thread, author=request.user, body=body),
            "order_preview": order_preview(thread=thread, author=request.user, body=body)}


@require_GET
def post_permalink(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    thread = _visible_thread(request, pk)
    get_object_or_404(Post, thread=thread, number=number)
    page = selectors.page_of_number(number, _per_page())
    return HttpResponseRedirect(_thread_url(thread, page=page, anchor=f"p{number}"))


@require_GET
def post_quote(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The BBCode that quotes a post, for the quote button's script."""
    thread = _visible_thread(request, pk)
    post = get_object_or_404(Post.objects.select_related("author", "shown_author"), thread=thread, number=number,
                             is_deleted=False)
    return HttpResponse(bbcode.quote_source(permissions.shown_author(request.user, post).display_name, post.body) + "\n",
                        content_type="text/plain; charset=utf-8")


@require_GET
def thread_first_unread(request: HttpRequest, pk: int) -> HttpResponse:
    thread = _visible_thread(request, pk)
    number = selectors.first_unread_number(user=request.user, thread=thread)
    page = selectors.page_of_number(number, _per_page())
    return HttpResponseRedirect(_thread_url(thread, page=page, anchor=f"p{number}"))


def _visible_post(request: HttpRequest, post_pk: int) -> Post:
    post = get_object_or_404(Post.objects.select_related("thread", "author"), pk=post_pk)
    permissions.check_see_thread(request.user, post.thread)
    return post


@login_required
@require_http_methods(["GET", "POST"])
def post_edit_view(request: HttpRequest, post_pk: int) -> HttpResponse:
    post = _visible_post(request, post_pk)
    verdict = permissions.can_open_post_editor(request.user, post)
    if not verdict:
        messages.error(request, verdict.reason)
        return redirect(post)
    form = PostForm(request.POST or None, initial={"body": post.body})
    error = None
    if request.method == "POST" and form.is_valid():
        try:
            edited = post_edit(post=post, editor=request.user, body=form.cleaned_data["body"])
        except ActionRefused as refused:
            error = refused.message
        else:
            _tell_vote_after_edit(request, edited)
            return redirect(post)
    return render(request, "games/post_edit.html", {"post": post, "form": form, "error": error},
                  status=400 if error else 200)


def _tell_vote_after_edit(request: HttpRequest, post: Post) -> None:
    """An edited post whose vote is in the ledger: the editor is told the vote stays as first
    sent, and offered the changed vote as a new post (the reply form pre-filled with it)."""
    notice = vote_after_edit(post=post, editor=request.user)
    if notice is None:
        return
    if notice.new_text:
        url = f"{reverse('games:thread', args=[post.thread_id])}?{urlencode({'page': 'last', 'vote_from': post.number})}#reply"
        messages.warning(request, format_html('{} <a class="button" href="{}">{}</a>', notice.message, url,
                                              _("Post the changed vote")))
    else:
        messages.info(request, notice.message)


@require_GET
def post_history(request: HttpRequest, post_pk: int) -> HttpResponse:
    # The communication package imports the services: imported when a page needs it.
    from games.communication.private_tag import private_display, private_labels

    post = _visible_post(request, post_pk)
    if not permissions.can_see_post_body(request.user, post):
        return render(request, "404.html", status=404)
    # The current text as the thread shows it to this viewer ([private] labels, and the texts he
    # may read); old versions with the labels only. Their raw BBCode is the moderators', and a
    # source holding [private] texts only theirs who may read them all (permissions).
    posts_refresh_html(posts=[post])
    private_display(user=request.user, thread=post.thread, posts=[post])
    revisions = [
        {"html": private_labels(bbcode.render(rev.body)), "replaced_at": rev.replaced_at,
         "replaced_by": rev.replaced_by,
         "body": rev.body if permissions.can_see_post_source(request.user, post, rev.body) else None}
        for rev in post.revisions.select_related("replaced_by").order_by("-replaced_at", "-pk")
    ]
    return render(request, "games/post_history.html", {"post": post, "revisions": revisions,
                                                       "shown_user": permissions.shown_author(request.user, post)})


@require_GET
def post_media(request: HttpRequest, post_pk: int) -> HttpResponse:
    """A media post's file, for whom the visibility module lets read the post (a hidden post's
    for its moderators; the slaves' chat's for its readers). A local file is streamed; a file in
    a remote storage (an S3 bucket) is a redirect to the storage's URL, signed and short-lived
    when the bucket is private (README, "Media in S3"). A local file answers byte ranges
    (config/ranges.py)."""
    post = _visible_post(request, post_pk)
    media = PostMedia.objects.filter(post=post).first()
    if media is None or not permissions.can_see_post_media(request.user, post):
        raise Http404
    storage = media.file.storage
    try:
        path = storage.path(media.file.name)
    except NotImplementedError:
        return _remote_media_redirect(post, storage, media.file.name)
    try:
        handle = open(path, "rb")
    except FileNotFoundError:
        raise Http404 from None
    return ranged_file_response(request, handle, content_type=media.mime)  # seeking; Safari's video


def _remote_media_redirect(post: Post, storage, name: str) -> HttpResponse:
    """The redirect to a remote file's URL, with how long a browser (private) or, for a file
    anybody may hear, a proxy too (public) may keep it: half of the signature's life, so that a
    kept redirect still leads to an address that works for the file's range requests (a bucket
    that signs nothing: MAFIA_S3_URL_SECONDS all the same, the file's visibility may change)."""
    response = HttpResponseRedirect(storage.url(name))
    signed = getattr(storage, "querystring_auth", False)
    lifetime = int(getattr(storage, "querystring_expire", 0) or 0) if signed else settings.MAFIA_S3_URL_SECONDS
    public = permissions.post_media_is_public(post)
    patch_cache_control(response, **{"public" if public else "private": True}, max_age=max(lifetime // 2, 0))
    setattr(response, OWN_CACHE_CONTROL, True)  # not the logged-in pages' «no-store»: decided here
    return response


@login_required
@require_POST
@gm_writes.declare(gm_writes.changes(COUNT, THREADS), game=gm_writes.game_of_post_url)  # a hidden post's vote
def post_delete_view(request: HttpRequest, post_pk: int) -> HttpResponse:
    post = _visible_post(request, post_pk)
    deleted = request.POST.get("action") != "restore"
    if deleted and permissions.can_delete_post(request.user, post) and not confirm.is_confirmed(request):
        return confirm.confirmation_page(request, question=confirm.question(
            "hide", number=post.number, author=permissions.shown_author(request.user, post).display_name),
            cancel_url=post.get_absolute_url())
    try:
        post_set_deleted(post=post, moderator=request.user, deleted=deleted, reason=request.POST.get("reason", ""))
    except ActionRefused as refused:
        messages.error(request, refused.message)
    else:
        messages.success(request, _("The post was deleted.") if deleted else _("The post was restored."))
    return redirect(post)


@login_required
@require_POST
@gm_writes.declare(gm_writes.changes(THREADS), game=gm_writes.game_of_thread_url)
def thread_moderate(request: HttpRequest, pk: int) -> HttpResponse:
    """Moderator tools of a thread: lock, unlock, or schedule the lock (a deadline)."""
    from datetime import datetime

    thread = _visible_thread(request, pk)
    action = request.POST.get("action")
    if action == "lock" and permissions.is_moderator(request.user, thread) and not confirm.is_confirmed(request):
        return confirm.confirmation_page(request, question=confirm.question("lock", title=thread.title),
                                         cancel_url=thread.get_absolute_url())
    try:
        if action == "lock":
            thread_set_locked(thread=thread, moderator=request.user, locked=True)
            messages.success(request, _("The thread is locked."))
        elif action == "unlock":
            thread_set_locked(thread=thread, moderator=request.user, locked=False)
            messages.success(request, _("The thread is open again."))
        elif action == "schedule":
            raw = request.POST.get("lock_at", "").strip()
            lock_at = None
            if raw:
                try:
                    lock_at = timezone.make_aware(datetime.fromisoformat(raw), timezone.get_current_timezone())
                except ValueError:
                    raise ActionRefused(_("Enter the date and time as YYYY-MM-DD HH:MM."), code="bad_time") from None
            thread_schedule_lock(thread=thread, moderator=request.user, lock_at=lock_at)
            messages.success(request, _("The lock time is saved.") if lock_at else _("The scheduled lock is cancelled."))
        else:
            raise ActionRefused(_("Unknown action."), code="bad_action")
    except ActionRefused as refused:
        messages.error(request, refused.message)
    return redirect(thread)


@require_GET
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(Game.objects.select_related("gm", "game_thread", "discussion_thread"), pk=pk)
    viewer, pov_seat = permissions.viewer_for(request, game)
    seats = list(game.seats.select_related("user").order_by("number"))
    absences = absences_by_user([s.user_id for s in seats])
    for seat in seats:
        seat.absence = absences.get(seat.user_id)
        seat.role_visible = bool(seat.role) and permissions.can_see_role_of(viewer, game, seat)
        seat.role_name = role_label(game.ruleset, seat.role) if seat.role_visible else ""
    phases = list(game.phases.filter(voided_at__isnull=True).order_by("opened_at", "pk"))
    style = table_style(game)
    speaking, voting = [], []
    if style.rounds and game.state and game.status == Game.Status.RUNNING:
        # A table that speaks and votes in rounds by seat (club): who speaks and who votes in
        # which order, each under his seat number.
        by_id = {s.pk: s for s in seats}
        speaking_ids, voting_ids = table_order(game, game_state(game))
        speaking = [by_id[i] for i in speaking_ids if i in by_id]
        voting = [by_id[i] for i in voting_ids if i in by_id]
    return render(request, "games/game.html", {
        "game": game, "seats": seats, "phases": phases, "current_phase": game.current_phase,
        "is_gm": permissions.is_moderator(viewer, game.game_thread),
        "my_seat": permissions.seat_of(viewer, game),
        "pov_seat": pov_seat,
        "speaking": speaking, "voting": voting, "style": style,
        "private_threads": permissions.filter_visible_threads(viewer, game.private_threads.all()).order_by("kind", "pk"),
        "winner_label": faction_label(game.winner) if game.winner else "",
        "co_gms": list(game.co_gms.order_by("display_name")),
        # What players wrote when signing up is for the GMs only; it is not even handed to the
        # template for anyone else.
        # (The cards rule set's «Внешность», the contacts, likewise: GMs only.)
        "applications": [(s.user.display_name, s.application, s.overt_role, s.contacts) for s in seats
                         if s.application or s.overt_role or s.contacts]
        if permissions.is_game_master(viewer, game) else [],
        # Every syntax the reader knows, the rule set's own words first (issue 29: each can be off).
        "syntax_choices": syntax_examples(game),
        # A rule set that reads no vote from posts (the Show's panel ballots) shows its own help
        # instead of the GM's vote syntaxes (SiteRuleset.votes_in_posts, the place "game.vote_help").
        "votes_in_posts": (adapter := registry.find(game.ruleset)) is None or adapter.votes_in_posts,
        "communication": communication_of(game) if permissions.is_game_master(viewer, game) else None,
        "communication_modes": CommunicationForm.base_fields["private_messages"].choices,
        # The questions of the GM's destructive buttons on this page (games/confirm.py).
        "start_question": confirm.start_question([s.user.display_name for s in seats], game.size),
        "close_question": confirm.close_question(game.current_phase),
        # Automatic games (issue 31): who hosts it now, and the moderator's take-over/hand-back form.
        "hosted_by_site": hosted_by_site(game),
        "may_take_over": game.automatic and game.status != Game.Status.FINISHED
        and permissions.is_site_moderator(viewer),
        # A signed-in user who does not play may stand by to replace a player (the site seats him).
        "standby": standby_offer(game, viewer),
    })


@require_GET
@kept_viewer()  # the session's user and the bell from the cache (issue 30)
def game_list(request: HttpRequest) -> HttpResponse:
    """Every game, filtered by status (tabs), rule set and title, sorted, 25 to a page. A GET
    form that works without JavaScript; htmx swaps only the list region when it has it."""
    from django.core.paginator import Paginator

    filters = selectors.GameListFilters.from_query(request.GET)
    counts = selectors.game_status_counts(filters)
    paginator = Paginator(selectors.game_listing(filters), 25)
    paginator.count = counts[filters.status]  # the tab's count: no COUNT of the list of its own (issue 30)
    page = paginator.get_page(request.GET.get("page"))
    for game in page.object_list:
        game.winner_label = faction_label(game.winner) if game.winner else ""

    def url(**changes) -> str:
        params = filters.as_params(**changes)
        return f"{request.path}?{urlencode(params)}" if params else request.path

    tabs = [(value, label, counts[value], url(status=value, page=""))
            for value, label in [*Game.Status.choices, (selectors.GameListFilters.STATUS_ALL, _("All"))]]
    template = "games/game_list.html"
    if request.htmx and request.htmx.target == "game-list-region":
        template += "#game-list-region"
    return render(request, template, {
        "filters": filters,
        "page_obj": page,
        "tabs": tabs,
        "ruleset_choices": registry.choices(),
        "sort_choices": [("new", _("newest first")), ("old", _("oldest first")), ("title", _("by title")),
                         ("players", _("most players")), ("active", _("recently active"))],
        "prev_url": url(page=page.previous_page_number()) if page.has_previous() else None,
        "next_url": url(page=page.next_page_number()) if page.has_next() else None,
    })


def _rooms_enabled(game) -> bool:
    # The communication package imports the services: imported when a page needs it.
    from games.communication.rooms import rooms_enabled

    return rooms_enabled(game)
