"""[private="Name"] messages in the game thread: refused before posting when invalid, and their
text seen by the recipient, the sender and the GMs only — per perspective."""

import pytest
from django.urls import reverse

from games.models import Post, PrivateMessage, Seat
from games.services import ActionRefused
from games.services.posting import post_submit
from games.services.posts import post_edit
from tests.conftest import client_for, make_user
from tests.games.test_lifecycle import seat_named, user_named
from tests.games.test_private_posting import site_moderator

SECRET = "явка под мостом в полночь"


def write(game, name, body):
    return post_submit(thread=game.game_thread, author=user_named(game, name), body=body)


def test_private_message_is_seen_by_recipient_sender_and_gm_only(started):
    post = write(started, "Вася", f'Всем привет. [private="Кикимору"]{SECRET}[/private]')
    message = PrivateMessage.objects.get(post=post)
    assert message.recipient == seat_named(started, "Кикимора")
    url = started.game_thread.get_absolute_url()
    Seat.objects.filter(pk=seat_named(started, "Фроло").pk).update(status="killed", is_alive=False)
    for user in (user_named(started, "Кикимора"), user_named(started, "Вася"), started.gm):
        page = client_for(user).get(url).content.decode()
        assert SECRET in page and "Личное сообщение для Кикиморы" in page
    for user in (None, make_user("Зритель"), user_named(started, "Маленький Джон"), user_named(started, "Эсмеральда"),
                 user_named(started, "Фроло"), site_moderator()):
        page = client_for(user).get(url).content.decode()
        assert SECRET not in page, user
        assert "Личное сообщение для Кикиморы" in page  # the public sees that there is one, and to whom
    for endpoint in (reverse("games:post_quote", args=[started.game_thread.pk, post.number]),
                     reverse("games:post", args=[started.game_thread.pk, post.number])):
        assert SECRET not in client_for(None).get(endpoint, follow=True).content.decode()


def test_everyone_reads_private_messages_after_the_game(started):
    write(started, "Вася", f'[private="Кикимора"]{SECRET}[/private]')
    started.status = "finished"
    started.save()
    assert SECRET in client_for(None).get(started.game_thread.get_absolute_url()).content.decode()


@pytest.mark.parametrize("body,reason", [
    ('[private="Волан-де-Морт"]x[/private]', "private_unknown"),
    ('[private="Васе"]x[/private]', "private_self"),
    ('[private]x[/private]', "private_unknown"),
])
def test_invalid_private_message_refuses_the_whole_post(started, body, reason):
    before = Post.objects.count()
    with pytest.raises(ActionRefused) as refused:
        write(started, "Вася", body)
    assert refused.value.code == reason
    assert Post.objects.count() == before


def test_private_message_to_a_dead_player_is_refused_with_the_reason(started):
    Seat.objects.filter(pk=seat_named(started, "Фроло").pk).update(status="killed", is_alive=False)
    response = client_for(user_named(started, "Вася")).post(
        reverse("games:thread_reply", args=[started.game_thread.pk]), {"body": '[private="Фроло"]привет[/private]'})
    assert response.status_code == 400
    assert "Фроло уже не в игре" in response.content.decode()  # a name with no guessable gender: neutral


def test_neighbours_only_when_the_game_says_so(started):
    started.options = {"private_messages": "neighbours"}
    started.save()
    # Seats: 1 Вася, 2 Красная Шапочка, 3 Маленький Джон, ... 7 Негодяй (a ring).
    write(started, "Вася", '[private="Негодяя"]сосед слева[/private] [private="Красную Шапочку"]справа[/private]')
    with pytest.raises(ActionRefused) as refused:
        write(started, "Вася", '[private="Кикимору"]далеко[/private]')
    assert refused.value.code == "private_not_neighbour"


def test_private_messages_off_and_outside_game_threads(started, lobby_thread, spectator):
    started.options = {"private_messages": "off"}
    started.save()
    with pytest.raises(ActionRefused):
        write(started, "Вася", '[private="Кикимору"]x[/private]')
    with pytest.raises(ActionRefused):
        post_submit(thread=lobby_thread, author=spectator, body='[private="Вася"]x[/private]')


def test_quoted_private_tags_are_not_new_messages(started):
    write(started, "Вася", '[quote="Кто-то"][private="Кикимору"]старое[/private][/quote] Согласен')
    assert not PrivateMessage.objects.exists()


def test_posts_with_private_messages_cannot_be_edited(started):
    post = write(started, "Вася", '[private="Кикимору"]x[/private]')
    with pytest.raises(ActionRefused):
        post_edit(post=post, editor=user_named(started, "Вася"), body="[private=\"Фроло\"]y[/private]")


# --- The label, and the pages beside the thread: edit, history, reports ------------------------------
def english(client):
    from django.conf import settings

    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def test_private_label_names_the_recipient_in_the_genitive_in_russian(started):
    """«Личное сообщение для Красной Шапочки», not «для Красная Шапочка» (games.text.names inflects
    the name as for votes); English keeps the name as written."""
    write(started, "Вася", f'[private="Красную Шапочку"]{SECRET}[/private]')
    url = started.game_thread.get_absolute_url()
    page = client_for(None).get(url).content.decode()
    assert "Личное сообщение для Красной Шапочки" in page and "для Красная Шапочка" not in page
    assert "Private message to Красная Шапочка" in english(client_for(None)).get(url).content.decode()


def test_site_moderator_who_is_not_the_gm_reads_no_private_text_anywhere(started):
    """While the game runs a [private] text is its recipient's, its sender's and the GMs'. A site
    moderator moderates every thread but is not the game's GM: the thread, the edit page (refused:
    posts with private messages are edited by nobody), the edit history, the report page and the
    reports queue show him the label, never the text."""
    from django.urls import reverse

    from games.services.moderation import report_create

    post = write(started, "Вася", f'Всем привет. [private="Кикимору"]{SECRET}[/private]')
    report_create(post=post, reporter=user_named(started, "Маленький Джон"), reason="спам")
    moderator = client_for(site_moderator())
    edit_url = reverse("games:post_edit", args=[post.pk])
    for url in (edit_url, reverse("games:post_history", args=[post.pk]), reverse("games:post_report", args=[post.pk]),
                reverse("games:reports"), started.game_thread.get_absolute_url()):
        page = moderator.get(url, follow=True).content.decode()
        assert SECRET not in page, url
    for url in (reverse("games:post_history", args=[post.pk]), reverse("games:post_report", args=[post.pk]),
                reverse("games:reports")):
        assert "Личное сообщение для Кикиморы" in moderator.get(url).content.decode(), url
    # Nor does a save through the edit form change the post.
    response = moderator.post(edit_url, {"body": "подменил"})
    assert response.status_code == 302
    post.refresh_from_db()
    assert SECRET in post.body and post.edit_count == 0
    # The recipient reads the text on the report page as in the thread; the staff (GMs of every
    # game) in the queue.
    assert SECRET in client_for(user_named(started, "Кикимора")).get(
        reverse("games:post_report", args=[post.pk])).content.decode()
    assert SECRET in client_for(make_user("Админ", staff=True)).get(reverse("games:reports")).content.decode()
    # After the game the texts are everybody's.
    started.status = "finished"
    started.save()
    assert SECRET in moderator.get(reverse("games:post_history", args=[post.pk])).content.decode()


def test_edit_page_of_a_post_with_private_messages_is_refused_with_the_reason(started):
    """What was delivered stays as delivered: the author and the GM are refused the edit page too,
    with the reason, and the raw text is never put in a form."""
    from django.urls import reverse

    post = write(started, "Вася", f'[private="Кикимору"]{SECRET}[/private]')
    for user in (user_named(started, "Вася"), started.gm):
        response = english(client_for(user)).get(reverse("games:post_edit", args=[post.pk]), follow=True)
        page = response.content.decode()
        assert response.redirect_chain and response.redirect_chain[-1][0].startswith(started.game_thread.get_absolute_url())
        assert "Posts with private messages cannot be edited." in page
        assert "Edit post" not in page


def test_history_shows_old_sources_to_moderators_but_private_texts_only_to_those_who_may_read_them(started):
    """The edit history's BBCode boxes are the moderators'; a version holding [private] texts (an
    edit refused today, but kept from before the rule) only for the GMs while the game runs."""
    from django.urls import reverse
    from django.utils import timezone

    from games.models import PostRevision

    post = write(started, "Вася", "Обычный пост")
    PostRevision.objects.create(post=post, body="старая версия без секретов", replaced_at=timezone.now(),
                                replaced_by=user_named(started, "Вася"))
    PostRevision.objects.create(post=post, body=f'[private="Кикимора"]{SECRET}[/private]', replaced_at=timezone.now(),
                                replaced_by=user_named(started, "Вася"))
    url = reverse("games:post_history", args=[post.pk])
    moderator = client_for(site_moderator()).get(url).content.decode()
    assert moderator.count("bb-source") == 1 and SECRET not in moderator
    assert "Личное сообщение для Кикиморы" in moderator
    gm = client_for(started.gm).get(url).content.decode()
    assert gm.count("bb-source") == 2 and SECRET in gm
    for user in (None, user_named(started, "Маленький Джон")):  # the history is public, its sources are not
        page = client_for(user).get(url).content.decode()
        assert "старая версия без секретов" in page and SECRET not in page and "bb-source" not in page


def test_no_edit_link_is_offered_on_a_post_with_private_messages(started):
    """The thread offers Edit only where the edit page opens: the author's plain post has the link,
    his post with a [private] message has none (first render and from the cached post list)."""
    from django.urls import reverse

    plain = write(started, "Вася", "Просто пост.")
    private = write(started, "Вася", f'[private="Кикимору"]{SECRET}[/private]')
    client = english(client_for(user_named(started, "Вася")))
    for _ in range(2):  # rendered, then served from the cache
        page = client.get(started.game_thread.get_absolute_url()).content.decode()
        assert reverse("games:post_edit", args=[plain.pk]) in page
        assert reverse("games:post_edit", args=[private.pk]) not in page
