"""Site moderation (reports, hiding, bans) and the player's own V/LA."""

from __future__ import annotations

from datetime import date, datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import confirm, permissions
from games.models import Post, Report
from games.services import ActionRefused
from games.selectors.moderation import absences_ahead, open_reports
from games.services.moderation import absence_add, absence_remove, report_create, report_resolve, site_ban
from games.services.posts import post_set_deleted


@login_required
@require_http_methods(["GET", "POST"])
def post_report(request: HttpRequest, post_pk: int) -> HttpResponse:
    post = get_object_or_404(Post.objects.select_related("thread", "author"), pk=post_pk)
    permissions.check_see_thread(request.user, post.thread)
    error = None
    if request.method == "POST":
        try:
            report_create(post=post, reporter=request.user, reason=request.POST.get("reason", ""))
        except ActionRefused as refused:
            error = refused.message
        else:
            messages.success(request, _("Thank you: the moderators will look at the post."))
            return redirect(post)
    # The communication package imports the services: imported when a page needs it.
    from games.communication.private_tag import private_display

    private_display(user=request.user, thread=post.thread, posts=[post])  # the thread's [private] labels
    return render(request, "games/report.html", {"post": post, "author": permissions.shown_author(request.user, post),
                                                 "error": error}, status=400 if error else 200)


def _check_site_moderator(user) -> None:
    if not permissions.is_site_moderator(user):
        raise Http404


@login_required
@require_GET
def reports_queue(request: HttpRequest) -> HttpResponse:
    # The communication package imports the services: imported when a page needs it.
    from games.communication.private_tag import private_display_posts

    _check_site_moderator(request.user)
    reports = list(open_reports()[:100])
    # The reported posts as their threads show them to this moderator: [private] labels, and the
    # texts only where he may read them (a site moderator who is not the game's GM may not).
    private_display_posts(user=request.user, posts=[r.post for r in reports])
    for r in reports:
        # A post signed with another player's name (the Show's /fake) names that player here too,
        # unless this moderator may know the truth; the ban still falls on the one who wrote it.
        r.shown = permissions.shown_author(request.user, r.post)
        r.signed_secret = r.shown.pk != r.post.author_id and permissions.may_learn_post_is_signed(request.user, r.post)
    return render(request, "games/reports.html", {"reports": reports})


@login_required
@require_POST
def report_action(request: HttpRequest, report_pk: int) -> HttpResponse:
    _check_site_moderator(request.user)
    report = get_object_or_404(Report.objects.select_related("post__thread", "post__author"), pk=report_pk)
    action = request.POST.get("action")
    reason = request.POST.get("reason", "").strip()
    if action in ("hide", "ban") and not confirm.is_confirmed(request):
        post = report.post
        author = permissions.shown_author(request.user, post).display_name
        question = (confirm.question("hide", number=post.number, author=author) if action == "hide" else
                    confirm.question("report_ban", author=author,
                                     until=request.POST.get("until", "").strip().replace("T", " ") or "—"))
        return confirm.confirmation_page(request, question=question, cancel_url=reverse("games:reports"))
    try:
        if action == "hide":
            post_set_deleted(post=report.post, moderator=request.user, deleted=True, reason=reason)
        elif action == "ban":
            raw = request.POST.get("until", "").strip()
            try:
                until = timezone.make_aware(datetime.fromisoformat(raw), timezone.get_current_timezone()) if raw else None
            except ValueError:
                raise ActionRefused(_("Enter the date and time as YYYY-MM-DD HH:MM."), code="bad_time") from None
            if until is None or until <= timezone.now():
                raise ActionRefused(_("A ban needs an end in the future."), code="bad_time")
            site_ban(user=report.post.author, by=request.user, until=until, reason=reason)
        elif action != "dismiss":
            raise ActionRefused(_("Unknown action."), code="bad_action")
        report_resolve(report=report, by=request.user)
    except ActionRefused as refused:
        messages.error(request, refused.message)
    else:
        messages.success(request, _("Done."))
    return redirect("games:reports")


@login_required
@require_http_methods(["GET", "POST"])
def absences(request: HttpRequest) -> HttpResponse:
    """V/LA: the player's absence dates, shown in the rosters of his games and to their GMs."""
    error = None
    if request.method == "POST":
        if request.POST.get("delete"):
            raw = request.POST["delete"]
            if raw.isdecimal():  # anything else names no absence of his
                absence_remove(user=request.user, absence_id=int(raw))
            return redirect("games:absences")
        try:
            starts_on = date.fromisoformat(request.POST.get("starts_on", ""))
            ends_on = date.fromisoformat(request.POST.get("ends_on", ""))
        except ValueError:
            error = _("Enter both dates.")
        else:
            try:
                absence_add(user=request.user, starts_on=starts_on, ends_on=ends_on, note=request.POST.get("note", ""))
            except ActionRefused as refused:
                error = refused.message
            else:
                messages.success(request, _("Your absence is saved."))
                return redirect("games:absences")
    mine = absences_ahead(request.user)
    return render(request, "games/absences.html", {"absences": mine, "error": error}, status=400 if error else 200)


