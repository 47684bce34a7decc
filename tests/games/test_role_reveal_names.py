"""The final role reveal speaks the site's language (issue 29, item 4): a finished game of every rule
set names each seat's role by the rule set's wording («Мирный житель», «Дон», «Путана») — in the
game-over post, on the commitment page, in the archive and in the search results — and no role code
(`citizen`, `don`, `putana`) shows in the visible text. The committed text itself (its codes and salt,
hashed at the start) is unchanged and shown as it is, in its own block, next to the names."""

from __future__ import annotations

import hashlib
import re

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from games.models import Game
from games.rulesets import registry
from games.selectors.commitment import commitment_payload
from games.services.games import game_create, seat_add
from games.services.lifecycle import game_finish
from games.wording import wording_of
from tests.conftest import client_for, make_user

pytestmark = pytest.mark.django_db

# The committed text, shown as committed (codes and salt) for checking: left out of "visible".
_COMMITTED_RE = re.compile(r'<pre id="(?:commitment-)?payload">.*?</pre>', re.DOTALL)


def _visible(html: str) -> str:
    html = _COMMITTED_RE.sub(" ", html)
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.DOTALL)
    html = re.sub(r"<[^>]+>", " ", html)
    return re.sub(r"\s+", " ", html)


def _finished(key: str):
    """A finished game of rule set `key` with one seat per role of its engine's role table."""
    adapter = registry.site(key)
    roles = sorted(adapter.engine.roles)
    gm = make_user(f"Ведущий {key}")
    game = game_create(title=f"Раскрытие {key}", gm=gm, ruleset=key, size=len(roles))
    for i, role in enumerate(roles):
        seat = seat_add(game=game, user=make_user(f"Игрок{i} {key}"))
        seat.role = role
        seat.save(update_fields=["role"])
    seats = list(game.seats.select_related("user"))
    game.commitment_salt = "соль"
    game.commitment = hashlib.sha256(commitment_payload(game, seats).encode("utf-8")).hexdigest()
    game.status = Game.Status.RUNNING
    game.save(update_fields=["commitment_salt", "commitment", "status"])
    game_finish(game=game, winner="none", now=timezone.now())
    game.refresh_from_db()
    return game, roles


def _codes_shown(text: str, roles: list[str]) -> list[str]:
    return [role for role in roles if re.search(rf"(?<![\w-]){re.escape(role)}(?![\w-])", text)]


@pytest.mark.parametrize("key", [a.key for a in registry.adapters() if a.engine is not None])
def test_the_reveal_names_every_role_in_the_sites_language_for_each_rule_set(key):
    game, roles = _finished(key)
    wording = wording_of(key)
    names = [wording.role_label(role) for role in roles]
    spectator = client_for(make_user(f"Зритель {key}"))
    reveal_post = game.game_thread.posts.order_by("-number").first()
    pages = {
        "thread": spectator.get(game.game_thread.get_absolute_url()).content.decode(),
        "archive": spectator.get(reverse("games:archive", args=[game.pk])).content.decode(),
        "commitment": spectator.get(reverse("games:commitment", args=[game.pk])).content.decode(),
        "search": spectator.get(reverse("games:search"), {"q": "Игрок0", "game": game.pk}).content.decode(),
    }
    for where, html in pages.items():
        text = _visible(html)
        assert not _codes_shown(text, roles), (where, _codes_shown(text, roles))
    assert "Игра окончена" in reveal_post.body
    for where in ("thread", "archive", "commitment"):
        text = _visible(pages[where])
        for i, name in enumerate(names):
            assert f"Игрок{i} {key} — {name}" in text, (where, name)
    # The search finds the reveal and reads the role's name there.
    assert "Игра окончена" in _visible(pages["search"]) and names[0] in _visible(pages["search"])
    # The committed text is shown as committed, its hash unchanged.
    payload = commitment_payload(game, list(game.seats.select_related("user")))
    assert hashlib.sha256(payload.encode()).hexdigest() == game.commitment
    assert escape(payload) in pages["commitment"] and escape(payload) in pages["archive"]
