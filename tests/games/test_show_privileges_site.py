"""The show's privileges on the site (issue 20, part 3; docs/rulesets/show.md, "Part 3 on the
site"): the GM's options, the holder's panel and its forms (the services write the ledger or apply
at once), the Говорун's /fake shown per viewer (and through the thread caches), the Секретарь's
live view, the Крот's hidden role, the stunned's silence, the carousel's theft."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Game, GameEvent, Order, Post, Thread
from games.rulesets.show.privileges import services as privs
from games.rulesets.show import services
from games.services import ActionRefused
from games.services.lifecycle import game_finish, game_signup, game_start
from games.services.posting import post_submit
from games.services.resolution import phase_close_if_due
from tests.conftest import client_for, make_user

pytestmark = pytest.mark.django_db

NAMES = ["Аня", "Боря", "Вера", "Жора", "Кира", "Лёва", "Миша"]
ROLES = ["mason", "mason", "reptiloid", "saviour", "demon", "reptiloid", "mason"]
HELD = {"Аня": ["secretary", "talker"], "Боря": ["bouncer"], "Вера": ["lawyer"], "Жора": ["authority"],
        "Кира": ["hacker"], "Лёва": ["mole"]}


def _create(gm, title="Шоу с привилегиями", **fields) -> Game:
    data = {"title": title, "ruleset": "show", "size": 7, "roles": "", "phase_hours": 24,
            "show_minutes_greetings": 60, "show_minutes_day": 60, "show_minutes_defence": 30,
            "show_minutes_revote": 30, "show_minutes_judge": 20, "show_minutes_night": 40,
            "show_timer_table": "8:100, 5:50, 0:25", **fields}
    response = client_for(gm).post(reverse("games:game_new"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return Game.objects.get(title=title)


def _start(held=HELD, **fields):
    gm = make_user("Ведущий")
    game = _create(gm, **fields)
    users = {n: make_user(n) for n in NAMES}
    for name in NAMES:
        game_signup(game=game, user=users[name])
    seats = {n: game.seats.get(user=users[n]) for n in NAMES}
    data = {seats[n].pk: {"privileges": ps} for n, ps in held.items()}
    game_start(game=game, by=gm, seed=11, roles_in_seat_order=ROLES, seat_data=data)
    game.refresh_from_db()
    return game, gm, users, seats


@pytest.fixture
def show(db):
    """Six heroes, every privilege of HELD in play (dealt as the scenario files fix them), the carousel."""
    return _start(show_privileges=sorted({p for ps in HELD.values() for p in ps}), show_carousel="on")


def _phase(game: Game) -> tuple[str, int]:
    game.refresh_from_db()
    return game.current_phase.kind, game.current_phase.number


def _greet_all(game, users):
    for name in NAMES:
        post_submit(thread=game.game_thread, author=users[name], body=f"Привет от {name}")
    assert _phase(game) == ("day", 1)


def _done(game, users):
    """«Я всё» from each hero: the optional inputs nobody gave (thefts, sympathies, bets, a stun, an
    exclusion) hold the stage no longer (issue 28, item 4)."""
    for user in users.values():
        services.show_done(game=game, user=user)


def _to_night(game, users, seats):
    _greet_all(game, users)
    for name in NAMES:
        assert services.show_vote(game=game, user=users[name], target=seats["Аня" if name == "Миша" else "Миша"]).accepted
    _done(game, users)
    assert _phase(game) == ("defence", 1)
    post_submit(thread=game.game_thread, author=users["Миша"], body="Я не виноват")
    _done(game, users)
    assert _phase(game) == ("revote", 1)
    for name in NAMES:
        if name != "Миша":
            services.show_vote(game=game, user=users[name], ballot="enslave")
    _done(game, users)
    _past_allies(game)
    assert _phase(game) == ("night", 1)


def _past_allies(game):
    """«Выбор Союзника» (part 2): nobody sent a sympathy, so it waits for nothing and runs no timer:
    due at once, the deadline task closes it (issue 28, item 15)."""
    assert _phase(game) == ("allies", 1)
    phase = game.current_phase
    assert phase.deadline_at == phase.opened_at
    assert phase_close_if_due(phase_id=phase.pk, now=phase.deadline_at)


def _post_li(html: str, number: int) -> str:
    match = re.search(rf'<li class="post[^"]*" id="p{number}".*?</li>', html, re.S)
    assert match, f"post #{number} not on the page"
    return match.group(0)


def test_the_gm_chooses_the_privileges_and_the_carousel_on_the_new_game_form_and_the_seed_deals_them(db):
    gm = make_user("Ведущий")
    game = _create(gm, show_privileges=["bouncer", "talker", "mole"], show_carousel="on")
    assert game.options["privileges"] == ["bouncer", "talker", "mole"] and game.options["carousel"] is True
    users = [make_user(n) for n in NAMES]
    for user in users:
        game_signup(game=game, user=user)
    game_start(game=game, by=gm, seed=5)
    game.refresh_from_db()
    dealt = game.state["memory"]["privileges"]
    assert sorted(p for ps in dealt.values() for p in ps) == ["bouncer", "mole", "talker"]
    # each holder is told his own, the GM all of them
    for seat, ps in dealt.items():
        event = GameEvent.objects.get(game=game, kind="privileges", audience=f"seat:{seat}")
        assert event.data["privileges"] == ps
    assert GameEvent.objects.filter(game=game, kind="privileges_gm", audience="gm").exists()
    # no privileges, no carousel: the form keeps it off
    other = _create(gm, title="Без привилегий", show_carousel="on")
    assert other.options["privileges"] == [] and other.options["carousel"] is False


def test_the_holders_panel_is_his_the_gms_and_nobody_elses(show):
    game, gm, users, seats = show
    mark = f'data-privilege="showpriv-{seats["Боря"].pk}-bouncer"'
    assert mark in client_for(users["Боря"]).get(game.get_absolute_url()).content.decode()
    for viewer in (users["Аня"], users["Вера"], make_user("Зритель"), None):
        assert mark not in client_for(viewer).get(game.get_absolute_url()).content.decode()
    # his full status lists them: his, the GM's, and everyone's after the end
    full = reverse("games:show_fullstatus", args=[game.pk, seats["Боря"].pk])
    for viewer in (users["Боря"], gm):
        assert mark in client_for(viewer).get(full).content.decode()
    assert client_for(users["Аня"]).get(full).status_code == 404
    game_finish(game=game, winner="masons", now=timezone.now())
    assert mark in client_for(None).get(full).content.decode()


def test_the_bouncers_stun_silences_the_stunned_until_the_night_ends(show):
    game, _gm, users, seats = show
    _greet_all(game, users)
    assert privs.show_stun(game=game, user=users["Боря"], target=seats["Аня"]).code == "not_your_action"  # by day
    _to_night_from_day(game, users, seats)
    url = reverse("games:show_privilege", args=[game.pk])
    client_for(users["Боря"]).post(url, {"act": "stun", "target": seats["Аня"].pk})
    row = Order.objects.get(phase=game.current_phase, actor=seats["Боря"], action="stun")
    assert row.valid and row.target_id == seats["Аня"].pk
    with pytest.raises(ActionRefused) as refused:
        post_submit(thread=game.game_thread, author=users["Аня"], body="Меня оглушили?")
    assert "оглуш" in str(refused.value.message).lower() or "stunned" in str(refused.value.message).lower()
    assert not Post.objects.filter(thread=game.game_thread, body="Меня оглушили?").exists()
    # one stun a night
    second = privs.show_stun(game=game, user=users["Боря"], target=seats["Жора"])
    assert not second.accepted and second.code == "stunned_tonight"  # the engine's check
    # the stunned keeps and owes his night choice until the night ends, as before the stun (issue 28,
    # item 5): the night waits for it, «Я всё» or not; the morning voids it (rule 5 aside)
    page = client_for(users["Аня"]).get(game.get_absolute_url()).content.decode()
    assert 'name="action" value="suspect"' in page and 'class="owed"' in page
    for name, action, target in (("Боря", "suspect", "Вера"), ("Жора", "save", "Боря"), ("Кира", "enslave", "Жора"),
                                 ("Вера", "enslave", "Жора"), ("Лёва", "suspect", "Вера")):
        services.show_order(game=game, user=users[name], action=action, target=seats[target])
    _done(game, users)
    assert _phase(game)[0] == "night"
    services.show_order(game=game, user=users["Аня"], action="suspect", target=seats["Вера"])
    assert _phase(game)[0] == "day"
    post_submit(thread=game.game_thread, author=users["Аня"], body="Снова говорю")  # the night is over


def _to_night_from_day(game, users, seats):
    for name in NAMES:
        services.show_vote(game=game, user=users[name], target=seats["Аня" if name == "Миша" else "Миша"])
    _done(game, users)
    post_submit(thread=game.game_thread, author=users["Миша"], body="Я не виноват")
    _done(game, users)
    for name in NAMES:
        if name != "Миша":
            services.show_vote(game=game, user=users[name], ballot="enslave")
    _done(game, users)
    _past_allies(game)
    assert _phase(game) == ("night", 1)


def test_the_lawyers_exclusion_takes_a_hero_off_the_next_days_vote_list(show):
    game, _gm, users, seats = show
    _to_night(game, users, seats)
    assert privs.show_exclude(game=game, user=users["Аня"], target=seats["Жора"]).code == "not_your_action"
    assert privs.show_exclude(game=game, user=users["Вера"], target=seats["Жора"], early_close=False).accepted
    for name, action, target in (("Аня", "suspect", "Вера"), ("Боря", "suspect", "Вера"), ("Жора", "save", "Боря"),
                                 ("Кира", "enslave", "Боря"), ("Вера", "enslave", "Боря"), ("Лёва", "suspect", "Вера")):
        services.show_order(game=game, user=users[name], action=action, target=seats[target])
    _done(game, users)  # the bets «до утра» and the unused stun hold the night
    assert _phase(game) == ("day", 2)
    assert GameEvent.objects.filter(game=game, kind="excluded", audience="public").exists()
    refused = services.show_vote(game=game, user=users["Аня"], target=seats["Жора"])
    assert not refused.accepted


def test_the_authoritys_extra_vote_and_the_secretarys_live_view_without_its_owner(show):
    game, gm, users, seats = show
    _greet_all(game, users)
    assert services.show_vote(game=game, user=users["Боря"], target=seats["Кира"]).accepted
    url = reverse("games:show_privilege", args=[game.pk])
    client_for(users["Жора"]).post(url, {"act": "extra_vote", "target": seats["Лёва"].pk})
    row = Order.objects.get(actor=seats["Жора"], action="extra_vote")
    assert row.valid and row.target_id == seats["Лёва"].pk
    assert privs.show_extra_vote(game=game, user=users["Кира"], target=seats["Лёва"]).code == "not_your_action"
    mark = f'data-secretary="showsec-{seats["Боря"].pk}-{seats["Кира"].pk}"'
    secretary = client_for(users["Аня"]).get(game.get_absolute_url()).content.decode()
    assert mark in secretary
    section = secretary[secretary.index('class="secretary"'):]
    section = section[:section.index("</div>")]
    assert "Лёва" in section and "Жора" not in section  # the extra vote's target, not its owner
    for viewer in (users["Боря"], users["Кира"], users["Жора"], None):
        assert mark not in client_for(viewer).get(game.get_absolute_url()).content.decode()
    assert "extra_votes" in services.ledger_inputs(game.current_phase).extra


def test_the_moles_button_puts_a_free_hero_into_coma_at_once_once_a_stage(show):
    game, _gm, users, seats = show
    _greet_all(game, users)
    url = reverse("games:show_privilege", args=[game.pk])
    client_for(users["Лёва"]).post(url, {"act": "mole", "target": seats["Жора"].pk})
    game.refresh_from_db()
    assert str(seats["Жора"].pk) in game.state["memory"]["coma"]
    buried = GameEvent.objects.get(game=game, kind="buried")
    assert buried.audience == "public" and "Лёва" not in str(buried.data)
    again = privs.show_mole(game=game, user=users["Лёва"], target=seats["Аня"])
    assert not again.accepted and again.code == "mole_used"
    assert privs.show_mole(game=game, user=users["Аня"], target=seats["Боря"]).code == "not_your_action"


def test_the_mole_does_not_know_his_role_and_his_partner_does_not_know_his_name(show):
    game, gm, users, seats = show
    role_url = reverse("games:role", args=[game.pk])
    mole_page = client_for(users["Лёва"]).get(role_url).content.decode()
    assert "Рептилоид" not in mole_page and "Reptiloid" not in mole_page
    partner_page = client_for(users["Вера"]).get(role_url).content.decode()
    team = re.search(r"<p>Ваша команда.*?</p>", partner_page, re.S)
    assert team is None or "Лёва" not in team.group(0)
    team_event = GameEvent.objects.get(game=game, kind="team")
    assert "Лёва" not in str(team_event.data) and team_event.data["unnamed"] == 1
    faction = Thread.objects.get(game=game, kind=Thread.Kind.FACTION, faction="reptiloids")
    assert client_for(users["Лёва"]).get(faction.get_absolute_url()).status_code == 404
    assert client_for(users["Вера"]).get(faction.get_absolute_url()).status_code == 200
    full = client_for(users["Лёва"]).get(reverse("games:show_fullstatus", args=[game.pk, seats["Лёва"].pk]))
    assert "Рептилоид" not in full.content.decode()
    # his panel and his /fullstatus say that he must find it out (not «— (None)», not «Вы — Неизвестна»,
    # issue 28, item 14)
    panel = client_for(users["Лёва"]).get(game.get_absolute_url()).content.decode()
    assert "Вы не знаете своей Роли: её предстоит выяснить в ходе Шоу." in panel and "Вы — Неизвестна" not in panel
    assert "Роль: неизвестна вам, её предстоит выяснить в ходе Шоу." in full.content.decode()
    for page in (full.content.decode(), panel):
        assert "(None)" not in page and "(—)" not in page
    assert "Рептилоид" in client_for(gm).get(reverse("games:show_fullstatus", args=[game.pk, seats["Лёва"].pk])).content.decode()


def test_the_talkers_fake_is_shown_as_the_chosen_hero_to_all_but_the_gm_and_after_the_end(show):
    game, gm, users, seats = show
    thread = game.game_thread
    page = client_for(users["Аня"]).get(thread.get_absolute_url()).content.decode()
    assert 'name="shown_as"' in page
    assert 'name="shown_as"' not in client_for(users["Боря"]).get(thread.get_absolute_url()).content.decode()
    response = client_for(users["Аня"]).post(reverse("games:thread_reply", args=[thread.pk]),
                                             {"body": "Я Жора, честно", "shown_as": users["Жора"].pk, "post": "1"})
    assert response.status_code == 302
    post = Post.objects.get(thread=thread, body="Я Жора, честно")
    assert post.author == users["Аня"] and post.shown_author == users["Жора"]
    assert Order.objects.filter(actor=seats["Аня"], action="fake", target=seats["Жора"], valid=True).exists()
    # a player first (the list is cached for his class), then the GM, then the player again
    for viewer, shown in ((users["Кира"], "Жора"), (gm, "Аня"), (users["Кира"], "Жора"), (None, "Жора")):
        li = _post_li(client_for(viewer).get(thread.get_absolute_url() + "?page=last").content.decode(), post.number)
        author = re.search(r'class="post-author"[^>]*>(?:<img[^>]*>)?([^<]*)<', li).group(1)
        assert author == shown, (viewer, li)
    gm_li = _post_li(client_for(gm).get(thread.get_absolute_url()).content.decode(), post.number)
    assert "Жора" in gm_li  # «shown as Жора»
    # ISO and quotes follow the shown author
    iso = client_for(users["Кира"]).get(thread.get_absolute_url() + f"?iso={users['Аня'].pk}").content.decode()
    assert 'id="p%d"' % post.number not in iso
    iso = client_for(users["Кира"]).get(thread.get_absolute_url() + f"?iso={users['Жора'].pk}").content.decode()
    assert 'id="p%d"' % post.number in iso
    quote = client_for(users["Кира"]).get(reverse("games:post_quote", args=[thread.pk, post.number])).content.decode()
    assert "Жора" in quote and "Аня" not in quote
    profile = client_for(None).get(reverse("accounts:profile", args=[users["Аня"].pk])).content.decode()
    assert "Я Жора, честно" not in profile
    game_finish(game=game, winner="masons", now=timezone.now())
    li = _post_li(client_for(None).get(thread.get_absolute_url()).content.decode(), post.number)
    assert "Аня" in li


def test_the_talkers_fakes_are_five_a_stage_and_nobody_else_fakes(show):
    game, _gm, users, seats = show
    thread = game.game_thread
    for n in range(5):
        post_submit(thread=thread, author=users["Аня"], body=f"фейк {n}", shown_as=users["Боря"].pk)
    with pytest.raises(ActionRefused):
        post_submit(thread=thread, author=users["Аня"], body="шестой", shown_as=users["Боря"].pk)
    with pytest.raises(ActionRefused):
        post_submit(thread=thread, author=users["Боря"], body="я не Говорун", shown_as=users["Аня"].pk)
    with pytest.raises(ActionRefused):  # not as himself
        privs_post = post_submit(thread=thread, author=users["Аня"], body="сам", shown_as=users["Аня"].pk)
        assert privs_post is None
    assert not Post.objects.filter(body__in=["шестой", "я не Говорун", "сам"]).exists()
    assert Post.objects.filter(thread=thread, author=users["Аня"], shown_author=users["Боря"]).count() == 5


def test_the_sixth_fake_is_refused_with_a_reason_and_the_reply_form_says_why(show):
    """Issue 28, item 20: after five fakes «Отправить от имени» leaves the reply form with a line
    saying why, and a sixth post signed as another hero (a page opened before) is refused, worded,
    instead of going out silently under his own name; a slave is never offered as a false sender."""
    game, _gm, users, seats = show
    thread = game.game_thread
    url = reverse("games:thread", args=[thread.pk])
    page = client_for(users["Аня"]).get(url).content.decode()
    assert 'name="shown_as"' in page and 'data-fakes-left="0"' not in page
    for n in range(5):
        post_submit(thread=thread, author=users["Аня"], body=f"фейк {n}", shown_as=users["Боря"].pk)
    page = client_for(users["Аня"]).get(url).content.decode()
    assert 'name="shown_as"' not in page and 'data-fakes-left="0"' in page
    response = client_for(users["Аня"]).post(reverse("games:thread_reply", args=[thread.pk]),
                                             {"body": "шестой", "shown_as": users["Боря"].pk, "post": "1"}, follow=True)
    assert "не больше пяти сообщений за Этап под чужим именем" in response.content.decode()
    assert not Post.objects.filter(body="шестой").exists()
    # a slave (Миша, after the re-vote) is not offered as a sender, and refused by the engine
    _to_night(game, users, seats)
    assert game.seats.get(pk=seats["Миша"].pk).status == "enslaved"
    senders = {uid for uid, _name in privs.sender_choices(game=game, user=users["Аня"])}
    assert users["Миша"].pk not in senders and users["Боря"].pk in senders
    with pytest.raises(ActionRefused):
        post_submit(thread=thread, author=users["Аня"], body="как раб", shown_as=users["Миша"].pk)


def test_a_carousel_theft_ordered_after_the_day_vote_is_resolved_as_the_night_begins(show):
    game, _gm, users, seats = show
    _greet_all(game, users)
    early = privs.show_steal(game=game, user=users["Боря"], target=seats["Вера"])
    assert not early.accepted and early.code == "not_after_vote"
    for name in NAMES:
        services.show_vote(game=game, user=users[name], target=seats["Аня" if name == "Миша" else "Миша"])
        if name == "Боря":
            assert privs.show_steal(game=game, user=users["Боря"], target=seats["Вера"]).accepted
    _done(game, users)
    post_submit(thread=game.game_thread, author=users["Миша"], body="Я не виноват")
    _done(game, users)
    for name in NAMES:
        if name != "Миша":
            services.show_vote(game=game, user=users[name], ballot="enslave")
    _done(game, users)
    _past_allies(game)
    assert _phase(game) == ("night", 1)
    game.refresh_from_db()
    held = game.state["memory"]["privileges"]
    assert held.get(str(seats["Боря"].pk)) == ["bouncer", "lawyer"] and not held.get(str(seats["Вера"].pk))
    assert GameEvent.objects.filter(game=game, kind="privilege_stolen", audience=f"seat:{seats['Боря'].pk}").exists()


def test_the_talkers_paid_messages_cost_him_nothing_but_his_anonymous_ones_do(show):
    """«Любые платные сообщения (кроме анонимных) НЕ отбирают в Банк монеты у обладателя» (Говорун):
    the site charges its message fees through the engine's one rule (privileges.adjust_transfers):
    past the free limit the Говорун (Аня) pays nothing and his reply form says so, another hero pays;
    an anonymous message costs him its fee as it costs anyone."""
    from coins import services as coins
    from games.communication.anonymous import anonymous_send
    from games.rulesets.show.coins.services import next_message_fee

    game, _gm, users, seats = show
    _greet_all(game, users)
    game.refresh_from_db()
    game.state["options"] = {**game.state["options"], "free_messages": 0, "message_fee": 3}  # the GM's numbers
    game.save(update_fields=["state"])
    talker, other = users["Аня"], users["Миша"]
    before = {u: coins.balance_of(u) for u in (talker, other)}
    assert next_message_fee(game=game, user=talker) == 0 and next_message_fee(game=game, user=other) == 3
    post_submit(thread=game.game_thread, author=talker, body="Я говорю бесплатно")
    post_submit(thread=game.game_thread, author=other, body="А я плачу")
    assert coins.balance_of(talker) == before[talker]
    assert coins.balance_of(other) == before[other] - 3
    anonymous_send(game=game, user=talker, recipient=seats["Боря"], text="Аноним")
    assert coins.balance_of(talker) == before[talker] - 5


def test_the_hackers_guess_is_answered_at_once_and_shown_only_to_him(show):
    """«Как только кто-то получает Тайное Знание, Хакер имеет возможность перехватить его себе если
    угадает, НА КОГО или КЕМ оно было получено (за ограниченное время).» The site answers the guess
    at once: the key is his from that moment (and the stage's close reports it)."""
    game, gm, users, seats = show
    _greet_all(game, users)
    for name in NAMES:
        services.show_vote(game=game, user=users[name], target=seats["Аня" if name == "Миша" else "Миша"])
    _done(game, users)  # the carousel's thefts nobody ordered hold the day vote (issue 28, item 4)
    assert _phase(game) == ("defence", 1)
    game.refresh_from_db()
    rights = {int(k): v for k, v in game.state["memory"]["knowledge_rights"].items() if v}
    (winner_pk,) = rights
    winner = next(n for n in NAMES if seats[n].pk == winner_pk)
    about = next(n for n in NAMES if n not in (winner, "Кира"))
    assert services.show_use_knowledge(game=game, user=users[winner], target=seats[about]).accepted
    hacker_page = client_for(users["Кира"]).get(game.get_absolute_url()).content.decode()
    assert 'name="act" value="intercept"' in hacker_page and "№ 1" in hacker_page
    # somebody else may not guess; a guess about nobody is refused and changes nothing
    assert privs.show_intercept(game=game, user=users["Аня"], number=1, field="about", target=seats[about]).code \
        == "not_your_action"
    assert privs.show_intercept(game=game, user=users["Кира"], number=7, field="about", target=seats[about]).code \
        == "no_open_knowledge"
    url = reverse("games:show_privilege", args=[game.pk])
    client_for(users["Кира"]).post(url, {"act": "intercept", "number": 1, "field": "receiver", "target": seats[winner].pk})
    game.refresh_from_db()
    kira = str(seats["Кира"].pk)
    caught = [i for i in game.state["memory"]["secret_keys"].get(kira, ()) if i.get("source") == "hacked"]
    assert [int(i["about"]) for i in caught] == [seats[about].pk]
    told = GameEvent.objects.get(game=game, kind="intercept_result")
    assert told.audience == f"seat:{seats['Кира'].pk}" and told.data["right"] is True
    assert GameEvent.objects.get(game=game, kind="intercept_gm").audience == "gm"
    # his panel shows what he caught; nobody else's does, and the number is spent for him
    hacker_page = client_for(users["Кира"]).get(game.get_absolute_url()).content.decode()
    assert "Перехвачено" in hacker_page and 'value="intercept"' not in hacker_page
    for name in ("Аня", winner, about):
        assert "Перехвачено" not in client_for(users[name]).get(game.get_absolute_url()).content.decode()
    again = privs.show_intercept(game=game, user=users["Кира"], number=1, field="about", target=seats[about])
    assert not again.accepted and again.code == "guessed_before"
    # the close reports it in its outcome
    post_submit(thread=game.game_thread, author=users["Миша"], body="Я не виноват")
    _done(game, users)
    game.refresh_from_db()
    defence = game.phases.get(kind="defence", number=1)
    assert defence.outcome["intercepted"] == {"Кира": {about: caught[0]["key"]}}


def test_the_genius_reads_on_his_panel_who_became_judge_this_morning():
    """«По утрам знает, кто стал Судьёй.» (the judge is not public in this show)"""
    game, gm, users, seats = _start(held={"Аня": ["genius"]}, show_privileges=["genius"], show_judge="private")
    _to_night(game, users, seats)
    for name, action, target in (("Аня", "suspect", "Вера"), ("Боря", "suspect", "Вера"), ("Жора", "save", "Боря"),
                                 ("Кира", "enslave", "Жора"), ("Вера", "enslave", "Жора"), ("Лёва", "enslave", "Жора")):
        services.show_order(game=game, user=users[name], action=action, target=seats[target])
    _done(game, users)  # the bets «до утра»
    assert _phase(game) == ("day", 2)
    judge_pk = int(game.state["memory"]["judge"])
    judge = next(n for n in NAMES if seats[n].pk == judge_pk)
    page = client_for(users["Аня"]).get(game.get_absolute_url()).content.decode()
    assert f"Судья сегодня: <strong>{judge}</strong>" in page
    for name in ("Боря", "Вера"):
        assert "Судья сегодня" not in client_for(users[name]).get(game.get_absolute_url()).content.decode()


def test_a_reported_fake_names_the_shown_hero_to_the_moderators_and_the_ban_falls_on_its_writer(show):
    """The Говорун's true authorship is the GMs' and the archive's: the report page and the
    moderators' queue name the hero shown; a moderator outside the game is told that the name is
    signed and that a ban falls on the one who wrote it (tests/security covers every perspective)."""
    from django.contrib.auth.models import Group

    from games.models import Report
    from games.permissions import MODERATORS_GROUP

    game, _gm, users, seats = show
    _greet_all(game, users)
    fake = post_submit(thread=game.game_thread, author=users["Аня"], body="Это я, Боря", shown_as=users["Боря"].pk)
    page = client_for(users["Боря"]).get(reverse("games:post_report", args=[fake.pk])).content.decode()
    assert '<span class="post-author">Боря</span>' in page and "Аня" not in page
    client_for(users["Боря"]).post(reverse("games:post_report", args=[fake.pk]), {"reason": "Это писал не я"})
    report = Report.objects.get(post=fake)
    moderator = make_user("Модератор")
    moderator.groups.add(Group.objects.get_or_create(name=MODERATORS_GROUP)[0])
    queue = client_for(moderator).get(reverse("games:reports")).content.decode()
    assert '<span class="post-author">Боря</span>' in queue and "Аня" not in queue
    assert "бан получит настоящий автор" in queue
    # a moderator who plays in the game is not told that the name is signed
    users["Вера"].groups.add(Group.objects.get(name=MODERATORS_GROUP))
    playing = client_for(users["Вера"]).get(reverse("games:reports")).content.decode()
    assert '<span class="post-author">Боря</span>' in playing and "бан получит" not in playing and "Аня" not in playing
    until = (timezone.localtime() + timezone.timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    asked = client_for(moderator).post(reverse("games:report_action", args=[report.pk]),
                                       {"action": "ban", "until": until, "reason": "подделка"}).content.decode()
    assert "Боря" in asked and "Аня" not in asked  # the question names the hero shown
    client_for(moderator).post(reverse("games:report_action", args=[report.pk]),
                               {"action": "ban", "until": until, "reason": "подделка", "confirm": "yes"})
    for name in ("Аня", "Боря"):
        users[name].refresh_from_db()
    assert users["Аня"].banned_until is not None and users["Боря"].banned_until is None


def test_the_secretarys_view_is_live_for_him_and_a_404_for_the_others(show):
    """«Секретарь видит, кто за кого голосует на всех Дневных Голосованиях»: as it happens — his
    panel's block asks games:show_secretary again every few seconds; nobody else gets an answer."""
    game, gm, users, seats = show
    _greet_all(game, users)
    url = reverse("games:show_secretary", args=[game.pk])
    panel = client_for(users["Аня"]).get(game.get_absolute_url()).content.decode()
    assert f'hx-get="{url}"' in panel and 'hx-trigger="every ' in panel
    assert services.show_vote(game=game, user=users["Боря"], target=seats["Кира"]).accepted
    live = client_for(users["Аня"]).get(url)
    assert live.status_code == 200 and "Боря → Кира" in live.content.decode()
    assert "no-store" in live["Cache-Control"]
    for who in ("Боря", "Кира"):
        assert client_for(users[who]).get(url).status_code == 404
    assert client_for(gm).get(url).status_code == 404  # the GM has no seat: he looks as the Секретарь
    as_her = client_for(gm).get(url, {"pov": seats["Аня"].pk})
    assert as_her.status_code == 200 and "Боря → Кира" in as_her.content.decode()
    assert f'?pov={seats["Аня"].pk}' in as_her.content.decode()
    assert client_for(users["Боря"]).get(url, {"pov": seats["Аня"].pk}).status_code == 404  # only GMs use pov
    # the vote over (the defence runs): the block says so and stops asking (htmx's 286)
    for name in NAMES:
        services.show_vote(game=game, user=users[name], target=seats["Аня" if name == "Миша" else "Миша"])
    _done(game, users)  # the carousel's thefts nobody ordered hold the day vote (issue 28, item 4)
    assert _phase(game) == ("defence", 1)
    over = client_for(users["Аня"]).get(url)
    assert over.status_code == 286 and "hx-get" not in over.content.decode()


def test_an_optional_input_holds_the_night_until_given_or_said_done(show):
    """Issue 28, item 4: «Любой этап заканчивается либо когда все активные герои совершают
    необходимое ...» — and nothing anyone may still do in it is left open. The Адвокат's exclusion
    («По ночам Адвокат ... может выбрать») and the bets («может до утра поменять») keep the night
    open after the last required choice, until each holder gives his input or says «Я всё»."""
    game, gm, users, seats = show
    _to_night(game, users, seats)
    for name, action, target in (("Аня", "suspect", "Вера"), ("Боря", "suspect", "Вера"), ("Жора", "save", "Боря"),
                                 ("Кира", "enslave", "Боря"), ("Вера", "enslave", "Боря"), ("Лёва", "suspect", "Вера")):
        services.show_order(game=game, user=users[name], action=action, target=seats[target])
    assert _phase(game) == ("night", 1)  # every required choice is in: the exclusion form did not vanish
    page = client_for(users["Вера"]).get(game.get_absolute_url()).content.decode()
    assert 'name="act" value="exclude"' in page and "data-optional-open" in page
    gm_page = client_for(gm).get(reverse("games:gm_dashboard", args=[game.pk])).content.decode()
    held = gm_page[gm_page.index("Открытым его держат"):][:300]
    assert "Вера" in held
    assert privs.show_exclude(game=game, user=users["Вера"], target=seats["Жора"]).accepted
    for name in NAMES:
        if name != "Вера":
            services.show_done(game=game, user=users[name])
    assert _phase(game) == ("night", 1)  # Вера's own bet is still open
    result = services.show_done(game=game, user=users["Вера"])
    assert result.accepted and result.closed
    assert _phase(game) == ("day", 2)
    assert GameEvent.objects.filter(game=game, kind="excluded", audience="public").exists()
