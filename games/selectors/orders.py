"""Reads of the order ledger: the orders standing in a phase and a ledger row in words. Moved down
from games.services.orders and games.services.resolution (issue 15) so that the archive and the
role page read the ledger without importing the services that write it."""

from __future__ import annotations

from games import wording
from games.models import Order, Phase
from games.rulesets import registry


def standing_orders(phase: Phase) -> dict[int, Order]:
    """The last accepted order of each actor."""
    latest: dict[int, Order] = {}
    for order in phase.orders.filter(valid=True).order_by("recorded_at", "pk"):
        latest[order.actor_id] = order
    return latest


def order_reason_text(code: str) -> str:
    """An order's reason code in words (games.wording: the shared codes, then each rule set's)."""
    return wording.order_reason_text(code)


def action_label(action: str) -> str:
    return wording.action_label(action)


def order_action_text(order) -> str:
    """A ledger row's action in words: an order's action, or a rule set's own input with its
    details (cards: the card, zone and the like, «Розыгрыш карты: Пистолет (Рука)»), so the pages
    never show a play without its card."""
    label = action_label(order.action) if order.action else ""
    for adapter in registry.adapters():
        what = adapter.ledger_row_detail(order)
        if what is not None:
            return f"{label}: {what}" if what else label
    return label
