"""Each post's <li> kept alone (games/caching/pagecache.py, "Layer 0"): a page whose post list is out of
date is rebuilt from the posts' own fragments, rendering only the posts that changed; and every
change a post's HTML shows (an edit, a hidden post, a private text, a rename, an avatar, the
language, the time zone, the viewer's class) reaches the page: a stale fragment is a defect.

Each test views the page, changes one thing, and views it again after marking the thread written
(what every post does: the post list of the page is then out of date, the fragments are not)."""

import re

import pytest
from django.core.cache import cache
from django.urls import reverse

from games.caching import pagecache
from games.models import Post
from games.services.posting import post_submit
from games.services.posts import post_edit, post_set_deleted
from tests.conftest import client_for, make_user
from tests.games.test_lifecycle import seat_named, user_named

SECRET = "явка под мостом в полночь"


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()


@pytest.fixture
def rendered_posts(monkeypatch):
    """The posts each fresh post list rendered through the template (a list per list built)."""
    calls: list[list[int]] = []
    real = pagecache.fragment_pieces

    def spy(posts, context, render, **options):
        def counting(ctx):
            calls[-1].extend(post.number for post in ctx["posts"])
            return render(ctx)

        calls.append([])
        return real(posts, context, counting, **options)

    monkeypatch.setattr(pagecache, "fragment_pieces", spy)
    return calls


def _page(client, thread, **params) -> str:
    """The page rendered afresh: the thread marked written first, as after any post."""
    pagecache.changed(thread=thread.pk)
    response = client.get(reverse("games:thread", args=[thread.pk]), params)
    assert response.status_code == 200
    return response.content.decode()


def _posts(html: str) -> str:
    return re.search(r'<ol class="posts">(.*?)</ol>', html, re.S).group(1)


def _post_li(html: str, number: int) -> str:
    match = re.search(rf'<li class="post[^"]*" id="p{number}".*?</li>', html, re.S)
    assert match, f"post #{number} is not on the page"
    return match.group(0)


# --- Reuse -------------------------------------------------------------------------------------------
def test_a_write_renders_only_the_posts_it_changed(started, thread, rendered_posts):
    client = client_for(user_named(started, "Кикимора"))
    _page(client, thread)
    assert rendered_posts[-1] == [1, 2, 3, 4]  # the day's opening post and the three
    _page(client, thread)
    assert rendered_posts[-1] == []  # nothing changed: every post from its fragment
    post = post_submit(thread=thread, author=user_named(started, "Вася"), body="Новый пост")
    _page(client, thread)
    assert rendered_posts[-1] == [post.number]


def test_the_list_from_fragments_is_the_list_rendered_whole(started, thread):
    client = client_for(user_named(started, "Кикимора"))
    first = _posts(_page(client, thread))
    from_fragments = _posts(_page(client, thread))
    cache.clear()
    whole = _posts(_page(client, thread))
    assert from_fragments == first == whole
    assert "<!--pc-post-->" not in whole


def test_viewer_classes_share_fragments_but_never_their_own_bits(started, thread, rendered_posts):
    """Two players share the fragments; the Report and Edit links are still each one's own."""
    vasya, kiki = user_named(started, "Вася"), user_named(started, "Кикимора")
    post = Post.objects.get(thread=thread, author=vasya)
    edit_url, report_url = reverse("games:post_edit", args=[post.pk]), reverse("games:post_report", args=[post.pk])
    theirs = _post_li(_page(client_for(kiki), thread), post.number)
    mine = _post_li(_page(client_for(vasya), thread), post.number)
    assert rendered_posts[-1] == []  # Вася's view came from Кикимора's fragments
    assert edit_url in mine and report_url not in mine
    assert edit_url not in theirs and report_url in theirs


# --- Every change shows ------------------------------------------------------------------------------
def test_an_edit_shows_with_its_mark(started, thread, rendered_posts):
    vasya = user_named(started, "Вася")
    client = client_for(user_named(started, "Кикимора"))
    post = post_submit(thread=thread, author=vasya, body="Было так")
    assert "Было так" in _post_li(_page(client, thread), post.number)
    post_edit(post=post, editor=vasya, body="Стало иначе")
    li = _post_li(_page(client, thread), post.number)
    assert "Стало иначе" in li and "Было так" not in li and 'class="edited"' in li
    assert rendered_posts[-1] == [post.number]


def test_html_changed_behind_the_services_back_shows(started, thread):
    """The key holds the post's HTML itself (a digest), not only its edit count."""
    client = client_for(user_named(started, "Кикимора"))
    post = Post.objects.get(thread=thread, number=2)
    _page(client, thread)
    Post.objects.filter(pk=post.pk).update(html="<p>Переписано напрямую</p>")
    assert "Переписано напрямую" in _post_li(_page(client, thread), post.number)


def test_a_hidden_post_hides_its_text_from_players_and_keeps_it_for_the_gm(started, thread):
    player, gm = client_for(user_named(started, "Кикимора")), client_for(started.gm)
    post = post_submit(thread=thread, author=user_named(started, "Вася"), body="Лишнее слово")
    for client in (player, gm):
        assert "Лишнее слово" in _post_li(_page(client, thread), post.number)
    post_set_deleted(post=post, moderator=started.gm, deleted=True, reason="флуд")
    hidden = _post_li(_page(player, thread), post.number)
    assert "Лишнее слово" not in hidden and "deleted-note" in hidden and "флуд" in hidden
    for_gm = _post_li(_page(gm, thread), post.number)
    assert "Лишнее слово" in for_gm and 'value="restore"' in for_gm
    post_set_deleted(post=post, moderator=started.gm, deleted=False)
    assert "Лишнее слово" in _post_li(_page(player, thread), post.number)


def test_a_private_text_shows_to_its_recipient_alone(started, thread):
    """001: «приватные сообщения ... видят только получатель, отправитель и ведущий». The recipient
    views first, so that a fragment holding the text is kept before anyone else asks."""
    post = post_submit(thread=thread, author=user_named(started, "Вася"),
                       body=f'Всем привет. [private="Кикимору"]{SECRET}[/private]')
    recipient, other, gm = (client_for(user_named(started, "Кикимора")), client_for(user_named(started, "Негодяй")),
                            client_for(started.gm))
    for _ in range(2):
        assert SECRET in _post_li(_page(recipient, thread), post.number)
        li = _post_li(_page(other, thread), post.number)
        assert SECRET not in li and "bb-private" in li
        assert SECRET not in _post_li(_page(client_for(None), thread), post.number)
        assert SECRET in _post_li(_page(gm, thread), post.number)


def test_a_rename_shows_on_the_posts_and_in_the_iso_picker(started, thread):
    from accounts.models import User

    vasya = user_named(started, "Вася")
    client, gm = client_for(user_named(started, "Кикимора")), client_for(started.gm)
    post = Post.objects.get(thread=thread, author=vasya)
    _page(client, thread), _page(gm, thread)
    User.objects.filter(pk=vasya.pk).update(display_name="Василий Премудрый")
    html = _page(client, thread)
    assert "Василий Премудрый" in _post_li(html, post.number)
    assert "Василий Премудрый" in re.search(r'<div class="iso-authors">.*?</div>', html, re.S).group(0)
    # The GM's Hide button asks about the post by its author's name.
    assert "Василий Премудрый" in _post_li(_page(gm, thread), post.number).split('value="delete"')[1]


def test_a_new_avatar_shows_on_the_posts(started, thread):
    from accounts.models import User

    vasya = user_named(started, "Вася")
    client = client_for(user_named(started, "Кикимора"))
    post = Post.objects.get(thread=thread, author=vasya)
    assert "avatars/vasya.png" not in _page(client, thread)
    User.objects.filter(pk=vasya.pk).update(avatar="avatars/vasya.png")
    assert "avatars/vasya.png" in _post_li(_page(client, thread), post.number)


def test_a_replacement_badges_the_new_players_posts(started, thread):
    from games.services.moderation import seat_replace

    client = client_for(user_named(started, "Кикимора"))
    newcomer, discussion = make_user("Новичок"), started.discussion_thread
    post = post_submit(thread=discussion, author=newcomer, body="Я просто зашёл")
    assert "badge replaced" not in _post_li(_page(client, discussion), post.number)
    seat_replace(game=started, seat=seat_named(started, "Вася"), new_user=newcomer, by=started.gm)
    assert "badge replaced" in _post_li(_page(client, discussion), post.number)


def test_the_language_switch_renders_the_posts_in_the_new_one(started, thread):
    client = client_for(user_named(started, "Кикимора"))
    assert "Цитировать" in _post_li(_page(client, thread), 2)
    client.post(reverse("accounts:language"), {"language": "en", "next": "/"})
    li = _post_li(_page(client, thread), 2)
    assert ">Quote<" in li and "Цитировать" not in li


def test_the_time_zone_shows_in_the_post_times(started, thread):
    from accounts.models import User

    kiki = user_named(started, "Кикимора")
    client = client_for(kiki)
    post = Post.objects.get(thread=thread, number=2)
    moscow = re.search(r"<time [^>]*>(.*?)</time>", _post_li(_page(client, thread), 2)).group(1)
    User.objects.filter(pk=kiki.pk).update(time_zone="Asia/Vladivostok")
    client = client_for(User.objects.get(pk=kiki.pk))  # a new login takes the profile's zone
    far_east = re.search(r"<time [^>]*>(.*?)</time>", _post_li(_page(client, thread), 2)).group(1)
    assert moscow != far_east and post.created_at is not None


def test_a_moderators_view_and_a_players_differ(started, thread):
    gm, player = client_for(started.gm), client_for(user_named(started, "Кикимора"))
    for _ in range(2):
        for_gm, for_player = _post_li(_page(gm, thread), 2), _post_li(_page(player, thread), 2)
        assert 'value="delete"' in for_gm and 'value="delete"' not in for_player
        assert "quote-button" in for_player


# --- The key -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("field", "value"), [
    ("number", 99), ("edit_count", 3), ("is_deleted", True), ("deleted_reason", "флуд"), ("comment", "к слову"),
    ("html", "<p>другое</p>"), ("author_id", "the GM"), ("replaced_names", ["Старик"]), ("body_visible", False),
])
def test_every_field_the_template_reads_is_in_the_key(started, thread, field, value):
    from django.utils import timezone

    post = Post.objects.select_related("author").get(thread=thread, number=2)
    post.replaced_names, post.body_visible = [], True
    key = pagecache.fragment_key(post, "shared")
    setattr(post, field, started.gm_id if value == "the GM" else value)
    assert pagecache.fragment_key(post, "shared") != key
    post = Post.objects.select_related("author").get(thread=thread, number=2)
    post.replaced_names, post.body_visible = [], True
    for change in ("created_at", "edited_at"):
        setattr(post, change, timezone.now())
        assert pagecache.fragment_key(post, "shared") != key
    post.author.display_name = "Другое имя"
    assert pagecache.fragment_key(post, "shared") != key
    assert pagecache.fragment_key(post, "other shared part") != pagecache.fragment_key(post, "shared")


# --- Reads kept under the game's, the site's and the viewer's counters ---------------------------------
def test_a_new_co_gm_gets_the_moderators_page(started, thread):
    from games.services.lifecycle import game_set_co_gm

    helper = make_user("Помощник")
    client = client_for(helper)
    assert "mod-tools" not in _page(client, thread)
    game_set_co_gm(game=started, by=started.gm, name=helper.display_name, add=True)
    html = _page(client, thread)
    assert "mod-tools" in html and 'value="delete"' in html


def test_a_game_ban_after_a_post_takes_the_reply_form_away(started, thread):
    from games.services.moderation import game_ban

    kiki = user_named(started, "Кикимора")
    client = client_for(kiki)
    assert 'name="body"' in _page(client, thread)
    post_submit(thread=thread, author=user_named(started, "Вася"), body="Ещё пост")
    assert 'name="body"' in _page(client, thread)
    game_ban(game=started, user=kiki, by=started.gm, reason="оскорбления")
    assert 'name="body"' not in _page(client, thread)


def test_a_replacement_changes_the_vote_buttons(started, thread):
    from games.services.moderation import seat_replace

    client = client_for(user_named(started, "Кикимора"))
    assert 'data-insert="[b]В тюрьму Васю[/b]"' in _page(client, thread)
    seat_replace(game=started, seat=seat_named(started, "Вася"), new_user=make_user("Новичок"), by=started.gm)
    html = _page(client, thread)
    assert 'data-insert="[b]В тюрьму Новичка[/b]"' in html and 'data-insert="[b]В тюрьму Васю[/b]"' not in html


def test_the_bell_counts_a_notification_and_its_reading(started, thread):
    from django.utils import timezone

    from games.services.notifications import notifications_mark_all_read, notify

    kiki = user_named(started, "Кикимора")
    client = client_for(kiki)
    bell = re.compile(r'<span class="bell-count"[^>]*>(.*?)</span>')
    before = int(bell.search(_page(client, thread)).group(1) or 0)
    notify(users=[kiki], kind="phase_opened", text="Началось", now=timezone.now())
    assert bell.search(_page(client, thread)).group(1) == str(before + 1)
    notifications_mark_all_read(user=kiki)
    assert bell.search(_page(client, thread)).group(1) == ""


def test_a_page_rendered_again_after_a_post_reads_no_game_row(started, thread, django_assert_max_num_queries):
    """The thread's own write leaves the game's and the users' reads kept: the thread, the user,
    the posts and the read mark are all the page asks the database for."""
    client = client_for(user_named(started, "Кикимора"))
    _page(client, thread)
    _page(client, thread)
    with django_assert_max_num_queries(4):
        _page(client, thread)
