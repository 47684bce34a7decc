"""Answers a reload of a thread page from the page cache before the rest of the middleware
runs (games/caching/pagecache.py, docs/architecture.md, "The thread page cache").

It sits right after SecurityMiddleware and WhiteNoise, so a hit costs no URL resolution, no
session or user loading, no CSRF, messages, htmx or allauth middleware and no view: one read of
the cache (the page, the session's data and the write counters the page depends on), two when
this process does not know the thread's game or the session's user yet.

Why that is safe (each point is also a test in tests/games/test_thread_cache.py):
- The key holds everything the request carries that the page depends on: the session and CSRF
  cookies, host, scheme, full URL, the language cookie and the htmx headers. The rest comes
  from the session (the user, the language and time zone preferences, allauth's state) and is
  compared whole: the page records a digest of the session's data as it was rendered, and a hit
  needs the session to be in the store now with the same data. A session logged out, flushed,
  expired or cycled (a new login) is gone, so its pages are never served again; one with a
  message waiting has changed. This is the very data SessionMiddleware would load: with the
  cached sessions the cache is where it reads them first; with the other engines the session is
  loaded through the engine.
- Whatever the page shows from the database is covered by its write counters (the site, the
  thread, its game, the viewer's notifications): a change of the user (name, password, ban,
  groups) bumps the site counter, so a password change that logs this session out (the
  session's hash no longer matches) also ends its pages. A clock (a ban's end, a scheduled lock,
  an edit window) ends a page at that moment.
- What the skipped middleware would have added to the response (Vary, Content-Language,
  X-Frame-Options, ...) was stored with the page and is replayed; SecurityMiddleware still runs
  around it. Only responses that set no cookie are kept, from a session nothing modified, made
  with the CSRF cookie the browser sends (the tokens in the page are valid for it). A host not
  in ALLOWED_HOSTS is never answered here (CommonMiddleware refuses it as before).
"""

from __future__ import annotations

from games.caching import conditional, pagecache


class _EarlyAnswerMiddleware:
    """Answers a request from a cache before the middleware after it and the view run, and keeps
    what the view answered for the next one: `steps` gives (candidate, lookup, store), the
    request's key or None (not for this cache), the kept answer or None, and the keeping."""

    def __init__(self, get_response):
        self.get_response = get_response

    def steps(self):
        raise NotImplementedError

    def __call__(self, request):
        candidate, lookup, store = self.steps()
        found = candidate(request)
        if found is not None:
            response = lookup(request, found)
            if response is not None:
                return response
        response = self.get_response(request)
        if found is not None:
            store(request, found, response)
        return response


class ThreadPageCacheMiddleware(_EarlyAnswerMiddleware):
    def steps(self):
        # Read from the module at each request: a test may replace one (tests/security/test_headers.py).
        return pagecache.candidate, pagecache.page_lookup, pagecache.page_store


class VoteCountConditionalMiddleware(_EarlyAnswerMiddleware):
    """Answers the vote-count fragment's revalidations (If-None-Match) with 304 Not Modified
    before the session, auth and the view run, when nothing its count shows was written since
    the browser got it (games/caching/conditional.py); keeps the validator of the view's answers.
    Right after ThreadPageCacheMiddleware, for the same reasons."""

    def steps(self):
        # Read from the module at each request: a test may replace one (tests/games/test_vote_count_conditional.py).
        return conditional.candidate, conditional.lookup, conditional.store
