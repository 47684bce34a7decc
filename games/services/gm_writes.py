"""What each write a GM can make changes, declared (issue 29; docs/architecture.md, "The thread page cache").

A GM's form (the dashboard's buttons, the rule sets' GM inputs and pages, the moderation of his
game's threads, the vote page's corrections, the game page's phase and vote settings) changes
the game's state, and what the site keeps of it must follow: the thread page (games/caching/
pagecache.py), the vote-count box kept by the ledger's version and the game's counter
(games/views/votes.py, current_count_html), the game page. A write nobody declared moves the
site's counter (every page read again); a declared one moves exactly what it names, now and when
its transaction commits:

- GAME: the game's counter (its state, seats, phases, events: the game page, every page of its
  threads, the vote-count box);
- COUNT: the open day's vote count (the ledger's version: who voted, who did not, the deadline
  it shows), for a write that changes what the count is made of without a vote;
- THREADS: the posts of the game's threads (a system post, a hidden post, a locked thread).

Each GM write is declared once, where it is dispatched: `declare` on a view of its own, a
`GmWrite` in the dashboard's table (games/views/play.py, GM_ACTIONS) or in a rule set's GmInput.
tests/games/test_gm_writes.py finds every GM form on the GM's pages and fails for one that
declares nothing.
"""

from __future__ import annotations

import functools
from contextlib import contextmanager
from dataclasses import dataclass

from django.db import transaction

from games.caching import pagecache
from games.models import Game, Phase, Post, Thread
from games.selectors.votes import version_key

GAME, COUNT, THREADS = "game", "count", "threads"
REGIONS = (GAME, COUNT, THREADS)


@dataclass(frozen=True)
class GmWrite:
    """What one GM write changes: a subset of REGIONS (GAME always: a GM's write is his game's)."""

    changes: frozenset[str]

    def __post_init__(self):
        unknown = set(self.changes) - set(REGIONS)
        if unknown or GAME not in self.changes:
            raise ValueError(f"a GM write changes its game and only {REGIONS}: {sorted(self.changes)}")


def changes(*regions: str) -> GmWrite:
    return GmWrite(changes=frozenset((GAME, *regions)))


def _bump_count(game_id: int) -> None:
    from django.core.cache import cache

    for phase_id in Phase.objects.filter(game_id=game_id, closed_at__isnull=True).values_list("pk", flat=True):
        try:
            cache.incr(version_key(phase_id))
        except ValueError:
            cache.set(version_key(phase_id), 2, timeout=None)


def _invalidate(game_id: int, write: GmWrite) -> None:
    pagecache.changed(game=game_id)
    if COUNT in write.changes:
        _bump_count(game_id)
    if THREADS in write.changes:
        public = Game.objects.filter(pk=game_id).values_list("game_thread_id", "discussion_thread_id").first() or ()
        private = Thread.objects.filter(game_id=game_id).values_list("pk", flat=True)
        for thread_id in {*public, *private} - {None}:
            pagecache.changed(thread=thread_id)


@contextmanager
def gm_writing(*, game, write: GmWrite):
    """Run a GM's write: its game's rows are placed under the game's counter
    (pagecache.writing), and what it declares is invalidated once it is done and again when its
    transaction commits (a page rendered from the data before the commit is never kept under the
    new counters)."""
    game_id = getattr(game, "pk", game)
    with pagecache.writing(game=game_id):
        yield
    if game_id is None:
        return
    _invalidate(game_id, write)
    transaction.on_commit(functools.partial(_invalidate, game_id, write))


def declare(write: GmWrite, *, game):
    """Decorator for a view of a GM write: `game(kwargs)` names the game (an id, or None) from the
    view's URL arguments; the view's writes run inside `gm_writing`. The declaration is kept on
    the view (`view.gm_write`), where the test of the GM forms finds it."""
    def decorator(view):
        @functools.wraps(view)
        def wrapper(request, *args, **kwargs):
            if request.method != "POST":
                return view(request, *args, **kwargs)
            with gm_writing(game=game(kwargs), write=write):
                return view(request, *args, **kwargs)

        wrapper.gm_write = write
        return wrapper
    return decorator


def game_of_url(kwargs) -> int | None:
    """The game of a URL under /games/<pk>/."""
    return kwargs.get("pk")


def game_of_thread_url(kwargs) -> int | None:
    """The game of a URL under /threads/<pk>/ (None: a standalone thread)."""
    pk = kwargs.get("pk")
    found = Game.objects.filter(game_thread_id=pk).values_list("pk", flat=True).first()
    if found is None:
        found = Game.objects.filter(discussion_thread_id=pk).values_list("pk", flat=True).first()
    if found is None:
        found = Thread.objects.filter(pk=pk).values_list("game_id", flat=True).first()
    return found


def game_of_post_url(kwargs) -> int | None:
    """The game of a URL under /posts/<post_pk>/ (None: a post of a standalone thread)."""
    thread_id = Post.objects.filter(pk=kwargs.get("post_pk")).values_list("thread_id", flat=True).first()
    return game_of_thread_url({"pk": thread_id}) if thread_id is not None else None
