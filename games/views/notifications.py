"""The user's notifications (the list, the bell) and a player's replacement request."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from games import permissions
from games.models import Game
from games.services import ActionRefused
from games.selectors.notifications import site_notifications, unread_count
from games.services import notifications as service

PER_PAGE = 30


@login_required
@require_GET
def notification_list(request: HttpRequest) -> HttpResponse:
    paginator = Paginator(site_notifications(request.user), PER_PAGE)
    page = paginator.get_page(request.GET.get("page"))
    return render(request, "games/notifications.html", {"page": page})


def _safe_local(url: str) -> bool:
    """Only a path on this site: never another host, never a scheme, never a protocol-relative
    //host or a backslash trick."""
    return (url.startswith("/") and not url.startswith(("//", "/\\"))
            and url_has_allowed_host_and_scheme(url, allowed_hosts=set()))


@login_required
@require_GET
def notification_open(request: HttpRequest, pk: int) -> HttpResponse:
    """Mark one's own notification read and go where it points; another user's is a 404."""
    notification = service.notification_mark_read(user=request.user, pk=pk)
    if notification is None:
        raise Http404
    return redirect(notification.url if _safe_local(notification.url) else "games:notifications")


@login_required
@require_POST
def notifications_read_all(request: HttpRequest) -> HttpResponse:
    service.notifications_mark_all_read(user=request.user)
    messages.success(request, _("All notifications are marked read."))
    return redirect("games:notifications")


@never_cache
@require_GET
def bell(request: HttpRequest) -> HttpResponse:
    """The bell's count for htmx polling: the number as plain text, empty when there is nothing
    unread (and for the anonymous, without a query)."""
    count = unread_count(request.user) if request.user.is_authenticated else 0
    text = "" if not count else ("99+" if count > 99 else str(count))
    return HttpResponse(text, content_type="text/plain; charset=utf-8")


@login_required
@require_POST
def replacement_request(request: HttpRequest, pk: int) -> HttpResponse:
    """A player asks the GMs for a replacement (or withdraws the request) from his role page."""
    game = get_object_or_404(Game, pk=pk)
    if permissions.seat_of(request.user, game) is None:
        raise Http404
    try:
        if request.POST.get("action") == "withdraw":
            service.replacement_withdraw(game=game, user=request.user)
            messages.success(request, _("Your replacement request is withdrawn."))
        else:
            service.replacement_request(game=game, user=request.user, reason=request.POST.get("reason", ""))
            messages.success(request, _("The GMs are told that you ask for a replacement."))
    except ActionRefused as refused:
        messages.error(request, refused.message)
    return redirect("games:role", pk=game.pk)

