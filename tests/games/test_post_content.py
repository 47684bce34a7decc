"""A post must show something and fit one stated limit (games.services.posts.post_clean_body): in
every posting path (reply, new thread, edit, letters to the GM and other private threads)."""

import pytest
from django.urls import reverse

from games.forms import PostForm
from games.models import Post, Thread
from games.services import ActionRefused
from games.services.posts import post_create
from tests.conftest import client_for

EMPTY_LOOKING = ["[b][/b]", "[b] [/b]\n[i][/i]", "[quote][/quote]", '[quote="Вася"][/quote]', "[spoiler][/spoiler]",
                 "[url=https://example.com][/url]", "[list][*][/list]", "\u200b\u200b", "[color=red]\u3164[/color]"]


@pytest.mark.parametrize("body", EMPTY_LOOKING)
def test_post_create_refuses_when_post_shows_nothing(lobby_thread, spectator, body):
    with pytest.raises(ActionRefused) as refused:
        post_create(thread=lobby_thread, author=spectator, body=body)
    assert refused.value.code == "nothing_visible"


@pytest.mark.parametrize("body", ["[b]да[/b]", "[img]https://example.com/a.png[/img]", "[quote]цитата[/quote]", "."])
def test_post_create_accepts_when_post_shows_something(lobby_thread, spectator, body):
    assert post_create(thread=lobby_thread, author=spectator, body=body).pk


def test_reply_view_refuses_with_a_message_when_post_shows_nothing(lobby_thread, spectator):
    before = Post.objects.count()
    response = client_for(spectator).post(reverse("games:thread_reply", args=[lobby_thread.pk]), {"body": "[b][/b]"})
    assert Post.objects.count() == before
    assert "The post shows nothing" in response.content.decode() or "ничего не показывает" in response.content.decode()


def test_thread_new_view_refuses_when_first_post_shows_nothing(spectator):
    before = Thread.objects.count()
    client_for(spectator).post(reverse("games:thread_new", args=["lobby"]), {"title": "Пусто", "body": "[i] [/i]"})
    assert Thread.objects.count() == before


def test_post_edit_view_refuses_when_new_text_shows_nothing(lobby_thread, spectator):
    post = post_create(thread=lobby_thread, author=spectator, body="Было что сказать.")
    client_for(spectator).post(reverse("games:post_edit", args=[post.pk]), {"body": "[b][/b]"})
    post.refresh_from_db()
    assert post.body == "Было что сказать."


def test_letter_to_the_gm_is_refused_when_it_shows_nothing(started):
    seat = started.seats.filter(status="active").select_related("user").first()
    letters = started.private_threads.get(kind=Thread.Kind.GM_CHAT, seat=seat)
    before = letters.posts.count()
    client_for(seat.user).post(reverse("games:thread_reply", args=[letters.pk]), {"body": "[u][/u]"})
    assert letters.posts.count() == before


def test_post_form_maxlength_equals_the_server_limit_when_rendered(settings):
    settings.MAFIA_POST_MAX_LENGTH = 1234
    html = str(PostForm()["body"])
    assert 'maxlength="1234"' in html


def test_thread_page_states_the_post_limit_when_a_reply_form_is_shown(lobby_thread, spectator, settings):
    settings.MAFIA_POST_MAX_LENGTH = 4321
    page = client_for(spectator).get(lobby_thread.get_absolute_url()).content.decode()
    assert 'maxlength="4321"' in page and 'id="post-limit"' in page and "4321" in page.split('id="post-limit"')[1][:200]


def test_post_create_counts_a_line_break_as_one_character_when_the_form_sends_crlf(lobby_thread, spectator, settings):
    """The browser's maxlength counts a line break as one character but the form sends \\r\\n."""
    settings.MAFIA_POST_MAX_LENGTH = 100
    body = ("я" * 9 + "\r\n") * 10  # 100 characters as the browser counts them, 110 as sent
    assert post_create(thread=lobby_thread, author=spectator, body=body).pk


def test_post_create_names_the_limit_when_refusing_a_long_post(lobby_thread, spectator, settings):
    settings.MAFIA_POST_MAX_LENGTH = 100
    with pytest.raises(ActionRefused) as refused:
        post_create(thread=lobby_thread, author=spectator, body="я" * 150)
    assert "100" in str(refused.value.message) and "150" in str(refused.value.message)
