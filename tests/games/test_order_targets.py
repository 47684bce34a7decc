"""The role page's order form offers only the targets the rule set would accept (issue 14, the
class of «target lists offer dead players and oneself (refused only on submit)»): the same
check_order that judges the order on submit decides the list."""

from django.urls import reverse

from tests.conftest import client_for
from tests.games.test_club import club, close, seat as club_seat  # noqa: F401  (the club fixture)
from tests.games.test_lifecycle import user_named


def _offered(client, game) -> list[str]:
    page = client.get(reverse("games:role", args=[game.pk]))
    assert page.status_code == 200
    return [s.user.display_name for s in page.context["targets"]]


def test_forum_order_form_offers_neither_oneself_nor_a_player_out_of_play(started):
    """«себя реаниматор защитить не может!» — and checking or shooting oneself is no action; a
    player out of play is no target either."""
    from games.services.moderation import seat_modkill
    from tests.games.test_lifecycle import seat_named

    offered = _offered(client_for(user_named(started, "Вася")), started)  # the recruiter
    assert "Вася" not in offered and len(offered) == 6
    seat_modkill(game=started, seat=seat_named(started, "Фроло"), by=started.gm, reason="тест")
    offered = _offered(client_for(user_named(started, "Вася")), started)
    assert "Фроло" not in offered and len(offered) == 5


def test_forum_thief_may_aim_a_stolen_action_at_himself(started):
    """«Жулик может - на свой страх и риск - применить украденное действие к себе.»"""
    assert "Негодяй" in _offered(client_for(user_named(started, "Негодяй")), started)


def test_club_doctor_may_heal_himself_and_nobody_targets_the_dead(club):
    """«лечить одного и того же человека (в том числе и себя)»; the dead are out of play."""
    close(club)  # night 0 → day 1
    close(club)  # day 1 → night 1 (no vote: nobody leaves)
    club.refresh_from_db()
    doctor = club_seat(club, "Егор")
    assert doctor.role == "doctor"
    offered = _offered(client_for(doctor.user), club)
    assert "Егор" in offered
    commissar = club_seat(club, "Вера")
    assert commissar.role == "commissar" and "Вера" not in _offered(client_for(commissar.user), club)
