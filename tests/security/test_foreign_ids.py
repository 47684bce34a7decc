"""Another game's ids (issue 8): the GM of game B (and a player of B) put ids of game A's seats,
posts, phases and messages into B's URLs and forms. Each request is refused (404, or a refusal
that changes nothing): nothing of A changes, and nothing of B comes to point at A. Garbage in the
same places (not a number, negative, huge) is a clear answer, never a server error.

Every URL pattern of a game (`games/<int:pk>/...`) must say here which other ids it takes
(CASES), so a new one cannot be forgotten: test_every_game_pattern_declares_its_ids fails.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from django.urls import reverse

from games.models import (
    AnonymousMessage,
    BestPlayerVote,
    Game,
    GameEvent,
    GMAction,
    Order,
    Phase,
    Post,
    Seat,
    VoteRecord,
)
from games.communication.anonymous import anonymous_send
from tests.security import urlmap

pytestmark = pytest.mark.django_db


@dataclass(frozen=True)
class Case:
    """A request to game B's pattern with A's ids in it. Values "{seat}", "{post}", "{phase}",
    "{message}" are replaced by ids of game A (or by garbage)."""

    who: str = "gm"
    method: str = "post"
    path: dict = field(default_factory=dict)   # URL parameters besides the game's pk
    data: dict = field(default_factory=dict)   # form fields (POST) or the query (GET)
    expect_404: bool = False


# Every game pattern, with the requests that carry another id. An empty list: the pattern takes
# no id but the game's.
CASES: dict[str, list[Case]] = {
    "games:game": [Case(method="get", data={"pov": "{seat}"}, expect_404=True)],
    "games:role": [Case(method="get", data={"pov": "{seat}"}, expect_404=True)],
    "games:votes": [Case(method="get", data={"day": "{phase}"}), Case(method="get", data={"as_of": "{post}"})],
    "games:order": [Case(who="vasya", data={"action": "check", "target": "{seat}"}),
                    Case(who="thief", data={"action": "steal", "source": "{seat}", "target": "{seat}"}),
                    Case(who="kikimora", data={"action": "shoot", "target": "{seat}", "also_freeze": "{seat}"})],
    "games:anonymous": [Case(who="vasya", data={"recipient": "{seat}", "text": "чужому"}),
                        Case(data={"decide": "{message}", "approve": "1"}, expect_404=True)],
    "games:gm_action": [
        Case(data={"action": "tie_break", "seat": "{seat}"}),
        Case(data={"action": "override", "seat": "{seat}", "order_action": "check", "target": "{seat}"}),
        Case(data={"action": "override", "seat": "{own_seat}", "order_action": "check", "target": "{seat}"}),
        Case(data={"action": "foul", "seat": "{seat}", "confirm": "yes"}),
        Case(data={"action": "modkill", "seat": "{seat}", "reason": "чужой", "confirm": "yes"}),
        Case(data={"action": "replace", "seat": "{seat}", "name": "Зритель", "reason": "чужой", "confirm": "yes"}),
        Case(data={"action": "event", "audience": "seat:{seat}", "text": "чужому", "confirm": "yes"}),
    ],
    "games:rating": [Case(data={"chosen": "{seat}"}, expect_404=True),
                     Case(data={"action": "gm", "points_{seat}": "1", "blunder_{seat}": "on"}, expect_404=True)],
    "games:votes_correct": [Case(data={"post": "{post}", "kind": "vote", "target": "{own_seat}"}),
                            Case(data={"post": "{own_post}", "kind": "vote", "target": "{seat}"})],
    "games:seat_aliases": [Case(path={"seat_pk": "{seat}"}, data={"aliases": "Чужак"}, expect_404=True)],
    # The cards rule set's pages: the seeded world is a forum game, so they are 404 here; the same
    # foreign seats in a cards game are refused in tests/games/test_cards_pages.py.
    "games:cards": [Case(method="get", data={"pov": "{seat}"}, expect_404=True)],
    "games:gm_cards": [Case(method="get", data={"pov": "{seat}"}, expect_404=True)],
    "games:card_input": [Case(who="vasya", data={"action": "play", "from": "hand", "card": "Пистолет",
                                                 "target": "{seat}"}, expect_404=True),
                         Case(who="vasya", data={"action": "mafia_message", "target": "{seat}", "text": "чужому"},
                              expect_404=True)],
    "games:card_ability": [Case(who="vasya", data={"ability": "marauder_copy", "f_target": "{seat}"},
                                expect_404=True)],
    "games:gm_card_effect": [Case(data={"action": "add", "op": "damage", "target": "{seat}", "n": "2"},
                                  expect_404=True)],
    "games:deck": [], "games:deck_check": [], "games:game_cards_rules": [], "games:cards_collection": [],
    "games:communication": [],
    # The show's pages: the seeded world is a forum game, so they are 404 here; the same foreign
    # seats in a show are refused in tests/games/test_show_site.py.
    "games:show_fullstatus": [Case(method="get", path={"seat_pk": "{seat}"}, expect_404=True)],
    "games:show_act": [Case(who="vasya", data={"act": "vote", "target": "{seat}"}, expect_404=True),
                       Case(who="vasya", data={"act": "order", "action": "save", "target": "{seat}",
                                               "public_key": "{seat}"}, expect_404=True)],
    "games:show_privilege": [Case(who="vasya", data={"act": "stun", "target": "{seat}"}, expect_404=True)],
    "games:show_secretary": [Case(method="get", data={"pov": "{seat}"}, expect_404=True)],
    "games:show_about": [Case(method="get", path={"seat_pk": "{seat}"}, expect_404=True)],
    "games:show_status": [], "games:show_fullstatus_mine": [], "games:show_about_mine": [], "games:show_results": [],
    "games:show_fines": [Case(data={"offender": "{seat}", "reporter": "Вася", "report": "чужой", "decision": "да"},
                              expect_404=True)],
    # No ids but the game's:
    "games:game_join": [], "games:autohost_control": [], "games:standby": [], "games:game_start": [], "games:co_gm": [], "games:replacement_request": [],
    "games:archive": [], "games:replay": [], "games:export": [], "games:gm_dashboard": [], "games:commitment": [],
    "games:votes_live": [], "games:votes_post_count": [], "games:phase_control": [], "games:vote_options": [],
}
ALL_CASES = [(key, n) for key, cases in CASES.items() for n in range(len(cases))]


def _game_patterns() -> dict[str, urlmap.Pattern]:
    return {p.key: p for p in urlmap.all_patterns() if p.route.startswith("games/<int:pk>/")}


def test_every_game_pattern_declares_its_ids():
    patterns = _game_patterns()
    assert sorted(set(patterns) - set(CASES)) == [], "add the pattern to CASES in tests/security/test_foreign_ids.py"
    assert sorted(set(CASES) - set(patterns)) == []
    for key, pattern in patterns.items():
        extra = set(pattern.params) - {"pk"}
        assert all(extra <= set(case.path) for case in CASES[key]) and (not extra or CASES[key]), key


@pytest.fixture
def other_ids(shared_world):
    """Ids of game A (the other GM's): a seat, a post of its game thread, its phase, and an
    anonymous message waiting for its GM."""
    a = shared_world.other
    a.options = {**(a.options or {}), "anonymous_messages": {"limit": 3, "approval": True}}
    a.save(update_fields=["options"])
    seats = list(a.seats.select_related("user").order_by("number"))
    message = anonymous_send(game=a, user=seats[0].user, recipient=seats[1], text="тайное")
    b = shared_world.game
    return {
        "seat": seats[2].pk, "post": Post.objects.filter(thread=a.game_thread).order_by("number").first().pk,
        "phase": a.current_phase_id, "message": message.pk,
        "own_seat": shared_world.seats["john"].pk,
        "own_post": Post.objects.filter(thread=b.game_thread, author=shared_world.user("vasya")).first().pk,
    }


def _fill(value, ids: dict):
    return value.format(**ids) if isinstance(value, str) else value


def _request(world, key: str, case: Case, ids: dict):
    pattern = _game_patterns()[key]
    kwargs = {"pk": world.game.pk} | {name: _fill(v, ids) for name, v in case.path.items()}
    url = reverse(pattern.key, kwargs=kwargs)
    data = {_fill(k, ids): _fill(v, ids) for k, v in case.data.items()}
    return getattr(world.client(case.who), case.method)(url, data)


def game_a_state(a: Game) -> dict:
    threads = [a.game_thread_id, a.discussion_thread_id, *a.private_threads.values_list("pk", flat=True)]
    return {
        "game": list(Game.objects.filter(pk=a.pk).values_list("status", "options", "current_phase", "vote_syntaxes")),
        "seats": list(Seat.objects.filter(game=a).order_by("pk").values_list("pk", "user", "status", "aliases", "is_alive")),
        "phases": list(Phase.objects.filter(game=a).order_by("pk").values_list("pk", "gm_decisions", "closed_at",
                                                                               "deadline_at")),
        "orders": Order.objects.filter(phase__game=a).count(),
        "events": GameEvent.objects.filter(game=a).count(),
        "votes": VoteRecord.objects.filter(phase__game=a).count(),
        "gm_log": GMAction.objects.filter(game=a).count(),
        "anonymous": list(AnonymousMessage.objects.filter(game=a).order_by("pk").values_list("pk", "status")),
        "posts": Post.objects.filter(thread__in=threads).count(),
    }


def b_points_at_a(b: Game, a: Game) -> list[str]:
    a_seats = set(a.seats.values_list("pk", flat=True))
    found = []
    if Order.objects.filter(phase__game=b).filter(actor__game=a).exists() or \
            Order.objects.filter(phase__game=b, target__game=a).exists() or \
            Order.objects.filter(phase__game=b, source_seat__game=a).exists():
        found.append("an order of B names a seat of A")
    if VoteRecord.objects.filter(phase__game=b, target__game=a).exists() or \
            VoteRecord.objects.filter(phase__game=b, post__thread=a.game_thread).exists():
        found.append("a vote of B names A")
    if GameEvent.objects.filter(game=b, audience__in=[f"seat:{pk}" for pk in a_seats]).exists():
        found.append("an event of B is addressed to a seat of A")
    if AnonymousMessage.objects.filter(game=b, recipient__game=a).exists():
        found.append("an anonymous message of B goes to A")
    if BestPlayerVote.objects.filter(game=b, chosen__game=a).exists():
        found.append("a best-player vote of B names A")
    for decisions in Phase.objects.filter(game=b).values_list("gm_decisions", flat=True):
        named = {decisions.get("tie_break"), *decisions.get("fouls", [])}
        if named & a_seats:
            found.append(f"a GM decision of B names a seat of A: {decisions}")
    return found


@pytest.mark.parametrize("key,n", ALL_CASES, ids=[f"{k}-{n}" for k, n in ALL_CASES])
def test_ids_of_another_game_change_nothing(shared_world, other_ids, key, n):
    case = CASES[key][n]
    a, b = shared_world.other, shared_world.game
    before = game_a_state(a)
    response = _request(shared_world, key, case, other_ids)
    if case.expect_404:
        assert response.status_code == 404
    else:
        assert response.status_code in (200, 302, 400, 404)
    if response.status_code == 200:  # a page of B, read with A's id in the query: B's, not A's
        phase = response.context.get("phase")
        assert phase is None or phase.game_id == b.pk
        assert "тайное" not in response.content.decode()
    assert game_a_state(a) == before
    assert b_points_at_a(b, a) == []


@pytest.mark.parametrize("garbage", ["x", "-1", "1.5", "99999999999999999999", ""])
def test_garbage_ids_get_a_clear_answer(shared_world, other_ids, garbage):
    ids = {name: garbage for name in other_ids}
    wrong = []
    for key, n in ALL_CASES:
        case = CASES[key][n]
        if case.path and not garbage.isdecimal():
            continue  # the URL pattern itself takes digits only
        status = _request(shared_world, key, case, ids).status_code
        if status >= 500:
            wrong.append(f"{key} #{n}: {status}")
    client = shared_world.client("vasya")
    status = client.post(reverse("games:absences"), {"delete": garbage or "0"}).status_code
    if status >= 500:
        wrong.append(f"games:absences delete: {status}")
    assert wrong == []


def test_services_refuse_a_seat_of_another_game_even_when_a_view_forgets(shared_world, other_ids):
    """Defence in depth: the views pick seats within their game, and the GM services that take a
    seat check it too, so a future view that forgets cannot reach into another game."""
    from games.services import ActionRefused
    from games.services.moderation import seat_modkill, seat_replace
    from games.services.orders import order_override

    a, b = shared_world.other, shared_world.game
    foreign = Seat.objects.get(pk=other_ids["seat"])
    own = Seat.objects.get(pk=other_ids["own_seat"])
    gm = b.gm
    before = game_a_state(a)
    calls = [
        lambda: seat_modkill(game=b, seat=foreign, by=gm, reason="чужой"),
        lambda: seat_replace(game=b, seat=foreign, new_user=shared_world.user("vasya"), by=gm),
        lambda: order_override(game=b, gm=gm, seat=foreign, action="check", target=own),
        lambda: order_override(game=b, gm=gm, seat=own, action="check", target=foreign),
    ]
    for call in calls:
        with pytest.raises(ActionRefused) as refused:
            call()
        assert refused.value.code == "foreign_seat"
    assert game_a_state(a) == before
    assert b_points_at_a(b, a) == []
