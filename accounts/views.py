"""Profile pages and the language switch."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.forms import NotificationPreferencesForm, ProfileForm
from accounts.middleware import remember_preferences
from accounts.models import User
from coins import selectors as coins
from games import permissions
from games.models import Post, Thread
from games.selectors import stats


@login_required
@require_http_methods(["GET", "POST"])
def profile_edit(request: HttpRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, request.FILES or None, instance=request.user)
    grid_posted = request.method == "POST" and NotificationPreferencesForm.MARKER in request.POST
    prefs = NotificationPreferencesForm(request.POST if grid_posted else None, user=request.user)
    if request.method == "POST":
        if form.is_valid() and (not grid_posted or prefs.is_valid()):
            user = form.save()
            if grid_posted:
                prefs.save()
            remember_preferences(request, user)
            messages.success(request, _("Profile saved."))
            response = redirect("accounts:profile_edit")
            translation.activate(user.language)
            response.set_cookie("django_language", user.language, max_age=365 * 24 * 3600, samesite="Lax")
            return response
        return render(request, "accounts/profile_edit.html", {"form": form, "prefs": prefs}, status=400)
    return render(request, "accounts/profile_edit.html", {"form": form, "prefs": prefs})


@require_GET
def profile_detail(request: HttpRequest, pk: int) -> HttpResponse:
    person = get_object_or_404(User, pk=pk, is_active=True)
    from django.core.paginator import Paginator

    visible = permissions.filter_visible_threads(request.user, Thread.objects.all())
    recent_posts = (
        permissions.filter_posts_shown_as(Post.objects.filter(is_deleted=False, thread__in=visible), person)
        .select_related("thread").order_by("-created_at")[:10]
    )
    # Finished games only (unsealed for everybody); running games by title alone, whoever asks.
    profile = stats.player_profile(person)
    games_page = Paginator(profile.games, stats.PAGE_SIZE).get_page(request.GET.get("games"))
    return render(request, "accounts/profile_detail.html", {
        "person": person, "recent_posts": recent_posts, "profile": profile, "games_page": games_page,
        # «ИндиКод любого героя виден в его Профиле»; the balance only to its owner and the staff.
        "indicode": coins.indicode_of(person), "balance": coins.balance_of(person)})


@require_POST
def language_switch(request: HttpRequest) -> HttpResponse:
    """Switch the UI language; a signed-in user's profile remembers the choice too."""
    from django.conf import settings

    code = request.POST.get("language", "")
    if code not in dict(settings.LANGUAGES):
        code = settings.LANGUAGE_CODE
    next_url = request.POST.get("next") or "/"
    if not url_has_allowed_host_and_scheme(next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        next_url = "/"
    if request.user.is_authenticated and request.user.language != code:
        request.user.language = code
        request.user.save(update_fields=["language"])
    if request.user.is_authenticated:
        remember_preferences(request, request.user)
    response = redirect(next_url)
    response.set_cookie(settings.LANGUAGE_COOKIE_NAME, code, max_age=365 * 24 * 3600, samesite="Lax")
    return response
