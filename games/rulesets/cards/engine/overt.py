"""Part 2 (c) of the cards rule set: the overt roles that change draws, Hands, damage and armour —
Здоровяк, Шулер (the opening draw, opening.py), Монах, Экстрасенс, Банкир, Горец, Лентяй, Воин. Each
reads its field of `roles.OvertRole` (OVERT_ROLES); the steps of the close (pipeline.py, steps.py)
call these hooks where the rule applies. Mixed into CardsRuleset. docs/rulesets/cards.md, "Part 2
(c)", gives every reading.
"""

from __future__ import annotations

from typing import Any

from games.engine.state import ACTIVE, GameState
from games.rulesets.cards.engine.context import HAND, NIGHT, SLEEVE, _Close
from games.rulesets.cards.engine.effects import Table
from games.rulesets.cards.engine.roles import OvertRole, overt_role


class OvertMixin:
    """A part of CardsRuleset (ruleset.py), not used alone. The overt roles' hooks on draws, Hands,
    damage and armour; `overt_of` is CardsRuleset's."""

    def overt_hook(self, state: GameState, seat: int) -> OvertRole | None:
        """The registered overt role of a seat, or None (no role, or a custom name)."""
        return overt_role(self.overt_of(state, seat))

    # -- what a player sees of his own cards -----------------------------------------------------------

    def deck_top_seen(self, state: GameState, seat: int) -> list[str]:
        """Экстрасенс: «Всегда видит верхние 3 карты в своей Колоде» — the top cards of his own deck,
        top first (fewer when the deck is short). Empty for everybody else."""
        hook = self.overt_hook(state, seat)
        if hook is None or not hook.deck_top_seen:
            return []
        player = state.memory.get("players", {}).get(str(seat), {})
        return list(player.get("deck", ())[: hook.deck_top_seen])

    def own_view(self, state: GameState, table: Table, seat: int) -> dict[str, Any]:
        """A player's view of his containers (`Table.view`), with the top of his deck when his overt
        role sees it (`deck_top`)."""
        view = table.view(seat)
        hook = self.overt_hook(state, seat)
        if hook is not None and hook.deck_top_seen:
            view["deck_top"] = list(table.deck(seat)[: hook.deck_top_seen])
        return view

    # -- the close --------------------------------------------------------------------------------------

    def _rebuild_draws(self, ctx: _Close, seat: int) -> None:
        """Банкир: «Каждый раз, как пересобирает Колоду взамен закончившейся, в эту же фазу тянет одну
        карту из нее в Рукав.» Drawn at once from the new deck's top, when the rebuild is applied
        (step 2 of the close), so the Hand's replacements of this phase come after it."""
        hook = self.overt_hook(ctx.state, seat)
        if hook is None or not hook.rebuild_sleeve_draws:
            return
        cards = [ctx.table.draw(seat, SLEEVE) for _ in range(hook.rebuild_sleeve_draws)]
        ctx.report(seat)["rebuild_draw"] = cards

    def _idle_night_armour(self, ctx: _Close) -> None:
        """Лентяй: «Если не играет карт ночью, получает 3 брони.» At night, a player of this role who
        played no card (a refused play is no play; a blocked one was played: the card is spent)
        gets the armour; the two-card night discard is not playing, so it does not cost him the
        armour. Added with the phase's other armour (a broken armour stops it too)."""
        if ctx.kind != NIGHT:
            return
        played = {p.by for p in ctx.plays if p.result in ("done", "blocked")}
        for seat in ctx.alive_at_start:
            hook = self.overt_hook(ctx.state, seat)
            if hook is None or not hook.idle_night_armour or seat in played or ctx.status.get(seat) != ACTIVE:
                continue
            ctx.ledger.add(ctx.ledger.armour, seat, hook.idle_night_armour)
            ctx.report(seat)["idle_armour"] = hook.idle_night_armour

    def _damage_cap(self, ctx: _Close, seat: int, incoming: list[tuple[int | None, int]]) -> int:
        """The damage a seat takes this phase, before armour, from (dealer, n) pairs. Горец: «В одну
        ночь не может получить более чем 6 урона от чужих карт» — at night the damage of everybody
        else (others' cards, and what the GM applies as if a card had done it) counts at most 6;
        his own cards' damage (Граната's blast) is added on top. The cap comes BEFORE armour: armour
        «предотвращает один сброс карты из-за урона», it acts on the discards of the damage he did
        receive, so 9 damage and 2 armour make 6 - 2 = 4 discards."""
        total = sum(n for _dealer, n in incoming)
        hook = self.overt_hook(ctx.state, seat)
        if hook is None or hook.night_damage_cap is None or ctx.kind != NIGHT:
            return total
        others = sum(n for dealer, n in incoming if dealer != seat)
        if others <= hook.night_damage_cap:
            return total
        ctx.report(seat)["damage_capped"] = others - hook.night_damage_cap
        return total - others + hook.night_damage_cap

    def _discard_by_damage(self, ctx: _Close, seat: int, n: int) -> list[str]:
        """Discard the first n cards of the Hand because of damage; the cards that go to the
        graveyard are returned. Воин: «Первые две карты за игру, которые сбрасывает из Руки из-за
        урона, вместо этого переносит в Рукав» — the first of them, up to two a game
        (`memory.players[seat]["to_sleeve"]` counts them), go to the end of his Sleeve instead (his
        own deck's cards: they pay a Price and prison takes them like any). They still leave the
        Hand: an empty Hand is death. Replacements not drawn («вместо сброса карт он просто не
        добирает новых») are no discard, so they do not use the two."""
        table = ctx.table
        hook = self.overt_hook(ctx.state, seat)
        player = table.player(seat)
        left = max(0, hook.damage_to_sleeve - int(player.get("to_sleeve", 0))) if hook is not None else 0
        if not left:
            return table.discard_hand_front(seat, n)
        hand = table.hand(seat)
        leaving = hand[:n]
        del hand[:n]
        moved, gone = leaving[:left], leaving[left:]
        for card in moved:
            table.put(seat, card, SLEEVE)
        table.graveyard(seat).extend(gone)
        if moved:
            player["to_sleeve"] = int(player.get("to_sleeve", 0)) + len(moved)
            ctx.report(seat)["to_sleeve"] = list(moved)
        return gone

    def _low_hand_draws(self, ctx: _Close) -> None:
        """Монах: «Если по итогам фазы имеет 1 или 2 карты в Руке, тянет карту из Колоды в Руку.» The
        last draw of the close: after damage, discards, prison and every other draw, the Hand is
        counted; with 1 or 2 cards he draws one (Маллиган from an empty deck). A Hand emptied this
        phase is death, which the draw does not undo (0 is not 1 or 2), and the draw comes after the
        damage, so it never takes a hit of this phase."""
        for seat in ctx.alive_at_start:
            hook = self.overt_hook(ctx.state, seat)
            if hook is None or not hook.low_hand_draw or ctx.status.get(seat) != ACTIVE:
                continue
            if len(ctx.table.hand(seat)) in hook.low_hand_draw:
                card = ctx.table.draw(seat, HAND)
                ctx.ledger.add(ctx.ledger.drawn, seat, [card])
                ctx.report(seat)["low_hand_draw"] = card

