"""Our own account pages (allauth's live under /accounts/ too)."""

from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("profile/", views.profile_edit, name="profile_edit"),
    path("users/<int:pk>/", views.profile_detail, name="profile"),
    path("language/", views.language_switch, name="language"),
]
