"""Response headers by page kind (docs/security.md, "Headers"): every page a logged-in user gets is
`Cache-Control: private, no-store` (the role page, letters, team chats, the GM dashboards, the card
pages, notifications...), a page cache hit included; anonymous public pages are not marked; every
page carries the Content-Security-Policy, and no template has an inline script or handler."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from games.services.posting import post_submit
from tests.conftest import client_for
from tests.games.conftest import forum_game, started  # noqa: F401 (fixtures)
from tests.games.test_lifecycle import user_named

PRIVATE = "private, no-store"


def _secret_urls(game) -> dict[str, str]:
    letter = game.private_threads.filter(kind="gm_chat").first()
    urls = {
        "GM dashboard": reverse("games:gm_dashboard", args=[game.pk]),
        "notifications": reverse("games:notifications"),
        "game page": game.get_absolute_url(),
        "game thread": game.game_thread.get_absolute_url(),
        "vote count": reverse("games:votes", args=[game.pk]),
        "archive preview": reverse("games:archive", args=[game.pk]),
    }
    if letter is not None:
        urls["private thread"] = letter.get_absolute_url()
    return urls


def test_secret_pages_are_private_no_store_when_a_gm_or_player_is_logged_in(started):
    gm = client_for(started.gm)
    for what, url in _secret_urls(started).items():
        response = gm.get(url)
        assert response.status_code == 200, what
        assert response["Cache-Control"] == PRIVATE, what
    player = client_for(user_named(started, "Кикимора"))
    for url in (reverse("games:role", args=[started.pk]), started.game_thread.get_absolute_url()):
        response = player.get(url)
        assert response.status_code == 200 and response["Cache-Control"] == PRIVATE


def test_team_chat_page_is_private_no_store_when_a_member_reads_it(started):
    chats = list(started.private_threads.filter(kind="faction"))
    member = client_for(user_named(started, "Кикимора"))
    seen = [t for t in chats if member.get(t.get_absolute_url()).status_code == 200]
    assert seen, "the mafioso sees at least his team's chat"
    for thread in seen:
        assert member.get(thread.get_absolute_url())["Cache-Control"] == PRIVATE


def test_cards_pages_are_private_no_store_when_logged_in(db):
    from tests.games.test_cards_pages import PLAYERS, _cards_game
    from tests.conftest import make_user

    gm = make_user("Ведущий карт")
    game, users = _cards_game("Карты", gm, PLAYERS)
    player = client_for(users["Вася"])
    for url in (reverse("games:deck", args=[game.pk]), reverse("games:cards", args=[game.pk])):
        response = player.get(url)
        assert response.status_code == 200 and response["Cache-Control"] == PRIVATE, url
    response = client_for(gm).get(reverse("games:gm_cards", args=[game.pk]))
    assert response.status_code == 200 and response["Cache-Control"] == PRIVATE


def test_anonymous_public_page_is_not_marked_private_when_nobody_is_logged_in(started):
    for url in (reverse("games:index"), started.game_thread.get_absolute_url(), started.get_absolute_url()):
        response = client_for(None).get(url)
        assert response.status_code == 200
        assert "no-store" not in response.get("Cache-Control", "") and "private" not in response.get("Cache-Control", "")


def test_thread_page_from_the_page_cache_is_private_no_store_when_served_again(started):
    from games.caching import pagecache

    post_submit(thread=started.game_thread, author=user_named(started, "Вася"), body="Привет")
    reader = client_for(user_named(started, "Фроло"))
    url = started.game_thread.get_absolute_url()
    reader.get(url)  # sets the CSRF cookie
    first = reader.get(url)
    hits = []
    original = pagecache.page_lookup

    def spy(request, found):
        response = original(request, found)
        hits.append(response is not None)
        return response

    pagecache.page_lookup = spy
    try:
        again = reader.get(url)
    finally:
        pagecache.page_lookup = original
    assert hits == [True], "the second read is a page cache hit"
    assert first["Cache-Control"] == PRIVATE and again["Cache-Control"] == PRIVATE
    assert again.has_header("Content-Security-Policy")


@pytest.mark.parametrize("who", ["anonymous", "gm"])
def test_every_page_has_the_content_security_policy_when_served(started, who):
    client = client_for(started.gm if who == "gm" else None)
    for url in (reverse("games:index"), started.game_thread.get_absolute_url(), reverse("account_login")):
        policy = client.get(url)["Content-Security-Policy"]
        directives = dict(part.strip().split(" ", 1) for part in policy.split(";") if part.strip())
        assert directives["script-src"] == "'self'"
        assert directives["default-src"] == "'self'"
        assert directives["style-src"] == "'self'"
        assert "unsafe-inline" not in directives["script-src"] and "unsafe-eval" not in policy
        assert directives["object-src"] == "'none'" and directives["frame-ancestors"] == "'none'"


def _template_files():
    roots = [Path(settings.BASE_DIR) / "templates", Path(settings.BASE_DIR) / "games" / "templates",
             Path(settings.BASE_DIR) / "accounts" / "templates"]
    return [path for root in roots if root.exists() for path in root.rglob("*.html")]


def test_templates_have_no_inline_script_or_event_handler_when_read():
    inline_script = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I)
    handler = re.compile(r"<[a-z][^>]*\son[a-z]+\s*=", re.I)
    style_element = re.compile(r"<style[\s>]", re.I)
    found = []
    for path in _template_files():
        text = path.read_text(encoding="utf-8")
        for pattern in (inline_script, handler, style_element):
            found += [f"{path.name}: {m.group(0)[:60]}" for m in pattern.finditer(text)]
    assert found == []
