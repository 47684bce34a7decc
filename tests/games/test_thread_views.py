"""Thread pages: pagination by number, permalinks, first unread, ISO, quoting, preview, htmx."""

import pytest
from django.urls import reverse

from games.models import Thread
from games.services.posting import post_submit
from games.services.threads import thread_create
from tests.conftest import client_for


@pytest.fixture
def long_thread(spectator, town_player):
    thread, _ = thread_create(kind=Thread.Kind.GENERAL, title="Длинная тема", author=spectator, body="пост 1")
    for number in range(2, 61):
        author = town_player if number % 3 == 0 else spectator
        post_submit(thread=thread, author=author, body=f"пост {number}")
    return thread


def _numbers(response) -> list[int]:
    return [post.number for post in response.context["page"].posts]


def test_thread_page_shows_25_posts_per_page_when_thread_is_long(long_thread, anonymous_client):
    url = reverse("games:thread", args=[long_thread.pk])
    assert _numbers(anonymous_client.get(url)) == list(range(1, 26))
    assert _numbers(anonymous_client.get(url, {"page": 2})) == list(range(26, 51))
    last = anonymous_client.get(url, {"page": "last"})
    assert _numbers(last) == list(range(51, 61))
    assert last.context["page"].pages == 3


@pytest.mark.parametrize("page", ["0", "-3", "999", "abc", "1e9"])
def test_thread_page_clamps_when_page_is_out_of_range_or_garbage(long_thread, anonymous_client, page):
    response = anonymous_client.get(reverse("games:thread", args=[long_thread.pk]), {"page": page})
    assert response.status_code == 200
    assert response.context["page"].posts


def test_thread_page_links_every_page_with_gaps_when_many_pages(long_thread, anonymous_client, settings):
    settings.MAFIA_POSTS_PER_PAGE = 5
    response = anonymous_client.get(reverse("games:thread", args=[long_thread.pk]), {"page": 6})
    assert response.context["page"].page_range() == [1, None, 4, 5, 6, 7, 8, None, 12]


def test_permalink_redirects_to_page_and_anchor_when_post_exists(long_thread, anonymous_client):
    response = anonymous_client.get(reverse("games:post", args=[long_thread.pk, 37]))
    assert response.status_code == 302
    assert response["Location"].endswith("?page=2#p37")
    assert anonymous_client.get(reverse("games:post", args=[long_thread.pk, 999])).status_code == 404


def test_thread_page_has_anchor_per_post_number(long_thread, anonymous_client):
    content = anonymous_client.get(reverse("games:thread", args=[long_thread.pk])).content.decode()
    assert 'id="p1"' in content and 'id="p25"' in content and 'id="p26"' not in content


def test_first_unread_jumps_past_what_the_reader_has_seen(long_thread, town_player):
    client = client_for(town_player)
    url = reverse("games:thread_unread", args=[long_thread.pk])
    assert client.get(url)["Location"].endswith("?page=1#p1")
    client.get(reverse("games:thread", args=[long_thread.pk]))  # reads 1..25
    assert client.get(url)["Location"].endswith("?page=2#p26")
    client.get(reverse("games:thread", args=[long_thread.pk]), {"page": 1})  # going back never moves the mark back
    assert client.get(url)["Location"].endswith("?page=2#p26")


def test_iso_shows_only_chosen_authors_when_filtered(long_thread, town_player, anonymous_client):
    response = anonymous_client.get(reverse("games:thread", args=[long_thread.pk]), {"iso": town_player.pk})
    numbers = _numbers(response)
    assert numbers == [n for n in range(3, 61, 3)]
    assert town_player.display_name in response.content.decode()


def test_iso_accepts_several_authors_and_ignores_garbage(long_thread, town_player, spectator, anonymous_client):
    response = anonymous_client.get(
        reverse("games:thread", args=[long_thread.pk]), {"iso": [town_player.pk, spectator.pk, "x"]}
    )
    assert response.status_code == 200
    assert _numbers(response) == list(range(1, 26))


def test_quote_prefills_reply_when_quote_number_given(long_thread, town_player):
    response = client_for(town_player).get(reverse("games:thread", args=[long_thread.pk]), {"quote": 3})
    assert "[quote=&quot;Вася&quot;]пост 3[/quote]" in response.content.decode()


def test_quote_endpoint_returns_bbcode_when_post_exists(long_thread, anonymous_client):
    response = anonymous_client.get(reverse("games:post_quote", args=[long_thread.pk, 3]))
    assert response.content.decode().strip() == '[quote="Вася"]пост 3[/quote]'


def test_preview_renders_without_saving_when_preview_button_used(lobby_thread, spectator):
    response = client_for(spectator).post(
        reverse("games:thread_reply", args=[lobby_thread.pk]), {"body": "[b]черновик[/b]", "preview": "1"}
    )
    assert response.status_code == 200
    assert "<strong>черновик</strong>" in response.content.decode()
    assert lobby_thread.posts.count() == 1


def test_preview_endpoint_returns_fragment_when_htmx(lobby_thread, spectator):
    response = client_for(spectator).post(
        reverse("games:thread_preview", args=[lobby_thread.pk]), {"body": "[i]курсив[/i]"}, HTTP_HX_REQUEST="true"
    )
    content = response.content.decode()
    assert "<em>курсив</em>" in content
    assert "<html" not in content


def test_reply_with_htmx_returns_region_with_new_post_when_accepted(lobby_thread, spectator):
    response = client_for(spectator).post(
        reverse("games:thread_reply", args=[lobby_thread.pk]),
        {"body": "через htmx"},
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="thread-region",
    )
    content = response.content.decode()
    assert response.status_code == 200
    assert content.lstrip().startswith('<div id="thread-region">')
    assert "через htmx" in content and 'id="p2"' in content
    assert response["HX-Push-Url"].endswith("#p2")


def test_reply_with_htmx_keeps_text_and_shows_error_when_refused(lobby_thread, spectator):
    response = client_for(spectator).post(
        reverse("games:thread_reply", args=[lobby_thread.pk]), {"body": "   "},
        HTTP_HX_REQUEST="true", HTTP_HX_TARGET="thread-region",
    )
    assert response.status_code == 200
    assert 'role="alert"' in response.content.decode()
    assert lobby_thread.posts.count() == 1


def test_paging_with_htmx_returns_region_only(long_thread, anonymous_client):
    response = anonymous_client.get(
        reverse("games:thread", args=[long_thread.pk]), {"page": 2}, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="thread-region"
    )
    content = response.content.decode()
    assert "<html" not in content and 'id="p26"' in content


def test_paging_links_work_without_javascript(long_thread, anonymous_client):
    content = anonymous_client.get(reverse("games:thread", args=[long_thread.pk])).content.decode()
    assert f'href="/threads/{long_thread.pk}/?page=2"' in content


def test_unknown_thread_is_404(db, anonymous_client):
    assert anonymous_client.get(reverse("games:thread", args=[12345])).status_code == 404


def test_thread_new_creates_thread_with_first_post_when_logged_in(spectator):
    response = client_for(spectator).post(reverse("games:thread_new", args=["lobby"]), {"title": "  Новая   тема ", "body": "текст"})
    thread = Thread.objects.get(title="Новая тема")
    assert response["Location"] == thread.get_absolute_url()
    assert thread.post_count == 1


def test_thread_new_refuses_when_section_is_a_game_kind(spectator):
    response = client_for(spectator).post(reverse("games:thread_new", args=["game"]), {"title": "x", "body": "y"})
    assert response.status_code == 404


def test_thread_new_refuses_when_body_is_empty(spectator):
    response = client_for(spectator).post(reverse("games:thread_new", args=["lobby"]), {"title": "Тема", "body": ""})
    assert response.status_code == 400
    assert not Thread.objects.filter(title="Тема").exists()


def test_game_page_lists_seats_and_threads(running_game, anonymous_client):
    content = anonymous_client.get(running_game.get_absolute_url()).content.decode()
    assert "Вася" in content and running_game.game_thread.get_absolute_url() in content


def test_index_lists_games_and_sections(running_game, lobby_thread, anonymous_client):
    content = anonymous_client.get("/").content.decode()
    assert running_game.title in content and lobby_thread.title in content


def test_moderator_locks_unlocks_and_schedules_lock_from_thread_page(lobby_thread, moderator, django_capture_on_commit_callbacks, monkeypatch):
    from games import tasks

    monkeypatch.setattr(tasks.lock_thread_when_due, "apply_async", lambda **kw: None)
    client = client_for(moderator)
    url = reverse("games:thread_moderate", args=[lobby_thread.pk])
    client.post(url, {"action": "lock", "confirm": "yes"})
    lobby_thread.refresh_from_db()
    assert lobby_thread.is_locked
    client.post(url, {"action": "unlock"})
    lobby_thread.refresh_from_db()
    assert not lobby_thread.is_locked
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url, {"action": "schedule", "lock_at": "2099-01-02T20:00"})
    lobby_thread.refresh_from_db()
    # Entered in the moderator's time zone (Moscow by default, UTC+3).
    assert lobby_thread.lock_at.isoformat() == "2099-01-02T17:00:00+00:00"
    page = client.get(lobby_thread.get_absolute_url()).content.decode()
    assert "2099" in page


@pytest.mark.parametrize("payload", [{"action": "schedule", "lock_at": "завтра"}, {"action": "explode"},
                                     {"action": "schedule", "lock_at": "2001-01-01T00:00"}])
def test_moderation_refuses_bad_input_and_changes_nothing(lobby_thread, moderator, payload):
    response = client_for(moderator).post(reverse("games:thread_moderate", args=[lobby_thread.pk]), payload, follow=True)
    assert response.status_code == 200
    lobby_thread.refresh_from_db()
    assert lobby_thread.lock_at is None and not lobby_thread.is_locked
    assert any(m.level_tag == "error" for m in response.context["messages"])


def test_moderation_is_refused_when_user_is_not_moderator(lobby_thread, spectator):
    client_for(spectator).post(reverse("games:thread_moderate", args=[lobby_thread.pk]), {"action": "lock"})
    lobby_thread.refresh_from_db()
    assert not lobby_thread.is_locked
    page = client_for(spectator).get(lobby_thread.get_absolute_url()).content.decode()
    assert reverse("games:thread_moderate", args=[lobby_thread.pk]) not in page
