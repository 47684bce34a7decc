"""Template context for every page: the bell's count of unread notifications."""

from __future__ import annotations

from games.caching import pagecache
from games.selectors.notifications import unread_count


def notifications(request) -> dict:
    """`notifications_unread`: a callable the template resolves only where the bell is shown,
    at most once per request (one COUNT query for a logged-in user; nothing for the anonymous).
    A page that read its counters first (`request.page_stamps`, pagecache.read_page_stamps) takes
    the count kept under the site's and the user's counters, as the thread page does."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}

    def unread() -> int:
        if not hasattr(request, "_notifications_unread"):
            stamps = getattr(request, "page_stamps", None)
            if stamps is not None and stamps.user_id == user.pk:
                request._notifications_unread = pagecache.kept_value(
                    pagecache.BELL_READ.format(user=user.pk), stamps, ("site", "user"), lambda: unread_count(user))
            else:
                request._notifications_unread = unread_count(user)
        return request._notifications_unread

    return {"notifications_unread": unread}
