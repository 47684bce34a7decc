"""The show's pages, included under the games URLs by the registry (games/urls.py)."""

from django.urls import path

from games.rulesets.show.privileges import views as privileges_views
from games.rulesets.show import views as show
from games.rulesets.show.coins import views as views_fines

urlpatterns = [
    path("games/<int:pk>/show/status/", show.show_status, name="show_status"),
    path("games/<int:pk>/show/fullstatus/", show.show_fullstatus_mine, name="show_fullstatus_mine"),
    path("games/<int:pk>/show/fullstatus/<int:seat_pk>/", show.show_fullstatus, name="show_fullstatus"),
    path("games/<int:pk>/show/act/", show.show_act, name="show_act"),
    path("games/<int:pk>/show/about/", show.show_about_mine, name="show_about_mine"),
    path("games/<int:pk>/show/about/<int:seat_pk>/", show.show_about, name="show_about"),
    path("games/<int:pk>/show/results/", show.show_results, name="show_results"),
    path("games/<int:pk>/show/privilege/", privileges_views.show_privilege, name="show_privilege"),
    path("games/<int:pk>/show/secretary/", privileges_views.show_secretary, name="show_secretary"),
    path("games/<int:pk>/show/fines/", views_fines.show_fines, name="show_fines"),
]
