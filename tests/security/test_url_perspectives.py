"""Every URL pattern of the site, as every perspective, on a game full of canaries (issue 8).

The patterns come from the resolver (tests/security/urlmap.py); each is visited with GET
(follow=False) with every set of parameters its filler gives (every thread of the game, private
ones included, every post, seat, notification, report, rule set, section...) and the query variants
(the GM's ?pov= as each seat, the vote count's ?day= and ?as_of=, search). Each response (HTML,
JSON, Atom, plain text, redirects' Location) is searched for the canaries of conftest.py, and what
each perspective finds is compared with what it may see, both ways: a canary found by a
perspective not allowed to see it is a leak; one not found by a perspective that should see it
means the canary, the filler or the page is broken (so the test cannot pass by visiting nothing).

tests/games/test_spectators.py is the smaller hand-written version of this for the pages of one
game; this one is exhaustive by construction.
"""

from __future__ import annotations

import html
from collections import defaultdict

import pytest
from django.utils import translation

from games.wording import wording_of
from tests.security import urlmap
from tests.security.conftest import (
    FINISHED_ALLOWED,
    FINISHED_NOT_REQUIRED,
    GMS,
    PERSPECTIVES,
    ROLE_NAMES,
    RUNNING_ALLOWED,
    RUNNING_NOT_REQUIRED,
)

pytestmark = pytest.mark.django_db

# Pages that explain the rules name every role of the setup without saying who holds it: the
# role table of the new-game form, the cards rule set's collection page (each secret role's
# colours and deck limits). (The rule texts of the role page are stripped, see _rules_texts.)
ROLE_NAMES_NOT_CHECKED_ON = {"games:game_new", "games:cards_rules"}
SALT = "salt"  # the key of the commitment salt in the reports


def _rules_texts() -> list[str]:
    """The role help and team goals as the Russian UI writes them: they name roles generically
    ("if the recruiter checks you"), so they are cut out before the role names are looked for."""
    with translation.override("ru"):
        rulesets = [wording_of(key) for key in ("forum", "club")]
        texts = [str(t) for wording in rulesets for t in wording.role_help.values()]
        texts += [str(t) for wording in rulesets for t in wording.faction_goals.values()]
    return sorted((t.lower() for t in texts), key=len, reverse=True)


def sweep(world, who: str, *, secrets: dict[str, set[str]], salt: str, scrub=None
          ) -> tuple[dict[str, list[str]], list[str]]:
    """GET every URL as `who`. Returns ({canary: URLs where it was found}, problems): a problem is a
    server error, or a non-GM shown another player's point of view. `scrub(text)`, if given, cuts
    what may legitimately hold a canary out of each (lower-cased) response first."""
    client = world.client(who)
    rules = _rules_texts()
    found: dict[str, list[str]] = defaultdict(list)
    problems = []
    for pattern, url in urlmap.expand(world):
        response = client.get(url, follow=False)
        if response.status_code >= 500:
            problems.append(f"{url}: {response.status_code}")
            continue
        body = b"".join(response.streaming_content) if response.streaming else response.content
        text = (body.decode("utf-8", "replace") + " " + response.get("Location", "")).lower()
        if "&#" in text:  # a numeric character reference could spell a canary
            text = html.unescape(text)
        if scrub is not None:
            text = scrub(text)
        if "pov-banner" in text and who not in GMS:
            problems.append(f"{url}: a non-GM sees the page as another player")
        for canary in secrets:
            if canary in ROLE_NAMES:
                continue
            if canary in text:
                found[canary].append(url)
        if salt in text:
            found[SALT].append(url)
        if pattern.key not in ROLE_NAMES_NOT_CHECKED_ON and any(role in text for role in ROLE_NAMES):
            for rule_text in rules:
                text = text.replace(rule_text, " ")
            for role in ROLE_NAMES:
                if role in text:
                    found[role].append(url)
    return found, problems


def _judge(who: str, found: dict[str, list[str]], secrets: dict[str, set[str]], *, salt_allowed: bool,
           not_required: set[str] = frozenset()) -> list[str]:
    report = []
    for canary, allowed in secrets.items():
        if canary in found and who not in allowed:
            report.append(f"LEAK {canary!r} to {who} at {sorted(set(found[canary]))[:8]}")
        if canary not in found and who in allowed and canary not in not_required:
            report.append(f"MISSING {canary!r}: {who} should see it somewhere and does not")
    if SALT in found and not salt_allowed:
        report.append(f"LEAK the commitment salt to {who} at {found[SALT][:8]}")
    return report


def test_every_url_pattern_is_known():
    """A new URL pattern fails here until tests/security/urlmap.py knows its methods and how to
    fill its parameters (docs/security.md, "Adding a URL pattern")."""
    unknown = urlmap.unknown_patterns()
    assert unknown == [], "URL patterns waiting for a decision:\n" + "\n".join(unknown)
    assert urlmap.stale_routes() == [], "ROUTES names patterns the resolver no longer has"


def test_an_unknown_pattern_is_reported(monkeypatch):
    monkeypatch.delitem(urlmap.ROUTES, "games:seat_aliases")
    monkeypatch.setitem(urlmap.ROUTES, "games:thread", urlmap.Route(frozenset({"GET"})))  # no filler
    problems = "\n".join(urlmap.unknown_patterns())
    assert "games:seat_aliases" in problems and "games:thread " in problems


def test_a_route_a_dependency_adds_is_named_with_its_package(monkeypatch, shared_world):
    """A dependency's release that adds a route (django-allauth 65.22's reauthentication by code)
    waits for a decision: the one test names the route and the package that brought it, and the
    sweeps go on over every known route instead of failing with a KeyError."""
    monkeypatch.delitem(urlmap.ROUTES, "account_request_reauthentication_code")
    problems = urlmap.unknown_patterns()
    assert len(problems) == 1
    assert problems[0].startswith("account_request_reauthentication_code (accounts/reauthenticate/code/)")
    assert "from django-allauth 65." in problems[0] and "allauth.account.views" in problems[0]
    urls = [url for _pattern, url in urlmap.expand(shared_world, queries=False)]
    assert "/accounts/reauthenticate/code/" not in urls and "/accounts/login/" in urls


@pytest.mark.parametrize("who", PERSPECTIVES)
def test_running_game_every_url_every_perspective(shared_world, who):
    world = shared_world
    found, problems = sweep(world, who, secrets=RUNNING_ALLOWED, salt=world.game.commitment_salt.lower())
    report = problems + _judge(who, found, RUNNING_ALLOWED, salt_allowed=False, not_required=RUNNING_NOT_REQUIRED)
    assert report == [], "\n".join(report)


@pytest.mark.parametrize("who", ["anonymous", "spectator", "john", "other_gm"])
def test_finished_game_is_unsealed_for_everybody(shared_world, who):
    """After the game (finished here as the last close finishes it, inside this test's savepoint)
    every game secret is everybody's; moderation stays with the moderators, what players wrote
    only to the GMs stays with the GMs, and the other game still runs."""
    from django.utils import timezone

    from games.models import Game
    from games.services.lifecycle import game_finish

    world = shared_world
    game = Game.objects.get(pk=world.game.pk)
    game_finish(game=game, winner="town", now=timezone.now())
    world.game.status = game.status
    try:
        found, problems = sweep(world, who, secrets=FINISHED_ALLOWED, salt=game.commitment_salt.lower())
    finally:
        world.game.status = Game.Status.RUNNING
    report = problems + _judge(who, found, FINISHED_ALLOWED, salt_allowed=True, not_required=FINISHED_NOT_REQUIRED)
    assert SALT in found, "the finished game does not reveal its commitment salt anywhere"
    assert report == [], "\n".join(report)
