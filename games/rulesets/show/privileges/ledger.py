"""The privileges' rows of the show's order ledger (part 3; privileges/services.py writes them):
read as the engine's PhaseInputs.extra (services.ledger_inputs asks privilege_inputs) and worded
for the GM's ledger."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.models import Order, Phase
from games.rulesets.show.engine.privilege_keys import (
    EXCLUDE,
    EXTRA_VOTE,
    FAKE,
    INTERCEPT,
    MOLE_COMA,
    STEAL,
    STUN,
)
from games.rulesets.show.wording import WORDING

PRIVILEGE_ROWS = frozenset({STUN, EXCLUDE, EXTRA_VOTE, INTERCEPT, MOLE_COMA, STEAL, FAKE})
GUESS_FIELDS = ("receiver", "about")


def privilege_inputs(rows) -> dict[str, Any]:
    """The privileges' part of a stage's PhaseInputs.extra from its accepted rows (in order). The
    at-once rows (the stun, /mole, the Хакер's guesses) are in the state already: not read here.
    `fakes` {author: {hero shown: n}} counts the stage's `fake` rows (the close's outcome `fakes`)."""
    excludes: dict[int, int] = {}
    extra_votes: dict[int, Any] = {}
    steals: dict[int, int] = {}
    fakes: dict[int, dict[int, int]] = {}
    for row in rows:
        detail = dict(row.detail or {})
        if row.action == EXCLUDE:
            excludes[row.actor_id] = row.target_id
        elif row.action == EXTRA_VOTE:
            extra_votes[row.actor_id] = detail.get("ballot") or row.target_id
        elif row.action == STEAL:
            steals[row.actor_id] = row.target_id
        elif row.action == FAKE and row.target_id is not None:  # every signed post counts
            shown = fakes.setdefault(row.actor_id, {})
            shown[row.target_id] = shown.get(row.target_id, 0) + 1
    extra: dict[str, Any] = {}
    for key, value in (("exclude", excludes), ("extra_votes", extra_votes), ("steal", steals), ("fakes", fakes)):
        if value:
            extra[key] = value
    return extra


def fakes_in_stage(phase: Phase | None, seat_pk: int) -> int:
    """How many posts the hero signed as another hero in this stage (the engine's limit counts them)."""
    if phase is None:
        return 0
    return phase.orders.filter(actor_id=seat_pk, action=FAKE, valid=True).count()


def privilege_row_text(order: Order) -> str:
    """The words after a privilege row's label in the GM's ledger."""
    detail = dict(order.detail or {})
    if order.action == EXTRA_VOTE and detail.get("ballot"):
        return str(WORDING.action_labels.get(detail["ballot"], detail["ballot"]))
    if order.action == INTERCEPT:
        field = _("received by") if detail.get("field") == "receiver" else _("about")
        return _("Secret Knowledge #%(number)s, %(field)s") % {"number": detail.get("number", "?"), "field": field}
    if order.action == FAKE and detail.get("post"):
        return _("post id %(post)s") % {"post": detail["post"]}
    return ""
