"""Games app: threads, posts, games and (later) the rules engine behind them."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games and forum")

    def ready(self):
        # Every database connection's writes invalidate the thread page cache (games/caching/pagecache.py).
        from games.caching import pagecache

        pagecache.install()
