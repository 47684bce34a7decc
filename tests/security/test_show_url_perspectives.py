"""Every URL pattern, every perspective, on a running show (tests/security/show_world.py): every
secret of the show — roles, innate and secret keys, the Secret Knowledge lots, the night choices
and Mason suspicions, the judge's lot, the hidden ballots of the running day vote, the slaves' chat
and the Reptiloids' chat — is seen by exactly those who may see it. The sweep and its judge are
test_url_perspectives.py's."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.security.conftest import GMS, module_world

from games.models import PostMedia
from tests.security.show_world import PERSPECTIVES, SLAVES_MEDIA_BYTES, build_show_world, show_secrets
from tests.security.test_url_perspectives import _judge, sweep

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def show_world(django_db_setup, django_db_blocker):
    """build_show_world() once for the module, rolled back after it (conftest.module_world)."""
    yield from module_world(django_db_blocker, build_show_world)


def test_the_show_world_has_secrets_of_every_kind(show_world):
    secrets, _shared = show_secrets(show_world)
    texts = " ".join(secrets)
    assert any(m.startswith("showballot-") for m in secrets)
    assert len([s for s, whom in secrets.items() if whom == set(GMS)]) >= 3  # night choices, lots
    assert len(texts) > 500


@pytest.fixture(autouse=True)
def _world_media(show_world, settings):
    """The world's media file, written again into this test's media folder (tests/conftest.py gives
    each test its own; the world outlives it)."""
    for media in PostMedia.objects.filter(post__thread__game=show_world.game):
        path = Path(settings.MEDIA_ROOT) / media.file.name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(SLAVES_MEDIA_BYTES)


@pytest.mark.parametrize("who", PERSPECTIVES)
def test_show_secrets_every_url_every_perspective(show_world, who):
    secrets, shared = show_secrets(show_world)
    found, problems = sweep(show_world, who, secrets=secrets, salt=show_world.game.commitment_salt.lower())
    # The GMs read ballots in the ledger, not as the panel's mark; a text several seats share need
    # not be found by each.
    report = problems + _judge(who, found, secrets, salt_allowed=False, not_required=shared)
    assert report == [], "\n".join(report)


@pytest.mark.parametrize("who", ["anonymous", "anya", "kira"])
def test_a_finished_show_is_unsealed_for_everybody(show_world, who):
    """After the show (finished here inside this test's savepoint) its archive is everybody's: every
    event, every /fullstatus, the slaves' and the Reptiloids' chats. The panel's marks (the hero's
    own ballot, his role line) are the running show's: a finished game shows no panel."""
    from django.utils import timezone

    from games.models import Game
    from games.services.lifecycle import game_finish

    secrets, _shared = show_secrets(show_world)
    game = Game.objects.get(pk=show_world.game.pk)
    game_finish(game=game, winner="masons", now=timezone.now())
    show_world.game.status = game.status
    try:
        everybody = set(PERSPECTIVES)
        unsealed = {canary: everybody for canary in secrets}
        found, problems = sweep(show_world, who, secrets=unsealed, salt=game.commitment_salt.lower())
    finally:
        show_world.game.status = Game.Status.RUNNING
    panel_marks = {c for c in secrets if c.startswith(("showballot-", "showhero-"))}
    report = problems + _judge(who, found, unsealed, salt_allowed=True, not_required=panel_marks)
    assert report == [], "\n".join(report)
