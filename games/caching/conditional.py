"""The vote-count fragment's conditional answers (issue 30 part 3; docs/architecture.md, "The vote
count's conditional answers").

Every open game thread polls `/games/<pk>/votes/live/` (games/views/votes.py, vote_count_fragment)
every MAFIA_VOTE_POLL_SECONDS, and the count is mostly unchanged between two polls. The fragment
carries an ETag and `Cache-Control: private, no-cache`, so the browser keeps it and asks again
with `If-None-Match` (an XHR does so by itself; htmx then gets the kept body). The answer "not
modified" (304) is given here, before the session, auth, CSRF and the view run, by
`VoteCountConditionalMiddleware`, with one read of the cache, when:

- a **validator** was kept for exactly this request's cookies: the session cookie, the language
  cookie, the host, the scheme, the URL and the htmx headers (`candidate`), by the view's last
  answer to them (`offer`, `store`): the ETag it sent, the counters its count was read under (the
  game's, its vote ledger's, the site's and the day's count version: every write the count shows
  moves one of them) and a digest of the session's data it was made with;
- the browser's If-None-Match names that ETag;
- the session is still in the store with the same data (a logout, a login, a language or time
  zone change, a message waiting: no), or, for a request without a session cookie, the
  validator was made without one too;
- every counter is where it was.

Anything else goes to the view, which answers 200 with the body (or 304 itself when the body it
made has the ETag the browser names). A 304 hands the browser nothing it does not have: the
checks keep it from being told that an old count is still the count. The ETag is a digest of the
session cookie and the body, so two sessions never share one.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponseNotModified

from games.caching import pagecache

VALIDATOR_SECONDS = 3600
# What a 304 repeats of the 200 it stands for (RFC 9110 15.4.5), besides the ETag.
_REPLAYED = ("Cache-Control", "Vary", "Content-Language", "Expires")


class Candidate:
    __slots__ = ("key", "game_id", "session_key")

    def __init__(self, key: str, game_id: int, session_key: str | None):
        self.key, self.game_id, self.session_key = key, game_id, session_key


def candidate(request) -> Candidate | None:
    """For a GET of a game's vote-count fragment, the key of its validator from what the request
    carries; None: never answered here (another URL or method, a session cookie of a form no
    session has, Django messages in a cookie: `pagecache.request_key`)."""
    if request.method != "GET":
        return None
    match = pagecache.path_re("games:votes_live").match(request.path)
    if match is None:
        return None
    keyed = pagecache.request_key(request, "votes:validator", tag="votes-live", target=request.get_full_path(),
                                  csrf=False, hx=("HTTP_HX_REQUEST", "HTTP_HX_TARGET"))
    if keyed is None:
        return None
    return Candidate(key=keyed[0], game_id=int(match.group(1)), session_key=keyed[1])


def etag_of(request, html: str) -> str:
    """The fragment's ETag: a digest of the session cookie and the body (two sessions never share one)."""
    session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME) or ""
    return f'"{pagecache.digest(session_key + chr(31) + html)}"'


def matches(request, etag: str) -> bool:
    """Whether the request's If-None-Match names `etag` (or is "*")."""
    header = request.META.get("HTTP_IF_NONE_MATCH", "")
    if not header:
        return False
    tags = [tag.strip().removeprefix("W/") for tag in header.split(",")]
    return "*" in tags or etag in tags


# Per process, the counters of a game's last validator beyond the ones every validator has (the
# day's count version): fetched in the same round trip as the validator.
_extra_keys: dict[int, tuple[str, ...]] = {}


def _base_keys(game_id: int) -> list[str]:
    return [pagecache.game_key(game_id), pagecache.votes_key(game_id), pagecache.SITE_KEY]


def not_modified(headers: list[tuple[str, str]], etag: str) -> HttpResponseNotModified:
    response = HttpResponseNotModified()
    response["ETag"] = etag
    for name, value in headers:
        response[name] = value
    return response


def lookup(request, found: Candidate):
    """The 304 for this request, or None (the view answers)."""
    if not request.META.get("HTTP_IF_NONE_MATCH"):
        return None
    keys = [found.key, *_base_keys(found.game_id), *_extra_keys.get(found.game_id, ())]
    session_cache, session_read = pagecache.session_keys(found.session_key)
    values = cache.get_many(keys + session_read)
    entry = values.get(found.key)
    if not isinstance(entry, dict) or time.time() >= entry.get("until", 0) or not matches(request, entry["etag"]):
        return None
    if not pagecache.session_unchanged(found.session_key, session_cache, values, entry["session"]):
        return None
    missing = [key for key in entry["stamps"] if key not in keys]
    if missing:
        values.update(cache.get_many(missing))
    for key, value in entry["stamps"].items():
        if value is None or values.get(key) != value:
            return None
    return not_modified(entry["headers"], entry["etag"])


def offer(request, *, game_id: int, stamps: dict[str, int], etag: str, until: float | None = None) -> None:
    """The view's answer may be validated from the cache next time (the middleware decides, once
    the response is complete): `stamps`, every counter its body was read under, read before the
    data."""
    request._votes_validator = (game_id, dict(stamps), etag, until)


def store(request, found: Candidate, response) -> None:
    """Keep the validator of the view's answer, if it offered one and the answer is the fragment
    of exactly this session as the browser will ask for it again."""
    offered = getattr(request, "_votes_validator", None)
    if offered is None or response.status_code not in (200, 304) or response.streaming:
        return
    game_id, stamps, etag, until = offered
    if game_id != found.game_id or response.cookies:
        return  # a cookie set (a new session, a CSRF cookie) makes the next request differ
    usable, session_part = pagecache.session_state(request, found.session_key, unmodified=True)
    if not usable:
        return
    extra = tuple(key for key in stamps if key not in _base_keys(game_id))
    if len(_extra_keys) > 50_000:
        _extra_keys.clear()
    _extra_keys[game_id] = extra
    headers = [(name, response[name]) for name in _REPLAYED if response.has_header(name)]
    deadline = time.time() + VALIDATOR_SECONDS
    if until is not None:
        deadline = min(deadline, until)
    seconds = int(deadline - time.time())
    if seconds < 1:
        return
    cache.set(found.key, {"etag": etag, "stamps": stamps, "session": session_part, "headers": headers,
                          "until": deadline}, timeout=seconds)
