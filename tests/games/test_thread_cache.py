"""The thread page cache (games/caching/pagecache.py, games/caching/middleware.py): a reload costs no query, and
every change, every viewer and every language gets its own, correct page.

Most tests first get a page *kept* (a reload answered by the middleware, before the session and
the view), then write, then check that the next view is rendered again and shows the change.
Each runs with the database sessions (the embedded default: a hit loads the session through the
engine) and with the cached ones (production: the session is read from the cache with the page)."""

import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.caching import pagecache
from games.models import Post, Thread
from games.services.posting import post_submit
from games.services.posts import post_edit, post_set_deleted
from tests.conftest import client_for, make_user
from tests.games.test_lifecycle import seat_named, user_named

SECRET = "явка под мостом в полночь"


@pytest.fixture(autouse=True, params=["db", "cached_db"])
def session_engine(request, settings):
    settings.SESSION_ENGINE = f"django.contrib.sessions.backends.{request.param}"
    return request.param


@pytest.fixture(autouse=True)
def _fresh_cache():
    # The vote count's own cache is keyed by phase id, which SQLite reuses from test to test.
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def other_game(db):
    """A second running game, with players of its own and Кикимора's friend «Соседка»."""
    from games.services.games import game_create
    from games.services.lifecycle import game_signup, game_start
    from tests.games.conftest import ROLES

    game = game_create(title="Соседняя", gm=make_user("Другой ведущий"), size=7)
    for name in ["Соседка", "Лесник", "Мельник", "Кузнец", "Пекарь", "Рыбак", "Пастух"]:
        game_signup(game=game, user=make_user(name))
    game_start(game=game, by=game.gm, seed=7, roles_in_seat_order=ROLES)
    game.refresh_from_db()
    return game


def _view(client, thread, **params) -> tuple[str, bool]:
    """The page's HTML, and whether the middleware answered it from the cache (then neither the
    session middleware nor the view ran: the request has no session)."""
    response = client.get(reverse("games:thread", args=[thread.pk]), params)
    assert response.status_code == 200
    return response.content.decode(), not hasattr(response.wsgi_request, "session")


def _page(client, thread, **params) -> str:
    return _view(client, thread, **params)[0]


def _keep(client, thread, **params) -> str:
    """View the page until a reload is answered from the cache (the first view sets the CSRF
    cookie, the next is rendered and kept); the kept page's HTML."""
    for _ in range(4):
        html, hit = _view(client, thread, **params)
        if hit:
            return html
    raise AssertionError("the page was never answered from the cache")


def _rendered(client, thread, **params) -> str:
    """The next view, which must be rendered afresh (not the kept page)."""
    html, hit = _view(client, thread, **params)
    assert not hit, "a kept page was served after a write that changes it"
    return html


def _post_li(html: str, number: int) -> str:
    match = re.search(rf'<li class="post[^"]*" id="p{number}".*?</li>', html, re.S)
    assert match, f"post #{number} is not on the page"
    return match.group(0)


def _vote_count(html: str) -> str:
    return re.search(r'<section class="card" id="vote-count".*?</section>', html, re.S).group(0)


def _bell(html: str) -> str:
    return re.search(r'<span class="bell-count"[^>]*>(.*?)</span>', html).group(1)


# --- Repeats ---------------------------------------------------------------------------------------
def test_reloading_the_same_page_runs_no_query_with_cached_sessions(started, thread, session_engine):
    client = client_for(user_named(started, "Вася"))
    kept = _keep(client, thread, page="last")
    with CaptureQueriesContext(connection) as captured:
        again, hit = _view(client, thread, page="last")
    assert hit and again == kept and "Пост 2" in again
    # With the cached sessions nothing at all; with the database ones the session's own query.
    assert len(captured.captured_queries) == (0 if session_engine == "cached_db" else 1)


def test_a_kept_page_costs_one_read_of_the_cache_with_cached_sessions(started, thread, session_engine,
                                                                      monkeypatch):
    if session_engine != "cached_db":
        pytest.skip("the database sessions are loaded through their engine")
    client = client_for(user_named(started, "Вася"))
    _keep(client, thread)
    calls = []

    class Counting:
        def __getattr__(self, name):
            calls.append(name)
            return getattr(real, name)

    real = pagecache.cache
    monkeypatch.setattr(pagecache, "cache", Counting())
    assert _view(client, thread)[1]
    assert calls == ["get_many"]  # the page, the session and the counters together


def test_a_kept_page_is_answered_with_the_headers_of_a_rendered_one(started, thread):
    client = client_for(user_named(started, "Вася"))
    client.get(reverse("games:thread", args=[thread.pk]))
    rendered = client.get(reverse("games:thread", args=[thread.pk]))
    _keep(client, thread)
    kept = client.get(reverse("games:thread", args=[thread.pk]))
    assert not hasattr(kept.wsgi_request, "session")
    for header in ("Content-Type", "Content-Language", "Vary", "X-Frame-Options", "X-Content-Type-Options",
                   "Referrer-Policy"):
        assert kept[header] == rendered[header]
    assert not kept.cookies  # nothing is set from the cache (no CSRF cookie renewal, no session)


def test_a_direct_write_to_the_database_renders_the_page_again(started, thread):
    client = client_for(user_named(started, "Вася"))
    _keep(client, thread)
    post = thread.posts.get(number=thread.post_count)
    # Not through a service: a write nobody placed invalidates every page (the SQL watcher).
    Post.objects.filter(pk=post.pk).update(html="<p>переписано напрямую</p>")
    assert "переписано напрямую" in _rendered(client, thread)


def test_the_page_is_not_kept_past_its_clock(started, thread, monkeypatch):
    client = client_for(user_named(started, "Вася"))
    _keep(client, thread)
    later = pagecache.time.time() + pagecache.PAGE_SECONDS + 1
    monkeypatch.setattr(pagecache.time, "time", lambda: later)
    _rendered(client, thread)


def test_the_page_is_not_kept_past_a_scheduled_lock(started, thread, monkeypatch):
    Thread.objects.filter(pk=thread.pk).update(lock_at=timezone.now() + timedelta(seconds=30))
    client = client_for(user_named(started, "Вася"))
    _keep(client, thread)
    later = pagecache.time.time() + 31
    monkeypatch.setattr(pagecache.time, "time", lambda: later)
    _rendered(client, thread)


# --- What a write changes ----------------------------------------------------------------------------
def test_new_post_shows_at_once(started, thread):
    client = client_for(user_named(started, "Кикимора"))
    _keep(client, thread, page="last")
    post_submit(thread=thread, author=user_named(started, "Вася"), body="Свежий пост")
    assert "Свежий пост" in _rendered(client, thread, page="last")


def test_a_vote_changes_the_live_count_on_the_page(started, thread, django_capture_on_commit_callbacks):
    from games.services.votes import vote_button_text

    client = client_for(user_named(started, "Кикимора"))
    wagons = r"wagon-target\">(.*?)<"
    assert "Фроло" not in re.findall(wagons, _vote_count(_keep(client, thread, page="last")))
    with django_capture_on_commit_callbacks(execute=True):  # the count's own version moves on commit
        post_submit(thread=thread, author=user_named(started, "Вася"), body=vote_button_text("Фроло", started.ruleset))
    assert "Фроло" in re.findall(wagons, _vote_count(_rendered(client, thread, page="last")))


def test_a_gm_vote_correction_changes_the_count_on_the_page(started, thread, django_capture_on_commit_callbacks):
    from games.services.votes import vote_button_text, vote_correct

    client = client_for(user_named(started, "Кикимора"))
    post = post_submit(thread=thread, author=user_named(started, "Вася"),
                       body=vote_button_text("Негодяй", started.ruleset))
    before = _vote_count(_keep(client, thread, page="last"))
    assert "Негодяй" in re.findall(r"wagon-target\">(.*?)<", before)
    with django_capture_on_commit_callbacks(execute=True):
        vote_correct(post=post, gm=started.gm, kind="vote", target=seat_named(started, "Маленький Джон"), note="опечатка")
    after = _vote_count(_rendered(client, thread, page="last"))
    assert re.findall(r"wagon-target\">(.*?)<", after) == ["Маленький Джон"]


def test_closing_the_phase_renders_the_page_again(started, thread):
    from games.services.resolution import phase_close

    client = client_for(user_named(started, "Кикимора"))
    before = _keep(client, thread, page="last")
    assert "день 1" in _vote_count(before) and 'data-insert="[b]В тюрьму Красную Шапочку[/b]"' in before
    assert phase_close(phase_id=started.current_phase_id, by=started.gm)
    after = _rendered(client, thread, page="last")
    # The count is the next day's, the results are posted, and the jailed player is no target.
    assert "день 2" in _vote_count(after) and "Итоги: день 1" in after
    assert 'data-insert="[b]В тюрьму Красную Шапочку[/b]"' not in after


def test_a_replacement_shows_on_the_posts_of_the_replaced_player(started, thread):
    from games.services.moderation import seat_replace

    client = client_for(user_named(started, "Кикимора"))
    assert "Новичок" not in _keep(client, thread, page="last")
    seat_replace(game=started, seat=seat_named(started, "Вася"), new_user=make_user("Новичок"), by=started.gm)
    html = _rendered(client, thread, page="last")
    assert 'data-insert="[b]В тюрьму Новичка[/b]"' in html  # the seat is his to vote for now
    post = post_submit(thread=thread, author=user_named(started, "Новичок"), body="Я за Васю")
    assert "badge replaced" in _post_li(_rendered(client, thread, page="last"), post.number)


def test_a_new_display_name_shows_on_posts_and_in_the_header(started, thread):
    vasya = user_named(started, "Вася")
    reader, own = client_for(user_named(started, "Кикимора")), client_for(vasya)
    for client in (reader, own):
        _keep(client, thread)
    vasya.display_name = "Василий Премудрый"
    vasya.save(update_fields=["display_name"])
    assert "Василий Премудрый" in _rendered(reader, thread)
    assert 'class="me">Василий Премудрый<' in _rendered(own, thread)


def test_a_new_avatar_shows_on_posts(started, thread):
    from accounts.models import User

    vasya = user_named(started, "Вася")
    client = client_for(user_named(started, "Кикимора"))
    assert "avatars/vasya.png" not in _keep(client, thread)
    User.objects.filter(pk=vasya.pk).update(avatar="avatars/vasya.png")
    assert "avatars/vasya.png" in _rendered(client, thread)


def test_a_site_ban_takes_the_reply_form_away_at_once(started, thread):
    from games.services.moderation import site_ban

    kiki = user_named(started, "Кикимора")
    client = client_for(kiki)
    assert 'name="body"' in _keep(client, thread)
    site_ban(user=kiki, by=make_user("Модератор", staff=True), until=timezone.now() + timedelta(days=3), reason="спам")
    assert 'name="body"' not in _rendered(client, thread)


def test_the_end_of_a_ban_brings_the_reply_form_back(started, thread, monkeypatch):
    from accounts.models import User

    kiki = user_named(started, "Кикимора")
    User.objects.filter(pk=kiki.pk).update(banned_until=timezone.now() + timedelta(seconds=30))
    client = client_for(kiki)
    assert 'name="body"' not in _keep(client, thread)
    later = pagecache.time.time() + 31
    monkeypatch.setattr(pagecache.time, "time", lambda: later)
    _rendered(client, thread)  # the ban's end is the page's clock


def test_a_game_ban_takes_the_reply_form_away_at_once(started, thread):
    from games.services.moderation import game_ban

    kiki = user_named(started, "Кикимора")
    client = client_for(kiki)
    assert 'name="body"' in _keep(client, thread)
    game_ban(game=started, user=kiki, by=started.gm, reason="оскорбления")
    assert 'name="body"' not in _rendered(client, thread)


def test_locking_the_thread_shows_at_once(started, thread):
    from games.services.threads import thread_set_locked

    client = client_for(user_named(started, "Кикимора"))
    assert 'class="badge">' not in _keep(client, thread)
    thread_set_locked(thread=thread, moderator=started.gm, locked=True)
    html = _rendered(client, thread)
    assert 'class="badge">' in html and 'name="body"' not in html


def test_edit_shows_at_once(started, thread):
    client = client_for(user_named(started, "Кикимора"))
    post = post_submit(thread=thread, author=user_named(started, "Вася"), body="Было так")
    assert "Было так" in _keep(client, thread)
    post_edit(post=post, editor=user_named(started, "Вася"), body="Стало иначе")
    html = _rendered(client, thread)
    assert "Стало иначе" in html and "Было так" not in html


def test_hiding_a_post_hides_its_text_from_players_and_keeps_it_for_the_gm(started, thread):
    player, gm = client_for(user_named(started, "Кикимора")), client_for(started.gm)
    post = post_submit(thread=thread, author=user_named(started, "Вася"), body="Лишнее слово")
    for client in (player, gm):
        assert "Лишнее слово" in _keep(client, thread)
    post_set_deleted(post=post, moderator=started.gm, deleted=True, reason="флуд")
    hidden = _post_li(_rendered(player, thread), post.number)
    assert "Лишнее слово" not in hidden and "deleted-note" in hidden
    for_gm = _post_li(_rendered(gm, thread), post.number)
    assert "Лишнее слово" in for_gm and 'value="restore"' in for_gm


def test_a_private_message_shows_its_text_to_the_recipient_alone(started, thread):
    """001: «приватные сообщения ... видят только получатель, отправитель и ведущий»."""
    recipient, other = client_for(user_named(started, "Кикимора")), client_for(user_named(started, "Негодяй"))
    for client in (recipient, other):
        _keep(client, thread, page="last")
    post = post_submit(thread=thread, author=user_named(started, "Вася"),
                       body=f'Всем привет. [private="Кикимору"]{SECRET}[/private]')
    assert SECRET in _post_li(_rendered(recipient, thread, page="last"), post.number)
    assert SECRET not in _post_li(_rendered(other, thread, page="last"), post.number)
    assert SECRET in _keep(recipient, thread, page="last")
    assert SECRET not in _keep(other, thread, page="last")


def test_a_notification_from_another_game_lights_the_bell_on_this_page(started, thread, other_game):
    """The bell is the viewer's own: a vote for Кикимора in another game changes her page here,
    and only hers."""
    from games.models import Seat
    from games.services.votes import vote_button_text

    kiki = user_named(started, "Кикимора")
    # She plays the other game too (in Соседка's seat).
    Seat.objects.filter(game=other_game, user=user_named(other_game, "Соседка")).update(user=kiki)
    kiki_client, other_client = client_for(kiki), client_for(user_named(started, "Негодяй"))
    before = int(_bell(_keep(kiki_client, thread)) or 0)
    _keep(other_client, thread)
    post_submit(thread=other_game.game_thread, author=user_named(other_game, "Лесник"),
                body=vote_button_text("Кикимора", other_game.ruleset))
    assert _bell(_rendered(kiki_client, thread)) == str(before + 1)
    assert _view(other_client, thread)[1]  # the other reader's page is still the kept one


def test_reading_the_notifications_clears_the_bell(started, thread):
    from games.services.notifications import notifications_mark_all_read, notify

    kiki = user_named(started, "Кикимора")
    notify(users=[kiki], kind="phase_opened", text="Началось", now=timezone.now())
    client = client_for(kiki)
    assert _bell(_keep(client, thread)) != ""
    notifications_mark_all_read(user=kiki)
    assert _bell(_rendered(client, thread)) == ""


def test_switching_the_language_renders_the_page_in_the_new_one(started, thread):
    client = client_for(user_named(started, "Кикимора"))
    russian = _keep(client, thread)
    assert 'lang="ru"' in russian and "Цитировать" in russian
    client.post(reverse("accounts:language"), {"language": "en", "next": "/"})
    english = _page(client, thread)
    assert 'lang="en"' in english and ">Quote<" in english and "Цитировать" not in english


# --- Scopes: what a write leaves cached ----------------------------------------------------------------
def test_a_post_in_one_game_leaves_another_games_pages_kept(started, thread, other_game):
    client = client_for(user_named(started, "Кикимора"))
    kept = _keep(client, thread)
    post_submit(thread=other_game.game_thread, author=user_named(other_game, "Лесник"), body="Где все?")
    html, hit = _view(client, thread)
    assert hit and html == kept


def test_a_post_in_the_game_thread_leaves_the_discussion_thread_kept(started, thread):
    discussion = started.discussion_thread
    client = client_for(user_named(started, "Кикимора"))
    _keep(client, discussion)
    post_submit(thread=thread, author=user_named(started, "Вася"), body="Только в игровой теме")
    assert _view(client, discussion)[1]
    assert "Только в игровой теме" in _rendered(client, thread)


def test_a_phase_of_another_game_leaves_this_games_pages_kept(started, thread, other_game):
    from games.services.resolution import phase_close

    client = client_for(user_named(started, "Кикимора"))
    _keep(client, thread)
    assert phase_close(phase_id=other_game.current_phase_id, by=other_game.gm)
    assert _view(client, thread)[1]


# --- Sessions: a kept page is only ever served to the session it was made for --------------------------
def _cookies(client) -> dict[str, str]:
    return {name: morsel.value for name, morsel in client.cookies.items()}


def _client_with(cookies: dict[str, str]):
    from django.test import Client

    client = Client()
    for name, value in cookies.items():
        client.cookies[name] = value
    return client


def test_after_logging_out_the_old_session_cookie_gets_no_kept_page(started, thread):
    client = client_for(user_named(started, "Кикимора"))
    _keep(client, thread)
    stolen = _cookies(client)
    client.post(reverse("account_logout"))
    html, hit = _view(_client_with(stolen), thread)
    assert not hit and 'class="me"' not in html and reverse("account_login") in html


def test_an_expired_session_gets_no_kept_page(started, thread):
    from importlib import import_module

    client = client_for(user_named(started, "Кикимора"))
    _keep(client, thread)
    # What expiry does to a session: the store no longer has it (the cache's TTL, clearsessions).
    import_module(settings.SESSION_ENGINE).SessionStore(client.cookies[settings.SESSION_COOKIE_NAME].value).delete()
    html = _rendered(client, thread)
    assert reverse("account_login") in html and 'class="me"' not in html


def test_a_password_change_elsewhere_ends_the_kept_page_of_this_session(started, thread):
    kiki = user_named(started, "Кикимора")
    client = client_for(kiki)
    _keep(client, thread)
    kiki.set_password("новый пароль 123")
    kiki.save()
    html = _rendered(client, thread)
    assert 'class="me"' not in html  # the session's hash no longer matches: logged out


def test_a_page_kept_for_one_session_is_never_served_to_another(started, thread):
    kiki, vasya = client_for(user_named(started, "Кикимора")), client_for(user_named(started, "Вася"))
    _keep(kiki, thread)
    # Another browser with the same CSRF cookie (as if copied): its own page, or none.
    csrf = {settings.CSRF_COOKIE_NAME: kiki.cookies[settings.CSRF_COOKIE_NAME].value}
    vasya.cookies[settings.CSRF_COOKIE_NAME] = csrf[settings.CSRF_COOKIE_NAME]
    html, hit = _view(vasya, thread)
    assert not hit and 'class="me">Вася<' in html
    html, hit = _view(_client_with(csrf), thread)
    assert not hit and 'class="me"' not in html


def test_a_message_waiting_in_a_cookie_is_shown(started, thread):
    from django.contrib.messages import constants
    from django.contrib.messages.storage.base import Message
    from django.contrib.messages.storage.cookie import CookieStorage
    from django.test import RequestFactory

    client = client_for(user_named(started, "Кикимора"))
    _keep(client, thread)
    client.cookies["messages"] = CookieStorage(RequestFactory().get("/"))._encode([
        Message(constants.SUCCESS, "Голос учтён")])
    assert "Голос учтён" in _rendered(client, thread)


def test_a_message_waiting_in_the_session_is_shown(started, thread, settings):
    # The site's storage keeps messages in a cookie first; with the session's storage they wait
    # in the session, which a kept page must then not hide.
    settings.MESSAGE_STORAGE = "django.contrib.messages.storage.session.SessionStorage"
    from django.contrib.messages import constants
    from django.contrib.messages.storage.base import Message
    from django.contrib.messages.storage.cookie import MessageEncoder

    client = client_for(user_named(started, "Кикимора"))
    _keep(client, thread)
    session = client.session
    session["_messages"] = MessageEncoder().encode([Message(constants.WARNING, "Голос не учтён")])
    session.save()
    assert "Голос не учтён" in _rendered(client, thread)


def test_an_htmx_request_gets_the_region_not_the_kept_page(started, thread):
    client = client_for(user_named(started, "Кикимора"))
    _keep(client, thread)
    response = client.get(reverse("games:thread", args=[thread.pk]), HTTP_HX_REQUEST="true",
                          HTTP_HX_TARGET="thread-region")
    region = response.content.decode()
    assert region.lstrip().startswith('<div id="thread-region">') and "<html" not in region
    assert "<html" in _view(client, thread)[0]


def test_a_host_not_allowed_is_refused_even_for_a_kept_page(started, thread):
    client = client_for(user_named(started, "Кикимора"))
    _keep(client, thread)
    response = client.get(reverse("games:thread", args=[thread.pk]), HTTP_HOST="evil.example")
    assert response.status_code == 400


# --- Viewers ---------------------------------------------------------------------------------------
def test_gm_player_and_anonymous_each_get_their_own_variant(started, thread):
    gm, player, anonymous = client_for(started.gm), client_for(user_named(started, "Кикимора")), client_for(None)
    for _ in range(3):  # the later rounds are served from the caches
        for_gm, for_player, for_anonymous = _page(gm, thread), _page(player, thread), _page(anonymous, thread)
        assert 'value="delete"' in for_gm and "mod-tools" in for_gm
        assert 'value="delete"' not in for_player and "mod-tools" not in for_player
        assert "quote-button" in for_player and 'name="body"' in for_player
        assert "quote-button" not in for_anonymous and "/report/" not in for_anonymous
        assert "/report/" in for_player
    assert _view(anonymous, thread)[1]  # the anonymous reader's page is kept too


def test_own_post_links_are_never_served_to_another_player(started, thread):
    vasya, kiki = user_named(started, "Вася"), user_named(started, "Кикимора")
    post = post_submit(thread=thread, author=vasya, body="Мой пост")
    own, other = client_for(vasya), client_for(kiki)
    edit_url, report_url = reverse("games:post_edit", args=[post.pk]), reverse("games:post_report", args=[post.pk])
    for _ in range(3):
        mine = _post_li(_page(own, thread), post.number)
        theirs = _post_li(_page(other, thread), post.number)
        assert edit_url in mine and report_url not in mine
        assert edit_url not in theirs and report_url in theirs


def test_edit_link_goes_when_the_window_closes(started, thread):
    vasya = user_named(started, "Вася")
    post = post_submit(thread=thread, author=vasya, body="Мой пост")
    client = client_for(vasya)
    edit_url = reverse("games:post_edit", args=[post.pk])
    assert edit_url in _page(client, thread)
    # The list is cached; the link is decided per request from the post's time.
    Post.objects.filter(pk=post.pk).update(created_at=timezone.now() - timedelta(hours=1))
    assert edit_url not in _page(client, thread)


def test_private_text_is_never_served_to_anyone_but_recipient_sender_and_gm(started, thread):
    """001: «приватные сообщения ... видят только получатель, отправитель и ведущий». The
    recipient views the page first, so that a post list holding the text is cached; every
    other viewer (a player of the same class, a spectator, the anonymous) comes after."""
    post = post_submit(thread=thread, author=user_named(started, "Вася"),
                       body=f'Всем привет. [private="Кикимору"]{SECRET}[/private]')
    recipient, sender, gm = (client_for(user_named(started, "Кикимора")), client_for(user_named(started, "Вася")),
                             client_for(started.gm))
    for client in (recipient, recipient, sender, gm):
        assert SECRET in _post_li(_page(client, thread, page="last"), post.number)
    others = [client_for(user_named(started, name)) for name in ("Негодяй", "Фроло", "Эсмеральда")]
    others += [client_for(make_user("Зритель")), client_for(None)]
    for client in others * 3:
        li = _post_li(_page(client, thread, page="last"), post.number)
        assert SECRET not in li
        assert "bb-private" in li  # the message and its recipient still show
    assert SECRET in _keep(recipient, thread, page="last")


# --- The SQL watcher -------------------------------------------------------------------------------
T, G, P = pagecache.thread_key(5), pagecache.game_key(3), pagecache.posts_key(5)
S = pagecache.SITE_KEY
GS = pagecache.GAMES_KEY


@pytest.mark.parametrize(("sql", "frames", "expected"), [
    ('SELECT "games_post"."id" FROM "games_post"', [], ()),
    ('SELECT "games_game"."id" FROM "games_game" WHERE "id" = %s FOR UPDATE', [{"game": 3}], ()),
    ('INSERT INTO "games_post" ("thread_id") VALUES (%s)', [], (S,)),
    ('INSERT INTO "games_post" ("thread_id") VALUES (%s)', [{"thread": 5}], (T,)),
    ('INSERT INTO "games_post" ("thread_id") VALUES (%s)', [{"game": 3}], (G,)),
    ('UPDATE "games_thread" SET "is_locked" = %s WHERE "games_thread"."id" = %s', [{"game": 3}, {"thread": 5}], (T, P)),
    # A new post's own writes leave the posts before it as they were: the thread's counter alone.
    ('UPDATE "games_thread" SET "post_count" = ("games_thread"."post_count" + %s), "last_post_at" = %s WHERE '
     '"games_thread"."id" = %s', [{"thread": 5}], (T,)),
    ('UPDATE "games_post" SET "body" = %s WHERE "games_post"."id" = %s', [{"thread": 5}], (T, P)),
    ('INSERT INTO "games_postrevision" ("post_id") VALUES (%s)', [{"thread": 5}], (T, P)),
    ('INSERT INTO "games_privatemessage" ("post_id") VALUES (%s)', [{"thread": 5}], (T, P)),
    # A write to the games' rows moves the games counter too, whatever its frame (the games list's counts).
    ('UPDATE "games_game" SET "current_phase_id" = %s WHERE "games_game"."id" = %s', [{"thread": 5}], (S, GS)),
    ('UPDATE "games_game" SET "current_phase_id" = %s WHERE "games_game"."id" = %s', [{"game": 3}, {"thread": 5}],
     (G, GS)),
    ('INSERT INTO "games_game" ("title") VALUES (%s)', [], (S, GS)),
    ('DELETE FROM "games_game" WHERE "games_game"."id" IN (%s)', [{"game": 3}], (G, GS)),
    # The vote ledger: its own counter (issue 30 part 3: the post list and the reply's region show no count).
    ('INSERT INTO "games_voterecord" ("phase_id") VALUES (%s)', [{"game": 3}], (pagecache.votes_key(3),)),
    ('INSERT INTO "games_voterecord" ("phase_id") VALUES (%s)', [{"thread": 5}], (S,)),
    ('INSERT INTO "games_voterecord" ("phase_id") VALUES (%s)', [], (S,)),
    ('DELETE FROM "games_privatemessage" WHERE "id" IN (%s)', [], (S,)),
    ('INSERT OR IGNORE INTO "games_notification" ("user_id") SELECT 1', [{"users": [7, 2]}],
     (pagecache.user_key(2), pagecache.user_key(7))),
    ('INSERT INTO "games_notification" ("user_id") SELECT 1', [{"game": 3}], (S,)),
    ('INSERT INTO "games_absence" ("user_id") VALUES (%s)', [{"game": 3}], (S,)),
    ('UPDATE "games_threadreadmark" SET "last_read_number" = %s WHERE x', [], (pagecache.MARKS_KEY,)),
    ('UPDATE "games_threadreadmark" SET "last_read_number" = %s WHERE x', [{"read_marks": 7}, {"thread": 5}],
     (pagecache.marks_key(7),)),
    ('DELETE FROM "django_session" WHERE "session_key" = %s', [], ()),
    ('UPDATE "accounts_user" SET "last_login" = %s WHERE "accounts_user"."id" = %s', [], ()),
    ('UPDATE "accounts_user" SET "last_login" = %s, "is_staff" = %s WHERE "accounts_user"."id" = %s', [], (S,)),
    ('UPDATE "accounts_user" SET "display_name" = %s WHERE "accounts_user"."id" = %s', [{"game": 3}], (S,)),
    ('  update "games_seat" set "is_alive" = false', [], (S,)),
    ('  update "games_seat" set "is_alive" = false', [{"game": 3}], (G,)),
    ('TRUNCATE "games_post"', [{"thread": 5}], (S, GS)),  # a statement it cannot place: every counter
])
def test_watcher_places_each_write(sql, frames, expected):
    from contextlib import ExitStack

    with ExitStack() as stack:
        for frame in frames:
            stack.enter_context(pagecache.writing(**frame))
        assert pagecache.placement(sql) == expected


def test_every_connection_is_watched(db):
    assert any(getattr(wrapper, "pagecache", False) for wrapper in connection.execute_wrappers)
    before = pagecache.generation(pagecache.SITE_KEY)
    Thread.objects.filter(pk=-1).update(title="x")
    assert pagecache.generation(pagecache.SITE_KEY) > before


def _commit_bumps():
    return next(w for w in connection.execute_wrappers if getattr(w, "pagecache", False)).commit_bumps


def test_a_transaction_bumps_each_counter_again_once_when_it_commits(started, thread):
    commit = _commit_bumps()
    with transaction.atomic():
        post_submit(thread=thread, author=user_named(started, "Вася"), body="Раз")
        post_submit(thread=thread, author=user_named(started, "Вася"), body="Два")
        assert [entry[1] for entry in connection.run_on_commit].count(commit) == 1
        assert pagecache.thread_key(thread.pk) in commit.keys


def test_a_post_bumps_its_thread_and_not_the_site(started, thread, other_game):
    keys = [pagecache.SITE_KEY, pagecache.thread_key(thread.pk), pagecache.game_key(started.pk),
            pagecache.thread_key(other_game.game_thread_id), pagecache.game_key(other_game.pk)]
    before = pagecache.generations(keys)
    post_submit(thread=thread, author=user_named(started, "Вася"), body="Просто слово")
    after = pagecache.generations(keys)
    changed = {key for key in keys if after[key] != before[key]}
    assert changed == {pagecache.thread_key(thread.pk)}
