"""A fourth seeded world for the URL sweep: a running `show` with all eleven privileges in play
(issue 20, part 3) and the carousel, at its second day vote, read by every perspective through
every URL pattern as the other worlds are (test_url_perspectives.py's sweep and judge):

- each holder's privileges (`showpriv-<seat>-<key>`, his panel and his /fullstatus): the holder and
  the GMs while the show runs, everyone after the end (part 1's and 2's secrets of show_world.py
  are here too: every event that is not public, the heroes' marks, the ballots);
- the Говорун's post in the game thread signed as Гоша: who really wrote it (Аня, who writes
  nothing else, shown as a post's author anywhere) is the GMs' until the end; the post itself
  and the name it is signed with are everybody's;
- the Секретарь's live view of the running day vote (`showsec-<voter>-<target>`): the Секретарь
  (a slave since the night: «даже из рабства») and the GMs;
- the Крот (Зина, a Reptiloid): his role is hidden even from him while the show runs (the team
  chat too: a post of his partner there is the GMs' and the partner's); the Вышибала's stun, the
  Адвокат's exclusion, the carousel's theft, the Авторитет's extra vote and the Крот's /mole are
  played, so their events (the stunned's, the thief's, the GMs' notes) are swept as canaries.

Perspectives: the anonymous, a spectator, the Говорун (Аня), the Секретарь and a slave (Боря), the
Крот (Зина), the Вышибала-Адвокат-Гений (Жора), a hero who holds nothing (Гоша), a slave of the
re-vote (Вера, the Хакер and Бинго), the GM, another game's GM and a site moderator."""

from __future__ import annotations

from django.contrib.auth.models import Group
from django.urls import reverse
from django.utils import timezone

from games.models import Game, Order, Thread
from games.permissions import MODERATORS_GROUP
from games.rulesets.show.privileges import services as privs
from games.rulesets.show.engine.privilege_keys import PRIVILEGES
from games.rulesets.show.services import show_order, show_use_knowledge as use_knowledge, show_vote
from games.services.games import game_create
from games.services.lifecycle import game_finish, game_signup, game_start
from games.services.moderation import report_create
from games.services.posting import post_submit
from games.services.threads import thread_create
from tests.conftest import make_user
from tests.security.conftest import GMS, MARKER, World, _other_game
from tests.security.show_world import _close, game_secrets

S_FAKE = "зябликговорун"     # the body of the Говорун's post signed as Гоша (public: only its author is secret)
S_TEAM = "зябликкротнечитает"  # Илья's post in the Reptiloids' chat, which the Крот does not read

PLAYERS = {"Аня": ("anya", "mason"), "Боря": ("borya", "mason"), "Вера": ("vera", "mason"),
           "Гоша": ("gosha", "mason"), "Жора": ("zhora", "saviour"), "Зина": ("zina", "reptiloid"),
           "Илья": ("ilya", "reptiloid"), "Кира": ("kira", "demon")}
# Every privilege dealt to a fixed hero (the Змеёныш to a non-Reptiloid, as the rules want).
HELD = {"Аня": ["talker"], "Боря": ["secretary"], "Вера": ["bingo", "hacker"], "Жора": ["bouncer", "genius", "lawyer"],
        "Зина": ["mole"], "Илья": ["hare", "authority"], "Кира": ["snakelet"]}
TALKER, SECRETARY, MOLE = "anya", "borya", "zina"
MOLE_ROLE = "рептилоид"  # the Крот's role as the Russian UI names it (lower case, every case form's stem)
PERSPECTIVES = ("anonymous", "spectator", "anya", "borya", "zina", "zhora", "gosha", "vera", "gm", "other_gm",
                "moderator")


def build_show_privileges_world() -> World:
    gm = make_user("Ведущий шоу")
    game = game_create(title="Шоу с привилегиями", gm=gm, ruleset="show", size=len(PLAYERS),
                       options={"privileges": list(PRIVILEGES), "carousel": True})
    users = {}
    for name in PLAYERS:
        users[name] = make_user(name)
        game_signup(game=game, user=users[name])
    seats = {name: game.seats.get(user=users[name]) for name in PLAYERS}
    game_start(game=game, by=gm, seed=11, roles_in_seat_order=[role for _key, role in PLAYERS.values()],
               seat_data={seats[name].pk: {"privileges": held} for name, held in HELD.items()})
    game.refresh_from_db()
    assert {int(k): v for k, v in game.state["memory"]["privileges"].items()} == {
        seats[name].pk: sorted(held, key=PRIVILEGES.index) for name, held in HELD.items()}
    seat = {name: game.seats.get(user=users[name]) for name in PLAYERS}
    # Greetings: a text post stands in for each; Аня (the Говорун) writes nothing under her own name
    # in the whole world, so her name as a post's author anywhere is the truth of her fake post.
    for name in PLAYERS:
        if name != "Аня":
            post_submit(thread=game.game_thread, author=users[name], body=f"Привет, я {name}.")
    _close(game)
    assert (game.current_phase.kind, game.current_phase.number) == ("day", 1), game.current_phase
    for name in PLAYERS:
        assert show_vote(game=game, user=users[name], target=seat["Аня" if name == "Вера" else "Вера"],
                         early_close=False).accepted
    _close(game)
    post_submit(thread=game.game_thread, author=users["Вера"], body="Я не виновата!")  # her defence
    game.refresh_from_db()
    # the first sympathy nobody sent holds the defence open (issue 28, item 4): to its timer
    assert game.current_phase.kind == "defence", game.current_phase
    _close(game)
    assert game.current_phase.kind == "revote", game.current_phase
    for name in PLAYERS:
        if name != "Вера":
            show_vote(game=game, user=users[name], ballot="enslave", early_close=False)
    _close(game)
    assert game.current_phase.kind == "allies", game.current_phase
    _close(game)
    assert game.current_phase.kind == "night", game.current_phase
    # Night 1: the Вышибала stuns the Demon, the Адвокат takes Илья off day 2's list; Илья alone
    # enslaves (his partner is the Крот, who picks like a Mason).
    assert privs.show_stun(game=game, user=users["Жора"], target=seat["Кира"]).accepted
    assert privs.show_exclude(game=game, user=users["Жора"], target=seat["Илья"], early_close=False).accepted
    for name, action, target in (("Аня", "suspect", "Зина"), ("Боря", "suspect", "Илья"), ("Гоша", "suspect", "Зина"),
                                 ("Жора", "save", "Гоша"), ("Зина", "suspect", "Гоша"), ("Илья", "enslave", "Боря")):
        result = show_order(game=game, user=users[name], action=action, target=seat[target], early_close=False)
        assert result.accepted, (name, result.code)
    _close(game)
    assert (game.current_phase.kind, game.current_phase.number) == ("day", 2), game.current_phase
    assert game.seats.get(pk=seat["Боря"].pk).status == "enslaved"
    # Day 2: standing ballots the Секретарь sees live, the Авторитет's extra vote, a carousel theft
    # ordered after Гоша's ballot, the Крот's /mole, and the Говорун's post signed as Гоша.
    for name, target in (("Гоша", "Кира"), ("Зина", "Аня"), ("Кира", "Зина")):
        assert show_vote(game=game, user=users[name], target=seat[target], early_close=False).accepted
    assert privs.show_extra_vote(game=game, user=users["Илья"], target=seat["Кира"], early_close=False).accepted
    assert privs.show_steal(game=game, user=users["Гоша"], target=seat["Жора"]).accepted
    assert privs.show_mole(game=game, user=users["Зина"], target=seat["Жора"]).accepted
    fake = post_submit(thread=game.game_thread, author=users["Аня"], body=f"{MARKER} Это я, Гоша. {S_FAKE}",
                       shown_as=users["Гоша"].pk)
    assert fake.author == users["Аня"] and fake.shown_author == users["Гоша"]
    # Day 1's Secret Knowledge is used; Вера, the Хакер (a slave: «даже из рабства»), intercepts it
    # by its receiver, answered at once: her panel lists the key caught.
    game.refresh_from_db()
    (winner,) = [n for n in PLAYERS if game.state["memory"]["knowledge_rights"].get(str(seat[n].pk))]
    about = next(n for n in ("Гоша", "Аня", "Жора") if n != winner)
    assert use_knowledge(game=game, user=users[winner], target=seat[about]).accepted
    assert privs.show_intercept(game=game, user=users["Вера"], number=1, field="receiver", target=seat[winner]).accepted
    game.refresh_from_db()
    assert [i["about"] for i in game.state["memory"]["secret_keys"][str(seat["Вера"].pk)]
            if i.get("source") == "hacked"] == [seat[about].pk]
    post = post_submit(thread=game.game_thread, author=users["Гоша"], body="Доброе утро.")
    team = game.private_threads.get(kind=Thread.Kind.FACTION, faction="reptiloids")
    post_submit(thread=team, author=users["Илья"], body=f"Напарник молчит. {S_TEAM}")

    other, other_gm = _other_game()
    spectator, staff, moderator = make_user("Зритель"), make_user("Админ", staff=True), make_user("Модератор")
    moderator.groups.add(Group.objects.get_or_create(name=MODERATORS_GROUP)[0])
    report = report_create(post=post, reporter=users["Гоша"], reason="Флуд")
    # the fake post reported too: the moderators' queue names its author as shown, not the truth
    report_create(post=fake, reporter=users["Гоша"], reason="Это писал не я")
    lobby, _post = thread_create(kind=Thread.Kind.LOBBY, title="Лобби", author=spectator, body="Кто играет?")
    by_key = {key: users[name] for name, (key, _role) in PLAYERS.items()}
    seat_by_key = {key: seat[name] for name, (key, _role) in PLAYERS.items()}
    seat_by_key["vasya"] = seat_by_key["gosha"]       # the thread page's author filter (?iso=)
    seat_by_key["kikimora"] = seat_by_key[SECRETARY]  # the seat the GMs' point of view is tried as
    world_users = {"anonymous": None, "spectator": spectator, "other_gm": other_gm, "gm": gm, "staff": staff,
                   "moderator": moderator, **by_key}
    return World(game=game, other=other, users=world_users, seats=seat_by_key, posts={"morning": post, "fake": fake},
                 report=report, lobby=lobby)


def true_author_marks(world: World) -> tuple[set[str], set[str]]:
    """The Говорун's name as a post's author on every page that names one (the thread's post list,
    search hits, the feed, a quote, the post's history): she wrote nothing else, so each is the
    truth of her fake post. Returns (the marks, those a GM need not find: pages the sweep visits
    for the thread, not for this post)."""
    talker = world.users[TALKER]
    name = talker.display_name.lower()
    profile = reverse("accounts:profile", args=[talker.pk])
    marks = {f'class="post-author" href="{profile}"', f'<span class="post-author">{name}</span>',
             f"<name>{name}</name>", f'[quote="{name}"]', f"[quote=&quot;{name}&quot;]", f"· {name} ·",
             'class="badge signed-as"'}
    return marks, marks - {f'class="post-author" href="{profile}"', 'class="badge signed-as"'}


def privilege_secrets(world: World) -> tuple[dict[str, set[str]], set[str]]:
    """Every canary of the privileged world with who may see it among the perspectives; and those
    not every allowed perspective need find."""
    game = world.game
    key_of_seat = {s.pk: key for key, s in world.seats.items() if key in PERSPECTIVES}
    game.refresh_from_db()
    state = game.state

    def holder(seat_pk: int) -> set[str]:
        return ({key_of_seat[seat_pk]} if seat_pk in key_of_seat else set()) | GMS

    # The Reptiloids' team events and chat reach Илья only: his partner is the Крот.
    secrets: dict[str, set[str]] = {S_TEAM: set(GMS)}
    marks, not_required = true_author_marks(world)
    for mark in marks:
        secrets[mark] = set(GMS)
    for seat_pk, held in state["memory"]["privileges"].items():
        for key in held:
            secrets[f"showpriv-{seat_pk}-{key}"] = holder(int(seat_pk))
    for item in state["memory"]["secret_keys"].get(str(world.seats["vera"].pk), ()):
        if item.get("source") == "hacked":  # the Хакер's catch, on her panel
            secrets[f"showhack-{world.seats['vera'].pk}-{item['about']}"] = holder(world.seats["vera"].pk)
    for row in Order.objects.filter(phase=game.current_phase, action="vote", valid=True):
        target = (row.detail or {}).get("ballot") or row.target_id
        secrets[f"showsec-{row.actor_id}-{target}"] = {SECRETARY} | GMS
    secrets, shared = game_secrets(world, PERSPECTIVES, set(), secrets)
    return secrets, shared | not_required


def finished(world: World) -> Game:
    """The world's game, finished now (inside the calling test's savepoint)."""
    game = Game.objects.get(pk=world.game.pk)
    game_finish(game=game, winner="masons", now=timezone.now())
    return game
