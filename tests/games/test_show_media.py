"""The show's media posts (issue 18, "Media posts"; docs/rulesets/show.md "Media posts"): a greeting,
defence speech or requested opinion uploaded as audio or video on the game thread's reply form. The
type is read from the file's content, the size is limited per kind, the file is kept by the default
storage and shown with <audio controls>; only a hero who owes a media post now sees the file input,
and anywhere else an upload is refused and changes nothing."""

from __future__ import annotations

import io
import wave

import pytest
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from games.models import Order, Post, PostMedia, Thread
from games.services import ActionRefused
from games.services.posting import post_submit
from games.services.threads import thread_create
from tests.conftest import client_for, make_user
from tests.games.test_show_site import NAMES, show  # noqa: F401  (the five-hero show fixture)

pytestmark = pytest.mark.django_db


def wav_bytes(seconds: float = 0.1, rate: int = 8000) -> bytes:
    """A real, valid WAV file: mono, 16-bit silence."""
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(b"\x00\x00" * int(rate * seconds))
    return buffer.getvalue()


def _wav(name: str = "greeting.wav", seconds: float = 0.1) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, wav_bytes(seconds), content_type="audio/wav")


def _reply(user, thread: Thread, upload, body: str = ""):
    return client_for(user).post(reverse("games:thread_reply", args=[thread.pk]),
                                 {"body": body, "post": "1", "media": upload})


def test_a_greeting_uploaded_as_audio_is_stored_shown_served_and_done(show):
    game, _gm, users, seats = show
    thread = game.game_thread
    page = client_for(users["Аня"]).get(thread.get_absolute_url()).content.decode()
    assert 'type="file"' in page and 'enctype="multipart/form-data"' in page
    response = _reply(users["Аня"], thread, _wav())
    assert response.status_code == 302, response.content.decode()[:1000]
    post = Post.objects.get(thread=thread, author=users["Аня"])
    media = PostMedia.objects.get(post=post)
    assert media.kind == "audio" and media.mime.startswith("audio/") and media.size == len(wav_bytes())
    # Stored through the storage API under a name of the site's own, not the uploader's.
    assert default_storage.exists(media.file.name) and "greeting" not in media.file.name
    # The owed greeting is done: the ledger's post row, and the panel no longer asks for it.
    order = Order.objects.get(phase=game.current_phase, actor=seats["Аня"], action="post", valid=True)
    assert order.detail == {"kind": "greeting", "post": post.pk}
    # Shown with the site's <audio controls>, after the sanitised body.
    page = client_for(users["Боря"]).get(thread.get_absolute_url()).content.decode()
    media_url = reverse("games:post_media", args=[post.pk])
    assert f'<audio controls preload="metadata" src="{media_url}"></audio>' in page
    # Served by the view that asks the visibility module first (tests/games/test_media_access.py).
    served = client_for(users["Боря"]).get(media_url)
    assert served.status_code == 200 and b"".join(served.streaming_content) == wav_bytes()
    # Nothing more is owed: no file input for her now, and a second upload is refused.
    page = client_for(users["Аня"]).get(thread.get_absolute_url()).content.decode()
    assert 'type="file"' not in page
    with pytest.raises(ActionRefused) as refused:
        post_submit(thread=thread, author=users["Аня"], body="", upload=_wav())
    assert refused.value.code == "media_not_owed"


def test_every_greeting_uploaded_ends_the_stage_early_even_when_only_media_is_allowed(show):
    game, _gm, users, _seats = show
    game.options = {**game.options, "text_posts": False}
    game.save(update_fields=["options"])
    post_submit(thread=game.game_thread, author=users["Аня"], body="просто текст")  # talk only now
    assert not Order.objects.filter(phase=game.current_phase, action="post").exists()
    for name in NAMES:
        post_submit(thread=game.game_thread, author=users[name], body="", upload=_wav())
    game.refresh_from_db()
    assert (game.current_phase.kind, game.current_phase.number) == ("day", 1)
    assert PostMedia.objects.filter(post__thread=game.game_thread).count() == 5


def test_a_text_file_named_mp3_is_refused_and_changes_nothing(show):
    game, _gm, users, _seats = show
    fake = SimpleUploadedFile("song.mp3", "Это не песня, а текст.\n".encode() * 50, content_type="audio/mpeg")
    response = _reply(users["Аня"], game.game_thread, fake, body="Привет")
    assert response.status_code == 400
    assert not Post.objects.filter(thread=game.game_thread, author=users["Аня"]).exists()
    assert not Order.objects.filter(phase=game.current_phase, action="post").exists()
    with pytest.raises(ActionRefused) as refused:
        post_submit(thread=game.game_thread, author=users["Аня"], body="", upload=fake)
    assert refused.value.code == "media_type"


def test_a_file_over_the_kinds_limit_is_refused(show, settings):
    game, _gm, users, _seats = show
    settings.MAFIA_MEDIA_MAX_MB = {"audio": 1, "video": 1}
    big = _wav("long.wav", seconds=70)  # 8000 Hz x 2 bytes x 70 s: over 1 MB
    response = _reply(users["Аня"], game.game_thread, big)
    assert response.status_code == 400
    assert "Файл больше 1 МБ" in response.content.decode()  # the site speaks Russian first
    assert not Post.objects.filter(thread=game.game_thread, author=users["Аня"]).exists()
    assert not PostMedia.objects.exists()


def test_no_file_input_outside_a_show_thread_and_a_forged_upload_is_refused(show):
    game, _gm, users, _seats = show
    user = users["Аня"]
    thread, _post = thread_create(kind=Thread.Kind.GENERAL, title="Болталка", author=make_user("Гость"), body="Привет")
    page = client_for(user).get(thread.get_absolute_url()).content.decode()
    assert 'type="file"' not in page and "multipart" not in page
    response = _reply(user, thread, _wav(), body="С файлом")
    assert response.status_code == 400
    assert not Post.objects.filter(thread=thread, author=user).exists() and not PostMedia.objects.exists()
    # The show's discussion thread (not its game thread) refuses it too.
    with pytest.raises(ActionRefused) as refused:
        post_submit(thread=game.discussion_thread, author=user, body="x", upload=_wav())
    assert refused.value.code in ("media_not_owed", "not_allowed")
    assert not PostMedia.objects.exists()


def test_the_panel_says_how_to_post_the_owed_media_post_and_links_the_thread(show):
    game, _gm, users, _seats = show
    page = client_for(users["Аня"]).get(game.get_absolute_url()).content.decode()
    assert 'class="media-owed"' in page and f'{game.game_thread.get_absolute_url()}?page=last#reply' in page
    game.options = {**game.options, "text_posts": False}
    game.save(update_fields=["options"])
    only_media = client_for(users["Аня"]).get(game.get_absolute_url()).content.decode()
    assert only_media != page and 'class="media-owed"' in only_media
    post_submit(thread=game.game_thread, author=users["Аня"], body="", upload=_wav())
    assert 'class="media-owed"' not in client_for(users["Аня"]).get(game.get_absolute_url()).content.decode()


def test_a_video_read_from_its_content_is_shown_with_video_and_its_own_limit(show, settings):
    game, _gm, users, _seats = show
    mp4 = b"\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom" + b"\x00" * 4096  # an MP4's box header
    settings.MAFIA_MEDIA_MAX_MB = {"audio": 0, "video": 1}  # the audio limit does not apply to it
    post_submit(thread=game.game_thread, author=users["Боря"], body="Моё видео",
                upload=SimpleUploadedFile("clip.txt", mp4, content_type="text/plain"))
    media = PostMedia.objects.get(post__author=users["Боря"])
    assert media.kind == "video" and media.mime == "video/mp4" and media.file.name.endswith(".mp4")
    page = client_for(users["Аня"]).get(game.game_thread.get_absolute_url()).content.decode()
    assert f'<video controls preload="metadata" src="{reverse("games:post_media", args=[media.post_id])}"></video>' in page
