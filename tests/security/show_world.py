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
- the Reptiloids' chat: a post seen by the Reptiloids and the GMs.

Perspectives: the anonymous, a spectator, a free Mason, the Saviour, a Reptiloid, the Demon, a
slave (a Mason enslaved by the re-vote), the GM, another game's GM and a site moderator."""

from __future__ import annotations

from django.contrib.auth.models import Group
from django.core.files.base import ContentFile

from games.models import Game, GameEvent, Order, PostMedia, Thread
from games.permissions import MODERATORS_GROUP
from games.rulesets.show.services import show_order, show_vote
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
    game = world.game
    key_of_seat = {s.pk: key for key, s in world.seats.items() if key in PERSPECTIVES}
    reptiloids = {key for key, role in PLAYERS.values() if role == "reptiloid" and key in PERSPECTIVES}
    secrets: dict[str, set[str]] = {S_SLAVES: {"vera"} | OBSERVERS, S_SLAVES_MEDIA: {"vera"} | OBSERVERS,
                                    S_TEAM: {"zina"} | GMS}
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
    for row in Order.objects.filter(phase=game.current_phase, action="vote", valid=True):
        mark = f"showballot-{row.actor_id}-{(row.detail or {}).get('ballot') or row.target_id}"
        secrets[mark] = ({key_of_seat[row.actor_id]} if row.actor_id in key_of_seat else set()) | GMS
        shared.add(mark)  # the GMs read the ballots in the ledger, not as the panel's mark
    return secrets, shared
