"""Who hears a media post's file, and what the site refuses before reading it (issue 18, "Media
posts": duration limits, the request-level cap, the file served by the visibility module, an
S3-compatible bucket by environment; docs/rulesets/show.md "Media posts")."""

from __future__ import annotations

import importlib

import pytest
from django.core.files.base import ContentFile
from django.urls import reverse
from storages.backends.s3 import S3Storage

from games.models import Post, PostMedia, Thread
from games.services import ActionRefused
from games.services.posting import post_submit
from games.services.posts import post_set_deleted
from tests.conftest import client_for, make_user
from tests.games.test_show_media import _reply, _wav, wav_bytes
from tests.games.test_show_site import show  # noqa: F401  (the five-hero show fixture)

pytestmark = pytest.mark.django_db


def _media_url(post: Post) -> str:
    return reverse("games:post_media", args=[post.pk])


def _greeting(game, user) -> Post:
    post_submit(thread=game.game_thread, author=user, body="", upload=_wav())
    return Post.objects.get(thread=game.game_thread, author=user)


def _body(response) -> bytes:
    return b"".join(response.streaming_content)


def test_a_game_threads_media_is_served_to_every_reader_of_the_thread(show):
    game, gm, users, _seats = show
    post = _greeting(game, users["Аня"])
    for viewer in (None, make_user("Зритель"), users["Боря"], gm):
        response = client_for(viewer).get(_media_url(post)) if viewer else client_for(None).get(_media_url(post))
        assert response.status_code == 200, viewer
        assert response["Content-Type"].startswith("audio/") and _body(response) == wav_bytes()
    # The page plays it through the view, never a bare /media/ address.
    page = client_for(users["Боря"]).get(game.game_thread.get_absolute_url()).content.decode()
    assert f'src="{_media_url(post)}"' in page and "/media/posts/" not in page


def test_a_hidden_posts_media_is_its_moderators_only(show):
    game, gm, users, _seats = show
    post = _greeting(game, users["Аня"])
    post_set_deleted(post=post, moderator=gm, deleted=True, reason="спойлер")
    for viewer in (None, make_user("Зритель"), users["Боря"], users["Аня"]):
        assert client_for(viewer).get(_media_url(post)).status_code == 404, viewer
    assert client_for(gm).get(_media_url(post)).status_code == 200
    page = client_for(users["Боря"]).get(game.game_thread.get_absolute_url()).content.decode()
    assert _media_url(post) not in page


def test_a_file_in_the_slaves_chat_is_heard_by_its_readers_only(show):
    """«что пишут рабы в чате, видят только другие рабы и наблюдатели» (issue 18, "Slavery")."""
    game, gm, users, seats = show
    seats["Аня"].status = "enslaved"
    seats["Аня"].save(update_fields=["status"])
    lounge = Thread.objects.get(game=game, kind=Thread.Kind.LOUNGE)
    post = post_submit(thread=lounge, author=users["Аня"], body="Нас тут много")
    media = PostMedia(post=post, kind="audio", mime="audio/x-wav", size=len(wav_bytes()))
    media.file.save("post-chat.wav", ContentFile(wav_bytes()), save=True)
    for viewer in (users["Аня"], make_user("Зритель"), gm):
        assert client_for(viewer).get(_media_url(post)).status_code == 200, viewer
    for viewer in (None, users["Боря"]):  # anonymous, a free hero
        assert client_for(viewer).get(_media_url(post)).status_code == 404, viewer


def test_the_generic_media_route_never_serves_media_posts(settings):
    """Avatars are served under /media/ when MAFIA_SERVE_MEDIA is on; media posts never are."""
    from config import urls

    settings.SERVE_MEDIA = True
    try:
        routes = [p.pattern.regex for p in importlib.reload(urls).urlpatterns if str(p.pattern).startswith("^media/")]
        assert any(r.match("media/avatars/a.png") for r in routes)
        assert not any(r.match("media/posts/2026/11/post-1-abc.wav") for r in routes)
    finally:
        settings.SERVE_MEDIA = False
        importlib.reload(urls)


def test_a_recording_longer_than_its_kinds_limit_is_refused_and_changes_nothing(show, settings):
    game, _gm, users, _seats = show
    settings.MAFIA_MEDIA_MAX_SECONDS = {"audio": 1, "video": 1}
    response = _reply(users["Аня"], game.game_thread, _wav("long.wav", seconds=2.6))
    assert response.status_code == 400
    assert "0:03" in response.content.decode() and "0:01" in response.content.decode()
    assert not Post.objects.filter(thread=game.game_thread, author=users["Аня"]).exists()
    assert not PostMedia.objects.exists()
    with pytest.raises(ActionRefused) as refused:
        post_submit(thread=game.game_thread, author=users["Аня"], body="", upload=_wav(seconds=2.6))
    assert refused.value.code == "media_length"
    # Within the limit it is accepted.
    assert post_submit(thread=game.game_thread, author=users["Аня"], body="", upload=_wav(seconds=0.5)).media


def test_a_request_over_the_cap_is_refused_before_its_body_is_read(show, settings):
    game, _gm, users, _seats = show
    settings.MAFIA_REQUEST_MAX_BYTES = 4000
    big = _wav(seconds=1)  # 16 KB
    response = _reply(users["Аня"], game.game_thread, big)
    assert response.status_code == 413
    assert "больше" in response.content.decode()  # the site's Russian page
    htmx = client_for(users["Аня"]).post(reverse("games:thread_reply", args=[game.game_thread.pk]),
                                         {"body": "", "post": "1", "media": _wav(seconds=1)}, HTTP_HX_REQUEST="true")
    assert htmx.status_code == 413 and htmx["Content-Type"].startswith("text/plain")
    assert not Post.objects.filter(thread=game.game_thread, author=users["Аня"]).exists()
    # A small post still goes through, and the file input tells the browser the cap.
    assert _reply(users["Аня"], game.game_thread, _wav(seconds=0.05)).status_code == 302
    page = client_for(users["Боря"]).get(game.game_thread.get_absolute_url()).content.decode()
    assert 'data-max-bytes="4000"' in page


def test_a_file_in_an_s3_bucket_is_a_signed_redirect_after_the_visibility_check(show, monkeypatch):
    game, gm, users, _seats = show
    post = post_submit(thread=game.game_thread, author=users["Аня"], body="текст")
    bucket = S3Storage(bucket_name="show-media", endpoint_url="http://127.0.0.1:9000", access_key="key",
                       secret_key="secret", region_name="us-east-1", querystring_auth=True, querystring_expire=600)
    monkeypatch.setattr(PostMedia._meta.get_field("file"), "storage", bucket)
    PostMedia.objects.create(post=post, kind="audio", mime="audio/ogg", size=10, file="posts/2026/11/post-x.ogg")
    response = client_for(users["Боря"]).get(_media_url(post))
    assert response.status_code == 302
    assert response["Location"].startswith("http://127.0.0.1:9000/show-media/posts/2026/11/post-x.ogg?")
    assert "Signature=" in response["Location"] and "Expires=" in response["Location"]
    post_set_deleted(post=post, moderator=gm, deleted=True)
    assert client_for(users["Боря"]).get(_media_url(post)).status_code == 404


def test_a_media_file_answers_byte_ranges_for_seeking_and_phones(show):
    """Browsers ask audio and video in byte ranges (to seek; Safari on iPhones to play a video at
    all): one range is a 206 with its bytes, several or a malformed one the whole file, one past the
    end a 416 naming the size (config/ranges.py; RFC 9110, section 14). The visibility check comes
    first: a range of a file one may not hear is a 404 like the file."""
    game, gm, users, _seats = show
    post = _greeting(game, users["Аня"])
    data, url, reader = wav_bytes(), _media_url(post), client_for(users["Боря"])
    size = len(data)
    whole = reader.get(url)
    assert whole.status_code == 200 and whole["Accept-Ranges"] == "bytes" and _body(whole) == data
    for header, first, last in (("bytes=0-9", 0, 9), ("bytes=10-", 10, size - 1), ("bytes=-16", size - 16, size - 1),
                                (f"bytes=5-{size + 100}", 5, size - 1)):
        part = reader.get(url, headers={"Range": header})
        assert part.status_code == 206, header
        assert part["Content-Range"] == f"bytes {first}-{last}/{size}" and part["Content-Length"] == str(last - first + 1)
        assert _body(part) == data[first:last + 1], header
    for header in ("bytes=0-1,5-6", "items=0-5", "bytes=9-3", "bytes=-"):
        full = reader.get(url, headers={"Range": header})
        assert full.status_code == 200 and _body(full) == data, header
    assert reader.get(url, headers={"Range": "bytes=0-9", "If-Range": '"old"'}).status_code == 200
    for header in (f"bytes={size}-", "bytes=-0"):
        past = reader.get(url, headers={"Range": header})
        assert past.status_code == 416 and past["Content-Range"] == f"bytes */{size}", header
    post_set_deleted(post=post, moderator=gm, deleted=True, reason="")
    assert reader.get(url, headers={"Range": "bytes=0-9"}).status_code == 404


def _bucket(expire: int = 600) -> S3Storage:
    return S3Storage(bucket_name="show-media", endpoint_url="http://127.0.0.1:9000", access_key="key",
                     secret_key="secret", region_name="us-east-1", querystring_auth=True, querystring_expire=expire)


def _cache_control(response) -> dict[str, str]:
    parts = [p.strip() for p in response["Cache-Control"].split(",")]
    return dict(p.split("=", 1) if "=" in p else (p, "") for p in parts)


@pytest.mark.parametrize("expire", [600, 3600, 1])
def test_a_public_files_signed_redirect_may_be_kept_by_any_cache_never_past_the_signature(show, monkeypatch, expire):
    """Issue 29: the redirect says how long it may be kept (half the signature's life, so a kept
    redirect still leads somewhere that works), public for a file anybody may hear."""
    game, gm, users, _seats = show
    post = post_submit(thread=game.game_thread, author=users["Аня"], body="текст")
    monkeypatch.setattr(PostMedia._meta.get_field("file"), "storage", _bucket(expire))
    PostMedia.objects.create(post=post, kind="audio", mime="audio/ogg", size=10, file="posts/2026/11/post-x.ogg")
    for viewer in (None, users["Боря"]):
        response = client_for(viewer).get(_media_url(post))
        assert response.status_code == 302
        control = _cache_control(response)
        assert "public" in control and "private" not in control, viewer
        assert 0 <= int(control["max-age"]) <= expire and int(control["max-age"]) == expire // 2
        assert "Expires=" in response["Location"]


def test_a_hidden_posts_signed_redirect_is_for_the_moderators_browser_only(show, monkeypatch):
    game, gm, users, _seats = show
    post = post_submit(thread=game.game_thread, author=users["Аня"], body="текст")
    monkeypatch.setattr(PostMedia._meta.get_field("file"), "storage", _bucket(600))
    PostMedia.objects.create(post=post, kind="audio", mime="audio/ogg", size=10, file="posts/2026/11/post-y.ogg")
    post_set_deleted(post=post, moderator=gm, deleted=True)
    response = client_for(gm).get(_media_url(post))
    assert response.status_code == 302
    control = _cache_control(response)
    assert "private" in control and "public" not in control
    assert int(control["max-age"]) == 300
