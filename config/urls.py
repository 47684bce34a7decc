"""Root URLs."""

from django.conf import settings
from django.contrib import admin
from django.http import HttpResponse
from django.urls import include, path, re_path
from django.views.static import serve


def healthz(request):
    """Liveness for load balancers and the benchmark's baseline: no database, no template."""
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [
    path("healthz/", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("me/", include("accounts.urls")),
    path("coins/", include("coins.urls")),
    path("", include("games.urls")),
]

if settings.SERVE_MEDIA:
    # Uploaded avatars. Media posts' files (under posts/) are served by games:post_media alone,
    # which asks the visibility module who may hear them.
    urlpatterns += [re_path(r"^media/(?P<path>(?!posts/).*)$", serve, {"document_root": settings.MEDIA_ROOT})]
