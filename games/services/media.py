"""Media posts: an audio or video file attached to a post (docs/rulesets/show.md, "Media posts").

The file's type is read from its CONTENT (its first bytes, with the `filetype` library), never from
its name or the browser's content type: a text file renamed «.mp3» is refused. Each kind has its
size limit (settings.MAFIA_MEDIA_MAX_MB) and its length limit (settings.MAFIA_MEDIA_MAX_SECONDS),
the length read from the container with `mutagen` (MP3, Ogg/Opus, FLAC, WAV, MP4/M4A/MOV, …); a
container that states no length (mutagen does not read WebM/Matroska) is bounded by its size alone.
The file is saved through Django's storage API (the default storage: local var/media, or an
S3-compatible bucket by environment) and served by `games:post_media`, which asks the visibility
module first (a hidden post's file, a slave's file in the slaves' chat). The element that plays it
(<audio controls>/<video controls>) is added by the post's template, never by the post's markup,
which nh3 keeps free of media tags (games/text/bbcode.py).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

import filetype
import mutagen
from django.conf import settings
from django.utils.translation import gettext as _

from games.models import Post, PostMedia
from games.services import ActionRefused

# The bytes filetype needs to read every audio and video signature it knows.
HEAD_BYTES = 8192


@dataclass(frozen=True)
class MediaCheck:
    kind: str  # "audio" | "video"
    mime: str
    extension: str


def media_check(upload) -> MediaCheck:
    """The upload's kind read from its content and its size checked, or ActionRefused."""
    upload.seek(0)
    head = upload.read(HEAD_BYTES)
    upload.seek(0)
    guess = filetype.guess(head) if head else None
    if guess is None or not (guess.mime.startswith("audio/") or guess.mime.startswith("video/")):
        raise ActionRefused(_("This file is not audio or video."), code="media_type")
    kind = "audio" if guess.mime.startswith("audio/") else "video"
    limit_mb = settings.MAFIA_MEDIA_MAX_MB[kind]
    if upload.size > limit_mb * 1024 * 1024:
        raise ActionRefused(_("The file is over %(mb)d MB, the limit for %(kind)s.")
                            % {"mb": limit_mb, "kind": PostMedia.Kind(kind).label}, code="media_size")
    seconds = media_length(upload)
    limit_seconds = settings.MAFIA_MEDIA_MAX_SECONDS[kind]
    if seconds is not None and seconds > limit_seconds:
        raise ActionRefused(_("The recording lasts %(length)s, longer than %(limit)s, the limit for %(kind)s.")
                            % {"length": _duration(seconds), "limit": _duration(limit_seconds),
                               "kind": PostMedia.Kind(kind).label}, code="media_length")
    return MediaCheck(kind=kind, mime=guess.mime, extension=guess.extension)


def media_length(upload) -> float | None:
    """The recording's length in seconds as its container states it, or None when mutagen cannot
    read it (an unknown or damaged container, WebM)."""
    upload.seek(0)
    try:
        found = mutagen.File(upload)
    except (mutagen.MutagenError, ValueError, OSError, EOFError):
        found = None
    finally:
        upload.seek(0)
    length = getattr(getattr(found, "info", None), "length", None)
    return float(length) if length else None


def _duration(seconds: float) -> str:
    whole = int(round(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def media_store(*, post: Post, upload, check: MediaCheck) -> PostMedia:
    """Inside the post's transaction: the file saved by the default storage under a name of the
    site's own (the post's id, a random part, the extension read from the content), attached to the
    post."""
    media = PostMedia(post=post, kind=check.kind, mime=check.mime, size=upload.size)
    # A random part: the file of a post a moderator hides is not found by counting posts' ids.
    media.file.save(f"post-{post.pk}-{secrets.token_hex(8)}.{check.extension}", upload, save=False)
    media.save()
    post.media = media
    return media
