"""Issue 17 (helper D) in a real browser: on "My cards" the Joker puts an Ace into a player's Sleeve
and the Hero names a mafioso's role (a right guess marks him); the GM closes the night; the Ace is
in the Sleeve, the mark is set, and the next day the marked mafioso's death fulfils the hero's goal,
which his role page then shows."""

import pytest

from games.models import Game, GameEvent
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from games.services.posting import post_submit
from games.services.resolution import phase_close
from tests.browser.conftest import logged_in_page
from tests.conftest import make_user

pytestmark = pytest.mark.browser

NAMES = ["Вася", "Петя", "Маша", "Глаша", "Паша", "Саша"]
ROLES = ["hero", "boss", "joker", "judge", "killer", "sheriff"]
HAND = ["Совет", "Кофе", "Письмо", "Бинокль", "Тайник", "Запас"]


def _use(page, key: str, **fields) -> None:
    form = page.locator(f"#ability-{key}")
    for name, label in fields.items():
        form.locator(f"select[name=f_{name}]").select_option(label=label)
    form.locator("button[type=submit]").click()
    page.wait_for_selector(".message.success")


def test_the_joker_adds_an_ace_and_the_hero_marks_through_my_cards(live_server, browser, transactional_db):
    gm = make_user("Ведущий")
    users = {n: make_user(n) for n in NAMES}
    game = game_create(title="Способности", gm=gm, ruleset="cards", size=len(NAMES))
    for name in NAMES:
        game_signup(game=game, user=users[name])
    seats = {s.user.display_name: s for s in game.seats.select_related("user")}
    data = {seats[n].pk: {"hand": list(HAND) if n != "Петя" else ["Совет"], "deck": ["Анонимка", "Сделка"] * 4}
            for n in NAMES}
    data[seats["Маша"].pk]["colours"] = ["recon", "support"]
    game_start(game=game, by=gm, seed=5, roles_in_seat_order=ROLES, seat_data=data)
    game.refresh_from_db()

    joker = logged_in_page(browser, live_server.url, users["Маша"])
    joker.goto(f"{live_server.url}/games/{game.pk}/cards/")
    _use(joker, "joker_ace", target="Вася")

    hero = logged_in_page(browser, live_server.url, users["Вася"])
    hero.goto(f"{live_server.url}/games/{game.pk}/cards/")
    assert hero.is_visible("#ability-hero_armour")
    _use(hero, "hero_guess", target="Петя", role="босс")

    assert phase_close(phase_id=game.current_phase_id, by=gm)
    game.refresh_from_db()
    memory = game.state["memory"]
    assert [i["card"] for i in memory["players"][str(seats["Вася"].pk)]["sleeve"]][-1] == "Туз"
    assert memory["hero"][str(seats["Вася"].pk)]["marks"] == [seats["Петя"].pk]

    # Day 1: the Veche executes the marked boss (one card): the hero's goal.
    for name in ("Маша", "Глаша", "Саша"):
        post_submit(thread=game.game_thread, author=users[name], body="[b]Казнить Петю[/b]")
    assert phase_close(phase_id=Game.objects.get(pk=game.pk).current_phase_id, by=gm)
    assert GameEvent.objects.filter(game=game, kind="hero_goal").exists()
    hero.goto(f"{live_server.url}/games/{game.pk}/role/")
    assert hero.is_visible(".cards-hero-goals")
