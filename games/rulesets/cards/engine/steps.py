"""The close of a night or a day, second half: the effect instances applied step by step (blocks,
redirects, restrictions, thefts, armour and damage, discards, prison, draws, reveals, messages,
deaths, the restrictions' tick), in the order docs/rulesets/cards.md gives ("The end of a phase").
Mixed into CardsRuleset.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.events import PUBLIC, Event, seat_audience
from games.engine.rulesets.common import pick_seat
from games.engine.rulesets.common import ref as _ref
from games.engine.state import ACTIVE
from games.rulesets.cards.engine.collection import ACE
from games.rulesets.cards.engine.context import (
    DEAD,
    EXECUTION_DAMAGE,
    HAND,
    PRISON_PHASES,
    SLEEVE,
    _Close,
    _mapping_by_seat,
)
from games.rulesets.cards.engine.effects import Instance
from games.rulesets.cards.engine.roles import MANIAC, colours_of


class StepsMixin:
    """A part of CardsRuleset (ruleset.py), not used alone. The effect instances applied, one step a method, each
    reading and writing the close's context."""

    def _live(self, ctx: _Close, op: str) -> list[Instance]:
        return [i for i in ctx.instances if i.op == op and i.live and i.target is not None]

    def _blocks(self, ctx: _Close) -> None:
        """A block makes every card the target played this phase do nothing (the cards are spent).
        Blocks are simultaneous and cannot themselves be blocked."""
        blocked = {i.target for i in self._live(ctx, "block")}
        for instance in ctx.instances:
            if instance.play is not None and instance.actor in blocked and instance.op != "block":
                instance.cancelled = "blocked"
        for play in ctx.plays:
            if play.result == "done" and play.by in blocked:
                play.result = "blocked"

    def _redirects(self, ctx: _Close) -> None:
        """`incoming`: the targeted cards others play at the redirect's target act on its player
        (a bodyguard); `outgoing`: the target's targeted cards act on the second target. In seating
        order; a card is redirected at most once, and a redirect is never redirected."""
        plays = {p.index: p for p in ctx.plays}
        for redirect in sorted(self._live(ctx, "redirect"), key=lambda i: i.play):
            for instance in ctx.instances:
                if (not instance.live or instance.play is None or instance.op in ("redirect", "block")
                        or instance.who == "self" or instance.redirected_from is not None
                        or not plays[instance.play].card.targeted):
                    continue
                if redirect.which == "incoming":
                    if instance.target == redirect.target and instance.actor != redirect.actor:
                        instance.redirected_from, instance.target = instance.target, redirect.actor
                elif instance.actor == redirect.target and redirect.second is not None:
                    instance.redirected_from, instance.target = instance.target, redirect.second

    def _restrictions(self, ctx: _Close) -> None:
        for instance in self._live(ctx, "restrict"):
            ctx.ledger.restricted[instance.target] = max(ctx.ledger.restricted.get(instance.target, 0), instance.n)

    def _thefts(self, ctx: _Close) -> None:
        """Steal: a random card of the target's Hand or Sleeve goes to the player's Sleeve (from the
        Hand it is lost, not replaced). Copy: a copy of a random card of the target's zone."""
        table = ctx.table
        for instance in ctx.instances:
            if not instance.live or instance.op not in ("steal", "copy") or instance.target is None:
                continue
            if instance.op == "steal":
                card = table.take_random(instance.target, instance.zone, ctx.rng)
                if card is not None:
                    ctx.ledger.add(ctx.ledger.lost, instance.target, [card])
            else:
                card = table.peek_random(instance.target, instance.zone, ctx.rng)
            if card is not None and instance.actor is not None:
                table.put(instance.actor, card, SLEEVE)
                ctx.ledger.add(ctx.ledger.gained, instance.actor, [card])
            self._note(ctx, instance, card=card)

    def _note(self, ctx: _Close, instance: Instance, **data: Any) -> None:
        if instance.play is not None:
            ctx.plays[instance.play].effects.setdefault("effects", []).append(
                {"op": instance.op, "target": instance.target, "target_name": ctx.name(instance.target), **data})

    def _armour_and_damage(self, ctx: _Close) -> None:
        """«по окончанию фазы он сбрасывает столько карт из Руки, сколько получил урона. Если он
        играет карты из Руки в эту фазу, то вместо сброса карт он просто не добирает новых. ...
        Каждая единица брони предотвращает один сброс карты из-за урона. ... Броня не накапливается
        между фазами.» The Veche's execution is 6 damage in the same count."""
        ledger = ctx.ledger
        for instance in self._live(ctx, "armour"):
            ledger.add(ledger.armour, instance.target, instance.n)
        self._idle_night_armour(ctx)  # Лентяй (overt.py)
        for instance in self._live(ctx, "break_armour"):
            ledger.broken.add(instance.target)
        for seat in ledger.broken:
            ledger.armour.pop(seat, None)
        incoming: dict[int, list[tuple[int | None, int]]] = {}
        for instance in self._live(ctx, "damage"):
            incoming.setdefault(instance.target, []).append((instance.actor, instance.n))
        for seat, dealt in incoming.items():
            ledger.add(ledger.damage, seat, self._damage_cap(ctx, seat, dealt))  # Горец's cap (overt.py)
        for seat in ctx.executed:
            ledger.add(ledger.damage, seat, EXECUTION_DAMAGE)
        for seat in ctx.alive_at_start:
            net = max(0, ledger.damage.get(seat, 0) - ledger.armour.get(seat, 0))
            if not net:
                continue
            absorbed = min(net, ctx.pending.get(seat, 0))
            if absorbed:
                ctx.pending[seat] -= absorbed
                ledger.absorbed[seat] = absorbed
            gone = self._discard_by_damage(ctx, seat, net - absorbed)  # Воин's two to the Sleeve (overt.py)
            if gone:
                ledger.discarded[seat] = gone

    def _discards(self, ctx: _Close) -> None:
        table = ctx.table
        for instance in self._live(ctx, "discard"):
            if instance.zone == HAND:
                gone = table.discard_hand_front(instance.target, instance.n)
            elif instance.zone == SLEEVE:
                gone = table.discard_sleeve_front(instance.target, instance.n)
            else:
                gone = table.discard_deck_top(instance.target, instance.n)
            if gone and instance.zone != "deck":
                ctx.ledger.add(ctx.ledger.lost, instance.target, gone)
            self._note(ctx, instance, cards=gone)

    def _prison(self, ctx: _Close) -> None:
        """«Если же была выбрана тюрьма, он теряет карты из рукава, кроме Тузов и полученных от Явной
        роли (Маньяк сохраняет ещё одну карту на выбор), и в следующие 4 фазы не может играть
        целевых карт.» The maniac's choice is `extra["prison_keep"][seat]` (else his first card
        that would be lost)."""
        table = ctx.table
        keep_choice = _mapping_by_seat(ctx.state, ctx.inputs.extra.get("prison_keep"))
        for seat_id in ctx.imprisoned:
            kept, lost = [], []
            maniac_keeps = ctx.seat(seat_id).role == MANIAC
            choice = keep_choice.get(seat_id)
            losing = [it for it in table.sleeve(seat_id) if not (it["card"] == ACE or it.get("overt"))]
            spared = None
            if maniac_keeps and losing:
                spared = next((it for it in losing if it["card"] == choice), losing[0])
            for item in table.sleeve(seat_id):
                if item["card"] == ACE or item.get("overt") or item is spared:
                    kept.append(item)
                else:
                    lost.append(item["card"])
            table.player(seat_id)["sleeve"] = kept
            table.graveyard(seat_id).extend(lost)
            if lost:
                ctx.ledger.add(ctx.ledger.lost, seat_id, lost)
            ctx.ledger.restricted[seat_id] = max(ctx.ledger.restricted.get(seat_id, 0), PRISON_PHASES)
            ctx.report(seat_id)["prison"] = {"lost": lost, "phases": PRISON_PHASES}

    def _draws(self, ctx: _Close) -> None:
        """The Hand replacements first («берет из колоды карту на замену»), then the draws and gifts
        of effects, in seating order of the cards that caused them."""
        table, ledger = ctx.table, ctx.ledger
        for seat in ctx.alive_at_start:
            for _ in range(ctx.pending.get(seat, 0)):
                ledger.add(ledger.drawn, seat, [table.draw(seat, HAND)])
        for instance in ctx.instances:
            if not instance.live or instance.target is None or instance.op not in ("draw", "give"):
                continue
            if instance.op == "give":
                for _ in range(instance.n):
                    table.put(instance.target, instance.card, instance.to)
                ledger.add(ledger.gained, instance.target, [instance.card] * instance.n)
                continue
            cards = [table.draw(instance.target, instance.to) for _ in range(instance.n)]
            if instance.to == HAND:
                ledger.add(ledger.drawn, instance.target, cards)
            else:
                ledger.add(ledger.gained, instance.target, cards)
            self._note(ctx, instance, n=instance.n, to=instance.to)
        self._low_hand_draws(ctx)  # Монах, the last draw of the close (overt.py)

    def _reveals(self, ctx: _Close) -> None:
        """Information goes to the card's player (or the viewer the GM names), read at the end of
        the phase: a role, a role's colours, a Hand, a Sleeve, the top of a deck, or who played
        targeted cards at the target («visitors») / at whom the target played them («visits»)."""
        state, table = ctx.state, ctx.table
        plays = {p.index: p for p in ctx.plays}

        def targeted_hits() -> list[tuple[int, int]]:
            hits = []
            for instance in ctx.instances:
                if (instance.live and instance.play is not None and instance.target is not None
                        and instance.who != "self" and plays[instance.play].card.targeted
                        and instance.target != instance.actor):
                    hits.append((instance.actor, instance.target))
            return sorted(set(hits), key=lambda h: (h[0], h[1]))

        hits = targeted_hits()
        order = {s.id: i for i, s in enumerate(state.seats)}
        for instance in ctx.instances:
            if not instance.live or instance.op != "reveal" or instance.target is None or instance.viewer is None:
                continue
            target = state.seat(instance.target)
            what = instance.what
            if what == "role":
                value: Any = target.role
            elif what == "colours":
                value = list(colours_of(target.role, table.player(target.id).get("colours")))
            elif what == "hand":
                value = list(table.hand(target.id))
            elif what == "sleeve":
                value = table.sleeve_names(target.id)
            elif what == "deck_top":
                value = list(table.deck(target.id)[: instance.n])
            elif what == "visitors":
                value = [ctx.name(a) for a in sorted({a for a, t in hits if t == target.id and a != instance.viewer},
                                                     key=order.__getitem__)]
            else:  # visits
                value = [ctx.name(t) for t in sorted({t for a, t in hits if a == target.id}, key=order.__getitem__)]
            data = {"card": ctx.plays[instance.play].name if instance.play is not None else None,
                    "target": target.id, "target_name": target.name, "what": what, "value": value}
            ctx.events.append(Event("reveal", seat_audience(instance.viewer), data))
            self._note(ctx, instance, what=what, value=value)

    def _messages(self, ctx: _Close) -> None:
        """«Некоторые карты позволяют отправить цели сообщение. В таком случае цель получит его в конце
        фазы в сообщении от мастера. Цель не узнает, кто отправил сообщение.» The dead receive
        nothing («не получают сообщений»); the GM sees the sender. Then the mafia's own messages
        (sender named: the mafia know each other), `extra["mafia_messages"] = {seat: {"to", "text"}}`."""
        state, table = ctx.state, ctx.table
        alive_after = {s for s in ctx.alive_at_start if table.hand(s) and ctx.status[s] == ACTIVE}
        for instance in ctx.instances:
            if instance.op != "message" or instance.target is None:
                continue
            delivered = instance.live and bool(instance.text.strip()) and instance.target in alive_after
            if delivered:
                ctx.events.append(Event("message", seat_audience(instance.target), {
                    "card": ctx.plays[instance.play].name if instance.play is not None else None,
                    "text": instance.text,
                }))
            ctx.gm_note("message", sender=instance.actor, sender_name=ctx.name(instance.actor),
                        target=instance.target, target_name=ctx.name(instance.target), text=instance.text,
                        delivered=delivered)
            self._note(ctx, instance, delivered=delivered)
        for seat_id, value in _mapping_by_seat(state, ctx.inputs.extra.get("mafia_messages")).items():
            to = value.get("to") if isinstance(value, Mapping) else None
            text = str(value.get("text") or "") if isinstance(value, Mapping) else ""
            reason = "not_alive" if not ctx.alive(seat_id) else self._check_mafia_message(state, table, seat_id, to)
            if reason is None and not text.strip():
                reason = "bad_input"
            recipient = pick_seat(state, to)
            if reason is not None:
                ctx.gm_note("mafia_message", sender=seat_id, sender_name=ctx.name(seat_id), result="refused",
                            reason=reason)
                continue
            table.player(seat_id)["mafia_message"] = False
            delivered = recipient in alive_after
            if delivered:
                ctx.events.append(Event("mafia_message", seat_audience(recipient), {
                    **_ref(ctx.seat(seat_id)), "text": text}))
            ctx.gm_note("mafia_message", sender=seat_id, sender_name=ctx.name(seat_id), target=recipient,
                        target_name=ctx.name(recipient), text=text, result="done", delivered=delivered)

    def _deaths(self, ctx: _Close) -> None:
        """«Если у персонажа по итогам фазы становится 0 карт в Руке, то он умирает.» The role is not
        shown: «Знает Тайные роли мёртвых персонажей» is the joker's power, so the others do not."""
        for seat in ctx.alive_at_start:
            if ctx.status[seat] == ACTIVE and not ctx.table.hand(seat):
                ctx.status[seat] = DEAD
                ctx.dead.append(seat)
                ctx.memory["deaths"].append({"seat": seat, "phase": ctx.state.phase})
                ctx.events.append(Event("died", PUBLIC, _ref(ctx.seat(seat))))

    def _tick(self, ctx: _Close) -> None:
        """Restrictions count the phases they covered; new ones start with the next phase."""
        for seat in ctx.alive_at_start:
            player = ctx.table.player(seat)
            left = max(0, int(player.get("restricted", 0)) - 1)
            player["restricted"] = max(left, ctx.ledger.restricted.get(seat, 0))
