"""A second seeded world for the URL sweep: a running game of the `cards` rule set (001) with a
canary in each kind of message only cards have — a card's message («Письмо»: the target gets it
from the GM without the sender) and a mafia message («Один раз каждый мафиози может прислать
сообщение другому мафу») — read by every perspective through every URL pattern, as the forum world
of conftest.py is.

It has the attributes the URL fillers of urlmap.py read (game, other, lobby, report, seats,
posts, all_threads...), so the same sweep runs over it. `seats` names the cards seats by the keys
the fillers use: "vasya" (whose id the thread page's author filter takes) and "kikimora" (the
seat the GMs' point of view is tried as: here the mafia boss who sent the mafia message)."""

from __future__ import annotations

from django.contrib.auth.models import Group

from games.models import Game, Thread
from games.permissions import MODERATORS_GROUP
from games.rulesets.cards.services import card_input_submit
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from games.services.moderation import report_create
from games.services.posting import post_submit
from games.services.resolution import phase_close
from games.services.threads import thread_create
from tests.conftest import make_user
from tests.security.conftest import GMS, World, _other_game

C_LETTER = "зябликписьмецо"   # «Письмо» played by Вася on Маша: Маша gets it unsigned
C_MAFIA = "зябликмафнота"     # the mafia message of Петя (boss) to Паша (killer)

HAND = ["Письмо", "Пистолет", "Бункер", "Совет", "Кофе", "Запрет"]
PLAYERS = {"Вася": ("vasya", "sheriff"), "Петя": ("petya", "boss"), "Маша": ("masha", "doctor"),
           "Глаша": ("glasha", "judge"), "Паша": ("pasha", "killer")}
PERSPECTIVES = ("anonymous", "spectator", "vasya", "petya", "masha", "glasha", "pasha", "other_gm", "moderator",
                "gm", "staff")

# Who may see each canary while the game runs (exactly these, both ways), and those who may but
# need not (the sender's own pages may or may not repeat what he sent).
ALLOWED = {
    C_LETTER: {"masha", "vasya"} | GMS,
    C_MAFIA: {"pasha", "petya"} | GMS,
}
NOT_REQUIRED_FOR = {C_LETTER: {"vasya"}, C_MAFIA: {"petya"}}


def build_cards_world() -> World:
    gm = make_user("Ведущий карт")
    game = game_create(title="Карты с секретами", gm=gm, ruleset="cards", size=len(PLAYERS))
    users = {}
    for name in PLAYERS:
        users[name] = make_user(name)
        game_signup(game=game, user=users[name])
    seats = {s.user.display_name: s for s in game.seats.select_related("user")}
    data = {seats[n].pk: {"hand": list(HAND), "deck": ["Анонимка", "Тайник", "Сделка"]} for n in PLAYERS}
    game_start(game=game, by=gm, seed=3, roles_in_seat_order=[role for _key, role in PLAYERS.values()], seat_data=data)
    game.refresh_from_db()
    assert game.current_phase.kind == "night"
    _order, confirmation = card_input_submit(game=game, user=users["Вася"], action="play", detail={
        "card": "Письмо", "from": "hand", "target": seats["Маша"].pk, "message": f"Держись. {C_LETTER}"})
    assert confirmation.accepted, confirmation
    _order, confirmation = card_input_submit(game=game, user=users["Петя"], action="mafia_message", detail={
        "to": seats["Паша"].pk, "text": f"Стреляй в Васю. {C_MAFIA}"})
    assert confirmation.accepted, confirmation
    phase_close(phase_id=game.current_phase.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING and game.current_phase.kind == "day"
    post = post_submit(thread=game.game_thread, author=users["Глаша"], body="Доброе утро.")

    other, other_gm = _other_game()
    spectator, staff, moderator = make_user("Зритель"), make_user("Админ", staff=True), make_user("Модератор")
    moderator.groups.add(Group.objects.get_or_create(name=MODERATORS_GROUP)[0])
    report = report_create(post=post, reporter=users["Вася"], reason="Флуд")
    lobby, _post = thread_create(kind=Thread.Kind.LOBBY, title="Лобби", author=spectator, body="Кто играет?")
    by_key = {key: users[name] for name, (key, _role) in PLAYERS.items()}
    seat_by_key = {key: game.seats.get(user=users[name]) for name, (key, _role) in PLAYERS.items()}
    seat_by_key["kikimora"] = seat_by_key["petya"]
    world_users = {"anonymous": None, "spectator": spectator, "other_gm": other_gm, "gm": gm, "staff": staff,
                   "moderator": moderator, **by_key}
    return World(game=game, other=other, users=world_users, seats=seat_by_key, posts={"morning": post},
                 report=report, lobby=lobby)
