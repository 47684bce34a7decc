"""The cards rule set's adapter for the site."""

from django.utils.translation import gettext_lazy as _

from games.rulesets.base import SiteRuleset
from games.rulesets.base import ScenarioSpec, SeatColumn
from games.rulesets.cards import forms
from games.rulesets.cards.engine import CARDS
# The overt role «Мститель»: «Будучи мертвым, может продолжать публично общаться с другими игроками
# и участвовать в старых и новых чат-комнатах».
from games.rulesets.cards.engine.dead import AVENGER
from games.rulesets.cards.engine.roles import OVERT_ROLES, overt_role
from games.rulesets.cards.wording import WORDING


class CardsSite(SiteRuleset):
    key = "cards"
    label = _("Card mafia")
    engine = CARDS
    wording = WORDING
    urls_module = "games.rulesets.cards.urls"
    phase_kinds = {**SiteRuleset.phase_kinds, "deckbuilding": _("Deck building")}

    # Scenario files (docs/rulesets/cards.md, "Outcome keys"): the GM's damage and armour by name,
    # plays, discards and reorders as the card forms send them, and each player's deck, Hand and
    # Sleeve handed to the start.
    scenario = ScenarioSpec(
        # docs/rulesets/cards.md, "Part 2 (b)": the GM's pick for a tied vote (option tie_break: gm).
        gm={"damage": "seat_map", "armour": "seat_map", "tie_break": "seat"},
        inputs={"plays": frozenset({"by", "card", "from", "target", "target2", "message", "pay"}),
                "discards": frozenset({"by", "cards"}), "reorder": frozenset({"by", "hand"}),
                # docs/rulesets/cards.md, "Part 2 (b)": a deck-building phase's decks (the Engineer's picks)
                "decks": frozenset({"by", "cards", "colours", "picks"}),
                # «Если колода персонажа становится пуста ... может в любой момент собрать новую колоду»
                "rebuilds": frozenset({"by", "cards", "colours"}),
                # docs/rulesets/cards.md, "Part 2 (a)": {by, ability, <the ability's own inputs>}
                "abilities": frozenset({"by", "ability", "target", "target2", "card", "sleeve_card", "cards", "zone",
                                        "mode", "roles", "role"})},
        player_keys=frozenset({"deck", "hand", "sleeve"}),
        seat_data=("deck", "hand", "sleeve"),
    )

    # --- Automatic games (docs/rulesets/cards.md, "Automatic games"): no GM damage, armour or
    # effects; a tie is broken by the overt roles' order, never by a GM's pick.
    auto_host = True

    def auto_host_rules(self, *, game) -> list:
        return [
            _("A tie on the Вече is broken as the rules say: «Приоритет повешения - по алфавиту» (by the "
              "overt roles' names); no GM picks."),
            _("Cards are played on the site; only what the cards and roles do happens: no damage, armour "
              "or effect is added by hand."),
            _("A deck missing or refused at the end of deck building is replaced by a legal one drawn at "
              "random from the cards of the role's colours and Neutral."),
        ]

    def auto_host_options(self, options: dict) -> dict:
        options = dict(options)
        if options.get("tie_break") == "gm":  # only a human GM can pick: the seed's alphabetical order
            options["tie_break"] = "overt"
        return options

    def scenario_play_inputs(self, **kwargs) -> None:
        # The card services load the models: imported when a scenario plays, not at registration.
        from games.rulesets.cards.scenario_inputs import play_inputs

        play_inputs(**kwargs)

    # The card pages (a player's Hand, Sleeve and deck; the GM's card dashboard; the collection
    # and its editor), and the overt role («Класс») shown beside each seat once the game runs.
    capabilities = frozenset({"cards_pages", "overt_roles"})
    template_panels = {
        "game.actions": ("games/_cards_game_actions.html",),
        "game.signup": ("games/_cards_signup.html",),
        "game.gm_tools": ("games/_cards_gm_collection.html",),
        "game.public": ("games/_cards_game_public.html",),
        "gm.links": ("games/_cards_gm_links.html",),
        "role.links": ("games/_cards_role_links.html", "games/_cards_role_powers.html"),
        "games.links": ("games/_cards_list_links.html",),  # the game list: the collection and deck rules
    }

    def panel_context(self, place: str, context: dict) -> dict:
        if place == "game.signup":  # the seed's overt roles, offered in the «Класс» field with their abilities
            # The selectors load the models: imported when a page asks, not at registration.
            from games.rulesets.cards.selectors import overt_role_list

            return {"overt_role_names": sorted(OVERT_ROLES), "overt_roles": overt_role_list()}
        if place == "role.links":  # the player's overt role, what it does, what is left of it, his abilities
            # The selectors load the models: imported when a page asks, not at registration.
            from games.rulesets.cards.selectors import overt_ability, overt_summary

            # The pages load the models too: imported when a page asks, not at registration.
            from games.rulesets.cards.views import role_abilities_context

            game, seat = context.get("game"), context.get("seat")
            overt = str(getattr(seat, "overt_role", "") or "")
            ability = overt_ability(game, seat) if game is not None and seat is not None else None
            return {"overt_role": ability["name"] if ability else overt, "overt_summary": overt_summary(overt),
                    "overt_notes": ability["notes"] if ability else [], **role_abilities_context(game, seat),
                    **self._role_powers(context)}
        if place == "game.public":
            return {"hand_sizes": self._hand_sizes(context)}
        return {}

    @staticmethod
    def _role_powers(context: dict) -> dict:
        """The role page's lines on what the seat's secret role's powers learned: the hero's goals
        fulfilled, the joker's secret roles of the dead — read from the events the page already
        shows this viewer (games.selectors: visible_events), so nothing is shown that the viewer
        may not see."""
        rows = [row["event"] for row in context.get("events") or () if isinstance(row, dict) and "event" in row]
        # The wording loads the site's modules: imported when a role page asks.
        from games.rulesets.cards.wording import HERO_GOALS, ROLE_NAMES

        dead_roles = [{"name": e.data.get("name"), "role": ROLE_NAMES.get(e.data.get("role"), e.data.get("role"))}
                      for e in rows if e.kind == "dead_role"]
        goals = [HERO_GOALS.get(e.data.get("goal"), e.data.get("goal")) for e in rows if e.kind == "hero_goal"]
        return {"dead_roles": dead_roles, "hero_goals": goals}

    @staticmethod
    def _hand_sizes(context: dict) -> dict | None:
        """The game page's public Hand sizes, once the cards are dealt."""
        game, request = context.get("game"), context.get("request")
        user = getattr(request, "user", None)
        if game is None or user is None or game.status == "signups":
            return None
        # The pages load the models and the site's modules: imported when a page asks, not at registration.
        from games.rulesets.cards.views import hand_sizes_context

        return hand_sizes_context(user, game)

    # --- Seats and sign-ups: «Класс» (overt role) and «Внешность» (contacts, for the GMs) -------
    gm_seat_columns = (SeatColumn(_("Class"), "overt_role"), SeatColumn(_("Appearance"), "contacts", "contacts"))

    def signup_extras(self, *, game, overt_role: str = "", contacts: str = "") -> dict:
        # The services load the models: imported when an application comes, not at registration.
        from games.rulesets.cards.services import signup_extras

        return signup_extras(game=game, overt_role=overt_role, contacts=contacts)

    def new_game_arguments(self, *, game, seats: list, seat_data: dict | None) -> dict:
        """Each seat's «Класс» goes to new_game as its overt role; `seat_data` (scenario files) adds
        decks, Hands and Sleeves; new_game draws the `law` / `joker_or_traitor` placeholders with
        the game's seed."""
        data = {s.pk: {"overt": s.overt_role} for s in seats}
        for key, value in (seat_data or {}).items():
            data.setdefault(int(key), {}).update(value)
        return {"seed": game.rng_seed, "seat_data": data}

    # --- Orders and phase inputs: every card input has its form on the cards page --------------
    orders_on_role_page = False

    def phase_inputs(self, phase):
        # The services load the models: imported when a phase closes, not at registration.
        from games.rulesets.cards.services import card_phase_inputs

        return card_phase_inputs(phase)

    def ledger_row_detail(self, order) -> str | None:
        # The services load the models: imported when a ledger row is shown, not at registration.
        from games.rulesets.cards.services import CARD_ACTIONS, card_order_text

        if order.action not in CARD_ACTIONS:
            return None
        return card_order_text(order)

    # --- The Veche's count: its leader is punished whatever the margin, its votes weigh 1 to 4 ----
    def count_words(self, count):
        # The count reads the card ledger and the game's state: imported when a count is shown.
        from games.rulesets.cards.veche_count import count_words

        return count_words(count)

    # --- The Veche's measure («казнь» / «тюрьма»), read from the vote posts ---------------------
    measures = ("execution", "prison")

    def measure_submit(self, *, game, user, measure: str, post_number: int, now) -> tuple[bool, str]:
        # The services load the models: imported when a post is read, not at registration.
        from games.rulesets.cards.services import measure_submit

        return measure_submit(game=game, user=user, measure=measure, post_number=post_number, now=now)

    def measures_standing(self, phase) -> dict[int, str]:
        # The services load the models: imported when a count is made, not at registration.
        from games.rulesets.cards.services import measures_standing

        return measures_standing(phase)

    def measure_weights(self, phase, weights: dict) -> dict:
        """«measure_weight»: the vote strengths weigh the measure vote too, unless the GM counts
        every measure vote as one (the engine's count_veche reads the same option)."""
        from games.selectors.votes import engine_state_of  # the count's reads: when a count is made

        _ruleset, state = engine_state_of(phase)
        if state is not None and not CARDS.option(state, "measure_weight"):
            return {seat: 1 for seat in weights}
        return weights

    def measure_refusal(self, *, game, phase, seat, measure: str) -> str:
        # The services load the models: imported when a post is previewed, not at registration.
        from games.rulesets.cards.services import measure_refusal

        return measure_refusal(game=game, phase=phase, seat=seat, measure=measure)

    # --- Talking (001) -----------------------------------------------------------------------
    quiet_phases = {"deckbuilding": _("Radio silence: nobody writes while the decks are being built.")}
    out_of_play_talk = "silent"

    def talks_when_out_of_play(self, seat) -> bool:
        """Dead (the cards status `dead`, not a joker who left nor a GM's modkill) with the overt
        role «Мститель»: the seat's «Класс» as dealt, compared through the engine's normalised lookup."""
        if seat.status != "dead":
            return False
        role = overt_role(seat.overt_role)
        return role is not None and role.name == AVENGER

    # --- The new-game form: a hero, and the extra neutral at 13-14 players ----------------------
    def option_fields(self) -> dict:
        return forms.option_fields()

    def options_from(self, cleaned: dict) -> dict:
        return forms.options_from(cleaned)

    # --- Communication (001): [private] to the neighbours, rooms by agreement, no team chat (the
    # mafia's one message instead, docs/rulesets/cards.md "Talking"), no anonymous messages; the
    # overt roles that change who may talk to whom, and the messages cards send, delivered by the
    # GM as letters (games/rulesets/cards/messages.py).
    private_mode_default = "neighbours"
    rooms_default = True
    team_chat_default = False
    anonymous_default = None

    # The card and mafia messages reach their recipients as letters of their own (close_letters).
    letters_apart = frozenset({"message", "mafia_message"})

    def room_sizes(self, game, members: set[int]) -> tuple[int, ...]:
        return self._messages().room_sizes(game, members, super().room_sizes(game, members))

    def may_call_conspiracy(self, game, seat_pk: int) -> bool:
        return self._messages().is_conspirator(game, seat_pk)

    def may_write_beyond_neighbours(self, game, seat_pk: int) -> bool:
        return self._messages().is_postman(game, seat_pk)

    def deliver_queued(self, *, phase, now) -> int:
        return self._messages().card_messages_deliver(phase=phase, now=now)

    def close_events_screen(self, *, game, phase, events, now) -> list:
        return self._messages().card_messages_screen(game=game, phase=phase, events=events, now=now)

    def close_letters(self, *, game, phase, events, now) -> int:
        return self._messages().card_messages_from_events(game=game, phase=phase, events=events, now=now)

    @staticmethod
    def _messages():
        # The messages load the models and the services: imported when a game talks, not at registration.
        from games.rulesets.cards import messages

        return messages

    def phase_label(self, kind: str, number: int) -> str:
        if kind == "deckbuilding":  # one per game: no number
            return str(self.phase_kinds[kind])
        return super().phase_label(kind, number)


SITE = CardsSite()
