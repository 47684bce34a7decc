"""The close of a night or a day, first half: the order of the steps (`_close_play`), the joker's
list, the rebuilt decks and Hand orders, the plays and discards taken, and the GM's hand resolution
— everything that turns the phase's inputs into effect instances. steps.py applies them.
Mixed into CardsRuleset.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.events import GM, PUBLIC, Event, seat_audience
from games.engine.rulesets.common import pick_seat, scalar
from games.engine.rulesets.common import ref as _ref
from games.rulesets.cards.engine.context import (
    DAY,
    GM_OPS,
    HAND,
    LEFT,
    NIGHT_DISCARD,
    SLEEVE,
    _Close,
    _Play,
    _deck_input,
    _mapping_by_seat,
)
from games.rulesets.cards.engine.abilities_maniac_joker_geek_marauder import maniac_kill_draw
from games.rulesets.cards.engine.effects import Instance
from games.rulesets.cards.engine.roles import JOKER, SECRET_ROLES, overt_role


class PipelineMixin:
    """A part of CardsRuleset (ruleset.py), not used alone. The steps of a night's or day's close and the ones that
    take its inputs; the rest of the steps are StepsMixin's and the Veche's count is DayMixin's, all called through
    `self`."""

    def _close_play(self, ctx: _Close) -> None:
        self._joker_guess(ctx)
        if ctx.joker_won is not None:
            return
        self._own_containers(ctx)
        if ctx.kind == DAY:
            self._count_veche(ctx)
        self._take_plays(ctx)
        self._take_abilities(ctx)
        self._gm_instances(ctx)
        self._blocks(ctx)
        self._redirects(ctx)
        self._restrictions(ctx)
        self._thefts(ctx)
        self._armour_and_damage(ctx)
        self._discards(ctx)
        self._prison(ctx)
        self._draws(ctx)
        self._reveals(ctx)
        self._messages(ctx)
        self._deaths(ctx)
        maniac_kill_draw(ctx)
        self._tick(ctx)

    def _joker_guess(self, ctx: _Close) -> None:
        """«В любой момент может написать в личной комнате список соответствия Явных и Тайных ролей
        всех игроков. Если все роли угаданы верно, побеждает моментально. Иначе покидает игру, и все
        карты Туз исчезают.» The list is `extra["joker_guess"] = {joker seat: {seat: role}}`; a
        right list ends the game at this close before anything else happens."""
        state = ctx.state
        for joker, roles in _mapping_by_seat(state, ctx.inputs.extra.get("joker_guess")).items():
            seat = state.seat(joker)
            if not ctx.alive(joker) or seat.role != JOKER:
                ctx.gm_note("input_ignored", seat=joker, name=seat.name, reason="not_joker")
                continue
            guess = self._guess(state, joker, roles)
            if guess is None:
                ctx.gm_note("input_ignored", seat=joker, name=seat.name, reason="bad_guess")
                continue
            wrong = [i for i, role in guess.items() if state.seat(i).role != role]
            ctx.gm_note("joker_guess", **_ref(seat), guess={str(k): v for k, v in guess.items()},
                        wrong=[_ref(state.seat(i)) for i in wrong])
            if not wrong:
                ctx.joker_won = joker
                ctx.events.append(Event("joker_won", PUBLIC, _ref(seat)))
                return
            ctx.status[joker] = LEFT
            vanished = ctx.table.remove_aces()
            ctx.events.append(Event("joker_left", PUBLIC, {**_ref(seat), "aces_vanished": sum(vanished.values())}))

    def _own_containers(self, ctx: _Close) -> None:
        """A rebuilt empty deck («Если колода персонажа становится пуста, то персонаж может в любой
        момент собрать новую колоду из коллекции, как набрал бы в начале игры»; it also recharges the
        mafia message) and the Hand's order («этот порядок игрок может поменять в любой момент»)."""
        state, table, extra = ctx.state, ctx.table, ctx.inputs.extra
        for seat_id, value in _mapping_by_seat(state, extra.get("rebuilds")).items():
            seat = state.seat(seat_id)
            player = table.player(seat_id)
            if not ctx.alive(seat_id) or player["deck"]:
                ctx.gm_note("input_ignored", seat=seat_id, name=seat.name,
                            reason="not_alive" if not ctx.alive(seat_id) else "deck_not_empty")
                continue
            cards, colours = _deck_input(value)
            if SECRET_ROLES[seat.role].chooses_colours and colours is None:
                colours = player.get("colours")
            refusals = self.check_deck(state, seat_id, cards, colours)
            if refusals:
                data = {**_ref(seat), "refusals": [r.to_json() for r in refusals]}
                ctx.events.append(Event("deck_refused", seat_audience(seat_id), data))
                ctx.events.append(Event("deck_refused", GM, data))
                continue
            deck = list(cards)
            ctx.rng.shuffle(deck)
            player["deck"] = deck
            player["rebuilds"] = int(player.get("rebuilds", 0)) + 1
            hook = overt_role(self.overt_of(state, seat_id))
            if hook is not None and hook.free_after_rebuild:
                # «Фокусник: После первой пересборки Колоды нижние две карты в ней становятся Свободными.»
                player["free_bottom"] = hook.free_after_rebuild if player["rebuilds"] == 1 else 0
            player["mafia_message"] = True
            if SECRET_ROLES[seat.role].chooses_colours:
                player["colours"] = list(colours)
            ctx.report(seat_id)["rebuilt"] = True
            ctx.gm_note("deck_rebuilt", **_ref(seat), deck=list(deck))
            self._rebuild_draws(ctx, seat_id)  # Банкир (overt.py)
        for seat_id, hand in _mapping_by_seat(state, extra.get("reorders")).items():
            if not ctx.alive(seat_id) or self._check_reorder(table, seat_id, hand) is not None:
                ctx.gm_note("input_ignored", seat=seat_id, name=ctx.name(seat_id), reason="bad_reorder")
                continue
            table.player(seat_id)["hand"] = [str(c) for c in hand]

    def _take_plays(self, ctx: _Close) -> None:
        """The standing plays: «Каждую фазу (День или Ночь) можно сыграть не более одной карты из
        Руки и не более одной карты из Рукава» — the last play per player and zone counts. Played
        Hand cards leave the Hand (and are replaced at the end: «Если игрок сыграл или сбросил таким
        образом карту из Руки, то по итогам фазы он берет из колоды карту на замену»), Sleeve cards
        are not replaced, Prices are paid from the Sleeve. Then the night discards: «Ночью, вместо
        того, чтобы играть карты, можно сбросить две карты из Руки.»"""
        state, table, extra = ctx.state, ctx.table, ctx.inputs.extra
        raw = extra.get("plays") or []
        if isinstance(raw, Mapping):  # {seat: [plays]} is accepted too
            raw = [{**p, "by": k} for k, v in raw.items() for p in (v if isinstance(v, list) else [v])
                   if isinstance(p, Mapping)]
        standing: dict[tuple[int, str], Mapping[str, Any]] = {}
        for item in raw if isinstance(raw, list) else []:
            if not isinstance(item, Mapping):
                continue
            by = pick_seat(state, item.get("by"))
            if by is None:
                ctx.gm_note("input_ignored", given=scalar(item.get("by")), reason="not_a_player")
                continue
            standing[(by, str(item.get("from")))] = item
        order = {s.id: i for i, s in enumerate(state.seats)}
        keys = sorted(standing, key=lambda k: (order[k[0]], 0 if k[1] == SLEEVE else 1))
        for by, zone in keys:
            item = standing[(by, zone)]
            play = _Play(
                index=len(ctx.plays), by=by, name=str(item.get("card")), zone=zone,
                target=pick_seat(state, item.get("target")) if item.get("target") is not None else None,
                target2=pick_seat(state, item.get("target2")) if item.get("target2") is not None else None,
                message=str(item.get("message") or ""),
                pay=list(item["pay"]) if isinstance(item.get("pay"), list) else None,
            )
            play.card = table.collection.get(play.name)
            ctx.plays.append(play)
            if not ctx.alive(by):
                play.refuse("not_alive")  # «Мертвые персонажи не участвуют в игре»
                continue
            # Checked on the containers as they stand now: the Sleeve play (taken first) has
            # already spent its card and paid its Price when the Hand play's Price is checked.
            reason = self._check_play(state, table, by, {**item, "from": zone})
            if reason is not None:
                play.refuse(reason)
                continue
            card = play.card
            # The payment is settled before the card leaves its zone (a Free card's mark is on it there).
            reserved, used = self._other_play_holds(standing.get((by, HAND))) if zone == SLEEVE else ([], 0)
            payment = self._payment(state, table, by, card, zone, play.pay, item.get("pay_hand"),
                                    reserved=reserved, used=used)
            if isinstance(payment, str):  # not payable with his Hand play in mind (Культист)
                play.refuse(payment)
                continue
            paying, paying_hand = payment
            if card.price and not self.price_of(state, table, by, card, zone) \
                    and card.name in table.free_marks(by, zone):
                table.use_free_mark(by, zone, card.name)
            if not card.reusable:
                if zone == HAND:
                    table.remove_from_hand(by, card.name)
                    ctx.pending[by] = ctx.pending.get(by, 0) + 1
                else:
                    table.remove_from_sleeve(by, card.name)
                table.graveyard(by).append(card.name)
            if paying:
                table.pay(by, paying)
                play.paid = list(paying)
            if paying_hand:
                for name in paying_hand:
                    table.remove_from_hand(by, name)
                    table.graveyard(by).append(name)
                done = self.hand_paid(state, table, by) + len(paying_hand)
                table.player(by)["hand_paid"] = {"phase": state.phase, "n": done}
                play.paid_hand = list(paying_hand)
        played = {p.by for p in ctx.plays if p.result == "done"}
        for seat_id, cards in _mapping_by_seat(state, extra.get("discards")).items():
            data = {**_ref(ctx.seat(seat_id)), "cards": cards if isinstance(cards, list) else scalar(cards)}
            if not ctx.alive(seat_id):
                reason = "not_alive"
            else:
                reason = self.check_together({"play"} if seat_id in played else (), "discard") \
                    or self._check_discard(state, table, seat_id, cards)
            if reason is not None:
                ctx.report(seat_id)["discard"] = {"result": "refused", "reason": reason}
                ctx.gm_note("discard", **data, result="refused", reason=reason)
                continue
            for card in cards:
                table.remove_from_hand(seat_id, card)
                table.graveyard(seat_id).append(card)
            ctx.pending[seat_id] = ctx.pending.get(seat_id, 0) + NIGHT_DISCARD
            ctx.report(seat_id)["discard"] = {"result": "done", "cards": list(cards)}
            ctx.gm_note("discard", **data, result="done")
        for play in ctx.plays:
            if play.result != "done":
                continue
            for effect in play.card.effect:
                ctx.instances.append(Instance.from_effect(effect, play=play.index, actor=play.by, target=play.target,
                                                          target2=play.target2, text=play.message))

    @staticmethod
    def _other_play_holds(other: Any) -> tuple[list[str], int]:
        """The Hand cards a player's Hand play of this phase plays and pays with, and how many Hand cards
        it pays with (Культист): the Sleeve play, taken first, leaves them to it."""
        if not isinstance(other, Mapping):
            return [], 0
        named = [str(c) for c in other.get("pay_hand") or () if isinstance(c, str)]
        return [str(other.get("card"))] + named, len(named)

    def _gm_instances(self, ctx: _Close) -> None:
        """The GM's hand-resolution, «applied as if a card had done it»: `gm.damage` and `gm.armour`
        ({seat: n}) and `gm.effects` (a list of primitives, docs/rulesets/cards.md)."""
        state, gm = ctx.state, ctx.inputs.gm
        for op in ("damage", "armour"):
            for seat_id, n in _mapping_by_seat(state, gm.get(op)).items():
                if not ctx.alive(seat_id) or not isinstance(n, int) or isinstance(n, bool) or n < 0:
                    ctx.gm_note("gm_effect_ignored", op=op, seat=seat_id, given=scalar(n), reason="bad_input")
                    continue
                ctx.instances.append(Instance(op=op, actor=None, target=seat_id, n=n))
        for item in gm.get("effects") or ():
            instance = self._gm_effect(ctx, item)
            if instance is not None:
                ctx.instances.append(instance)

    _GM_OPS = GM_OPS

    def _gm_effect(self, ctx: _Close, item: Any) -> Instance | None:
        state = ctx.state
        if not isinstance(item, Mapping) or item.get("op") not in self._GM_OPS:
            ctx.gm_note("gm_effect_ignored", given=scalar(item), reason="unknown_op")
            return None
        target = pick_seat(state, item.get("target"))
        if target is None or not ctx.alive(target):
            ctx.gm_note("gm_effect_ignored", given=dict(item), reason="target_not_alive")
            return None
        n = item.get("n", 1)
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            ctx.gm_note("gm_effect_ignored", given=dict(item), reason="bad_n")
            return None
        instance = Instance(op=item["op"], actor=None, target=target, n=n, to=str(item.get("to", HAND)),
                            zone=str(item.get("zone", HAND)), what=str(item.get("what", "")),
                            text=str(item.get("text", "")), card=str(item.get("card", "")))
        if instance.op == "reveal":
            instance.viewer = pick_seat(state, item.get("viewer"))
            if instance.viewer is None or instance.what not in ("role", "colours", "hand", "sleeve", "deck_top"):
                ctx.gm_note("gm_effect_ignored", given=dict(item), reason="bad_reveal")
                return None
        if instance.op == "give" and instance.card not in ctx.table.collection:
            ctx.gm_note("gm_effect_ignored", given=dict(item), reason="unknown_card")
            return None
        if instance.to not in (HAND, SLEEVE) or instance.zone not in (HAND, SLEEVE, "deck"):
            ctx.gm_note("gm_effect_ignored", given=dict(item), reason="bad_zone")
            return None
        return instance
