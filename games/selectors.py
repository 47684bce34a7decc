"""Reads of the games app: querysets and small read models for the views."""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.conf import settings
from django.db.models import QuerySet

from games import permissions
from games.models import Game, Post, Thread, ThreadReadMark


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

    @property
    def has_previous(self) -> bool:
        return self.page > 1

    @property
    def has_next(self) -> bool:
        return self.page < self.pages

    @property
    def last_number(self) -> int:
        return self.posts[-1].number if self.posts else 0

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
    return permissions.filter_visible_posts(user, thread, Post.objects.all()).select_related("author")


def thread_page(*, user, thread: Thread, page: int | None, iso_author_ids: list[int] | None = None,
                per_page: int | None = None) -> ThreadPage:
    """One page of a thread. The whole thread pages by post number (keyset on the (thread,
    number) index, no OFFSET); an ISO filter pages its own, much smaller, list."""
    per_page = per_page or settings.MAFIA_POSTS_PER_PAGE
    rows = _post_rows(user, thread)
    if iso_author_ids:
        from accounts.models import User

        rows = rows.filter(author_id__in=iso_author_ids)
        total = rows.count()
        pages = page_count(total, per_page)
        page = min(max(page or 1, 1), pages)
        posts = list(rows.order_by("number")[(page - 1) * per_page: page * per_page])
        authors = list(User.objects.filter(pk__in=iso_author_ids).order_by("display_name"))
        return ThreadPage(posts=posts, page=page, pages=pages, iso_authors=authors)
    pages = page_count(thread.post_count, per_page)
    page = min(max(page or 1, 1), pages)
    low = (page - 1) * per_page
    posts = list(rows.filter(number__gt=low, number__lte=low + per_page).order_by("number"))
    return ThreadPage(posts=posts, page=page, pages=pages, iso_authors=[])


def first_unread_number(*, user, thread: Thread) -> int:
    """The number of the first post this user has not read (1 for a newcomer)."""
    if not user.is_authenticated:
        return 1
    mark = ThreadReadMark.objects.filter(user=user, thread=thread).values_list("last_read_number", flat=True).first()
    return min((mark or 0) + 1, max(thread.post_count, 1))


def section_threads(*, user, kind: str) -> QuerySet[Thread]:
    threads = Thread.objects.filter(kind=kind).select_related("created_by")
    return permissions.filter_visible_threads(user, threads).order_by("-is_pinned", "-last_post_at", "-pk")


def games_by_status(*, user) -> dict[str, list[Game]]:
    games = Game.objects.select_related("gm", "game_thread").order_by("-created_at")
    grouped: dict[str, list[Game]] = {value: [] for value in Game.Status.values}
    for game in games[:200]:
        grouped[game.status].append(game)
    return grouped


def post_authors(*, thread: Thread) -> QuerySet:
    """Everyone who posted in the thread (for the ISO picker)."""
    from accounts.models import User

    return User.objects.filter(posts__thread=thread).distinct().order_by("display_name")

