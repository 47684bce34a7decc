"""A third seeded world for the URL sweep: a running `show` (issue 18) at its second day vote, with
every kind of secret the show keeps, read by every perspective through every URL pattern as the
forum world of conftest.py is:

- each hero's role, innate keys, Secret Knowledge and won lots (events to one seat), the
  Reptiloids' team event, the GM's night choices (Mason suspicions included), judge's lot and
  Secret Knowledge lot: every event that is not public is a canary (its stored text), seen only by
  its audience and the GMs;
- the running day vote's ballots (hidden until the stage's close): the mark of each standing
  ballot (`showballot-<voter>-<target>`) is seen by the voter and the GMs only;
- the slaves' chat (the game's lounge): a slave's post and its media file, seen (and heard) by the
  slaves and the observers (logged-in non-players) and never by a free hero or the anonymous;
- the Reptiloids' chat: a post seen by the Reptiloids and the GMs;
- part 2 (issue 19): each hero's bet and who bet on him (`showbet-<seat>`, «Обо мне»: the hero
  and the GMs), the ratings and results (`showratings-<game>`: the GMs until the end), a grant's
  granter and amount (`showgrant-...`) and a trial answer's author (`showanswer-...`): the granter,
  the author and the GMs. A balance's history is swept in the forum world (coins, conftest.py).

Perspectives: the anonymous, a spectator, a free Mason, the Saviour, a Reptiloid, the Demon, a
slave (a Mason enslaved by the re-vote), the GM, another game's GM and a site moderator."""

from __future__ import annotations

from django.contrib.auth.models import Group
from django.core.files.base import ContentFile

from games.models import Game, GameEvent, Order, PostMedia, Thread
from games.permissions import MODERATORS_GROUP
from django.core.files.uploadedfile import SimpleUploadedFile

from games.rulesets.show.scenario_inputs import TINY_PNG
from games.rulesets.show.services import show_order, show_vote
from games.rulesets.show.coins.services import open_answers, show_grant, show_trial_answer
from games.selectors.state import game_state
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from games.services.moderation import report_create
from games.services.posting import post_submit
from games.services.resolution import phase_close
from games.services.threads import thread_create
from tests.conftest import make_user
from tests.security.conftest import GMS, World, _other_game

S_SLAVES = "зябликрабскийчат"   # a slave's post in the slaves' chat
S_TEAM = "зябликрептилоиды"      # a Reptiloid's post in the Reptiloids' chat
S_SLAVES_MEDIA = "зябликрабскийфайл"  # the bytes of a media file on the slave's post (games:post_media)
SLAVES_MEDIA_BYTES = f"OggS {S_SLAVES_MEDIA}".encode()

PLAYERS = {"Аня": ("anya", "mason"), "Боря": ("borya", "mason"), "Вера": ("vera", "mason"),
           "Гоша": ("gosha", "mason"), "Жора": ("zhora", "saviour"), "Зина": ("zina", "reptiloid"),
           "Илья": ("ilya", "reptiloid"), "Кира": ("kira", "demon")}
PERSPECTIVES = ("anonymous", "spectator", "anya", "zhora", "zina", "kira", "vera", "gm", "other_gm", "moderator")
OBSERVERS = {"spectator", "other_gm", "moderator", "gm"}  # logged in, no seat: they read the lounge


def _close(game: Game) -> None:
    game.refresh_from_db()
    phase_close(phase_id=game.current_phase.pk, now=game.current_phase.deadline_at)
    game.refresh_from_db()


def build_show_world() -> World:
    gm = make_user("Ведущий шоу")
    game = game_create(title="Шоу с секретами", gm=gm, ruleset="show", size=len(PLAYERS))
    users = {}
    for name in PLAYERS:
        users[name] = make_user(name)
        game_signup(game=game, user=users[name])
    game_start(game=game, by=gm, seed=11, roles_in_seat_order=[role for _key, role in PLAYERS.values()])
    game.refresh_from_db()
    seat = {name: game.seats.get(user=users[name]) for name in PLAYERS}
    # Greetings: a text post stands in for each greeting; the last one ends the stage early.
    for name in PLAYERS:
        post_submit(thread=game.game_thread, author=users[name], body=f"Привет, я {name}.")
    game.refresh_from_db()
    assert (game.current_phase.kind, game.current_phase.number) == ("day", 1), game.current_phase
    for name in PLAYERS:
        show_vote(game=game, user=users[name], target=seat["Аня" if name == "Вера" else "Вера"], early_close=False)
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
    assert game.current_phase.kind == "allies", game.current_phase  # «Выбор Союзника»: nobody to pick
    _close(game)
    assert game.current_phase.kind == "night", game.current_phase
    for name, action, target in (("Аня", "suspect", "Зина"), ("Боря", "suspect", "Илья"), ("Гоша", "suspect", "Зина"),
                                 ("Жора", "save", "Гоша"), ("Зина", "enslave", "Боря"), ("Илья", "enslave", "Боря"),
                                 ("Кира", "enslave", "Кира")):
        result = show_order(game=game, user=users[name], action=action, target=seat[target], early_close=False)
        assert result.accepted, (name, result.code)
    _close(game)
    assert (game.current_phase.kind, game.current_phase.number) == ("day", 2), game.current_phase
    # The running day vote's ballots, hidden until its close.
    assert show_vote(game=game, user=users["Аня"], target=seat["Зина"], early_close=False).accepted
    assert show_vote(game=game, user=users["Зина"], target=seat["Аня"], early_close=False).accepted
    # Part 2: the slaves' trial of day 2 — Вера's answer, posted anonymously, and Аня's grant to it.
    trial = game_state(game).memory.get("trial") or {}
    assert seat["Вера"].pk in trial.get("slaves", ()), trial
    answer = SimpleUploadedFile("answer.png", TINY_PNG, content_type="image/png")
    assert show_trial_answer(game=game, user=users["Вера"], upload=answer).accepted
    answer_post = open_answers(game, game_state(game))[0][0]
    assert show_grant(game=game, user=users["Аня"], post=answer_post, amount=15).accepted
    post = post_submit(thread=game.game_thread, author=users["Гоша"], body="Доброе утро.")
    lounge = game.private_threads.get(kind=Thread.Kind.LOUNGE)
    slaves_post = post_submit(thread=lounge, author=users["Вера"], body=f"Рабы, держимся. {S_SLAVES}")
    media = PostMedia(post=slaves_post, kind="audio", mime="audio/ogg", size=64)
    media.file.save("post-slaves.ogg", ContentFile(SLAVES_MEDIA_BYTES), save=True)
    team = game.private_threads.get(kind=Thread.Kind.FACTION, faction="reptiloids")
    post_submit(thread=team, author=users["Зина"], body=f"Берём Гошу. {S_TEAM}")

    other, other_gm = _other_game()
    spectator, staff, moderator = make_user("Зритель"), make_user("Админ", staff=True), make_user("Модератор")
    moderator.groups.add(Group.objects.get_or_create(name=MODERATORS_GROUP)[0])
    report = report_create(post=post, reporter=users["Аня"], reason="Флуд")
    lobby, _post = thread_create(kind=Thread.Kind.LOBBY, title="Лобби", author=spectator, body="Кто играет?")
    by_key = {key: users[name] for name, (key, _role) in PLAYERS.items()}
    seat_by_key = {key: seat[name] for name, (key, _role) in PLAYERS.items()}
    seat_by_key["vasya"] = seat_by_key["anya"]      # the thread page's author filter
    seat_by_key["kikimora"] = seat_by_key["zina"]   # the seat the GMs' point of view is tried as
    world_users = {"anonymous": None, "spectator": spectator, "other_gm": other_gm, "gm": gm, "staff": staff,
                   "moderator": moderator, **by_key}
    return World(game=game, other=other, users=world_users, seats=seat_by_key, posts={"morning": post},
                 report=report, lobby=lobby)


def show_secrets(world: World) -> tuple[dict[str, set[str]], set[str]]:
    """Every canary of the world with who may see it among the perspectives; and those that need not
    be found by every allowed perspective (a text several seats share)."""
    reptiloids = {key for key, role in PLAYERS.values() if role == "reptiloid" and key in PERSPECTIVES}
    secrets: dict[str, set[str]] = {S_SLAVES: {"vera"} | OBSERVERS, S_SLAVES_MEDIA: {"vera"} | OBSERVERS,
                                    S_TEAM: {"zina"} | GMS}
    return game_secrets(world, PERSPECTIVES, reptiloids, secrets)


def game_secrets(world: World, perspectives, reptiloids: set[str], secrets: dict[str, set[str]]
                 ) -> tuple[dict[str, set[str]], set[str]]:
    """show_secrets for any show world: `secrets` (the world's own canaries) and every secret the
    show's site keeps, read from the database — the events that are not public, each hero's marks
    (/fullstatus, panel, bets), part 2's ratings, grants and answers, the running vote's ballots.
    `reptiloids`: the perspectives the Reptiloids' team events reach."""
    game = world.game
    key_of_seat = {s.pk: key for key, s in world.seats.items() if key in perspectives}
    shared: set[str] = set()
    for event in GameEvent.objects.filter(game=game).exclude(audience="public"):
        text = (event.text or "").strip().lower()
        if len(text) < 12:
            continue
        kind, _sep, key = event.audience.partition(":")
        allowed = set(GMS)
        if kind == "seat" and int(key) in key_of_seat:
            allowed.add(key_of_seat[int(key)])
        elif kind == "faction" and key == "reptiloids":
            allowed |= reptiloids
        if text in secrets:
            shared.add(text)
        secrets[text] = secrets.get(text, set()) | allowed
    for seat in game.seats.all():
        # A hero's /fullstatus (his secret and innate keys) and his panel (his role) carry his mark.
        for mark in (f"showfull-{seat.pk}", f"showhero-{seat.pk}"):
            secrets[mark] = ({key_of_seat[seat.pk]} if seat.pk in key_of_seat else set()) | GMS
        shared.add(f"showhero-{seat.pk}")  # the GMs see a panel only through a seat's point of view
    # Part 2: each hero's bet and who bet on him («Обо мне»), the ratings and the results (the GMs
    # only while the show runs), a grant's granter and amount, a trial answer's author.
    for seat in game.seats.all():
        secrets[f"showbet-{seat.pk}"] = ({key_of_seat[seat.pk]} if seat.pk in key_of_seat else set()) | GMS
    secrets[f"showratings-{game.pk}"] = set(GMS)
    for row in Order.objects.filter(phase__game=game, action__in=("grant", "trial_answer"), valid=True):
        post = (row.detail or {}).get("post")
        mark = (f"showgrant-{row.actor_id}-{post}-{row.detail.get('amount')}" if row.action == "grant"
                else f"showanswer-{row.actor_id}-{post}")
        secrets[mark] = ({key_of_seat[row.actor_id]} if row.actor_id in key_of_seat else set()) | GMS
        shared.add(mark)  # the GMs read them in the ledger, not as the panel's mark
    for row in Order.objects.filter(phase=game.current_phase, action="vote", valid=True):
        mark = f"showballot-{row.actor_id}-{(row.detail or {}).get('ballot') or row.target_id}"
        secrets[mark] = ({key_of_seat[row.actor_id]} if row.actor_id in key_of_seat else set()) | GMS
        shared.add(mark)  # the GMs read the ballots in the ledger, not as the panel's mark
    return secrets, shared
