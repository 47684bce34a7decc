"""A cards scenario phase's plays, discards and reorders (shared/scenarios/FORMAT.md, `cards`),
played through the service the card forms use (CardsSite.scenario_play_inputs). A refused input is
kept in the ledger with its reason and counted in the phase's `refused`, as any refused order."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from games.rulesets.cards.services import card_input_submit


def play_inputs(*, game, phase_spec: dict, user_of: Callable[[str], Any],
                seat_of: Callable[[str | None], int | None], now: datetime) -> None:
    """Each `plays` item (card, zone, targets, message, payment), then each `discards` and
    `reorder` item, in the file's order, all at `now`."""
    game.refresh_from_db()
    for item in phase_spec.get("plays") or []:
        detail = {"card": item.get("card"), "from": item.get("from", "hand"), "target": seat_of(item.get("target")),
                  "target2": seat_of(item.get("target2")), "message": item.get("message"), "pay": item.get("pay")}
        card_input_submit(game=game, user=user_of(item["by"]), action="play",
                          detail={k: v for k, v in detail.items() if v is not None}, now=now, confirm=False)
    for item in phase_spec.get("discards") or []:
        card_input_submit(game=game, user=user_of(item["by"]), action="discard", detail={"cards": item.get("cards")},
                          now=now, confirm=False)
    for item in phase_spec.get("reorder") or []:
        card_input_submit(game=game, user=user_of(item["by"]), action="reorder", detail={"hand": item.get("hand")},
                          now=now, confirm=False)
