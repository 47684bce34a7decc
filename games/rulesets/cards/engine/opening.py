"""The opening of a cards game: the deal (`new_game`), the opening draw, and what the mafia and every
player learn at the start of the first night. Mixed into CardsRuleset (games.rulesets.cards.engine.ruleset).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from games.engine.events import GM, PUBLIC, Event, faction_audience, seat_audience
from games.engine.rulesets.common import pick_seat
from games.engine.rulesets.common import ref as _ref
from games.engine.state import ACTIVE, GameState, SeatState
from games.rulesets.cards.engine.collection import default_collection, parse_collection
from games.rulesets.cards.engine.context import (
    DECKBUILDING,
    HAND,
    ILLEGAL_DECKS,
    OPENING_HAND,
    OPTION_DEFAULTS,
    SLEEVE,
    TIE_BREAKS,
)
from games.rulesets.cards.engine.effects import Table
from games.rulesets.cards.engine.roles import (
    MAFIA,
    ROLES,
    SECRET_ROLES,
    SINGLE_ROLES,
    colours_of,
    deal_placeholders,
    default_role_table,
    overt_key,
    overt_role,
    valid_chosen_colours,
)


class OpeningMixin:
    """A part of CardsRuleset (ruleset.py), not used alone. The deal and the opening draw. Uses `self.key`, the player
    limits and `self.min_players` of CardsRuleset."""

    def default_roles(self, size: int) -> list[str]:
        return default_role_table(size, minimum=self.min_players, maximum=self.max_players)

    def new_game(
        self,
        seats: Sequence[tuple[int, str, str]],
        *,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        seat_data: Mapping[Any, Mapping[str, Any]] | None = None,
    ) -> tuple[GameState, tuple[Event, ...]]:
        """Deal the game. `seats` are (seat id, display name, role); a role may be a placeholder
        (`law`, `joker_or_traitor`) drawn here with `random.Random(seed)` — the site passes the
        game's secret seed. `seat_data` (or `options["seat_data"]`) gives per seat (by id or name):
        `overt` (the application's «Класс»), and for scenario files `deck` (top first), `hand`,
        `sleeve`, `colours`. `options["collection"]` is the GM's edited collection (the shipped
        one by default); it is validated and frozen into the state."""
        seats = [tuple(s) for s in seats]
        ids = [s[0] for s in seats]
        names = [s[1] for s in seats]
        if not self.min_players <= len(seats) <= self.max_players:
            raise ValueError(f"the cards rule set is played by {self.min_players} to {self.max_players} players, "
                             f"not {len(seats)}")
        if any(not isinstance(i, int) or isinstance(i, bool) for i in ids) or len(set(ids)) != len(ids):
            raise ValueError("seat ids must be unique integers")
        if any(not n or not str(n).strip() for n in names) or len(set(names)) != len(names):
            raise ValueError("player names must be non-empty and unique")
        unknown = sorted({s[2] for s in seats if s[2] not in ROLES})
        if unknown:
            raise ValueError(f"unknown cards roles: {unknown}")
        merged = {**OPTION_DEFAULTS, **dict(options or {})}
        raw_collection = merged.pop("collection", None)
        from_options = merged.pop("seat_data", None)
        seat_data = seat_data if seat_data is not None else from_options
        if not isinstance(merged["hero"], bool):
            raise ValueError("option hero must be true or false")
        if not isinstance(merged["several_avengers"], bool):
            raise ValueError("option several_avengers must be true or false")
        if merged["extra_neutral"] not in ("random", "joker", "traitor"):
            raise ValueError("option extra_neutral must be random, joker or traitor")
        if merged["tie_break"] not in TIE_BREAKS:
            raise ValueError("option tie_break must be overt, name or gm")
        if not isinstance(merged["measure_weight"], bool):
            raise ValueError("option measure_weight must be true or false")
        if merged["illegal_deck"] not in ILLEGAL_DECKS:
            raise ValueError("option illegal_deck must be random or gm")
        collection = parse_collection(raw_collection, source="option collection") if raw_collection is not None \
            else default_collection()
        rng = random.Random(seed if seed is not None else 0)
        roles = deal_placeholders([s[2] for s in seats], rng, hero=merged["hero"],
                                  extra_neutral=merged["extra_neutral"])
        doubled = sorted(r for r in SINGLE_ROLES if roles.count(r) > 1)
        if doubled:
            raise ValueError(f"at most one of each: {doubled}")
        state = GameState(
            ruleset=self.key,
            seats=tuple(SeatState(i, n, r, SECRET_ROLES[r].faction) for (i, n, _), r in zip(seats, roles)),
            phase=DECKBUILDING,
            options=merged,
        )
        data: dict[int, Mapping[str, Any]] = {}
        for key, value in (seat_data or {}).items():
            seat = pick_seat(state, key)
            if seat is None:
                raise ValueError(f"seat_data: {key!r} is not a player of this game")
            if not isinstance(value, Mapping):
                raise ValueError(f"seat_data: {key!r}: a mapping is required")
            data[seat] = value

        memory: dict[str, Any] = {"collection": collection.to_json(), "overt": {}, "players": {}, "deaths": []}
        table = Table(memory, collection)
        taken: dict[str, str] = {}
        for seat in state.seats:
            given = data.get(seat.id, {})
            extra = sorted(set(given) - {"overt", "deck", "hand", "sleeve", "colours"})
            if extra:
                raise ValueError(f"seat_data for {seat.name}: unknown key {extra[0]!r}")
            overt = str(given.get("overt") or "").strip()
            if overt:
                key = overt_key(overt)
                # «если до игры допущено несколько мстителей»: the GM's option lets the Avenger repeat.
                if key in taken and not (merged["several_avengers"] and key == overt_key("Мститель")):
                    raise ValueError(f"the overt role {overt!r} is taken by {taken[key]}: «Каждой явной роли может "
                                     f"быть только один представитель»")
                taken[key] = seat.name
                memory["overt"][str(seat.id)] = overt
            player = table.player(seat.id)
            for field_name in ("deck", "hand", "sleeve"):
                cards = given.get(field_name)
                if cards is None:
                    continue
                if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
                    raise ValueError(f"seat_data for {seat.name}: {field_name} must be a list of card names")
                missing = [c for c in cards if c not in collection]
                if missing:
                    raise ValueError(f"seat_data for {seat.name}: {field_name}: unknown card {missing[0]!r}")
            colours = given.get("colours")
            if colours is not None:
                if not valid_chosen_colours(seat.role, list(colours)):
                    raise ValueError(f"seat_data for {seat.name}: colours: {colours!r} are not this role's choice")
                player["colours"] = list(colours)
            # What the overt role puts in the Sleeve, then the secret role's, then the scenario's.
            hook = overt_role(overt)
            for card in (hook.start_sleeve if hook else ()):
                if card in collection:
                    table.put(seat.id, card, SLEEVE, overt=True)
            for card in SECRET_ROLES[seat.role].start_sleeve:
                if card in collection:
                    table.put(seat.id, card, SLEEVE)
            for card in given.get("sleeve") or ():
                table.put(seat.id, card, SLEEVE)
            if given.get("deck") is not None or given.get("hand") is not None:
                # «A player given a deck skips deck building; given a hand too, he skips the opening draw.»
                player["deck"] = list(given.get("deck") or ())
                player["built"] = True
                if given.get("hand") is not None:
                    player["hand"] = list(given["hand"])
                else:
                    self._opening_draw(overt, table, seat)
        everyone_built = all(table.player(s.id)["built"] for s in state.seats)
        state = replace(state, phase="night 1" if everyone_built else DECKBUILDING, memory=memory)

        overts = memory["overt"]
        events: list[Event] = [
            Event("game_started", PUBLIC, {
                "players": [{**_ref(s), "overt": overts.get(str(s.id), "")} for s in state.seats],
                "phase": state.phase,
            }),
        ]
        for s in state.seats:
            spec = SECRET_ROLES[s.role]
            events.append(Event("role", seat_audience(s.id), {
                **_ref(s), "role": s.role, "faction": s.faction, "overt": overts.get(str(s.id), ""),
                "colours": list(colours_of(s.role, table.player(s.id)["colours"])),
                "chooses_colours": spec.chooses_colours,
            }))
        members = [s for s in state.seats if s.faction == MAFIA]
        if members:
            # «После получения ролей члены Мафии узнают личности друг друга.»
            events.append(Event("team", faction_audience(MAFIA), {
                "faction": MAFIA, "members": [{**_ref(s), "role": s.role} for s in members],
            }))
        if everyone_built:
            events += self._night_one_events(state, table)
        return state, tuple(events)

    def _opening_draw(self, overt: str, table: Table, seat: SeatState) -> None:
        """«Как только все выбрали себе колоду каждый игрок набирает себе 6 карт из колоды в руку»
        (an overt role's `opening_hand` changes the 6: Здоровяк 7 — «В начале первой ночи добирает
        дополнительную 1 карту из Колоды в Руку», drawn with the others, after the sixth —, Гик 5);
        the maniac «В начале игры тянет 1 карту из Колоды в Рукав», and Шулер the same (after the
        Hand: «В начале игры тянет 1 карту из колоды в Рукав»; a card of his own deck, so it pays a
        Price like any)."""
        hook = overt_role(overt)
        size = hook.opening_hand if hook is not None and hook.opening_hand is not None else OPENING_HAND
        # «Инженер/Механик: Собирая Колоду, может выбрать из нее две карты. Эти карты гарантированно
        # будут среди 6 сданных карт.» The chosen cards are taken out of the shuffled deck; the rest of
        # the Hand is drawn from its top; the chosen cards go to the end of the Hand (its order is his).
        player = table.player(seat.id)
        chosen = []
        for name in player.pop("picks", None) or ():
            if name in player["deck"] and len(chosen) < size:
                player["deck"].remove(name)
                chosen.append(name)
        for _ in range(size - len(chosen)):
            table.draw(seat.id, HAND)
        player["hand"].extend(chosen)
        for _ in range(SECRET_ROLES[seat.role].opening_sleeve_draws + (hook.opening_sleeve_draws if hook else 0)):
            table.draw(seat.id, SLEEVE)  # the maniac's, and Шулер's «В начале игры тянет 1 карту из колоды в Рукав»

    def _night_one_events(self, state: GameState, table: Table) -> list[Event]:
        """«В начале первой ночи члены Мафии узнают колоды и Руки друг друга.» (the deck as its
        contents: its order is secret even to its owner), every player's own containers, and the
        Hand sizes everyone learns."""
        events: list[Event] = []
        members = [s for s in state.seats if s.faction == MAFIA and s.status == ACTIVE]
        if members:
            events.append(Event("mafia_decks", faction_audience(MAFIA), {"members": [
                {**_ref(s), "role": s.role, "deck": sorted(table.deck(s.id)), "hand": list(table.hand(s.id))}
                for s in members
            ]}))
        for s in state.seats:
            events.append(Event("containers", seat_audience(s.id), {**_ref(s), **self.own_view(state, table, s.id)}))
            events.append(Event("deck_order", GM, {**_ref(s), "deck": list(table.deck(s.id))}))
        events.append(Event("hand_sizes", PUBLIC, {"sizes": [
            {**_ref(s), "size": len(table.hand(s.id))} for s in state.seats if s.status == ACTIVE
        ]}))
        return events
