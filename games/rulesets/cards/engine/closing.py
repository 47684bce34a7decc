"""The end of a close: the events every phase ends with (plays for the GM, each player's phase
report and containers, the GM's summary, the Hand sizes) and the outcome the site stores.
Mixed into CardsRuleset.
"""

from __future__ import annotations

from typing import Any

from games.engine.events import GM, PUBLIC, Event, seat_audience
from games.engine.rulesets.common import ref as _ref
from games.engine.state import GameState
from games.rulesets.cards.engine.context import DECKBUILDING, _Close
from games.rulesets.cards.engine.roles import JOKER, winner_of, winners


class ClosingMixin:
    """A part of CardsRuleset (ruleset.py), not used alone. The events and the outcome that end every close (`resolve`
    in ruleset.py calls them)."""

    def _game_winner(self, ctx: _Close, seats: Any) -> str | None:
        """The winning faction from the seats after the close (None: the game goes on); the
        joker's right list wins at once."""
        if ctx.joker_won is not None:
            return JOKER
        return winner_of([s.faction for s in seats if s.status == "active"])

    def _game_winners(self, ctx: _Close, winner: str, seats: Any) -> list[int]:
        """The seats that win with `winner` (the dead too)."""
        return winners(winner, seats) if winner != JOKER else [ctx.joker_won]

    def _closing_events(self, ctx: _Close, new_state: GameState) -> None:
        """«Количество карт в Руке каждого игрока все узнают в конце каждой фазы. Количество карт в
        Рукаве и колоде знает только владелец.»"""
        state, table, ledger = ctx.state, ctx.table, ctx.ledger
        for play in ctx.plays:
            ctx.events.append(Event("play", GM, play.to_json(state)))
            if play.card is not None and play.card.resolved_by_gm and play.result == "done":
                notes = [e.note for e in play.card.effect if e.op == "gm"]
                ctx.events.append(Event("gm_resolve", GM, {**play.to_json(state), "note": " ".join(notes)}))
            ctx.report(play.by).setdefault("plays", []).append({
                "card": play.name, "from": play.zone, "target_name": ctx.name(play.target),
                "target2_name": ctx.name(play.target2), "result": play.result, "reason": play.reason,
                "paid": list(play.paid), **({"paid_hand": list(play.paid_hand)} if play.paid_hand else {}),
            })
        if ctx.kind == DECKBUILDING:
            return
        for seat in ctx.alive_at_start:
            report = ctx.report(seat)
            for key, book in (("damage", ledger.damage), ("armour", ledger.armour), ("absorbed", ledger.absorbed),
                              ("restricted", ledger.restricted)):
                if book.get(seat):
                    report[key] = book[seat]
            for key, book in (("discarded", ledger.discarded), ("lost", ledger.lost), ("gained", ledger.gained),
                              ("drawn", ledger.drawn)):
                if book.get(seat):
                    report[key] = list(book[seat])
            if seat in ledger.broken:
                report["armour_broken"] = True
        for seat in ctx.alive_at_start:
            ref = _ref(ctx.seat(seat))
            ctx.events.append(Event("phase_report", seat_audience(seat), {**ref, **ctx.report(seat)}))
            ctx.events.append(Event("containers", seat_audience(seat), {**ref, **self.own_view(new_state, table, seat)}))
        ctx.events.append(Event("phase_summary", GM, {
            "damage": {str(k): v for k, v in ledger.damage.items()},
            "armour": {str(k): v for k, v in ledger.armour.items()},
            "discarded": {str(k): v for k, v in ledger.discarded.items()},
            "lost": {str(k): v for k, v in ledger.lost.items()},
            "drawn": {str(k): v for k, v in ledger.drawn.items()},
            "dead": [_ref(ctx.seat(i)) for i in ctx.dead],
            "names": {str(i): ctx.name(i) for i in ctx.alive_at_start},  # for its text: «Петя — 3», not a seat id
        }))
        ctx.events.append(Event("hand_sizes", PUBLIC, {"sizes": [
            {**_ref(ctx.seat(s)), "size": len(table.hand(s))} for s in ctx.alive_at_start
        ]}))

    def _outcome(self, ctx: _Close, new_state: GameState) -> dict[str, Any]:
        name = {s.id: s.name for s in ctx.state.seats}
        table, ledger = ctx.table, ctx.ledger
        considered = ctx.alive_at_start
        veche = ctx.veche

        def label(value: Any) -> Any:
            return name.get(value, value) if isinstance(value, int) else value

        outcome: dict[str, Any] = {
            "votes": {name[v]: label(t) for v, t in veche.votes.items()} if veche else {},
            "tally": {label(t): w for t, w in veche.tally.items()} if veche else {},
            # Only the Hands and Sleeves that changed in this phase (an unchanged one is left out).
            "hands": {name[s]: list(table.hand(s)) for s in considered if table.hand(s) != ctx.start_hands[s]},
            "sleeves": {name[s]: table.sleeve_names(s) for s in considered
                        if table.sleeve_names(s) != ctx.start_sleeves[s]},
            "hand_sizes": {name[s]: len(table.hand(s)) for s in considered},
            # What only the owner knows (a scenario checks it where the cards themselves come from a
            # shuffle): his Sleeve's size, and the Free cards at the bottom of his deck (Фокусник).
            "sleeve_sizes": {name[s]: len(table.sleeve_names(s)) for s in considered},
            "free_bottom": {name[s]: int(table.player(s).get("free_bottom") or 0) for s in considered
                            if table.player(s).get("free_bottom")},
            # Экстрасенс: «Всегда видит верхние 3 карты в своей Колоде» — what his page shows after the phase.
            "deck_top": {name[s]: seen for s in considered
                         if (seen := self.own_view(new_state, table, s).get("deck_top"))},
            "damage": {name[s]: n for s, n in sorted(ledger.damage.items()) if n},
            "armour": {name[s]: n for s, n in sorted(ledger.armour.items()) if n},
            "dead": [name[i] for i in ctx.dead],
            "executed": [name[i] for i in ctx.executed],
            "imprisoned": [name[i] for i in ctx.imprisoned],
            "measure": veche.measure if veche else None,
            "peace": bool(veche and veche.peace),
            "alive": [s.name for s in new_state.active()],
            "over": new_state.over,
        }
        if new_state.over:
            outcome["winner"] = new_state.winner
        return outcome
