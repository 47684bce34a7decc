"""Re-render every post stored by an older BBCode renderer (run after a renderer upgrade)."""

from django.core.management.base import BaseCommand

from games.models import Post
from games.services.posts import posts_refresh_html
from games.text import bbcode


class Command(BaseCommand):
    help = "Re-render posts whose stored HTML comes from an older renderer version."

    def add_arguments(self, parser):
        parser.add_argument("--batch", type=int, default=500)

    def handle(self, *args, batch: int, **options):
        total = 0
        stale = Post.objects.exclude(renderer_version=bbcode.RENDERER_VERSION).order_by("pk")
        last_pk = 0
        while True:
            chunk = list(stale.filter(pk__gt=last_pk)[:batch])
            if not chunk:
                break
            total += posts_refresh_html(posts=chunk)
            last_pk = chunk[-1].pk
        self.stdout.write(f"Re-rendered {total} posts (renderer version {bbcode.RENDERER_VERSION}).")
