"""Orders written to the GM in the seat's letters thread (issue 14, item 2): «Этот заказ делается в
личку ведущему» (seed 002). A letter whose line starts with an order word is read exactly like the
role page's text order: the same parser, the same ledger where the last accepted order counts, the
same confirmation or refusal posted back into the thread; other letters stay letters."""

from datetime import timedelta

import pytest
from django.urls import reverse

from games.models import Game, Order, Thread
from games.services.orders import order_from_letter, order_preview, takes_text_orders
from games.services.posting import post_submit
from games.selectors.orders import standing_orders
from tests.conftest import client_for
from tests.games.test_club import club, close  # noqa: F401  (the club fixture)
from tests.games.test_club import seat as club_seat
from tests.games.test_lifecycle import seat_named, user_named


def letters(game, name) -> Thread:
    return Thread.objects.get(game=game, kind=Thread.Kind.GM_CHAT, seat=seat_named(game, name))


def write(game, name, body, minutes=1, author=None):
    post = post_submit(thread=letters(game, name), author=author or user_named(game, name), body=body,
                       now=game.current_phase.opened_at + timedelta(minutes=minutes))
    return post, order_from_letter(post=post)


@pytest.mark.parametrize(("letter", "order"), [
    ("Проверяю Красную Шапочку.", "Проверяю Красную Шапочку."),
    ("Добрый вечер!\n- проверяю Васю\nСпасибо.", "- проверяю Васю"),
    ("1. Стреляю в Петю", "1. Стреляю в Петю"),
    ("[b]Защищаю[/b] Фроло", "Защищаю Фроло"),
    ("[list][*]краду у Васи и применяю к Фроло[/list]", "краду у Васи и применяю к Фроло"),
    ("Проверяю Васю.\nНет, проверяю Фроло.", "Проверяю Васю."),  # the second line starts with «Нет»
    ("Ведущий, а можно сменить цель?", ""),
    ("Сегодня не стреляю.", ""),
    ("Не стреляю.", ""),  # a negated verb starts no order
    ("[quote=Ведущий]Проверяю Кикимору[/quote]Так?", ""),
    ("[s]Проверяю Кикимору[/s] передумал", ""),
    ("[spoiler]Проверяю Кикимору[/spoiler]", ""),
    ("Я вчера проверяю… то есть проверял Васю", ""),
])
def test_letter_order_text_takes_the_lines_that_start_with_an_order_word(letter, order):
    from games.text.orders import FORUM_VOCABULARY, letter_order_text

    assert letter_order_text(letter, FORUM_VOCABULARY) == order


def test_letter_order_is_recorded_and_confirmed_when_it_starts_with_an_order_word(started):
    post, confirmation = write(started, "Вася", "Проверяю Красную Шапочку.")
    assert confirmation.accepted and confirmation.message == "Приказ принят: проверка — Красная Шапочка"
    [order] = Order.objects.filter(actor=seat_named(started, "Вася"))
    assert (order.action, order.target, order.source, order.valid) == (
        "check", seat_named(started, "Красная Шапочка"), Order.Source.TEXT, True)
    assert order.recorded_at == post.created_at
    reply = letters(started, "Вася").posts.order_by("-number").first()
    assert reply.number == post.number + 1 and reply.author == started.gm
    assert "Приказ принят: проверка — Красная Шапочка" in reply.body


def test_letter_order_is_refused_with_its_reason_in_the_thread_when_the_role_has_no_such_action(started):
    _post, confirmation = write(started, "Маленький Джон", "Проверяю Кикимору")
    assert not confirmation.accepted
    reply = letters(started, "Маленький Джон").posts.order_by("-number").first()
    assert reply.author == started.gm and "Приказ не принят" in reply.body and confirmation.message in reply.body
    assert Order.objects.get(actor=seat_named(started, "Маленький Джон")).valid is False


@pytest.mark.parametrize("body", [
    "Ведущий, а можно сменить цель?",
    "Сегодня не стреляю, подумаю ещё.",
    "[quote=Ведущий]Проверяю Кикимору[/quote]Это было вчера.",
    "Привет! Как дела?",
])
def test_ordinary_letter_records_nothing_and_gets_no_reply_when_no_line_starts_with_an_order_word(started, body):
    _post, confirmation = write(started, "Вася", body)
    assert confirmation is None
    assert not Order.objects.exists()
    assert list(letters(started, "Вася").posts.values_list("author", flat=True)) == [user_named(started, "Вася").pk]


def test_letter_order_reads_the_order_line_of_a_longer_letter(started):
    _post, confirmation = write(started, "Вася", "Добрый вечер!\n- проверяю Эсмеральду\nСпасибо за игру.")
    assert confirmation.accepted and confirmation.target == "Эсмеральда"


def test_last_letter_order_counts_when_a_player_writes_two(started):
    write(started, "Вася", "Проверяю Кикимору.", minutes=1)
    write(started, "Вася", "Проверяю Эсмеральду.", minutes=2)
    standing = standing_orders(started.current_phase)[seat_named(started, "Вася").pk]
    assert standing.target == seat_named(started, "Эсмеральда")


def test_letter_order_and_role_page_order_share_one_ledger_when_mixed(started):
    from games.services.orders import order_submit

    write(started, "Вася", "Проверяю Кикимору.", minutes=1)
    order_submit(game=started, user=user_named(started, "Вася"), text="Проверяю Фроло",
                 now=started.current_phase.opened_at + timedelta(minutes=2))
    standing = standing_orders(started.current_phase)[seat_named(started, "Вася").pk]
    assert standing.target == seat_named(started, "Фроло")


def test_gm_letter_is_never_read_as_the_players_order_when_the_gm_writes_an_order_word(started):
    _post, confirmation = write(started, "Вася", "Проверяю Кикимору — так писать приказ.", author=started.gm)
    assert confirmation is None and not Order.objects.exists()


def test_letters_are_not_read_as_orders_when_the_game_is_over(started):
    Game.objects.filter(pk=started.pk).update(status=Game.Status.FINISHED)
    started.refresh_from_db()
    thread = letters(started, "Вася")
    post = post_submit(thread=thread, author=started.gm, body="Игра окончена.")
    assert order_from_letter(post=post) is None and not Order.objects.exists()


def test_rule_set_is_asked_whether_orders_are_text_when_deciding_to_read_letters(db):
    assert takes_text_orders(Game(ruleset="forum")) and takes_text_orders(Game(ruleset="club"))
    assert not takes_text_orders(Game(ruleset="cards"))  # card inputs have forms of their own


def test_club_letter_order_uses_the_club_order_words_when_the_game_is_club(club):  # noqa: F811
    close(club)
    close(club)  # night 1
    assert club.current_phase.kind == "night"
    thread = Thread.objects.get(game=club, kind=Thread.Kind.GM_CHAT, seat=club_seat(club, "Вера"))
    post = post_submit(thread=thread, author=club_seat(club, "Вера").user, body="Проверяю Бориса.")
    confirmation = order_from_letter(post=post)
    assert confirmation.accepted and confirmation.action == "check"
    assert thread.posts.order_by("-number").first().author == club.gm


# --- Through the views -------------------------------------------------------------------------
def test_letter_order_posted_through_the_form_is_confirmed_on_screen_and_in_the_thread(started):
    thread = letters(started, "Вася")
    client = client_for(user_named(started, "Вася"))
    response = client.post(reverse("games:thread_reply", args=[thread.pk]), {"body": "Проверяю Красную Шапочку."},
                           follow=True)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Приказ принят: проверка — Красная Шапочка" in page
    assert Order.objects.get(actor=seat_named(started, "Вася")).valid
    assert thread.posts.count() == 2


def test_letter_order_through_htmx_shows_the_confirmation_in_the_reply_region(started):
    thread = letters(started, "Маленький Джон")
    client = client_for(user_named(started, "Маленький Джон"))
    response = client.post(reverse("games:thread_reply", args=[thread.pk]), {"body": "Стреляю в Кикимору"},
                           HTTP_HX_REQUEST="true", HTTP_HX_TARGET="thread-region")
    html = response.content.decode()
    assert response.status_code == 200 and 'class="vote-confirmation order-confirmation error"' in html
    assert "Приказ не принят" in html


def test_ordinary_letter_through_the_form_gets_no_order_message(started):
    thread = letters(started, "Вася")
    client = client_for(user_named(started, "Вася"))
    page = client.post(reverse("games:thread_reply", args=[thread.pk]), {"body": "Ведущий, когда итоги?"},
                       follow=True).content.decode()
    assert "Приказ" not in page and not Order.objects.exists()


def test_role_page_shows_the_standing_order_when_it_came_from_a_letter(started):
    write(started, "Вася", "Проверяю Кикимору.", minutes=1)
    write(started, "Вася", "Проверяю Эсмеральду.", minutes=2)
    write(started, "Вася", "Проверяю Ведущего.", minutes=3)  # refused: the check on Эсмеральда stands
    html = client_for(user_named(started, "Вася")).get(reverse("games:role", args=[started.pk])).content.decode()
    standing = html[html.index('id="standing-order"'):]
    standing = standing[:standing.index("</section>")]
    assert "Эсмеральда" in standing and "Кикимора" not in standing


def test_role_page_shows_no_standing_order_when_the_viewer_has_none_of_his_own(started):
    write(started, "Вася", "Проверяю Кикимору.", minutes=1)
    html = client_for(user_named(started, "Фроло")).get(reverse("games:role", args=[started.pk])).content.decode()
    assert 'id="standing-order"' not in html


def test_letter_preview_says_how_the_order_will_be_read_when_the_player_previews(started):
    thread = letters(started, "Вася")
    vasya = user_named(started, "Вася")
    assert order_preview(thread=thread, author=vasya, body="Проверяю Кикимору.").accepted
    assert order_preview(thread=thread, author=vasya, body="Ведущий, привет").confirmation is None
    assert order_preview(thread=thread, author=started.gm, body="Проверяю Кикимору.") is None
    response = client_for(vasya).post(reverse("games:thread_preview", args=[thread.pk]),
                                      {"body": "Проверяю Кикимору."}, HTTP_HX_REQUEST="true")
    assert "order-reading ok" in response.content.decode()
    assert not Order.objects.exists() and thread.posts.count() == 0  # a preview writes nothing
