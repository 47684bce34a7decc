"""Spectator secrecy (issue 7): while a game runs, every page a visitor can reach about it shows
only what his perspective allows. Canary strings are planted in each kind of secret; each
perspective reads every page of the game and the canaries found are compared with what the rules
allow that perspective. A spectator who plays in another game sees nothing more here."""

import pytest
from django.urls import reverse

from games.models import Game, Thread
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from games.services.moderation import seat_modkill
from games.services.orders import order_submit
from games.services.posting import post_submit
from games.communication.anonymous import anonymous_send
from tests.conftest import client_for, make_user
from tests.games.conftest import ROLES

C_PRIVATE = "канарейкаприват"
C_ORDER = "канарейкаприказ"
C_TEAM = "канарейкамафия"
C_GM_LETTER = "канарейкаведущий"
C_ANON = "канарейкааноним"
C_ELSEWHERE = "канарейкадругаяигра"
# Role names as the Russian UI shows them (games.wording.role_label).
R_RECRUITER, R_REANIMATOR, R_MAFIOSO, R_KILLER, R_THIEF = "рекрутёр", "реаниматор", "мафиози", "киллер", "жулик"
ROLE_NAMES = {R_RECRUITER, R_REANIMATOR, R_MAFIOSO, R_KILLER, R_THIEF}


def _user(game, name):
    return game.seats.select_related("user").get(user__display_name=name).user


@pytest.fixture
def secrets_game(started):
    """The started 7-player forum game (Вася recruiter, Красная Шапочка reanimator, Маленький
    Джон and Фроло citizens, Кикимора mafioso, Эсмеральда killer, Негодяй thief) with a secret of
    every kind planted, and Фроло modkilled."""
    game = started
    game.options = {**(game.options or {}), "anonymous_messages": {"limit": 3, "approval": False}}
    game.save(update_fields=["options"])
    vasya = _user(game, "Вася")
    post_submit(thread=game.game_thread, author=vasya, body=f'Привет. [private="Маленький Джон"]{C_PRIVATE}[/private]')
    order_submit(game=game, user=vasya, text=f"Проверяю Негодяя. {C_ORDER}")
    team = game.private_threads.get(kind=Thread.Kind.FACTION)
    post_submit(thread=team, author=_user(game, "Кикимора"), body=C_TEAM)
    letters = game.private_threads.get(kind=Thread.Kind.GM_CHAT, seat__user=vasya)
    post_submit(thread=letters, author=vasya, body=C_GM_LETTER)
    anonymous_send(game=game, user=_user(game, "Негодяй"), recipient=game.seats.get(user__display_name="Красная Шапочка"),
                   text=C_ANON)
    frolo = game.seats.get(user__display_name="Фроло")
    seat_modkill(game=game, seat=frolo, by=game.gm, reason="ушёл")
    game.refresh_from_db()
    return game


@pytest.fixture
def elsewhere_player(db):
    """A spectator of the secrets game who is the mafioso of another running game, with a team
    chat of his own there."""
    gm = make_user("Другой ведущий")
    other = game_create(title="Другая игра", gm=gm, size=7)
    users = [make_user(f"Игрок {i}") for i in range(7)]
    for user in users:
        game_signup(game=other, user=user)
    game_start(game=other, by=gm, seed=3, roles_in_seat_order=ROLES)
    mafioso = other.seats.get(role="mafioso").user
    post_submit(thread=other.private_threads.get(kind=Thread.Kind.FACTION), author=mafioso, body=C_ELSEWHERE)
    return mafioso, gm


def _pages(game) -> list[str]:
    seats = list(game.seats.all())
    urls = [
        reverse("games:index"), reverse("games:games"), reverse("games:section", args=["lobby"]),
        game.get_absolute_url(), reverse("games:role", args=[game.pk]), reverse("games:gm_dashboard", args=[game.pk]),
        reverse("games:votes", args=[game.pk]), reverse("games:votes_live", args=[game.pk]),
        reverse("games:commitment", args=[game.pk]), reverse("games:anonymous", args=[game.pk]),
        reverse("games:rating", args=[game.pk]),
        game.game_thread.get_absolute_url(), game.discussion_thread.get_absolute_url(),
        reverse("games:post", args=[game.game_thread.pk, 1]),
        reverse("games:search") + "?q=" + "канарейка",
        reverse("games:archive", args=[game.pk]), reverse("games:replay", args=[game.pk]),
        reverse("games:export", args=[game.pk]), reverse("games:thread_feed", args=[game.game_thread.pk]),
        reverse("games:dashboard"), reverse("games:notifications"),
    ]
    urls += [thread.get_absolute_url() for thread in game.private_threads.all()]
    urls += [reverse("games:thread_feed", args=[thread.pk]) for thread in game.private_threads.all()]
    urls += [reverse("accounts:profile", args=[seat.user_id]) for seat in seats]
    urls += [reverse("games:leaderboard", args=["forum"])]
    return urls


def _everything_seen(client, game) -> tuple[str, str]:
    """(all text seen, the same without the viewer's own role page: that page explains the rules,
    which name the roles of the setup, e.g. "if the recruiter checks you")."""
    seen, outside_role_page = [], []
    role_page = reverse("games:role", args=[game.pk])
    for url in _pages(game):
        response = client.get(url, follow=True)
        if response.status_code == 200:
            content = response.content.decode()
            seen.append(content)
            if url != role_page:
                outside_role_page.append(content)
    return "\n".join(seen).lower(), "\n".join(outside_role_page).lower()


SECRETS = {
    C_PRIVATE: {"Вася", "Маленький Джон", "gm"},
    C_ORDER: {"Вася", "gm"},
    C_TEAM: {"Кикимора", "gm"},
    C_GM_LETTER: {"Вася", "gm"},
    C_ANON: {"gm"},
    C_ELSEWHERE: {"elsewhere"},
    R_RECRUITER: {"Вася", "gm"},
    R_REANIMATOR: {"gm"},
    R_MAFIOSO: {"Кикимора", "gm", "elsewhere"},  # "elsewhere" is a mafioso in his own game (his desk says so)
    R_KILLER: {"Кикимора", "gm"},
    R_THIEF: {"gm"},
}


@pytest.mark.parametrize("who", ["anonymous", "spectator", "elsewhere", "other_gm", "Вася", "Маленький Джон",
                                 "Кикимора", "Фроло", "gm"])
def test_each_perspective_sees_exactly_its_secrets(secrets_game, elsewhere_player, who):
    game = secrets_game
    mafioso_elsewhere, other_gm = elsewhere_player
    others = {"anonymous": None, "spectator": make_user("Зритель"), "elsewhere": mafioso_elsewhere,
              "other_gm": other_gm, "gm": game.gm}
    user = others[who] if who in others else _user(game, who)
    assert game.status == Game.Status.RUNNING
    everything, outside_role_page = _everything_seen(client_for(user), game)

    def seen(canary):
        return canary in (outside_role_page if canary in ROLE_NAMES else everything)

    leaked = sorted(canary for canary, allowed in SECRETS.items() if seen(canary) and who not in allowed)
    missing = sorted(canary for canary, allowed in SECRETS.items()
                     if who in allowed and not seen(canary) and canary != C_ELSEWHERE)
    assert leaked == [], f"{who} sees {leaked}"
    assert missing == [], f"{who} does not see {missing}"
    # The seed's salt is the game's last secret: nobody reads it before the end.
    assert game.commitment_salt.lower() not in everything


def test_dead_player_reads_the_lounge_but_no_team_or_letters(secrets_game):
    game = secrets_game
    client = client_for(_user(game, "Фроло"))
    lounge = game.private_threads.get(kind=Thread.Kind.LOUNGE)
    assert client.get(lounge.get_absolute_url()).status_code == 200
    for kind in (Thread.Kind.FACTION,):
        assert client.get(game.private_threads.get(kind=kind).get_absolute_url()).status_code == 404
    vasya_letters = game.private_threads.get(kind=Thread.Kind.GM_CHAT, seat__user__display_name="Вася")
    assert client.get(vasya_letters.get_absolute_url()).status_code == 404


def test_a_spectator_reads_the_public_threads_of_a_running_game(secrets_game):
    client = client_for(make_user("Зритель"))
    for thread in (secrets_game.game_thread, secrets_game.discussion_thread):
        response = client.get(thread.get_absolute_url())
        assert response.status_code == 200
    # The thread says a private message is there and to whom, never what it says.
    page = client.get(secrets_game.game_thread.get_absolute_url()).content.decode()
    assert "Маленький Джон" in page and C_PRIVATE not in page
