"""One stage's close: wake the active, use Secret Knowledge, play the stage, coma for the missing,
sentences and the morning, the win check, and the next stage's name."""

from __future__ import annotations

import copy
import random
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from games.engine.events import GM, PUBLIC, Event, seat_audience
from games.engine.orders import Order, PhaseInputs
from games.engine.resolution import Resolution
from games.engine.rulesets.common import ref, seat_id
from games.engine.state import ACTIVE, GameState
from games.rulesets.show.engine.alliances import choose as choose_allies
from games.rulesets.show.engine.facts import SLAVE, coma_missed, holders, id_map, ids, judge_sits, judge_today
import games.rulesets.show.engine.privileges as priv
from games.rulesets.show.engine.privilege_keys import SECRETARY
from games.rulesets.show.engine.keys import add_public_key, give_secret_key, reveal
from games.rulesets.show.engine.roles import (
    DEMON,
    DEMONS,
    ENSLAVE,
    MASON,
    RELIEVE,
    REPTILOID,
    REPTILOIDS,
    ROLES,
    SAVE,
    SAVIOUR,
    SUSPECT,
    winner_of,
)
from games.rulesets.show.engine.money import after_stage
from games.rulesets.show.engine.trials import running_task
from games.rulesets.show.engine.status import sleep_mark
from games.rulesets.show.engine.stages import (
    ALLIES,
    DAY,
    DEFENCE,
    DEFENCE_SPEECH,
    GREETING,
    GREETINGS,
    JUDGE,
    NIGHT,
    OPINION,
    REVOTE,
    SPARE,
    TO_SLAVERY,
    parse_phase,
)

if TYPE_CHECKING:
    from games.rulesets.show.engine.ruleset import ShowRuleset

PUBLIC_SLAVE = "public"  # «общественные рабы»: enslaved by a day's vote or the judge


class StageClose:
    def __init__(self, rules: ShowRuleset, state: GameState, inputs: PhaseInputs, seed: int) -> None:
        self.rules = rules
        self.start = state
        self.inputs = inputs
        self.kind, self.number = parse_phase(state.phase)
        self.memory: dict[str, Any] = copy.deepcopy(dict(state.memory))
        self.status = {s.id: s.status for s in state.seats}
        self.events: list[Event] = []
        # One stream per stage: the same (state, inputs, seed) always draws the same lots.
        self.seed_text = f"show:{seed}:{state.phase}"
        self.rng = random.Random(self.seed_text)
        self.posted = {h: set(kinds or ()) for h, kinds in id_map(inputs.extra.get("posted")).items()}
        # The coma's automatic choices read the running ratings; `extra["ratings"]` overrides them
        # (a scenario's or a test's stand-in).
        self.ratings = {int(h): float(v) for h, v in (state.memory.get("ratings") or {}).items()}
        self.ratings.update({h: float(v) for h, v in id_map(inputs.extra.get("ratings")).items()})
        # What part 2 (engine/money.py) reads of the stage: ballots, the bench, the judge's sentence, the night.
        self.facts: dict[str, Any] = {}
        self.next_phase = state.phase
        self.roles: dict[int, str] = {}  # part 3: a role changed in this close (the Змеёныш's turn)
        self.over = False
        self.winner: str | None = None
        self.outcome: dict[str, Any] = {"stage": state.phase, "enslaved": [], "coma": [], "woke": [],
                                        "insomnia": False, "saved": None, "freed": None, "knowledge": None}

    # -- helpers ----------------------------------------------------------------------------------

    def seats_now(self) -> tuple:
        return tuple(replace(s, status=self.status[s.id], role=self.roles.get(s.id, s.role),
                             faction=ROLES[self.roles.get(s.id, s.role)].faction) for s in self.start.seats)

    def current(self) -> GameState:
        return replace(self.start, seats=self.seats_now(), memory=self.memory)

    def name(self, hero: int | None) -> str | None:
        return None if hero is None else self.start.seat(hero).name

    def free(self) -> list[int]:
        return [s.id for s in self.start.seats if self.status[s.id] == ACTIVE]

    def awake(self) -> list[int]:
        return [h for h in self.free() if str(h) not in self.memory["coma"]]

    def judge_ref(self, judge: int | None) -> dict[str, Any]:
        """The judge as the thread may know him: named when judges are public (option `judge_public`)."""
        if judge is None or not self.start.options.get("judge_public", True):
            return {}
        return ref(self.start.seat(judge))

    def seating(self, heroes: Any) -> list[int]:
        order = [s.id for s in self.start.seats]
        return sorted(set(heroes), key=order.index)

    # -- steps every stage shares ---------------------------------------------------------------

    def wake(self) -> None:
        """Any activity wakes: a post, a vote, an order, a request, or what the site saw."""
        inputs = self.inputs
        active = set(ids(inputs.extra.get("active"))) | set(id_map(inputs.votes)) | set(id_map(inputs.orders))
        active |= set(self.posted) | set(id_map(inputs.extra.get("opinion_requests")))
        active |= set(id_map(inputs.extra.get("knowledge")))
        for hero in self.seating(h for h in active if str(h) in self.memory["coma"]):
            del self.memory["coma"][str(hero)]
            self.events.append(Event("woke", PUBLIC, ref(self.start.seat(hero))))
            self.outcome["woke"].append(self.name(hero))

    def use_knowledge(self) -> None:
        for holder, about in id_map(self.inputs.extra.get("knowledge")).items():
            target = seat_id(about)
            if self.rules.check_knowledge(self.current(), holder, target) is not None:
                continue
            rights = self.memory.setdefault("knowledge_rights", {})
            rights[str(holder)] = int(rights.get(str(holder), 0)) - 1
            give_secret_key(self.start, self.memory, holder, target, self.rng, self.events, source="lot",
                            phase=self.start.phase)

    def owing(self) -> list[int]:
        return list(self.rules.owing(self.current()))

    def miss(self, owing: list[int], *, excused: frozenset[int] = frozenset()) -> None:
        """«По истечении этого времени все, кто не успел произвести требуемое действие ...
        впадают в кому.» A hero already in coma counts one more missed stage («Спит» after one)
        only when this stage asked his input (`rules.owes` at the stage's start, but the
        `excused`: the stunned): «пропущен всего один этап» counts stages he missed, not stages
        that passed (issue 28)."""
        current = self.current()
        asked = set(self.rules.owes(self.start)) - excused
        for key in list(self.memory["coma"]):
            if self.status.get(int(key)) == ACTIVE and int(key) in asked:
                self.memory["coma"][key] = int(self.memory["coma"][key]) + 1
        for hero in owing:
            if not self.rules.has_acted(current, self.inputs, hero) and str(hero) not in self.memory["coma"]:
                self.memory["coma"][str(hero)] = 1
                self.events.append(Event("coma", PUBLIC, ref(self.start.seat(hero))))
                self.outcome["coma"].append(self.name(hero))

    def enslave(self, hero: int, *, by: str, owners: list[str]) -> None:
        self.status[hero] = SLAVE
        self.memory["slaves"][str(hero)] = {"by": by, "owners": owners, "phase": self.start.phase}
        self.memory["coma"].pop(str(hero), None)  # coma is about a free hero's actions
        self.events.append(Event("enslaved", PUBLIC, {**ref(self.start.seat(hero)), "by": by, "owners": owners}))
        self.outcome["enslaved"].append(self.name(hero))
        # «Когда кто-то из героев теряет днём или ночью свободу ..., о нём становится известен один
        # публичный Ключ, выбираемый системой случайно.»
        add_public_key(self.start, self.memory, hero, self.rng, self.events, reason="enslaved")

    def check_over(self) -> bool:
        winner = winner_of(self.current())
        if winner is None:
            return False
        self.over, self.winner = True, winner
        self.events.append(Event("game_over", PUBLIC, {
            "winner": winner, "roles": [{**ref(s), "role": s.role, "faction": s.faction} for s in self.seats_now()],
            # part 3: «о котором герой в тайне от остальных узнает»; everyone learns at the end
            "privileges": priv.holder_names(self.current())}))
        return True

    def after_sentence(self) -> None:
        """After a day's sentence: the win check, then the night, or insomnia's next day."""
        self.memory["bench"] = []
        priv.snakelet_turn(self)
        if self.check_over():
            return
        self.next_after_day()
        if self.number == 1 and self.start.options.get("alliances", True):
            # «В конце первого дня наступает этап "Выбор Союзника"»
            self.memory["after_allies"] = self.next_phase
            self.next_phase = f"{ALLIES} 1"

    def next_after_day(self) -> None:
        if priv.night_would_decide(self.current()):
            # «Если результатом ночи однозначно станет выигрыш одной из "плохих" команд ...
            # объявляется бессонница и Шоу продолжается без этапа ночного выбора.»
            self.events.append(Event("insomnia", PUBLIC, {"day": self.number + 1}))
            self.outcome["insomnia"] = True
            self.next_phase = f"{DAY} {self.number + 1}"
        else:
            self.next_phase = f"{NIGHT} {self.number}"

    def night_begins(self) -> None:
        """«в начале каждой ночи происходят переходы Привилегий» (the carousel): at the very end of
        the close whose next stage is a night, after its own fees, burdens and ratings were counted
        with the privileges as they were (issue 28: not at the day's sentence, before «Выбор
        Союзника»); the orders wait through the alliance stage, and lapse when the show ends or
        insomnia skips the night."""
        kind, _n = parse_phase(self.next_phase) if self.next_phase and not self.over else ("", 0)
        if kind == NIGHT:
            priv.resolve_thefts(self)
        if kind not in (DEFENCE, JUDGE, REVOTE, ALLIES):  # a night began, or none will: they lapse
            self.memory.get("priv", {}).pop("thefts", None)

    def ballots(self) -> dict[int, Any]:
        current = self.current()
        out = {}
        for voter, target in id_map(self.inputs.votes).items():
            if target is not None and self.rules.check_vote(current, voter, target) is None:
                out[voter] = target if target in (TO_SLAVERY, SPARE) else seat_id(target)
        return out

    def named_ballots(self, ballots: dict[int, Any]) -> dict[str, Any]:
        return {self.name(v): (t if isinstance(t, str) else self.name(t)) for v, t in ballots.items()}

    # -- the stages -----------------------------------------------------------------------------

    def run(self) -> Resolution:
        self.wake()
        # issue 28, item 4: whether the stage could end before its timer (`early`: every required
        # input given, no optional one left open, the table not asleep: issue 30) and who held it open with an optional input of
        # his not given nor waived by «Я всё» (`held`), as the inputs stood at the close (those who
        # acted awake, as the site wakes them at once)
        awake = self.current()
        held = self.rules.open_optional(awake, self.inputs)
        self.outcome["held"] = [self.name(h) for h in held]
        self.outcome["early"] = (not held and not self.rules.waiting_for(awake, self.inputs)
                                 and not self.rules.sleeping_table(awake))
        priv.intercepts(self)
        self.use_knowledge()
        {GREETINGS: self.greetings, DAY: self.day, DEFENCE: self.defence, REVOTE: self.revote,
         JUDGE: self.judge, NIGHT: self.night, ALLIES: self.allies}[self.kind]()
        after_stage(self)
        self.night_begins()
        self.doomsday()
        return self.finish()

    def doomsday(self) -> None:
        """«Далее объявляются подробные результаты, то есть набранные Рейтинги, делится Банк,
        распределяется Куш Победителей, подводятся итоги сотрудничества Альянсов, а затем наступает
        заключительный этап: Судный День.» The close that ends the show settles it (money.after_stage:
        the results, the bank, the pot, the alliances) and then announces the last stage, with its
        hours (option `doomsday_hours`; 0: none). Nothing is settled after it: the Бинго's «общий
        результат (до Судного Дня)» is the one this close settled."""
        hours = int(self.start.options.get("doomsday_hours", 0) or 0)
        self.outcome["doomsday"] = hours if self.over and hours > 0 else None
        if self.outcome["doomsday"] is not None:
            self.events.append(Event("doomsday", PUBLIC, {"hours": hours}))

    def greetings(self) -> None:
        """«Приветствия ... каждый участник должен прислать своё короткое аудио/видео-приветствие»."""
        owing = self.owing()
        greeted = [h for h in self.free() if GREETING in self.posted.get(h, ())]
        self.events.append(Event("greetings", PUBLIC, {"heroes": [ref(self.start.seat(h)) for h in greeted]}))
        self.miss(owing)
        self.next_phase = f"{DAY} 1"

    def day(self) -> None:
        owing = self.owing()
        ballots = {v: t for v, t in self.ballots().items() if isinstance(t, int)}
        self.facts["ballots"] = ballots
        if self.number > 1:
            self.opinions()
        self.miss(owing)
        tally: dict[int, int] = {}
        for target in ballots.values():
            tally[target] = tally.get(target, 0) + 1
        extra = priv.authority_extra(self)
        if extra is not None:
            # «результат виден только в счетчиках голосов»: in the tally, not among the ballots
            tally[extra[1]] = tally.get(extra[1], 0) + 1
        priv.record_thefts(self, ballots)
        # «Кто как проголосовал становится всем видно только в конце этапа.»
        self.events.append(Event("day_votes", PUBLIC, {
            "ballots": self.named_ballots(ballots), "tally": {self.name(t): c for t, c in tally.items()}}))
        self.outcome["votes"] = self.named_ballots(ballots)
        self.outcome["tally"] = {self.name(t): c for t, c in tally.items()}
        top = max(tally.values(), default=0)
        # «Герои, набравшие наибольшее количество голосов ..., попадают на "скамью подсудимых"» (A37)
        bench = self.seating(t for t, c in tally.items() if c == top and top > 0)
        self.outcome["bench"] = [self.name(h) for h in bench]
        self.knowledge_lot()
        judge = judge_today(self.current())
        if judge is not None and judge in bench:
            # «Если подсудимым становится Судья, то он лишается своего статуса»
            self.memory["judge"] = None
            self.events.append(Event("judge_removed", PUBLIC, self.judge_ref(judge)))
        if not bench:
            self.events.append(Event("no_bench", PUBLIC, {}))
            self.after_sentence()
            return
        self.memory["bench"] = bench
        self.events.append(Event("bench", PUBLIC, {"heroes": [ref(self.start.seat(h)) for h in bench]}))
        self.next_phase = f"{DEFENCE} {self.number}"

    def opinions(self) -> None:
        """Requests are anonymous: the thread hears who was asked and who answered, the GM also who asked."""
        current = self.current()
        requests = {r: seat_id(t) for r, t in id_map(self.inputs.extra.get("opinion_requests")).items()
                    if self.rules.check_request(current, r, seat_id(t)) is None}
        requested = self.seating(requests.values())
        answered = [h for h in requested if OPINION in self.posted.get(h, ())]
        self.events.append(Event("opinions", PUBLIC, {"requested": [self.name(h) for h in requested],
                                                      "posted": [self.name(h) for h in answered]}))
        self.events.append(Event("opinions_gm", GM, {"requests": {self.name(r): self.name(t)
                                                                  for r, t in requests.items()}}))

    def stage_knowledge_lot(self) -> None:
        """A25, the seed's letter as a GM option (`knowledge_lots: day_stages`, issue 28): «На всех
        основных дневных этапах» — a lot at the close of the defence, the re-vote and the judge's
        decision too, not only of the day vote. The default (`day`) draws none here."""
        if self.start.options.get("knowledge_lots") == "day_stages":
            self.knowledge_lot()

    def knowledge_lot(self) -> None:
        """«На всех основных дневных этапах среди участников, находящихся на свободе, разыгрывается
        возможность получить Тайное Знание» (A25: one lot per day vote, among the free heroes awake;
        with `knowledge_lots: day_stages`, one at every day stage: stage_knowledge_lot)."""
        candidates = self.awake()
        winner = priv.knowledge_lot_winner(self, candidates)  # the Гений's first; never the Хакер
        if winner is None and not candidates:
            return
        winner = winner if winner is not None else self.rng.choice(candidates)
        rights = self.memory.setdefault("knowledge_rights", {})
        rights[str(winner)] = int(rights.get(str(winner), 0)) + 1
        self.events.append(Event("knowledge_won", seat_audience(winner), {"day": self.number}))
        self.events.append(Event("knowledge_lot", GM, {**ref(self.start.seat(winner)), "among": len(candidates)}))
        self.outcome["knowledge"] = self.name(winner)

    def defence(self) -> None:
        owing = self.owing()
        for hero in self.memory["bench"]:
            if DEFENCE_SPEECH in self.posted.get(hero, ()):
                if hero not in self.memory["spoken"]:
                    self.memory["spoken"].append(hero)
                self.events.append(Event("defence", PUBLIC, ref(self.start.seat(hero))))
        self.miss(owing)
        self.stage_knowledge_lot()
        judge = judge_today(self.current())
        # «Если на этот момент есть активный Судья (не находящийся в коме)»
        if judge is not None and judge_sits(self.current(), judge):
            self.next_phase = f"{JUDGE} {self.number}"
        else:
            self.next_phase = f"{REVOTE} {self.number}"

    def revote(self) -> None:
        """«Если на голосовании только один герой, то перед всеми кроме него стоит выбор "В рабство"/
        "Пощадить" и если он набирает большинство голосов, то теряет свободу. Если подсудимых больше
        одного, то свободу теряют все, кто набрал максимальное количество голосов.»"""
        current = self.current()
        owing = self.owing()
        bench = list(self.memory["bench"])
        ballots = self.ballots()
        self.facts.update(ballots=ballots, bench=bench)
        voters = self.rules.voters(current)
        extra = priv.authority_extra(self)
        extra_ballot = [extra[1]] if extra is not None else []
        missed_before = {h: coma_missed(self.start, h) for h in bench}
        self.miss(owing)
        self.stage_knowledge_lot()  # among those free during the stage, before its sentence
        enslaved: list[int] = []
        if len(bench) == 1:
            yes = sum(1 for t in [*ballots.values(), *extra_ballot] if t == TO_SLAVERY)
            no = sum(1 for t in [*ballots.values(), *extra_ballot] if t == SPARE)
            base = yes + no if self.start.options.get("single_majority") == "cast" else \
                len(voters) + len(extra_ballot)
            if yes * 2 > base:
                enslaved = bench
            self.outcome["tally"] = {TO_SLAVERY: yes, SPARE: no}
        else:
            tally: dict[int, int] = {}
            for target in [*ballots.values(), *extra_ballot]:
                tally[target] = tally.get(target, 0) + 1
            top = max(tally.values(), default=0)
            enslaved = self.seating(t for t, c in tally.items() if c == top and top > 0)
            self.outcome["tally"] = {self.name(t): c for t, c in tally.items()}
        if self.start.options.get("coma_bench_auto", True):
            # «Если герой только недавно попал в кому и пропущен всего один этап, то в Статусе он
            # помечается как "Спит" и будучи на Повторном голосовании он не отправляется в рабство
            # автоматически» (A14: a deeper coma is)
            deep = [h for h in bench if (missed_before[h] or 0) >= 2]
            enslaved = self.seating([*enslaved, *deep])
        self.outcome["votes"] = self.named_ballots(ballots)
        self.events.append(Event("revote_result", PUBLIC, {
            "ballots": self.named_ballots(ballots), "enslaved": [self.name(h) for h in enslaved]}))
        for hero in enslaved:
            self.enslave(hero, by=REVOTE, owners=[PUBLIC_SLAVE])
        self.after_sentence()

    def judge(self) -> None:
        """«Если на этот момент есть активный Судья ..., то он единолично принимает решение»; if he
        lets the timer run out he falls into coma and the bench goes to a re-vote by all (A12)."""
        current = self.current()
        judge = judge_today(current)
        order = id_map(self.inputs.orders).get(judge)
        if judge is None or not isinstance(order, Order) or self.rules.check_order(current, order) is not None:
            self.miss(self.owing())
            self.stage_knowledge_lot()
            self.events.append(Event("judge_missed", PUBLIC, self.judge_ref(judge)))
            self.next_phase = f"{REVOTE} {self.number}"
            return
        self.miss([])
        self.stage_knowledge_lot()
        if order.action == SPARE:
            spared = ref(self.start.seat(self.memory["bench"][0]))
            self.events.append(Event("judge_decision", PUBLIC, {"spared": spared, "enslaved": None}))
        else:
            target = seat_id(order.target)
            self.events.append(Event("judge_decision", PUBLIC, {"spared": None,
                                                                "enslaved": ref(self.start.seat(target))}))
            self.enslave(target, by=JUDGE, owners=[PUBLIC_SLAVE])
            self.facts["judged"] = (judge, target)
        self.after_sentence()

    def allies(self) -> None:
        """«Выбор Союзника»: mutual picks make alliances (alliances.py); then the stage that was due."""
        self.outcome["alliances"] = choose_allies(self)
        self.next_phase = str(self.memory.pop("after_allies", None) or f"{NIGHT} {self.number}")

    # -- the night and the morning --------------------------------------------------------------

    def pick_by_rating(self, candidates: list[int], *, lowest: bool) -> int | None:
        """«автоматически выбирает участника с самым маленьким ... или самым большим ... Рейтингом»:
        ties (all 0 until part 2 supplies ratings) go by the seeded lot."""
        if not candidates:
            return None
        values = {h: self.ratings.get(h, 0.0) for h in candidates}
        best = min(values.values()) if lowest else max(values.values())
        return self.rng.choice(self.seating(h for h, v in values.items() if v == best))

    def auto_choice(self, hero: int, choices: dict[int, tuple[str, int | None]]) -> tuple[str, int | None] | None:
        """«Если герой оказался в коме ночью, то он автоматически выбирает участника с самым маленьким
        (если это Масон или Демон) или самым большим (если это Спаситель) Рейтингом, а если это
        Рептилоид, то присоединяется к сообщнику (если сообщника нет или он в коме, то действует как
        Демон).» Never himself (A15); the extras (question, key, knowledge) are not taken."""
        seat = self.start.seat(hero)
        others = [h for h in self.free() if h != hero]
        if seat.role == MASON or priv.is_mole(self.start, hero):  # a Крот picks like a Mason
            target = self.pick_by_rating(others, lowest=True)
            return (SUSPECT, target) if target is not None else None
        if seat.role == SAVIOUR:
            current = self.current()
            allowed = [h for h in others if self.rules.check_order(current, Order(hero, SAVE, h)) is None]
            target = self.pick_by_rating(allowed, lowest=False)
            return (SAVE, target) if target is not None else None
        if seat.role == REPTILOID:
            for partner in self.free():
                if partner != hero and self.start.seat(partner).role == REPTILOID:
                    choice = choices.get(partner)
                    if str(partner) not in self.memory["coma"] and choice and choice[0] == ENSLAVE \
                            and choice[1] != partner:
                        return choice
            others = [h for h in others if self.start.seat(h).role != REPTILOID]
        target = self.pick_by_rating(others, lowest=True)
        return (ENSLAVE, target) if target is not None else None

    def night(self) -> None:
        current = self.current()
        orders: dict[int, Order] = {}
        for actor, order in id_map(self.inputs.orders).items():
            if isinstance(order, Order) and order.actor == actor and self.rules.check_order(current, order) is None:
                orders[actor] = order
        stuns, excludes = priv.night_inputs(self)
        stunned_targets = set(stuns.values())  # «лишить ночного действия»: no coma for a choice not made
        self.miss([h for h in self.owing() if h not in stunned_targets], excused=frozenset(stunned_targets))
        choices: dict[int, tuple[str, int | None]] = {}
        for hero in self.free():
            if str(hero) not in self.memory["coma"] and hero in orders:
                choices[hero] = (orders[hero].action, seat_id(orders[hero].target))
        auto = {}
        for hero in self.free():
            if str(hero) in self.memory["coma"] and hero not in stunned_targets:
                choice = self.auto_choice(hero, choices)
                if choice is not None:
                    choices[hero] = auto[hero] = choice
        self.events.append(Event("night_choices", GM, {
            "choices": {self.name(h): [a, self.name(t)] for h, (a, t) in choices.items()},
            "auto": sorted(self.name(h) for h in auto)}))
        stunned = priv.apply_stuns(self, stuns, choices)
        orders = {h: o for h, o in orders.items() if h not in stunned}
        priv.apply_excludes(self, excludes, stunned)
        self.memory.get("priv", {}).pop("stunned", None)  # «до конца ночи»
        attacks = self.attacks(choices)
        self.saviour_acts(choices, attacks, orders)
        self.facts.update(choices=choices, auto=set(auto), taken={v: list(o) for v, o in attacks.items()})
        for victim in self.seating(attacks):
            self.enslave(victim, by=NIGHT, owners=attacks[victim])
        self.night_extras(orders)
        priv.hare_tax(self, list(attacks))
        priv.snakelet_turn(self)
        # «Также публикуется актуальный размер Бремени для всех рабов»: every slave with his owners;
        # the amounts are part 2's (None until then).
        burdens = [{**ref(s), "owners": self.memory["slaves"][str(s.id)]["owners"],
                    "relieved": s.id in self.memory["relieved"], "amount": None}
                   for s in self.start.seats if self.status[s.id] == SLAVE]
        self.events.append(Event("morning", PUBLIC, {
            "enslaved": [{**ref(self.start.seat(v)), "owners": attacks[v]} for v in self.seating(attacks)],
            "taxed": self.outcome.get("taxed"),
            "saved": self.outcome["saved"] is not None, "relieved": self.outcome["freed"], "burdens": burdens}))
        if self.check_over():
            return
        self.judge_lot(choices)
        self.next_phase = f"{DAY} {self.number + 1}"

    def attacks(self, choices: dict[int, tuple[str, int | None]]) -> dict[int, list[str]]:
        """The Reptiloids' one victim and the Demon's; A4: a hero taken by both is a slave of both."""
        attacks: dict[int, list[str]] = {}
        # a Крот's choice is a suspicion whatever his role (part 3): only ENSLAVE choices attack
        choices = {h: c for h, c in choices.items() if c[0] == ENSLAVE}
        reptiloids = [h for h in self.free() if self.start.seat(h).role == REPTILOID]
        # «Если ночью Рептилоид выбирает себя, то тем самым отказывается от выбора и тогда может быть
        # даже порабощён своим сообщником.»
        targets = self.seating(t for h in reptiloids if (c := choices.get(h)) and (t := c[1]) is not None and t != h)
        victim = None
        if len(targets) == 1:
            victim = targets[0]
        elif len(targets) > 1:
            # A3: «должны синхронизировать свой выбор»; disagreeing, they take nobody (or by lot)
            if self.start.options.get("reptiloid_disagree") == "lot":
                victim = self.rng.choice(targets)
        if victim is not None and not priv.snakelet_immune(self, victim):
            attacks[victim] = [REPTILOIDS]
        for hero in self.free():
            if self.start.seat(hero).role == DEMON and (c := choices.get(hero)) and c[1] not in (None, hero):
                # «Каждую ночь выбирает жертву ... (но может это и не делать, выбирая себя)»
                attacks.setdefault(c[1], []).append(DEMONS)
        return attacks

    def saviour_acts(self, choices: dict, attacks: dict[int, list[str]], orders: dict[int, Order]) -> None:
        for hero in self.free():
            if self.start.seat(hero).role != SAVIOUR or hero not in choices:
                continue
            action, target = choices[hero]
            saviour = self.memory["saviour"]
            if action == SAVE:
                saviour["saved"].append(target)
                if target == hero:
                    saviour["self_saved"] = True
                if target in attacks:
                    # «в случае одновременной ночной атаки со стороны и Рептилоидов и Демона
                    # само-спасение не срабатывает»
                    if target == hero and len(attacks[target]) > 1:
                        continue
                    del attacks[target]
                    self.outcome["saved"] = self.name(target)
                    self.facts["saviour_saved"] = hero
            elif action == RELIEVE:
                # «избавляет от Бремени избранного раба до конца Шоу и раскрывает для всех его Роль»
                self.memory["relieved"].append(target)
                self.events.append(Event("relieved", PUBLIC, {**ref(self.start.seat(target)),
                                                              "role": self.start.seat(target).role}))
                reveal(self.start, self.memory, target, self.events, reason="relieved")
                self.outcome["freed"] = self.name(target)

    def night_extras(self, orders: dict[int, Order]) -> None:
        for hero, order in orders.items():
            detail = dict(order.detail or {})
            if "question" in detail:
                slave = seat_id(detail["question"])
                self.events.append(Event("questioned", PUBLIC, ref(self.start.seat(slave))))
                add_public_key(self.start, self.memory, slave, self.rng, self.events, reason="questioned")
            if "public_key" in detail:
                about = seat_id(detail["public_key"])
                self.memory["saviour"]["key_used"] = True
                self.events.append(Event("saviour_key", PUBLIC, ref(self.start.seat(about))))
                add_public_key(self.start, self.memory, about, self.rng, self.events, reason="saviour")
            if "extra_knowledge" in detail and self.status[hero] == ACTIVE:
                # «если утром останется на свободе»
                about = seat_id(detail["extra_knowledge"])
                if give_secret_key(self.start, self.memory, hero, about, self.rng, self.events, source="saviour",
                                   phase=self.start.phase) is None:
                    # the night's keys left him nothing new to learn about that hero
                    self.events.append(Event("knowledge_empty", seat_audience(hero), ref(self.start.seat(about))))
                else:  # «не более одного на каждого участника» (with privileges: check_order)
                    self.memory["saviour"].setdefault("extra_about", []).append(about)

    def judge_lot(self, choices: dict[int, tuple[str, int | None]]) -> None:
        """«на утро среди всех героев, которые не находятся в Коме, с учётом ночных Масонских действий
        выбирается Судья следующего дня»; each Mason's suspicion «понижает на порядок вероятность»:
        the hero's weight is multiplied by 0.1 (A9: free heroes only, a judge always when any)."""
        # A9: the free heroes not in coma; with `judge_from: all` every hero not in coma, slaves too
        current = self.current()
        candidates = (self.awake() if self.start.options.get("judge_from", "free") == "free"
                      else [s.id for s in current.seats if judge_sits(current, s.id)])
        suspicions = {h: 0 for h in candidates}
        for hero, (action, target) in choices.items():
            if action == SUSPECT and target in suspicions:
                suspicions[target] += 1
        once = self.start.options.get("suspicion_cut") == "once"
        weights = {h: (0.1 if k else 1.0) if once else 0.1 ** k for h, k in suspicions.items()}
        day = self.number + 1
        if not candidates:
            self.memory["judge"], self.memory["judge_day"] = None, day
            self.events.append(Event("no_judge", PUBLIC, {"day": day}))
            return
        drawn = self.rng.random() * sum(weights.values())
        judge, left = candidates[-1], drawn
        for hero in candidates:
            left -= weights[hero]
            if left < 0:
                judge = hero
                break
        self.memory["judge"], self.memory["judge_day"] = judge, day
        self.events.append(Event("judge_lot", GM, {"weights": {self.name(h): w for h, w in weights.items()},
                                                   "suspicions": {self.name(h): k for h, k in suspicions.items()},
                                                   "drawn": drawn, "judge": self.name(judge), "day": day}))
        audience = PUBLIC if self.start.options.get("judge_public", True) else seat_audience(judge)
        self.events.append(Event("judge", audience, {**ref(self.start.seat(judge)), "day": day}))
        priv.genius_judge(self, judge)

    # -- the result -----------------------------------------------------------------------------

    def secretary_saw(self) -> dict[str, Any] | None:
        """What the Секретарь saw of this stage's vote at its end (privileges.secretary_ballots, the
        live view the site shows him): every ballot by name, and the Авторитет's extra votes' targets
        without their owners; None when nobody holds the privilege or the stage is no vote."""
        secretaries = holders(self.start, SECRETARY)
        seen = priv.secretary_ballots(self.start, self.inputs.votes, self.inputs.extra.get("extra_votes"),
                                      viewer=secretaries[0]) if secretaries else None
        if seen is None:
            return None

        def shown(value: Any) -> Any:
            """A hero's name, a ballot word as it is; None for what names nobody (a ballot that does not stand)."""
            if isinstance(value, int) and not isinstance(value, bool):
                return self.name(value) if self.start.has_seat(value) else None
            return value if isinstance(value, str) else None

        ballots = {shown(voter): shown(target) for voter, target in seen["ballots"].items()}
        return {"ballots": {v: t for v, t in ballots.items() if v is not None and t is not None},
                "extra": sorted((t for t in map(shown, seen["extra"]) if t is not None), key=str)}

    def fakes_signed(self) -> dict[str, dict[str, int]]:
        """The posts signed as another hero in this stage (the Говорун's /fake, «до пяти таких
        сообщений за Этап»), from `extra["fakes"]` ({author: {hero shown: n}}, what the site's
        ledger recorded as each post was stored): {author: {hero shown: n}} by name. A fact of the
        stage, not an input the close may refuse: the post was published when `check_fake` allowed
        it. What names no hero of the show is left out."""
        signed: dict[str, dict[str, int]] = {}
        for author, shown in id_map(self.inputs.extra.get("fakes")).items():
            if not self.start.has_seat(author):
                continue
            counts = {self.name(hero): int(n) for hero, n in id_map(shown).items()
                      if self.start.has_seat(hero) and int(n) > 0}
            if counts:
                signed[self.name(author)] = counts
        return signed

    def finish(self) -> Resolution:
        seats = self.seats_now()
        state = replace(self.start, seats=seats, phase=self.next_phase, over=self.over, winner=self.winner,
                        memory=copy.deepcopy(self.memory))
        if not self.over:
            self.events.append(Event("stage", PUBLIC, {"phase": self.next_phase}))
        before = self.start.memory
        keys_public = {}
        for s in self.start.seats:
            old = set((before.get("public_keys") or {}).get(str(s.id), ()))
            new = [k for k in (self.memory["public_keys"].get(str(s.id)) or ()) if k not in old]
            if new:
                keys_public[s.name] = new
        keys_secret = {}
        for s in self.start.seats:
            # new: not held at the start (a count would miss a key learnt in the close that erased
            # another, the Змеёныш's turn)
            old = (before.get("secret_keys") or {}).get(str(s.id)) or []
            new = [i for i in self.memory["secret_keys"].get(str(s.id)) or [] if i not in old]
            if new:
                keys_secret[s.name] = {self.name(int(i["about"])): i["key"] for i in new}
        judge = judge_today(state) if not state.over else None
        self.outcome.update({
            "keys_public": keys_public, "keys_secret": keys_secret,
            "revealed": [self.name(h) for h in self.memory["revealed"] if h not in (before.get("revealed") or ())],
            "judge": self.name(judge), "free": [s.name for s in seats if s.status == ACTIVE],
            "alive": [s.name for s in seats if s.status == ACTIVE], "over": state.over,
            "privileges": priv.holder_names(state),
            # the status's mark of each free hero in coma after the close: «Спит» (`asleep`, one stage
            # missed at most) or `coma`
            "sleep": {s.name: sleep_mark(state, s.id) for s in seats
                      if s.status == ACTIVE and sleep_mark(state, s.id) is not None},
        })
        self.outcome.setdefault("votes", {})
        self.outcome.setdefault("tally", {})
        self.outcome.setdefault("bench", [])
        self.outcome["trial_task"] = running_task(self.memory)
        self.outcome["secretary"] = self.secretary_saw()
        self.outcome["fakes"] = self.fakes_signed()
        for key, empty in (("stunned", []), ("excluded", []), ("turned", None), ("taxed", None),
                           ("intercepted", {}), ("thefts", {}), ("extra_vote", None), ("keys_erased", {})):
            self.outcome.setdefault(key, empty)
        return Resolution(state=state, events=tuple(self.events), outcome=self.outcome)
