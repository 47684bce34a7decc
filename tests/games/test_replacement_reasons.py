"""A refused replacement says the true reason (games.services.moderation.seat_replace): a staff
account is not "already playing or hosting", it is staff."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import GameBan, Seat
from games.services import ActionRefused
from games.services.lifecycle import game_set_co_gm
from games.services.moderation import seat_replace
from tests.conftest import make_user


def _vasya(game) -> Seat:
    return game.seats.get(user__display_name="Вася")


def _refusal(game, new_user) -> ActionRefused:
    with pytest.raises(ActionRefused) as refused:
        seat_replace(game=game, seat=_vasya(game), new_user=new_user, by=game.gm)
    assert _vasya(game).user.display_name == "Вася"  # nothing changed
    return refused.value


def test_replacement_says_staff_when_the_new_player_is_a_staff_account(started):
    refused = _refusal(started, make_user("Админ", staff=True))
    assert refused.code == "staff" and "Админ" in str(refused.message)
    assert "already plays" not in str(refused.message)


def test_replacement_says_plays_when_the_new_player_has_a_seat(started):
    refused = _refusal(started, started.seats.get(user__display_name="Фроло").user)
    assert refused.code == "already_in" and "Фроло" in str(refused.message)


def test_replacement_says_hosts_when_the_new_player_is_a_co_gm(started):
    co_gm = make_user("Помощник")
    game_set_co_gm(game=started, by=started.gm, name="Помощник", add=True)
    started.__dict__.pop("_co_gm_ids", None)
    refused = _refusal(started, co_gm)
    assert refused.code == "hosts" and "Помощник" in str(refused.message)


def test_replacement_says_banned_when_the_new_player_is_banned(started):
    banned = make_user("Хулиган")
    GameBan.objects.create(game=started, user=banned, created_at=timezone.now(), created_by=started.gm)
    assert _refusal(started, banned).code == "game_banned"
    site_banned = make_user("Спамер")
    site_banned.banned_until = timezone.now() + timedelta(days=3)
    site_banned.save(update_fields=["banned_until"])
    assert _refusal(started, site_banned).code == "site_banned"
