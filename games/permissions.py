"""The one visibility and permission module: who may see and do what in threads and games.

Every view and query asks here. A secret's existence is itself secret, so `check_see_*` raises
Http404 rather than 403, and each check has a queryset twin `filter_visible_*` that applies the
same rule in the database (never only in a template).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import Game, Post, Thread


@dataclass(frozen=True)
class Verdict:
    allowed: bool
    reason: str = ""

    def __bool__(self) -> bool:
        return self.allowed


ALLOWED = Verdict(True)


def game_of(thread: Thread) -> Game | None:
    """The game a thread belongs to, or None for a standalone thread (cached on the instance)."""
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
def can_see_thread(user, thread: Thread) -> bool:
    # Every thread that exists so far is public: game threads are read by spectators, the
    # discussion thread is the spectators' own. Private threads (GM, faction, rooms) add their
    # rule here, not in their views.
    return True


def check_see_thread(user, thread: Thread) -> None:
    if not can_see_thread(user, thread):
        raise Http404


def filter_visible_threads(user, threads: QuerySet[Thread]) -> QuerySet[Thread]:
    return threads


def filter_visible_posts(user, thread: Thread, posts: QuerySet[Post]) -> QuerySet[Post]:
    """Posts of a thread the viewer may list. Deleted posts stay listed as placeholders (their
    numbers are cited); their text is shown only to moderators (see can_see_post_body)."""
    check_see_thread(user, thread)
    return posts.filter(thread=thread)


def can_see_post_body(user, post: Post) -> bool:
    return not post.is_deleted or is_moderator(user, post.thread)


# --- Roles -------------------------------------------------------------------------------------
def is_moderator(user, thread: Thread) -> bool:
    """Site staff moderate everywhere; a game's GM moderates the game's two threads."""
    if not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    game = game_of(thread)
    return game is not None and game.gm_id == user.pk


def is_seated(user, game: Game) -> bool:
    return user.is_authenticated and any(row[1] == user.pk for row in roster_rows(game))


# --- Doing -------------------------------------------------------------------------------------
def can_post(user, thread: Thread, *, now=None) -> Verdict:
    now = now or timezone.now()
    if not user.is_authenticated:
        return Verdict(False, _("Log in to post."))
    if not user.is_active:
        return Verdict(False, _("Your account is disabled."))
    moderator = is_moderator(user, thread)
    if (thread.is_locked or (thread.lock_at is not None and thread.lock_at <= now)) and not moderator:
        return Verdict(False, _("The thread is locked."))
    game = game_of(thread)
    if game is not None and thread.kind == Thread.Kind.GAME and not moderator:
        if game.status == Game.Status.RUNNING and not is_seated(user, game):
            return Verdict(False, _("Only the players and the GM post in a running game's thread."))
    return ALLOWED


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


def can_delete_post(user, post: Post) -> Verdict:
    if not is_moderator(user, post.thread):
        return Verdict(False, _("Only moderators can delete posts."))
    return ALLOWED
