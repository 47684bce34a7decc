"""The Atom feed of a thread: its last 50 visible posts, for whoever may read the thread."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.contrib.syndication.views import Feed
from django.shortcuts import get_object_or_404
from django.utils.feedgenerator import Atom1Feed
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games import permissions
from games.models import Post, Thread
from games.services.posts import posts_refresh_html

FEED_POSTS = 50


def _shown_name(post: Post) -> str:
    """The author a feed names: as any reader who is not the game's GM is shown him (a post signed
    with another name is that one's while the game runs: games.permissions.shown_author)."""
    return permissions.shown_author(AnonymousUser(), post).display_name


class AtomWithContent(Atom1Feed):
    """Atom with each post's HTML as the entry's <content type="html">."""

    def add_item_elements(self, handler, item):
        super().add_item_elements(handler, item)
        if item.get("content") is not None:
            handler.addQuickElement("content", item["content"], {"type": "html"})


class ThreadFeed(Feed):
    feed_type = AtomWithContent

    def get_object(self, request, pk):
        thread = get_object_or_404(Thread, pk=pk)
        # The thread page's own rule: a private thread's feed is a 404 for whoever may not read it.
        permissions.check_see_thread(request.user, thread)
        return thread

    def title(self, thread: Thread) -> str:
        return thread.title

    def link(self, thread: Thread) -> str:
        return thread.get_absolute_url()

    def subtitle(self, thread: Thread) -> str:
        return _("The latest posts of the thread «%(title)s».") % {"title": thread.title}

    def items(self, thread: Thread) -> list[Post]:
        # The stored HTML holds only placeholders for [private] texts (games.text.bbcode), and
        # deleted posts are left out, so every entry is what any reader of the thread may see.
        posts = list(Post.objects.filter(thread=thread, is_deleted=False).select_related("author", "shown_author")
                     .order_by("-number")[:FEED_POSTS])
        posts_refresh_html(posts=posts)
        return posts

    def item_title(self, post: Post) -> str:
        return _("#%(number)d, %(author)s") % {"number": post.number, "author": _shown_name(post)}

    def item_description(self, post: Post) -> None:
        return None  # the post is the entry's content, not a summary

    def item_extra_kwargs(self, post: Post) -> dict:
        return {"content": post.html}

    def item_link(self, post: Post) -> str:
        return post.get_absolute_url()

    def item_author_name(self, post: Post) -> str:
        return _shown_name(post)

    def item_pubdate(self, post: Post):
        return post.created_at

    def item_updateddate(self, post: Post):
        return post.edited_at or post.created_at


thread_feed = require_GET(ThreadFeed())
