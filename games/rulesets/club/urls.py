"""The club rule set's pages, included under the games URLs by the registry (games/urls.py)."""

from django.urls import path

from games.rulesets.club import views as club

urlpatterns = [
    path("games/<int:pk>/rating/", club.rating_page, name="rating"),
]
