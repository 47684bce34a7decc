"""Posting, numbering, limits, permissions, edits and soft deletion (services and views)."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Post, PostRevision
from games.services import ActionRefused
from games.services.posts import post_create, post_edit, post_set_deleted, posts_refresh_html
from games.text import bbcode
from tests.conftest import client_for


def test_post_create_numbers_posts_in_order_when_several_are_written(lobby_thread, spectator):
    second = post_create(thread=lobby_thread, author=spectator, body="два")
    third = post_create(thread=lobby_thread, author=spectator, body="три")
    assert (second.number, third.number) == (2, 3)
    lobby_thread.refresh_from_db()
    assert lobby_thread.post_count == 3
    assert lobby_thread.last_post_at == third.created_at


def test_post_create_stores_sanitised_html_when_body_has_markup(lobby_thread, spectator):
    post = post_create(thread=lobby_thread, author=spectator, body="[b]жирно[/b] <script>alert(1)</script>")
    assert "<strong>жирно</strong>" in post.html
    assert "<script>" not in post.html
    assert post.renderer_version == bbcode.RENDERER_VERSION


@pytest.mark.parametrize("body", ["", "   ", "\n\n\t"])
def test_post_create_refuses_when_body_is_empty(lobby_thread, spectator, body):
    with pytest.raises(ActionRefused) as refused:
        post_create(thread=lobby_thread, author=spectator, body=body)
    assert refused.value.code == "empty"
    assert Post.objects.filter(thread=lobby_thread).count() == 1


def test_post_create_refuses_when_body_is_over_the_limit(lobby_thread, spectator, settings):
    settings.MAFIA_POST_MAX_LENGTH = 100
    with pytest.raises(ActionRefused) as refused:
        post_create(thread=lobby_thread, author=spectator, body="я" * 101)
    assert refused.value.code == "too_long"
    post_create(thread=lobby_thread, author=spectator, body="я" * 100)


def test_post_create_refuses_when_thread_is_locked(lobby_thread, spectator):
    lobby_thread.is_locked = True
    lobby_thread.save()
    with pytest.raises(ActionRefused):
        post_create(thread=lobby_thread, author=spectator, body="поздно")


def test_post_create_refuses_when_lock_time_passed_before_the_sweep_ran(lobby_thread, spectator):
    lobby_thread.lock_at = timezone.now() - timedelta(seconds=1)
    lobby_thread.save()
    with pytest.raises(ActionRefused):
        post_create(thread=lobby_thread, author=spectator, body="поздно")


def test_post_create_allows_only_players_and_gm_when_game_is_running(running_game, town_player, dead_player, gm, spectator):
    thread = running_game.game_thread
    post_create(thread=thread, author=town_player, body="я играю")
    post_create(thread=thread, author=gm, body="итоги")
    # Forum rules: talking in the game thread is open to all players, jailed and killed too.
    post_create(thread=thread, author=dead_player, body="я убит, но пишу")
    with pytest.raises(ActionRefused):
        post_create(thread=thread, author=spectator, body="подсказка")
    post_create(thread=running_game.discussion_thread, author=spectator, body="в обсуждении можно")


def test_post_create_strips_nul_characters_when_present(lobby_thread, spectator):
    post = post_create(thread=lobby_thread, author=spectator, body="a\x00b")
    assert post.body == "ab"


# --- Views: permissions and CSRF ------------------------------------------------------------------
def test_reply_view_redirects_to_login_when_anonymous(lobby_thread, anonymous_client):
    response = anonymous_client.post(reverse("games:thread_reply", args=[lobby_thread.pk]), {"body": "аноним"})
    assert response.status_code == 302
    assert reverse("account_login") in response["Location"]
    assert lobby_thread.posts.count() == 1


def test_reply_view_refuses_when_csrf_token_missing(lobby_thread, spectator):
    client = Client(enforce_csrf_checks=True)
    client.force_login(spectator)
    response = client.post(reverse("games:thread_reply", args=[lobby_thread.pk]), {"body": "без токена"})
    assert response.status_code == 403
    assert lobby_thread.posts.count() == 1


def test_reply_view_accepts_when_csrf_token_present(lobby_thread, spectator):
    client = Client(enforce_csrf_checks=True)
    client.force_login(spectator)
    page = client.get(reverse("games:thread", args=[lobby_thread.pk]))
    token = page.cookies["csrftoken"].value
    response = client.post(reverse("games:thread_reply", args=[lobby_thread.pk]), {"body": "с токеном", "csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert response["Location"].endswith("#p2")


def test_reply_view_shows_translated_error_and_keeps_text_when_post_too_long(lobby_thread, spectator, settings):
    settings.MAFIA_POST_MAX_LENGTH = 10
    response = client_for(spectator).post(reverse("games:thread_reply", args=[lobby_thread.pk]), {"body": "очень длинный текст"})
    assert response.status_code == 400
    content = response.content.decode()
    assert "Сообщение слишком длинное" in content
    assert "очень длинный текст" in content
    assert lobby_thread.posts.count() == 1


def test_reply_view_refuses_spectator_when_game_thread_of_running_game(running_game, spectator):
    response = client_for(spectator).post(reverse("games:thread_reply", args=[running_game.game_thread.pk]), {"body": "x"})
    assert response.status_code == 400
    assert running_game.game_thread.posts.count() == 0


def test_reply_view_never_crashes_when_tags_are_malformed(lobby_thread, spectator):
    body = "[b][i]x[/b][/i] [quote=\"a]] [url=javascript:alert(1)]y[/url] [list][*][/quote]" + "[b]" * 500
    response = client_for(spectator).post(reverse("games:thread_reply", args=[lobby_thread.pk]), {"body": body})
    assert response.status_code == 302
    post = lobby_thread.posts.get(number=2)
    assert "javascript:" not in post.html.replace("[url=javascript:alert(1)]", "")


# --- Editing --------------------------------------------------------------------------------------
def test_post_edit_keeps_history_when_author_edits_within_window(lobby_thread, spectator):
    post = lobby_thread.posts.get(number=1)
    post_edit(post=post, editor=spectator, body="исправлено", now=post.created_at + timedelta(minutes=5))
    post.refresh_from_db()
    assert post.body == "исправлено"
    assert post.edit_count == 1
    assert list(PostRevision.objects.filter(post=post).values_list("body", flat=True)) == ["Первый пост"]


def test_post_edit_refuses_when_window_has_passed(lobby_thread, spectator, settings):
    settings.MAFIA_POST_EDIT_WINDOW_SECONDS = 600
    post = lobby_thread.posts.get(number=1)
    with pytest.raises(ActionRefused):
        post_edit(post=post, editor=spectator, body="поздно", now=post.created_at + timedelta(minutes=11))
    post.refresh_from_db()
    assert post.body == "Первый пост"
    assert not PostRevision.objects.exists()


def test_post_edit_refuses_when_editor_is_not_author(lobby_thread, town_player):
    post = lobby_thread.posts.get(number=1)
    with pytest.raises(ActionRefused):
        post_edit(post=post, editor=town_player, body="чужое")


def test_post_edit_allows_moderator_when_window_has_passed(lobby_thread, moderator):
    post = lobby_thread.posts.get(number=1)
    post_edit(post=post, editor=moderator, body="модератор", now=post.created_at + timedelta(days=2))
    assert PostRevision.objects.get(post=post).replaced_by == moderator


def test_post_edit_does_nothing_when_text_is_unchanged(lobby_thread, spectator):
    post = lobby_thread.posts.get(number=1)
    post_edit(post=post, editor=spectator, body="Первый пост")
    post.refresh_from_db()
    assert post.edit_count == 0


def test_edit_view_shows_edited_marker_and_history_when_post_was_edited(lobby_thread, spectator, anonymous_client):
    post = lobby_thread.posts.get(number=1)
    response = client_for(spectator).post(reverse("games:post_edit", args=[post.pk]), {"body": "новый текст"})
    assert response.status_code == 302
    page = anonymous_client.get(reverse("games:thread", args=[lobby_thread.pk])).content.decode()
    assert "новый текст" in page
    assert reverse("games:post_history", args=[post.pk]) in page
    history = anonymous_client.get(reverse("games:post_history", args=[post.pk])).content.decode()
    assert "Первый пост" in history and "новый текст" in history


def test_edit_view_refuses_when_window_has_passed(lobby_thread, spectator):
    post = lobby_thread.posts.get(number=1)
    Post.objects.filter(pk=post.pk).update(created_at=timezone.now() - timedelta(hours=1))
    response = client_for(spectator).post(reverse("games:post_edit", args=[post.pk]), {"body": "поздно"})
    assert response.status_code == 302
    post.refresh_from_db()
    assert post.body == "Первый пост"


# --- Deleting -------------------------------------------------------------------------------------
def test_post_delete_is_soft_and_hides_text_when_moderator_deletes(lobby_thread, moderator, spectator, anonymous_client):
    post = post_create(thread=lobby_thread, author=spectator, body="секретное оскорбление")
    post_set_deleted(post=post, moderator=moderator, deleted=True)
    assert Post.objects.filter(pk=post.pk).exists()
    page = anonymous_client.get(reverse("games:thread", args=[lobby_thread.pk])).content.decode()
    assert "секретное оскорбление" not in page
    assert 'id="p2"' in page
    assert "секретное оскорбление" in client_for(moderator).get(reverse("games:thread", args=[lobby_thread.pk])).content.decode()
    assert anonymous_client.get(reverse("games:post_history", args=[post.pk])).status_code == 404


def test_post_delete_refuses_when_user_is_not_moderator(lobby_thread, spectator):
    post = lobby_thread.posts.get(number=1)
    response = client_for(spectator).post(reverse("games:post_delete", args=[post.pk]), {"action": "delete"})
    assert response.status_code == 302
    post.refresh_from_db()
    assert not post.is_deleted


def test_post_delete_allows_gm_when_post_is_in_his_game(running_game, gm, town_player):
    post = post_create(thread=running_game.game_thread, author=town_player, body="флуд")
    client_for(gm).post(reverse("games:post_delete", args=[post.pk]), {"action": "delete", "confirm": "yes"})
    post.refresh_from_db()
    assert post.is_deleted and post.deleted_by == gm
    client_for(gm).post(reverse("games:post_delete", args=[post.pk]), {"action": "restore"})
    post.refresh_from_db()
    assert not post.is_deleted


def test_gm_cannot_moderate_when_thread_belongs_to_another_game(running_game, lobby_thread, gm):
    post = lobby_thread.posts.get(number=1)
    with pytest.raises(ActionRefused):
        post_set_deleted(post=post, moderator=gm, deleted=True)


# --- Re-rendering -------------------------------------------------------------------------------
def test_posts_refresh_html_rerenders_when_renderer_version_changed(lobby_thread, anonymous_client):
    post = lobby_thread.posts.get(number=1)
    Post.objects.filter(pk=post.pk).update(html="<p>stale</p>", renderer_version=bbcode.RENDERER_VERSION - 1)
    page = anonymous_client.get(reverse("games:thread", args=[lobby_thread.pk])).content.decode()
    assert "stale" not in page
    post.refresh_from_db()
    assert post.renderer_version == bbcode.RENDERER_VERSION
    assert posts_refresh_html(posts=[post]) == 0


def test_rerender_command_refreshes_all_stale_posts(lobby_thread):
    from django.core.management import call_command

    Post.objects.update(html="stale", renderer_version=0)
    call_command("rerender_posts")
    assert not Post.objects.filter(renderer_version=0).exists()


def test_edit_history_never_shows_private_text_to_the_public(lobby_thread, spectator, moderator, anonymous_client):
    from django.utils import timezone

    post = post_create(thread=lobby_thread, author=spectator, body="Привет всем")
    # An old version holding a private text (as a GM's own edit could leave behind).
    PostRevision.objects.create(post=post, body='Привет [private="Вася"]секретная явка[/private]',
                                replaced_at=timezone.now(), replaced_by=spectator)
    Post.objects.filter(pk=post.pk).update(edit_count=1)
    url = reverse("games:post_history", args=[post.pk])
    assert "секретная явка" not in anonymous_client.get(url).content.decode()
    assert "секретная явка" in client_for(moderator).get(url).content.decode()


def test_quoting_never_copies_private_text(started, anonymous_client):
    from tests.games.test_lifecycle import user_named

    post = post_create(thread=started.game_thread, author=user_named(started, "Вася"),
                       body='Явка [private="Кикимора"]под мостом[/private]')
    quoted = anonymous_client.get(reverse("games:post_quote", args=[started.game_thread.pk, post.number])).content.decode()
    assert "под мостом" not in quoted
    page = anonymous_client.get(started.game_thread.get_absolute_url()).content.decode()
    assert "под мостом" not in page
