"""Every URL pattern, every perspective, on a running show with all eleven privileges in play
(tests/security/show_privileges_world.py; issue 20, "Done when": «The security run covers every
privilege as a secret (the holder, the GM, and everyone after the end only) and the Говорун's true
authorship (GM and archive only)»). The sweep and its judge are test_url_perspectives.py's."""

from __future__ import annotations

import pytest

from tests.security.conftest import GMS, module_world
from tests.security.show_privileges_world import (
    MOLE,
    MOLE_ROLE,
    PERSPECTIVES,
    build_show_privileges_world,
    privilege_secrets,
)
from tests.security.test_url_perspectives import _judge, sweep

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def priv_world(django_db_setup, django_db_blocker):
    """build_show_privileges_world() once for the module, rolled back after it (conftest.module_world)."""
    yield from module_world(django_db_blocker, build_show_privileges_world)


def test_explore(priv_world):
    secrets, shared = privilege_secrets(priv_world)
    for k, v in sorted(secrets.items()):
        print(repr(k)[:120], sorted(v))
    found, problems = sweep(priv_world, MOLE, secrets={MOLE_ROLE: set(), "зябликговорун": set()}, salt="nosaltxx")
    for k, v in found.items():
        print(k, sorted(set(v))[:40])
    assert 0
