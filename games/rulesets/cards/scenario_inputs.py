"""A cards scenario phase's plays, discards and reorders (shared/scenarios/FORMAT.md, `cards`),
played through the service the card forms use (CardsSite.scenario_play_inputs). A refused input is
kept in the ledger with its reason and counted in the phase's `refused`, as any refused order."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from games.rulesets.cards.ability_services import SEAT_FIELDS, card_ability_submit
from games.rulesets.cards.services import card_input_submit


def play_inputs(*, game, phase_spec: dict, user_of: Callable[[str], Any],
                seat_of: Callable[[str | None], int | None], now: datetime) -> None:
    """Each `abilities` item first, in the file's order (an at-once one acts there and then, as
    `act_at_once` of the engine's scenario player does before the close), then each `plays` item
    (card, zone, targets, message, payment), then each `discards` and `reorder` item, all at `now`."""
    game.refresh_from_db()
    for item in phase_spec.get("abilities") or []:
        data = {k: v for k, v in item.items() if k not in ("by", "ability")}
        for key in SEAT_FIELDS:
            if key in data:
                data[key] = seat_of(data[key])
        if isinstance(data.get("roles"), dict):
            data["roles"] = {str(seat_of(name)): role for name, role in data["roles"].items()}
        card_ability_submit(game=game, user=user_of(item["by"]), ability=str(item.get("ability")), data=data, now=now,
                            confirm=False)
        game.refresh_from_db()
        if game.status != "running":
            return
    for item in phase_spec.get("plays") or []:
        detail = {"card": item.get("card"), "from": item.get("from", "hand"), "target": seat_of(item.get("target")),
                  "target2": seat_of(item.get("target2")), "message": item.get("message"), "pay": item.get("pay")}
        card_input_submit(game=game, user=user_of(item["by"]), action="play",
                          detail={k: v for k, v in detail.items() if v is not None}, now=now, confirm=False)
    for item in phase_spec.get("decks") or []:  # deck building: the deck (colours, the Engineer's picks)
        detail = {k: list(item[k]) for k in ("cards", "colours", "picks") if item.get(k)}
        card_input_submit(game=game, user=user_of(item["by"]), action="deck", detail=detail, now=now, confirm=False)
    for item in phase_spec.get("rebuilds") or []:  # an empty deck rebuilt (Банкир's draw, Фокусник's Free cards)
        detail = {k: list(item[k]) for k in ("cards", "colours") if item.get(k)}
        card_input_submit(game=game, user=user_of(item["by"]), action="rebuild", detail=detail, now=now, confirm=False)
    for item in phase_spec.get("discards") or []:
        card_input_submit(game=game, user=user_of(item["by"]), action="discard", detail={"cards": item.get("cards")},
                          now=now, confirm=False)
    for item in phase_spec.get("reorder") or []:
        card_input_submit(game=game, user=user_of(item["by"]), action="reorder", detail={"hand": item.get("hand")},
                          now=now, confirm=False)
