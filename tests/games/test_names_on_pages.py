"""Names on the pages of a played game, in Russian, in all four rule sets (issue 29, item 6): the
game page, the game thread (the site's and the GM's posts: results, counts, notices), the letters
to the GM, the vote count, the archive and its GM log, the replay, each player's role page and
notifications, the GM's dashboard and each rule set's own pages (the cards' «Мои карты» and the
GM's cards page, the club's rating, the show's status, «Обо мне» and results).

A scenario is played through the site (games.scenarios, `keep`): the players' genders are
guessed from their names (Вася, Петя: a man; Маша, Глаша: a woman; a name pymorphy3 is not sure
of, such as Саша or Зина's nicknames, is unknown). Every page's own text (the players' posts left
out: they write as they like) is held to tests/games/name_checks.py: no name as written after a
preposition or a verb that governs another case, no word beside a name in the wrong gender (any
gender for an unknown one)."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape
from pathlib import Path

import pytest
import yaml
from django.core.cache import cache
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from games.models import Seat, Thread
from games.services.posting import post_submit
from games.text.names import guess_gender
from tests.conftest import client_for, play_kept
from tests.games import name_checks
from tests.games.show_kept import kept_show
from tests.games.test_lifecycle import seat_named

pytestmark = pytest.mark.django_db

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def site_text(html: str) -> str:
    """A page's text as the site writes it: a player's post body, scripts, styles, form fields'
    values and HTML comments left out; a post of the GM (the results, a count) kept. Blocks
    (paragraphs, cells, items, buttons) are lines: no sentence runs across them."""
    chunks = html.split('<li class="post')
    for i, chunk in enumerate(chunks[1:], start=1):
        head, sep, rest = chunk.partition('<div class="post-body">')
        if sep and 'class="badge gm"' not in head:
            chunks[i] = head + " " + rest[rest.find('<div class="post-actions">'):] if '<div class="post-actions">' in rest \
                else head
    html = '<li class="post'.join(chunks)
    html = re.sub(r"<(script|style|textarea|option)\b.*?</\1>|<!--.*?-->", " ", html, flags=re.S)
    html = re.sub(r"\s+", " ", html)  # the source's line breaks are no sentence's
    html = re.sub(r"</?(?:p|div|li|ul|ol|tr|td|th|dt|dd|dl|h\d|br|button|label|section|article|header|footer|nav|"
                  r"table|thead|tbody|form|select|details|summary|main|aside)\b[^>]*>", "\n", html)
    return re.sub(r"[ \t]+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def pages(game, gm, users) -> dict[str, str]:
    """Every page of the game a reader can open, by a label, as its reader sees it in Russian."""
    readers = {"anonymous": None, "gm": gm, **users}
    seats = list(game.seats.select_related("user"))
    urls = [("game", reverse("games:game", args=[game.pk]), readers),
            ("votes", reverse("games:votes", args=[game.pk]), {"anonymous": None, "gm": gm}),
            ("archive", reverse("games:archive", args=[game.pk]), {"anonymous": None, "gm": gm}),
            ("replay", reverse("games:replay", args=[game.pk]), {"anonymous": None, "gm": gm}),
            ("gm", reverse("games:gm_dashboard", args=[game.pk]), {"gm": gm}),
            ("role", reverse("games:role", args=[game.pk]), users),
            ("notifications", reverse("games:notifications"), {"gm": gm, **users})]
    threads = [game.game_thread, *Thread.objects.filter(game=game).exclude(pk=game.game_thread_id)]
    for thread in threads:
        for page in range(1, thread.post_count // 25 + 2):
            urls.append((f"thread {thread.pk}/{page}", f"{reverse('games:thread', args=[thread.pk])}?page={page}",
                         {"gm": gm}))
    own = {"cards": [("cards", "games:cards", users), ("gm cards", "games:gm_cards", {"gm": gm})],
           "club": [("rating", "games:rating", {"anonymous": None, "gm": gm})],
           "show": [("status", "games:show_status", readers), ("results", "games:show_results", readers),
                    ("about", "games:show_about_mine", users), ("fullstatus", "games:show_fullstatus_mine", users)]}
    for label, name, who in own.get(game.ruleset, ()):
        urls.append((label, reverse(name, args=[game.pk]), who))
    if game.ruleset == "show":
        for seat in seats:
            urls.append((f"about {seat.number}", reverse("games:show_about", args=[game.pk, seat.pk]), {"gm": gm}))
    texts = {}
    for label, url, who in urls:
        for reader_name, reader in who.items():
            response = client_for(reader).get(url, HTTP_ACCEPT_LANGUAGE="ru")
            if response.status_code == 200 and "text/html" in response.get("Content-Type", ""):
                texts[f"{label} as {reader_name}"] = site_text(response.content.decode())
    return texts


def people(game) -> dict[str, str]:
    """Each player's and GM's name -> the gender the site agrees with ("m", "f", "" unknown)."""
    found = {s.user.display_name: s.user.grammatical_gender for s in game.seats.select_related("user")}
    found[game.gm.display_name] = game.gm.grammatical_gender
    return found


def mismatches(game, gm, users) -> list[str]:
    genders = people(game)
    wrong = []
    with translation.override("ru"):
        for label, text in pages(game, gm, users).items():
            for found in name_checks.governed_nominatives(text, list(genders)) + name_checks.disagreements(text, genders):
                spot = re.search(r"[\s:—]*".join(map(re.escape, re.findall(r"\w+", found))), text)
                at = spot.start() if spot else 0
                wrong.append(f"{label}: «{found}» in «…{text[max(0, at - 80):at + 80].strip()}…»")
    return sorted(set(wrong))


def _played(path: Path, tmp_path: Path, phases: int | None = None):
    """The scenario played and kept; with `phases`, only its first ones (the game left running
    there: a re-vote's count with its candidates, a day's count with its wagons)."""
    if phases is not None:
        data = yaml.safe_load(path.read_text("utf-8"))
        data["phases"] = data["phases"][:phases]
        data.pop("expect", None)
        path = tmp_path / path.name
        path.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    played = play_kept(str(path))
    return played.game, played.gm, played.users


@pytest.mark.parametrize(("scenario", "phases"), [
    ("forum/whole_game_for_the_archive.yaml", None),  # checks, a granted check, jail, votes, private messages, a room
    ("forum/whole_game_for_the_archive.yaml", 2),  # a day running: its count
    ("forum/thief_steals.yaml", None),
    ("forum/tie_break_by_gm.yaml", None),
    ("club/revote_between_two.yaml", None),  # «Ничья: переголосование между Анной и Глебом»
    ("club/revote_between_two.yaml", 2),  # the re-vote running: «Переголосование между Анной и Глебом.»
    ("club/fourth_foul_removes.yaml", None),
    ("club/don_takes_one_with_him.yaml", None),
    ("cards/veche-tie-by-overt-name.yaml", None),
    ("cards/a-joker-list-wrong.yaml", None),
    ("cards/d-hero-mark-then-the-days-death.yaml", None),
    ("cards/d-postman-private-to-anyone.yaml", None),
])
def test_every_page_of_a_played_game_inflects_and_agrees(scenario, phases, tmp_path):
    game, gm, users = _played(SCENARIOS / scenario, tmp_path, phases)
    genders = people(game)
    assert {"m", "f"} <= set(genders.values()) or "" in genders.values(), genders
    assert mismatches(game, gm, users) == []


@pytest.mark.parametrize("scenario", ["big-show-masons-win.yaml", "privilege-mole.yaml", "privilege-bouncer.yaml"])
def test_every_page_of_a_show_inflects_and_agrees(scenario, tmp_path):
    game, users, _seats = kept_show(tmp_path, scenario)
    assert mismatches(game, game.gm, {name: user for name, user in users.items()}) == []


def test_the_players_of_the_scenarios_have_every_gender():
    """The pages are read with men, women and players whose gender is unknown."""
    assert [guess_gender(n) for n in ("Вася", "Петя", "Маша", "Глаша", "Саша", "Анна", "Глеб")] == [
        "m", "m", "f", "f", "", "f", "m"]


def test_the_page_check_finds_a_governed_nominative_and_a_disagreement():
    """The check itself: the issue's own examples, on a page's text."""
    text = site_text('<p>Ничья: переголосование между Анна и Глеб.</p><li class="post" id="p1"><div class="post-head">'
                     '</div><div class="post-body">Голосую за Анна</div><div class="post-actions"></div></li>'
                     '<p>Анна: перенёс срок</p>')
    assert "Голосую" not in text  # a player's post is his own words
    assert name_checks.governed_nominatives(text, ["Анна", "Глеб"]) == ["между Анна"]
    assert name_checks.disagreements(text, {"Анна": "f", "Глеб": "m"}) == ["Анна перенёс"]


def test_a_seats_status_agrees_with_its_player_on_the_gm_dashboard_and_the_role_page(started):
    """«Статус: убита» for a woman, «убит» for a man, a noun («гибель») for a player whose gender is
    unknown; the same on the GM's table and on the player's own role page."""
    User.objects.filter(pk=seat_named(started, "Кикимора").user_id).update(gender="f")
    Seat.objects.filter(game=started, user__display_name__in=["Кикимора", "Вася", "Негодяй"]).update(
        status="killed", is_alive=False)
    dashboard = site_text(client_for(started.gm).get(reverse("games:gm_dashboard", args=[started.pk]),
                                                   HTTP_ACCEPT_LANGUAGE="ru").content.decode())
    assert re.search(r"Кикимора\s*\n\s*\S+\s*\n\s*убита", dashboard), dashboard
    assert re.search(r"Вася\s*\n\s*\S+\s*\n\s*убит\b", dashboard)
    assert re.search(r"Негодяй\s*\n\s*\S+\s*\n\s*гибель", dashboard)
    kikimora = seat_named(started, "Кикимора").user
    role = site_text(client_for(kikimora).get(reverse("games:role", args=[started.pk]), HTTP_ACCEPT_LANGUAGE="ru")
                     .content.decode())
    assert "Статус: убита" in role


@pytest.mark.parametrize(("scenario", "phases", "voter", "vote"), [
    ("forum/whole_game_for_the_archive.yaml", 1, "Вася", "[b]В тюрьму Машу[/b]"),
    ("club/revote_between_two.yaml", 1, "Борис", "Голосую за [b]Анну[/b]"),
    ("cards/veche-tie-by-overt-name.yaml", 1, "Вася", "[b]Голосую за Машу[/b] [b]казнь[/b]"),
])
def test_the_count_of_every_rule_set_has_no_space_before_its_colon_nor_a_numbered_empty_line(
        scenario, phases, voter, vote, tmp_path):
    """«Негодяй 4 :» and a numbered «1. Пока никто не голосовал.» (issue 29, item 6), in the forum's,
    the club's and the cards' Veche count (the Show's ballots are its own page)."""
    game, _gm, users = _played(SCENARIOS / scenario, tmp_path, phases)
    url = reverse("games:votes_live", args=[game.pk])
    html = client_for(None).get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Пока никто не голосовал." in html and "<ol" not in html
    post_submit(thread=game.game_thread, author=users[voter], body=vote,
                now=game.current_phase.opened_at + timedelta(minutes=1))
    cache.clear()
    html = client_for(None).get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))
    assert "<ol" in html and " :" not in text and voter in text, text
