"""The benchmark's game: a running forum game with twelve players whose game thread holds 10,000
posts of day 1 (realistic BBCode, every post casting a vote recorded in the ledger, as the worst
case of bench.votes), and a logged-in player's session. Needs a migrated, empty database."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

NAMES = ["Вася", "Кикимора", "Маленький Джон", "Красная Шапочка", "Эсмеральда", "Фроло", "SleepWalker",
         "Негодяй", "Джеймс Бонд", "Лев", "Алёна", "Мария Петровна"]

LONG_TEXT = (
    "Давайте по порядку. Вчера днём {other} молчал до самого вечера, а потом написал три поста подряд "
    "и во всех трёх защищал одного и того же человека. Мирному так делать незачем: он не знает, кто "
    "свой, и не станет рисковать ради чужого. Ночью убили того, кто первым начал задавать вопросы, и "
    "это тоже не случайность. Я понимаю, что доказательств у меня нет, но других зацепок у города нет "
    "вообще, а день заканчивается. Кто не согласен — пишите, почему, а не просто «не верю».\n\n"
)

TEMPLATES = [
    "Доброе утро, город!\n[quote={other}]Я мирный, можете меня проверить.[/quote]\n"
    "Все так говорят. Мне не нравится, как [i]{other}[/i] уходит от ответов.\n\n{vote}",
    "Список подозреваемых на сегодня:\n[list][*]{other}[*]{target}[*]кто-то из молчунов[/list]\n"
    "[spoiler=Мои заметки]Ночью кто-то явно знал, куда идти. Шериф бы так не ошибся.[/spoiler]\n{vote}",
    "{vote} — и не спорьте. [url=https://example.org/rules]Правила[/url] я читал, голос засчитается.",
    "[color=red]Внимание![/color] До конца дня осталось мало времени.\n[u]Голосуем, кто ещё не голосовал![/u]\n{vote}",
    LONG_TEXT + "{vote}",
    "[s]Передумал голосовать за {other}[/s]\nНет, всё-таки так: {vote}",
    "[quote={other}][quote={target}]Кто за мир?[/quote]Мира не будет, правила не дают.[/quote]\n"
    "Согласен с предыдущим оратором.\n{vote}",
    "[size=3]Итоги моих наблюдений[/size]\n[list=1][*]{other} врёт[*]{target} молчит[*]я мирный[/list]\n{vote}",
]


# A word one post of the thread has (bench/growth.py searches it as the rare word).
RARE_WORD = "ветрогон"
RARE_LINE = f"P.S. Не будьте {RARE_WORD}ами, голосуйте вовремя."


@dataclass
class BenchGame:
    game_id: int
    thread_id: int
    phase_id: int
    player_id: int
    post_count: int
    vote_bodies: list[str]
    # Plain posts (no vote) of the same player, for the cost of a vote over a post.
    plain_bodies: tuple[str, ...] = (
        "Пока присматриваюсь. [i]Вечером[/i] скажу, кого подозреваю.",
        "Согласен с предыдущим оратором, но не во всём: [b]подождём[/b] ночных итогов.",
    )


def player_names(players: int) -> list[str]:
    """The table's names: NAMES, then «Игрок 13», «Игрок 14»… for a larger table."""
    return [*NAMES, *(f"Игрок {n}" for n in range(len(NAMES) + 1, players + 1))][:players]


def seed(*, posts: int = 10_000, players: int = len(NAMES), tag: str = "", counted: int | None = None) -> BenchGame:
    """Create the game through the real services (signups, deal, day 1), then bulk-load the posts
    and their ledger lines. Celery tasks queued meanwhile (the day's deadline) run in-process.
    `tag` keeps the usernames of a second game in the same database apart (bench/site_growth.py).
    `counted`: only the last so many posts are counted votes in the day's ledger (all by default:
    the recount's worst case); the rest are the same words, read as talk."""
    from allauth.account.models import EmailAddress
    from django.utils import timezone

    from accounts.models import User
    from bench.votes import ledger_lines
    from config.celery import app
    from games.models import Post, Thread, VoteRecord
    from games.services.games import game_create
    from games.services.lifecycle import game_signup, game_start
    from games.services.votes import vote_button_text
    from games.text import bbcode

    app.conf.task_always_eager = True  # the deadline's ETA task: a no-op now, and nothing left in a broker
    now = timezone.now()
    started = now - timedelta(seconds=posts + 600)
    gm = User.objects.create_user(username=f"bench{tag}-gm", email=f"gm{tag}@bench.invalid", password=None,
                                  display_name=f"Ведущий {tag}".strip())
    users = []
    for index, name in enumerate(player_names(players)):
        user = User.objects.create_user(username=f"bench{tag}{index}", email=f"p{tag}{index}@bench.invalid", password=None,
                                        display_name=name if not tag else f"{name} {tag}")
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
        users.append(user)
    game = game_create(title=f"Бенчмарк: город против мафии {tag}".strip(), gm=gm, size=len(users))
    for user in users:
        game_signup(game=game, user=user)
    game = game_start(game=game, by=gm, now=started, seed=8)
    game.refresh_from_db()
    phase = game.current_phase
    thread = Thread.objects.get(pk=game.game_thread_id)
    seats = list(game.seats.select_related("user").order_by("number"))

    # Bodies: every template with every target, each rendered once.
    rendered: dict[str, tuple[str, str]] = {}
    votes = {seat.user.display_name: vote_button_text(seat.user.display_name, game.ruleset) for seat in seats}

    def body_for(i: int) -> str:
        target = seats[(i * 7 + 3) % len(seats)].user.display_name
        other = seats[(i * 5 + 1) % len(seats)].user.display_name
        body = TEMPLATES[i % len(TEMPLATES)].format(vote=votes[target], target=target, other=other)
        if i == RARE_POST:
            body = f"{body}\n{RARE_LINE}"  # the search's rare word: in this one post of the thread
        if body not in rendered:
            rendered[body] = (bbcode.render(body), bbcode.searchable_text(body))
        return body

    RARE_POST = (posts - thread.post_count) // 3
    first = thread.post_count + 1
    rows = []
    for i in range(posts - thread.post_count):
        body = body_for(i)
        html, text = rendered[body]
        rows.append(Post(thread=thread, number=first + i, author=seats[i % len(seats)].user, body=body, html=html,
                         search_text=text, renderer_version=bbcode.RENDERER_VERSION,
                         created_at=phase.opened_at + timedelta(seconds=i + 1)))
    created = Post.objects.bulk_create(rows, batch_size=1000)
    voted = created if counted is None else created[len(created) - min(counted, len(created)):]
    VoteRecord.objects.bulk_create(ledger_lines(phase, voted, seats), batch_size=2000)
    Thread.objects.filter(pk=thread.pk).update(post_count=posts, last_post_at=created[-1].created_at)
    player = seats[0].user
    # Two votes the benchmark posts in turn (for other living players).
    vote_bodies = [vote_button_text(seats[3].user.display_name, game.ruleset),
                   "Я передумал. " + vote_button_text(seats[5].user.display_name, game.ruleset)]
    return BenchGame(game_id=game.pk, thread_id=thread.pk, phase_id=phase.pk, player_id=player.pk, post_count=posts,
                     vote_bodies=vote_bodies)


def login_cookies(user_id: int) -> dict[str, str]:
    """A real session for the player, made by Django's own login (so the user_logged_in signal
    stores the preferences as on the site), and a CSRF secret for posting."""
    from django.conf import settings
    from django.test import Client
    from django.utils.crypto import get_random_string

    from accounts.models import User

    client = Client()
    client.force_login(User.objects.get(pk=user_id))
    csrf = get_random_string(32)
    return {settings.SESSION_COOKIE_NAME: client.cookies[settings.SESSION_COOKIE_NAME].value,
            settings.CSRF_COOKIE_NAME: csrf}
