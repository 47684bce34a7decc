"""A sleeping table (issue 30; docs/rulesets/show.md, "A sleeping table"): when every free hero is in
coma, a stage that asks anybody's input runs its timer instead of ending at once, so a show whose
heroes never act after the greetings is not played through hundreds of stages in minutes. The
early end of «их никто не ждёт» still holds while anybody free is awake, and a stage that asks
nothing of anybody still ends at once. Pure engine: `SHOW.ends_early` is what the site reads both
for the stage's timer (games/rulesets/show/services.py, `stage_deadline`: due at once when it is
true of the empty inputs) and for closing a stage after an input."""

from __future__ import annotations

from dataclasses import replace

from games.engine.orders import PhaseInputs
from games.rulesets.show.engine import SHOW
from games.rulesets.show.engine.facts import in_coma
from games.rulesets.show.engine.stages import parse_phase
from tests.engine.show_helpers import (
    NOW,
    close,
    day1,
    everyone_votes,
    free_names,
    greet,
    inputs,
    new,
    night_orders,
    sid,
)

NOTHING = PhaseInputs()


def _asleep(state):
    """The state with every free hero in coma (missed one stage each), for a test's setup."""
    return replace(state, memory={**state.memory, "coma": {str(s.id): 1 for s in state.active()}})


def _nobody_acts_after_the_greetings(roster_size: int = 10, stages: int = 40, **options):
    """The load test's table (issue 30): the greetings close at their timer with no greeting, then
    every stage closes with no input at all. Yields each stage's state as it opens."""
    from tests.engine.show_helpers import ROSTER  # the full roster, cut to the size asked

    state = new(ROSTER[:roster_size], **options) if roster_size != 10 else new(**options)
    state = SHOW.resolve(state, NOTHING, seed=0, now=NOW).state
    for n in range(stages):
        if state.over:
            return
        yield state
        state = SHOW.resolve(state, NOTHING, seed=n, now=NOW).state


def test_a_table_asleep_after_the_greetings_runs_every_stage_s_timer():
    """«На каждый этап отводится определённое время ... По истечении этого времени все, кто не успел
    произвести требуемое действие ..., впадают в кому» and «Любой этап заканчивается либо когда все
    активные герои совершают необходимое на этом этапе действие, либо когда Таймер обнуляется»: with
    every free hero in coma there is no active hero to act, so the stage ends by its timer — not at
    once, which played the load test's shows through 140-170 stages in three minutes (issue 30)."""
    seen = 0
    for state in _nobody_acts_after_the_greetings():
        assert all(in_coma(state, s.id) for s in state.active()), state.phase
        assert SHOW.waiting_for(state, NOTHING) == ()  # «их никто не ждёт»: nobody is awaited ...
        assert SHOW.sleeping_table(state), state.phase
        assert not SHOW.ends_early(state, NOTHING), state.phase  # ... yet the stage keeps its timer
        seen += 1
    assert seen >= 5  # day, night, day, ... at least: the table is played at the timers' pace


def test_the_close_of_a_sleeping_stage_is_not_an_early_one():
    """issue 28, item 4's `early` (whether the stage could end before its timer) agrees: a stage of
    a sleeping table could not."""
    state = next(_nobody_acts_after_the_greetings())
    assert state.phase == "day 1"
    result = SHOW.resolve(state, NOTHING, seed=0, now=NOW)
    assert result.outcome["early"] is False


def test_a_sleeper_who_wakes_and_acts_ends_the_stage():
    """«Как только герой проявляет любую активность (нажимает любую кнопку или отправляет что угодно в
    чат), он автоматически выходит из комы»: woken, he is the table's one active hero; the stage
    waits for him, and his vote ends it early."""
    state = next(_nobody_acts_after_the_greetings())
    anya = sid(state, "Аня")
    woken, _events = SHOW.wake(state, anya)
    assert not SHOW.sleeping_table(woken)
    assert SHOW.waiting_for(woken, NOTHING) == (anya,)
    assert not SHOW.ends_early(woken, NOTHING)
    assert SHOW.ends_early(woken, inputs(woken, votes={"Аня": "Кира"}))


def test_awake_heroes_do_not_wait_for_the_sleepers():
    """«Все герои, находящиеся в коме, перестают тормозить общий ход Шоу, то есть их никто не ждёт»:
    one free hero awake is enough for the early end as before; the sleepers hold nothing."""
    state = _asleep(day1())
    state, _events = SHOW.wake(state, sid(state, "Аня"))
    assert SHOW.ends_early(state, inputs(state, votes={"Аня": "Кира"}))
    # A defence asking only a sleeping defendant ends at once while a free hero is awake: nobody
    # waits for the sleeper (the awake owe nothing in another hero's defence).
    state = day1()
    votes = everyone_votes(state, "Кира")
    del votes["Кира"]  # Кира misses the vote: in coma on the bench
    state = close(state, votes=votes).state
    assert state.phase == "defence 1" and in_coma(state, sid(state, "Кира"))
    assert SHOW.owes(state) == [sid(state, "Кира")] and not SHOW.sleeping_table(state)
    assert SHOW.ends_early(state, NOTHING)


def test_a_stage_that_asks_nobody_ends_at_once_even_when_the_table_sleeps():
    """«то есть если ранее герой уже выступал с Защитной Речью, то все не будут ждать по Таймеру его
    новой Речи»: a defence whose defendants all spoke before asks nothing of anybody, asleep or
    awake, and still ends at once (issue 28, item 15)."""
    state = day1()
    state = close(state, votes=everyone_votes(state, "Кира")).state
    state = close(state, posted={"Кира": ["defence"]}).state
    state = close(state, votes={n: "spare" for n in free_names(state) if n != "Кира"}).state
    state = close(state, orders=night_orders(state)).state
    state = close(state, votes=everyone_votes(state, "Кира")).state
    assert state.phase == "defence 2"
    asleep = _asleep(state)
    assert SHOW.owes(asleep) == [] and not SHOW.sleeping_table(asleep)
    assert SHOW.ends_early(asleep, NOTHING)


def test_every_kind_of_stage_that_asks_a_sleeper_keeps_its_timer():
    """The class of the defect, not one stage: greetings, day, defence, re-vote and night (and the
    judge's decision, the heroes' seats forced), each with every free hero in coma and an input owed
    by one of them, wait for their timer."""
    state = new()
    states = [state]
    state = greet(state)
    states.append(state)  # day 1
    state = close(state, votes=everyone_votes(state, "Кира")).state
    states.append(state)  # defence 1: Кира owes her speech
    state = close(state).state
    states.append(state)  # revote 1 (no judge on day 1)
    states.append(replace(state, phase="judge 1", memory={**state.memory, "judge": sid(state, "Аня"),
                                                                         "judge_day": 1}))
    state = close(state, votes={n: "spare" for n in free_names(state) if n != "Кира"}).state
    states.append(state)  # night 1
    kinds = set()
    for each in states:
        asleep = _asleep(each)
        assert SHOW.owes(asleep), asleep.phase
        kinds.add(parse_phase(asleep.phase)[0])
        assert not SHOW.ends_early(asleep, NOTHING), asleep.phase
    assert kinds == {"greetings", "day", "defence", "revote", "judge", "night"}, kinds
