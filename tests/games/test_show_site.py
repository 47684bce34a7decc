"""The show on the site (issue 18, docs/rulesets/show.md "The site"): a GM creates a show from the
new-game form, heroes sign up, the show starts with dealt roles and a commitment; each stage is a
phase with the engine's timer as deadline, closed early when every awaited hero has acted and by
the deadline task otherwise; the hero's panel, its forms and their services (accepted and refused
inputs in the ledger), coma, waking and /lull, the text stand-in for media posts, the slaves'
chat, the private /fullstatus and the hidden ballots, per perspective."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone

from games import confirm
from games.models import Game, GameEvent, Order, Thread
from games.rulesets.show import services
from games.services.lifecycle import game_finish, game_signup
from games.services import ActionRefused
from games.services.posting import post_submit
from games.services.resolution import phase_close_if_due, phases_close_due
from tests.conftest import client_for, make_user
from tests.games.show_kept import kept_show

pytestmark = pytest.mark.django_db

NAMES = ["Аня", "Боря", "Вера", "Жора", "Кира"]
ROLES = ["mason", "mason", "reptiloid", "saviour", "demon"]


def _create(gm, **fields) -> Game:
    data = {"title": "Малое шоу", "ruleset": "show", "size": 5, "roles": "", "phase_hours": 24,
            "show_minutes_greetings": 60, "show_minutes_day": 60, "show_minutes_defence": 30,
            "show_minutes_revote": 30, "show_minutes_judge": 20, "show_minutes_night": 40,
            "show_timer_table": "8:100, 5:50, 0:25", **fields}
    response = client_for(gm).post(reverse("games:game_new"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return Game.objects.get(title="Малое шоу")


@pytest.fixture
def show(db):
    """A five-hero test show started through the site with fixed roles (seat order)."""
    from games.services.lifecycle import game_start

    gm = make_user("Ведущий")
    game = _create(gm)
    users = {n: make_user(n) for n in NAMES}
    for name in NAMES:
        game_signup(game=game, user=users[name])
    game_start(game=game, by=gm, seed=7, roles_in_seat_order=ROLES)
    game.refresh_from_db()
    seats = {n: game.seats.get(user=users[n]) for n in NAMES}
    return game, gm, users, seats


def _phase(game: Game) -> tuple[str, int]:
    game.refresh_from_db()
    return game.current_phase.kind, game.current_phase.number


def _greet_all(game, users, names=NAMES):
    for name in names:
        post_submit(thread=game.game_thread, author=users[name], body=f"Привет от {name}")


def test_the_gm_creates_a_show_from_the_new_game_form_and_starts_it(db):
    gm = make_user("Ведущий")
    game = _create(gm, show_no_demon="on")
    assert game.ruleset == "show"
    assert game.options["demon"] is False and game.options["text_posts"] is True
    assert game.options["stage_minutes"]["greetings"] == 60 and game.options["timer_table"][0] == [8, 100]
    users = [make_user(n) for n in NAMES]
    for user in users:
        response = client_for(user).post(reverse("games:game_join", args=[game.pk]), {"application": ""})
        assert response.status_code == 302
    response = client_for(gm).post(reverse("games:game_start", args=[game.pk]),
                                   {confirm.CONFIRM_FIELD: confirm.CONFIRM_VALUE})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING and len(game.commitment) == 64
    roles = sorted(game.seats.values_list("role", flat=True))
    # Five heroes without the Demon: the test show's table (docs/rulesets/show.md).
    assert "demon" not in roles and roles.count("reptiloid") == 1 and roles.count("saviour") == 1
    phase = game.current_phase
    assert (phase.kind, phase.number) == ("greetings", 0)
    # The stage's timer: 60 minutes at 50% for five free heroes (the GM's table).
    assert phase.deadline_at - phase.opened_at == timedelta(minutes=30)
    assert "demon" not in game.state["options"] and "text_posts" not in game.state["options"]


def test_greetings_by_text_posts_end_the_stage_early_and_the_next_has_its_timer(show):
    game, _gm, users, seats = show
    _greet_all(game, users, NAMES[:-1])
    assert _phase(game) == ("greetings", 0)
    post_submit(thread=game.game_thread, author=users["Аня"], body="ещё одно сообщение")  # talk, not a greeting
    assert Order.objects.filter(phase=game.current_phase, actor=seats["Аня"], action="post").count() == 1
    _greet_all(game, users, NAMES[-1:])
    assert _phase(game) == ("day", 1)
    greetings = game.phases.get(kind="greetings")
    assert greetings.closed_at is not None and greetings.closed_at < greetings.deadline_at
    day = game.current_phase
    assert day.deadline_at - day.opened_at == timedelta(minutes=30)
    assert GameEvent.objects.filter(game=game, kind="greetings").exists()


def test_the_deadline_task_closes_a_stage_and_the_missing_fall_into_coma_and_wake(show):
    game, _gm, users, seats = show
    _greet_all(game, users, NAMES[:-1])
    phase = game.current_phase
    assert not phase_close_if_due(phase_id=phase.pk, now=phase.deadline_at - timedelta(seconds=1))
    assert phase_close_if_due(phase_id=phase.pk, now=phase.deadline_at)
    assert _phase(game) == ("day", 1)
    assert GameEvent.objects.filter(game=game, kind="coma", data__seat=seats["Кира"].pk).exists()
    # Kira's panel says she sleeps and offers the wake button; a post wakes her and all are told.
    page = client_for(users["Кира"]).get(game.get_absolute_url()).content.decode()
    assert 'value="wake"' in page
    before = game.game_thread.post_count
    post_submit(thread=game.game_thread, author=users["Кира"], body="Я здесь")
    assert GameEvent.objects.filter(game=game, kind="woke", data__seat=seats["Кира"].pk).exists()
    game.game_thread.refresh_from_db()
    assert game.game_thread.post_count == before + 2  # her post and the wake's announcement
    game.refresh_from_db()
    assert str(seats["Кира"].pk) not in game.state["memory"]["coma"]


def test_the_day_vote_through_the_panel_is_hidden_and_ends_early_when_all_voted(show):
    game, _gm, users, seats = show
    _greet_all(game, users)
    url = reverse("games:show_act", args=[game.pk])
    response = client_for(users["Аня"]).post(url, {"act": "vote", "target": seats["Вера"].pk})
    assert response.status_code == 302
    mark = f"showballot-{seats['Аня'].pk}-{seats['Вера'].pk}"
    assert mark in client_for(users["Аня"]).get(game.get_absolute_url()).content.decode()
    for viewer in (users["Боря"], users["Вера"], make_user("Зритель"), None):
        assert mark not in client_for(viewer).get(game.get_absolute_url()).content.decode()
        assert mark not in client_for(viewer).get(reverse("games:show_status", args=[game.pk])).content.decode()
    # A refused ballot: kept in the ledger with its reason, nothing else changes.
    client_for(users["Боря"]).post(url, {"act": "vote", "target": seats["Боря"].pk})
    _phase(game)
    refused = Order.objects.get(phase=game.current_phase, actor=seats["Боря"], valid=False)
    assert refused.reason == "self_vote_forbidden"
    for name in ("Боря", "Вера", "Жора", "Кира"):
        client_for(users[name]).post(url, {"act": "vote", "target": seats["Аня" if name == "Вера" else "Вера"].pk})
    assert _phase(game) == ("defence", 1)
    ballots = GameEvent.objects.get(game=game, kind="day_votes").data["ballots"]
    assert ballots["Аня"] == "Вера" and len(ballots) == 5


def test_the_panel_shows_the_stage_the_countdown_and_what_the_hero_owes(show):
    game, _gm, users, _seats = show
    page = client_for(users["Аня"]).get(game.get_absolute_url()).content.decode()
    assert "show-panel" in page and "data-countdown" in page
    assert 'data-hero="showhero-' in page
    anonymous = client_for(None).get(game.get_absolute_url()).content.decode()
    assert "show-panel" in anonymous and "showhero-" not in anonymous


def _done(game, users, names=NAMES):
    """«Я всё» from each hero: the optional inputs nobody gave (sympathies, bets) hold the stage no
    longer (issue 28, item 4)."""
    for name in names:
        services.show_done(game=game, user=users[name])


def _to_night(game, users, seats):
    _greet_all(game, users)
    for name in NAMES:
        services.show_vote(game=game, user=users[name], target=seats["Аня" if name == "Вера" else "Вера"])
    assert _phase(game) == ("defence", 1)
    post_submit(thread=game.game_thread, author=users["Вера"], body="Я не виновата")
    # the first sympathy (its window ends with the defence) holds the stage until each says «Я всё»
    assert _phase(game) == ("defence", 1)
    _done(game, users)
    assert _phase(game) == ("revote", 1)
    for name in NAMES:
        if name != "Вера":
            services.show_vote(game=game, user=users[name], ballot="enslave")
    assert _phase(game) == ("revote", 1)  # the second sympathy
    _done(game, users)
    # «Выбор Союзника» (part 2): nobody sent a sympathy, so nobody is awaited: due at once (item 15).
    assert _phase(game) == ("allies", 1)
    phase = game.current_phase
    assert phase_close_if_due(phase_id=phase.pk, now=phase.deadline_at)
    assert _phase(game) == ("night", 1)


def test_a_slave_talks_in_the_slaves_chat_only_and_free_heroes_do_not_read_it(show):
    game, _gm, users, seats = show
    _to_night(game, users, seats)
    assert game.seats.get(pk=seats["Вера"].pk).status == "enslaved"
    lounge = game.private_threads.get(kind=Thread.Kind.LOUNGE)
    post_submit(thread=lounge, author=users["Вера"], body="рабская тайна")
    from games.services import ActionRefused

    with pytest.raises(ActionRefused):
        post_submit(thread=game.game_thread, author=users["Вера"], body="Я в игре!")
    url = reverse("games:thread", args=[lounge.pk])
    assert "рабская тайна" in client_for(users["Вера"]).get(url).content.decode()
    assert "рабская тайна" in client_for(make_user("Зритель")).get(url).content.decode()
    assert client_for(users["Аня"]).get(url).status_code == 404
    assert client_for(None).get(url).status_code == 404


def test_night_choices_through_the_panel_and_the_morning(show):
    game, gm, users, seats = show
    _to_night(game, users, seats)
    url = reverse("games:show_act", args=[game.pk])
    _phase(game)
    # Vera is a slave: she makes no free hero's choice.
    client_for(users["Вера"]).post(url, {"act": "order", "action": "enslave", "target": seats["Боря"].pk})
    assert Order.objects.get(actor=seats["Вера"], phase=game.current_phase).reason == "not_free"
    client_for(users["Аня"]).post(url, {"act": "order", "action": "suspect", "target": seats["Кира"].pk})
    client_for(users["Боря"]).post(url, {"act": "order", "action": "suspect", "target": seats["Кира"].pk})
    client_for(users["Жора"]).post(url, {"act": "order", "action": "save", "target": seats["Аня"].pk})
    client_for(users["Кира"]).post(url, {"act": "order", "action": "enslave", "target": seats["Аня"].pk})
    # every free hero chose, but the first night's bets «можно поменять до утра» hold it open
    assert _phase(game) == ("night", 1)
    page = client_for(users["Аня"]).get(game.get_absolute_url()).content.decode()
    assert "data-optional-open" in page
    _done(game, users)
    assert _phase(game) == ("day", 2)  # nothing anyone may still do is left open: the night ended early
    morning = GameEvent.objects.get(game=game, kind="morning")
    assert morning.audience == "public" and morning.data["saved"] is True
    choices = GameEvent.objects.get(game=game, kind="night_choices")
    assert choices.audience == "gm"


def test_full_status_is_the_heros_own_the_gms_and_everyones_after_the_end(show):
    game, gm, users, seats = show
    url = reverse("games:show_fullstatus", args=[game.pk, seats["Вера"].pk])
    assert client_for(users["Вера"]).get(url).status_code == 200
    assert client_for(gm).get(url).status_code == 200
    for viewer in (users["Аня"], users["Кира"], make_user("Зритель"), None):
        assert client_for(viewer).get(url).status_code == 404
    mine = client_for(users["Вера"]).get(reverse("games:show_fullstatus_mine", args=[game.pk]))
    assert mine.status_code == 302 and mine["Location"].endswith(f"/fullstatus/{seats['Вера'].pk}/")
    game_finish(game=game, winner="masons", now=timezone.now())
    assert client_for(None).get(url).status_code == 200


def test_lull_by_majority_puts_a_hero_into_coma_at_once(show):
    game, _gm, users, seats = show
    _greet_all(game, users)
    for name in ("Аня", "Боря"):
        assert services.show_lull(game=game, user=users[name], target=seats["Кира"]).accepted
    game.refresh_from_db()
    assert str(seats["Кира"].pk) not in game.state["memory"]["coma"]
    assert services.show_lull(game=game, user=users["Жора"], target=seats["Кира"]).accepted
    game.refresh_from_db()
    assert str(seats["Кира"].pk) in game.state["memory"]["coma"]
    assert GameEvent.objects.filter(game=game, kind="lulled", audience="public").exists()


def test_status_page_is_public_and_pages_of_other_rule_sets_404(show):
    game, _gm, _users, _seats = show
    assert client_for(None).get(reverse("games:show_status", args=[game.pk])).status_code == 200
    from games.services.games import game_create

    other = game_create(title="Форум", gm=game.gm, ruleset="forum", size=5)
    assert client_for(None).get(reverse("games:show_status", args=[other.pk])).status_code == 404


def test_another_games_seats_in_the_show_forms_are_refused_and_change_nothing(show):
    from games.services.games import game_create

    game, _gm, users, seats = show
    other = game_create(title="Чужое шоу", gm=make_user("Чужой"), ruleset="show", size=5)
    stranger = game_signup(game=other, user=make_user("Чужак"))
    _greet_all(game, users)
    url = reverse("games:show_act", args=[game.pk])
    for data in ({"act": "vote", "target": stranger.pk}, {"act": "lull", "target": stranger.pk},
                 {"act": "vote", "target": "x"}, {"act": "vote", "target": "-1"}):
        assert client_for(users["Аня"]).post(url, data).status_code == 302
    _phase(game)
    rows = Order.objects.filter(phase=game.current_phase, actor=seats["Аня"])
    assert rows.exists() and not rows.filter(valid=True).exists()
    assert not Order.objects.filter(target=stranger).exists()
    response = client_for(users["Аня"]).get(reverse("games:show_fullstatus", args=[game.pk, stranger.pk]))
    assert response.status_code == 404


def test_each_stage_queues_the_celery_close_at_its_timer(show, django_capture_on_commit_callbacks, monkeypatch):
    """The deadline task is queued with the stage's timer as its ETA when a stage opens (here the
    day after greetings that ended early), as every phase's (games.services.phases._queue_close)."""
    from games import tasks

    game, _gm, users, _seats = show
    sent = []
    monkeypatch.setattr(tasks.close_phase_when_due, "apply_async", lambda **kw: sent.append(kw))
    with django_capture_on_commit_callbacks(execute=True):
        _greet_all(game, users)
    game.refresh_from_db()
    day = game.current_phase
    assert (day.kind, day.number) == ("day", 1)
    assert {"kwargs": {"phase_id": day.pk}, "eta": day.deadline_at} in sent
    # At the ETA the task closes it (nobody voted: everyone falls into coma, no bench, the «Выбор
    # Союзника» stage, then the night).
    assert tasks.close_phase_when_due(phase_id=day.pk) is False  # before its time: nothing happens
    from games.services.resolution import phase_close_if_due as close

    assert close(phase_id=day.pk, now=day.deadline_at)
    assert _phase(game) == ("allies", 1)
    allies = game.current_phase
    assert close(phase_id=allies.pk, now=allies.deadline_at)
    assert _phase(game) == ("night", 1)
    assert GameEvent.objects.filter(game=game, kind="no_bench").exists()


def test_the_role_page_links_the_heros_full_status_and_shows_his_innate_keys(show):
    game, _gm, users, seats = show
    page = client_for(users["Жора"]).get(reverse("games:role", args=[game.pk])).content.decode()
    assert reverse("games:show_fullstatus", args=[game.pk, seats["Жора"].pk]) in page
    full = client_for(users["Жора"]).get(reverse("games:show_fullstatus", args=[game.pk, seats["Жора"].pk]))
    assert f'data-fullstatus="showfull-{seats["Жора"].pk}"' in full.content.decode()
    # The Saviour knows everyone else is not the Saviour: an innate key in every other row.
    assert full.content.decode().count("not the Saviour") + full.content.decode().count("не Спаситель") >= 4


def _kept_show(tmp_path, stages: int):
    """The ten-hero file played through the site up to `stages` stages and kept: the show goes on."""
    return kept_show(tmp_path, "big-show-masons-win.yaml", stages)


def test_the_judge_decides_alone_through_his_panel(tmp_path, db):
    game, users, seats = _kept_show(tmp_path, 8)  # greetings ... defence 2: the judge's decision is next
    assert _phase(game) == ("judge", 2)
    page = client_for(users["Аня"]).get(game.get_absolute_url()).content.decode()
    assert "Your decision, judge" in page or "Ваше решение, судья" in page
    url = reverse("games:show_act", args=[game.pk])
    client_for(users["Боря"]).post(url, {"act": "order", "action": "enslave", "target": seats["Зина"].pk})
    assert Order.objects.get(phase=game.current_phase, actor=seats["Боря"]).reason == "not_your_action"
    client_for(users["Аня"]).post(url, {"act": "order", "action": "enslave", "target": seats["Боря"].pk})
    assert Order.objects.get(phase=game.current_phase, actor=seats["Аня"]).reason == "not_on_bench"
    client_for(users["Аня"]).post(url, {"act": "order", "action": "enslave", "target": seats["Зина"].pk})
    assert _phase(game) == ("night", 2)  # the judge alone was awaited: the stage ended early
    decision = GameEvent.objects.get(game=game, kind="judge_decision")
    assert decision.data["enslaved"]["name"] == "Зина"


def test_secret_knowledge_is_used_at_once_and_the_thread_hears_only_the_count(tmp_path, db):
    game, users, seats = _kept_show(tmp_path, 2)  # day 1 closed: Гоша won the Secret Knowledge lot
    won = GameEvent.objects.get(game=game, kind="knowledge_won")
    assert won.audience == f"seat:{seats['Гоша'].pk}"
    url = reverse("games:show_act", args=[game.pk])
    client_for(users["Аня"]).post(url, {"act": "knowledge", "target": seats["Зина"].pk})
    assert Order.objects.get(phase=game.current_phase, actor=seats["Аня"]).reason == "no_right"
    client_for(users["Гоша"]).post(url, {"act": "knowledge", "target": seats["Зина"].pk})
    key = GameEvent.objects.get(game=game, kind="secret_key")
    assert key.audience == f"seat:{seats['Гоша'].pk}" and key.data["name"] == "Зина"
    told = GameEvent.objects.get(game=game, kind="knowledge_received")
    assert told.audience == "public" and told.data == {"count": 1}
    full = client_for(users["Гоша"]).get(reverse("games:show_fullstatus", args=[game.pk, seats["Гоша"].pk]))
    assert key.text and key.data["key"] in ("not_saviour", "not_demon", "not_reptiloid")
    assert full.status_code == 200
    last = game.game_thread.posts.order_by("-number").first()
    assert "Зина" not in last.body and "Гоша" not in last.body  # who and about whom stay secret


def test_a_requested_opinion_holds_the_early_end_until_it_is_posted(tmp_path, db):
    game, users, seats = _kept_show(tmp_path, 6)  # night 1 closed: day 2, the opinions day
    assert _phase(game) == ("day", 2)
    url = reverse("games:show_act", args=[game.pk])
    client_for(users["Аня"]).post(url, {"act": "request", "target": seats["Зина"].pk})
    page = client_for(users["Зина"]).get(game.get_absolute_url()).content.decode()
    assert "requested your opinion" in page or "запросил ваше Мнение" in page
    free = [name for name, s in seats.items() if game.state and s.status == "active"]
    for name in free:
        services.show_vote(game=game, user=users[name], target=seats["Аня" if name == "Зина" else "Зина"])
    assert _phase(game) == ("day", 2)  # everyone voted, Зина's opinion is still owed
    post_submit(thread=game.game_thread, author=users["Зина"], body="Моё мнение: я ни при чём.")
    assert _phase(game) == ("defence", 2)
    opinions = GameEvent.objects.get(game=game, kind="opinions")
    assert opinions.data["posted"] == ["Зина"] and "Аня" not in str(opinions.data)


def test_the_gm_dashboard_shows_whom_the_stage_waits_for_and_the_judges_weights(tmp_path, db):
    game, _users, _seats = _kept_show(tmp_path, 6)  # after night 1: the judge of day 2 was drawn
    page = client_for(game.gm).get(reverse("games:gm_dashboard", args=[game.pk])).content.decode()
    assert "show-gm" in page
    lot = GameEvent.objects.get(game=game, kind="judge_lot")
    assert lot.audience == "gm" and lot.data["judge"] in page
    for name, weight in lot.data["weights"].items():
        assert name in page
    # The selector itself answers only the game's masters, whatever page would ask it.
    from django.contrib.auth.models import AnonymousUser

    from games.rulesets.show.selectors import gm_stage

    assert [row["name"] for row in gm_stage(game=game, user=game.gm)["lot"]["rows"]] == list(lot.data["weights"])
    hero = game.seats.select_related("user").first().user
    assert gm_stage(game=game, user=hero) is None and gm_stage(game=game, user=AnonymousUser()) is None
    assert gm_stage(game=game, user=None) is None


def test_the_desk_and_the_reminders_know_what_a_hero_owes(show):
    """The core's duties (the desk, the due-soon notices) ask the engine's owed_actions: a hero owes
    his greeting until his input is in the ledger; the periodic services run over a show."""
    from games.selectors.duties import duties_of
    from games.services.moderation import prods_send
    from games.services.notifications import notify_due_soon

    game, _gm, users, _seats = show
    assert [d.kind for d in duties_of(users["Аня"])] == ["order"]
    post_submit(thread=game.game_thread, author=users["Аня"], body="Привет!")
    assert duties_of(users["Аня"]) == []
    prods_send()
    notify_due_soon(now=game.current_phase.deadline_at - timedelta(hours=1))


def test_the_slaves_chat_is_named_so(show):
    game, _gm, _users, _seats = show
    lounge = game.private_threads.get(kind=Thread.Kind.LOUNGE)
    assert lounge.title.endswith(("the slaves' chat", "чат рабов"))


def test_an_opinion_requested_is_not_the_days_vote_on_the_desk_or_in_the_prods(tmp_path, db):
    """«каждый должен снова проголосовать, подкрепив свой голос видео/аудио Мнением (если кто-то его
    анонимно запросил)»: the day's duty is the vote. A hero who only requested an opinion still owes
    it on his desk and in the GM's prods (SiteRuleset.awaited); the hero whose opinion was requested
    owes it too, after his vote."""
    from games.models import Prod
    from games.selectors.duties import duties_of
    from games.services.moderation import prods_send

    game, users, seats = _kept_show(tmp_path, 6)  # night 1 closed: day 2, the opinions day
    assert _phase(game) == ("day", 2)
    now = game.current_phase.deadline_at - timedelta(hours=1)  # the scenario's clock, not today's
    services.show_request(game=game, user=users["Аня"], target=seats["Зина"])
    assert [d.kind for d in duties_of(users["Аня"], now=now)] == ["order"]  # the request is not her vote
    prods_send(now=now)
    assert Prod.objects.filter(seat=seats["Аня"], kind=Prod.Kind.NO_ACTION).exists()
    services.show_vote(game=game, user=users["Аня"], target=seats["Зина"])
    assert duties_of(users["Аня"], now=now) == []
    services.show_vote(game=game, user=users["Зина"], target=seats["Аня"])
    assert [d.kind for d in duties_of(users["Зина"], now=now)] == ["order"]  # voted; her opinion is owed
    post_submit(thread=game.game_thread, author=users["Зина"], body="Моё мнение: я ни при чём.")
    assert duties_of(users["Зина"], now=now) == []


def test_the_shows_day_has_no_core_vote_count_tie_break_or_vote_duty(tmp_path, db):
    """«Если подсудимых больше одного, то свободу теряют все, кто набрал максимальное количество
    голосов»: the show's stages settle a tie and its ballots are hidden until the close, so the GM's
    tie-break form, the core vote count and the core's «vote» duty have no place in a show."""
    from games.selectors.duties import duties_of
    from games.selectors.votes import voting_kinds
    from games.services.phases import phase_set_tie_break

    game, users, seats = _kept_show(tmp_path, 1)  # greetings closed: day 1
    assert _phase(game) == ("day", 1) and voting_kinds(game) == frozenset()
    gm_page = client_for(game.gm).get(reverse("games:gm_dashboard", args=[game.pk])).content.decode()
    assert 'value="tie_break"' not in gm_page and "vote-count" not in gm_page
    with pytest.raises(ActionRefused) as refused:
        phase_set_tie_break(phase=game.current_phase, by=game.gm, seat=seats["Аня"])
    assert refused.value.code == "no_tie_break"
    thread_page = client_for(users["Аня"]).get(game.game_thread.get_absolute_url()).content.decode()
    assert 'id="vote-count"' not in thread_page
    now = game.current_phase.deadline_at - timedelta(hours=1)
    assert [d.kind for d in duties_of(users["Аня"], now=now)] == ["order"]  # the panel's vote, once


def test_a_refused_button_still_wakes_a_hero_in_coma(show):
    """«Как только герой проявляет любую активность (пишет в чат или нажимает любые кнопки), он
    автоматически выходит из комы»: a press the rules refuse is still activity (as the engine's close
    wakes whoever sent anything); the refused input itself changes nothing."""
    game, _gm, users, seats = show
    _greet_all(game, users, NAMES[:-1])
    phase = game.current_phase
    assert phase_close_if_due(phase_id=phase.pk, now=phase.deadline_at)
    game.refresh_from_db()
    assert str(seats["Кира"].pk) in game.state["memory"]["coma"]
    result = services.show_vote(game=game, user=users["Кира"], target=seats["Кира"])  # herself: refused
    assert not result.accepted
    game.refresh_from_db()
    assert str(seats["Кира"].pk) not in game.state["memory"]["coma"]
    assert GameEvent.objects.filter(game=game, kind="woke", data__seat=seats["Кира"].pk).exists()
    assert not Order.objects.filter(phase=game.current_phase, actor=seats["Кира"], action="vote", valid=True).exists()


def test_a_slave_judge_gets_his_decision_on_his_panel_when_the_gm_allows_slave_judges(tmp_path, db):
    """A9 as the GM's option (`judge_from: all`, issue 28): «Судьёй может стать герой с любой Ролью»,
    drawn «среди всех героев, которые не находятся в Коме»; the slave Гоша, drawn judge, finds the
    decision on his panel (the engine's list), and it stands when he sends it."""
    import yaml

    from games.scenarios import play

    source = Path(__file__).resolve().parents[1] / "scenarios" / "show" / "judge-a-slave-when-the-gm-allows.yaml"
    data = yaml.safe_load(source.read_text("utf-8"))
    data["phases"] = data["phases"][:-1]  # up to defence 2: the judge's stage is open
    path = tmp_path / "slave-judge.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    report = play(str(path), keep=True)
    assert report.ok, [p.diffs for p in report.phases]
    game = Game.objects.filter(ruleset="show").latest("pk")
    assert game.current_phase.kind == "judge"
    seats = {s.dealt_name: s for s in game.seats.select_related("user")}
    page = client_for(seats["Гоша"].user).get(game.get_absolute_url()).content.decode()
    assert "Ваше решение, судья" in page
    other = client_for(seats["Аня"].user).get(game.get_absolute_url()).content.decode()
    assert "Ваше решение, судья" not in other
    client_for(seats["Гоша"].user).post(reverse("games:show_act", args=[game.pk]),
                                        {"act": "order", "action": "enslave", "target": seats["Кира"].pk})
    assert Order.objects.get(phase__kind="judge", actor=seats["Гоша"]).valid


def test_i_am_done_is_refused_when_nothing_optional_is_open(show):
    """«Я всё» settles only optional inputs: on day 1 of a show without privileges nothing optional
    holds the vote (a sympathy's window runs on into the defence), so it is refused, worded, and
    nothing changes."""
    game, _gm, users, _seats = show
    _greet_all(game, users)
    assert _phase(game) == ("day", 1)
    response = client_for(users["Аня"]).post(reverse("games:show_act", args=[game.pk]), {"act": "done"}, follow=True)
    assert "nothing optional" in response.content.decode() or "нечего делать по желанию" in response.content.decode()
    assert Order.objects.get(phase=game.current_phase, action="done").reason == "nothing_open"
    assert _phase(game) == ("day", 1)


def test_a_stage_that_waits_for_nothing_runs_no_timer(show):
    """Issue 28, item 15: «Выбор Союзника» with no sympathy sent waits for nobody: it is due at once
    (the deadline task closes it), not after its 1.5-2 hours."""
    game, _gm, users, seats = show
    _to_night(game, users, seats)
    allies = game.phases.get(kind="allies", number=1)
    assert allies.deadline_at == allies.opened_at


def test_a_sleeping_table_closes_at_most_one_stage_per_its_timer(show):
    """Issue 30 (the load test's shows raced through 140-170 stages in minutes): nobody greets, so
    at the greetings' timer every hero falls into coma; «их никто не ждёт», yet a stage that asks a
    sleeper's input keeps its timer when every free hero sleeps («Любой этап заканчивается либо когда
    все активные герои совершают необходимое на этом этапе действие, либо когда Таймер обнуляется»).
    The deadline task's sweep runs every minute for three hours: each stage closes at its own
    deadline, one stage per sweep at most; only a stage that asks nothing of anybody («Выбор
    Союзника» with no sympathy sent) is due at once."""
    game, _gm, _users, _seats = show
    start = game.current_phase.deadline_at
    per_sweep = [phases_close_due(now=start + timedelta(minutes=minute)) for minute in range(181)]
    assert per_sweep[0] == 1 and max(per_sweep) <= 1
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    assert set(game.state["memory"]["coma"]) == {str(s.pk) for s in game.seats.filter(status="active")}
    phases = list(game.phases.order_by("pk"))
    closed = [p for p in phases if p.closed_at is not None]
    for phase in phases[1:]:
        if phase.kind == "allies":  # asks nothing of anybody: due at once (issue 28, item 15)
            assert phase.deadline_at == phase.opened_at
            continue
        # the stage's own timer (5 free heroes: at least a quarter of the GM's 40-60 minutes)
        assert phase.deadline_at - phase.opened_at >= timedelta(minutes=10), (phase.kind, phase.number)
        assert phase.closed_at is None or phase.closed_at >= phase.deadline_at
    # three hours of 20-30 minute stages: a handful of closes, not hundreds
    assert 4 <= len(closed) <= 1 + 180 // 10, [(p.kind, p.number) for p in phases]


def test_the_gm_is_told_when_the_whole_table_sleeps(show):
    """Issue 30: the GM's card says a stage of a sleeping table runs its timer (every free hero in
    coma); a hero who acts wakes («Как только герой проявляет любую активность ..., он
    автоматически выходит из комы») and the notice goes."""
    game, gm, users, _seats = show
    greetings = game.current_phase
    assert phase_close_if_due(phase_id=greetings.pk, now=greetings.deadline_at)
    assert _phase(game) == ("day", 1)
    dashboard = reverse("games:gm_dashboard", args=[game.pk])
    assert "data-show-asleep" in client_for(gm).get(dashboard).content.decode()
    assert "data-show-asleep" not in client_for(users["Аня"]).get(game.get_absolute_url()).content.decode()
    post_submit(thread=game.game_thread, author=users["Аня"], body="Я здесь")
    assert _phase(game) == ("day", 1)  # awake, she is awaited: the stage waits for her vote
    assert "data-show-asleep" not in client_for(gm).get(dashboard).content.decode()


def test_the_vote_select_shows_the_choice_and_the_game_thread_the_stage_and_timer(show):
    """Issue 28, item 21: after voting the select shows the hero's choice, not the first name; the
    show's game thread names the running stage with its countdown (everyone's, as the game page)."""
    game, _gm, users, seats = show
    _greet_all(game, users)
    assert services.show_vote(game=game, user=users["Аня"], target=seats["Кира"]).accepted
    page = client_for(users["Аня"]).get(game.get_absolute_url()).content.decode()
    assert f'<option value="{seats["Кира"].pk}" selected>' in page
    other = client_for(users["Боря"]).get(game.get_absolute_url()).content.decode()
    assert " selected>" not in other[other.index('name="act" value="vote"'):][:2000]
    thread = client_for(None).get(reverse("games:thread", args=[game.game_thread_id])).content.decode()
    stage = thread[thread.index("data-show-stage"):][:400]
    # the timer as a duration, counted down by the page's script (issue 28, item 14)
    assert "data-remaining" in stage and ("Дневное голосование" in stage or "Day vote" in stage)
