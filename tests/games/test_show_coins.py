"""The show's coins on the site (issue 19, docs/rulesets/show.md "Part 2 on the site"): every
close posts its transfers to the coins ledger in the close's own transaction; the hero's part 2
inputs (bet, raise, sympathy, ally pick, trial answer, grants) go through the panel's forms into
the show's order ledger and the engine's `extra`; the message fee is charged when a post is stored
and shown before; «Обо мне» and the results page go through games.permissions."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db.models import Sum
from django.urls import reverse

from coins import services as coins
from coins.models import Account, Entry
from games.models import Game, GameEvent, Order, Post
from games.rulesets.show import services
from games.rulesets.show.scenario_inputs import TINY_PNG
from games.rulesets.show.coins.services import open_answers
from games.selectors.state import game_state
from games.services import ActionRefused
from games.services.posting import post_submit
from games.services.resolution import phase_close
from tests.conftest import client_for, make_user
from tests.games.show_kept import kept_show

pytestmark = pytest.mark.django_db

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios" / "show"


_kept = kept_show


def _lines(game, user, reason):
    return list(Entry.objects.filter(game=game, reason=reason, debit__key=coins.user_key(user))
                .values_list("amount", "stage"))


def _bank(game) -> int:
    account = Account.objects.filter(key=coins.game_key(game, "bank")).first()
    return account.balance if account else 0


def _close(game):
    game.refresh_from_db()
    phase = game.current_phase
    phase_close(phase_id=phase.pk, now=phase.deadline_at)
    game.refresh_from_db()


def test_the_entry_fee_and_the_stage_fee_by_timing_are_posted_with_the_greetings_close(tmp_path):
    """«Перед раздачей Ролей все участники отправляют в Банк ... первоначальный сбор»; «чем позже
    они это делают - тем выше этот Взнос»: Кира greets half-way through the 24 hours (0..10 ㉿: 5),
    the others at the open (0); the lines carry the game and the stage."""
    game, users, _seats = _kept(tmp_path, "coins-first-day-alliances-bets-burdens.yaml", 1)
    for name, user in users.items():
        assert _lines(game, user, "entry_fee") == [(50, "greetings")]
    assert _lines(game, users["Кира"], "stage_fee") == [(5, "greetings")]
    assert _lines(game, users["Аня"], "stage_fee") == []  # acted at once: 0 ㉿, no line
    assert _bank(game) == 505 == game_state(game).memory["coins"]["accounts"]["bank"]
    assert coins.check() == []


def test_a_bet_is_given_at_random_changed_until_the_morning_and_charged_with_the_burdens(tmp_path):
    """«в первую ночь каждый герой автоматически делает Ставку на случайно выбранного героя, но может
    до утра поменять свою Ставку»; «Все рабы каждое утро выплачивают своё Бремя»."""
    game, users, seats = _kept(tmp_path, "coins-first-day-alliances-bets-burdens.yaml", 5)
    assert (game.current_phase.kind, game.current_phase.number) == ("night", 1)
    default = game_state(game).memory["bets"][str(seats["Аня"].pk)]["pick"]
    page = client_for(users["Аня"]).get(game.get_absolute_url()).content.decode()
    assert f"showbet-{seats['Аня'].pk}-{default}" in page  # the random pick is shown
    assert "Acting now costs" in page or "Действие сейчас стоит" in page  # the stage fee before paying
    url = reverse("games:show_act", args=[game.pk])
    client_for(users["Аня"]).post(url, {"act": "bet", "target": seats["Зина"].pk})  # a slave: refused
    assert Order.objects.filter(phase=game.current_phase, actor=seats["Аня"], action="bet").get().reason == "bad_target"
    client_for(users["Аня"]).post(url, {"act": "bet", "target": seats["Вера"].pk})
    client_for(users["Аня"]).post(url, {"act": "bet", "target": seats["Егор"].pk})  # changed again
    page = client_for(users["Аня"]).get(game.get_absolute_url()).content.decode()
    assert f"showbet-{seats['Аня'].pk}-{seats['Егор'].pk}" in page
    night = yaml.safe_load((SCENARIOS / "coins-first-day-alliances-bets-burdens.yaml").read_text("utf-8"))["phases"][5]
    for item in night["orders"]:  # the file's night choices, so the show goes on after the morning
        services.show_order(game=game, user=users[item["by"]], action=item["action"], target=seats[item["target"]],
                            early_close=False)
    _close(game)  # the morning
    assert game.status == Game.Status.RUNNING
    bets = Entry.objects.filter(game=game, reason="bet", debit__key=coins.user_key(users["Аня"])).get()
    assert (bets.amount, bets.detail, bets.stage) == (25, "Егор", "night 1")
    assert Account.objects.get(key=coins.game_key(game, "pot")).balance == 250
    # Зина (a public slave since the re-vote) pays her burden to the bank at the morning.
    assert _lines(game, users["Зина"], "burden") == [(20, "night 1")]
    assert coins.check() == []
    # The bets are closed now: a change is refused and changes nothing.
    client_for(users["Аня"]).post(url, {"act": "bet", "target": seats["Вера"].pk})
    assert Order.objects.filter(phase=game.current_phase, action="bet").get().reason == "not_your_action"


def test_an_alliance_is_formed_by_mutual_picks_on_the_panel(tmp_path):
    """«Союзы создаются из тех, кто выразил взаимную Симпатию»: the sympathies of day 1 give the menu."""
    game, users, seats = _kept(tmp_path, "coins-first-day-alliances-bets-burdens.yaml", 4)
    assert game.current_phase.kind == "allies"
    page = client_for(users["Аня"]).get(game.get_absolute_url()).content.decode()
    assert 'value="act" value="ally"' not in page and 'name="act" value="ally"' in page
    url = reverse("games:show_act", args=[game.pk])
    client_for(users["Аня"]).post(url, {"act": "ally", "target": seats["Кира"].pk})  # not in her menu
    assert Order.objects.get(phase=game.current_phase, actor=seats["Аня"]).reason == "bad_target"
    client_for(users["Аня"]).post(url, {"act": "ally", "target": seats["Боря"].pk})
    client_for(users["Боря"]).post(url, {"act": "ally", "target": seats["Аня"].pk})
    _close(game)
    assert GameEvent.objects.get(game=game, kind="alliances").data["count"] == 1
    told = GameEvent.objects.filter(game=game, kind="ally").values_list("audience", flat=True)
    assert sorted(told) == sorted([f"seat:{seats['Аня'].pk}", f"seat:{seats['Боря'].pk}"])


def test_a_trial_answer_is_posted_anonymously_and_granted(tmp_path):
    """«Каждое утро раб получает общее для всех рабов задание ... одно фото, видео или стикер,
    которые публикуются анонимно для всех ... каждый участник ... может выделить один из трёх грантов
    (10㉿-15㉿-25㉿) ... Если участник пропускает Ответ и не отсылает никакого гранта, то
    автоматически платит базовый взнос (30㉿)»."""
    game, users, seats = _kept(tmp_path, "coins-first-day-alliances-bets-burdens.yaml", 6)
    state = game_state(game)
    assert set(state.memory["trial"]["slaves"]) == {seats[n].pk for n in ("Зина", "Гоша", "Даша")}
    url = reverse("games:show_act", args=[game.pk])
    text = SimpleUploadedFile("a.txt", b"just words, not a picture", content_type="image/png")
    client_for(users["Гоша"]).post(url, {"act": "trial", "answer_file": text})  # refused by content
    assert not Order.objects.filter(action="trial_answer").exists()
    for name in ("Гоша", "Даша"):
        client_for(users[name]).post(url, {"act": "trial", "answer_file": SimpleUploadedFile(
            "a.png", TINY_PNG, content_type="image/png")})
    answers = open_answers(game, game_state(game))
    assert [author for _post, author in answers] == [seats["Гоша"].pk, seats["Даша"].pk]
    post = Post.objects.get(pk=answers[0][0])
    assert post.author == game.gm and post.media.kind == "image" and "Гоша" not in post.body
    # Anyone's page shows the answers without their authors.
    page = client_for(users["Аня"]).get(game.get_absolute_url()).content.decode()
    assert 'data-answer="1"' in page and reverse("games:post_media", args=[post.pk]) in page
    client_for(users["Аня"]).post(url, {"act": "grant", "answer": answers[0][0], "amount": 25})
    client_for(users["Аня"]).post(url, {"act": "grant", "answer": answers[1][0], "amount": 10})
    client_for(users["Аня"]).post(url, {"act": "grant", "answer": answers[1][0], "amount": 11})  # not an amount
    client_for(users["Гоша"]).post(url, {"act": "grant", "answer": answers[0][0], "amount": 25})  # his own
    client_for(users["Боря"]).post(url, {"act": "grant_pass"})
    refused = dict(Order.objects.filter(valid=False, action="grant").values_list("actor__dealt_name", "reason"))
    assert refused == {"Аня": "bad_grant", "Гоша": "self_forbidden"}
    extra = services.ledger_inputs(game.current_phase).extra
    assert extra["grants"][seats["Аня"].pk] == {seats["Гоша"].pk: 25, seats["Даша"].pk: 10}
    assert extra["grants"][seats["Боря"].pk] == "pass"
    assert extra["trial_answers"] == [seats["Гоша"].pk, seats["Даша"].pk]
    # Аня's own row names the answer's post, never its author.
    assert all(r.target_id is None for r in Order.objects.filter(action="grant", actor=seats["Аня"]))
    for _ in range(8):  # to the next morning: the trial is settled there
        if game.current_phase.kind == "night" or game.status == Game.Status.FINISHED:
            break
        _close(game)
    _close(game)
    assert _lines(game, users["Аня"], "grant") == [(35, "night 2")]
    assert sorted(a for a, _s in _lines(game, users["Боря"], "trial_pass")) == [30, 30]
    assert set(Entry.objects.filter(game=game, reason="trial_pass").values_list("detail", flat=True)) == {""}
    results = GameEvent.objects.get(game=game, kind="trial_results").data
    assert results["talents"] == ["Гоша"]
    assert coins.check() == []


def test_the_message_fee_is_shown_before_and_charged_past_the_free_limit(db):
    """«На каждом этапе есть лимит бесплатных сообщений, превышая который участник начинает платить в
    Банк за каждое новое сообщение в общий чат. Приватные персональные сообщения всегда бесплатны.»"""
    from games.services.lifecycle import game_signup, game_start
    from tests.games.test_show_site import NAMES, ROLES, _create

    gm = make_user("Ведущий")
    game = _create(gm)
    game.options = {**game.options, "free_messages": 1, "message_fee": 3}
    game.save(update_fields=["options"])
    users = {n: make_user(n) for n in NAMES}
    for name in NAMES:
        game_signup(game=game, user=users[name])
    game_start(game=game, by=gm, seed=7, roles_in_seat_order=ROLES)
    game.refresh_from_db()
    before = coins.balance_of(users["Аня"])
    post_submit(thread=game.game_thread, author=users["Аня"], body="Привет! (приветствие)")  # the greeting: free
    post_submit(thread=game.game_thread, author=users["Аня"], body="Ещё слово")  # within the free limit
    page = client_for(users["Аня"]).get(game.game_thread.get_absolute_url()).content.decode()
    assert 'data-message-fee="3"' in page  # shown before it is paid
    assert coins.balance_of(users["Аня"]) == before
    post_submit(thread=game.game_thread, author=users["Аня"], body="И ещё")
    assert coins.balance_of(users["Аня"]) == before - 3
    # «Приватные персональные сообщения всегда бесплатны»: a post of [private] messages alone is free,
    # one with a public word beside it is not (read by the BBCode parser, not by a pattern).
    assert services._is_private_only('[private="Боря"]тайна[/private]')
    assert not services._is_private_only('Всем привет. [private="Боря"]тайна[/private]')
    assert not services._is_private_only('[quote]цитата[/quote]')
    line = Entry.objects.get(reason="message_fee")
    assert (line.game_id, line.stage, line.amount) == (game.pk, "greetings", 3)
    assert services.ledger_inputs(game.current_phase).extra["message_fees"] == {game.seats.get(user=users["Аня"]).pk: 3}
    # «За каждое анонимное сообщение берётся небольшая плата в Банк» (5 ㉿ by default), shown on the role page.
    from games.communication.anonymous import anonymous_send

    role_page = client_for(users["Аня"]).get(reverse("games:role", args=[game.pk])).content.decode()
    assert 'data-anonymous-fee="5"' in role_page
    anonymous_send(game=game, user=users["Аня"], recipient=game.seats.get(user=users["Боря"]), text="Я знаю, кто ты")
    assert coins.balance_of(users["Аня"]) == before - 3 - 5
    assert services.ledger_inputs(game.current_phase).extra["message_fees"] == {game.seats.get(user=users["Аня"]).pk: 8}
    # The others greet: the stage closes and the engine counts the fee in the bank as the ledger does.
    for name in NAMES[1:]:
        post_submit(thread=game.game_thread, author=users[name], body=f"Привет от {name}")
    game.refresh_from_db()
    assert game.current_phase.kind == "day"
    assert _bank(game) == game_state(game).memory["coins"]["accounts"]["bank"] >= 5 * 50 + 3 + 5
    assert coins.check() == []


def test_a_whole_show_moves_coins_without_creating_or_losing_any_and_publishes_its_results(tmp_path):
    """«Монеты ... могут только перераспределяться»: a whole show played through the site leaves its
    own accounts at 0 and the heroes' balances summing to what they had; the results page (every role,
    ratings in %, the splits, «История Шоу») is everyone's once the show is over."""
    game, users, seats = _kept(tmp_path, "big-show-masons-win.yaml")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    keys = [coins.user_key(u) for u in users.values()]
    total = Account.objects.filter(key__in=keys).aggregate(s=Sum("balance"))["s"]
    assert total == 1000 * len(users)  # each registered with 1,000; none created or lost since
    assert set(Account.objects.filter(game=game).values_list("balance", flat=True)) <= {0}
    assert Entry.objects.filter(game=game, reason="bank_share").exists()
    assert coins.check() == []
    page = client_for(None).get(reverse("games:show_results", args=[game.pk]))
    assert page.status_code == 200
    body = page.content.decode()
    assert f"showratings-{game.pk}" in body and 'id="bank-split"' in body and 'id="history"' in body
    about = client_for(None).get(reverse("games:show_about", args=[game.pk, seats["Аня"].pk]))
    assert about.status_code == 200  # the archive is everyone's after the end


def test_about_me_and_the_results_are_hidden_until_the_end(tmp_path):
    """«Все Рейтинги скрыты»; «По кнопке "Обо мне" можно всегда посмотреть свою Ставку и имена тех, кто
    сделал свою Ставку на вас»: the hero and the GMs only while the show runs."""
    game, users, seats = _kept(tmp_path, "coins-first-day-alliances-bets-burdens.yaml", 6)
    about = reverse("games:show_about", args=[game.pk, seats["Аня"].pk])
    assert client_for(users["Аня"]).get(about).status_code == 200
    assert client_for(game.gm).get(about).status_code == 200
    assert client_for(users["Боря"]).get(about).status_code == 404
    assert client_for(None).get(about).status_code == 404
    mine = client_for(users["Аня"]).get(about).content.decode()
    assert "Боря" in mine  # Боря bet on Аня (the file's night 1)
    results = reverse("games:show_results", args=[game.pk])
    assert client_for(users["Аня"]).get(results).status_code == 404
    assert client_for(None).get(results).status_code == 404
    assert client_for(game.gm).get(results).status_code == 200


def test_an_observer_writes_in_the_common_thread_for_a_fee_shown_before_and_counted_in_the_bank(db):
    """«Наблюдатели во время Шоу могут писать в общий чат за плату» (every message, no free limit):
    the reply form tells the observer the fee first, the post charges it to the show's bank, the close
    counts it in the bank as the ledger does; another rule set's running thread stays the players'."""
    from games.services.lifecycle import game_signup, game_start
    from tests.games.test_show_site import NAMES, ROLES, _create

    gm = make_user("Ведущий")
    game = _create(gm)
    users = {n: make_user(n) for n in NAMES}
    for name in NAMES:
        game_signup(game=game, user=users[name])
    game_start(game=game, by=gm, seed=7, roles_in_seat_order=ROLES)
    game.refresh_from_db()
    watcher = make_user("Наблюдатель")
    before = coins.balance_of(watcher)
    page = client_for(watcher).get(game.game_thread.get_absolute_url()).content.decode()
    assert 'data-message-fee="5"' in page and 'name="body"' in page  # the observer's fee, before he pays
    gm_page = client_for(gm).get(game.game_thread.get_absolute_url()).content.decode()
    assert "data-message-fee" not in gm_page  # the GM runs the show: nothing to pay
    post_submit(thread=game.game_thread, author=watcher, body="Болею за Аню!")
    post_submit(thread=game.game_thread, author=watcher, body="И ещё раз")
    assert coins.balance_of(watcher) == before - 10
    lines = Entry.objects.filter(reason="observer_fee", game=game)
    assert [(line.amount, line.stage) for line in lines] == [(5, "greetings"), (5, "greetings")]
    assert services.ledger_inputs(game.current_phase).extra["observer_fees"] == 10
    post_submit(thread=game.game_thread, author=gm, body="Ведущий напоминает о правилах")
    for name in NAMES:
        post_submit(thread=game.game_thread, author=users[name], body=f"Привет от {name}")
    game.refresh_from_db()
    assert (game.current_phase.kind, game.current_phase.number) == ("day", 1)
    bank = Account.objects.get(key=coins.game_key(game, "bank")).balance
    assert game_state(game).memory["coins"]["accounts"]["bank"] == bank  # the engine's bank counts the observer's fees
    # Another rule set's game thread is still the players' and the GM's (SiteRuleset.observers_post).
    from games.services.games import game_create

    forum = game_create(title="Обычная игра", gm=gm, ruleset="forum", size=7)
    with pytest.raises(ActionRefused):
        post_submit(thread=forum.game_thread, author=watcher, body="Можно мне?")
