"""The show's adapter for the site (docs/rulesets/show.md, "The site"): its stages as phase kinds
with their timers, its heroes' panel, the slaves' chat, its pages and its scenario keys."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from games.rulesets.base import GmInput, ScenarioSpec, SiteRuleset
from games.rulesets.show import forms
from games.rulesets.show.engine import SHOW
from games.rulesets.show.engine.coins import TRANSFER_REASONS, seat_of
from games.rulesets.show.engine.privileges import is_mole
from games.rulesets.show.engine.stages import OPTION_DEFAULTS
from games.rulesets.show.wording import LEDGER, SITE_LEDGER_REASONS, STAGE_NAMES, WORDING, stage_name
from games.services.gm_writes import THREADS

class ShowSite(SiteRuleset):
    key = "show"
    label = _("The Show")
    engine = SHOW
    wording = WORDING
    urls_module = "games.rulesets.show.urls"

    # --- Stages ------------------------------------------------------------------------------
    # One name per stage (issue 28, item 14): the wording's, here and on every page of the show.
    phase_kinds = dict(STAGE_NAMES)
    # The show's ballots are cast on the hero's panel and stay hidden until the stage ends
    # («Кто как проголосовал становится всем видно только в конце этапа»): no vote is read from a
    # post and no running count is shown, so no phase kind is a voting one for the core.
    voting_kinds = frozenset()
    # The engine's lots are «show:<seed>:<stage>»: the game's seed is handed over as it is.
    seeds_by_phase_name = True
    # «а затем наступает заключительный этап: Судный День» (issue 28, item 7; docs/rulesets/show.md,
    # "Судный День"): after the win and the settlement, the show is over (every role and secret open,
    # the results published) and its game thread stays open for the heroes' last words, slaves too
    # and free of fees, for the GM's `doomsday_hours`; then it locks.
    epilogue_kind = SHOW.doomsday

    def epilogue_length(self, *, game, state):
        return SHOW.doomsday_length(state)

    def phase_label(self, kind: str, number: int) -> str:
        return stage_name(kind, number)

    def phase_deadline(self, *, game, now):
        """The stage's timer: its minutes times the timer table's percent for the free heroes
        (SHOW.deadline); a stage that waits for nothing is due at once (services.stage_deadline)."""
        from games.rulesets.show.services import stage_deadline  # the services load the models: at the open

        return stage_deadline(game=game, now=now)

    # --- Heroes ------------------------------------------------------------------------------
    # «Рабство это ещё не конец»: a slave stays in the show (he writes in the slaves' chat, pays
    # his burden, may be tried); only a free hero makes the free heroes' choices (the engine's checks).
    in_play_statuses = frozenset({"active", "enslaved"})

    def default_roles(self, *, game, size: int) -> list[str]:
        return list(SHOW.default_roles(size, demon=(game.options or {}).get("demon", True) is not False))

    def signup_refusal(self, *, game, user):
        """«Для участия в Шоу нужно иметь положительный Баланс»; the ИндиКод «создаётся при его
        первом входе в любую сессию» (coins.services)."""
        from coins import services as coins  # the ledger loads its models: at a sign-up

        refusal = coins.can_join(user)
        if refusal is None:
            coins.ensure_indicode(user)
        return refusal

    def engine_options(self, *, game) -> dict:
        return {k: v for k, v in (game.options or {}).items() if k in OPTION_DEFAULTS}

    # --- Talking: the slaves' chat ----------------------------------------------------------------
    # «что пишут рабы в чате, видят только другие рабы и наблюдатели»: the game's lounge is the
    # slaves' chat; a slave does not talk where the free heroes read.
    team_chat_default = True
    lounge_label = _("the slaves' chat")

    def lounge_reader(self, seat) -> bool:
        return getattr(seat, "status", None) == "enslaved" or not self.in_play(seat)

    # «Наблюдатели во время Шоу могут писать в общий чат за плату»: the fee is charged when the post
    # is stored (services.show_post_stored, economy.message_fee(observer=True)).
    observers_post = True

    def talk_refusal(self, seat, thread_kind: str):
        if getattr(seat, "status", None) == "enslaved":
            return _("A slave talks only in the slaves' chat (the game's lounge).")
        # part 3; the services load the models: imported at a post
        from games.rulesets.show.privileges.services import stunned_now

        if stunned_now(seat):  # «лишает оглушаемого возможности отправлять любые сообщения до конца ночи»
            return _("You are stunned: you send no message until the night ends.")
        return None

    # --- Part 3, the privileges: the Крот's hidden role, the Говорун's /fake ------------------------
    def role_known_to_holder(self, *, game, seat) -> bool:
        """«Крот не знает свою Роль и должен выяснить её в ходе Шоу»."""
        # the selectors load the models: imported at a page
        from games.selectors.state import game_state

        state = game_state(game)
        return state is None or not state.has_seat(seat.pk) or not is_mole(state, seat.pk)

    def post_sender_choices(self, *, game, user) -> list[tuple[int, str]]:
        # the services load the models: imported at a post
        from games.rulesets.show.privileges.services import sender_choices

        return sender_choices(game=game, user=user)

    def post_sender_refusal(self, *, game, user, shown_user_id: int, now):
        # the services load the models: imported at a post
        from games.rulesets.show.privileges.services import sender_refusal

        return sender_refusal(game=game, user=user, shown_user_id=shown_user_id, now=now)

    def post_signed(self, *, game, post, now) -> None:
        # the services load the models: imported at a post
        from games.rulesets.show.privileges.services import post_signed

        post_signed(game=game, post=post, now=now)

    def new_game_arguments(self, *, game, seats: list, seat_data: dict | None) -> dict:
        """The game's seed deals the privileges in play (engine: privileges.deal_privileges); a
        scenario file's players may fix them (`privileges: [...]`, {seat id: {"privileges": [...]}})."""
        data = {int(k): {"privileges": list(v["privileges"])} for k, v in (seat_data or {}).items()
                if (v or {}).get("privileges")}
        return {"seed": game.rng_seed, "seat_data": data}

    def media_post_kind(self, *, game, user) -> str | None:
        from games.rulesets.show.services import show_media_owed  # the services load the models: at a post

        return show_media_owed(game=game, user=user)

    def anonymous_sent(self, *, game, message, now) -> None:
        from games.rulesets.show.coins.services import charge_anonymous  # the services load the models: at a send

        charge_anonymous(game=game, message=message, now=now)

    def post_stored(self, *, game, post, now) -> bool:
        from games.rulesets.show.services import show_post_stored  # the services load the models: at a post

        return show_post_stored(game=game, post=post, now=now)

    # --- Coins: every reason of a line the show posts, worded by wording.LEDGER (issue 28, item 13) -------
    ledger_reasons = TRANSFER_REASONS | SITE_LEDGER_REASONS

    # --- The hero's panel and the show's pages -----------------------------------------------------
    capabilities = frozenset({"show_pages"})
    # Not yet an automatic game (docs/rulesets/show.md, "Automatic games"): the GM's fines and the
    # media greetings' judging are a human's. (The slaves' daily task no longer is: issue 28, item 6,
    # each morning takes the next task of the list.)
    auto_host_refusal = _("The show needs a human GM: he gives fines for forbidden acts.")
    signup_referral = True  # «новичок должен либо выбрать один из предлагаемых ему ИндиКодов героев»
    template_panels = {
        "game.actions": ("games/_show_game_actions.html",),
        "game.public": ("games/_show_panel.html", "games/_show_privileges_panel.html"),
        "gm.links": ("games/_show_gm_links.html",),
        "role.links": ("games/_show_role_links.html",),
        "gm.decisions": ("games/_show_gm_stage.html", "games/_show_gm_coins.html", "games/_show_gm_replace.html"),
        # Part 2: every fee shown before it is paid (the reply form's message fee, the entry fee at
        # the sign-up), and the results page's link once the show is over.
        "thread.reply": ("games/_show_reply_fee.html",),
        # issue 28, item 21: the game thread names the running stage and its timer
        "thread.top": ("games/_show_thread_stage.html",),
        "role.anonymous": ("games/_show_anonymous_fee.html",),
        "game.signup": ("games/_show_signup_fee.html",),
        "game.winner": ("games/_show_results_link.html",),
        # issue 28, item 18: the show reads no vote from posts, so the game page shows how it votes
        # instead of the forum's vote syntaxes (SiteRuleset.votes_in_posts)
        "game.vote_help": ("games/_show_vote_help.html",),
        # issue 28, item 16: the vote count page shows the show's own ballots, stage by stage
        "votes.page": ("games/_show_votes.html",),
    }

    def panel_context(self, place: str, context: dict) -> dict:
        if place == "gm.decisions":  # the GM's page: whom the stage waits for, the judge's lot
            from games.rulesets.show.selectors import gm_stage  # the selectors load the models: at a page

            # part 2, the show's coins; the selectors load the models: imported at a page
            from games.rulesets.show.coins.selectors import gm_books

            # issue 28, item 19: the GM's «Заменить приказ», from the engine's menu of each hero
            from games.rulesets.show.selectors import gm_replace_rows  # the selectors load the models: at a page

            game, request = context.get("game"), context.get("request")
            user = getattr(request, "user", None)
            return {"show_gm": gm_stage(game=game, user=user) if game is not None else None,
                    "show_gm_books": gm_books(game=game, user=user) if game is not None else None,
                    "show_gm_replace": gm_replace_rows(game=game, user=user) if game is not None else None}
        if place == "votes.page":
            from games.rulesets.show.selectors import stage_votes  # the selectors load the models: at a page

            request = context.get("request")
            return {"show_votes": stage_votes(game=context.get("game"), user=getattr(request, "user", None))}
        if place == "thread.top":
            from games.rulesets.show.selectors import thread_stage  # the selectors load the models: at a page

            return {"show_thread_stage": thread_stage(context.get("game"))}
        if place == "thread.reply":
            from games.rulesets.show.coins.selectors import reply_fee  # the selectors load the models: at a page
            from games.rulesets.show.services import observer_fee  # the services load the models: at a page

            request = context.get("request")
            game, user = context.get("game"), getattr(request, "user", None)
            fee = reply_fee(game=game, thread=context.get("thread"), user=user)
            # issue 28, item 20: the Говорун told why «Отправить от имени» is gone (five fakes a stage)
            from games.rulesets.show.privileges.selectors import fakes_used_up  # the selectors load the models

            return {"show_message_fee": fee, "show_observer": fee is not None and observer_fee(game, user) is not None,
                    "show_fakes_used_up": fakes_used_up(game=game, user=user)}
        if place == "role.anonymous":
            from games.rulesets.show.coins.services import anonymous_fee  # the services load the models: at a page

            return {"show_anonymous_fee": anonymous_fee(context.get("game"))}
        if place == "game.signup":
            game = context.get("game")
            options = (getattr(game, "options", None) or {})
            return {"show_entry_fee": options.get("entry_fee", OPTION_DEFAULTS["entry_fee"])}
        if place != "game.public":
            return {}
        game = context.get("game")
        if game is None or game.status == "signups":
            return {}
        from games.rulesets.show.selectors import hero_panel  # the selectors load the models: at a page

        # part 3, the privileges' panel; the selectors load the models: imported at a page
        from games.rulesets.show.privileges.selectors import privileges_panel

        request = context.get("request")
        user, seat, pov = getattr(request, "user", None), context.get("my_seat"), bool(context.get("pov_seat"))
        return {"show_panel": hero_panel(game=game, seat=seat, user=user, pov=pov),
                "show_privileges": privileges_panel(game=game, seat=seat, user=user, pov=pov)}

    # --- Orders: every input is the show's own, read from its ledger --------------------------------
    orders_on_role_page = False
    # The GM puts a hero's input right on the show's own form (gm.decisions, the GM input
    # `show_replace`), built from the engine's menu of each hero: the core's «Replace an order»
    # offers the roles' night actions only, through the core's orders (issue 28, item 19).
    core_order_override = False

    def gm_inputs(self) -> dict[str, GmInput]:
        """The GM's inputs on his dashboard: a hero's input put right (issue 28, item 19), the
        running trial's task (item 6: told in the game thread, the threads change) and the tasks
        still to come (the GMs' alone)."""
        # the views load the models and the services: imported when the dashboard asks
        from games.rulesets.show.coins.views import gm_trial_task, gm_trial_tasks
        from games.rulesets.show.views import gm_replace  # as above

        # A replaced input is a ledger row of the stage: the game's own page only (the show has no
        # core vote count, and nothing is posted in its threads).
        return {"show_replace": GmInput(gm_replace, changes=()),
                "trial_task": GmInput(gm_trial_task, changes=(THREADS,)),
                "trial_tasks": GmInput(gm_trial_tasks, changes=())}

    def phase_inputs(self, phase) -> Any:
        from games.rulesets.show.services import ledger_inputs  # the services load the models: at a close

        return ledger_inputs(phase)

    def awaited(self, game, phase) -> frozenset[int] | None:
        from games.rulesets.show.services import stage_awaited  # the services load the models: at a desk

        return stage_awaited(game=game, phase=phase)

    def ledger_row_detail(self, order) -> str | None:
        from games.rulesets.show.services import ledger_row_text  # the services load the models: at a ledger row

        return ledger_row_text(order)

    def close_outcome(self, *, phase, outcome: dict) -> dict:
        from games.rulesets.show.services import close_outcome  # the services load the models: at a close

        return close_outcome(phase=phase, outcome=outcome)

    # --- The new-game form -----------------------------------------------------------------------
    def option_fields(self) -> dict:
        return forms.option_fields()

    def options_from(self, cleaned: dict) -> dict:
        return forms.options_from(cleaned)

    def option_errors(self, cleaned: dict) -> dict:
        return forms.option_errors(cleaned)

    # «В каждом Большом Шоу всегда ровно 10 участников»: the new-game form starts at 10 for a show.
    default_size = 10

    # --- Scenario files (docs/rulesets/show.md, "Scenario keys") ----------------------------------
    scenario = ScenarioSpec(
        gm={},
        own_inputs=frozenset({"greetings", "defences", "opinions", "posted", "votes", "requests", "knowledge",
                              "active", "lull", "ratings",
                              # part 2 (scenario_inputs.COINS_INPUTS); `message_fees` is the engine player's only
                              "acted_at", "bets", "raise", "sympathies", "ally_picks", "trial_answers", "grants",
                              # part 3, the privileges (scenario_inputs.PRIVILEGE_INPUTS)
                              "stun", "exclude", "extra_votes", "intercept", "mole", "steal",
                              # issue 28, item 4: «Я всё» (scenario_inputs: played last)
                              "done",
                              # issue 28, item 6: the GM's trial tasks (scenario_inputs.TEXTS)
                              "trial_task", "trial_tasks"}),
        # part 3: a player's fixed privileges (`privileges: [bouncer]`), handed to the deal
        # (new_game_arguments) instead of the seed's
        player_keys=frozenset({"privileges"}),
        seat_data=("privileges",),
        order_keys=frozenset({"question", "public_key", "extra_knowledge"}),
        plays_orders=True,
        words=frozenset({"enslave", "spare", "greeting", "defence", "opinion", "pass"}),
        # the posts after the ballots, choices and the privileges' inputs: a stun made at once
        # silences the stunned's posts of that night (Вышибала rule 6), as the engine's player reads it
        posts_after_inputs=True,
    )

    def scenario_check(self, key: str, value) -> str | None:
        from games.rulesets.show.scenario_inputs import check  # it loads the services and models: at a file's check

        return check(key, value)

    def scenario_outcome(self, outcome: dict, seat_numbers: dict[int, int]) -> dict:
        """The close's transfers name accounts by seat id (`hero:<seat>`, `escrow:<seat>`) and its
        rating changes name their seat by id; the files name them by the player's place, as the
        engine's player does."""
        def account(reference):
            seat = seat_of(reference) if isinstance(reference, str) else None
            if seat is None or seat not in seat_numbers:
                return reference
            return f"{reference.partition(':')[0]}:{seat_numbers[seat]}"

        outcome = dict(outcome)
        if isinstance(outcome.get("transfers"), list):
            outcome["transfers"] = [{**t, "debit": account(t.get("debit")), "credit": account(t.get("credit"))}
                                    if isinstance(t, dict) else t for t in outcome["transfers"]]
        if isinstance(outcome.get("ratings"), list):
            outcome["ratings"] = [{**r, "seat": seat_numbers.get(r.get("seat"), r.get("seat"))}
                                  if isinstance(r, dict) else r for r in outcome["ratings"]]
        return outcome

    def scenario_play_inputs(self, **kwargs) -> None:
        from games.rulesets.show.scenario_inputs import play_inputs  # the services load the models

        play_inputs(**kwargs)


SITE = ShowSite()


def _ledger_words() -> None:
    # The «Баланс» page words the show's lines (reason, detail, stage) with the show's own words:
    # coins may not import the rule set to ask (the coins-below-games contract), so the rule set
    # registers them with it, once, with the adapter (issue 28, item 13).
    from coins.wording import register_game_words

    register_game_words(ShowSite.key, LEDGER)


_ledger_words()
