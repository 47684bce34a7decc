"""Every URL pattern, every perspective, on a running show with all eleven privileges in play
(tests/security/show_privileges_world.py; issue 20, "Done when": «The security run covers every
privilege as a secret (the holder, the GM, and everyone after the end only) and the Говорун's true
authorship (GM and archive only)»). The sweep and its judge are test_url_perspectives.py's; the
stunned's silence is a posting test (the last ones here), not a sweep."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.models import Game, Post
from games.rulesets.show.privileges import services as privs
from games.rulesets.show.engine.privilege_keys import PRIVILEGES
from games.services import ActionRefused
from games.services.posting import post_submit
from tests.conftest import client_for
from tests.security.conftest import GMS, module_world
from tests.security.show_privileges_world import (
    MOLE,
    MOLE_ROLE,
    PERSPECTIVES,
    S_FAKE,
    TALKER,
    build_show_privileges_world,
    finished,
    privilege_secrets,
    true_author_marks,
)
from tests.security.show_world import _close
from tests.security.test_url_perspectives import _judge, sweep

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def priv_world(django_db_setup, django_db_blocker):
    """build_show_privileges_world() once for the module, rolled back after it (conftest.module_world)."""
    yield from module_world(django_db_blocker, build_show_privileges_world)


def test_the_world_holds_every_privilege_and_each_is_a_secret(priv_world):
    secrets, _shared = privilege_secrets(priv_world)
    held = {m.rsplit("-", 1)[1] for m in secrets if m.startswith("showpriv-")}
    assert held == set(PRIVILEGES)
    assert all(whom - GMS and len(whom - GMS) <= 1 for m, whom in secrets.items()
               if m.startswith("showpriv-") and not m.endswith(("-authority", "-hare", "-snakelet")))
    assert len([m for m in secrets if m.startswith("showsec-")]) == 3
    marks, _not_required = true_author_marks(priv_world)
    assert all(secrets[m] == set(GMS) for m in marks)


@pytest.mark.parametrize("who", PERSPECTIVES)
def test_privilege_secrets_every_url_every_perspective(priv_world, who):
    secrets, shared = privilege_secrets(priv_world)
    found, problems = sweep(priv_world, who, secrets=secrets, salt=priv_world.game.commitment_salt.lower())
    report = problems + _judge(who, found, secrets, salt_allowed=False, not_required=shared)
    assert report == [], "\n".join(report)


def test_the_fake_post_is_everybodys_under_the_name_it_is_signed_with(priv_world):
    """The post itself is public: each perspective reads it, shown as Гоша's to all but the GMs."""
    canary = {S_FAKE: set(PERSPECTIVES)}
    for who in ("anonymous", "gosha", "gm"):
        found, problems = sweep(priv_world, who, secrets=canary, salt="-")
        assert problems + _judge(who, found, canary, salt_allowed=True) == []


def _public_role_words(text: str) -> str:
    """What names the Крот's role word without telling him his own: a slave's owners («раб
    рептилоидов», public) and a public key about another hero («не Рептилоид»)."""
    return re.sub(r"раб\w* рептилоид\w*|не[\s-]+рептилоид\w*", " ", text)


@pytest.mark.parametrize("who", [MOLE, "gm"])
def test_the_moles_role_is_on_no_page_he_sees_while_the_show_runs(priv_world, who):
    """«Крот не знает свою Роль и должен выяснить её в ходе Шоу»: his role (a Reptiloid) is on no page
    the Крот reads — his panel, his role page, his /fullstatus, his events, the thread — once the
    public mentions of the Reptiloids as owners and keys are cut out; the GM (the positive control:
    the cutting leaves a role stated) finds it."""
    role = {MOLE_ROLE: set(GMS)}
    found, problems = sweep(priv_world, who, secrets=role, salt="-", scrub=_public_role_words)
    # the new-game form's role table names every role of the rule set (as ROLE_NAMES_NOT_CHECKED_ON)
    found[MOLE_ROLE] = [url for url in found.get(MOLE_ROLE, ()) if url != reverse("games:game_new")]
    found = {canary: urls for canary, urls in found.items() if urls}
    assert problems + _judge(who, found, role, salt_allowed=True) == []
    if who == "gm":
        mole = priv_world.seats[MOLE].pk
        assert f"/show/fullstatus/{mole}/" in " ".join(found[MOLE_ROLE])


@pytest.mark.parametrize("who", ["anonymous", "gosha", MOLE])
def test_a_finished_privileged_show_is_unsealed_for_everybody(priv_world, who):
    """After the show its privileges (every hero's /fullstatus), the Говорун's true authorship (the
    thread names her as the post's author, «shown as Гоша») and every event are everybody's. The
    panel's marks (the Секретарь's live view, the Хакер's catch, the hero's own ballot and role line)
    are the running show's: a finished game shows no panel."""
    secrets, shared = privilege_secrets(priv_world)
    game = finished(priv_world)
    priv_world.game.status = game.status
    try:
        unsealed = {canary: set(PERSPECTIVES) for canary in secrets}
        found, problems = sweep(priv_world, who, secrets=unsealed, salt=game.commitment_salt.lower())
    finally:
        priv_world.game.status = Game.Status.RUNNING
    panel_marks = {c for c in secrets if c.startswith(("showballot-", "showhero-", "showsec-", "showhack-"))}
    report = problems + _judge(who, found, unsealed, salt_allowed=True, not_required=panel_marks | shared)
    assert report == [], "\n".join(report)
    assert any(c.startswith("showpriv-") for c in found) and any(c in found for c in true_author_marks(priv_world)[0])


# --- The stunned's silence (a posting test) -------------------------------------------------------
def _to_night(world) -> Game:
    """The world's show to its second night, inside the calling test's savepoint: day 2's ballots
    close it (a re-vote, «Выбор Союзника» has been), the GM's close at each deadline."""
    game = Game.objects.get(pk=world.game.pk)
    for _ in range(6):
        if game.current_phase.kind == "night":
            break
        _close(game)
    assert game.current_phase.kind == "night", game.current_phase
    return game


def test_the_stunned_hero_can_send_no_message_until_the_night_ends(priv_world):
    """«Вышибала лишает оглушаемого возможности отправлять любые сообщения до конца ночи»: the
    Вышибала of night 2 (Гоша, whose carousel theft of day 2 took Жора's privilege) stuns the
    Говорун; she can post nothing through the reply URL of the game thread (under her name or
    another hero's) or the discussion, nor through the service; her letters to the GM stay open."""
    game = _to_night(priv_world)
    held = game.state["memory"]["privileges"]
    bouncer = next(int(seat) for seat, ps in held.items() if "bouncer" in ps)
    assert bouncer == priv_world.seats["gosha"].pk, held  # the theft's catch
    talker = priv_world.users[TALKER]
    assert privs.show_stun(game=game, user=priv_world.users["gosha"], target=priv_world.seats[TALKER]).accepted
    before = Post.objects.count()
    client = client_for(talker)
    for thread, extra in ((game.game_thread, {}), (game.game_thread, {"shown_as": priv_world.users["kira"].pk}),
                          (game.discussion_thread, {})):
        response = client.post(reverse("games:thread_reply", args=[thread.pk]), {"body": "Я молчу?", "post": "1", **extra})
        assert response.status_code == 400 and "оглуш" in response.content.decode().lower(), extra
        with pytest.raises(ActionRefused):
            post_submit(thread=thread, author=talker, body="Я молчу?")
    assert Post.objects.count() == before and not Post.objects.filter(body="Я молчу?").exists()
    letters = game.private_threads.get(kind="gm_chat", seat=priv_world.seats[TALKER])
    post_submit(thread=letters, author=talker, body="Ведущий, меня оглушили.")
    post_submit(thread=game.game_thread, author=priv_world.users["gosha"], body="А я говорю.")  # not stunned
