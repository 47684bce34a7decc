"""Order confirmations in the player's letters to the GM (issue 6: «A private GM thread for each
player (questions, order confirmations, private results)»): the text he got on screen, one line
per attempt, coalesced per phase into the GM account's last post; only his own inputs."""

import pytest
from datetime import timedelta

from django.urls import reverse

from games.models import Notification, Post, Thread
from games.services.orders import order_override, order_submit
from games.services.posting import post_submit
from tests.conftest import client_for, make_user
from tests.games.test_lifecycle import seat_named, user_named


def letters(game, name) -> Thread:
    return Thread.objects.get(game=game, kind=Thread.Kind.GM_CHAT, seat=seat_named(game, name))


def submit(game, name, text, minutes=1):
    return order_submit(game=game, user=user_named(game, name), text=text,
                        now=game.current_phase.opened_at + timedelta(minutes=minutes))


def test_order_confirmation_is_posted_in_the_gm_thread_when_accepted(started):
    _order, confirmation = submit(started, "Вася", "Проверяю Кикимору.")
    [post] = letters(started, "Вася").posts.all()
    assert post.author == started.gm
    assert post.body.startswith("[b]День 1: подтверждения[/b]\n") and confirmation.message in post.body
    assert confirmation.message == "Приказ принят: проверка — Кикимора"


def test_order_confirmation_is_posted_when_refused_with_the_reason(started):
    _order, confirmation = submit(started, "Маленький Джон", "Проверяю Кикимору")
    [post] = letters(started, "Маленький Джон").posts.all()
    assert not confirmation.accepted and confirmation.message in post.body and "Приказ не принят" in post.body


def test_order_confirmations_of_a_phase_are_coalesced_into_the_last_gm_post(started):
    """No flood: while the GM account's confirmation post of this phase is the thread's last post,
    each new attempt is a line added to it (an edit, its history kept)."""
    submit(started, "Вася", "Проверяю Кикимору.", minutes=1)
    submit(started, "Вася", "Проверяю Эсмеральду.", minutes=2)
    submit(started, "Вася", "Проверяю Вася.", minutes=3)
    [post] = letters(started, "Вася").posts.all()
    lines = post.body.splitlines()
    assert len(lines) == 4 and "Кикимора" in lines[1] and "Эсмеральда" in lines[2] and "не принят" in lines[3]
    assert post.edit_count == 2 and post.revisions.count() == 2


def test_order_confirmation_starts_a_new_post_when_the_player_wrote_after_it(started):
    submit(started, "Вася", "Проверяю Кикимору.", minutes=1)
    thread = letters(started, "Вася")
    post_submit(thread=thread, author=user_named(started, "Вася"), body="Ведущий, а можно сменить цель?",
                now=started.current_phase.opened_at + timedelta(minutes=2))
    submit(started, "Вася", "Проверяю Эсмеральду.", minutes=3)
    posts = list(thread.posts.order_by("number"))
    assert len(posts) == 3 and posts[2].author == started.gm and "Эсмеральда" in posts[2].body
    assert "Эсмеральда" not in posts[0].body


def test_order_confirmation_starts_a_new_post_after_many_lines(started):
    from games.communication.letters import CONFIRMATION_LINES

    for minute in range(CONFIRMATION_LINES + 1):
        submit(started, "Вася", "Проверяю Кикимору.", minutes=minute)
    posts = list(letters(started, "Вася").posts.order_by("number"))
    assert len(posts) == 2 and len(posts[0].body.splitlines()) == CONFIRMATION_LINES + 1
    assert len(posts[1].body.splitlines()) == 2


def test_gm_override_posts_no_confirmation_in_the_players_thread(started):
    order_override(game=started, gm=started.gm, seat=seat_named(started, "Вася"), action="check",
                   target=seat_named(started, "Кикимора"))
    assert not letters(started, "Вася").posts.exists()


def test_scenario_orders_post_no_confirmation(started):
    order_submit(game=started, user=user_named(started, "Вася"), text="Проверяю Кикимору.", confirm=False)
    assert not letters(started, "Вася").posts.exists()


def test_order_confirmation_from_the_role_page_matches_the_text_on_screen(started):
    client = client_for(user_named(started, "Красная Шапочка"))
    target = seat_named(started, "Маленький Джон")
    page = client.post(reverse("games:order", args=[started.pk]), {"action": "protect", "target": target.pk},
                       follow=True).content.decode()
    [post] = letters(started, "Красная Шапочка").posts.all()
    line = post.body.splitlines()[1].split(" — ", 1)[1]
    assert line == "Приказ принят: защита — Маленький Джон" and line in page


def test_order_confirmation_is_read_by_its_player_and_the_gm_only(started):
    submit(started, "Вася", "Проверяю Кикимору.")
    url = letters(started, "Вася").get_absolute_url()
    for user in (user_named(started, "Вася"), started.gm):
        assert "Приказ принят: проверка — Кикимора" in client_for(user).get(url).content.decode()
    for user in (None, make_user("Зритель"), user_named(started, "Кикимора"), user_named(started, "Маленький Джон")):
        assert client_for(user).get(url).status_code == 404
    assert not Post.objects.filter(thread=started.game_thread, body__contains="проверка — Кикимора").exists()
    # The player just saw it on screen: no bell for a confirmation.
    assert not Notification.objects.filter(kind=Notification.Kind.PRIVATE_MESSAGE).exists()


# --- Cards ----------------------------------------------------------------------------------------
@pytest.mark.django_db
def test_card_input_confirmation_is_posted_in_the_gm_thread():
    from tests.games.test_cards_services import cards_game, submit as card_submit

    game, gm, users, seats = cards_game()
    _order, played = card_submit(game, users["Вася"], "play", card="Пистолет", target=seats["Петя"].pk,
                                 **{"from": "hand"})
    _order, refused = card_submit(game, users["Вася"], "play", card="Запрет", target=seats["Петя"].pk,
                                  **{"from": "hand"})
    [post] = letters(game, "Вася").posts.all()
    assert post.author == gm and post.body.startswith("[b]Ночь 1: подтверждения[/b]")
    assert played.message in post.body and refused.message in post.body and not refused.accepted
    for name in ("Петя", "Маша"):
        assert not letters(game, name).posts.exists()


@pytest.mark.django_db
def test_card_measure_read_from_a_post_gets_no_confirmation_in_the_gm_thread():
    """The measure written in bold in a game-thread post is confirmed under that post, not in the
    letters to the GM."""
    from games.services.resolution import phase_close
    from tests.games.test_cards_services import cards_game

    game, gm, users, seats = cards_game()
    phase_close(phase_id=game.current_phase.pk)
    game.refresh_from_db()
    assert game.current_phase.kind == "day"
    before = letters(game, "Маша").posts.count()
    post_submit(thread=game.game_thread, author=users["Маша"], body="[b]казнь[/b]")
    assert game.current_phase.orders.filter(action="measure").exists()
    assert letters(game, "Маша").posts.count() == before
