"""Death and what the dead still count for: the Assassin's kill, the Joker learns the dead's secret
roles, and the Avenger's team wins when the whole town has died. Mixed into CardsRuleset before the phase mixins; each hook wraps the
part-1 step it refines (`super()`).

«Джокер: ... Знает Тайные роли мёртвых персонажей.»
«Мститель: Будучи мертвым, может продолжать публично общаться с другими игроками и участвовать в
старых и новых чат-комнатах. Если умер весь город, победителем становится команда Мстителя (если до
игры допущено несколько мстителей, то погибшего последним Мстителя. Спорные случаи решаются дайсом.
...).» (The talking is the site's: games/rulesets/cards/site.py, talks_when_out_of_play.)
"""

from __future__ import annotations

from typing import Any

from games.engine.events import PUBLIC, Event, seat_audience
from games.engine.rulesets.common import ref as _ref
from games.engine.state import ACTIVE, GameState
from games.rulesets.cards.engine.context import _Close
from games.rulesets.cards.engine.roles import HERO, JOKER, LAW, MAFIA, TRAITOR
from games.rulesets.cards.engine.veche_roles import overt_name

AVENGER = "Мститель"
# The Avenger's team: his faction's win (the traitor wins with the mafia, the hero with the law).
TEAM_WIN = {TRAITOR: MAFIA, HERO: LAW}


def avengers(state: GameState) -> list[int]:
    return [s.id for s in state.seats if overt_name(state, s.id) == AVENGER]


class DeadMixin:
    """A part of CardsRuleset (ruleset.py), not used alone."""

    def _deaths(self, ctx: _Close) -> None:
        """«Знает Тайные роли мёртвых персонажей»: each character who dies is told to the joker
        with his secret role, if the joker is still in play at the end of the phase (the dead and
        the departed «не получают сообщений»). Nobody else learns it (the public `died` event
        names no role)."""
        for seat in ctx.kills:
            # «Убийца: Раз за игру может убить одного игрока, имеющего ровно 1 карту в руке.» Killed:
            # his Hand goes (nothing stops it) and the empty Hand is his death.
            if ctx.status[seat] == ACTIVE and ctx.table.hand(seat):
                gone = list(ctx.table.hand(seat))
                ctx.table.hand(seat).clear()
                ctx.table.graveyard(seat).extend(gone)
                ctx.ledger.add(ctx.ledger.lost, seat, gone)
                ctx.events.append(Event("assassinated", PUBLIC, _ref(ctx.seat(seat))))
        super()._deaths(ctx)
        jokers = [s.id for s in ctx.state.seats if s.role == JOKER and ctx.status[s.id] == ACTIVE]
        for joker in jokers:
            for seat in ctx.dead:
                if seat == joker:
                    continue
                ctx.events.append(Event("dead_role", seat_audience(joker), {
                    **_ref(ctx.seat(seat)), "role": ctx.seat(seat).role, "phase": ctx.state.phase}))

    def _game_winner(self, ctx: _Close, seats: Any) -> str | None:
        """«Если умер весь город, победителем становится команда Мстителя»: when nobody is left in
        play (part 1's «умерли все», no winner), the dead Avenger's faction wins. With several
        Avengers (the GM's option `several_avengers`) the one who died last; Avengers who died in
        the same phase are settled by a dice («Спорные случаи решаются дайсом»), the close's seeded
        RNG, and the throw is logged."""
        winner = super()._game_winner(ctx, seats)
        if winner != "none" or any(s.status == ACTIVE for s in seats) or ctx.joker_won is not None:
            return winner
        dead = {d["seat"]: i for i, d in enumerate(ctx.memory.get("deaths", ())) if isinstance(d, dict)}
        phase_of = {d["seat"]: d.get("phase") for d in ctx.memory.get("deaths", ()) if isinstance(d, dict)}
        candidates = [s for s in avengers(ctx.state) if s in dead]
        if not candidates:
            return winner
        last_phase = phase_of[max(candidates, key=dead.__getitem__)]
        last = sorted(s for s in candidates if phase_of[s] == last_phase)
        chosen = last[0] if len(last) == 1 else ctx.rng.choice(last)
        if len(last) > 1:
            ctx.events.append(Event("avenger_dice", PUBLIC, {
                "avengers": [_ref(ctx.seat(s)) for s in last], **_ref(ctx.seat(chosen))}))
        faction = ctx.seat(chosen).faction
        team = TEAM_WIN.get(faction, faction)
        ctx.avenger = chosen
        ctx.events.append(Event("avenger_team_won", PUBLIC, {**_ref(ctx.seat(chosen)), "faction": faction,
                                                               "winner": team}))
        return team

    def _game_winners(self, ctx: _Close, winner: str, seats: Any) -> list[int]:
        if ctx.avenger is not None and winner == JOKER:
            return [ctx.avenger]
        return super()._game_winners(ctx, winner, seats)

