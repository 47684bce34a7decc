"""Reads of the order ledger: the orders standing in a phase and a ledger row in words. Moved down
from games.services.orders and games.services.resolution (issue 15) so that the archive and the
role page read the ledger without importing the services that write it."""

from __future__ import annotations

from games import wording
from games.models import Order, Phase
from games.rulesets import registry


def phase_ledger(phase: Phase) -> list[Order] | None:
    """The phase's order ledger (its accepted and refused rows, in the order they were recorded)
    when the page read it once for all its sections (remember_phase_ledgers), else None: the
    reader then asks the database itself. Each reader filters the rows it wants (issue 30: the GM
    dashboard's standing and refused orders, a rule set's inputs and panels read one query)."""
    return phase.__dict__.get("_ledger_rows")


def remember_phase_ledgers(phases, orders=None) -> None:
    """Keep the order ledger of each of `phases` on its instance for phase_ledger: read in one
    query, or taken from `orders` (every order row of those phases, when the caller has read them
    all). For a page's reads only: a write to a phase's ledger after this is not seen through it."""
    wanted = {p.pk: p for p in phases if p is not None and "_ledger_rows" not in p.__dict__}
    if not wanted:
        return
    if orders is None:
        orders = Order.objects.filter(phase_id__in=list(wanted))
    rows: dict[int, list[Order]] = {pk: [] for pk in wanted}
    for order in orders:
        if order.phase_id in rows:
            rows[order.phase_id].append(order)
    for pk, phase in wanted.items():
        phase.__dict__["_ledger_rows"] = sorted(rows[pk], key=lambda o: (o.recorded_at, o.pk))


def standing_orders(phase: Phase) -> dict[int, Order]:
    """The last accepted order of each actor."""
    latest: dict[int, Order] = {}
    rows = phase_ledger(phase)
    for order in phase.orders.filter(valid=True).order_by("recorded_at", "pk") if rows is None else rows:
        if order.valid:
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
