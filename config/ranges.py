"""HTTP range requests (RFC 9110, section 14) for the files the site streams itself: the Show's
media posts in `var/media/posts/` (games:post_media). Browsers ask audio and video in byte
ranges — to seek, and Safari on iPhones to play a video at all — and Django's FileResponse
answers every request with the whole file.

Written here rather than taken from a library: django-ranged-response, the one package for it,
has had no release since 2017 and wraps FileResponse in a way Django no longer documents; what it
must do is small and exactly specified. One range is served (`bytes=a-b`, `bytes=a-`,
`bytes=-n`); a request for several ranges, one that cannot be parsed, or one with `If-Range`
gets the whole file (which RFC 9110 always allows); a range past the end is a 416 naming the
size. A file in an S3 bucket is a redirect, and the bucket answers ranges itself.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import BinaryIO

from django.http import FileResponse, HttpRequest, HttpResponse, StreamingHttpResponse

_RANGE = re.compile(r"^bytes=(\d*)-(\d*)$")
CHUNK = 64 * 1024


def _wanted(header: str, size: int) -> tuple[int, int] | None | bool:
    """The first and last byte asked by a single-range header; None when the header is to be
    ignored (absent, malformed, several ranges); False when it cannot be satisfied."""
    match = _RANGE.match(header.replace(" ", ""))
    if match is None:
        return None
    first, last = match.groups()
    if not first and not last:
        return None
    if not first:  # the last n bytes
        length = int(last)
        if length == 0:
            return False
        return max(0, size - length), size - 1
    start = int(first)
    end = min(int(last), size - 1) if last else size - 1
    if last and int(last) < start:
        return None  # an invalid range is ignored (RFC 9110, 14.1.1)
    if start >= size:
        return False
    return start, end


def _read(handle: BinaryIO, start: int, length: int) -> Iterator[bytes]:
    try:
        handle.seek(start)
        while length > 0:
            chunk = handle.read(min(CHUNK, length))
            if not chunk:
                break
            length -= len(chunk)
            yield chunk
    finally:
        handle.close()


def ranged_file_response(request: HttpRequest, handle: BinaryIO, *, content_type: str) -> HttpResponse:
    """The file open in `handle` (binary, seekable), whole (200) or the one range asked (206)."""
    size = os.fstat(handle.fileno()).st_size
    header = request.headers.get("Range", "")
    wanted = _wanted(header, size) if header and not request.headers.get("If-Range") else None
    if wanted is False:
        handle.close()
        response = HttpResponse(status=416)
        response["Content-Range"] = f"bytes */{size}"
    elif wanted is None:
        response = FileResponse(handle, content_type=content_type)
    else:
        start, end = wanted
        response = StreamingHttpResponse(_read(handle, start, end - start + 1), status=206, content_type=content_type)
        response["Content-Range"] = f"bytes {start}-{end}/{size}"
        response["Content-Length"] = str(end - start + 1)
    response["Accept-Ranges"] = "bytes"
    return response
