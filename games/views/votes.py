"""Vote count pages and the GM's vote and phase controls."""

from __future__ import annotations

from datetime import datetime
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.cache import patch_cache_control
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games import confirm, permissions
from config.middleware import OWN_CACHE_CONTROL
from games.caching import conditional, pagecache
from games.rulesets import registry
from games.selectors.holders import SeatHolders, count_as_cast
from games.models import Game, Phase, Post, Seat, VoteRecord
from games.services import ActionRefused, gm_writes
from games.services.gm_writes import COUNT, THREADS
from games.services.games import game_set_vote_options, seat_set_aliases
from games.services.phases import phase_open
from games.services.resolution import phase_close
from games.selectors.votes import (
    count_version,
    last_voting_day,
    vote_count,
    vote_target_ids,
    vote_history,
    version_key,
    vote_profile_for,
    voting_days,
    voting_phase,
)
from games.services.votes import reason_text, vote_correct, vote_count_post


def _game(pk: int) -> Game:
    return get_object_or_404(Game.objects.select_related("gm", "game_thread", "current_phase"), pk=pk)


def _int(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


@require_GET
def vote_count_page(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game(pk)
    permissions.check_see_thread(request.user, game.game_thread)
    # A rule set whose ballots are its own (not read from posts: the Show's, cast on its heroes'
    # panels) shows them itself, in its «votes.page» panel (issue 28, item 16).
    if registry.site(game.ruleset).panels("votes.page"):
        return render(request, "games/votes.html", {"game": game, "days": [], "count": None, "ruleset_votes": True})
    days = voting_days(game)
    if not days:
        return render(request, "games/votes.html", {"game": game, "days": [], "count": None})
    phase_id = _int(request.GET.get("day"))
    phase = next((d for d in days if d.pk == phase_id), None)
    as_of = _int(request.GET.get("as_of"))
    if phase is None and as_of:
        # "The count as of post #N": the day that post was written in.
        post = Post.objects.filter(thread=game.game_thread, number=as_of).first()
        if post is not None:
            phase = next((d for d in reversed(days) if d.opened_at <= post.created_at), None)
    phase = phase or days[-1]
    # Each vote is named by who wrote it; a count of the past by who held each seat then
    # (games.selectors.holders, docs/votes.md "Replacements").
    holders = SeatHolders.for_game(game)
    count = count_as_cast(vote_count(phase=phase, as_of=as_of), game=game, holders=holders)
    history = vote_history(phase)
    for row in history:
        row.reason_text = reason_text(row.reason, game=game) if row.reason else ""
        if holders:
            row.voter = holders.seat_at(row.voter, row.post.created_at)
            row.target = holders.seat_at(row.target, row.post.created_at)
    is_gm = permissions.is_moderator(request.user, game.game_thread)
    return render(
        request,
        "games/votes.html",
        {
            "game": game, "days": days, "phase": phase, "count": count, "history": history, "is_gm": is_gm,
            # A correction names a player that day's vote may name (vote_correct asks the same).
            "seats": _vote_target_seats(game, phase) if is_gm else [],
            # A correction offers only what the rule set's votes can be: no «за мир» where there is no peace.
            "kinds": [(value, label) for value, label in VoteRecord.Kind.choices
                      if value != VoteRecord.Kind.PEACE or vote_profile_for(game).peace_allowed],
        },
    )


def _vote_target_seats(game: Game, phase) -> list[Seat]:
    allowed = set(vote_target_ids(phase))
    return [seat for seat in game.seats.select_related("user").order_by("number") if seat.pk in allowed]


def current_count_html(request: HttpRequest, game: Game, *, stamps=None, roster=None) -> str:
    """The live count fragment for the game thread, cached until the ledger changes, or the
    game's seats (a replacement, a death: the game's page counter, games/caching/pagecache.py),
    or anything written that nobody declared (the site's counter, which also every write to a
    user's row moves), or the roster the thread page read (`roster`: its seats, names and
    statuses). `stamps`: the page's counters, when the thread page read them already."""
    return _count_fragment(request, game, stamps=stamps, roster=roster)[0]


def _count_names(game_id: int) -> list[str]:
    return [pagecache.game_key(game_id), pagecache.SITE_KEY, pagecache.votes_key(game_id)]


def _count_fragment(request: HttpRequest, game: Game, *, stamps=None, roster=None,
                    counters: dict | None = None) -> tuple[str, dict | None]:
    """current_count_html, and the counters it was read under (the game's, its ledger's, the
    site's, the day's count version; read before the count), or None when there is no count.
    `counters`: the first three, read before the game was."""
    phase = voting_phase(game=game)
    if phase is None and game.status == Game.Status.FINISHED:
        # A game over keeps its last count on show, not an empty box (issue 14).
        phase = last_voting_day(game)
    if phase is None:
        return "", None
    # The site's counter too, whatever the roster: a write nobody declared moves it alone (a GM's
    # write before issue 29 declared its game: the box kept the old deadline and voters).
    names = _count_names(game.pk)
    if counters is not None:
        values = counters
    elif stamps is not None and all(n in stamps.values for n in names):
        values = stamps.values
    else:
        values = pagecache.generations(names)
    users = (pagecache.digest(repr([(seat.pk, seat.user_id, seat.user.display_name, seat.status) for seat in roster]))
             if roster else "")
    version = count_version(phase.pk)
    # The deadline is shown in the viewer's time zone: the zone is part of the key.
    key = (f"votes:fragment:{phase.pk}:{version}:{translation.get_language()}:{int(phase.is_open)}:"
           f"{timezone.get_current_timezone_name()}:"
           f"{values[names[0]]}:site={values[names[1]]}:votes={values[names[2]]}:{users}")
    html = cache.get(key)
    if html is None:
        html = render_to_string("games/_vote_count.html", {"game": game, "count": vote_count(phase=phase), "compact": True})
        cache.set(key, html, timeout=3600)
    return html, {**{name: values[name] for name in names}, version_key(phase.pk): version}


@require_GET
def vote_count_fragment(request: HttpRequest, pk: int) -> HttpResponse:
    """The count box's HTML, polled by the game thread (and fetched after a vote). It carries an
    ETag and `Cache-Control: private, no-cache`: the browser asks again with If-None-Match, and
    while nothing the count shows was written the answer is a 304 (from the middleware before
    this view, games/caching/conditional.py, or from here). The count is the game thread's, which
    everyone may read."""
    # The counters first, before the data they stamp (a write meanwhile then misses the validator).
    counters = pagecache.generations(_count_names(pk))
    game = _game(pk)
    permissions.check_see_thread(request.user, game.game_thread)
    html, stamps = _count_fragment(request, game, counters=counters)
    etag = conditional.etag_of(request, html)
    response = HttpResponseNotModified() if conditional.matches(request, etag) else HttpResponse(html)
    response["ETag"] = etag
    patch_cache_control(response, private=True, no_cache=True)
    setattr(response, OWN_CACHE_CONTROL, True)  # public content: stored by the browser, always revalidated
    if stamps is not None:
        conditional.offer(request, game_id=game.pk, stamps=stamps, etag=etag)
    return response


@login_required
@require_POST
@gm_writes.declare(gm_writes.changes(COUNT), game=gm_writes.game_of_url)
def vote_correct_view(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game(pk)
    post = Post.objects.filter(thread=game.game_thread, pk=_int(request.POST.get("post"))).first()
    target = Seat.objects.filter(game=game, pk=_int(request.POST.get("target"))).first()
    try:
        if post is None:
            raise ActionRefused(_("No such post in this game."), code="bad_post")
        vote_correct(post=post, gm=request.user, kind=request.POST.get("kind", ""), target=target,
                     note=request.POST.get("note", ""))
    except ActionRefused as refused:
        messages.error(request, refused.message)
    else:
        messages.success(request, _("The correction is recorded."))
    return redirect(f"{game.get_absolute_url()}votes/?as_of={post.number}" if post else f"{game.get_absolute_url()}votes/")


@login_required
@require_POST
@gm_writes.declare(gm_writes.changes(THREADS), game=gm_writes.game_of_url)  # a count posted in the thread
def vote_count_post_view(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game(pk)
    # What the page showed: its day and, after a correction, the count as of a post.
    phase_id, as_of = _int(request.POST.get("day")), _int(request.POST.get("as_of"))
    try:
        post = vote_count_post(game=game, gm=request.user, phase_id=phase_id, as_of=as_of)
    except ActionRefused as refused:
        messages.error(request, refused.message)
        query = urlencode([(k, v) for k, v in (("day", phase_id), ("as_of", as_of)) if v])
        return redirect(f"{game.get_absolute_url()}votes/" + (f"?{query}" if query else ""))
    return redirect(post)


@login_required
@require_POST
@gm_writes.declare(gm_writes.changes(COUNT, THREADS), game=gm_writes.game_of_url)
def phase_control(request: HttpRequest, pk: int) -> HttpResponse:
    """The GM opens a day or a night (with a deadline) or closes the current phase."""
    game = _game(pk)
    if not permissions.is_moderator(request.user, game.game_thread):
        raise Http404
    action = request.POST.get("action")
    if action == "close" and not confirm.is_confirmed(request):
        return confirm.confirmation_page(request, question=confirm.close_question(game.current_phase),
                                         cancel_url=game.get_absolute_url())
    try:
        if action in ("open_day", "open_night"):
            raw = request.POST.get("deadline_at", "").strip()
            deadline = None
            if raw:
                try:
                    deadline = timezone.make_aware(datetime.fromisoformat(raw), timezone.get_current_timezone())
                except ValueError:
                    raise ActionRefused(_("Enter the date and time as YYYY-MM-DD HH:MM."), code="bad_time") from None
            phase_open(game=game, kind=Phase.Kind.DAY if action == "open_day" else Phase.Kind.NIGHT,
                       by=request.user, deadline_at=deadline)
            messages.success(request, _("The phase is open."))
        elif action == "close":
            current = game.phases.filter(closed_at__isnull=True).first()
            if current is None or not phase_close(phase_id=current.pk, by=request.user):
                raise ActionRefused(_("No phase is open."), code="none_open")
            messages.success(request, _("The phase is closed."))
        else:
            raise ActionRefused(_("Unknown action."), code="bad_action")
    except ActionRefused as refused:
        messages.error(request, refused.message)
    return redirect(game)


@login_required
@require_POST
@gm_writes.declare(gm_writes.changes(COUNT), game=gm_writes.game_of_url)  # how posts are read: the count
def vote_options(request: HttpRequest, pk: int) -> HttpResponse:
    game = _game(pk)
    if not permissions.is_moderator(request.user, game.game_thread):
        raise Http404
    try:
        game_set_vote_options(game=game, by=request.user, syntaxes=request.POST.getlist("syntax"),
                              end_day_on_majority=request.POST.get("end_day_on_majority") == "on",
                              count_spoiler_votes=request.POST.get("count_spoiler_votes") == "on")
    except ActionRefused as refused:
        messages.error(request, refused.message)
    else:
        messages.success(request, _("The vote options are saved."))
    # The form is on the game page and on the GM dashboard: back to the one it was sent from.
    if request.POST.get("back") == "gm":
        return redirect("games:gm_dashboard", pk=game.pk)
    return redirect(game)


@login_required
@require_POST
@gm_writes.declare(gm_writes.changes(COUNT), game=gm_writes.game_of_url)
def seat_aliases(request: HttpRequest, pk: int, seat_pk: int) -> HttpResponse:
    game = _game(pk)
    if not permissions.is_moderator(request.user, game.game_thread):
        raise Http404
    seat = get_object_or_404(Seat, game=game, pk=seat_pk)
    try:
        seat_set_aliases(seat=seat, by=request.user, aliases_text=request.POST.get("aliases", ""))
    except ActionRefused as refused:
        messages.error(request, refused.message)
    else:
        messages.success(request, _("Aliases saved."))
    return redirect(game)


def vote_poll_seconds() -> int:
    return getattr(settings, "MAFIA_VOTE_POLL_SECONDS", 20)
