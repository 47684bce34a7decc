"""The Змеёныш's turn on the site (issue 20; docs/rulesets/show.md, "Part 3 on the site"): when
the engine turns him into a Reptiloid, the stored seat follows (games.services.resolution's
_seats_follow), so the Reptiloids' chat, the role page and the team's events are his from then on,
and everyone reads the public notice."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse

from games import permissions
from games.models import Game, GameEvent, Post, Thread
from games.rulesets.show.engine.roles import REPTILOID, ROLES
from games.scenarios import play
from games.services import ActionRefused
from games.services.posting import post_submit
from tests.conftest import client_for

pytestmark = pytest.mark.django_db

SCENARIO = Path(__file__).resolve().parents[1] / "scenarios" / "show" / "privilege-snakelet-turns.yaml"
REPTILOIDS = ROLES[REPTILOID].faction


def _played(tmp_path, last_phase: str):
    """The scenario «privilege-snakelet-turns» kept, played up to `last_phase` included."""
    text = SCENARIO.read_text(encoding="utf-8")
    if last_phase == "revote 1":
        text = text[:text.index("  - phase: night 1")]
    path = tmp_path / "snakelet.yaml"
    path.write_text(text, encoding="utf-8")
    report = play(str(path), keep=True)
    assert report.ok, [p.diffs for p in report.phases]
    game = Game.objects.get(title="Scenario: snakelet")
    seats = {s.user.display_name: s for s in game.seats.select_related("user")}
    return game, seats


def _team_line(page: str) -> str:
    found = re.search(r"<p>[^<]*(Ваша команда|Your team)[^\n]*</p>", page)
    return found.group(0) if found else ""


def _role_lines(page: str) -> str:
    return "\n".join(line for line in page.splitlines() if "role-name" in line or "команда" in line.lower())


def test_the_turned_snakelets_seat_is_a_reptiloid_and_reads_the_reptiloids_chat(tmp_path):
    """«Если и как только все Рептилоиды оказываются в рабстве, Змеёныш превращается в Рептилоида.
    Все получают об этом публичное уведомление.»"""
    game, seats = _played(tmp_path, "revote 1")
    anya, borya = seats["Аня"], seats["Боря"]
    assert (anya.role, anya.faction) == (REPTILOID, REPTILOIDS)
    assert (borya.role, borya.faction) == ("mason", ROLES["mason"].faction)
    chat = Thread.objects.get(game=game, kind=Thread.Kind.FACTION, faction=REPTILOIDS)
    assert permissions.can_see_thread(anya.user, chat)
    assert not permissions.can_see_thread(borya.user, chat)
    # he talks there as a Reptiloid (he is free: the slaves' chat is not his)
    post_submit(thread=chat, author=anya.user, body="Теперь я с вами")
    assert Post.objects.filter(thread=chat, author=anya.user).exists()
    with pytest.raises(ActionRefused):
        post_submit(thread=chat, author=borya.user, body="Я тоже")
    # the role page names his new role and team, and shows the enslaved Reptiloid as his partner
    page = client_for(anya.user).get(reverse("games:role", args=[game.pk])).content.decode()
    assert re.search(r'<p class="role-name">\s*Рептилоид\s*</p>', page), _role_lines(page)
    assert re.search(r"<strong>Зина</strong>", _team_line(page)), _role_lines(page)
    masons_page = client_for(borya.user).get(reverse("games:role", args=[game.pk])).content.decode()
    assert re.search(r'<p class="role-name">\s*Масон\s*</p>', masons_page), _role_lines(masons_page)
    assert "Зина" not in _team_line(masons_page) and "Аня" not in _team_line(masons_page)
    # the public notice, in the thread (without his name: his role was not revealed)
    notice = "Змеёныш превратился в Рептилоида."
    assert Post.objects.filter(thread=game.game_thread, body__contains=notice).exists()
    assert not Post.objects.filter(thread=game.game_thread, body__contains="Змеёныш Аня").exists()


def test_the_turned_snakelet_reads_the_reptiloids_events_from_then_on(tmp_path):
    """«Рептилоиды знают друг друга со старта»: at his turn the Reptiloids' team event names him
    beside them; it is his to read (his seat's team is theirs now), not a Mason's."""
    game, seats = _played(tmp_path, "night 1")
    anya, borya = seats["Аня"], seats["Боря"]
    team = f"faction:{REPTILOIDS}"
    assert team in permissions.event_audiences(anya.user, game)
    assert team not in permissions.event_audiences(borya.user, game)
    revote = game.phases.get(kind="revote", number=1)
    (told,) = GameEvent.objects.filter(game=game, phase=revote, kind="team", audience=team)
    assert [m["name"] for m in told.data["members"]] == ["Аня", "Зина"]
    assert told in permissions.filter_visible_events(anya.user, game, GameEvent.objects.all())
    assert told not in permissions.filter_visible_events(borya.user, game, GameEvent.objects.all())
    line = "Рептилоиды знают друг друга: Аня и Зина."
    assert line in client_for(anya.user).get(reverse("games:role", args=[game.pk])).content.decode()
    assert line not in client_for(borya.user).get(reverse("games:role", args=[game.pk])).content.decode()
    # and his night choice was the Reptiloids' (the scenario's night 1: Боря enslaved by him)
    assert game.seats.get(pk=borya.pk).status == "enslaved"


def test_the_commitment_still_matches_after_the_turn_and_shows_the_turn_beside_it(tmp_path):
    """Issue 28, item 1: «Если все Рептилоиды оказались в рабстве, а свободных героев больше
    двух, то Змеёныш превращается в Рептилоида» changes a role during the show; the reveal is the
    deal exactly as committed (Аня a Mason), so the commitment page, the archive and the game
    thread's last post all say it matches, and the turn is shown beside it as a change."""
    import hashlib

    from games.selectors.commitment import commitment_payload

    path = Path(__file__).resolve().parents[1] / "scenarios" / "show" / "privilege-snakelet-burdens-and-bank.yaml"
    report = play(str(path), keep=True)
    assert report.ok, (report.game_diffs, [p.diffs for p in report.phases])
    game = Game.objects.get(title="Scenario: privilege-snakelet-burdens-and-bank")
    seats = list(game.seats.select_related("user"))
    anya = next(s for s in seats if s.user.display_name == "Аня")
    assert (anya.dealt_role, anya.role) == ("mason", REPTILOID)  # the rule changed the stored role
    payload = commitment_payload(game, seats)
    assert hashlib.sha256(payload.encode()).hexdigest() == game.commitment
    assert f'[{anya.number},"Аня","mason"]' in payload
    verdicts = {reverse("games:commitment", args=[game.pk]): '<strong class="ok">✔',
                reverse("games:archive", args=[game.pk]): '<strong class="ok" id="commitment-site-verdict">'}
    for url, verdict in verdicts.items():
        page = client_for(None).get(url).content.decode()
        assert verdict in page, url
        changes = page[page.index('id="commitment-changes"'):]
        assert f'<li data-seat="{anya.number}">№{anya.number} Аня: при раздаче — Масон, теперь — Рептилоид</li>' in changes
    # The game-over post names the deal in words (Аня a Масон) with the hash, and the turn beside it.
    last = game.game_thread.posts.order_by("-number").first().body
    assert f"{anya.number}. Аня — Масон" in last and game.commitment in last
    changes = last[last.index("Роли, изменённые"):] if "Роли, изменённые" in last else last.split(game.commitment)[1]
    assert "Масон" in changes and "Рептилоид" in changes
