"""The show's privileges (part 3, issue 20): the deal, what each holder may do now, the close's
privilege steps, what a viewer may see, and the pure adjustments of part 2's money and ratings.

Every rule quotes the seed («Привилегии»); docs/rulesets/show.md, "Part 3: privileges", gives the
readings chosen where the seed is unclear. Who holds what lives in `memory["privileges"]`
({seat: [privilege]}); the privileges' bookkeeping in `memory["priv"]`:

- `stun_used` [seat]: heroes stunned once already («простучать героев только по одному разу»);
- `stunned` {"phase", "seats"}: heroes stunned at once during the running night (no messages);
- `exclude_used` [seat], `excluded` {"day", "seats"}: the Адвокат's exclusions;
- `turned` seat | null: the Змеёныш who became a Reptiloid; `old_role` his role before;
- `hare_spent` bool: the Заяц became a slave «за неуплату налогов»;
- `hack_open` [{number, holder, about, key, phase, guessed}]: Secret Knowledge the Хакер may still
  intercept; `intercepted_now` {"phase", "seats": {hacker: {about: key}}}: his right guesses answered
  at once in the running stage (its close reports them); `mole_used` {seat: phase}; `first_lot_done`
  bool (the Гений's first knowledge);
- `thefts` {thief: victim} ordered in the day vote for the coming night (the carousel).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from games.engine.events import GM, PUBLIC, Event, faction_audience, seat_audience
from games.engine.rulesets.common import ref, seat_id
from games.engine.state import ACTIVE, GameState
from games.rulesets.show.engine.coins import BANK, Transfer, hero, seat_of, split
from games.rulesets.show.engine.facts import holders, holds, id_map, in_coma, priv_memory
from games.rulesets.show.engine.privilege_keys import (
    AUTHORITY,
    AUTHORITY_MIN_FREE,
    BINGO,
    BOUNCER,
    EXCLUDE,
    EXTRA_VOTE,
    FAKE,
    FAKES_PER_STAGE,
    GENIUS,
    HACKER,
    HARE,
    INTERCEPT,
    LAWYER,
    MOLE,
    MOLE_COMA,
    PRIVILEGES,
    SECRETARY,
    SNAKELET,
    STEAL,
    STUN,
    TALKER,
)
from games.rulesets.show.engine.roles import (
    BAD_FACTIONS,
    DEMON,
    REPTILOID,
    REPTILOIDS,
    ROLES,
    SUSPECT,
    deciding_teams,
    free_seats,
    keys_of,
)
from games.rulesets.show.engine.stages import DAY, NIGHT, REVOTE, SPARE, TO_SLAVERY, parse_phase

if TYPE_CHECKING:
    from games.rulesets.show.engine.closing import Closing

NOT_REPTILOID = "not_" + REPTILOID
TAXES = "taxes"  # the Заяц's slavery «за неуплату налогов»

# Part 2's transfer reasons these rules change (economy.py, trials.py, settlement.py).
ENTRY_FEE, STAGE_FEE, COMA_FEE, MESSAGE_FEE, ANONYMOUS_FEE, BURDEN, TRIAL_PASS = (
    "entry_fee", "stage_fee", "coma_fee", "message_fee", "anonymous_fee", "burden", "trial_pass")
BANK_SHARE, BINGO_REASON = "bank_share", "bingo"
# «не платит никакие Взносы (в том числе вступительный, за Этапы, сборы за Кому), а также не платит
# Бремя»: the fees the Заяц never pays (a paid message is «платное сообщение», not a «Взнос»; the
# trial's skip is «базовый взнос (30㉿)», so it is one).
HARE_FREE: frozenset[str] = frozenset({ENTRY_FEE, STAGE_FEE, COMA_FEE, BURDEN, TRIAL_PASS})


# -- the deal ----------------------------------------------------------------------------------------


def deal_privileges(state: GameState, seed: int | None, explicit: Mapping[int, Sequence[str]] | None = None
                    ) -> dict[str, list[str]]:
    """«в момент назначения Ролей происходит случайное распределение доступных для этого Шоу
    Привилегий ... Одному герою может выпасть сразу несколько Привилегий»: each privilege in play
    goes to one hero drawn with the game's seed (`random.Random(f"show:{seed}:privileges")`, in the
    seed's order of the privileges), so one hero may draw several; the Змеёныш only among the
    non-Reptiloids («может получить только не Рептилоид»). `explicit` ({seat: [privilege]}, a
    scenario file's players) fixes the holders instead and must hand out exactly the ones in play."""
    in_play = list(state.options.get("privileges") or ())
    out: dict[str, list[str]] = {}
    if explicit:
        given = [p for ps in explicit.values() for p in ps]
        if sorted(given) != sorted(in_play):
            raise ValueError(f"the players' privileges {sorted(given)} are not those in play {sorted(in_play)}")
        for seat, privileges in explicit.items():
            if SNAKELET in privileges and state.seat(seat).role == REPTILOID:
                raise ValueError("the Змеёныш is never a Reptiloid")
            if privileges:
                out[str(seat)] = [p for p in PRIVILEGES if p in privileges]
        return out
    if not in_play:
        return out
    if seed is None:
        raise ValueError("the privileges are dealt with the game's seed")
    rng = random.Random(f"show:{seed}:privileges")
    for privilege in in_play:
        pool = [s.id for s in state.seats if privilege != SNAKELET or s.role != REPTILOID]
        holder = rng.choice(pool)
        out.setdefault(str(holder), []).append(privilege)
    return {k: [p for p in PRIVILEGES if p in v] for k, v in out.items()}


def deal_events(state: GameState) -> list[Event]:
    """«о котором герой в тайне от остальных узнает в момент получения своей Роли»: each holder
    hears his own, the GM all of them."""
    held = state.memory.get("privileges") or {}
    events = [Event("privileges", seat_audience(s.id), {"privileges": list(held[str(s.id)])})
              for s in state.seats if held.get(str(s.id))]
    if held:
        events.append(Event("privileges_gm", GM, {"holders": holder_names(state)}))
    return events


def holder_names(state: GameState) -> dict[str, list[str]]:
    held = state.memory.get("privileges") or {}
    return {s.name: list(held[str(s.id)]) for s in state.seats if held.get(str(s.id))}


def is_mole(state: GameState, hero: int | None) -> bool:
    return holds(state, hero, MOLE)


def demon_seats(state: GameState) -> list[int]:
    """The Demon's seat for his burdens and escrow: the Demon, or a Змеёныш who was the Demon before
    he turned (his slaves' escrow stays his, A26)."""
    priv = priv_memory(state)
    turned = priv.get("turned")
    return [s.id for s in state.seats
            if s.role == DEMON or (turned is not None and s.id == int(turned) and priv.get("old_role") == DEMON)]


def burden_collectors(state: GameState) -> list[int]:
    """Who collects the Reptiloids' slaves' burden: the Reptiloids, split equally; «После превращения
    Бремя с рептилоидных рабов начинает собирать только Рептилоид-Змеёныш» (one movement to him)."""
    turned = priv_memory(state).get("turned")
    if turned is not None:
        return [int(turned)]
    return [s.id for s in state.seats if s.role == REPTILOID]


def night_actions(state: GameState, hero: int) -> tuple[str, ...]:
    """A hero's night actions. «Крот не знает свою Роль»: his panel may not tell his role, so a Mole
    picks a hero like a Mason (a suspicion, A32), whatever his role: a Mole Reptiloid or Demon
    enslaves nobody, and «Если Кротом оказался Спаситель, он лишается ночных проверок» (no save,
    relief, public key or extra knowledge)."""
    if is_mole(state, hero):
        return (SUSPECT,)
    return ROLES[state.seat(hero).role].actions


def _free(state: GameState, hero: Any) -> bool:
    return state.has_seat(hero) and state.seat(hero).status == ACTIVE


def _free_count(state: GameState) -> int:
    return len(state.active())


# -- what a holder may do now (the panel's offers and the close's checks) -------------------------


def check_stun(state: GameState, bouncer: int, target: Any) -> str | None:
    """«Каждую ночь Вышибала ... получает дополнительный приватный вопрос, кого он желает "оглушить",
    то есть лишить ночного действия. Делать этот выбор не обязательно.» «За сессию можно
    "простучать" героев только по одному разу» and «Вышибала-раб также обладает этой способностью»
    (C3: from slavery too). The target is another free hero not stunned before; one stun a night
    («Каждую ночь ... вопрос, кого он желает "оглушить"»: one question, one hero), so a stun made at
    once (`stun_now`) closes the night's choice."""
    if state.over:
        return "game_over"
    kind, _n = parse_phase(state.phase)
    if kind != NIGHT or not holds(state, bouncer, BOUNCER):
        return "not_your_action"
    tonight = priv_memory(state).get("stunned") or {}
    if tonight.get("phase") == state.phase and str(bouncer) in (tonight.get("by") or {}):
        return "stunned_tonight"
    target = seat_id(target)
    if target is None or not state.has_seat(target):
        return "bad_target"
    if not _free(state, target):
        return "target_not_free"
    if target == bouncer:
        return "self_forbidden"
    if target in (priv_memory(state).get("stun_used") or ()):
        return "stun_used"
    return None


def check_exclude(state: GameState, lawyer: int, target: Any) -> str | None:
    """«По ночам Адвокат (будучи свободным героем) может выбрать одного из других героев и тот будет
    исключён из списка Дневного Голосования следующего дня.» «Выбирать каждого участника можно
    только один раз за сессию. Себя тоже можно выбрать лишь один раз.» (C4: himself too, once)."""
    if state.over:
        return "game_over"
    kind, _n = parse_phase(state.phase)
    if kind != NIGHT or not holds(state, lawyer, LAWYER):
        return "not_your_action"
    if not _free(state, lawyer):
        return "not_free"
    target = seat_id(target)
    if target is None or not state.has_seat(target):
        return "bad_target"
    if not _free(state, target):
        return "target_not_free"
    if target in (priv_memory(state).get("exclude_used") or ()):
        return "excluded_before"
    return None


def authority_on(state: GameState) -> bool:
    """«Авторитет работает только когда на свободе более пяти Героев» (counted when the vote runs)."""
    return _free_count(state) >= AUTHORITY_MIN_FREE


def check_extra_vote(state: GameState, authority: int, target: Any, *, rules: Any) -> str | None:
    """«На Дневных и Повторных Голосованиях получает в начале Этапа в ленту предложение добросить ещё
    один голос, можно это сделать только до конца Этапа в любой момент»; «Авторитет имеет
    возможность голосовать даже из рабства» (A29: from slavery the extra vote; his own vote is a
    free hero's). The extra vote names what an ordinary ballot may name, never himself."""
    if state.over:
        return "game_over"
    kind, _n = parse_phase(state.phase)
    if kind not in (DAY, REVOTE) or not holds(state, authority, AUTHORITY):
        return "not_your_action"
    if not authority_on(state):
        return "authority_off"
    bench = [int(i) for i in state.memory.get("bench") or ()]
    if kind == REVOTE and len(bench) == 1:
        if authority == bench[0]:
            return "self_vote_forbidden"
        return None if target in (TO_SLAVERY, SPARE) else "bad_target"
    target = seat_id(target)
    if target is None or target not in rules.vote_targets(state):
        return "bad_target"
    if target == authority:
        return "self_vote_forbidden"
    return None


def check_intercept(state: GameState, hacker: int, guess: Any) -> str | None:
    """«Как только кто-то получает Тайное Знание, Хакер имеет возможность перехватить его себе если
    угадает, НА КОГО или КЕМ оно было получено (за ограниченное время)»; «Хакер продолжает свою
    деятельность даже из рабства». A guess is {"number": n, "receiver": seat} or {"number": n,
    "about": seat}: n is the public count of that Secret Knowledge (`knowledge_received`), open until
    the end of the stage after the one it was given in (A33); one guess per knowledge."""
    if state.over:
        return "game_over"
    if not holds(state, hacker, HACKER):
        return "not_your_action"
    if not isinstance(guess, Mapping) or set(guess) - {"number", "receiver", "about"} or \
            len(set(guess) & {"receiver", "about"}) != 1:
        return "bad_guess"
    try:
        number = int(guess.get("number"))
    except (TypeError, ValueError):
        return "bad_guess"
    item = next((i for i in priv_memory(state).get("hack_open") or () if int(i["number"]) == number), None)
    if item is None:
        return "no_open_knowledge"
    if hacker in (item.get("guessed") or ()):
        return "guessed_before"
    named = seat_id(guess.get("receiver", guess.get("about")))
    if named is None or not state.has_seat(named):
        return "bad_target"
    return None


def check_mole(state: GameState, mole: int, target: Any) -> str | None:
    """«Крот может единолично "закапывать" (то есть усыплять, отправляя в кому) любого героя на
    свободе один раз за Этап с помощью команды /mole. Даже из рабства.»"""
    if state.over:
        return "game_over"
    if not holds(state, mole, MOLE):
        return "not_your_action"
    if (priv_memory(state).get("mole_used") or {}).get(str(mole)) == state.phase:
        return "mole_used"
    target = seat_id(target)
    if target is None or not state.has_seat(target):
        return "bad_target"
    if not _free(state, target):
        return "target_not_free"
    if target == mole:
        return "self_forbidden"
    if in_coma(state, target):
        return "in_coma_already"
    return None


def check_steal(state: GameState, thief: int, victim: Any) -> str | None:
    """«Чтобы заказать похищение случайной Привилегии нужно сразу после своего выбора на Дневном
    Голосовании в появляющемся меню выбрать, у кого вы хотите попробовать похитить Привилегию»;
    «В Карусели участвуют также и рабы». The close also needs the thief's standing ballot when he is
    a voter of the day vote (a slave who may not vote orders without one)."""
    if state.over:
        return "game_over"
    kind, _n = parse_phase(state.phase)
    if not state.options.get("carousel") or kind != DAY or not state.has_seat(thief):
        return "not_your_action"
    victim = seat_id(victim)
    if victim is None or not state.has_seat(victim):
        return "bad_target"
    if victim == thief:
        return "self_forbidden"
    return None


def check_fake(state: GameState, seat: int, used_in_stage: int, as_hero: Any = None) -> str | None:
    """«Имеет уникальную возможность подделывать имя отправителя для своего следующего сообщения
    командой /fake, до пяти таких сообщений за Этап.» The site counts the stage's fakes and asks; the
    false sender is another hero of the show."""
    if state.over:
        return "game_over"
    if not holds(state, seat, TALKER):
        return "not_your_action"
    if used_in_stage >= FAKES_PER_STAGE:
        return "fake_limit"
    if as_hero is not None:
        as_id = seat_id(as_hero)
        if as_id is None or not state.has_seat(as_id) or as_id == seat:
            return "bad_target"
        if not _free(state, as_id):
            # a slave talks only in the slaves' chat: a post in the common thread under his name
            # would be a fake nobody could have written (issue 28, item 20)
            return "target_not_free"
    return None


def can_fake(state: GameState, seat: int, used_in_stage: int) -> bool:
    return check_fake(state, seat, used_in_stage) is None


def privilege_actions(state: GameState, actor: int) -> tuple[str, ...]:
    """The privilege actions a hero's panel offers now (free or slave, as each rule says)."""
    if state.over or not state.has_seat(actor):
        return ()
    kind, _n = parse_phase(state.phase)
    out: list[str] = []
    others = [s.id for s in state.active() if s.id != actor]
    if kind == NIGHT and holds(state, actor, BOUNCER) and any(check_stun(state, actor, t) is None for t in others):
        out.append(STUN)
    if kind == NIGHT and any(check_exclude(state, actor, s.id) is None for s in state.active()):
        out.append(EXCLUDE)
    if kind in (DAY, REVOTE) and holds(state, actor, AUTHORITY) and authority_on(state):
        out.append(EXTRA_VOTE)
    if holds(state, actor, HACKER) and any(actor not in (i.get("guessed") or ())
                                           for i in priv_memory(state).get("hack_open") or ()):
        out.append(INTERCEPT)
    if any(check_mole(state, actor, t) is None for t in others):
        out.append(MOLE_COMA)
    if kind == DAY and state.options.get("carousel"):
        out.append(STEAL)
    if holds(state, actor, TALKER):
        out.append(FAKE)
    return tuple(out)


# -- at once (the site's buttons) ---------------------------------------------------------------


def mole_now(state: GameState, mole: int, target: int) -> tuple[dict[str, Any], list[Event]] | None:
    """The /mole coma, applied at once: the target is asleep as after /lull (one stage missed is
    «Спит»); the thread hears who fell asleep, the GM also who buried him."""
    if check_mole(state, mole, target) is not None:
        return None
    memory = {**state.memory, "coma": {**(state.memory.get("coma") or {}), str(target): 0}}
    priv = priv_memory(state)
    priv["mole_used"] = {**(priv.get("mole_used") or {}), str(mole): state.phase}
    memory["priv"] = priv
    events = [Event("buried", PUBLIC, ref(state.seat(target))),
              Event("buried_gm", GM, {**ref(state.seat(target)), "mole": state.seat(mole).name})]
    return memory, events


def stun_now(state: GameState, bouncer: int, target: int) -> tuple[dict[str, Any], list[Event]] | None:
    """The stun chosen during the night, applied at once for messages: «Вышибала лишает оглушаемого
    возможности отправлять любые сообщения до конца ночи» (`can_post` says no from now on); the
    night's close decides the action itself (the mutual pick may cancel it)."""
    if check_stun(state, bouncer, target) is not None:
        return None
    priv = priv_memory(state)
    stunned = dict(priv.get("stunned") or {})
    if stunned.get("phase") != state.phase:
        stunned = {"phase": state.phase, "seats": [], "by": {}}
    stunned["by"] = {**stunned.get("by", {}), str(bouncer): target}
    stunned["seats"] = sorted(set(stunned.get("seats", [])) | {target})
    priv["stunned"] = stunned
    return {**state.memory, "priv": priv}, [Event("stunned", seat_audience(target), {"night": state.phase})]


def stunned_now(state: GameState) -> list[int]:
    stunned = priv_memory(state).get("stunned") or {}
    return [int(s) for s in stunned.get("seats", ())] if stunned.get("phase") == state.phase else []


def can_post(state: GameState, seat: int) -> bool:
    """Whether a hero may send a message now (the Вышибала's stun only: the site's other rules stand)."""
    return seat not in stunned_now(state)


# -- what a viewer may see ------------------------------------------------------------------------


def secretary_ballots(state: GameState, votes: Mapping[Any, Any], extra_votes: Mapping[Any, Any] | None, *,
                      viewer: int | None, is_gm: bool = False) -> dict[str, Any] | None:
    """What the Секретарь sees of the running vote: «видит, кто за кого голосует на всех Дневных
    Голосованиях. Даже из рабства», «видит, за кого отдают свои голоса Талантливые рабы» (every
    ballot given, the Talents' too) and «Секретарь видит в кого ушёл голос Авторитета, но не видит от
    кого он» (the extra votes' targets, without owners). A36: the re-votes too. None for anyone else
    (the GM sees the owners too)."""
    kind, _n = parse_phase(state.phase)
    if state.over or kind not in (DAY, REVOTE):
        return None
    extra = id_map(extra_votes)
    if is_gm:
        return {"ballots": id_map(votes), "extra": list(extra.values()), "extra_owners": extra}
    if viewer is None or not holds(state, viewer, SECRETARY):
        return None
    return {"ballots": id_map(votes), "extra": sorted(extra.values(), key=str)}


def own_role_view(state: GameState, hero: int, *, viewer: int | None, is_gm: bool = False) -> dict[str, Any]:
    """A hero's role as the viewer may see it: «Крот не знает свою Роль и должен выяснить её в ходе
    Шоу» (hidden from himself until the end); the GM sees it."""
    seat = state.seat(hero)
    if is_mole(state, hero) and viewer == hero and not is_gm and not state.over:
        return {"role": None, "faction": None, "mole": True}
    return {"role": seat.role, "faction": seat.faction, "mole": is_mole(state, hero) and (is_gm or state.over)}


def intercepted(state: GameState, hacker: int) -> list[dict[str, Any]]:
    """The Хакер's intercepted knowledge (his secret keys taken by a right guess)."""
    return [i for i in (state.memory.get("secret_keys") or {}).get(str(hacker), ()) if i.get("source") == "hacked"]


def excluded_today(state: GameState) -> list[int]:
    """Heroes the Адвокат took off today's day vote list."""
    excluded = priv_memory(state).get("excluded") or {}
    kind, number = parse_phase(state.phase)
    return [int(s) for s in excluded.get("seats", ())] if kind == DAY and excluded.get("day") == number else []


def no_normal_knowledge(state: GameState, hero: int) -> bool:
    """«Сам Хакер НЕ получает Тайные Знания обычным порядком.»"""
    return holds(state, hero, HACKER)


# -- the close's steps --------------------------------------------------------------------------


def record_knowledge(state: GameState, memory: dict[str, Any], holder: int, about: int, key: str, phase: str) -> None:
    """Called when a Secret Knowledge is given: the Хакер may now guess it."""
    hackers = holders(state, HACKER)
    if not hackers or holder in hackers:
        return
    priv = memory.setdefault("priv", {})
    priv.setdefault("hack_open", []).append({"number": int(memory.get("knowledge_count", 0)), "holder": holder,
                                             "about": about, "key": key, "phase": phase, "guessed": []})


def intercept_one(state: GameState, memory: dict[str, Any], hacker: int, guess: Mapping[str, Any], phase: str,
                  events: list[Event]) -> tuple[int, str] | None:
    """One Хакер's guess that `check_intercept` allowed, applied to `memory` (a copy the caller
    keeps): a right guess gives him the same key (the receiver has read it already, so he keeps
    it); a guess, right or wrong, spends that knowledge for him. Returns (about, key) when right."""
    priv = memory.setdefault("priv", {})
    priv["hack_open"] = [dict(i, guessed=list(i.get("guessed") or ())) for i in priv.get("hack_open") or ()]
    item = next(i for i in priv["hack_open"] if int(i["number"]) == int(guess["number"]))
    item["guessed"].append(hacker)
    field = "receiver" if "receiver" in guess else "about"
    right = seat_id(guess[field]) == (item["holder"] if field == "receiver" else item["about"])
    about = state.seat(int(item["about"])).name
    events.append(Event("intercept_result", seat_audience(hacker), {
        "number": item["number"], "right": right, **({"about": about, "key": item["key"]} if right else {})}))
    events.append(Event("intercept_gm", GM, {"hacker": state.seat(hacker).name, "number": item["number"],
                                             "right": right}))
    if not right:
        return None
    keys = memory.setdefault("secret_keys", {})
    mine = list(keys.get(str(hacker)) or ())
    known = any(int(i["about"]) == int(item["about"]) and i["key"] == item["key"] for i in mine)
    if int(item["about"]) != hacker and not known:
        # a knowledge about himself, or one he holds already, teaches him nothing
        mine.append({"about": item["about"], "key": item["key"], "phase": phase, "source": "hacked"})
        keys[str(hacker)] = mine
    return int(item["about"]), item["key"]


def intercept_now(state: GameState, hacker: int, guess: Mapping[str, Any]) -> tuple[dict[str, Any], list[Event]] | None:
    """The Хакер's guess answered at once (the site's button: «за ограниченное время» is no time to
    wait for the stage's close); the close reports it in its `intercepted` outcome
    (`priv["intercepted_now"]`)."""
    if check_intercept(state, hacker, guess) is not None:
        return None
    memory = {**state.memory, "priv": priv_memory(state),  # (the lists copied: the state is left as it was)
              "secret_keys": {k: list(v) for k, v in (state.memory.get("secret_keys") or {}).items()}}
    events: list[Event] = []
    right = intercept_one(state, memory, hacker, guess, state.phase, events)
    if right is not None:
        priv = memory["priv"]
        stage = priv.get("intercepted_now") or {}
        stage = {"phase": state.phase, "seats": {}} if stage.get("phase") != state.phase else \
            {"phase": state.phase, "seats": {k: dict(v) for k, v in stage["seats"].items()}}
        stage["seats"].setdefault(str(hacker), {})[str(right[0])] = right[1]
        priv["intercepted_now"] = stage
    return memory, events


def intercepts(close: Closing) -> None:
    """The Хакер's guesses of the stage: those answered at once during it (`intercept_now`) and
    those in the close's inputs (`extra["intercept"]`, each through `intercept_one`). Then the
    knowledge given before this stage closes for him («за ограниченное время»)."""
    priv = close.memory.setdefault("priv", {})
    done = priv.pop("intercepted_now", None) or {}
    for hacker, items in (done.get("seats") or {}).items() if done.get("phase") == close.start.phase else ():
        for about, key in items.items():
            close.outcome.setdefault("intercepted", {}).setdefault(close.name(int(hacker)), {})[
                close.name(int(about))] = key
    guesses = id_map(close.inputs.extra.get("intercept"))
    for hacker in close.seating(guesses):
        items = guesses[hacker]
        for guess in items if isinstance(items, list) else [items]:
            current = close.current()
            if check_intercept(current, hacker, guess) is not None:
                continue
            right = intercept_one(current, close.memory, hacker, guess, close.start.phase, close.events)
            if right is not None:
                close.outcome.setdefault("intercepted", {}).setdefault(close.name(hacker), {})[
                    close.name(right[0])] = right[1]
    priv = close.memory.setdefault("priv", {})
    if "hack_open" in priv:
        priv["hack_open"] = [i for i in priv["hack_open"] if i["phase"] == close.start.phase]


def knowledge_lot_winner(close: Closing, candidates: list[int]) -> int | None:
    """The lot's candidates without the Хакер («НЕ получает Тайные Знания обычным порядком»); «Гений
    ... Получает первое Тайное Знание, если не является Хакером» (A25: the show's first lot is
    his when he is free). None: the ordinary lot among `candidates` (filtered in place)."""
    current = close.current()
    candidates[:] = [h for h in candidates if not no_normal_knowledge(current, h)]
    priv = close.memory.setdefault("priv", {})
    if priv.get("first_lot_done"):
        return None
    priv["first_lot_done"] = True
    for genius in holders(current, GENIUS):
        if _free(current, genius) and not holds(current, genius, HACKER):
            return genius
    return None


def authority_extra(close: Closing) -> tuple[int, Any] | None:
    """The Авторитет's extra vote standing at the close: (holder, target)."""
    current = close.current()
    for holder, target in id_map(close.inputs.extra.get("extra_votes")).items():
        value = target if target in (TO_SLAVERY, SPARE) else seat_id(target)
        if check_extra_vote(current, holder, value, rules=close.rules) is None:
            close.events.append(Event("extra_vote_gm", GM, {"authority": close.name(holder),
                                                             "target": value if isinstance(value, str)
                                                             else close.name(value)}))
            close.outcome["extra_vote"] = value if isinstance(value, str) else close.name(value)
            close.facts["extra_ballot"] = (holder, value)  # part 2 rates it «в общем порядке»
            return holder, value
    return None


def record_thefts(close: Closing, ballots: Mapping[int, Any]) -> None:
    """The carousel's orders of the day vote, kept for the night's start."""
    if not close.start.options.get("carousel"):
        return
    current = close.current()
    voters = set(close.rules.voters(current))
    thefts = {}
    for thief, victim in id_map(close.inputs.extra.get("steal")).items():
        if check_steal(current, thief, victim) is None and (thief not in voters or thief in ballots):
            thefts[str(thief)] = seat_id(victim)
    close.memory.setdefault("priv", {})["thefts"] = thefts


def stealable(state: GameState, memory: Mapping[str, Any], hero: int, locked: Iterable[str] = ()) -> list[str]:
    """«Привилегии Змеёныш, реализовавшийся "мёртвый" Заяц и Крот не участвуют в похищениях.»"""
    held = (memory.get("privileges") or {}).get(str(hero)) or ()
    spent = bool((memory.get("priv") or {}).get("hare_spent"))
    return [p for p in held if p not in (SNAKELET, MOLE) and not (p == HARE and spent) and p not in locked]


def resolve_thefts(close: Closing) -> None:
    """«в начале каждой ночи происходят переходы Привилегий от одного участника к другому ... В ходе
    ночного обмена приоритет отдается тем, у кого на этот момент совсем не было никаких Привилегий,
    то есть сначала похищения совершают именно эти участники и их "улов" уже нельзя отнять в этот
    раз.» A34: within each group the thieves go in a seeded random order; each takes one random
    privilege the victim still has that may be stolen; with none the attempt fails."""
    priv = close.memory.setdefault("priv", {})
    thefts = {int(k): int(v) for k, v in (priv.pop("thefts", None) or {}).items()}
    if not thefts:
        return
    held = close.memory.setdefault("privileges", {})
    first = [t for t in close.seating(thefts) if not held.get(str(t))]
    second = [t for t in close.seating(thefts) if held.get(str(t))]
    close.rng.shuffle(first)
    close.rng.shuffle(second)
    locked: dict[str, set[str]] = {}
    results: dict[str, str | None] = {}
    for group_first, group in ((True, first), (False, second)):
        for thief in group:
            victim = thefts[thief]
            options = stealable(close.start, close.memory, victim, locked.get(str(victim), ()))
            if not options:
                results[close.name(thief)] = None
                close.events.append(Event("theft_failed", seat_audience(thief), ref(close.start.seat(victim))))
                continue
            privilege = close.rng.choice(options)
            held[str(victim)] = [p for p in held[str(victim)] if p != privilege]
            if not held[str(victim)]:
                del held[str(victim)]
            held[str(thief)] = [p for p in PRIVILEGES if p in {*held.get(str(thief), ()), privilege}]
            if group_first:
                locked.setdefault(str(thief), set()).add(privilege)
            results[close.name(thief)] = privilege
            close.events.append(Event("privilege_stolen", seat_audience(thief),
                                      {**ref(close.start.seat(victim)), "privilege": privilege}))
            close.events.append(Event("privilege_lost", seat_audience(victim), {"privilege": privilege}))
    close.events.append(Event("thefts_gm", GM, {"thefts": {close.name(t): close.name(v) for t, v in thefts.items()},
                                                "results": results}))
    close.outcome["thefts"] = results


def night_inputs(close: Closing) -> tuple[dict[int, int], dict[int, int]]:
    """The night's valid stuns {bouncer: target} (at once or at the close) and exclusions."""
    current = close.current()
    stuns: dict[int, int] = {}
    pending = (priv_memory(current).get("stunned") or {})
    if pending.get("phase") == close.start.phase:
        for bouncer, target in (pending.get("by") or {}).items():
            stuns[int(bouncer)] = int(target)
    for bouncer, target in id_map(close.inputs.extra.get("stun")).items():
        if int(bouncer) not in stuns and check_stun(current, bouncer, target) is None:
            stuns[bouncer] = seat_id(target)
    excludes = {lawyer: seat_id(t) for lawyer, t in id_map(close.inputs.extra.get("exclude")).items()
                if check_exclude(current, lawyer, t) is None}
    return stuns, excludes


def apply_stuns(close: Closing, stuns: Mapping[int, int], choices: dict[int, tuple[str, int | None]]) -> list[int]:
    """Who is stunned: «В случае, если Вышибала выбирает плохиша (Рептилоида или Демона), а тот
    Вышибалу, то оглушение не происходит.» A stunned hero's night choice is void («лишить ночного
    действия»); a stunned Reptiloid's free partner's choice stands («считается, что Рептилоиды
    успешно сделали свой ночной выбор кого поработить и это выбор неоглушённого сообщника»)."""
    stunned: list[int] = []
    used = close.memory.setdefault("priv", {}).setdefault("stun_used", [])
    for bouncer, target in stuns.items():
        bad = close.start.seat(target).role in (REPTILOID, DEMON)
        if bad and (choices.get(target) or (None, None))[1] == bouncer:
            close.events.append(Event("stun_failed", GM, {"bouncer": close.name(bouncer), "target": close.name(target)}))
            continue
        stunned.append(target)
        if target not in used:
            used.append(target)
        choices.pop(target, None)
        close.events.append(Event("stunned_gm", GM, {"bouncer": close.name(bouncer), "target": close.name(target)}))
    close.outcome["stunned"] = [close.name(h) for h in close.seating(stunned)]
    return stunned


def apply_excludes(close: Closing, excludes: Mapping[int, int], stunned: Sequence[int]) -> None:
    """The Адвокат's exclusion for the next day (void when he is stunned)."""
    priv = close.memory.setdefault("priv", {})
    seats = [t for lawyer, t in excludes.items() if lawyer not in stunned]
    used = priv.setdefault("exclude_used", [])
    used.extend(t for t in seats if t not in used)
    priv["excluded"] = {"day": close.number + 1, "seats": close.seating(seats)}
    for lawyer, target in excludes.items():
        if lawyer not in stunned:
            close.events.append(Event("excluded_gm", GM, {"lawyer": close.name(lawyer), "target": close.name(target)}))
    if seats:
        # the list itself is public: nobody can vote for them (not who asked)
        close.events.append(Event("excluded", PUBLIC, {"heroes": [ref(close.start.seat(t))
                                                                  for t in close.seating(seats)]}))
    close.outcome["excluded"] = [close.name(t) for t in close.seating(seats)]


def snakelet_immune(close: Closing, victim: int) -> bool:
    """«По ночам Рептилоиды НЕ могут поработить Змеёныша!» (A26: the attack fails, the menu does not
    refuse him, so nobody learns who he is)."""
    priv = close.memory.get("priv") or {}
    return holds(close.current(), victim, SNAKELET) and priv.get("turned") is None


def night_would_decide(state: GameState) -> bool:
    """Insomnia («Если результатом ночи однозначно станет выигрыш одной из "плохих" команд ...
    объявляется бессонница») with the privileges in play (A2 reading kept: a guess that might stop
    the night, as a save or a stun of a hero nobody knows is bad, does not make it uncertain):
    - a bad team whose free heroes are all Крот takes no slave («Крот ... не знает своей Роли»: a
      Mole Reptiloid or Demon enslaves nobody, A32), so its night decides nothing, unless nobody
      takes a slave that night at all and a free Заяц outside the team is then taxed
      («общественным рабом автоматически становится обладатель этой Привилегии»);
    - a team with one hero to take the slave, whose role is public, may be stunned for certain by a
      Вышибала who has not stunned him yet («лишить ночного действия»; from slavery too): its night
      is not certain. (Two such heroes: «выбор его свободного напарника остаётся в силе».)"""
    teams = deciding_teams(state)
    if not teams or not (state.memory.get("privileges") or {}):
        return bool(teams)
    free = free_seats(state)
    takers = [s for s in free if s.faction in BAD_FACTIONS and not holds(state, s.id, MOLE)]
    priv = priv_memory(state)
    stunned_before = {int(h) for h in priv.get("stun_used") or ()}
    revealed = {int(h) for h in state.memory.get("revealed") or ()}
    for team in teams:
        mine = [s for s in takers if s.faction == team]
        if not mine:
            hares = [s for s in free if holds(state, s.id, HARE) and s.faction != team]
            if not takers and hares and not priv.get("hare_spent"):
                return True
            continue
        if len(mine) == 1 and mine[0].id in revealed and mine[0].id not in stunned_before and any(
                b != mine[0].id and (state.seat(b).faction != team or holds(state, b, MOLE))
                for b in holders(state, BOUNCER)):
            continue  # a team-mate who knows he is one does not stun his partner
        return True
    return False


def hare_tax(close: Closing, night_slaves: Sequence[int]) -> None:
    """«В случае, если утром после определения результатов ночи никто не попадает в рабство, то
    общественным рабом автоматически становится обладатель этой Привилегии с формулировкой "за
    неуплату налогов".»"""
    if night_slaves:
        return
    for hare in holders(close.current(), HARE):
        if close.status[hare] == ACTIVE:
            close.memory.setdefault("priv", {})["hare_spent"] = True
            close.enslave(hare, by=TAXES, owners=["public"])
            close.outcome["taxed"] = close.name(hare)
            return


def snakelet_turn(close: Closing) -> None:
    """«Если и как только все Рептилоиды оказываются в рабстве, Змеёныш превращается в Рептилоида.
    Все получают об этом публичное уведомление.» «В момент превращения для всех остающихся на
    свободе героев их ранее полученные Тайные Знания "не-Рептилоид" о других остающихся на свободе
    героях стираются» (and the slaves', A26). «Если на свободе остаётся всего два героя, то Змеёныш уже не превращается в
    Рептилоида и остаётся Масоном до конца.» A26: whatever his role, he becomes a Reptiloid; the
    public "not-Reptiloid" keys of the free heroes go too, so that the status stays true and does
    not name him (a revealed Змеёныш is named: his role was public)."""
    priv = close.memory.setdefault("priv", {})
    if priv.get("turned") is not None:
        return
    current = close.current()
    for snakelet in holders(current, SNAKELET):
        if close.status[snakelet] != ACTIVE:
            continue
        reptiloids = [s.id for s in current.seats if s.role == REPTILOID and s.id != snakelet]
        if any(close.status[r] == ACTIVE for r in reptiloids):
            continue
        free = close.free()
        if len(free) <= 2:
            continue
        priv["turned"], priv["old_role"] = snakelet, current.seat(snakelet).role
        close.roles[snakelet] = REPTILOID
        # the slaves' too (A26): their «не-Рептилоид» about him would now be false, and erasing only
        # that one would name him
        erased: dict[str, dict[str, str]] = {}
        for holder, items in list((close.memory.get("secret_keys") or {}).items()):
            gone = [i for i in items if i["key"] == NOT_REPTILOID and int(i["about"]) in free]
            close.memory["secret_keys"][holder] = [i for i in items if i not in gone]
            if gone:
                erased[close.name(int(holder))] = {close.name(int(i["about"])): i["key"] for i in gone}
        close.outcome["keys_erased"] = erased  # the scenario key: {holder: {about: key}} erased
        if priv.get("hack_open"):
            priv["hack_open"] = [i for i in priv["hack_open"]
                                 if not (i["key"] == NOT_REPTILOID and int(i["about"]) in free)]
        revealed = snakelet in (close.memory.get("revealed") or ())
        for holder in free:
            keys = close.memory.get("public_keys", {}).get(str(holder))
            if keys and NOT_REPTILOID in keys and holder != snakelet:
                close.memory["public_keys"][str(holder)] = [k for k in keys if k != NOT_REPTILOID]
        if revealed:
            close.memory["public_keys"][str(snakelet)] = list(keys_of(REPTILOID))
        else:
            close.memory.setdefault("public_keys", {})[str(snakelet)] = [
                k for k in close.memory.get("public_keys", {}).get(str(snakelet), ()) if k != NOT_REPTILOID]
        close.events.append(Event("snakelet_turned", PUBLIC,
                                  ref(close.start.seat(snakelet)) if revealed else {}))
        close.events.append(Event("snakelet_turned_gm", GM, {**ref(close.start.seat(snakelet)),
                                                              "old_role": priv["old_role"]}))
        # he joins the team («Рептилоиды знают друг друга со старта»): the Reptiloids' `team` event
        # names him beside them (a Mole's name stays hidden, as at the deal); the site's seat follows
        # the state, so their chat and their events are his from now on
        team = close.seating([r.id for r in current.seats if r.role == REPTILOID] + [snakelet])
        members = [ref(close.start.seat(s)) for s in team if not holds(current, s, MOLE)]
        close.events.append(Event("team", faction_audience(REPTILOIDS), {"members": members,
                                                                         "unnamed": len(team) - len(members)}))
        close.outcome["turned"] = close.name(snakelet)
        return


def genius_judge(close: Closing, judge: int) -> None:
    """«По утрам знает, кто стал Судьёй.»"""
    for genius in holders(close.current(), GENIUS):
        close.events.append(Event("genius_judge", seat_audience(genius), {**ref(close.start.seat(judge)),
                                                                          "day": close.number + 1}))


# -- part 2's records, adjusted (the integrator calls these in issue 19's flow) -------------------


def _owner_seats(state: GameState, debit: str) -> Mapping[str, Any]:
    slave = seat_of(debit)
    return ((state.memory.get("slaves") or {}).get(str(slave)) or {}) if slave is not None else {}


def adjust_transfers(state: GameState, transfers: Iterable[Transfer]) -> list[Transfer]:
    """A close's transfers as the privileges change them (each stays a whole-coin movement between
    two accounts, so nothing is created or lost):

    - Заяц: «не платит никакие Взносы (в том числе вступительный, за Этапы, сборы за Кому), а также
      не платит Бремя (ни общественное, ни Рептилоидам, ни Демону). Визуально при этом остальным
      это не видно, не работают только сами денежные транзакции.» — his `HARE_FREE` debits vanish;
    - Говорун: «Любые платные сообщения (кроме анонимных) НЕ отбирают в Банк монеты у обладателя» —
      his `message_fee` debits vanish (an `anonymous_fee` stays);
    - Бинго: «Будучи рабом платит удвоенное Бремя Рептилоидам и Демону» — his burden to a
      Reptiloid or to the Demon (his escrow) is doubled, the public one to the bank is not.
    (The Змеёныш's burden, «начинает собирать только Рептилоид-Змеёныш», is who is charged for:
    `burden_collectors`, not a change of a movement.)
    """
    reptiloids = {s.id for s in state.seats if s.role == REPTILOID}
    demons = {s.id for s in state.seats if s.role == DEMON}
    out: list[Transfer] = []
    for t in transfers:
        payer = seat_of(t.debit) if t.debit.startswith("hero:") else None
        if payer is not None and holds(state, payer, HARE) and t.reason in HARE_FREE:
            continue
        if payer is not None and holds(state, payer, TALKER) and t.reason == MESSAGE_FEE:
            continue
        amount = t.amount
        if t.reason == BURDEN and payer is not None:
            owner = seat_of(t.credit)
            to_bad = (t.credit.startswith("hero:") and owner in reptiloids | demons) or \
                (t.credit.startswith("escrow:") and owner in demons | reptiloids)  # a Mole's escrow too
            if holds(state, payer, BINGO) and to_bad:
                amount *= 2
        out.append(Transfer(t.debit, t.credit, amount, t.reason, t.detail))
    return out


def adjust_ratings(state: GameState, changes: Iterable[Any]) -> list[Any]:
    """«Гений удваивает любые (положительные и отрицательные) изменения Рейтинга в ходе сессии»:
    each change of a Гений's own rating, doubled (A35: a copy his ally gets is the ally's, as is)."""
    out = []
    for change in changes:
        if holds(state, change.seat, GENIUS):
            change = type(change)(change.seat, change.delta * 2, change.reason, change.detail)
        out.append(change)
    return out


def bank_winners(state: GameState, winners: Sequence[int]) -> list[int]:
    """«Если в финале Рептилоид-Змеёныш выживает и побеждает, то он забирает весь Банк себе и не
    делится с другими Рептилоидами, которые в этом случае считаются проигравшими.»"""
    turned = priv_memory(state).get("turned")
    if turned is not None and state.winner == REPTILOIDS and state.seat(int(turned)).status == ACTIVE:
        return [int(turned)]
    return list(winners)


def adjust_settlement(state: GameState, settlement: Iterable[Transfer], history: Iterable[Transfer] = (),
                      net: Mapping[int, int] | None = None) -> list[Transfer]:
    """The end's transfers as the privileges change them; `history` is every transfer of the show
    before the settlement, or `net` {seat: his net result so far} instead (part 2's book). The bank
    stays exactly emptied:

    - Змеёныш: a won show's bank shares (`bank_share`) all go to him (`bank_winners`);
    - Бинго: «Если обладатель входит в число Победителей, разделяющих в финале Шоу Банк, то его доля
      удваивается. Если же нет, то удваивается его общий результат (до Судного Дня), в том числе и
      отрицательный (опасность!).» A30: a winner's share weighs double in the bank's split (the
      others' shares shrink); a loser's net result over the show (history + settlement) is paid
      once more against the bank before it is split: a gain from it (at most what it holds), a loss
      into it (the winners share it). With no bank split there is nothing to settle against and
      the result is not doubled.
    """
    settlement = list(settlement)
    shares = {seat_of(t.credit): t.amount for t in settlement if t.reason == BANK_SHARE and t.debit == BANK
              and t.credit.startswith("hero:")}
    rest = [t for t in settlement if not (t.reason == BANK_SHARE and t.debit == BANK and t.credit.startswith("hero:"))]
    if not shares:
        return settlement
    pool = sum(shares.values())
    weights: dict[int, float] = dict(shares)
    winners = bank_winners(state, list(shares))
    if winners != list(shares):
        weights = {w: 1 for w in winners}
    extra: list[Transfer] = []
    for bingo in holders(state, BINGO):
        if bingo in weights:
            weights[bingo] = weights[bingo] * 2
            continue
        account = hero(bingo)
        result = sum((t.amount if t.credit == account else -t.amount if t.debit == account else 0)
                     for t in rest)
        if net is not None:
            result += int(net.get(bingo, 0))
        else:
            result += sum((t.amount if t.credit == account else -t.amount if t.debit == account else 0)
                          for t in history)
        if result > 0:
            amount = min(result, pool)
            if amount:
                extra.append(Transfer(BANK, account, amount, BINGO_REASON))
                pool -= amount
        elif result < 0:
            extra.append(Transfer(account, BANK, -result, BINGO_REASON))
            pool += -result
    return [*rest, *extra, *(Transfer(BANK, hero(s), a, BANK_SHARE) for s, a in split(pool, weights).items())]

