"""The setting of the in-process profiles (`python -m bench.posting`, `python -m bench.page`): the
benchmark's game on a throwaway PostgreSQL database and Redis prefix of their own, Django set up
in this process, everything dropped afterwards (the same environment and clean-up as
`python -m bench`)."""

from __future__ import annotations

import os
import secrets
from contextlib import contextmanager

from bench.__main__ import bench_environment, check_services
from bench.server import clear_cache_prefix, create_database, drop_database


@contextmanager
def seeded_game(name: str, *, posts: int):
    """Yield (game, the player's login cookies) of a freshly seeded benchmark game."""
    prefix = f"mafia-bench-{name}-{os.getpid()}-{secrets.token_hex(3)}"
    env = bench_environment(prefix)
    os.environ.update(env)
    check_services(env)
    create_database(env["DATABASE_URL"])
    try:
        import django  # settings come from the environment set just above

        django.setup()
        from django.core.management import call_command  # Django is set up only now

        call_command("migrate", verbosity=0, interactive=False)
        call_command("collectstatic", verbosity=0, interactive=False)
        from bench.seed import login_cookies, seed  # needs the apps loaded

        game = seed(posts=posts)
        yield game, login_cookies(game.player_id)
    finally:
        from django.db import connections  # as above

        connections.close_all()
        drop_database(env["DATABASE_URL"])
        clear_cache_prefix(env["REDIS_URL"], prefix)
