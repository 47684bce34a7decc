"""Reads of the automatic games (issue 31): the lobby's setups with the game each keeps in sign-ups."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Prefetch

from games.models import AutoSetup, Game, Standby

# The username of the account the site hosts its automatic games as (games.services.autohost.site_host).
HOST_USERNAME = "site-host"


def hosted_by_site(game: Game) -> bool:
    """An automatic game that no moderator has taken over (its GM is the site's host account)."""
    return game.automatic and game.gm.username == HOST_USERNAME


@dataclass(frozen=True)
class LobbyRow:
    setup: AutoSetup
    game: Game | None  # the setup's game in sign-ups (None until the sweep opens one)
    seated: int
    joined: bool  # the viewer sits in it

    @property
    def places_left(self) -> int:
        return max((self.game.size if self.game else self.setup.size) - self.seated, 0)


def lobby_rows(user) -> list[LobbyRow]:
    """Every active setup, in title order, with its open game, how many sit in it, and whether the
    viewer does. Three queries whatever the number of setups."""
    open_games = Game.objects.filter(status=Game.Status.SIGNUPS).annotate(seated=Count("seats")).order_by("pk")
    setups = list(AutoSetup.objects.filter(active=True).prefetch_related(
        Prefetch("games", queryset=open_games, to_attr="open_games")))
    mine: set[int] = set()
    if user.is_authenticated:
        mine = set(Game.objects.filter(setup__in=setups, status=Game.Status.SIGNUPS, seats__user=user)
                   .values_list("pk", flat=True))
    rows = []
    for setup in setups:
        game = setup.open_games[0] if setup.open_games else None
        rows.append(LobbyRow(setup=setup, game=game, seated=game.seated if game else 0,
                             joined=game is not None and game.pk in mine))
    return rows


def standby_offer(game: Game, user) -> dict | None:
    """What the game page offers a signed-in user who does not play an automatic game that is
    running or full: to stand by ({"standing": False}) or to stop ({"standing": True}, with his
    place in the queue). None when nothing is offered."""
    if not game.automatic or not user.is_authenticated or game.status == Game.Status.FINISHED:
        return None
    if user.is_staff or game.gm_id == user.pk or game.seats.filter(user=user).exists():
        return None
    if game.status == Game.Status.SIGNUPS and game.seats.count() < game.size:
        return None  # the table has room: sign up instead
    queue = list(Standby.objects.filter(game=game).order_by("created_at", "pk").values_list("user_id", flat=True))
    if user.pk in queue:
        return {"standing": True, "place": queue.index(user.pk) + 1, "queue": len(queue)}
    return {"standing": False, "queue": len(queue)}
