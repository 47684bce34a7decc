"""The role page's «Ваша команда» (issue 28, found by the whole show's browser play-through): the
player's own team whose roles he may see — at the end every role is public, and the page listed
every other player as his team."""

from django.urls import reverse

from tests.conftest import client_for


def _team(played, name: str) -> list[str]:
    response = client_for(played.users[name]).get(reverse("games:role", args=[played.game.pk]))
    assert response.status_code == 200
    return [s.user.display_name for s in response.context["team"]]


def test_the_role_pages_team_is_the_players_own_team_when_the_game_is_over(finished_game):
    game = finished_game.game
    assert game.status == game.Status.FINISHED
    seats = list(game.seats.select_related("user").order_by("number"))
    for name in ("Маша", "Глаша"):
        me = next(s for s in seats if s.user.display_name == name)
        own = [s.user.display_name for s in seats if s.faction == me.faction and s.pk != me.pk]
        assert own and _team(finished_game, name) == own
        assert not set(_team(finished_game, name)) & {s.user.display_name for s in seats if s.faction != me.faction}
