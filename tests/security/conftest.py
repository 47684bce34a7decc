"""The security tests' world: a running forum game with a canary planted in every kind of secret,
a second running game hosted by another GM, and the users of every perspective.

The canaries are distinctive words (no Russian or English text contains them by accident) and the
tests look for them, lower-cased, in every response of every URL pattern (docs/security.md)."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from django.contrib.auth.models import Group
from django.db import transaction
from django.db.models import Q
from django.urls import reverse

from accounts.models import User
from coins.services import Line, game_key, post, user_key
from games.models import Game, Post, Report, Seat, Thread
from games.permissions import MODERATORS_GROUP
from games.services.games import game_create, seat_set_aliases
from games.services.lifecycle import game_set_co_gm, game_signup, game_start
from games.services.moderation import report_create, seat_modkill
from games.services.notifications import replacement_request
from games.services.orders import order_submit
from games.services.posting import post_submit
from games.services.posts import post_set_deleted
from games.communication.anonymous import anonymous_send
from games.services.resolution import phase_close
from games.services.threads import thread_create
from tests.conftest import client_for, make_user
from tests.games.conftest import NAMES, ROLES

# --- Canaries: one per kind of secret ------------------------------------------------------------
C_PRIVATE = "зябликприват"        # a [private] message Вася → Маленький Джон, day 1
C_ORDER = "зябликприказ"          # the text of Вася's order
C_TEAM = "зябликмафия"            # a post in the mafia's team chat (Кикимора)
C_GM_LETTER = "зябликписьмо"      # a post in Вася's letters to the GM
C_ANON = "зябликаноним"           # an anonymous message Негодяй → Красная Шапочка
C_ROOM = "зябликкомната"          # a post in the chat room of Вася, Красная Шапочка and Фроло (modkilled later)
C_LOUNGE = "зябликгостиная"       # a post in the lounge (Фроло, after his modkill)
C_EVENT_GM = "зябликсобытиегм"    # a GM's manual event for the GMs only
C_EVENT_TEAM = "зябликсобытиемафия"  # a GM's manual event for the mafia
C_APPLICATION = "зябликзаявка"    # what Кикимора wrote when signing up (for the GMs)
C_REPLACE = "зябликзамена"        # why Маленький Джон asks for a replacement (for the GMs)
C_REPORT = "зябликжалоба"         # Маленький Джон's report of a post (for the site moderators)
C_DELETED = "зябликудалён"        # a post the GM deleted (its text is for moderators)
C_ALIAS = "зябликпрозвище"        # a roster alias of Негодяй: public, a positive control
C_ELSEWHERE = "зябликдругаяигра"  # a post in the team chat of the other GM's game
C_BALANCE = "зябликбаланс"        # a line of Вася's coins ledger (his «Баланс» page: his and the staff's)
# A plain word written next to each canary in the posts: the search tests look for it (searching
# for a canary itself would find it echoed in the search box).
MARKER = "сорока"

# Role names as the Russian UI shows them (games.wording.role_label). The citizen's name is not a
# canary: a modkill announces Фроло's role, as the rules want.
R_RECRUITER, R_REANIMATOR, R_MAFIOSO, R_KILLER, R_THIEF = "рекрутёр", "реаниматор", "мафиози", "киллер", "жулик"
ROLE_NAMES = (R_RECRUITER, R_REANIMATOR, R_MAFIOSO, R_KILLER, R_THIEF)
ALL_CANARIES = (C_PRIVATE, C_ORDER, C_TEAM, C_GM_LETTER, C_ANON, C_ROOM, C_LOUNGE, C_EVENT_GM, C_EVENT_TEAM,
                C_APPLICATION, C_REPLACE, C_REPORT, C_DELETED, C_ALIAS, C_ELSEWHERE, C_BALANCE)

GMS = {"gm", "co_gm", "staff"}  # staff are GMs of every game (permissions.is_game_master)
PLAYERS = {"Вася": "vasya", "Маленький Джон": "john", "Красная Шапочка": "shapka", "Кикимора": "kikimora",
           "Негодяй": "thief", "Фроло": "frolo", "Эсмеральда": "esmeralda"}
# "moderator": a site moderator (the Moderators group) who is not this game's GM — he moderates every
# thread, so he reads deleted posts and the reports, but no secret of a running game.
PERSPECTIVES = ("anonymous", "spectator", "vasya", "john", "shapka", "kikimora", "thief", "frolo", "other_gm",
                "moderator", "gm", "co_gm", "staff")
EVERYBODY = set(PERSPECTIVES)
LIVING = {"vasya", "john", "shapka", "kikimora", "thief"}

# Who may see each canary while the game runs: exactly these perspectives (and they must see it).
RUNNING_ALLOWED: dict[str, set[str]] = {
    C_PRIVATE: {"vasya", "john"} | GMS,
    C_ORDER: {"vasya"} | GMS,
    C_TEAM: {"kikimora"} | GMS,
    C_GM_LETTER: {"vasya"} | GMS,
    C_ANON: {"thief", "shapka"} | GMS,   # the sender's list of what he sent; the recipient's event
    C_ROOM: {"vasya", "shapka", "frolo"} | GMS,  # Фроло, out of play, still reads his old room
    C_LOUNGE: EVERYBODY - LIVING - {"anonymous"},  # the fallen and the spectators, logged in
    C_EVENT_GM: GMS,
    C_EVENT_TEAM: {"kikimora"} | GMS,
    C_APPLICATION: GMS,                  # shown to them while signups are open, not after
    C_REPLACE: {"john"} | GMS,
    C_REPORT: {"staff", "moderator"},    # the report queue is the site moderators'; a game's GM is not one
    C_DELETED: GMS | {"moderator"},      # a game's GMs moderate its threads, site moderators every thread
    C_ALIAS: EVERYBODY,
    C_ELSEWHERE: {"other_gm", "staff"},
    C_BALANCE: {"vasya", "staff"},       # a balance's history is never a game's secret to unseal
    R_RECRUITER: {"vasya", "john"} | GMS,  # Джон is told that the recruiter checked him, not who
    R_REANIMATOR: {"shapka"} | GMS,
    R_MAFIOSO: {"kikimora"} | GMS,
    R_KILLER: {"kikimora"} | GMS,        # the mafia know each other (knows_team)
    R_THIEF: {"thief"} | GMS,
}

RUNNING_NOT_REQUIRED = {C_APPLICATION}

# After the game everything is unsealed for everybody, except what was never a game secret:
# moderation (reports, deleted posts' text), what players wrote the GMs when signing up or asking
# for a replacement, and the other game, which still runs.
FINISHED_ALLOWED: dict[str, set[str]] = {
    **{canary: EVERYBODY for canary in RUNNING_ALLOWED},
    C_APPLICATION: GMS,
    C_REPLACE: {"john"} | GMS,
    C_REPORT: {"staff", "moderator"},
    C_DELETED: GMS | {"moderator"},
    C_ELSEWHERE: {"other_gm", "staff"},
    C_BALANCE: {"vasya", "staff"},
}
# Canaries the finished pass does not require everybody to find (they are allowed, not promised):
# the lounge, the other game and the moderation secrets keep their running rules.
FINISHED_NOT_REQUIRED = {C_APPLICATION, C_REPLACE, C_REPORT, C_DELETED, C_ELSEWHERE}


@dataclass
class World:
    game: Game
    other: Game
    users: dict[str, User | None]
    seats: dict[str, Seat] = field(default_factory=dict)
    posts: dict[str, Post] = field(default_factory=dict)
    report: Report | None = None
    lobby: Thread | None = None

    def user(self, who: str) -> User | None:
        return self.users[who]

    def client(self, who: str):
        return client_for(self.users[who])

    def thread(self, kind: str, **filters) -> Thread:
        return self.game.private_threads.get(kind=kind, **filters)

    def all_threads(self) -> list[Thread]:
        """The threads worth visiting: every thread of the game, the lobby's, and the other game's
        team chat and game thread."""
        pks = [self.game.game_thread_id, self.game.discussion_thread_id, self.lobby.pk, self.other.game_thread_id,
               self.other.private_threads.get(kind=Thread.Kind.FACTION).pk]
        return list(Thread.objects.filter(Q(pk__in=pks) | Q(game=self.game)).order_by("pk"))

    def all_posts(self) -> list[Post]:
        return list(Post.objects.filter(thread__in=[t.pk for t in self.all_threads()]).order_by("pk"))

    missing_pk = 10**9  # an id nothing has

    def other_seat(self) -> Seat:
        return self.other.seats.order_by("number").first()


def _player(game: Game, name: str) -> User:
    return game.seats.select_related("user").get(user__display_name=name).user


def _other_game() -> tuple[Game, User]:
    """A running game of another GM, with a secret in its team chat."""
    other_gm = make_user("Чужой ведущий")
    other = game_create(title="Чужая игра", gm=other_gm, size=7)
    for i in range(7):
        game_signup(game=other, user=make_user(f"Игрок {i}"))
    game_start(game=other, by=other_gm, seed=3, roles_in_seat_order=ROLES)
    mafioso = other.seats.get(role="mafioso").user
    post_submit(thread=other.private_threads.get(kind=Thread.Kind.FACTION), author=mafioso, body=f"{MARKER} {C_ELSEWHERE}")
    other.refresh_from_db()
    return other, other_gm


def build_world() -> World:
    """Play the secrets into a game through the real services (and the GM's event form)."""
    gm = make_user("Ведущий")
    game = game_create(title="Игра с секретами", gm=gm, size=7)
    for name in NAMES:
        game_signup(game=game, user=make_user(name),
                    application=f"Хочу мафию. {C_APPLICATION}" if name == "Кикимора" else "")
    # Roles stay hidden when a player is jailed, so that the jail reveals no canary.
    game.options = {"anonymous_messages": {"limit": 3, "approval": False}, "rooms": True, "reveal_roles": False}
    game.save(update_fields=["options"])
    game_start(game=game, by=gm, seed=5, roles_in_seat_order=ROLES)
    game.refresh_from_db()
    co_gm, staff, spectator = make_user("Соведущий"), make_user("Админ", staff=True), make_user("Зритель")
    moderator = make_user("Модератор")
    moderator.groups.add(Group.objects.get_or_create(name=MODERATORS_GROUP)[0])
    game_set_co_gm(game=game, by=gm, name="Соведущий", add=True)
    other, other_gm = _other_game()
    p = {name: _player(game, name) for name in NAMES}
    seats = {key: game.seats.get(user=p[name]) for name, key in PLAYERS.items()}
    seat_set_aliases(seat=seats["thief"], by=gm, aliases_text=C_ALIAS)
    post([Line(user_key(p["Вася"]), game_key(game, "bank"), 5, "entry_fee", f"Взнос. {C_BALANCE}")], game=game)

    # Day 1: a private message and three proposals of the same room; secrets of every kind.
    thread = game.game_thread
    posts = {}
    posts["private"] = post_submit(thread=thread, author=p["Вася"], body=f'{MARKER} Всем привет. [private="Маленький Джон"]{C_PRIVATE}[/private]',
                                   comment="комната: Красная Шапочка, Фроло")
    post_submit(thread=thread, author=p["Красная Шапочка"], body="Я за комнату.", comment="комната: Вася, Фроло")
    post_submit(thread=thread, author=p["Фроло"], body="Идёт.", comment="комната: Вася и Красная Шапочка")
    order_submit(game=game, user=p["Вася"], text=f"Проверяю Маленького Джона. {C_ORDER}")
    posts["team"] = post_submit(thread=game.private_threads.get(kind=Thread.Kind.FACTION), author=p["Кикимора"],
                                body=f"{MARKER} Стреляем в Васю. {C_TEAM}")
    posts["letter"] = post_submit(thread=game.private_threads.get(kind=Thread.Kind.GM_CHAT, seat=seats["vasya"]),
                                  author=p["Вася"], body=f"{MARKER} Ведущий, вопрос. {C_GM_LETTER}")
    anonymous_send(game=game, user=p["Негодяй"], recipient=seats["shapka"], text=C_ANON)
    replacement_request(game=game, user=p["Маленький Джон"], reason=f"Уезжаю. {C_REPLACE}")
    posts["deleted"] = post_submit(thread=thread, author=p["Эсмеральда"], body=f"{MARKER} Оскорбление. {C_DELETED}")
    post_set_deleted(post=posts["deleted"], moderator=gm, deleted=True, reason="флуд")
    report = report_create(post=posts["private"], reporter=p["Маленький Джон"], reason=f"Спам. {C_REPORT}")
    gm_client = client_for(gm)
    for audience, text in (("gm", C_EVENT_GM), ("faction:mafia", C_EVENT_TEAM)):
        response = gm_client.post(reverse("games:gm_action", args=[game.pk]),
                                  {"action": "event", "audience": audience, "text": f"Заметка. {text}", "confirm": "yes"})
        assert response.status_code == 302

    # The day closes with Эсмеральда jailed (her role kept hidden); the room opens for day 2.
    for name in ("Вася", "Маленький Джон", "Кикимора", "Негодяй"):
        post_submit(thread=thread, author=p[name], body="[b]В тюрьму Эсмеральду[/b]")
    game.refresh_from_db()
    phase_close(phase_id=game.current_phase.pk, now=game.current_phase.deadline_at)
    game.refresh_from_db()
    room = game.private_threads.get(kind=Thread.Kind.ROOM)
    posts["room"] = post_submit(thread=room, author=p["Вася"], body=f"{MARKER} Наш план. {C_ROOM}")
    seat_modkill(game=game, seat=seats["frolo"], by=gm, reason="ушёл")
    posts["lounge"] = post_submit(thread=game.private_threads.get(kind=Thread.Kind.LOUNGE), author=p["Фроло"],
                                  body=f"{MARKER} Скучно тут. {C_LOUNGE}")
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING and game.current_phase.number == 2
    assert game.phases.order_by("pk").first().outcome["jailed"] == ["Эсмеральда"]

    lobby, _post = thread_create(kind=Thread.Kind.LOBBY, title="Лобби", author=spectator, body="Кто играет?")

    users = {"anonymous": None, "spectator": spectator, "other_gm": other_gm, "gm": gm, "co_gm": co_gm,
             "staff": staff, "moderator": moderator, **{key: p[name] for name, key in PLAYERS.items()}}
    for seat in seats.values():
        seat.refresh_from_db()
    return World(game=game, other=other, users=users, seats=seats, posts=posts, report=report, lobby=lobby)


@pytest.fixture
def world(db) -> World:
    return build_world()


def module_world(django_db_blocker, build):
    """build() once for a whole test module (the URL sweeps read it hundreds of times), in a
    transaction rolled back after the module. Each test still runs in its own savepoint (the `db`
    fixture), so what a test writes is undone before the next one. A generator for a fixture."""
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            world = build()
        except BaseException:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
            raise
    yield world
    with django_db_blocker.unblock():
        transaction.set_rollback(True)
        outer.__exit__(None, None, None)


@pytest.fixture(scope="module")
def shared_world(django_db_setup, django_db_blocker) -> World:
    """build_world() once for the module (module_world)."""
    yield from module_world(django_db_blocker, build_world)


def fingerprint() -> dict:
    """What a state-changing request could change, row by row: counts of every table a view
    writes, and the fields views update in place. Two equal fingerprints: nothing changed."""
    from allauth.account.models import EmailAddress
    from django.contrib.sessions.models import Session

    from games.models import (
        Absence,
        AnonymousMessage,
        BestPlayerVote,
        GameBan,
        GameEvent,
        GMAction,
        Notification,
        Order,
        Phase,
        PostRevision,
        PrivateMessage,
        RatingDecision,
        Replacement,
        RoomProposal,
        VoteRecord,
    )

    counted = (User, EmailAddress, Session, Game, Seat, Thread, Post, PostRevision, Phase, VoteRecord, Order, GameEvent,
               GMAction, Replacement, Absence, Report, GameBan, BestPlayerVote, RatingDecision, PrivateMessage,
               AnonymousMessage, RoomProposal, Notification)
    return {
        "counts": {model.__name__: model.objects.count() for model in counted},
        "users": list(User.objects.order_by("pk").values_list("pk", "display_name", "language", "time_zone",
                                                               "banned_until", "is_active", "password")),
        "games": list(Game.objects.order_by("pk").values_list("pk", "status", "options", "vote_syntaxes",
                                                              "end_day_on_majority", "current_phase")),
        "co_gms": list(Game.co_gms.through.objects.order_by("pk").values_list("game_id", "user_id")),
        "seats": list(Seat.objects.order_by("pk").values_list("pk", "user", "status", "aliases",
                                                              "replacement_requested_at", "replacement_reason")),
        "threads": list(Thread.objects.order_by("pk").values_list("pk", "is_locked", "lock_at", "post_count")),
        "posts": list(Post.objects.order_by("pk").values_list("pk", "body", "is_deleted")),
        "phases": list(Phase.objects.order_by("pk").values_list("pk", "deadline_at", "closed_at", "gm_decisions",
                                                                "voided_at")),
        "reports": list(Report.objects.order_by("pk").values_list("pk", "resolved_at")),
        "anonymous": list(AnonymousMessage.objects.order_by("pk").values_list("pk", "status")),
        "notifications_read": list(Notification.objects.order_by("pk").values_list("pk", "read_at")),
    }
