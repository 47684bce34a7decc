"""Rate limits (issue 8): posting through the site's forms (games.services.posts.post_rate_check)
and logging in (allauth's ACCOUNT_RATE_LIMITS). The clock is frozen in the posting tests: the
limit counts per clock minute, and a test must not pass or fail by when it runs."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import ngettext

from games.models import Post, Thread
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from games.services.posts import post_create, post_rate_check
from games.services.threads import thread_create
from tests.conftest import PASSWORD, client_for, make_user


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def clock(monkeypatch):
    """timezone.now() stands still at the 10th second of a minute until moved."""
    class Clock:
        now = timezone.now().replace(second=10, microsecond=0)

        def move(self, seconds: int) -> None:
            self.now += timedelta(seconds=seconds)

    frozen = Clock()
    monkeypatch.setattr(timezone, "now", lambda: frozen.now)
    return frozen


def english(user):
    user.language = "en"
    user.save(update_fields=["language"])
    return client_for(user)


def _reply(client, thread, body, **headers):
    return client.post(reverse("games:thread_reply", args=[thread.pk]), {"body": body}, **headers)


@pytest.fixture
def lobby(db):
    thread, _post = thread_create(kind=Thread.Kind.LOBBY, title="Лобби", author=make_user("Основатель"), body="Привет")
    return thread


def test_posting_faster_than_the_limit_is_refused_and_nothing_is_stored(settings, clock, lobby):
    settings.MAFIA_POST_RATE = 3
    client = english(make_user("Флудер"))
    for n in range(3):
        assert _reply(client, lobby, f"Пост {n}").status_code == 302
    response = _reply(client, lobby, "Лишний пост")
    assert response.status_code == 400
    assert "You are posting too fast; wait 50 seconds." in response.content.decode()
    assert "Лишний пост" in response.content.decode()  # the form keeps what he wrote
    lobby.refresh_from_db()
    assert lobby.post_count == 4 and not Post.objects.filter(body="Лишний пост").exists()
    # The next minute he may post again.
    clock.move(50)
    assert _reply(client, lobby, "Лишний пост").status_code == 302
    assert Post.objects.filter(thread=lobby, body="Лишний пост").count() == 1


def test_the_htmx_form_shows_the_refusal_in_place(settings, clock, lobby):
    settings.MAFIA_POST_RATE = 1
    client = english(make_user("Флудер"))
    htmx = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "thread-region"}
    assert _reply(client, lobby, "Первый", **htmx).status_code == 200
    response = _reply(client, lobby, "Второй", **htmx)
    assert response.status_code == 200  # htmx swaps only 2xx answers
    page = response.content.decode()
    assert 'role="alert">You are posting too fast; wait 50 seconds.' in page
    assert "<html" not in page  # the fragment, not the whole page
    assert not Post.objects.filter(body="Второй").exists()


def test_starting_threads_counts_too(settings, clock, db):
    settings.MAFIA_POST_RATE = 2
    client = english(make_user("Флудер"))
    for n in range(2):
        response = client.post(reverse("games:thread_new", args=["lobby"]), {"title": f"Тема {n}", "body": "Текст"})
        assert response.status_code == 302
    response = client.post(reverse("games:thread_new", args=["lobby"]), {"title": "Тема 3", "body": "Текст"})
    assert response.status_code == 400
    assert "You are posting too fast" in response.content.decode()
    assert not Thread.objects.filter(title="Тема 3").exists()


def test_the_message_speaks_the_users_language(settings, clock, lobby):
    settings.MAFIA_POST_RATE = 1
    client = client_for(make_user("Флудер"))  # the site's default language, Russian
    _reply(client, lobby, "Первый")
    clock.move(49)  # one second left in the minute
    response = _reply(client, lobby, "Второй")
    assert response.status_code == 400
    with translation.override("ru"):
        expected = ngettext("You are posting too fast; wait %(seconds)d second.",
                            "You are posting too fast; wait %(seconds)d seconds.", 1) % {"seconds": 1}
    assert expected in response.content.decode()


def test_the_gms_in_their_game_and_the_site_moderators_are_exempt(settings, clock, db):
    settings.MAFIA_POST_RATE = 2
    gm = make_user("Ведущий")
    game = game_create(title="Игра", gm=gm, size=7)
    for i in range(7):
        game_signup(game=game, user=make_user(f"Игрок {i}"))
    game_start(game=game, by=gm, seed=1)
    gm_client, moderator = client_for(gm), client_for(make_user("Модератор", staff=True))
    for n in range(5):
        assert _reply(gm_client, game.game_thread, f"Объявление {n}").status_code == 302
        assert _reply(moderator, game.discussion_thread, f"Модерация {n}").status_code == 302
    # Outside his games a GM is a user like any other.
    lobby, _post = thread_create(kind=Thread.Kind.LOBBY, title="Лобби", author=gm, body="Привет")
    assert _reply(gm_client, lobby, "Раз").status_code == 400


def test_fifty_players_posting_once_before_a_deadline_pass(clock, db):
    """The rush before a deadline: every player posts his vote at the same moment. The limit is
    per user, so none of them is refused (the default limit, as configured)."""
    gm = make_user("Ведущий")
    game = game_create(title="Большая игра", gm=gm, size=20)
    players = [make_user(f"Игрок {i}") for i in range(20)]
    for user in players:
        game_signup(game=game, user=user)
    game_start(game=game, by=gm, seed=2)
    watchers = [make_user(f"Зритель {i}") for i in range(30)]
    for n, user in enumerate(players):
        target = players[(n + 1) % len(players)].display_name
        assert _reply(client_for(user), game.game_thread, f"[b]В тюрьму {target}[/b]").status_code == 302
    for user in watchers:
        assert _reply(client_for(user), game.discussion_thread, "Ну и день!").status_code == 302
    game.game_thread.refresh_from_db()
    game.discussion_thread.refresh_from_db()
    assert game.discussion_thread.post_count == 30
    assert Post.objects.filter(thread=game.game_thread, author__in=players).count() == 20


def test_services_post_without_the_limit(settings, clock, lobby):
    """Scenarios, benchmarks and the GM's tools post through post_create directly: unlimited."""
    settings.MAFIA_POST_RATE = 1
    author = make_user("Сценарий")
    for n in range(5):
        post_create(thread=lobby, author=author, body=f"Пост {n}")
    assert Post.objects.filter(author=author).count() == 5


def test_the_limit_can_be_switched_off(settings, clock, lobby):
    settings.MAFIA_POST_RATE = 0
    client = client_for(make_user("Болтун"))
    for n in range(15):
        assert _reply(client, lobby, f"Пост {n}").status_code == 302


def test_counting_costs_no_sql_query(settings, django_assert_num_queries, clock, lobby):
    settings.MAFIA_POST_RATE = 5
    author = make_user("Болтун")
    with django_assert_num_queries(0):
        for _ in range(5):
            post_rate_check(author=author, thread=lobby)


# --- Logging in (allauth) -------------------------------------------------------------------------
# tests/accounts/test_accounts.py already shows that repeated wrong passwords for one account lock
# it for a while with the translated message; these add the per-address part of the limit.
def test_guessing_many_accounts_from_one_address_is_stopped(db):
    victims = [make_user(f"Жертва {i}", email=f"victim{i}@example.com") for i in range(11)]
    attacker = Client(REMOTE_ADDR="203.0.113.7")
    for user in victims[:10]:
        response = attacker.post(reverse("account_login"), {"login": user.email, "password": "guess"})
        assert "Слишком много" not in response.content.decode()
    response = attacker.post(reverse("account_login"), {"login": victims[10].email, "password": PASSWORD})
    assert response.status_code == 200
    assert "Слишком много неудачных попыток входа" in response.content.decode()
    assert "_auth_user_id" not in attacker.session
    # Somebody else, from another address, still logs in.
    other = Client(REMOTE_ADDR="198.51.100.2")
    response = other.post(reverse("account_login"), {"login": victims[10].email, "password": PASSWORD})
    assert response.status_code == 302 and "_auth_user_id" in other.session


def test_behind_a_proxy_the_limit_is_per_client_not_per_proxy(settings, db):
    """With DJANGO_BEHIND_PROXY every request comes from the proxy's address; allauth reads the
    client's from X-Forwarded-For (ALLAUTH_TRUSTED_PROXY_COUNT), so one guesser does not lock
    everybody else out."""
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    victims = [make_user(f"Жертва {i}", email=f"victim{i}@example.com") for i in range(11)]
    attacker = Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.7")
    for user in victims[:10]:
        attacker.post(reverse("account_login"), {"login": user.email, "password": "guess"})
    response = attacker.post(reverse("account_login"), {"login": victims[10].email, "password": "guess"})
    assert "Слишком много неудачных попыток входа" in response.content.decode()
    player = Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.2")
    response = player.post(reverse("account_login"), {"login": victims[10].email, "password": PASSWORD})
    assert response.status_code == 302 and "_auth_user_id" in player.session

