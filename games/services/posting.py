"""Posting through the site: the one service that runs, in order and in one transaction, every
step a post sent with the reply form goes through (issue 15, "services in layers").

1. the draft: the rate limit, the body cleaned and rendered (posts.post_draft);
2. the thread locked and the author's right to post there (posts.thread_lock_for_post);
3. the communication checks: the [private] messages of the body and a room named in the
   comment (games.communication), refused before anything is written;
4. the plain post: numbered, stored, counted (posts.post_store), with its private messages;
5. the room proposal, and in a game thread its votes read and recorded (votes.votes_record_for_post);
6. the day closed when those votes make a majority (resolution.phase_close).

Each step is a service of a lower module that knows nothing of the others: the plain post does
not call up into the votes or the close, and the votes do not close the day. The services that
post as the GM (results, counts, announcements) write plain posts with posts.post_create.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import permissions
from games.caching import pagecache
from games.communication.private_tag import private_check, private_store
from games.communication.rooms import room_check, room_store
from games.models import Game, Post, Thread
from games.rulesets import registry
from games.selectors.votes import vote_count
from games.services import ActionRefused
from games.services.media import media_check, media_store
from games.services.posts import (post_comment_clean, post_draft, post_store, post_stored_tell, thread_lock_for_post,
                                  thread_mark_read)
from games.services.resolution import phase_close
from games.services.votes import VoteConfirmation, votes_record_for_post


User = get_user_model()

# The body of a media post sent without words (the player's file speaks for him).
MEDIA_ONLY_BODY = "🎬"


def post_submit(*, thread: Thread, author, body: str, now: datetime | None = None, comment: str = "",
                rate_limited: bool = False, upload=None, shown_as: int | None = None, mark_read: bool = False) -> Post:
    """A post sent by `author` into `thread`, with all it does in a game: its [private] messages
    and room proposal, its votes (told to the poster as `post.vote_confirmation`, None when it
    holds none) and the close of the day they may make. Refused as a whole (ActionRefused)
    when a step refuses. `rate_limited` applies the posting rate limit: the site's forms ask for
    it; scenarios and benchmarks posting on a player's behalf do not. `upload`: an audio or video
    file, accepted only as the media post the game's rule set says the author owes now
    (SiteRuleset.media_post_kind; games/services/media.py reads its type from its content).
    `shown_as`: the user id the post is signed as instead of the author's (the Show's Говорун,
    /fake), when the game's rule set allows it now (SiteRuleset.post_sender_refusal); the post
    keeps its true author (games.permissions.shown_author says who sees which). `mark_read`: the
    author's read mark of the thread moves to his post in the same transaction (the htmx reply,
    which answers with the thread up to it: one commit, not two)."""
    now = now or timezone.now()
    check = media_check(upload) if upload is not None else None
    if check is not None and not (body or "").strip():
        body = MEDIA_ONLY_BODY  # a media post needs no words
    draft = post_draft(thread=thread, author=author, body=body, now=now, rate_limited=rate_limited)
    with transaction.atomic():
        locked = thread_lock_for_post(thread=thread, author=author, now=now)
        if check is not None:
            _media_owed(locked, author)
        shown = _shown_author(locked, author, shown_as, now) if shown_as is not None else None
        private = private_check(thread=locked, author=author, body=draft.body)
        if shown is not None and (private or check is not None):
            # a private message names its true sender, and a media post is the author's own duty
            raise ActionRefused(_("A post signed with another name carries no private message and no file."),
                                code="shown_as_refused")
        comment = post_comment_clean(comment)
        room = room_check(thread=locked, author=author, comment=comment)
        # The page cache (games/caching/pagecache.py): the post and its private messages change
        # this thread's pages alone...
        with pagecache.writing(thread=locked.pk):
            # (the post, its count and the poster's read mark: nothing reads between them, so their
            # counters are bumped together)
            with pagecache.bumps_held():
                post = post_store(thread=locked, author=author, draft=draft, comment=comment, now=now,
                                  shown_author=shown)
                if mark_read:
                    # His read mark's write is declared as his (his kept mark's counter).
                    with pagecache.writing(read_marks=author):
                        thread_mark_read(user=author, thread=locked, number=post.number)
            private_store(post=post, pending=private, now=now)
            if check is not None:
                media_store(post=post, upload=upload, check=check)
        game = permissions.game_of(locked) if locked.kind == Thread.Kind.GAME else None
        # ... and these the game's (a room proposal, the votes, a close on majority).
        with pagecache.writing(game=game):
            room_store(post=post, pending=room, now=now)
            if shown is not None:
                registry.site(game.ruleset).post_signed(game=game, post=post, now=now)
            closed = game is not None and _votes_record(post=post, game=game, now=now)
            # What the post does in the rule set (the Show: it wakes a hero, stands in for a media
            # post and may end the stage early).
            closed = (game is not None and not closed and game.status == Game.Status.RUNNING
                      and registry.site(game.ruleset).post_stored(game=game, post=post, now=now)) or closed
    post_stored_tell(thread=thread, locked=locked, post=post, game_changed=closed)
    return post


def _media_owed(thread: Thread, author) -> None:
    """An upload is refused, changing nothing, unless it is the media post the author owes now."""
    game = permissions.game_of(thread) if thread.kind == Thread.Kind.GAME else None
    if (game is None or game.status != Game.Status.RUNNING
            or registry.site(game.ruleset).media_post_kind(game=game, user=author) is None):
        raise ActionRefused(_("No media post is owed now: the file was not accepted."), code="media_not_owed")


def _shown_author(thread: Thread, author, shown_as, now: datetime):
    """The user a post is signed as (refused, changing nothing, unless the game's rule set allows
    it now): only in a running game's thread, never with [private] messages or a file."""
    game = permissions.game_of(thread) if thread.kind == Thread.Kind.GAME else None
    if game is None or game.status != Game.Status.RUNNING:
        raise ActionRefused(_("A post is signed with another name only in a running game's thread."),
                            code="shown_as_refused")
    try:
        shown_id = int(shown_as)
    except (TypeError, ValueError):
        shown_id = 0
    reason = registry.site(game.ruleset).post_sender_refusal(game=game, user=author, shown_user_id=shown_id, now=now)
    if reason is not None:
        raise ActionRefused(str(reason), code="shown_as_refused")
    return User.objects.get(pk=shown_id)


def _votes_record(*, post: Post, game: Game, now: datetime) -> bool:
    """The post's votes read and written to the ledger (what the poster is told goes on the
    post), then the day closed if they make a majority. True: this post closed the day."""
    if game.current_phase is not None:
        game.current_phase.game = game  # the vote check reads the state from it: no second read
    post.vote_confirmation = votes_record_for_post(post=post, game=game, now=now)
    return _close_on_majority(game=game, confirmation=post.vote_confirmation, now=now)


def _close_on_majority(*, game: Game, confirmation: VoteConfirmation | None, now: datetime) -> bool:
    """Close the day the post's counted ballot went to when the game ends days on a majority
    (Game.end_day_on_majority) and the count now has one. True: closed."""
    phase = confirmation.ballot_phase if confirmation is not None else None
    if phase is None or not game.end_day_on_majority or vote_count(phase=phase).majority_reached is None:
        return False
    phase_close(phase_id=phase.pk, now=now)
    return True
