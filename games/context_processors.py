"""Template context for every page: the bell's count of unread notifications."""

from __future__ import annotations

from games.selectors.notifications import unread_count


def notifications(request) -> dict:
    """`notifications_unread`: a callable the template resolves only where the bell is shown,
    at most once per request (one COUNT query for a logged-in user; nothing for the anonymous)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}

    def unread() -> int:
        if not hasattr(request, "_notifications_unread"):
            request._notifications_unread = unread_count(user)
        return request._notifications_unread

    return {"notifications_unread": unread}
