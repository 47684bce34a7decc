"""Issue 28, items 6 and 7 on the site (docs/rulesets/show.md, "The slaves' daily task and Судный
День"): the GM's task of the slaves' trial (his dashboard's inputs, the GM's alone), the task on the
slaves' panel, the morning post, the answers, the status and results pages; Судный День as the show's
epilogue after the end (its stage in the thread and on the pages, the heroes' last words, its close
by the deadline or the GM, which locks the game thread), and the pages that must still work."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
import yaml
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from coins.models import Entry
from games.models import Game, GameEvent, GMAction, Post
from games.rulesets.show.coins.services import show_trial_answer
from games.rulesets.show.engine import SHOW
from games.rulesets.show.scenario_inputs import TINY_PNG
from games.selectors.state import game_state
from games.services import ActionRefused
from games.services.moderation import resolution_rollback
from games.services.posting import post_submit
from games.services.resolution import phase_close, phases_close_due
from tests.conftest import client_for, make_user
from tests.games.show_kept import kept_show

pytestmark = pytest.mark.django_db

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios" / "show"
FILE = "trial-task-and-doomsday.yaml"
FIRST = "Первое задание из списка: вид из окна."
GMS_OWN = "Задание ведущего: ваша тень на стене."
DAY2 = 6  # the file's stages up to night 1: day 2 and its trial are open
BEFORE_DOOMSDAY = -1  # every stage but Судный День: the show is over and Судный День runs


def _kept(tmp_path, stages: int, **options):
    """The file played through the site up to `stages` (its phase list sliced) and kept."""
    # the file's expectations of a later stage, or of its own options, do not hold for a cut or changed file
    game, users, _seats = kept_show(tmp_path, FILE, stages, options=options,
                                    phase_expectations=not (stages == DAY2 or options))
    return game, users


def _page(user, url) -> str:
    response = client_for(user).get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def _gm_post(game, user, **data):
    return client_for(user).post(reverse("games:gm_action", args=[game.pk]), data)


def _answer(game, user):
    upload = SimpleUploadedFile("answer.png", TINY_PNG, content_type="image/png")
    return show_trial_answer(game=game, user=user, upload=upload)


def _thread(user, game) -> str:
    return _page(user, reverse("games:thread", args=[game.game_thread_id]) + "?page=last")


# -- item 6: the task ----------------------------------------------------------------------------


def test_the_slaves_see_the_days_task_and_a_free_hero_sees_no_empty_trial(tmp_path):
    """«Каждое утро раб получает общее для всех рабов задание на этот день»: the slaves of the trial
    read it on their panel; a free hero, with no answer to grant yet, sees no trial heading; the task
    is public (the morning post of the thread, the status page), since the answers are posted in the
    common thread for everyone to grant against it."""
    game, users = _kept(tmp_path, DAY2)
    assert SHOW.running_task(game_state(game)) == {"day": 2, "task": FIRST}
    slave = _page(users["Вера"], game.get_absolute_url())
    assert "data-trial-task" in slave and FIRST in slave
    free = _page(users["Аня"], game.get_absolute_url())
    assert 'class="show-trial"' not in free and "Рабское Испытание дня 2" not in free
    for viewer in (None, users["Аня"], make_user("Зритель")):
        assert FIRST in _thread(viewer, game)  # the morning post
        assert FIRST in _page(viewer, reverse("games:show_status", args=[game.pk]))


def test_the_gm_changes_the_task_until_the_first_answer_and_is_refused_after(tmp_path):
    """«Далее каждый должен оценить креативность и адекватность Ответа поставленному заданию»: the GM
    changes the running trial's task on his dashboard (the thread is told) until the first answer;
    after it his change is refused with the reason, worded, and nothing changes. The answer's post
    names the task it answers, and a free hero then sees the trial with its task to grant."""
    game, users = _kept(tmp_path, DAY2)
    dashboard = _page(game.gm, reverse("games:gm_dashboard", args=[game.pk]))
    assert 'value="trial_task"' in dashboard and FIRST in dashboard and 'value="trial_tasks"' in dashboard
    response = _gm_post(game, game.gm, action="trial_task", task=GMS_OWN)
    assert response.status_code == 302
    game.refresh_from_db()
    assert SHOW.running_task(game_state(game)) == {"day": 2, "task": GMS_OWN}
    assert f"Ведущий изменил задание Рабского Испытания дня 2: «{GMS_OWN}»" in _thread(None, game)
    assert GMAction.objects.filter(game=game, action="trial_task").count() == 1
    gm_log = _page(game.gm, reverse("games:gm_dashboard", args=[game.pk]))
    assert "Изменено задание Рабского Испытания" in gm_log
    assert _answer(game, users["Вера"]).accepted
    answer = Post.objects.filter(thread=game.game_thread).order_by("-number").first()
    assert GMS_OWN in answer.body and "Вера" not in answer.body
    free = _page(users["Аня"], game.get_absolute_url())
    assert 'class="show-trial"' in free and GMS_OWN in free
    posts = Post.objects.filter(thread=game.game_thread).count()
    response = client_for(game.gm).post(reverse("games:gm_action", args=[game.pk]),
                                        {"action": "trial_task", "task": "Поздно."}, follow=True)
    assert "на это Испытание уже ответил раб" in response.content.decode()
    game.refresh_from_db()
    assert SHOW.running_task(game_state(game))["task"] == GMS_OWN
    assert Post.objects.filter(thread=game.game_thread).count() == posts
    dashboard = _page(game.gm, reverse("games:gm_dashboard", args=[game.pk]))
    assert 'value="trial_task"' not in dashboard and "Раб уже ответил" in dashboard


@pytest.mark.parametrize("who", ["anonymous", "player", "slave", "spectator"])
def test_the_gms_task_forms_are_the_gms_alone(tmp_path, who):
    """The GM form is the GM's: an anonymous visitor is sent to log in, a hero (free or a slave) and a
    spectator get a 404; nothing changes and nothing is posted."""
    game, users = _kept(tmp_path, DAY2)
    viewer = {"anonymous": None, "player": users["Аня"], "slave": users["Вера"],
              "spectator": make_user("Зритель")}[who]
    before = (game_state(game).memory, Post.objects.filter(thread=game.game_thread).count())
    for data in ({"action": "trial_task", "task": "Чужое."}, {"action": "trial_tasks", "tasks": "Чужое."}):
        response = _gm_post(game, viewer, **data)
        if who == "anonymous":
            assert response.status_code == 302 and "/accounts/login/" in response["Location"]
        else:
            assert response.status_code == 404
    game.refresh_from_db()
    assert (game_state(game).memory, Post.objects.filter(thread=game.game_thread).count()) == before
    assert 'value="trial_task"' not in _page(viewer, game.get_absolute_url())


def test_the_gm_edits_the_tasks_to_come_for_his_eyes_only_and_a_bad_list_is_refused(tmp_path):
    """The tasks to come (the next morning's first) are the GM's until a morning gives one: saved on
    his dashboard without a word in the thread; a line over 500 characters is refused, nothing
    changed."""
    game, users = _kept(tmp_path, DAY2)
    assert SHOW.tasks_to_come(game_state(game)) == ["Второе задание из списка: ваша обувь."]
    posts = Post.objects.filter(thread=game.game_thread).count()
    _gm_post(game, game.gm, action="trial_tasks", tasks="Утреннее задание.\r\n\r\nЗапасное задание.")
    game.refresh_from_db()
    assert SHOW.tasks_to_come(game_state(game)) == ["Утреннее задание.", "Запасное задание."]
    assert Post.objects.filter(thread=game.game_thread).count() == posts
    assert GameEvent.objects.filter(game=game, kind="trial_queue_gm", audience="gm").exists()
    assert "Утреннее задание." not in _thread(users["Вера"], game)
    response = client_for(game.gm).post(reverse("games:gm_action", args=[game.pk]),
                                        {"action": "trial_tasks", "tasks": "я" * 501}, follow=True)
    assert "каждое задание — одна строка не длиннее 500 знаков" in response.content.decode()
    game.refresh_from_db()
    assert SHOW.tasks_to_come(game_state(game)) == ["Утреннее задание.", "Запасное задание."]


# -- item 7: Судный День ---------------------------------------------------------------------------


def test_the_end_opens_doomsday_the_pages_name_it_and_every_hero_says_his_last_words(tmp_path):
    """«а затем наступает заключительный этап: Судный День»: the close that ends the show publishes the
    results and the roles, and opens Судный День for the GM's hours: the thread, the game page and the
    status page name it with its timer; the show is over (the results page, the commitment and every
    secret open to all); a slave and a free hero post their last words in the game thread with no fee."""
    game, users = _kept(tmp_path, BEFORE_DOOMSDAY)
    assert game.status == Game.Status.FINISHED and game.winner == "masons"
    phase = game.current_phase
    assert (phase.kind, phase.number, phase.closed_at) == ("doomsday", 0, None)
    last = game.phases.exclude(pk=phase.pk).order_by("-closed_at").first()
    assert phase.deadline_at == last.closed_at + timedelta(hours=12)
    spectator = make_user("Зритель")
    for viewer in (None, spectator, users["Вера"], game.gm):
        assert "Судный День" in _thread(viewer, game)
        assert "data-show-doomsday" in _page(viewer, game.get_absolute_url())
        assert "Этап: Судный День" in _page(viewer, reverse("games:show_status", args=[game.pk]))
        assert "showratings-" in _page(viewer, reverse("games:show_results", args=[game.pk]))
        assert "✔" in _page(viewer, reverse("games:commitment", args=[game.pk]))
        _page(viewer, reverse("games:show_fullstatus", args=[game.pk, users["Кира"].seats.get(game=game).pk]))
        for name in ("archive", "replay", "export", "votes"):  # the archive reads a show in Судный День
            assert client_for(viewer).get(reverse(f"games:{name}", args=[game.pk])).status_code == 200, name
    thread = _thread(None, game)
    assert thread.index("Затем наступает заключительный этап, Судный День (12 ч)") < thread.index("Игра окончена")
    fees = Entry.objects.filter(game=game, reason="message_fee").count()
    for name in ("Вера", "Аня", "Кира"):
        for n in range(12):  # past any free limit: no fee after the end
            post_submit(thread=game.game_thread, author=users[name], body=f"Последнее слово {n}.")
    assert Entry.objects.filter(game=game, reason="message_fee").count() == fees
    dashboard = _page(game.gm, reverse("games:gm_dashboard", args=[game.pk]))
    assert 'value="close"' in dashboard and "Decisions and overrides" not in dashboard \
        and "Решения и замены" not in dashboard


def test_doomsday_ends_at_its_deadline_and_locks_the_game_thread(tmp_path):
    """Deadlines close the stage by themselves (the sweep, as every phase): the thread is told and
    locked; the discussion stays open; the archive still reads everything."""
    game, users = _kept(tmp_path, BEFORE_DOOMSDAY)
    phase = game.current_phase
    assert phases_close_due(now=phase.deadline_at - timedelta(minutes=1)) == 0
    assert phases_close_due(now=phase.deadline_at) == 1
    game.refresh_from_db()
    phase.refresh_from_db()
    assert phase.closed_at is not None and game.game_thread.is_locked and not game.discussion_thread.is_locked
    assert "Судный День окончен.[/b] Тема игры закрыта" in Post.objects.filter(
        thread=game.game_thread).order_by("-number").first().body
    with pytest.raises(ActionRefused):
        post_submit(thread=game.game_thread, author=users["Вера"], body="Поздно.")
    assert "Судный День окончен: Шоу в архиве." in _page(None, game.get_absolute_url())
    assert "showratings-" in _page(None, reverse("games:show_results", args=[game.pk]))


def test_the_gm_ends_doomsday_early_from_his_dashboard(tmp_path):
    game, users = _kept(tmp_path, BEFORE_DOOMSDAY)
    response = _gm_post(game, game.gm, action="close", confirm="yes")
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.current_phase.closed_at is not None and game.game_thread.is_locked
    player = _gm_post(game, users["Аня"], action="close", confirm="yes")
    assert player.status_code == 404


def test_a_show_without_doomsday_ends_as_before(tmp_path):
    """Option 0: none; the game thread stays open after the end, as for every game."""
    game, _users = _kept(tmp_path, BEFORE_DOOMSDAY, doomsday_hours=0)
    assert game.status == Game.Status.FINISHED and game.current_phase.kind == "revote"
    assert not game.game_thread.is_locked and "Судный День" not in _thread(None, game)


def test_rolling_back_the_end_voids_doomsday(tmp_path):
    """The GM's rollback of the close that ended the show voids Судный День with the end (it reopens
    the last stage, the game runs again)."""
    game, _users = _kept(tmp_path, BEFORE_DOOMSDAY)
    doomsday = game.current_phase
    resolution_rollback(game=game, by=game.gm, reason="ошибка")
    game.refresh_from_db()
    doomsday.refresh_from_db()
    assert game.status == Game.Status.RUNNING and doomsday.voided_at is not None
    assert game.current_phase.kind == "revote" and not game.game_thread.is_locked


def test_the_results_page_keeps_each_days_task(tmp_path):
    """The archive keeps each day's task: the results page lists them for everyone after the end."""
    game, _users = _kept(tmp_path, BEFORE_DOOMSDAY)
    page = _page(None, reverse("games:show_results", args=[game.pk]))
    assert "Задания Рабских Испытаний" in page
    assert GMS_OWN in page and "Задание ведущего на утро: самый старый предмет в доме." in page
    assert FIRST not in page  # replaced by the GM before its first answer


def test_a_doomsday_phase_takes_posts_only_and_only_after_the_end(tmp_path):
    """The scenario runner plays Судный День as the epilogue it is: posts only (the show is over),
    and only after the end that opened it; anything else is a malformed file naming the key."""
    from games import scenarios

    data = yaml.safe_load((SCENARIOS / FILE).read_text("utf-8"))
    wrong = dict(data, phases=[*data["phases"][:-1], {"phase": "doomsday", "votes": {"Аня": "Кира"}}])
    early = dict(data, phases=[*data["phases"][:2], {"phase": "doomsday", "posts": [{"Аня": "Рано."}]}])
    for case, key in ((wrong, "'votes'"), (early, "'phase'")):
        path = tmp_path / "show.yaml"
        path.write_text(yaml.safe_dump(case, allow_unicode=True), "utf-8")
        with pytest.raises(scenarios.ScenarioError, match=key):
            scenarios.play(str(path))
