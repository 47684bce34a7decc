"""A player's letters to the GM carry his private results (issue 6: «A private GM thread for each
player (questions, order confirmations, private results)»): one post by the GM account per close,
read by that player and the GMs only; a team's results go to its chat; a rollback is corrected."""

from datetime import timedelta

import pytest
from django.urls import reverse

from games.models import GameEvent, Notification, Post, Seat, Thread
from games.services.moderation import resolution_rollback
from games.services.orders import order_submit
from games.services.resolution import phase_close
from tests.conftest import client_for, make_user
from tests.games.test_lifecycle import seat_named, user_named

CHECK = "Проверка: Кикимора — мафиози."


def letters(game, name) -> Thread:
    return Thread.objects.get(game=game, kind=Thread.Kind.GM_CHAT, seat=seat_named(game, name))


def close(game):
    phase = game.current_phase
    phase_close(phase_id=phase.pk, now=phase.deadline_at)
    game.refresh_from_db()
    phase.refresh_from_db()
    return phase


def checked(game):
    """Вася, the recruiter, checks Кикимора; the day closes."""
    order_submit(game=game, user=user_named(game, "Вася"), text="Проверяю Кикимору.", confirm=False)
    return close(game)


def results_posts(thread):
    return [p for p in thread.posts.order_by("number") if "итоги" in p.body]


def test_private_results_post_reaches_the_gm_thread_when_the_phase_closes(started):
    phase = checked(started)
    [post] = results_posts(letters(started, "Вася"))
    assert post.author == started.gm and post.created_at == phase.closed_at
    assert post.body.startswith("[b]День 1: ваши итоги[/b]") and CHECK in post.body
    # The role page is as it was: the event is still there.
    role = client_for(user_named(started, "Вася")).get(reverse("games:role", args=[started.pk])).content.decode()
    assert CHECK in role
    assert GameEvent.objects.filter(audience=f"seat:{seat_named(started, 'Вася').pk}", kind="check_result").exists()


def test_private_results_post_is_one_per_seat_and_none_without_private_events(started):
    checked(started)
    assert len(results_posts(letters(started, "Вася"))) == 1
    for name in ("Маленький Джон", "Кикимора", "Фроло"):
        assert not letters(started, name).posts.exists()


def test_private_results_are_read_by_the_recipient_and_the_gm_only(started):
    checked(started)
    url = letters(started, "Вася").get_absolute_url()
    for user in (user_named(started, "Вася"), started.gm):
        assert CHECK in client_for(user).get(url).content.decode()
    Seat.objects.filter(pk=seat_named(started, "Фроло").pk).update(status="killed", is_alive=False)
    for user in (None, make_user("Зритель"), user_named(started, "Маленький Джон"), user_named(started, "Кикимора"),
                 user_named(started, "Фроло")):
        assert client_for(user).get(url).status_code == 404


def test_private_results_text_appears_nowhere_else_when_others_look(started):
    """The canary: the check's result is in Вася's letters only — not in the game thread, the
    discussion, their feeds, anyone else's search results or notifications."""
    checked(started)
    spectator = make_user("Зритель")
    viewers = [None, spectator, user_named(started, "Маленький Джон"), user_named(started, "Кикимора")]
    pages = [started.game_thread.get_absolute_url(), started.discussion_thread.get_absolute_url(),
             reverse("games:thread_feed", args=[started.game_thread_id]),
             reverse("games:thread_feed", args=[started.discussion_thread_id]),
             reverse("games:search") + "?q=Проверка+Кикимора", reverse("games:search") + "?q=мафиози",
             started.get_absolute_url()]
    for viewer in viewers:
        client = client_for(viewer)
        for url in pages:
            assert CHECK not in client.get(url).content.decode(), (viewer, url)
        if viewer is not None:
            assert CHECK not in client.get(reverse("games:notifications")).content.decode()
    # The recipient finds it in his own search (the control).
    found = client_for(user_named(started, "Вася")).get(reverse("games:search") + "?q=мафиози").content.decode()
    assert letters(started, "Вася").get_absolute_url() in found
    assert not Notification.objects.filter(text__contains="мафиози").exists()


def test_private_results_post_rings_the_bell_of_its_reader_without_the_result(started):
    checked(started)
    vasya = user_named(started, "Вася")
    [post] = results_posts(letters(started, "Вася"))
    [note] = Notification.objects.filter(kind=Notification.Kind.PRIVATE_MESSAGE)
    assert note.user == vasya and note.url == post.get_absolute_url()
    assert "Кикимора" not in note.text and "мафиози" not in note.text
    assert note.text in client_for(vasya).get(reverse("games:notifications")).content.decode()


def test_private_results_are_written_in_the_site_language_when_the_reader_reads_english(started):
    vasya = user_named(started, "Вася")
    vasya.language = "en"
    vasya.save(update_fields=["language"])
    checked(started)
    [post] = results_posts(letters(started, "Вася"))
    assert CHECK in post.body


def test_private_results_of_a_rolled_back_phase_are_corrected_in_the_same_thread(started):
    """The post stays (it was read, and the archive keeps what happened); a correction follows it
    in every thread the close wrote in, and the next close sends the results again."""
    day = checked(started)
    thread = letters(started, "Вася")
    resolution_rollback(game=started, by=started.gm, reason="ошибка")
    posts = list(thread.posts.order_by("number"))
    assert CHECK in posts[-2].body and "откатил" in posts[-1].body and "День 1" in posts[-1].body
    assert posts[-1].author == started.gm
    for name in ("Маленький Джон", "Кикимора"):
        assert not letters(started, name).posts.exists()  # nothing was written there at that close
    phase_close(phase_id=day.pk, now=day.opened_at + timedelta(days=2))
    assert len(results_posts(thread)) == 2 and CHECK in thread.posts.order_by("-number").first().body


# --- Team results ------------------------------------------------------------------------------
def _deck_building_close(options=None):
    from tests.games.test_cards_services import cards_game

    game, gm, users, seats = cards_game(hands=False, options=options)
    assert game.current_phase.kind == "deckbuilding"
    close(game)
    return game, gm, users, seats


@pytest.mark.django_db
def test_team_results_go_to_the_team_chat_when_the_game_has_one():
    """«После получения ролей члены Мафии узнают личности друг друга»; «в начале первой ночи каждый
    видит колоды и Руки остальных» (issue 9): the mafia's `mafia_decks` event at the end of deck
    building is the team's, so it goes to the team chat."""
    game, gm, users, seats = _deck_building_close(options={"team_chat": True})
    chat = Thread.objects.get(game=game, kind=Thread.Kind.FACTION, faction="mafia")
    mafia_text = GameEvent.objects.get(game=game, kind="mafia_decks").text
    [post] = chat.posts.all()
    assert post.author == gm and post.body.startswith("[b]Сборка колоды: итоги команды[/b]") and mafia_text in post.body
    for name in ("Петя", "Паша"):  # the boss and the killer: their own results only in their letters
        assert not any(mafia_text in p.body for p in letters(game, name).posts.all())
    told = set(Notification.objects.filter(url=post.get_absolute_url()).values_list("user__display_name", flat=True))
    assert told == {"Петя", "Паша"}
    for name in ("Вася", "Маша", "Глаша"):
        assert client_for(users[name]).get(chat.get_absolute_url()).status_code == 404


@pytest.mark.django_db
def test_team_results_go_to_each_members_letters_without_a_team_chat():
    game, gm, users, seats = _deck_building_close()
    assert not Thread.objects.filter(game=game, kind=Thread.Kind.FACTION).exists()
    mafia_text = GameEvent.objects.get(game=game, kind="mafia_decks").text
    for name in ("Петя", "Паша"):
        assert any(mafia_text in p.body for p in letters(game, name).posts.all())
    for name in ("Вася", "Маша", "Глаша"):
        assert not any(mafia_text in p.body for p in letters(game, name).posts.all())
        assert letters(game, name).posts.exists()  # their own Hands


def test_private_results_keep_a_players_words_from_becoming_markup(started):
    from games.communication.letters import private_results_post
    from games.engine.events import Event

    phase = started.current_phase
    seat = seat_named(started, "Вася")
    [post] = private_results_post(game=started, phase=phase, now=phase.opened_at, events=[
        Event("manual", f"seat:{seat.pk}", {"text": '[url=https://x.example]жми[/url] [private="Кикимора"]т[/private]'})])
    assert "<a " not in post.html and "bb-private" not in post.html and "жми" in post.html
    assert not Post.objects.filter(thread=started.game_thread, body__contains="жми").exists()
