"""ShowRuleset: the protocol's face (games.engine.rulesets.base.Ruleset) and each stage's close.

A stage closes either when nobody is owed any more (`waiting_for` is empty and the table is not
asleep, `ends_early`: the site closes it early) or at its timer (`deadline`, the site's Celery task); both call `resolve` with what was done
in the stage. Inputs (docs/rulesets/show.md, "Inputs"):

- `votes`: the day vote and the re-vote ballots (a seat id, or "enslave"/"spare" for one defendant);
- `orders`: the night choice of each hero (its `detail` may carry "question", "public_key",
  "extra_knowledge") and the judge's decision;
- `extra["posted"]`: {seat: ["greeting" | "defence" | "opinion", ...]} media posts made;
- `extra["opinion_requests"]`: {seat: seat} anonymous opinion requests (day 2 on);
- `extra["knowledge"]`: {seat: seat} a Secret Knowledge right used on a hero;
- `extra["active"]`: [seat] heroes who did anything at all (a post, a button): they wake;
- `extra["ratings"]`: {seat: number}, an override of the running ratings the coma's automatic
  choices read (scenarios and tests; the close reads memory's ratings without it).

Part 2, coins (docs/rulesets/show.md, "Part 2: coins"):

- `extra["acted_at"]`: {seat: seconds into the stage when he did the stage's action}, for the stage fee;
- `extra["message_fees"]`: {seat: coins} and `extra["observer_fees"]`: coins — what the site charged
  into the bank for messages in the stage (`economy.message_fee`), counted in the bank, not moved again;
- `extra["bets"]`: {seat: seat} a bet's pick (the first night; a raising Talent in the defence);
- `extra["raise"]`: [seat] Talents raising the stakes in the defence stage;
- `extra["trial_answers"]`: [seat] slaves who posted their trial answer;
- `extra["grants"]`: {granter: {slave: 10 | 15 | 25} | "pass"};
- `extra["sympathies"]`: {seat: seat} (day 1 and defence 1: the first; revote 1: the second);
- `extra["ally_picks"]`: {seat: seat} in the «Выбор Союзника» stage (`allies 1`).

Part 3, the privileges (docs/rulesets/show.md, "Part 3: privileges"; engine/privileges.py):

- `extra["stun"]`: {bouncer: seat} the Вышибала's stun (night; also at once: `stun`);
- `extra["exclude"]`: {lawyer: seat} the Адвокат's exclusion from the next day's vote list (night);
- `extra["extra_votes"]`: {authority: seat | "enslave" | "spare"} the Авторитет's extra vote (day, revote);
- `extra["intercept"]`: {hacker: {"number": n, "receiver" | "about": seat} or a list of them} the
  Хакер's guesses (any stage, while that knowledge is open);
- `extra["steal"]`: {thief: seat} the carousel's theft orders (day vote), resolved as the night begins;
- at once, not at a close: `mole(state, mole, seat)` (/mole), `stun(state, bouncer, seat)`; the
  Говорун's /fake is the site's post form, checked by `privileges.check_fake`.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from types import MappingProxyType
from typing import Any

from games.engine.events import GM, PUBLIC, Event, faction_audience, seat_audience
from games.engine.orders import Order, PhaseInputs
from games.engine.resolution import Resolution
from games.engine.rulesets.base import RoleSpec, SiteStyle
from games.engine.rulesets.common import ref, seat_id
from games.engine.state import GameState, SeatState
import games.rulesets.show.engine.privileges as priv
from games.rulesets.show.engine.alliances import check_pick, key_counts, menu, share_knowledge
from games.rulesets.show.engine.close import StageClose
from games.rulesets.show.engine.coins import TRANSFER_REASONS
from games.rulesets.show.engine.economy import new_coins_memory
from games.rulesets.show.engine.facts import SLAVE, holds, id_map, ids, in_coma, judge_sits, judge_today
from games.rulesets.show.engine.keys import (
    extra_knowledge_had,
    give_secret_key,
    is_revealed,
    knowledge_candidates,
)
from games.rulesets.show.engine.menu import check as check_input
from games.rulesets.show.engine.menu import menu as menu_of
from games.rulesets.show.engine.menu import optional_actions
from games.rulesets.show.engine.privilege_keys import MOLE
from games.rulesets.show.engine.roles import (
    ENSLAVE,
    FACTIONS,
    KEY,
    RELIEVE,
    REPTILOID,
    REPTILOIDS,
    ROLES,
    SAVE,
    SAVIOUR,
    SHOW_MAX,
    SHOW_MIN,
    SUSPECT,
    default_roles,
    innate_keys,
    validate_roles,
)
from games.rulesets.show.engine.stages import (
    ALLIES,
    DAY,
    DEFENCE,
    DEFENCE_SPEECH,
    DOOMSDAY,
    GREETING,
    GREETINGS,
    JUDGE,
    NIGHT,
    OPINION,
    REVOTE,
    SPARE,
    STAGE_KINDS,
    TO_SLAVERY,
    options_with_defaults,
    parse_phase,
    stage_deadline,
    stage_length,
)
import games.rulesets.show.engine.trials as trials
from games.rulesets.show.engine.trials import talents_today

VOTE, REQUEST_OPINION, USE_KNOWLEDGE, PICK_ALLY = "vote", "request_opinion", "use_knowledge", "pick_ally"

REASONS: Mapping[str, str] = MappingProxyType(
    {
        "game_over": "the show is over",
        "not_a_player": "the actor is not a hero of this show",
        "not_free": "a slave makes no free hero's choices",
        "not_your_action": "the hero has no such action in this stage",
        "missing_target": "the order names no hero",
        "bad_target": "the target is not a hero of this show",
        "target_not_free": "the target must be a free hero",
        "target_not_slave": "the target must be a slave",
        "self_forbidden": "the hero may not choose himself for this",
        "self_save_used": "the Saviour has already saved himself once",
        "saved_before": "this hero has already been saved once",
        "relieved_before": "this slave is relieved already",
        "not_on_bench": "the judge decides only about the defendants",
        "spare_not_allowed": "with several defendants the judge must enslave one",
        "bad_detail": "the order carries an extra this hero may not use now",
        "question_not_possible": "the judge questions one of two or more unrevealed slaves",
        "revealed": "this hero's role is revealed already",
        "key_used": "the Saviour's public key is once per show",
        "no_right": "the hero holds no Secret Knowledge to use",
        "no_key_left": "there is no key left to learn about this hero",
        "extra_knowledge_had": "with privileges the Saviour's extra Secret Knowledge is once per hero",
        # part 3, the privileges
        "hacker": "the Hacker gets no Secret Knowledge the ordinary way",
        "stun_used": "this hero has been stunned once already",
        "stunned_tonight": "the Bouncer stuns one hero a night",
        "excluded_before": "this hero has been excluded once already",
        "authority_off": "the extra vote works only while more than five heroes are free",
        "self_vote_forbidden": "nobody votes against himself",
        "bad_guess": "a guess names the knowledge's number and its receiver or its hero",
        "no_open_knowledge": "there is no such Secret Knowledge to intercept now",
        "guessed_before": "this Secret Knowledge has been guessed already",
        "mole_used": "the Mole buries one hero per stage",
        "in_coma_already": "this hero is in coma already",
        "fake_limit": "at most five messages a stage under a false name",
        # the panel's offers (engine/menu.py)
        "in_coma": "a hero in coma cannot be lulled again",
        "already_raised": "the Talent has raised the stakes in this stage already",
        "not_after_vote": "a voter orders a theft after his day vote",
        # issue 28, item 6: the GM's task of the slaves' trial
        "no_trial": "no slaves' trial is running",
        "trial_answered": "the trial has an answer already: its task no longer changes",
        "task_empty": "the task is empty",
        "task_too_long": "the task is too long",
        "tasks_bad": "the list of tasks has an empty or too long task, or too many tasks",
    }
)

VOTE_REASONS: Mapping[str, str] = MappingProxyType(
    {
        "not_a_voter": "the hero may not vote now",
        "bad_target": "the target may not be voted for now",
        "self_vote_forbidden": "nobody votes against himself",
        "peace_not_allowed": "there is no vote for peace",
    }
)

EVENT_KINDS: tuple[str, ...] = (
    "game_started", "role", "team", "innate_keys", "stage", "woke", "coma", "lulled", "greetings", "day_votes",
    "bench", "no_bench", "opinions", "opinions_gm", "knowledge_lot", "knowledge_won", "knowledge_received",
    "secret_key", "secret_key_gm", "knowledge_empty", "judge_removed", "defence", "revote_result",
    "judge_decision", "judge_missed", "enslaved", "public_key", "role_revealed", "relieved", "night_choices",
    "morning", "questioned", "saviour_key", "judge", "judge_lot", "no_judge", "insomnia",
    "game_over",
    # part 2: coins, ratings, alliances
    "bet", "bets_gm", "trial_results", "demon_returned", "alliances", "ally", "alliances_gm", "ratings_gm",
    "show_results",
    # part 3, the privileges
    "privileges", "privileges_gm", "mole_role", "buried", "buried_gm", "stunned", "stunned_gm", "stun_failed",
    "excluded", "excluded_gm", "extra_vote_gm", "intercept_result", "intercept_gm", "privilege_stolen",
    "privilege_lost", "theft_failed", "thefts_gm", "snakelet_turned", "snakelet_turned_gm", "genius_judge",
    # issue 28: the slaves' daily task (item 6), Судный День (item 7)
    "trial_task", "trial_queue_gm", "doomsday",
)

OUTCOME_KEYS: tuple[str, ...] = (
    "stage", "votes", "tally", "bench", "enslaved", "saved", "freed", "keys_public", "keys_secret",
    "revealed", "judge", "coma", "woke", "insomnia", "knowledge", "free", "alive", "over",
    # `sleep` {name: asleep | coma}: the status's mark of each free hero in coma after the close
    "sleep",
    # part 2 (docs/rulesets/show.md, "Scenario keys"): `transfers` and `ratings` are coins.py's records;
    # `rating` {name: running total}, `bank`/`pot` after the close, `balances` {name: net change in the
    # show so far}, `burdens` {name: paid this morning}, `grants` {author: sum}, `talents`, `raised`,
    # `alliances` (pairs formed), `settlement` (at the end).
    "transfers", "ratings", "rating", "bank", "pot", "balances", "burdens", "grants", "talents", "raised",
    "alliances", "settlement",
    # part 3; `fakes` {author: {hero shown: n}} the Говорун's posts signed as others (extra["fakes"])
    "privileges", "stunned", "excluded", "turned", "taxed", "intercepted", "thefts", "extra_vote", "secretary",
    "fakes",
    # `keys_erased` {holder: {about: key}}: the Secret Knowledge the Змеёныш's turn erased (rule 3)
    "keys_erased",
    # issue 28, item 4: `early` (the stage could end before its timer) and `held` (names holding it
    # open with an optional input, not waived by «Я всё»), as the inputs stood at the close
    "early", "held",
    # issue 28: `trial_task` {day, task} the running trial's task after the close (null: no trial);
    # `doomsday` the hours of Судный День the close that ends the show opens (null: none, or not the end)
    "trial_task", "doomsday",
)


class ShowRuleset:
    key = KEY
    roles: Mapping[str, RoleSpec] = ROLES
    factions: tuple[str, ...] = FACTIONS
    min_players = SHOW_MIN
    max_players = SHOW_MAX
    outcome_keys: tuple[str, ...] = OUTCOME_KEYS
    reasons: Mapping[str, str] = REASONS
    vote_reasons: Mapping[str, str] = VOTE_REASONS
    # What the site words besides the reasons (tests/test_wording_complete.py): every stage's name
    # and every reason of a coins transfer (issue 28, item 13).
    stage_kinds: tuple[str, ...] = STAGE_KINDS
    transfer_reasons: frozenset[str] = TRANSFER_REASONS
    # The show's ballots are its own (hidden until the stage's close, cast on the hero's panel);
    # its stages settle a tie: «свободу теряют все, кто набрал максимальное количество голосов».
    # So the GM has no tie-break and the site shows no core vote count (SiteRuleset.voting_kinds).
    site = SiteStyle(majority=False, tie="rules", vote_word="в рабство")

    # -- setup ----------------------------------------------------------------------------------

    def default_roles(self, size: int, *, demon: bool = True) -> list[str]:
        return default_roles(size, demon=demon)

    def validate_roles(self, roles: Sequence[str]) -> None:
        validate_roles(roles)

    def new_game(
        self, seats: Sequence[tuple[int, str, str]], *, options: Mapping[str, Any] | None = None,
        seed: int | None = None, seat_data: Mapping[Any, Mapping[str, Any]] | None = None,
    ) -> tuple[GameState, tuple[Event, ...]]:
        """The deal. `seed` (the game's secret seed) deals the privileges in play; `seat_data`
        ({seat id or name: {"privileges": [...]}}, a scenario file's players) fixes them instead."""
        seats = [tuple(s) for s in seats]
        validate_roles([role for _i, _n, role in seats])
        names = [n for _i, n, _r in seats]
        given = [p for data in (seat_data or {}).values() for p in ((data or {}).get("privileges") or ())]
        if given and not (options or {}).get("privileges"):
            # a scenario's players name the privileges in play
            options = {**(options or {}), "privileges": [p for p in priv.PRIVILEGES if p in given]}
        if any(not n or not n.strip() for n in names) or len(set(names)) != len(names):
            raise ValueError("hero names must be non-empty and unique")
        merged = options_with_defaults(options)
        memory = {
            "public_keys": {}, "secret_keys": {}, "revealed": [], "relieved": [], "slaves": {}, "coma": {},
            "spoken": [], "bench": [], "judge": None, "judge_day": 0, "knowledge_rights": {},
            "knowledge_count": 0, "saviour": {"self_saved": False, "saved": [], "key_used": False},
            # part 2
            "coins": new_coins_memory(), "ratings": {}, "rating_history": [], "bets": None, "bets_charged": False,
            "trial": None, "talents": {}, "sympathies": {}, "allies": {},
            "privileges": {}, "priv": {},
            # issue 28, item 6: the tasks still to come (the GM's list), each trial's task
            "trial_queue": list(merged["trial_tasks"]), "trial_tasks": [],
        }
        state = GameState(
            ruleset=self.key,
            seats=tuple(SeatState(i, n, r, ROLES[r].faction) for i, n, r in seats),
            phase=GREETINGS,
            options=merged,
            memory=memory,
        )
        explicit = {}
        for key, data in (seat_data or {}).items():
            seat = state.by_name(key) if isinstance(key, str) and state.by_name(key) else None
            sid = seat.id if seat is not None else seat_id(key)
            if sid is None or not state.has_seat(sid):
                raise ValueError(f"seat_data names no hero: {key!r}")
            if (data or {}).get("privileges"):
                explicit[sid] = list(data["privileges"])
        memory["privileges"] = priv.deal_privileges(state, seed, explicit)
        state = replace(state, memory=memory)
        events: list[Event] = [Event("game_started", PUBLIC, {"heroes": [ref(s) for s in state.seats],
                                                               "phase": GREETINGS})]
        for s in state.seats:
            if holds(state, s.id, MOLE):
                # «Крот не знает свою Роль и должен выяснить её в ходе Шоу»: only the GM is told
                events.append(Event("role", GM, {**ref(s), "role": s.role, "faction": s.faction}))
                events.append(Event("mole_role", seat_audience(s.id), ref(s)))
                continue
            events.append(Event("role", seat_audience(s.id), {**ref(s), "role": s.role, "faction": s.faction}))
            # «После раздачи Ролей в систему добавляются также врождённые персональные Ключи»
            innate = innate_keys(state, s.id)
            events.append(Event("innate_keys", seat_audience(s.id), {
                "keys": {state.seat(about).name: list(keys) for about, keys in innate.items() if about != s.id}}))
        reptiloids = [s for s in state.seats if s.role == REPTILOID]
        if len(reptiloids) > 1:
            # «Рептилоиды знают друг друга со старта»
            # «Если Кротом оказался Рептилоид, то его Сообщник не будет знать имя напарника»
            members = [ref(s) for s in reptiloids if not holds(state, s.id, MOLE)]
            events.append(Event("team", faction_audience(REPTILOIDS), {"members": members,
                                                                        "unnamed": len(reptiloids) - len(members)}))
        events.extend(priv.deal_events(state))
        events.append(Event("stage", PUBLIC, {"phase": GREETINGS}))
        return state, tuple(events)

    # -- timers and who is awaited --------------------------------------------------------------

    def stage_length(self, state: GameState) -> timedelta:
        kind, _n = parse_phase(state.phase)
        return stage_length(state.options, kind, len(state.active()))

    def deadline(self, state: GameState, started: datetime) -> datetime:
        """When the stage's timer ends (the countdown and the Celery task's eta)."""
        kind, _n = parse_phase(state.phase)
        return stage_deadline(state.options, kind, len(state.active()), started)

    def waiting_for(self, state: GameState, inputs: PhaseInputs) -> tuple[int, ...]:
        """Heroes the stage still waits for, given what was done so far: «Любой этап заканчивается
        либо когда все активные герои совершают необходимое на этом этапе действие, либо когда
        Таймер обнуляется». Heroes in coma are not awaited («их никто не ждёт»); a requested
        opinion holds the early end of the opinions day («без этого этап не будет досрочно завершён»)."""
        if state.over:
            return ()
        waiting = [h for h in self.owing(state) if not self.has_acted(state, inputs, h)]
        kind, number = parse_phase(state.phase)
        if kind == DAY and number > 1:
            posted = id_map(inputs.extra.get("posted"))
            for target in self._requested(state, inputs):
                if OPINION not in (posted.get(target) or ()) and target not in waiting:
                    waiting.append(target)
        return tuple(waiting)

    def ends_early(self, state: GameState, inputs: PhaseInputs) -> bool:
        """«Любой этап заканчивается либо когда все активные герои совершают необходимое ...»: and
        nothing anyone may still do in it is left open (issue 28, item 4): no optional input of the
        stage that nobody gave yet, unless its hero said he is done (`extra["done"]`); and the table
        is not asleep (`sleeping_table`: then the stage runs its timer, issue 30)."""
        return (not state.over and not self.waiting_for(state, inputs) and not self.open_optional(state, inputs)
                and not self.sleeping_table(state))

    def sleeping_table(self, state: GameState) -> bool:
        """Every free hero is in coma and the stage asks its required input of somebody (all of them
        asleep then): such a stage runs its timer, it does not end at once (issue 30, docs/rulesets/show.md,
        "A sleeping table"). «их никто не ждёт» spares the awake a wait for the sleepers; with nobody
        awake there is nobody to spare, and «Любой этап заканчивается либо когда все активные герои
        совершают необходимое на этом этапе действие, либо когда Таймер обнуляется» has no active
        hero to act: the timer, during which a sleeper may wake («Как только герой проявляет любую
        активность ..., он автоматически выходит из комы») and act. A stage that asks nothing of
        anybody (a defence whose defendants all spoke before) still ends at once."""
        if state.over or any(not in_coma(state, s.id) for s in state.active()):
            return False
        return bool(self.owes(state)) and not self.owing(state)

    def open_optional(self, state: GameState, inputs: PhaseInputs) -> tuple[int, ...]:
        """Heroes holding the stage open with an optional input of it not given yet (engine/menu.py,
        `optional_actions`), in seating order: not in coma («их никто не ждёт»), not done."""
        if state.over:
            return ()
        done = set(ids(inputs.extra.get("done")))
        return tuple(s.id for s in state.seats if s.id not in done and not in_coma(state, s.id)
                     and optional_actions(self, state, s.id, inputs))

    def optional_actions(self, state: GameState, hero: int, inputs: PhaseInputs | None = None) -> tuple[str, ...]:
        """The hero's optional inputs of this stage that the stage's early end would cut off and
        he has not given yet (engine/menu.py)."""
        return optional_actions(self, state, hero, inputs)

    def owing(self, state: GameState) -> list[int]:
        """Heroes owing the stage's action, in seating order (nobody in coma: «их никто не ждёт»)."""
        kind, _n = parse_phase(state.phase)
        if kind == ALLIES:
            # The choice is not required (no coma for it): only those with a name to pick are awaited.
            return [s.id for s in state.seats if menu(state, s.id)] if not state.over else []
        return [h for h in self.owes(state) if not in_coma(state, h)]

    def owes(self, state: GameState) -> list[int]:
        """Heroes the stage asks its required input of, in seating order, whether in coma or not: a
        stage missed in coma is one of these (issue 28: a defendant's re-vote, where he has no
        ballot, or another hero's defence is not missed). The allies' choice is never owed."""
        if state.over:
            return []
        kind, _n = parse_phase(state.phase)
        free = [s.id for s in state.active()]
        if kind in (GREETINGS, DAY, NIGHT):
            # At night a stunned hero owes his choice as before the stun: «лишить ночного действия» is
            # decided at the morning («а тот Вышибалу, то оглушение не происходит»), so what the night
            # waits for does not depend on when the stun was made (issue 28, item 5; the close
            # excuses the stunned from coma).
            return free
        if kind == DEFENCE:
            # «обязательно нужно присылать аудио/видео-Речь только один раз за Шоу»
            spoken = set(state.memory.get("spoken") or ())
            return [h for h in free if h in self._bench(state) and h not in spoken]
        if kind == REVOTE:
            return [h for h in free if h in self.voters(state)]
        if kind == JUDGE:
            judge = judge_today(state)
            return [judge] if judge is not None and (judge in free or judge_sits(state, judge)) else []
        return []

    def has_acted(self, state: GameState, inputs: PhaseInputs, hero: int) -> bool:
        kind, _n = parse_phase(state.phase)
        posted = id_map(inputs.extra.get("posted")).get(hero) or ()
        if kind == GREETINGS:
            return GREETING in posted
        if kind == DEFENCE:
            return DEFENCE_SPEECH in posted
        if kind in (DAY, REVOTE):
            vote = id_map(inputs.votes).get(hero)
            return vote is not None and self.check_vote(state, hero, vote) is None
        if kind == ALLIES:
            pick = id_map(inputs.extra.get("ally_picks")).get(hero)
            return pick is not None and check_pick(state, hero, pick) is None
        order = id_map(inputs.orders).get(hero)
        return isinstance(order, Order) and self.check_order(state, order) is None

    def _bench(self, state: GameState) -> list[int]:
        return [int(i) for i in state.memory.get("bench") or ()]

    def _requested(self, state: GameState, inputs: PhaseInputs) -> list[int]:
        out: list[int] = []
        for requester, target in id_map(inputs.extra.get("opinion_requests")).items():
            t = seat_id(target)
            if self.check_request(state, requester, t) is None and t not in out and not in_coma(state, t):
                out.append(t)
        return out

    # -- what may be done now -------------------------------------------------------------------

    def voters(self, state: GameState) -> tuple[int, ...]:
        """Free heroes vote (a hero in coma who votes wakes by doing it); with one defendant he
        himself does not: «перед всеми кроме него стоит выбор»."""
        if state.over:
            return ()
        kind, _n = parse_phase(state.phase)
        free = tuple(s.id for s in state.active())
        if kind == DAY:
            return free + tuple(h for h in self.extra_voters(state) if h not in free)
        if kind == REVOTE:
            bench = self._bench(state)
            return tuple(h for h in free if not (len(bench) == 1 and h == bench[0]))
        return ()

    def extra_voters(self, state: GameState) -> tuple[int, ...]:
        """«На этом этапе в голосовании могут поучаствовать Талантливые рабы»; «имеют возможность
        участвовать в первом дневном голосовании»: today's Talents vote in the day vote (they are not
        voted for and owe nothing)."""
        kind, number = parse_phase(state.phase)
        if kind != DAY:
            return ()
        return tuple(h for h in talents_today(dict(state.memory), number)
                     if state.has_seat(h) and not state.seat(h).is_active)

    def vote_targets(self, state: GameState) -> tuple[int, ...]:
        if state.over:
            return ()
        kind, _n = parse_phase(state.phase)
        if kind == DAY:
            # «тот будет исключён из списка Дневного Голосования следующего дня» (the Адвокат)
            excluded = priv.excluded_today(state)
            return tuple(s.id for s in state.active() if s.id not in excluded)
        if kind == REVOTE and len(self._bench(state)) > 1:
            return tuple(self._bench(state))
        return ()

    def check_vote(self, state: GameState, voter: int, target: int | str | None) -> str | None:
        """«Каждый участник должен указать в меню имя героя, которому он выражает своё недоверие»:
        a free hero, not himself (A8); with one defendant the ballot is «В рабство»/«Пощадить»."""
        voter = seat_id(voter)
        if voter not in self.voters(state):
            return "not_a_voter"
        if target is None:
            return None
        kind, _n = parse_phase(state.phase)
        if kind == REVOTE and len(self._bench(state)) == 1:
            return None if target in (TO_SLAVERY, SPARE) else "bad_target"
        if isinstance(target, str) and target.strip().lower() == "peace":
            return "peace_not_allowed"
        target_id = seat_id(target)
        if target_id not in self.vote_targets(state):
            return "bad_target"
        if target_id == voter:
            return "self_vote_forbidden"
        return None

    def check_request(self, state: GameState, requester: int, target: int | None) -> str | None:
        """«каждый оставшийся на свободе участник имеет возможность анонимно выбрать, чьё
        аудио/видео-Мнение он обязательно хочет увидеть»: day 2 on, a free hero asks another free one."""
        if state.over:
            return "game_over"
        kind, number = parse_phase(state.phase)
        if kind != DAY or number < 2 or not self._free(state, requester):
            return "not_your_action"
        if target is None or not state.has_seat(target):
            return "bad_target"
        if not state.seat(target).is_active:
            return "target_not_free"
        if target == requester:
            return "self_forbidden"
        return None

    def check_knowledge(self, state: GameState, holder: int, about: int | None) -> str | None:
        """«выбрать любого другого героя и получить о нём ... случайный Ключ, ещё не ставший публичным»."""
        if state.over:
            return "game_over"
        if not self._free(state, holder):
            return "not_free"
        if priv.no_normal_knowledge(state, holder):
            return "hacker"
        if int((state.memory.get("knowledge_rights") or {}).get(str(holder), 0)) < 1:
            return "no_right"
        if about is None or not state.has_seat(about):
            return "bad_target"
        if about == holder:
            return "self_forbidden"
        if not knowledge_candidates(state, dict(state.memory), holder, about):
            return "no_key_left"
        return None

    def ally_menu(self, state: GameState, hero: int) -> tuple[int, ...]:
        """The names the hero may pick in the «Выбор Союзника» stage."""
        return tuple(menu(state, hero))

    def check_ally_pick(self, state: GameState, hero: int, pick: int | None) -> str | None:
        if state.over:
            return "game_over"
        kind, _n = parse_phase(state.phase)
        if kind != ALLIES or not state.has_seat(hero):
            return "not_your_action"
        return check_pick(state, hero, pick)

    def speaking_order(self, state: GameState) -> tuple[int, ...]:
        """The defendants post their defence speeches; nobody else has to speak."""
        if state.over:
            return ()
        kind, _n = parse_phase(state.phase)
        return tuple(self._bench(state)) if kind == DEFENCE else ()

    def _free(self, state: GameState, hero: Any) -> bool:
        return state.has_seat(hero) and state.seat(hero).is_active

    def menu(self, state: GameState, hero: int, inputs: PhaseInputs | None = None, *,
             fakes_used: int = 0) -> dict[str, tuple[Any, ...]]:
        """{action: valid choices}: everything the hero's panel offers now (engine/menu.py)."""
        return menu_of(self, state, hero, inputs, fakes_used=fakes_used)

    def check_input(self, state: GameState, hero: int, action: str, choice: Any,
                    inputs: PhaseInputs | None = None, *, fakes_used: int = 0) -> str | None:
        """The one rule of a panel input (engine/menu.py: the panel's offers ask it too)."""
        return check_input(self, state, hero, action, choice, inputs, fakes_used=fakes_used)

    def allowed_actions(self, state: GameState, actor: int) -> tuple[str, ...]:
        """What the hero's panel offers now: his stage's actions and his privileges' (a slave only
        those of his privileges that work from slavery)."""
        own = self._stage_actions(state, actor)
        return own + tuple(a for a in priv.privilege_actions(state, actor) if a not in own)

    def _stage_actions(self, state: GameState, actor: int) -> tuple[str, ...]:
        if state.over or not state.has_seat(actor):
            return ()
        kind, number = parse_phase(state.phase)
        if kind == ALLIES:
            return (PICK_ALLY,) if menu(state, actor) else ()
        if kind == DAY and actor in self.extra_voters(state):
            return (VOTE,)
        if kind == JUDGE and actor == judge_today(state) and not self._free(state, actor) \
                and judge_sits(state, actor):  # A9's `judge_from: all`: a slave judge
            return (ENSLAVE, SPARE) if len(self._bench(state)) == 1 else (ENSLAVE,)
        if not self._free(state, actor):
            return ()
        extra: tuple[str, ...] = ()
        if int((state.memory.get("knowledge_rights") or {}).get(str(actor), 0)) > 0:
            extra = (USE_KNOWLEDGE,)
        if kind == GREETINGS:
            return (GREETING, *extra)
        if kind == DAY:
            return (VOTE, *((REQUEST_OPINION, OPINION) if number > 1 else ()), *extra)
        if kind == DEFENCE:
            return ((DEFENCE_SPEECH,) if actor in self._bench(state) else ()) + extra
        if kind == REVOTE:
            return ((VOTE,) if actor in self.voters(state) else ()) + extra
        if kind == JUDGE:
            if actor == judge_today(state):
                return (ENSLAVE, SPARE) if len(self._bench(state)) == 1 else (ENSLAVE,)
            return extra
        # A stunned hero keeps (and owes) his night choice until the night ends: the close voids it,
        # unless he is a bad hero who picked the Вышибала (rule 5; issue 28, item 5: the stun made at
        # once must not take the choice away, or the rule would hold only for who clicked first).
        return priv.night_actions(state, actor) + extra

    def owed_actions(self, state: GameState, actor: int) -> tuple[str, ...]:
        if actor not in self.owing(state):
            return ()
        kind, _n = parse_phase(state.phase)
        if kind == NIGHT:
            return priv.night_actions(state, actor)
        if kind == JUDGE:
            return self.allowed_actions(state, actor)  # a decision: enslave, or spare a single defendant
        if kind == ALLIES:
            return (PICK_ALLY,)
        return {GREETINGS: (GREETING,), DAY: (VOTE,), DEFENCE: (DEFENCE_SPEECH,), REVOTE: (VOTE,)}[kind]

    def check_order(self, state: GameState, order: Order) -> str | None:
        if state.over:
            return "game_over"
        if not state.has_seat(order.actor):
            return "not_a_player"
        actor = state.seat(order.actor)
        kind, number = parse_phase(state.phase)
        if not actor.is_active and not (kind == JUDGE and judge_sits(state, actor.id)):
            return "not_free"  # a slave judge (A9's `judge_from: all`) decides from slavery
        target = seat_id(order.target)
        if kind == JUDGE:
            return self._check_judge(state, order, target)
        if kind != NIGHT or order.action not in priv.night_actions(state, actor.id):
            return "not_your_action"
        if target is None:
            return "missing_target"
        if not state.has_seat(target):
            return "bad_target"
        if order.action == RELIEVE:
            if state.seat(target).status != SLAVE:
                return "target_not_slave"
            if target in (state.memory.get("relieved") or ()):
                return "relieved_before"
        elif not state.seat(target).is_active:
            return "target_not_free"
        if order.action == SUSPECT and target == actor.id:
            return "self_forbidden"
        if order.action == SAVE:
            saviour = state.memory.get("saviour") or {}
            if state.options.get("save_once") == "each":
                if target in (saviour.get("saved") or ()):
                    return "saved_before"
            elif target == actor.id and saviour.get("self_saved"):
                return "self_save_used"
        return self._check_detail(state, actor, number, dict(order.detail or {}))

    def _check_judge(self, state: GameState, order: Order, target: int | None) -> str | None:
        if order.actor != judge_today(state):
            return "not_your_action"
        bench = self._bench(state)
        if order.action == SPARE:
            return None if len(bench) == 1 else "spare_not_allowed"
        if order.action != ENSLAVE:
            return "not_your_action"
        if target is None:
            return "missing_target"
        return None if target in bench else "not_on_bench"

    def _check_detail(self, state: GameState, actor: SeatState, night: int, detail: Mapping[str, Any]) -> str | None:
        unknown = set(detail) - {"question", "public_key", "extra_knowledge"}
        if unknown:
            return "bad_detail"
        if "question" in detail:
            # «Если ночью есть Судья от предыдущего дня, то после своего ночного выбора он имеет
            # возможность "допросить" одного из невскрытых рабов (если их больше одного)»
            slave = seat_id(detail["question"])
            if state.memory.get("judge") != actor.id or int(state.memory.get("judge_day") or 0) != night:
                return "bad_detail"
            unrevealed = self.unrevealed_slaves(state)
            if state.options.get("question_needs_two", True) and len(unrevealed) < 2:
                return "question_not_possible"
            if slave not in unrevealed:
                return "target_not_slave"
        if "public_key" in detail:
            # «Спаситель один раз за Шоу может ночью добавить о ком-то один публичный Ключ»
            about = seat_id(detail["public_key"])
            if actor.role != SAVIOUR or holds(state, actor.id, MOLE):
                return "bad_detail"
            if (state.memory.get("saviour") or {}).get("key_used"):
                return "key_used"
            if about is None or not state.has_seat(about) or about == actor.id:
                return "bad_target"
            if is_revealed(dict(state.memory), about):
                return "revealed"
        if "extra_knowledge" in detail:
            # «в первые три ночи имеет возможность получить себе внеочередное Тайное Знание»
            about = seat_id(detail["extra_knowledge"])
            if actor.role != SAVIOUR or night > int(state.options.get("saviour_knowledge_nights", 3)):
                return "bad_detail"
            if holds(state, actor.id, MOLE) or priv.no_normal_knowledge(state, actor.id):
                return "bad_detail"
            if about is None or not state.has_seat(about) or about == actor.id:
                return "bad_target"
            # «(в сессиях с Привилегиями не более одного на каждого участника)»: with privileges in
            # play, one extra key about each hero over the whole show
            if state.options.get("privileges") and about in extra_knowledge_had(state):
                return "extra_knowledge_had"
            if not knowledge_candidates(state, dict(state.memory), actor.id, about):
                return "no_key_left"
        return None

    def extra_knowledge_targets(self, state: GameState, actor: int) -> tuple[int, ...]:
        """The heroes the Saviour may ask his extra Secret Knowledge about tonight (none when he may
        not ask it at all): the panel's list, checked again by `check_order`."""
        kind, number = parse_phase(state.phase)
        if kind != NIGHT or not state.has_seat(actor):
            return ()
        me = state.seat(actor)
        if not me.is_active:
            return ()
        return tuple(s.id for s in state.seats if self._check_detail(
            state, me, number, {"extra_knowledge": s.id}) is None)

    def unrevealed_slaves(self, state: GameState) -> list[int]:
        memory = dict(state.memory)
        return [s.id for s in state.seats if s.status == SLAVE and not is_revealed(memory, s.id)]

    # -- activity and /lull, applied at once by the site ------------------------------------------

    def wake(self, state: GameState, hero: int) -> tuple[GameState, tuple[Event, ...]]:
        """«Как только герой проявляет любую активность ... он автоматически выходит из комы и все
        получают уведомление об этом.»"""
        if not in_coma(state, hero):
            return state, ()
        memory = copy.deepcopy(dict(state.memory))
        del memory["coma"][str(hero)]
        return replace(state, memory=memory), (Event("woke", PUBLIC, ref(state.seat(hero))),)

    def use_knowledge(
        self, state: GameState, holder: int, about: int, *, seed: int
    ) -> tuple[GameState, tuple[Event, ...]]:
        """A Secret Knowledge right used at once (the site's button), as the close would use it from
        `extra["knowledge"]`: the key is drawn from the game's seed, the stage and the holder's count."""
        if self.check_knowledge(state, holder, about) is not None:
            return state, ()
        memory = copy.deepcopy(dict(state.memory))
        rights = memory.setdefault("knowledge_rights", {})
        rights[str(holder)] = int(rights.get(str(holder), 0)) - 1
        used = len((memory.get("secret_keys") or {}).get(str(holder), ()))
        rng = random.Random(f"show:{seed}:{state.phase}:knowledge:{holder}:{used}")
        events: list[Event] = []
        before = key_counts(memory)
        give_secret_key(state, memory, holder, about, rng, events, source="lot", phase=state.phase)
        share_knowledge(state, memory, before, events)
        return replace(state, memory=memory), tuple(events)

    def lull(self, state: GameState, ballots: Mapping[int, int | None]) -> tuple[GameState, tuple[Event, ...]]:
        """«Можно принудительно отправлять в кому героев большинством голосов с помощью команды /lull»
        (A38: more than half of the free heroes not in coma name the same free hero)."""
        if state.over:
            return state, ()
        awake = [s.id for s in state.active() if not in_coma(state, s.id)]
        counts: dict[int, int] = {}
        for voter, target in id_map(ballots).items():
            t = seat_id(target)
            if voter in awake and t in awake and t != voter:
                counts[t] = counts.get(t, 0) + 1
        lulled = [t for t, c in sorted(counts.items()) if c * 2 > len(awake)]
        if not lulled:
            return state, ()
        memory = copy.deepcopy(dict(state.memory))
        for t in lulled:
            memory["coma"][str(t)] = 0
        return replace(state, memory=memory), tuple(Event("lulled", PUBLIC, ref(state.seat(t))) for t in lulled)

    # -- the privileges (part 3): checks the panel and the close share, and the at-once ones ------

    def check_stun(self, state: GameState, bouncer: int, target: Any) -> str | None:
        return priv.check_stun(state, bouncer, target)

    def check_exclude(self, state: GameState, lawyer: int, target: Any) -> str | None:
        return priv.check_exclude(state, lawyer, target)

    def check_extra_vote(self, state: GameState, authority: int, target: Any) -> str | None:
        return priv.check_extra_vote(state, authority, target, rules=self)

    def check_intercept(self, state: GameState, hacker: int, guess: Any) -> str | None:
        return priv.check_intercept(state, hacker, guess)

    def check_mole(self, state: GameState, mole: int, target: Any) -> str | None:
        return priv.check_mole(state, mole, target)

    def check_steal(self, state: GameState, thief: int, victim: Any) -> str | None:
        return priv.check_steal(state, thief, victim)

    def mole(self, state: GameState, mole: int, target: int) -> tuple[GameState, tuple[Event, ...]]:
        """/mole at once: «любого героя на свободе один раз за Этап ... Даже из рабства»."""
        done = priv.mole_now(state, mole, seat_id(target))
        if done is None:
            return state, ()
        memory, events = done
        return replace(state, memory=memory), tuple(events)

    def intercept(self, state: GameState, hacker: int, guess: Mapping[str, Any]) -> tuple[GameState, tuple[Event, ...]]:
        """The Хакер's guess answered at once: «Как только кто-то получает Тайное Знание, Хакер имеет
        возможность перехватить его себе если угадает, НА КОГО или КЕМ оно было получено (за
        ограниченное время)»."""
        done = priv.intercept_now(state, hacker, guess)
        if done is None:
            return state, ()
        memory, events = done
        # «Если герой, будучи в Альянсе, получает Тайное Знание, то такое же сразу приходит и его
        # Союзнику»: a key intercepted is one received
        share_knowledge(state, memory, key_counts(dict(state.memory)), events)
        return replace(state, memory=memory), tuple(events)

    def stun(self, state: GameState, bouncer: int, target: int) -> tuple[GameState, tuple[Event, ...]]:
        """The stun at once: the stunned may send no message until the night ends."""
        done = priv.stun_now(state, bouncer, seat_id(target))
        if done is None:
            return state, ()
        memory, events = done
        return replace(state, memory=memory), tuple(events)

    # -- the slaves' daily task (issue 28, item 6): the GM's inputs, applied at once by the site ----

    def tasks_to_come(self, state: GameState) -> list[str]:
        """The tasks the next mornings take, in order (the first is the next trial's)."""
        return trials.tasks_to_come(state.memory, state.options)

    def running_task(self, state: GameState) -> dict[str, Any] | None:
        """The running trial's day and task, or None."""
        return trials.running_task(state.memory)

    def check_trial_task(self, state: GameState, text: Any, inputs: PhaseInputs | None = None) -> str | None:
        return trials.check_task(state, text, inputs)

    def set_trial_task(self, state: GameState, text: str,
                       inputs: PhaseInputs | None = None) -> tuple[GameState, tuple[Event, ...]]:
        """The GM changes the running trial's task, until its first answer (`inputs`: the running
        stage's, whose answers count too)."""
        done = trials.set_task(state, text, inputs)
        if done is None:
            return state, ()
        memory, events = done
        return replace(state, memory=memory), tuple(events)

    def check_trial_tasks(self, state: GameState, tasks: Any) -> str | None:
        return trials.check_queue(state, tasks)

    def set_trial_tasks(self, state: GameState, tasks: Any) -> tuple[GameState, tuple[Event, ...]]:
        """The GM replaces the tasks to come (the first is the next morning's)."""
        done = trials.set_queue(state, tasks)
        if done is None:
            return state, ()
        memory, events = done
        return replace(state, memory=memory), tuple(events)

    # -- Судный День (issue 28, item 7) ---------------------------------------------------------

    doomsday = DOOMSDAY

    def doomsday_length(self, state: GameState) -> timedelta | None:
        """«а затем наступает заключительный этап: Судный День»: how long the last stage lasts after
        the show's end (option `doomsday_hours`; None while the show runs, or with 0 hours)."""
        hours = int(state.options.get("doomsday_hours", 0) or 0)
        return timedelta(hours=hours) if state.over and hours > 0 else None

    # -- the close ------------------------------------------------------------------------------

    def resolve(self, state: GameState, inputs: PhaseInputs, *, seed: int, now: datetime) -> Resolution:
        if state.over:
            raise ValueError("the show is over")
        return StageClose(self, state, inputs, seed).run()


SHOW = ShowRuleset()
