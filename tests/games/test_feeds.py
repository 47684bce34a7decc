"""The Atom feed of a thread: public threads for everybody, private ones exactly for their
readers (404 otherwise), deleted posts and [private] texts never in it."""

import xml.etree.ElementTree as ET
from datetime import datetime, timedelta

from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Post, Thread
from games.services.posting import post_submit
from games.services.posts import post_edit, post_set_deleted
from games.services.threads import thread_create
from tests.conftest import client_for, make_user
from tests.games.test_lifecycle import seat_named, user_named

ATOM = "{http://www.w3.org/2005/Atom}"


def feed_of(thread, user=None):
    return client_for(user).get(reverse("games:thread_feed", args=[thread.pk]))


def entries(response):
    root = ET.fromstring(response.content)
    return root, root.findall(f"{ATOM}entry")


def test_public_thread_feed_has_the_latest_posts(db):
    author, other = make_user("Аня"), make_user("Боря")
    thread, _first = thread_create(kind=Thread.Kind.GENERAL, title="Обо всём", author=author, body="Первый пост")
    now = timezone.now()
    for i in range(2, 56):
        post_submit(thread=thread, author=other if i % 2 else author, body=f"Пост номер [b]{i}[/b]",
                    now=now + timedelta(seconds=i))
    response = feed_of(thread)
    assert response.status_code == 200 and response["Content-Type"].startswith("application/atom+xml")
    root, items = entries(response)
    assert root.find(f"{ATOM}title").text == "Обо всём"
    assert len(items) == 50
    newest = items[0]
    assert newest.find(f"{ATOM}content").attrib["type"] == "html"
    assert newest.find(f"{ATOM}content").text == "Пост номер <strong>55</strong>"
    assert newest.find(f"{ATOM}author/{ATOM}name").text == "Боря"
    assert newest.find(f"{ATOM}link").attrib["href"].endswith(reverse("games:post", args=[thread.pk, 55]))
    bodies = " ".join(e.find(f"{ATOM}content").text for e in items)
    assert "Первый пост" not in bodies and "номер <strong>5</strong>" not in bodies  # older than the last 50


def test_feed_leaves_out_deleted_posts_and_shows_edits(db):
    author, moderator = make_user("Аня"), make_user("Модератор", staff=True)
    thread, _first = thread_create(kind=Thread.Kind.GENERAL, title="Тема", author=author, body="Оставить")
    hidden = post_submit(thread=thread, author=author, body="Спрятанный пост")
    post_set_deleted(post=hidden, moderator=moderator, deleted=True, reason="флуд")
    edited = post_submit(thread=thread, author=author, body="Черновик")
    later = edited.created_at + timedelta(minutes=2)
    edited = post_edit(post=edited, editor=author, body="Исправлено", now=later)
    _root, items = entries(feed_of(thread))
    text = " ".join(e.find(f"{ATOM}content").text for e in items)
    assert "Спрятанный пост" not in text and "Оставить" in text and "Исправлено" in text and "Черновик" not in text
    entry = next(e for e in items if e.find(f"{ATOM}content").text == "Исправлено")
    assert datetime.fromisoformat(entry.find(f"{ATOM}updated").text) == later
    assert datetime.fromisoformat(entry.find(f"{ATOM}published").text) == edited.created_at


def test_unknown_thread_is_404(db):
    assert Client().get(reverse("games:thread_feed", args=[987654])).status_code == 404


def test_team_chat_feed_is_the_teams_only(started):
    chat = Thread.objects.get(game=started, kind=Thread.Kind.FACTION)
    post_submit(thread=chat, author=user_named(started, "Кикимора"), body="Ночью стреляем в Васю")
    for name in ("Кикимора", "Эсмеральда"):
        response = feed_of(chat, user_named(started, name))
        assert response.status_code == 200 and "Ночью стреляем в Васю" in response.content.decode()
    assert "Ночью стреляем в Васю" in feed_of(chat, started.gm).content.decode()
    for user in (None, make_user("Зритель"), user_named(started, "Вася"), user_named(started, "Негодяй")):
        response = feed_of(chat, user)
        assert response.status_code == 404 and "Ночью стреляем" not in response.content.decode()


def test_gm_letters_feed_is_the_seat_and_the_gms_only(started):
    letters = Thread.objects.get(game=started, kind=Thread.Kind.GM_CHAT, seat=seat_named(started, "Вася"))
    post_submit(thread=letters, author=user_named(started, "Вася"), body="Проверяю Кикимору")
    assert "Проверяю Кикимору" in feed_of(letters, user_named(started, "Вася")).content.decode()
    assert feed_of(letters, started.gm).status_code == 200
    for user in (None, make_user("Зритель"), user_named(started, "Кикимора"), user_named(started, "Фроло")):
        assert feed_of(letters, user).status_code == 404


SECRET = "Тайный план на ночь"


def test_private_texts_never_reach_the_game_thread_feed(started):
    post = post_submit(thread=started.game_thread, author=user_named(started, "Вася"),
                       body=f'Добрый день. [private="Кикимора"]{SECRET}[/private]')
    assert SECRET not in Post.objects.get(pk=post.pk).html  # the stored HTML holds the placeholder only
    # Everybody reads the same public feed: outsiders, players, even the recipient and the GM.
    for user in (None, make_user("Зритель"), user_named(started, "Фроло"), user_named(started, "Кикимора"),
                 started.gm):
        response = feed_of(started.game_thread, user)
        assert response.status_code == 200
        body = response.content.decode()
        assert "Добрый день." in body and SECRET not in body


def test_thread_page_advertises_its_feed(db):
    author = make_user("Аня")
    thread, _first = thread_create(kind=Thread.Kind.GENERAL, title="Тема", author=author, body="Привет")
    page = Client().get(thread.get_absolute_url()).content.decode()
    feed = reverse("games:thread_feed", args=[thread.pk])
    assert f'<link rel="alternate" type="application/atom+xml"' in page and f'href="{feed}"' in page
