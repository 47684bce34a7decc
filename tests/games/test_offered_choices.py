"""Lists offer only what their rule accepts (issue 29, item 8): the club's vote buttons leave out
the voter himself («Нельзя голосовать против себя»); the GM's lists for a tie-break, replacing an
order and correcting a vote leave out the dead and the jailed. Each test sends every offered
choice (accepted) and every choice left out (refused): the list and the check are one rule."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from django.contrib.messages import constants as levels
from django.urls import reverse

from games.models import Order, VoteRecord
from games.services.posting import post_submit
from games.services.resolution import phase_close
from tests.conftest import client_for
from tests.games.test_club import club, seat  # noqa: F401 - the club fixture
from tests.games.test_lifecycle import _day_one, seat_named, user_named


def _select(page: str, form_marker: str, name: str) -> list[int]:
    """The seat ids a select of the form holding `form_marker` offers (the empty choice left out)."""
    for form in re.findall(r"<form.*?</form>", page, re.S):
        if form_marker in form:
            found = re.search(r'<select name="%s"[^>]*>(.*?)</select>' % name, form, re.S)
            assert found, (form_marker, name)
            return [int(v) for v in re.findall(r'<option value="(\d+)"', found.group(1))]
    raise AssertionError(f"no form with {form_marker}")


def _errors(response) -> list[str]:
    return [str(m) for m in response.wsgi_request._messages if m.level >= levels.ERROR]


def _gm_post(game, url: str, data: dict) -> list[str]:
    """The errors a GM's POST was answered with (a new session each: no message left over)."""
    return _errors(client_for(game.gm).post(url, data))


# --- The club's vote buttons -------------------------------------------------------------------
def _vote_buttons(page: str) -> list[str]:
    block = re.search(r'<div class="vote-button">(.*?)</div>', page, re.S)
    return [html.unescape(text) for text in re.findall(r'data-insert="([^"]*)"', block.group(1))] if block else []


def test_the_club_vote_buttons_offer_every_player_but_oneself_and_each_is_counted(club):  # noqa: F811
    """«Нельзя голосовать против себя»: the buttons are the engine's check_vote for this voter."""
    phase = club.current_phase
    phase_close(phase_id=phase.pk, now=phase.deadline_at)  # night 0 -> day 1
    club.refresh_from_db()
    voter = seat(club, "Анна")
    page = client_for(voter.user).get(club.game_thread.get_absolute_url()).content.decode()
    buttons = _vote_buttons(page)
    assert buttons and not any("Анна" in text for text in buttons)
    now = club.current_phase.opened_at
    named = set()
    for index, text in enumerate(buttons):
        post = post_submit(thread=club.game_thread, author=voter.user, body=text, now=now + timedelta(minutes=index + 1))
        record = VoteRecord.objects.get(post=post)
        assert record.valid, (text, record.reason)
        named.add(record.target_id)
    # Every player at the table but the voter himself (day 1: nobody has left it yet).
    assert named == set(club.seats.exclude(pk=voter.pk).values_list("pk", flat=True))
    # And the one left out is refused by the same rule.
    post = post_submit(thread=club.game_thread, author=voter.user, body="[b]ГОЛОС: Анна[/b]",
                       now=now + timedelta(minutes=30))
    assert not VoteRecord.objects.get(post=post).valid


# --- The GM's lists, on a forum day with a jailed and a dead player -------------------------------
@pytest.fixture
def day_two(started):
    """Day 2: Негодяй jailed and Фроло killed on day 1."""
    _day_one(started)
    phase = started.current_phase
    phase_close(phase_id=phase.pk, now=phase.deadline_at)
    started.refresh_from_db()
    out = {seat_named(started, "Негодяй").pk, seat_named(started, "Фроло").pk}
    assert not any(s.status == "active" for s in started.seats.filter(pk__in=out))
    return started


def test_the_tie_break_offers_the_players_the_vote_may_name_and_refuses_the_others(day_two):
    game = day_two
    gm = client_for(game.gm)
    page = gm.get(reverse("games:gm_dashboard", args=[game.pk])).content.decode()
    offered = _select(page, 'value="tie_break"', "seat")
    everyone = set(game.seats.values_list("pk", flat=True))
    assert set(offered) == everyone - {seat_named(game, "Негодяй").pk, seat_named(game, "Фроло").pk}
    url = reverse("games:gm_action", args=[game.pk])
    for pk in offered:
        assert not _gm_post(game, url, {"action": "tie_break", "seat": pk}), pk
        game.current_phase.refresh_from_db()
        assert game.current_phase.gm_decisions["tie_break"] == pk
    for pk in everyone - set(offered):
        assert _gm_post(game, url, {"action": "tie_break", "seat": pk}), pk
        game.current_phase.refresh_from_db()
        assert game.current_phase.gm_decisions["tie_break"] != pk


def test_replacing_an_order_offers_players_and_targets_some_order_takes(day_two):
    game = day_two
    gm = client_for(game.gm)
    page = gm.get(reverse("games:gm_dashboard", args=[game.pk])).content.decode()
    marker = 'value="override"'
    seats, targets = _select(page, marker, "seat"), _select(page, marker, "target")
    out = {seat_named(game, "Негодяй").pk, seat_named(game, "Фроло").pk}
    assert seats and targets and not out & set(seats) and not out & set(targets)
    actions = re.findall(r'<option value="([a-z_]+)"', re.search(
        r'<select name="order_action"[^>]*>(.*?)</select>', page, re.S).group(1))
    url = reverse("games:gm_action", args=[game.pk])
    # Each offered target is taken by some offered player's action; each offered player has one.
    taken_targets, acting = set(), set()
    for actor in seats:
        for action in actions:
            for target in targets:
                if target in taken_targets and actor in acting:
                    continue
                if not _gm_post(game, url, {"action": "override", "seat": actor, "order_action": action,
                                            "target": target}):
                    taken_targets.add(target)
                    acting.add(actor)
    assert taken_targets == set(targets) and acting == set(seats)
    # A player out of play is refused whatever the order, and is no target.
    for pk in out:
        for action in actions:
            assert _gm_post(game, url, {"action": "override", "seat": pk, "order_action": action,
                                         "target": targets[0]})
            assert _gm_post(game, url, {"action": "override", "seat": seats[0], "order_action": action,
                                         "target": pk})
    today = Order.objects.filter(phase=game.current_phase, valid=True)
    assert today.exists() and not today.filter(actor_id__in=out).exists() and not today.filter(target_id__in=out).exists()


def test_a_vote_correction_offers_the_players_that_day_s_vote_may_name(day_two):
    game = day_two
    vasya = user_named(game, "Вася")
    post = post_submit(thread=game.game_thread, author=vasya, body="[b]В тюрьму Кикимору[/b]",
                       now=game.current_phase.opened_at + timedelta(minutes=1))
    gm = client_for(game.gm)
    page = gm.get(reverse("games:votes", args=[game.pk])).content.decode()
    offered = _select(page, f'name="post" value="{post.pk}"', "target")
    out = {seat_named(game, "Негодяй").pk, seat_named(game, "Фроло").pk}
    assert set(offered) == set(game.seats.values_list("pk", flat=True)) - out
    url = reverse("games:votes_correct", args=[game.pk])
    for pk in offered:
        assert not _gm_post(game, url, {"post": post.pk, "kind": "vote", "target": pk}), pk
        assert VoteRecord.objects.filter(post=post, source="gm", target_id=pk).exists()
    for pk in out:
        assert _gm_post(game, url, {"post": post.pk, "kind": "vote", "target": pk}), pk
        assert not VoteRecord.objects.filter(post=post, source="gm", target_id=pk).exists()
