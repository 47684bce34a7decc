"""The coins pages."""

from django.urls import path

from coins import views

app_name = "coins"

urlpatterns = [
    path("", views.balance_mine, name="balance_mine"),
    path("users/<int:pk>/", views.balance, name="balance"),
]
