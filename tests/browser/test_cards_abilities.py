"""Issue 17 in a real browser, through the pages a player uses: the Maniac swaps a Hand card with a
Sleeve card at once on "My cards" (the page shows both containers changed before any close), the
abilities panel fits a phone, and the Joker hands in his list of secret roles, judged at once: a
right list ends the game with his win. (The Joker's Ace and the Hero's mark:
test_cards_abilities_prosecutor_assassin_hero_joker.py.)"""

import pytest

from games.engine.state import GameState
from games.models import Game
from games.rulesets.cards.engine import CARDS
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from tests.browser.conftest import logged_in_page, phone_page
from tests.conftest import make_user

pytestmark = pytest.mark.browser

NAMES = ["Вася", "Петя", "Маша", "Глаша", "Паша", "Саша"]
ROLES = ["maniac", "boss", "joker", "judge", "killer", "sheriff"]
HAND = ["Совет", "Кофе", "Письмо", "Бинокль", "Тайник", "Запас"]


def _containers(game: Game, seat_pk: int) -> tuple[list[str], list[str]]:
    game.refresh_from_db()
    view = CARDS.player_view(GameState.from_json(game.state), seat_pk)
    return list(view["hand"]), [item["card"] if isinstance(item, dict) else item for item in view["sleeve"]]


def test_the_maniac_swaps_at_once_and_the_joker_wins_by_his_list(live_server, browser, transactional_db):
    gm = make_user("Ведущий")
    users = {n: make_user(n) for n in NAMES}
    game = game_create(title="Способности сразу", gm=gm, ruleset="cards", size=len(NAMES))
    for name in NAMES:
        game_signup(game=game, user=users[name])
    seats = {s.user.display_name: s for s in game.seats.select_related("user")}
    data = {seats[n].pk: {"hand": list(HAND), "deck": ["Анонимка", "Сделка"] * 4} for n in NAMES}
    data[seats["Вася"].pk]["sleeve"] = ["Бункер"]
    data[seats["Маша"].pk]["colours"] = ["recon", "support"]
    game_start(game=game, by=gm, seed=5, roles_in_seat_order=ROLES, seat_data=data)
    game.refresh_from_db()
    maniac = seats["Вася"].pk
    assert "Бункер" in _containers(game, maniac)[1]

    # The Maniac: «Может в любой момент мгновенно поменять местами карту из Руки и карту из Рукава».
    page = logged_in_page(browser, live_server.url, users["Вася"])
    page.goto(f"{live_server.url}/games/{game.pk}/cards/")
    form = page.locator("#ability-maniac_swap")
    form.locator("select[name=f_card]").select_option(value="Кофе")
    form.locator("select[name=f_sleeve_card]").select_option(value="Бункер")
    form.locator("button[type=submit]").click()
    page.wait_for_selector(".message.success")
    hand, sleeve = _containers(game, maniac)
    assert "Бункер" in hand and "Кофе" in sleeve and "Кофе" not in hand  # at once: no phase was closed
    shown = page.locator("#hand article.cards-card").evaluate_all("els => els.map(e => e.dataset.card)")
    assert "Бункер" in shown and "Кофе" not in shown
    assert Game.objects.get(pk=game.pk).current_phase.closed_at is None

    # The abilities panel on a phone: nothing wider than the screen.
    phone = phone_page(browser, live_server.url, users["Вася"])
    phone.goto(f"{live_server.url}/games/{game.pk}/cards/")
    assert phone.evaluate("document.querySelector('#abilities').scrollWidth") <= 390
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390

    # The Joker: «В любой момент может написать ... список соответствия Явных и Тайных ролей всех
    # игроков. Если все роли угаданы верно, побеждает моментально.»
    joker = logged_in_page(browser, live_server.url, users["Маша"])
    joker.goto(f"{live_server.url}/games/{game.pk}/cards/")
    for name, role in zip(NAMES, ROLES, strict=True):
        if name != "Маша":
            joker.locator(f"#joker-guess select[name=role_{seats[name].pk}]").select_option(value=role)
    joker.check("#joker-guess input[name=confirm]")
    joker.click("#joker-guess button[type=submit]")
    joker.wait_for_selector(".message")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert GameState.from_json(game.state).winner == "joker"
    for p in (page, phone, joker):
        p.context.close()
