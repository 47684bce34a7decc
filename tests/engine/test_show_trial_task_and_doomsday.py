"""Issue 28, items 6 and 7: the slaves' daily task and Судный День, one rule per test with the seed's
sentence in the docstring (docs/rulesets/show.md, "The slaves' daily task and Судный День")."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.engine.orders import PhaseInputs
from games.rulesets.show.engine import SHOW
from games.rulesets.show.engine.coins import Transfer
from games.rulesets.show.engine.stages import OPTION_DEFAULTS, options_with_defaults
from games.rulesets.show.engine.trial_tasks import DEFAULT_TRIAL_TASKS, TASK_MAX_LENGTH
from tests.engine.show_helpers import NOW, enslaved, night_orders, sid
from tests.engine.test_show_economy import greet, names, new, quiet, run, to_night1
from tests.engine.test_show_settlement import MASONS_FREE, NAMES, finale


def morning(**options):
    """Night 1 closed with two public slaves (Зина, and Гоша set up): the trial of day 2 opens."""
    state = enslaved(to_night1(**quiet(**options)), "Гоша")
    return run(state, orders=night_orders(state))


# -- item 6: the task ----------------------------------------------------------------------------


def test_each_morning_the_slaves_get_the_next_task_of_the_gms_list():
    """«Каждое утро раб получает общее для всех рабов задание на этот день, ответом на которое может
    служить только одно фото, видео или стикер в общий чат.» The morning that opens a trial gives it
    the first of the tasks to come (the GM's list, the option `trial_tasks`), and the thread hears
    it: the answers are posted in the common thread, anonymous, and judged against the task."""
    result = morning(trial_tasks=["Покажите рассвет.", "Покажите закат."])
    trial = result.state.memory["trial"]
    assert trial["task"] == "Покажите рассвет." and trial["day"] == 2
    assert result.outcome["trial_task"] == {"day": 2, "task": "Покажите рассвет."}
    told = [e for e in result.events if e.kind == "trial_task"]
    assert [(e.audience, e.data) for e in told] == [("public", {"day": 2, "task": "Покажите рассвет."})]
    assert SHOW.tasks_to_come(result.state) == ["Покажите закат."]
    assert result.state.memory["trial_tasks"] == [{"day": 2, "task": "Покажите рассвет."}]


def test_the_default_list_gives_a_task_answerable_by_one_photo_video_or_sticker():
    """«ответом на которое может служить только одно фото, видео или стикер»: without the GM's list,
    the default one (fifteen tasks in the show's words) gives the morning its task."""
    assert OPTION_DEFAULTS["trial_tasks"] == list(DEFAULT_TRIAL_TASKS) and len(DEFAULT_TRIAL_TASKS) >= 15
    assert all(0 < len(t) <= TASK_MAX_LENGTH for t in DEFAULT_TRIAL_TASKS)
    assert morning().state.memory["trial"]["task"] == DEFAULT_TRIAL_TASKS[0]


def test_a_morning_without_slaves_opens_no_trial_and_uses_no_task():
    """«Каждое утро раб получает ... задание»: a morning with no slave gives no trial, and the task
    waits for a morning that has slaves."""
    state = greet(new(**quiet(trial_tasks=["Первое.", "Второе."]))).state
    state = run(state).state  # day 1 without a ballot: no bench
    while not state.phase.startswith("night"):
        state = run(state).state
    result = run(state, orders=night_orders(state))  # nobody is taken
    assert result.state.memory["trial"] is None and result.outcome["trial_task"] is None
    assert "trial_task" not in [e.kind for e in result.events]
    assert SHOW.tasks_to_come(result.state) == ["Первое.", "Второе."]
    assert SHOW.running_task(result.state) is None


def test_with_the_list_used_up_the_trial_opens_without_a_task_for_the_gm_to_give():
    """The list does not start again by itself: a GM who emptied it gives each task himself (until the
    trial's first answer); the thread is told the task will come from the GM."""
    result = morning(trial_tasks=[])
    assert result.state.memory["trial"]["task"] is None
    assert [e.data for e in result.events if e.kind == "trial_task"] == [{"day": 2, "task": None}]
    state, events = SHOW.set_trial_task(result.state, "  Покажите  свою   тень. ")
    assert state.memory["trial"]["task"] == "Покажите свою тень."
    assert [(e.kind, e.audience, e.data) for e in events] == [
        ("trial_task", "public", {"day": 2, "task": "Покажите свою тень.", "changed": True})]
    assert state.memory["trial_tasks"] == [{"day": 2, "task": "Покажите свою тень."}]


def test_the_gm_changes_the_task_until_the_first_answer_and_not_after():
    """«Далее каждый должен оценить креативность и адекватность Ответа поставленному заданию»: an
    answer is judged against the task its slave was given, so the GM may change the running trial's
    task until its first answer (given in the running stage or kept by a close), and not after."""
    state = morning().state
    assert SHOW.check_trial_task(state, "Новое задание.") is None
    answer_now = PhaseInputs(extra={"trial_answers": [sid(state, "Зина")]})
    assert SHOW.check_trial_task(state, "Новое задание.", answer_now) == "trial_answered"
    assert SHOW.set_trial_task(state, "Новое задание.", answer_now) == (state, ())
    kept = run(state, votes={}, extra={"trial_answers": ["Гоша"]}).state
    assert kept.memory["trial"]["answers"] == [sid(state, "Гоша")]
    assert SHOW.check_trial_task(kept, "Новое задание.") == "trial_answered"
    # a free hero's id among the answers is no answer
    assert SHOW.check_trial_task(state, "Новое.", PhaseInputs(extra={"trial_answers": [sid(state, "Аня")]})) is None


@pytest.mark.parametrize("text,code", [("", "task_empty"), ("   ", "task_empty"), (None, "task_empty"),
                                       ("я" * (TASK_MAX_LENGTH + 1), "task_too_long")])
def test_a_bad_task_is_refused_and_changes_nothing(text, code):
    """The task is a text the slaves can answer: an empty or overlong one is refused with its reason."""
    state = morning().state
    assert SHOW.check_trial_task(state, text) == code
    assert SHOW.set_trial_task(state, text) == (state, ())


def test_no_task_to_change_without_a_running_trial_or_after_the_end():
    state = to_night1(**quiet())
    assert SHOW.check_trial_task(state, "Задание.") == "no_trial"
    over = finale(free=MASONS_FREE).state
    assert SHOW.check_trial_task(over, "Задание.") == "game_over"
    assert SHOW.check_trial_tasks(over, ["Задание."]) == "game_over"


def test_the_gm_edits_the_tasks_to_come_and_the_next_morning_takes_his_first():
    """When the morning opens a trial and the GM has not set its text, the next task of his list is
    used: the GM sets the next morning's task by putting it first among the tasks to come (told to
    the GMs only until that morning: `trial_queue_gm`)."""
    state = enslaved(to_night1(**quiet()), "Гоша")
    assert SHOW.check_trial_tasks(state, ["", "Сфотографируйте чайник.", "Второе."]) is None
    state, events = SHOW.set_trial_tasks(state, ["", "Сфотографируйте чайник.", "Второе."])
    assert [(e.kind, e.audience) for e in events] == [("trial_queue_gm", "gm")]
    assert SHOW.tasks_to_come(state) == ["Сфотографируйте чайник.", "Второе."]
    result = run(state, orders=night_orders(state))
    assert result.outcome["trial_task"] == {"day": 2, "task": "Сфотографируйте чайник."}
    assert SHOW.tasks_to_come(result.state) == ["Второе."]
    for bad in (["я" * (TASK_MAX_LENGTH + 1)], "одна строка", ["x"] * 101, [3]):
        assert SHOW.check_trial_tasks(state, bad) == "tasks_bad"
        assert SHOW.set_trial_tasks(state, bad) == (state, ())


def test_bad_task_lists_are_refused_at_the_start():
    for bad in ({"trial_tasks": "одно"}, {"trial_tasks": ["я" * (TASK_MAX_LENGTH + 1)]},
                {"trial_tasks": [1]}, {"doomsday_hours": -1}, {"doomsday_hours": "сутки"},
                {"doomsday_hours": 10_000}):
        with pytest.raises(ValueError):
            options_with_defaults(bad)


def test_each_trials_task_is_kept_for_the_archive():
    """The archive keeps each day's task (`memory["trial_tasks"]`, the results page's list)."""
    first = morning(trial_tasks=["Первое.", "Второе."])
    state = first.state
    while not state.phase.startswith("night"):
        state = run(state).state
    second = run(state, orders=night_orders(state))
    assert second.state.memory["trial_tasks"] == [{"day": 2, "task": "Первое."}, {"day": 3, "task": "Второе."}]


# -- item 7: Судный День ---------------------------------------------------------------------------


def test_the_close_that_ends_the_show_settles_it_and_then_announces_doomsday():
    """«Дневные и ночные этапы сменяют друг друга до тех пор, пока не наступает победа одной из команд.
    Далее объявляются подробные результаты, то есть набранные Рейтинги, делится Банк, распределяется
    Куш Победителей, подводятся итоги сотрудничества Альянсов, а затем наступает заключительный этап:
    Судный День.» The results come first, Судный День last, with its hours (option `doomsday_hours`,
    24 by default); the show is over when it begins (every secret open), and its length is the
    engine's to say (`doomsday_length`)."""
    result = finale(free=MASONS_FREE, bank=300, ratings={"Аня": 1})
    kinds = [e.kind for e in result.events]
    assert kinds.index("show_results") < kinds.index("doomsday") and kinds[-1] == "doomsday"
    assert [(e.audience, e.data) for e in result.events if e.kind == "doomsday"] == [("public", {"hours": 24})]
    assert result.outcome["doomsday"] == 24 and OPTION_DEFAULTS["doomsday_hours"] == 24
    assert result.state.over and SHOW.doomsday_length(result.state) == timedelta(hours=24)
    assert SHOW.doomsday == "doomsday"
    with pytest.raises(ValueError):  # nothing is settled after it
        SHOW.resolve(result.state, PhaseInputs(), seed=0, now=NOW)


def test_doomsday_is_the_gms_option_and_zero_hours_is_none():
    state = enslaved(to_night1(**quiet(doomsday_hours=0)), "Гоша")
    assert SHOW.doomsday_length(state) is None  # the show runs
    assert run(state, orders=night_orders(state)).outcome["doomsday"] is None  # no end, no Судный День
    assert options_with_defaults({"doomsday_hours": 72})["doomsday_hours"] == 72


def test_a_show_without_doomsday_ends_with_its_results():
    from tests.engine import test_show_settlement as settlement

    quiet_none = {**settlement.QUIET, "doomsday_hours": 0}
    state, _events = SHOW.new_game([(i, n, r) for i, (n, r) in enumerate(settlement.ROSTER, 1)], options=quiet_none)
    state = run(state, posted={n: ["greeting"] for n in NAMES}).state
    state = enslaved(state, *[n for n in NAMES if n not in MASONS_FREE])
    result = run(state)
    assert result.state.over and result.outcome["doomsday"] is None
    assert "doomsday" not in [e.kind for e in result.events] and SHOW.doomsday_length(result.state) is None


def test_the_bingos_result_before_doomsday_is_the_one_the_last_close_settles():
    """Бинго: «Если же нет, то удваивается его общий результат (до Судного Дня), в том числе и
    отрицательный (опасность!)». Судный День comes after the results: the losing Бинго's doubled
    result is paid in the close that ends the show, before the `doomsday` event, and nothing moves
    after it (the engine closes no stage of a show that is over)."""
    result = finale(free=MASONS_FREE, bank=300, ratings={"Аня": 1, "Боря": 1, "Жора": 1},
                    net={"Вера": -100}, privileges={"Вера": ["bingo"]})
    lost = [Transfer.from_dict(t) for t in result.outcome["transfers"] if t["reason"] == "bingo"]
    assert [(t.debit, t.amount) for t in lost] == [(f"hero:{NAMES.index('Вера') + 1}", 100)]
    kinds = [e.kind for e in result.events]
    assert kinds.index("show_results") < kinds.index("doomsday")
    assert names(result.state) == NAMES
