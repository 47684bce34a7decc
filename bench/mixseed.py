"""The whole-site load test's site (bench/mix.py): twenty running games of the four rule sets, ten
to fifteen players each, their GMs, spectators, and a session for everyone; the deadlines moved
during the run so that several fall in the same minute; and the watch of when each closed.
Everything through the real services (game_create, game_signup, game_start, phase_close,
phase_set_deadline), as the tests' helpers do. Needs a migrated, empty database and Django set up.

The games (GAMES): forum, club and cards games in a day (votes in posts) or a night (orders on the
role page), in turn; the shows in their first stage (greetings: a text post stands in for the
media post). Phases are reached by closing the earlier ones in process, as their deadlines would.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

from bench.load import FIRST_NAMES, SECOND_WORDS

# (rule set, players): 20 games, 10 to 15 players each.
GAMES = [
    ("forum", 12), ("club", 10), ("cards", 10), ("show", 10),
    ("forum", 15), ("club", 12), ("cards", 12), ("show", 10),
    ("forum", 10), ("club", 14), ("cards", 11), ("show", 10),
    ("forum", 13), ("club", 11), ("cards", 10), ("show", 10),
    ("forum", 14), ("club", 13), ("cards", 12), ("show", 10),
]
# The phase each game is brought to before the run, by its index among its rule set's games: club
# and cards games vote in a day (even ones) or send orders at night (odd ones); a forum turn is one
# day, its orders sent during it; the show stays at its greetings.
WANTED = {"forum": (("day", 1), ("day", 1)), "club": (("day", 1), ("night", 1)),
          "cards": (("day", 1), ("night", 1))}
GREEK = ("Альфа Бета Гамма Дельта Эпсилон Дзета Эта Тета Йота Каппа Лямбда Мю Ню Кси Омикрон Пи Ро "
         "Сигма Тау Ипсилон Фи Хи Пси Омега").split()


def game_names(index: int, size: int) -> list[str]:
    """The players' display names of game `index`: site-wide unique (a display name is), and
    within the game first names that the vote reader tells apart (each game one second word)."""
    second = ("",) + SECOND_WORDS
    word = second[index // 3]
    first = FIRST_NAMES[(index % 3) * 15:(index % 3) * 15 + size]
    if len(first) < size:
        raise ValueError(f"at most 15 players a game, not {size}")
    return [f"{name} {word}".strip() for name in first]


@dataclass
class SeededGame:
    id: int
    ruleset: str
    thread: int
    discussion: int
    gm: dict
    players: list[dict] = field(default_factory=list)


def _user(username: str, name: str):
    from allauth.account.models import EmailAddress

    from accounts.models import User

    user = User.objects.create_user(username=username, email=f"{username}@mix.invalid", password=None,
                                    display_name=name)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def _bring_to(game, wanted: tuple[str, int], *, limit: int = 4) -> None:
    """Close the game's phases in process (as their deadlines would) until a phase of the wanted
    kind, numbered at least as wanted, is open."""
    from django.utils import timezone

    from games.services.resolution import phase_close

    for _ in range(limit):
        game.refresh_from_db()
        phase = game.current_phase
        if phase is None or (phase.kind, min(phase.number, wanted[1])) == wanted or game.status != game.Status.RUNNING:
            return
        phase_close(phase_id=phase.pk, now=timezone.now())


def seed_site(*, spectators: int = 40, seed: int = 30) -> dict:
    """Create the site and return the plan the Locust users read (bench/locustfile.py): each game
    with its threads, its GM's and its players' cookies, and the spectators' cookies."""
    from games.models import Game
    from games.rulesets import registry
    from games.services.games import game_create
    from games.services.lifecycle import game_signup, game_start

    from bench.seed import login_cookies

    seeded: list[SeededGame] = []
    per_ruleset: dict[str, int] = {}
    for index, (ruleset, size) in enumerate(GAMES):
        nth = per_ruleset.get(ruleset, 0)
        per_ruleset[ruleset] = nth + 1
        gm = _user(f"mix-gm{index}", f"Ведущий {GREEK[index]}")
        options = registry.site("show").options_from({}) if ruleset == "show" else None
        game = game_create(title=f"Нагрузка {index + 1}: {ruleset}", gm=gm, ruleset=ruleset, size=size, options=options)
        users = [_user(f"mix-g{index}-p{i}", name) for i, name in enumerate(game_names(index, size))]
        for i, user in enumerate(users):
            if ruleset == "cards":
                from games.rulesets.cards.engine.roles import OVERT_ROLES

                game_signup(game=game, user=user, overt_role=sorted(OVERT_ROLES)[i], contacts=f"tg @p{i}")
            else:
                game_signup(game=game, user=user)
        game = game_start(game=game, by=gm, seed=seed + index)
        if ruleset in WANTED:
            _bring_to(game, WANTED[ruleset][nth % 2])
        game.refresh_from_db()
        assert game.status == Game.Status.RUNNING, (ruleset, game.status)
        seats = {seat.user_id: seat for seat in game.seats.all()}
        seeded.append(SeededGame(
            id=game.pk, ruleset=ruleset, thread=game.game_thread_id, discussion=game.discussion_thread_id,
            gm=login_cookies(gm.pk),
            players=[{"cookies": login_cookies(user.pk), "seat": seats[user.pk].pk} for user in users],
        ))
    watchers = [login_cookies(_user(f"mix-s{i}", f"Зритель {GREEK[i % len(GREEK)]} {i // len(GREEK) + 1}").pk)
                for i in range(spectators)]
    return {"games": [g.__dict__ for g in seeded], "spectators": watchers}


def phase_label(phase) -> str:
    return f"{phase.kind} {phase.number}"


def move_deadlines(game_ids: list[int], at: list[float], *, users: int) -> list:
    """The GM moves each game's open phase's deadline to `at` (epoch seconds), through the real
    service (which queues the close's ETA task on the site's broker); returns a Deadline each.
    A game with no open phase, or that ended, is skipped."""
    from datetime import datetime, timezone as dt_timezone

    from games.models import Game
    from games.services.phases import phase_set_deadline

    from bench.mixreport import Deadline

    out = []
    for game_id, when in zip(game_ids, at):
        game = Game.objects.select_related("current_phase", "gm").get(pk=game_id)
        phase = game.current_phase
        if game.status != Game.Status.RUNNING or phase is None or phase.closed_at is not None:
            continue
        deadline = datetime.fromtimestamp(when, tz=dt_timezone.utc)
        phase_set_deadline(phase=phase, by=game.gm, deadline_at=deadline)
        out.append((phase.pk, Deadline(game=game.pk, ruleset=game.ruleset, phase=phase_label(phase),
                                       deadline=when, users=users)))
    return out


class CloseWatch:
    """Reads, every `interval` seconds, which of the watched phases the database shows closed, and
    notes the time it first saw each (the close commits in one transaction: seen closed means the
    results are posted and the next phase is open). One small query a turn, its own connection."""

    def __init__(self, interval: float = 0.25):
        self.interval = interval
        self.watched: dict[int, object] = {}  # phase pk -> Deadline
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def add(self, pairs) -> None:
        with self.lock:
            for phase_pk, deadline in pairs:
                self.watched[phase_pk] = deadline

    def open_count(self) -> int:
        with self.lock:
            return sum(1 for d in self.watched.values() if d.closed_at is None)

    def _run(self) -> None:
        from django.db import connections

        from games.models import Phase

        try:
            while not self.stop.wait(self.interval):
                with self.lock:
                    pending = [pk for pk, d in self.watched.items() if d.closed_at is None]
                if not pending:
                    continue
                now = time.time()
                for pk, closed_at in Phase.objects.filter(pk__in=pending, closed_at__isnull=False).values_list(
                        "pk", "closed_at"):
                    with self.lock:
                        deadline = self.watched[pk]
                        deadline.closed_at, deadline.seen_at = closed_at.timestamp(), now
        finally:
            connections.close_all()

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join(timeout=10)


def site_checks(since: float) -> dict:
    """What the run wrote, read from the database: the posts stored since `since` (epoch seconds),
    the vote lines of their posts (counted or not), the orders recorded (accepted or not), and the
    phases closed. The users' answers say the site took them; this says it kept them."""
    from datetime import datetime, timezone as dt_timezone

    from games.models import Order, Phase, Post, VoteRecord

    start = datetime.fromtimestamp(since, tz=dt_timezone.utc)
    votes = VoteRecord.objects.filter(post__created_at__gte=start)
    orders = Order.objects.filter(recorded_at__gte=start, recorded_by__username__startswith="mix-g")
    return {
        "posts_stored": Post.objects.filter(created_at__gte=start).count(),
        "votes_counted": votes.filter(valid=True).count(),
        "votes_not_counted": votes.filter(valid=False).count(),
        "orders_accepted": orders.filter(valid=True).count(),
        "orders_refused": orders.filter(valid=False).count(),
        "phases_closed": Phase.objects.filter(closed_at__gte=start).count(),
    }
