"""Every URL pattern of the site, read from the resolver, and how the security tests fill and call it.

ROUTES names each pattern (by its URL name; an unnamed pattern by its regex) with the methods its
view accepts and, for a pattern with parameters, a filler: a function of the seeded world
(tests/security/conftest.py) that returns every set of parameters worth visiting. A pattern the
resolver has and ROUTES does not is a test failure (test_url_perspectives.py,
test_every_url_pattern_is_known), so a new URL cannot escape the security tests: add it here
(docs/security.md, "Adding a URL pattern").
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from urllib.parse import urlencode

from django.urls import URLPattern, URLResolver, get_resolver, reverse

GET, POST = "GET", "POST"
SKIPPED_PREFIXES = ("admin/",)  # Django's admin: staff only, its own CSRF and permission checks


@dataclass(frozen=True)
class Pattern:
    key: str  # "games:thread"; an unnamed pattern: its route
    route: str
    params: tuple[str, ...]
    callback: Callable


def _walk(patterns, prefix: str = "", namespace: str = "", params: tuple[str, ...] = ()) -> Iterator[Pattern]:
    for entry in patterns:
        route = prefix + str(entry.pattern)
        names = params + tuple(entry.pattern.regex.groupindex)
        if isinstance(entry, URLResolver):
            inner = f"{namespace}:{entry.namespace}" if namespace and entry.namespace else (entry.namespace or namespace)
            yield from _walk(entry.url_patterns, route, inner, names)
        elif isinstance(entry, URLPattern):
            key = f"{namespace}:{entry.name}" if namespace and entry.name else (entry.name or route)
            yield Pattern(key=key, route=route, params=names, callback=entry.callback)


def all_patterns() -> list[Pattern]:
    """Every URL pattern of the site except the admin's, as the resolver has them now."""
    return [p for p in _walk(get_resolver().url_patterns) if not p.route.startswith(SKIPPED_PREFIXES)]


# --- Fillers: the parameters to visit, from the seeded world -----------------------------------------
def _threads(w):
    return [{"pk": t.pk} for t in w.all_threads()] + [{"pk": w.missing_pk}]


def _posts_by_number(w):
    return [{"pk": p.thread_id, "number": p.number} for p in w.all_posts()]


def _posts_by_pk(w):
    return [{"post_pk": p.pk} for p in w.all_posts()]


def _games(w):
    return [{"pk": w.game.pk}]


def _seats_of_game(w):
    """Every seat of the game, and a seat of another game, under the game's id."""
    return [{"pk": w.game.pk, "seat_pk": s.pk} for s in w.game.seats.order_by("number")] + [
        {"pk": w.game.pk, "seat_pk": w.other_seat().pk}]


def _kinds(w):
    from games.models import Thread

    return [{"kind": kind} for kind in [*Thread.Kind.values, "bogus"]]


def _rulesets(w):
    from games.rulesets import registry

    # Every registered rule set, an old game's key no rule set registers, and nonsense.
    return [{"ruleset": r} for r in [*registry.keys(), "show", "bogus"]]


def _notifications(w):
    """One notification of each user who has any: every perspective tries its own and others'."""
    from games.models import Notification

    first = {}
    for pk, user_id in Notification.objects.order_by("pk").values_list("pk", "user_id"):
        first.setdefault(user_id, pk)
    return [{"pk": pk} for pk in sorted(first.values())]


def _reports(w):
    return [{"report_pk": w.report.pk}]


def _seats(w):
    return [{"pk": w.game.pk, "seat_pk": s.pk} for s in w.game.seats.order_by("number")]


def _users(w):
    from accounts.models import User

    return [{"pk": pk} for pk in User.objects.order_by("pk").values_list("pk", flat=True)]


def _confirm_key(w):
    return [{"key": "not-a-key"}]


def _reset_key(w):
    return [{"uidb36": "1", "key": "set-password"}]


def _media(w):
    return [{"path": "avatars/nothing.png"}]


@dataclass(frozen=True)
class Route:
    methods: frozenset[str]
    fill: Callable | None = None
    # For the GET pass: extra query strings worth trying (a function of the world and the kwargs).
    queries: Callable | None = None
    # The view answers a POST for the logged-in user only: a logged-out POST is redirected.
    login_required: bool = False


def _r(methods: str, fill=None, queries=None, login=False) -> Route:
    return Route(frozenset(methods.split()), fill, queries, login)


def _pov_all(w, kwargs):
    """The GM's point of view as each seat, a seat of another game, and garbage."""
    return [f"pov={s.pk}" for s in w.game.seats.order_by("number")] + [f"pov={w.other_seat().pk}", "pov=x"]


def _pov_one(w, kwargs):
    return [f"pov={w.seats['kikimora'].pk}"]


def _vote_queries(w, kwargs):
    days = list(w.game.phases.order_by("pk").values_list("pk", flat=True))
    return [f"day={d}" for d in days] + [f"as_of={n}" for n in (1, 3, 999)] + ["day=x", "as_of=x", *_pov_one(w, kwargs)]


def _thread_queries(w, kwargs):
    """Quoting a post into the reply form, on every thread; paging and the isolation of one
    author on the game thread, the only one long enough to have pages."""
    if kwargs["pk"] == w.game.game_thread_id:
        return ["quote=2", "page=2", "page=last", f"iso={w.seats['vasya'].user_id}"]
    return ["quote=1"]


def _search_queries(w, kwargs):
    """The marker word written next to the canaries in posts: the results show what is around it."""
    from tests.security.conftest import MARKER

    return [urlencode({"q": MARKER}), urlencode({"q": MARKER, "game": w.game.pk, "sort": "newest"}),
            urlencode({"q": MARKER, "game": w.other.pk})]


ROUTES: dict[str, Route] = {
    "healthz": _r("GET POST"),  # a plain function view: "ok" for any method, reads and writes nothing
    # allauth: forms that POST, and its pages that only show something.
    "account_login": _r("GET POST"),
    "account_logout": _r("GET POST"),
    "account_inactive": _r("GET"),
    "account_signup": _r("GET POST"),
    "account_reauthenticate": _r("GET POST", login=True),
    # Reauthentication by an e-mailed code (django-allauth 65.22): the routes exist whatever the
    # settings say, and answer 403 to everyone signed in, for ACCOUNT_REAUTHENTICATION_METHODS
    # allows the password only (config/settings.py says why; test_reauthentication_by_code_is_off).
    "account_request_reauthentication_code": _r("GET POST", login=True),
    "account_confirm_reauthentication_code": _r("GET POST", login=True),
    "account_email": _r("GET POST", login=True),
    "account_email_verification_sent": _r("GET"),
    "account_change_password": _r("GET POST", login=True),
    "account_set_password": _r("GET POST", login=True),
    "account_reset_password": _r("GET POST"),
    "account_confirm_login_code": _r("GET POST"),
    "account_confirm_email": _r("GET POST", _confirm_key),
    "account_reset_password_from_key_done": _r("GET"),
    "account_reset_password_from_key": _r("GET POST", _reset_key),
    "account_reset_password_done": _r("GET"),
    # accounts
    "accounts:profile_edit": _r("GET POST", login=True),
    "accounts:profile": _r("GET", _users),
    "accounts:language": _r("POST"),
    # coins: a balance's history is its owner's and the staff's; 404 for everybody else
    "coins:balance_mine": _r("GET"),
    "coins:balance": _r("GET", _users),
    # the forum
    "games:index": _r("GET"),
    "games:section": _r("GET", _kinds),
    "games:thread_new": _r("GET POST", _kinds, login=True),
    "games:thread": _r("GET", _threads, _thread_queries),
    "games:thread_reply": _r("POST", _threads),
    "games:thread_preview": _r("POST", _threads),
    "games:thread_moderate": _r("POST", _threads, login=True),
    "games:thread_unread": _r("GET", _threads),
    "games:thread_poll": _r("GET", _threads, lambda w, kwargs: ["after=0"]),
    "games:thread_feed": _r("GET", _threads),
    "games:post": _r("GET", _posts_by_number),
    "games:post_quote": _r("GET", _posts_by_number),
    "games:post_edit": _r("GET POST", _posts_by_pk, login=True),
    "games:post_history": _r("GET", _posts_by_pk),
    "games:post_media": _r("GET", _posts_by_pk),
    "games:post_delete": _r("POST", _posts_by_pk, login=True),
    "games:post_report": _r("GET POST", _posts_by_pk, login=True),
    "games:reports": _r("GET", login=True),
    "games:report_action": _r("POST", _reports, login=True),
    "games:absences": _r("GET POST", login=True),
    "games:dashboard": _r("GET", login=True),
    "games:notifications": _r("GET", login=True),
    "games:notifications_read": _r("POST", login=True),
    "games:notifications_bell": _r("GET"),
    "games:notification_open": _r("GET", _notifications, login=True),
    "games:search": _r("GET", queries=_search_queries),
    "games:leaderboards": _r("GET"),
    "games:leaderboard": _r("GET", _rulesets),
    "games:games": _r("GET"),
    # games
    "games:game_new": _r("GET POST", login=True),
    "games:game": _r("GET", _games, _pov_all),
    "games:game_join": _r("POST", _games, login=True),
    # Automatic games (issue 31): the lobby, its one-click join, a moderator's take-over.
    "games:lobby": _r("GET"),
    "games:lobby_join": _r("POST", _games, login=True),
    "games:autohost_control": _r("POST", _games, login=True),
    "games:standby": _r("POST", _games, login=True),
    "games:game_start": _r("POST", _games, login=True),
    "games:co_gm": _r("POST", _games, login=True),
    "games:role": _r("GET", _games, _pov_all),
    "games:order": _r("POST", _games, login=True),
    "games:replacement_request": _r("POST", _games, login=True),
    "games:archive": _r("GET", _games, _pov_one),
    "games:replay": _r("GET", _games, _pov_one),
    "games:export": _r("GET", _games, _pov_one),
    "games:anonymous": _r("POST", _games, login=True),
    "games:gm_dashboard": _r("GET", _games, _pov_one),
    "games:commitment": _r("GET", _games),
    "games:rating": _r("GET POST", _games),
    "games:gm_action": _r("POST", _games, login=True),
    "games:votes": _r("GET", _games, _vote_queries),
    "games:votes_live": _r("GET", _games),
    "games:votes_correct": _r("POST", _games, login=True),
    "games:votes_post_count": _r("POST", _games, login=True),
    "games:phase_control": _r("POST", _games, login=True),
    "games:vote_options": _r("POST", _games, login=True),
    "games:seat_aliases": _r("POST", _seats, login=True),
    # the cards rule set: 404 for games of other rule sets (the seeded world is a forum game)
    "games:cards_rules": _r("GET"),
    "games:cards": _r("GET", _games, _pov_all),
    "games:deck": _r("GET POST", _games, login=True),
    "games:deck_check": _r("POST", _games, login=True),
    "games:card_input": _r("POST", _games, login=True),
    "games:card_ability": _r("POST", _games, login=True),
    "games:gm_cards": _r("GET", _games, _pov_one),
    "games:game_cards_rules": _r("GET", _games),
    "games:cards_collection": _r("GET POST", _games, login=True),
    "games:communication": _r("POST", _games, login=True),
    # the show rule set: 404 for games of other rule sets; a hero's /fullstatus for every seat of the
    # game and a seat of another game
    "games:show_status": _r("GET", _games, _pov_one),
    "games:show_fullstatus_mine": _r("GET", _games),
    "games:show_fullstatus": _r("GET", _seats_of_game, _pov_one),
    "games:show_act": _r("POST", _games, login=True),
    "games:show_privilege": _r("POST", _games, login=True),
    "games:show_secretary": _r("GET", _games, _pov_all, login=True),
    "games:show_fines": _r("GET POST", _games),
    "games:show_about_mine": _r("GET", _games),
    "games:show_about": _r("GET", _seats_of_game, _pov_one),
    "games:show_results": _r("GET", _games, _pov_one),
    "games:gm_card_effect": _r("POST", _games, login=True),
    # Avatars, served by Django only in development (django.views.static.serve answers any
    # method, and only ever reads a file).
    "^media/(?P<path>(?!posts/).*)$": _r("GET POST", _media),
}


def provider(pattern: Pattern) -> str:
    """Who added a pattern: the distribution (and version) its view comes from, or "the site"."""
    module = getattr(pattern.callback, "view_class", pattern.callback).__module__
    top = module.split(".")[0]
    if top in {"games", "accounts", "coins", "config"}:
        return f"the site ({module})"
    distributions = importlib.metadata.packages_distributions().get(top, [top])
    name = distributions[0]
    try:
        return f"{name} {importlib.metadata.version(name)} ({module})"
    except importlib.metadata.PackageNotFoundError:
        return module


def unknown_patterns() -> list[str]:
    """Patterns of the resolver that ROUTES does not describe, or whose parameters it cannot fill.

    A dependency's new release can add a route (django-allauth 65.22 added
    account_request_reauthentication_code): it is named here with the package that brought it,
    and waits for a decision, mapped in ROUTES with its expected access or switched off in
    settings, instead of failing every sweep with a KeyError."""
    problems = []
    for pattern in all_patterns():
        route = ROUTES.get(pattern.key)
        if route is None:
            problems.append(
                f"{pattern.key} ({pattern.route}), from {provider(pattern)}, is not in "
                "tests/security/urlmap.py ROUTES: map it with its methods and expected access, or "
                "switch it off in config/settings.py (docs/security.md, \"Adding a URL pattern\")"
            )
        elif pattern.params and route.fill is None:
            problems.append(f"{pattern.key} ({pattern.route}) has parameters {pattern.params} and no filler")
    return problems


def stale_routes() -> list[str]:
    keys = {p.key for p in all_patterns()}
    return sorted(set(ROUTES) - keys)


def url_for(pattern: Pattern, kwargs: dict) -> str:
    if pattern.key in ROUTES and not pattern.key.startswith("^"):
        return reverse(pattern.key, kwargs=kwargs or None)
    return "/media/" + kwargs["path"]  # the unnamed media pattern


def expand(world, *, queries: bool = True) -> list[tuple[Pattern, str]]:
    """(pattern, URL) for every pattern and every set of its parameters, with the query variants."""
    out = []
    for pattern in all_patterns():
        route = ROUTES.get(pattern.key)
        if route is None:
            continue  # undecided: test_every_url_pattern_is_known names it (unknown_patterns)
        for kwargs in (route.fill(world) if route.fill else [{}]):
            url = url_for(pattern, kwargs)
            out.append((pattern, url))
            if queries and route.queries is not None:
                out += [(pattern, f"{url}?{query}") for query in route.queries(world, kwargs) if query]
    return out
