"""The finished_game fixture the archive, search and stats tests share."""

from games.models import Game, PrivateMessage, Thread


def test_finished_game_is_over_with_every_kind_of_secret(finished_game):
    game = finished_game.game
    assert game.status == Game.Status.FINISHED and game.winner == "town"
    assert PrivateMessage.objects.filter(post__thread=game.game_thread).count() == 2
    assert game.private_threads.filter(kind=Thread.Kind.ROOM).count() == 1
    assert game.private_threads.get(kind=Thread.Kind.FACTION).post_count == 1
    assert game.phases.filter(orders__isnull=False).exists()
