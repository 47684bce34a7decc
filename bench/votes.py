"""Vote benchmarks: recount of a 10,000-post day, the cost parsing adds to posting, and the
cached count fragment. `python -m bench.votes [--posts 10000]`.

Runs on a throwaway test database (SQLite by default, PostgreSQL when DATABASE_URL is set).
Prints one JSON object as its last line.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "0")


def _best(fn, repeat: int) -> float:
    """Median seconds of `repeat` runs (the machines are noisy; the median resists outliers)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def ledger_lines(phase, posts, seats) -> list:
    """The ledger of a day where every post is a valid final vote (the worst case for the
    recount): post i by seat i, for seat 7i+3 (mod the table). `python -m bench` reuses it."""
    from games.models import VoteRecord

    seat_ids = [seat.pk for seat in seats]
    return [
        VoteRecord(phase_id=phase.pk, post_id=post.pk, post_number=post.number, voter_id=seat_ids[i % len(seat_ids)],
                   kind="vote", target_id=seat_ids[(i * 7 + 3) % len(seat_ids)], valid=True, is_final=True,
                   recorded_at=post.created_at)
        for i, post in enumerate(posts)
    ]


def measure_recount(phase, repeat: int = 5) -> dict:
    """The recount of a day from its ledger (games.selectors.votes.vote_count), against fetching
    the same ledger rows without counting; medians of `repeat` runs. Used by `python -m bench` too."""
    from games.models import VoteRecord
    from games.selectors.votes import vote_count

    fetch = _best(lambda: list(VoteRecord.objects.filter(phase=phase).values_list("post_id", "voter_id", "target_id")), repeat)
    recount = _best(lambda: vote_count(phase=phase), repeat)
    return {
        "recount_s": recount,
        "fetch_rows_s": fetch,
        "recount_10k_ms": round(recount * 1000, 2),
        "fetch_rows_ms": round(fetch * 1000, 2),
        "recount_vs_fetch_rows": round(recount / fetch, 2) if fetch else None,
    }


PARSE_TEMPLATES = (
    "[b]В тюрьму {acc}[/b]",
    "Я думаю, что это ты. [b]В тюрьму {acc}[/b] и точка.",
    "[quote=\"{name}\"][b]В тюрьму {acc}[/b][/quote]\nНе согласен, голосую за [b]{acc}[/b].",
    "Соглашусь с предыдущим оратором, но подожду ночных итогов.",
    "[b]{acc} в тюрьму![/b]",
)


def measure_parsing(names: list[str], posts: int = 10_000, repeat: int = 5) -> dict:
    """The vote reader alone (games.text.votes.parse_votes), per post, in microseconds: posts as
    players write them, and posts whose names are shortened or misspelt (they take the nickname,
    prefix and typo paths of the matcher, issue 16). A fresh matcher per run, as per game."""
    from games.text.names import RosterMatcher, inflect_name
    from games.text.votes import DEFAULT_PROFILE, parse_votes

    accusative = {name: inflect_name(name, "accs") for name in names}
    written = [PARSE_TEMPLATES[i % len(PARSE_TEMPLATES)].format(name=names[i % len(names)],
                                                                acc=accusative[names[(i * 7 + 3) % len(names)]])
               for i in range(posts)]
    # A typo (two letters swapped), a prefix, a dropped last letter: every name in each shape.
    shortened = []
    for name in names:
        word = name.split()[0]
        shortened += [f"[b]В тюрьму {word[:-2] + word[-1] + word[-2]}[/b]", f"[b]В тюрьму {word[:4]}[/b]",
                      f"[b]Голосую за {word[:-1]}[/b]"]
    shortened = (shortened * (posts // len(shortened) + 1))[: posts // 10]

    def per_post(batch) -> float:
        runs = []
        for _ in range(repeat):
            matcher = RosterMatcher(names)
            began = time.perf_counter()
            for text in batch:
                parse_votes(text, matcher, profile=DEFAULT_PROFILE)
            runs.append((time.perf_counter() - began) / len(batch))
        return statistics.median(runs) * 1e6

    return {"parse_us_per_post": round(per_post(written), 1), "parse_misspelt_us_per_post": round(per_post(shortened), 1)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--posts", type=int, default=10_000)
    parser.add_argument("--create", type=int, default=150, help="posts created for the parsing-overhead ratio")
    args = parser.parse_args()

    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        results = run(args)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    print(json.dumps(results))


def run(args) -> dict:
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.utils import timezone

    from accounts.models import User
    from games.models import Game, Post, Thread, VoteRecord
    from games.services.games import game_create, seat_add
    from games.services.phases import phase_open
    from games.services.posting import post_submit
    from games.text import bbcode

    names = ["Вася", "Кикимора", "Маленький Джон", "Красная Шапочка", "Эсмеральда", "Фроло", "SleepWalker",
             "Негодяй", "Джеймс Бонд", "Лев", "Алёна", "Игорь", "Мария Петровна", "Zorro", "Шевченко"]
    users = [User.objects.create_user(username=f"u{i}", email=f"u{i}@example.com", password="x", display_name=n)
             for i, n in enumerate(names)]
    gm = User.objects.create_user(username="gm", email="gm@example.com", password="x", display_name="Ведущий")
    game = game_create(title="Bench", gm=gm)
    seats = [seat_add(game=game, user=u) for u in users]
    Game.objects.filter(pk=game.pk).update(status=Game.Status.RUNNING)
    game.refresh_from_db()
    now = timezone.now()
    phase = phase_open(game=game, kind="day", by=None, deadline_at=now + timedelta(days=1), now=now - timedelta(days=1))

    # A 10,000-post day, every post a vote (the worst case for the recount).
    thread = game.game_thread
    html = bbcode.render("[b]В тюрьму Васю[/b]")
    posts = Post.objects.bulk_create([
        Post(thread=thread, number=i + 1, author=users[i % len(users)], body="[b]В тюрьму Васю[/b]", html=html,
             renderer_version=bbcode.RENDERER_VERSION, created_at=now - timedelta(seconds=args.posts - i))
        for i in range(args.posts)
    ], batch_size=2000)
    Thread.objects.filter(pk=thread.pk).update(post_count=args.posts)
    VoteRecord.objects.bulk_create(ledger_lines(phase, posts, seats), batch_size=2000)

    recount_figures = measure_recount(phase)
    recount, baseline = recount_figures["recount_s"], recount_figures["fetch_rows_s"]

    # Parsing overhead: the same posts in the same game thread, with the vote reader switched
    # off (baseline) and on (parsed, ledger written).
    # The posting service reads the votes through its own name for the reader.
    import games.services.posting as posting_service

    voter = users[1]
    texts = ["Я думаю, что это ты. [b]В тюрьму Маленького Джона[/b] и точка.", "Соглашусь с предыдущим оратором."]

    def create_many(target_thread):
        for i in range(args.create):
            post_submit(thread=target_thread, author=voter, body=texts[i % 2])

    real_reader = posting_service.votes_record_for_post

    def without_reader():
        posting_service.votes_record_for_post = lambda **kwargs: None
        try:
            create_many(thread)
        finally:
            posting_service.votes_record_for_post = real_reader

    # Interleaved rounds, so that drift (a growing table, a busy neighbour) hits both sides alike.
    plain_runs, parsed_runs = [], []
    for _ in range(7):
        plain_runs.append(_best(without_reader, 1))
        parsed_runs.append(_best(lambda: create_many(thread), 1))
    plain, parsed = statistics.median(plain_runs), statistics.median(parsed_runs)

    # The live fragment: cached vs cold.
    client = Client()
    url = f"/games/{game.pk}/votes/live/"
    cache.clear()
    cold = _best(lambda: (cache.clear(), client.get(url)), 3)
    client.get(url)
    warm = _best(lambda: client.get(url), 20)

    parsing = measure_parsing(names)
    results = {
        "database": connection.vendor,
        **parsing,
        "posts_in_day": args.posts,
        "recount_10k_ms": round(recount * 1000, 2),
        "recount_vs_fetch_rows": round(recount / baseline, 2),
        "fetch_rows_ms": round(baseline * 1000, 2),
        "post_create_ms": round(plain / args.create * 1000, 3),
        "post_create_with_votes_ms": round(parsed / args.create * 1000, 3),
        "parsing_overhead_ratio": round(parsed / plain, 3),
        "fragment_cold_ms": round(cold * 1000, 2),
        "fragment_cached_ms": round(warm * 1000, 2),
        "fragment_cached_vs_cold": round(warm / cold, 3),
    }
    for key, value in results.items():
        print(f"{key:32} {value}")
    return results


if __name__ == "__main__":
    main()
