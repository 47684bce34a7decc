"""Create a small living site for newcomers: users, a lobby, a running demo game. Idempotent."""

from datetime import timedelta

from allauth.account.models import EmailAddress
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.models import Game, Thread
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from games.services.posting import post_submit
from games.services.threads import thread_create

DEMO_PASSWORD = "mafia-demo"
GM = ("gm@example.com", "Ведущий")
ADMIN = ("admin@example.com", "Админ")
PLAYERS = [
    ("vasya@example.com", "Вася"),
    ("kikimora@example.com", "Кикимора"),
    ("john@example.com", "Маленький Джон"),
    ("red@example.com", "Красная Шапочка"),
    ("esmeralda@example.com", "Эсмеральда"),
    ("frolo@example.com", "Фроло"),
    ("sleepwalker@example.com", "SleepWalker"),
    ("villain@example.com", "Негодяй"),
]
GAME_TITLE = "Демо: Город засыпает"
CARDS_TITLE = "Демо: Карточная мафия (набор)"
# «Класс» of each demo player in the cards game (the overt role; one holder each).
CARDS_CLASSES = ["Патрульный", "Авторитет", "Параноик", "Гадалка", "Почтальон", "Менеджер", "Качок", "Мститель"]

GAME_POSTS = [
    ("Ведущий", "[b]День 1.[/b] Город просыпается. Голосуйте жирным: [b]В тюрьму Имя[/b]. "
                "Срок дня: до 22:00 по Москве.\n[spoiler=Правила]Правила — в первом посте лобби.[/spoiler]"),
    ("Вася", "Всем привет! Кто-то уже подозрительно молчит...\n[b]В тюрьму Негодяя.[/b]"),
    ("Негодяй", "[quote=\"Вася\"]Кто-то уже подозрительно молчит...[/quote]\nЯ не молчу, я думаю. "
                "Голосую за [b]Васю[/b], слишком уж бойкий."),
    ("Кикимора", "[i]Внимательно читает тему.[/i] Пока никого не подозреваю."),
    ("SleepWalker", "Сплю. [s]В тюрьму Фроло[/s] — шутка.\n[b]Посадить Негодяя[/b]"),
    ("Красная Шапочка", "А почему у Негодяя такие большие зубы?\n[b]В клетку Негодяя![/b]"),
]
LOBBY_POSTS = [
    ("Ведущий", "Добро пожаловать! Здесь собираемся на новые партии.\n"
                "[list][*]Правила форумной мафии — в описании игры[*]Голос — жирным, со словом «в тюрьму»"
                "[*]Заказы — ведущему в личку[/list]"),
    ("Эсмеральда", "Запишите меня на следующую партию!"),
    ("Фроло", "[quote=\"Эсмеральда\"]Запишите меня на следующую партию![/quote]\nИ меня."),
]


class Command(BaseCommand):
    help = ("Create demo users, a lobby thread, a running demo game and a card game in its sign-ups "
            "(safe to run again).")

    def handle(self, *args, **options):
        with transaction.atomic():
            users = {name: self._user(email, name) for email, name in [GM, ADMIN, *PLAYERS]}
            admin = users[ADMIN[1]]
            if not admin.is_staff:
                admin.is_staff = admin.is_superuser = True
                admin.save(update_fields=["is_staff", "is_superuser"])
            self._lobby(users)
            self._game(users)
            self._cards(users)
        self.stdout.write(self.style.SUCCESS("Demo data is ready. Logins (e-mail / password):"))
        for email, name in [ADMIN, GM, *PLAYERS]:
            role = " (admin)" if email == ADMIN[0] else " (GM)" if email == GM[0] else ""
            self.stdout.write(f"  {email} / {DEMO_PASSWORD}   {name}{role}")

    def _user(self, email: str, name: str) -> User:
        user = User.objects.filter(email__iexact=email).first()
        if user is None:
            user = User(username=email.split("@")[0], email=email, display_name=name)
            user.set_password(DEMO_PASSWORD)
            user.save()
        EmailAddress.objects.update_or_create(
            user=user, email=email, defaults={"verified": True, "primary": True}
        )
        return user

    def _lobby(self, users: dict[str, User]) -> None:
        title = "Набор на новые игры"
        if Thread.objects.filter(kind=Thread.Kind.LOBBY, title=title).exists():
            return
        (author, body), *rest = LOBBY_POSTS
        thread, _post = thread_create(kind=Thread.Kind.LOBBY, title=title, author=users[author], body=body)
        thread.is_pinned = True
        thread.save(update_fields=["is_pinned"])
        for name, text in rest:
            post_submit(thread=thread, author=users[name], body=text)
        thread_create(kind=Thread.Kind.GENERAL, title="Болтовня обо всём", author=users["Кикимора"],
                      body="Как вам последняя партия? Делимся впечатлениями.")

    def _game(self, users: dict[str, User]) -> None:
        if Game.objects.filter(title=GAME_TITLE).exists():
            return
        game = game_create(title=GAME_TITLE, gm=users[GM[1]], ruleset="forum", size=len(PLAYERS))
        for _email, name in PLAYERS:
            game_signup(game=game, user=users[name])
        start = timezone.now() - timedelta(hours=3)
        game_start(game=game, by=users[GM[1]], now=start - timedelta(minutes=1))
        for index, (name, text) in enumerate(GAME_POSTS):
            post_submit(thread=game.game_thread, author=users[name], body=text, now=start + timedelta(minutes=17 * index))
        post_submit(thread=game.discussion_thread, author=users[ADMIN[1]],
                    body="Зрители, обсуждаем здесь. [b]Не подсказываем игрокам![/b]")

    def _cards(self, users: dict[str, User]) -> None:
        """A `cards` game with every demo player's application in: the GM can look at the
        applications and contacts, set the communication and the collection, and start it."""
        if Game.objects.filter(title=CARDS_TITLE).exists():
            return
        game = game_create(title=CARDS_TITLE, gm=users[GM[1]], ruleset="cards", size=len(PLAYERS))
        for (_email, name), overt in zip(PLAYERS, CARDS_CLASSES):
            game_signup(game=game, user=users[name], overt_role=overt, contacts=f"Telegram @{_email.split('@')[0]}")
