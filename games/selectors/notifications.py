"""Reads of a user's notifications: the list the site shows him and the bell's count. Moved down
from games.services.notifications (issue 15) so that every page's bell (the context processor,
the thread page) reads it without importing the service that writes notifications."""

from __future__ import annotations

from django.db.models import QuerySet

from games.models import Notification


def site_notifications(user) -> QuerySet[Notification]:
    """The user's own notifications of the kinds he keeps on the site, newest first."""
    return Notification.objects.filter(user=user).exclude(kind__in=list(user.notify_site_off or ())).order_by(
        "-created_at", "-pk")


def unread_count(user) -> int:
    """The bell: one COUNT query for a logged-in user, none for the anonymous."""
    if not user.is_authenticated:
        return 0
    return site_notifications(user).filter(read_at__isnull=True).count()
