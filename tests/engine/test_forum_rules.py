"""The forum rule set (seed 002_fbe98fa7d018c05d.txt), one rule case per test: the docstring quotes
the sentence of the seed the test enforces, the body plays it through the pure engine."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from games.engine.events import GM, PUBLIC, faction_audience, seat_audience
from games.engine.orders import Order, PhaseInputs
from games.engine.rulesets import get_ruleset
from games.rulesets.forum.engine import default_role_table
from games.engine.state import GameState

FORUM = get_ruleset("forum")
NOW = datetime(2013, 10, 28, 11, 24, tzinfo=UTC)

ROSTER = [
    ("Вася", "recruiter"),
    ("Кикимора", "mafioso"),
    ("Баба Яга", "mafioso"),
    ("Джон", "citizen"),
    ("Шапочка", "reanimator"),
    ("Эсмеральда", "killer"),
    ("Фроло", "citizen"),
    ("Соня", "citizen"),
    ("Негодяй", "thief"),
    ("Бонд", "citizen"),
]


def new_game(roster=ROSTER, **options) -> GameState:
    state, _events = FORUM.new_game([(i, n, r) for i, (n, r) in enumerate(roster, 1)], options=options)
    return state


def sid(state: GameState, name: str) -> int:
    return state.by_name(name).id


def play(state, *orders, votes=None, seed=0, gm=None, jail="Бонд"):
    """One turn. `votes` maps names to names (or "peace"/None); by default everyone active votes to
    jail `jail`, so that the orders under test are not disturbed by the vote."""
    if votes is None:
        votes = {s.name: jail for s in state.active()}
    vote_ids = {sid(state, v): (sid(state, t) if isinstance(t, str) and t != "peace" else t) for v, t in votes.items()}
    order_map = {}
    for actor, action, target, *source in orders:
        order = Order(
            actor=sid(state, actor),
            action=action,
            target=sid(state, target) if target else None,
            source=sid(state, source[0]) if source else None,
        )
        order_map[order.actor] = order
    return FORUM.resolve(state, PhaseInputs(votes=vote_ids, orders=order_map, gm=gm or {}), seed=seed, now=NOW)


def events_of(resolution, kind):
    return [e for e in resolution.events if e.kind == kind]


def gm_order(resolution, actor_name):
    (event,) = [e for e in events_of(resolution, "order") if e.data["actor_name"] == actor_name]
    return event.data


# -- the jail vote ---------------------------------------------------------------------------------


def test_jail_goes_to_the_plurality_when_votes_differ():
    """«Набравший большинство при голосовании игрок садится в тюрьму»"""
    state = new_game()
    votes = {"Вася": "Соня", "Кикимора": "Соня", "Баба Яга": "Фроло", "Джон": "Соня", "Шапочка": "Фроло",
             "Эсмеральда": "Джон", "Фроло": "Соня", "Соня": "Фроло", "Негодяй": "Вася", "Бонд": "Джон"}
    r = play(state, votes=votes)
    assert r.outcome["tally"] == {"Соня": 4, "Фроло": 3, "Джон": 2, "Вася": 1}
    assert r.outcome["jailed"] == ["Соня"]
    assert r.state.by_name("Соня").status == "jailed"
    assert "Соня" not in r.outcome["alive"]


def test_silent_player_votes_for_himself_when_he_did_not_vote():
    """«По умолчанию считается, что игрок голосует сам за себя.»"""
    state = new_game()
    r = play(state, votes={"Вася": "Соня", "Кикимора": "Соня"})
    assert r.outcome["votes"]["Бонд"] == "Бонд"
    assert r.outcome["votes"]["Вася"] == "Соня"
    assert r.outcome["tally"]["Соня"] == 3  # two votes and her own
    assert r.outcome["jailed"] == ["Соня"]
    vote_event = events_of(r, "vote_result")[0]
    defaults = {v["voter_name"] for v in vote_event.data["votes"] if v["default"]}
    assert defaults == {s for s, _ in ROSTER} - {"Вася", "Кикимора"}


def test_vote_for_out_of_play_player_counts_as_self_vote_when_cast():
    """«По умолчанию считается, что игрок голосует сам за себя.» A vote for somebody already
    jailed or killed cannot count, so the default stands."""
    state = play(new_game(), jail="Соня").state
    r = play(state, votes={"Вася": "Соня", "Кикимора": "Джон", "Баба Яга": "Джон"})
    assert r.outcome["votes"]["Вася"] == "Вася"
    assert "Соня" not in r.outcome["tally"]


def test_peace_call_counts_as_self_vote_when_cast():
    """«Но кто-то один сядет обязательно.» The forum has no vote for peace; the default stands."""
    state = new_game()
    r = play(state, votes={"Вася": "peace", "Кикимора": "Вася", "Баба Яга": "Вася"})
    assert r.outcome["votes"]["Вася"] == "Вася"
    assert r.outcome["jailed"] == ["Вася"]


def test_out_of_play_players_do_not_vote_when_jailed_or_killed():
    """«...голосуют за посадку одного из них в тюрьму (доступно только активным игрокам, т.е. не
    убитым и не посаженным в тюрьму)»"""
    state = play(new_game(), ("Эсмеральда", "shoot", "Фроло"), jail="Соня").state
    assert sid(state, "Соня") not in FORUM.voters(state)
    assert sid(state, "Фроло") not in FORUM.voters(state)
    assert sid(state, "Соня") not in FORUM.vote_targets(state)
    r = play(state, votes={"Соня": "Вася", "Фроло": "Вася", "Кикимора": "Джон", "Баба Яга": "Джон"})
    assert "Соня" not in r.outcome["votes"] and "Фроло" not in r.outcome["votes"]
    assert r.outcome["tally"].get("Вася") == 1
    assert r.outcome["jailed"] == ["Джон"]


def test_tie_is_settled_by_lot_among_the_leaders_when_votes_tie():
    """«Если большинство голосов набрали несколько игроков, ведущий случайным образом выбирает,
    кто из них сядет.»"""
    state = new_game()
    votes = {"Вася": "Соня", "Кикимора": "Соня", "Баба Яга": "Соня", "Джон": "Фроло", "Шапочка": "Фроло",
             "Эсмеральда": "Фроло", "Фроло": "Вася", "Соня": "Вася", "Негодяй": "Джон", "Бонд": "Джон"}
    picked = set()
    for seed in range(40):
        r = play(state, votes=votes, seed=seed)
        assert r.outcome["jailed"] in (["Соня"], ["Фроло"])
        (tie,) = events_of(r, "tie_break")
        assert tie.audience == PUBLIC and tie.data["by"] == "lot"
        assert {x["name"] for x in tie.data["leaders"]} == {"Соня", "Фроло"}
        assert play(state, votes=votes, seed=seed).outcome == r.outcome  # same seed, same lot
        picked.add(r.outcome["jailed"][0])
    assert picked == {"Соня", "Фроло"}


@pytest.mark.parametrize("votes, leaders", [
    ({"Вася": "Соня", "Соня": "Вася"}, [name for name, _role in ROSTER]),  # a wagon of one ties every silent player
    ({"Вася": "Соня", "Фроло": "Соня", "Соня": "Вася"}, ["Соня"]),  # two cast beat each one's own
    ({"Вася": "Соня", "Фроло": "Вася"}, ["Соня"]),  # silent Соня's own vote outnumbers Вася's wagon
    ({"Вася": "Соня", "Фроло": "Вася", "Бонд": "Вася"}, ["Вася", "Соня"]),  # and ties a wagon of two
])
def test_the_count_at_close_names_whom_the_close_draws_between_when_silent_players_vote_for_themselves(votes, leaders):
    """«По умолчанию считается, что игрок голосует сам за себя.» and «Если большинство голосов
    набрали несколько игроков, ведущий случайным образом выбирает, кто из них сядет.» The site's
    counts ask count_at_close who leads (issue 29); the close decides by the same count."""
    state = new_game()
    ids = {sid(state, v): sid(state, t) for v, t in votes.items()}
    close = FORUM.count_at_close(state, ids)
    assert [state.seat(i).name for i in close.leaders] == leaders
    assert close.defaulted == {s.id for s in state.active()} - set(ids)
    assert all(close.votes[v] == v for v in close.defaulted)
    r = play(state, votes=votes, seed=3)
    assert r.outcome["tally"] == {state.seat(t).name: w for t, w in close.weights.items()}
    ties = events_of(r, "tie_break")
    assert ([x["name"] for x in ties[0].data["leaders"]] if ties else r.outcome["jailed"]) == leaders


def test_tie_is_settled_by_the_gm_when_he_picks_a_leader():
    """«Если большинство голосов набрали несколько игроков, ведущий случайным образом выбирает,
    кто из них сядет.» The GM may make the choice himself (inputs.gm["tie_break"])."""
    state = new_game()
    votes = {"Вася": "Соня", "Джон": "Фроло"}  # the others vote for themselves: a tie of all at 1 or 2
    for seed in range(10):
        r = play(state, votes=votes, seed=seed, gm={"tie_break": sid(state, "Фроло")})
        assert r.outcome["jailed"] == ["Фроло"]
        (tie,) = events_of(r, "tie_break")
        assert tie.data["by"] == "gm" and tie.data["name"] == "Фроло"


def test_gm_tie_break_is_ignored_when_it_names_no_leader():
    """«Если большинство голосов набрали несколько игроков...» The GM's pick only chooses among the
    leaders; a pick outside them is logged for the GM and the lot decides."""
    state = new_game()
    votes = {"Вася": "Соня", "Кикимора": "Соня", "Джон": "Фроло", "Шапочка": "Фроло"}
    r = play(state, votes=votes, gm={"tie_break": sid(state, "Вася")})
    assert r.outcome["jailed"] in (["Соня"], ["Фроло"])
    (ignored,) = events_of(r, "tie_break_ignored")
    assert ignored.audience == GM and ignored.data["reason"] == "not_a_leader"
    assert events_of(r, "tie_break")[0].data["by"] == "lot"


def test_gm_tie_break_is_ignored_when_there_is_no_tie():
    """«Набравший большинство при голосовании игрок садится в тюрьму»"""
    state = new_game()
    r = play(state, jail="Соня", gm={"tie_break": sid(state, "Вася")})
    assert r.outcome["jailed"] == ["Соня"]
    assert not events_of(r, "tie_break")
    assert events_of(r, "tie_break_ignored")[0].data["reason"] == "no_tie"


def test_somebody_is_jailed_when_everybody_votes_for_himself():
    """«Но кто-то один сядет обязательно.»"""
    state = new_game()
    r = play(state, votes={})
    assert len(r.outcome["jailed"]) == 1
    assert set(r.outcome["tally"].values()) == {1}


# -- the jail and the orders --------------------------------------------------------------------


def test_jailed_players_action_fails_when_he_is_jailed_today():
    """«Набравший большинство при голосовании игрок садится в тюрьму - его спецдействие не
    срабатывает»"""
    state = new_game()
    r = play(state, ("Эсмеральда", "shoot", "Фроло"), ("Вася", "check", "Кикимора"), jail="Эсмеральда")
    assert r.outcome["killed"] == []
    assert gm_order(r, "Эсмеральда")["reason"] == "actor_jailed"
    r = play(state, ("Вася", "check", "Кикимора"), jail="Вася")
    assert r.outcome["checks"] == {}
    assert gm_order(r, "Вася")["result"] == "failed"


def test_action_aimed_at_jailed_player_fails_when_he_is_jailed_today():
    """«...также не срабатывает спецдействие, направленное против него.»"""
    state = new_game()
    r = play(
        state,
        ("Эсмеральда", "shoot", "Соня"),
        ("Вася", "check", "Соня"),
        ("Кикимора", "shoot", "Соня"),
        ("Шапочка", "protect", "Соня"),
        jail="Соня",
    )
    assert r.outcome["killed"] == [] and r.outcome["wounded"] == [] and r.outcome["checks"] == {}
    for actor in ("Эсмеральда", "Вася", "Кикимора", "Шапочка"):
        assert gm_order(r, actor)["reason"] == "target_jailed"
    assert r.state.by_name("Соня").status == "jailed"


def test_out_of_play_player_may_not_order_when_jailed_earlier():
    """«Набравший большинство при голосовании игрок садится в тюрьму - его спецдействие не
    срабатывает» — on every later turn too: he is no longer an active player."""
    state = play(new_game(), jail="Вася").state
    assert FORUM.allowed_actions(state, sid(state, "Вася")) == ()
    order = Order(sid(state, "Вася"), "check", sid(state, "Кикимора"))
    assert FORUM.check_order(state, order) == "not_active"
    target_out = Order(sid(state, "Эсмеральда"), "shoot", sid(state, "Вася"))
    assert FORUM.check_order(state, target_out) == "target_not_active"


def test_only_special_roles_may_order_when_the_turn_starts():
    """«...игроки, наделенные специальными ролями (а это все, кроме честных жителей) могут сделать
    заказ на использование своего спецдействия.»"""
    state = new_game()
    expected = {"recruiter": ("check",), "mafioso": ("shoot",), "citizen": (), "reanimator": ("protect",),
                "killer": ("shoot",), "thief": ("steal",)}
    for seat in state.seats:
        assert FORUM.allowed_actions(state, seat.id) == expected[seat.role]
    order = Order(sid(state, "Джон"), "check", sid(state, "Вася"))
    assert FORUM.check_order(state, order) == "not_your_action"
    order = Order(sid(state, "Вася"), "shoot", sid(state, "Джон"))
    assert FORUM.check_order(state, order) == "not_your_action"


# -- the recruiter ----------------------------------------------------------------------------------


def test_recruiter_learns_the_targets_role_when_he_checks():
    """«Рекрутёр может делать проверки (т.е. узнавать роль другого игрока)» and «кого-то
    проверили (результат проверки высылается проверяющему в личку)»"""
    state = new_game()
    r = play(state, ("Вася", "check", "Эсмеральда"))
    assert r.outcome["checks"] == {"Вася": {"Эсмеральда": "killer"}}
    (result,) = events_of(r, "check_result")
    assert result.audience == seat_audience(sid(state, "Вася"))
    assert result.data == {"target": sid(state, "Эсмеральда"), "target_name": "Эсмеральда", "role": "killer"}
    assert r.outcome["granted_check"] == []


def test_checked_citizen_gets_one_check_next_turn_when_the_recruiter_checks_him():
    """«...если проверенный - обычный честный житель, то на следующий ход проверенный наделяется
    возможностью сделать одну собственную проверку.»"""
    state = new_game()
    r = play(state, ("Вася", "check", "Джон"))
    assert r.outcome["checks"] == {"Вася": {"Джон": "citizen"}}
    assert r.outcome["granted_check"] == ["Джон"]
    state = r.state
    assert "granted_check" in state.by_name("Джон").flags
    assert FORUM.allowed_actions(state, sid(state, "Джон")) == ("check",)
    r = play(state, ("Джон", "check", "Кикимора"), jail="Соня")
    assert r.outcome["checks"] == {"Джон": {"Кикимора": "mafioso"}}
    (result,) = events_of(r, "check_result")
    assert result.audience == seat_audience(sid(state, "Джон"))


def test_granted_check_lasts_one_turn_when_the_citizen_does_not_use_it():
    """«Таким образом, он на один ход становится вольно-наемным комиссаром»"""
    state = play(new_game(), ("Вася", "check", "Джон")).state
    state = play(state, jail="Соня").state
    assert "granted_check" not in state.by_name("Джон").flags
    assert FORUM.allowed_actions(state, sid(state, "Джон")) == ()
    order = Order(sid(state, "Джон"), "check", sid(state, "Кикимора"))
    assert FORUM.check_order(state, order) == "not_your_action"


def test_checked_citizen_learns_he_was_checked_when_his_check_is_granted():
    """«...и в частности узнает о том, что его проверили.»"""
    state = new_game()
    r = play(state, ("Вася", "check", "Джон"))
    (notice,) = events_of(r, "granted_check")
    assert notice.audience == seat_audience(sid(state, "Джон"))
    assert notice.data["phase"] == "day 2"
    assert "role" not in notice.data  # he is not told who checked him


def test_free_commissar_check_grants_nothing_when_he_checks_a_citizen():
    """«Таким образом, он на один ход становится вольно-наемным комиссаром» — a commissar, not a
    recruiter: his check has no recruiter's feature, so it grants nobody a check."""
    state = play(new_game(), ("Вася", "check", "Джон")).state
    r = play(state, ("Джон", "check", "Фроло"), jail="Соня")
    assert r.outcome["checks"] == {"Джон": {"Фроло": "citizen"}}
    assert r.outcome["granted_check"] == []


def test_check_grants_nothing_when_the_target_has_a_role():
    """«...если проверенный - обычный честный житель...» — only a plain citizen is given a check."""
    state = new_game()
    r = play(state, ("Вася", "check", "Шапочка"))
    assert r.outcome["checks"] == {"Вася": {"Шапочка": "reanimator"}}
    assert r.outcome["granted_check"] == []
    assert not events_of(r, "granted_check")


def test_check_result_arrives_when_the_checker_is_shot_the_same_turn():
    """«После ведущий обрабатывает заказы на спецдействия всех игроков. В результате кто-то
    оказывается убит, кто-то (возможно) ранен, кого-то проверили» — all orders act at once."""
    state = new_game()
    r = play(state, ("Вася", "check", "Кикимора"), ("Эсмеральда", "shoot", "Вася"))
    assert r.outcome["killed"] == ["Вася"]
    assert r.outcome["checks"] == {"Вася": {"Кикимора": "mafioso"}}


def test_no_check_is_granted_when_the_checked_citizen_is_killed_that_turn():
    """«...на следующий ход проверенный наделяется возможностью...» — a killed citizen has no next
    turn to check in."""
    state = new_game()
    r = play(state, ("Вася", "check", "Джон"), ("Эсмеральда", "shoot", "Джон"))
    assert r.outcome["killed"] == ["Джон"]
    assert r.outcome["granted_check"] == []


# -- the reanimator ---------------------------------------------------------------------------------


def test_protected_player_survives_wounded_when_he_is_shot():
    """«Даже если в его подопечного будут стрелять - он выживет, правда, будет отмечено, что он
    ранен.»"""
    state = new_game()
    r = play(state, ("Шапочка", "protect", "Джон"), ("Кикимора", "shoot", "Джон"))
    assert r.outcome["killed"] == []
    assert r.outcome["wounded"] == ["Джон"]
    assert r.state.by_name("Джон").status == "active"
    assert "wounded" in r.state.by_name("Джон").flags
    (wounded,) = events_of(r, "wounded")
    assert wounded.audience == PUBLIC and wounded.data["name"] == "Джон"


def test_wound_heals_after_one_day_when_the_next_turn_ends():
    """«Ранение проходит через игровой день и никак не ограничивает игрока от совершения любых
    игровых действий.»"""
    state = play(new_game(), ("Шапочка", "protect", "Вася"), ("Кикимора", "shoot", "Вася")).state
    assert "wounded" in state.by_name("Вася").flags
    assert FORUM.allowed_actions(state, sid(state, "Вася")) == ("check",)
    r = play(state, ("Вася", "check", "Эсмеральда"), jail="Соня")
    assert r.outcome["checks"] == {"Вася": {"Эсмеральда": "killer"}}
    assert "wounded" not in r.state.by_name("Вася").flags
    assert r.outcome["wounded"] == []


def test_reanimator_may_not_protect_himself_when_he_orders():
    """«Реаниматор: "Защищаю Красную Шапочку" (себя реаниматор защитить не может!)»"""
    state = new_game()
    order = Order(sid(state, "Шапочка"), "protect", sid(state, "Шапочка"))
    assert FORUM.check_order(state, order) == "self_forbidden"
    r = play(state, ("Шапочка", "protect", "Шапочка"), ("Эсмеральда", "shoot", "Шапочка"))
    assert gm_order(r, "Шапочка")["result"] == "rejected"
    assert r.outcome["killed"] == ["Шапочка"]


def test_protection_covers_every_shot_when_two_shots_hit_one_player():
    """«Реаниматор может защитить любого игрока от покушения в этот ход.»"""
    state = new_game()
    r = play(state, ("Шапочка", "protect", "Вася"), ("Кикимора", "shoot", "Вася"), ("Эсмеральда", "shoot", "Вася"))
    assert r.outcome["killed"] == [] and r.outcome["wounded"] == ["Вася"]


def test_protected_player_is_not_wounded_when_nobody_shoots_him():
    """«...правда, будет отмечено, что он ранен.» — only when he was shot at."""
    state = new_game()
    r = play(state, ("Шапочка", "protect", "Вася"), ("Кикимора", "shoot", "Джон"))
    assert r.outcome["wounded"] == [] and r.outcome["killed"] == ["Джон"]


# -- the mafia and the killer ---------------------------------------------------------------------


def test_unprotected_player_is_killed_when_the_mafia_shoots_him():
    """«Каждый ход они коллективно решают, в кого из игроков сделать выстрел - и убить, если им не
    помешает реаниматор.»"""
    state = new_game()
    r = play(state, ("Кикимора", "shoot", "Джон"))
    assert r.outcome["killed"] == ["Джон"]
    assert r.state.by_name("Джон").status == "killed"
    (killed,) = events_of(r, "killed")
    assert killed.audience == PUBLIC and killed.data == {"seat": sid(state, "Джон"), "name": "Джон", "role": "citizen"}


def test_mafia_shoots_when_only_one_mafioso_orders():
    """«При этом достаточно, чтобы один из мафиози обозначил выстрел.»"""
    state = new_game()
    r = play(state, ("Баба Яга", "shoot", "Фроло"))
    assert r.outcome["killed"] == ["Фроло"]


def test_mafia_shoots_once_when_the_mafiosi_agree():
    """«Каждый ход они коллективно решают, в кого из игроков сделать выстрел»"""
    state = new_game()
    r = play(state, ("Кикимора", "shoot", "Фроло"), ("Баба Яга", "shoot", "Фроло"))
    assert r.outcome["killed"] == ["Фроло"]
    assert gm_order(r, "Кикимора")["result"] == gm_order(r, "Баба Яга")["result"] == "done"


def test_mafia_shot_fails_when_two_mafiosi_name_different_targets():
    """«Но если двое мафиози укажут разные цели - выстрел не состоится!»"""
    state = new_game()
    r = play(state, ("Кикимора", "shoot", "Фроло"), ("Баба Яга", "shoot", "Джон"))
    assert r.outcome["killed"] == []
    assert gm_order(r, "Кикимора")["reason"] == gm_order(r, "Баба Яга")["reason"] == "mafia_disagree"


def test_mafia_shot_fails_when_mafiosi_disagree_and_one_aims_at_the_jailed():
    """«Но если двое мафиози укажут разные цели - выстрел не состоится!» — they named different
    targets, even if one of them is jailed in the same close."""
    state = new_game()
    r = play(state, ("Кикимора", "shoot", "Бонд"), ("Баба Яга", "shoot", "Джон"), jail="Бонд")
    assert r.outcome["killed"] == []
    assert gm_order(r, "Баба Яга")["reason"] == "mafia_disagree"


def test_jailed_mafiosos_order_does_not_count_when_the_others_agree():
    """«...его спецдействие не срабатывает» — a jailed mafioso's order is no part of the mafia's
    decision that turn."""
    state = new_game()
    r = play(state, ("Кикимора", "shoot", "Фроло"), ("Баба Яга", "shoot", "Джон"), jail="Кикимора")
    assert r.outcome["killed"] == ["Джон"]


def test_killer_shoots_on_his_own_when_the_mafia_shoots_too():
    """«В этой игре мафия усилена киллером, который может сделать свой независимый выстрел.
    Итого, на начало игры мафия делает два выстрела.»"""
    state = new_game()
    r = play(state, ("Кикимора", "shoot", "Фроло"), ("Эсмеральда", "shoot", "Джон"))
    assert set(r.outcome["killed"]) == {"Фроло", "Джон"}


def test_killer_shot_stands_when_the_mafiosi_disagree():
    """«...киллером, который может сделать свой независимый выстрел.»"""
    state = new_game()
    r = play(state, ("Кикимора", "shoot", "Фроло"), ("Баба Яга", "shoot", "Джон"), ("Эсмеральда", "shoot", "Соня"))
    assert r.outcome["killed"] == ["Соня"]


def test_shooters_may_not_aim_at_themselves_when_they_order():
    """«Мафиози и Киллер: "Стреляю в Маленького Джона".» — a shot is at another player."""
    state = new_game()
    for name in ("Кикимора", "Эсмеральда"):
        assert FORUM.check_order(state, Order(sid(state, name), "shoot", sid(state, name))) == "self_forbidden"
    assert FORUM.check_order(state, Order(sid(state, "Вася"), "check", sid(state, "Вася"))) == "self_forbidden"


# -- the thief ------------------------------------------------------------------------------------


def test_theft_from_a_citizen_gives_nothing_when_he_holds_no_check():
    """«Конечно, если он обкрадет честного жителя, ничего не произойдет.»"""
    state = new_game()
    r = play(state, ("Негодяй", "steal", "Фроло", "Джон"))
    assert r.outcome["killed"] == [] and r.outcome["checks"] == {} and r.outcome["wounded"] == []
    data = gm_order(r, "Негодяй")
    assert data["result"] == "done" and data["stole"] is None
    assert not [e for e in r.events if e.audience == seat_audience(sid(state, "Негодяй"))]


def test_theft_from_any_mafioso_takes_the_collective_shot_when_another_one_ordered_it():
    """«Если жулик обкрадет любого из мафиози - он украдет их коллективный выстрел, независимо от
    того, кто из них на самом деле стрелял (делал заказ на выстрел).»"""
    state = new_game()
    r = play(state, ("Кикимора", "shoot", "Вася"), ("Негодяй", "steal", "Фроло", "Баба Яга"))
    assert r.outcome["killed"] == ["Фроло"]
    assert gm_order(r, "Кикимора")["reason"] == "stolen"
    assert gm_order(r, "Негодяй")["stole"] == "mafia_shot"


def test_theft_from_a_mafioso_takes_the_shot_when_no_mafioso_ordered():
    """«...крадет спецдействие другого игрока и применяет его по своему желанию.» — the ability is
    stolen, whether or not its owner ordered it this turn."""
    state = new_game()
    r = play(state, ("Негодяй", "steal", "Фроло", "Кикимора"))
    assert r.outcome["killed"] == ["Фроло"]


def test_theft_from_the_killer_takes_his_shot_when_he_ordered_one():
    """«...крадет спецдействие другого игрока и применяет его по своему желанию.»"""
    state = new_game()
    r = play(state, ("Эсмеральда", "shoot", "Вася"), ("Кикимора", "shoot", "Джон"),
             ("Негодяй", "steal", "Соня", "Эсмеральда"))
    assert set(r.outcome["killed"]) == {"Соня", "Джон"}  # the mafia's own shot is untouched
    assert gm_order(r, "Эсмеральда")["reason"] == "stolen"


def test_theft_from_the_recruiter_tells_the_thief_only_the_role_when_applied():
    """«Жулику не сообщается, какую именно роль он украл, но иногда он может об этом догадаться по
    результату применения этого действия.»"""
    state = new_game()
    r = play(state, ("Вася", "check", "Кикимора"), ("Негодяй", "steal", "Эсмеральда", "Вася"))
    assert r.outcome["checks"] == {"Негодяй": {"Эсмеральда": "killer"}}
    assert gm_order(r, "Вася")["reason"] == "stolen"
    mine = [e for e in r.events if e.audience == seat_audience(sid(state, "Негодяй"))]
    assert [(e.kind, dict(e.data)) for e in mine] == [
        ("check_result", {"target": sid(state, "Эсмеральда"), "target_name": "Эсмеральда", "role": "killer"})
    ]
    assert not [e for e in r.events if e.audience == seat_audience(sid(state, "Вася"))]


def test_stolen_recruiter_check_grants_a_check_when_it_finds_a_citizen():
    """«...если проверенный - обычный честный житель, то на следующий ход проверенный наделяется
    возможностью сделать одну собственную проверку.» — the feature belongs to the action, which
    the thief took whole."""
    state = new_game()
    r = play(state, ("Негодяй", "steal", "Джон", "Вася"))
    assert r.outcome["checks"] == {"Негодяй": {"Джон": "citizen"}}
    assert r.outcome["granted_check"] == ["Джон"]


def test_theft_from_a_citizen_takes_his_granted_check_when_he_holds_one():
    """«Таким образом, он на один ход становится вольно-наемным комиссаром» — for that turn the
    citizen has a special action, and a special action is what the thief steals."""
    state = play(new_game(), ("Вася", "check", "Джон")).state
    r = play(state, ("Джон", "check", "Кикимора"), ("Негодяй", "steal", "Фроло", "Джон"), jail="Соня")
    assert r.outcome["checks"] == {"Негодяй": {"Фроло": "citizen"}}
    assert r.outcome["granted_check"] == []  # a commissar's check, not a recruiter's
    assert gm_order(r, "Джон")["reason"] == "stolen"


def test_theft_from_the_reanimator_protects_the_thiefs_target_when_applied():
    """«...крадет спецдействие другого игрока и применяет его по своему желанию.»"""
    state = new_game()
    r = play(state, ("Шапочка", "protect", "Вася"), ("Кикимора", "shoot", "Вася"), ("Эсмеральда", "shoot", "Джон"),
             ("Негодяй", "steal", "Джон", "Шапочка"))
    assert r.outcome["killed"] == ["Вася"]
    assert r.outcome["wounded"] == ["Джон"]


def test_thief_may_apply_the_stolen_action_to_himself_when_he_chooses():
    """«Жулик может - на свой страх и риск - применить украденное действие к себе.»"""
    state = new_game()
    order = Order(sid(state, "Негодяй"), "steal", sid(state, "Негодяй"), sid(state, "Эсмеральда"))
    assert FORUM.check_order(state, order) is None
    r = play(state, ("Негодяй", "steal", "Негодяй", "Эсмеральда"))
    assert r.outcome["killed"] == ["Негодяй"]  # at his own risk
    r = play(state, ("Эсмеральда", "shoot", "Негодяй"), ("Негодяй", "steal", "Негодяй", "Шапочка"))
    assert r.outcome["wounded"] == ["Негодяй"]


def test_thief_may_apply_the_action_to_its_owner_when_he_chooses():
    """«Может также применить действие к тому, у кого он его украл.»"""
    state = new_game()
    r = play(state, ("Эсмеральда", "shoot", "Вася"), ("Негодяй", "steal", "Шапочка", "Шапочка"))
    assert r.outcome["wounded"] == []
    r = play(state, ("Кикимора", "shoot", "Шапочка"), ("Негодяй", "steal", "Шапочка", "Шапочка"))
    assert r.outcome["wounded"] == ["Шапочка"]  # the reanimator protected through the thief
    r = play(state, ("Негодяй", "steal", "Эсмеральда", "Эсмеральда"))
    assert r.outcome["killed"] == ["Эсмеральда"]


def test_thief_may_not_steal_from_himself_when_he_orders():
    """«...крадет спецдействие другого игрока»"""
    state = new_game()
    order = Order(sid(state, "Негодяй"), "steal", sid(state, "Вася"), sid(state, "Негодяй"))
    assert FORUM.check_order(state, order) == "self_forbidden"
    assert FORUM.check_order(state, Order(sid(state, "Негодяй"), "steal", sid(state, "Вася"))) == "missing_source"


def test_theft_fails_and_the_owner_acts_when_the_target_is_jailed():
    """«...также не срабатывает спецдействие, направленное против него.» — the theft is one action:
    aimed at the jailed player it fails whole, and the owner keeps his own."""
    state = new_game()
    r = play(state, ("Эсмеральда", "shoot", "Вася"), ("Негодяй", "steal", "Бонд", "Эсмеральда"), jail="Бонд")
    assert r.outcome["killed"] == ["Вася"]
    assert gm_order(r, "Негодяй")["reason"] == "target_jailed"


def test_theft_fails_when_its_source_is_jailed():
    """«...также не срабатывает спецдействие, направленное против него.»"""
    state = new_game()
    r = play(state, ("Негодяй", "steal", "Вася", "Эсмеральда"), jail="Эсмеральда")
    assert r.outcome["killed"] == []
    assert gm_order(r, "Негодяй")["reason"] == "source_jailed"


# -- winning ---------------------------------------------------------------------------------------

SMALL = [
    ("Вася", "recruiter"),
    ("Кикимора", "mafioso"),
    ("Джон", "citizen"),
    ("Шапочка", "reanimator"),
    ("Эсмеральда", "killer"),
    ("Фроло", "citizen"),
    ("Негодяй", "thief"),
]


def test_town_wins_when_only_the_town_is_left_active():
    """«Так продолжается до тех пор, пока не останется активной только одна команда. В результате
    объявляется победа одной из команд: честных жителей, мафии или жулика.»"""
    state = new_game(SMALL)
    state = play(state, jail="Негодяй").state
    state = play(state, jail="Кикимора").state
    assert not state.over and state.phase == "day 3"
    r = play(state, jail="Эсмеральда")
    assert r.state.over and r.state.winner == "town"
    assert r.outcome["over"] is True and r.outcome["winner"] == "town"
    (over,) = events_of(r, "game_over")
    assert over.audience == PUBLIC and over.data["winner"] == "town"


def test_mafia_wins_when_only_the_mafia_is_left_active():
    """«...пока не останется активной только одна команда.»"""
    state = new_game(SMALL)
    r = play(state, ("Кикимора", "shoot", "Вася"), ("Эсмеральда", "shoot", "Шапочка"), jail="Негодяй")
    assert not r.state.over
    r = play(r.state, ("Эсмеральда", "shoot", "Фроло"), jail="Джон")
    assert r.state.over and r.state.winner == "mafia"


def test_thief_wins_when_he_alone_is_left_active():
    """«Он - сам за себя, и может выиграть только в случае, если останется один.»"""
    roster = [("Вася", "citizen"), ("Кикимора", "mafioso"), ("Джон", "citizen"), ("Шапочка", "citizen"),
              ("Эсмеральда", "killer"), ("Фроло", "citizen"), ("Негодяй", "thief")]
    state = new_game(roster)
    r = play(state, ("Кикимора", "shoot", "Вася"), ("Эсмеральда", "shoot", "Джон"), jail="Шапочка")
    r = play(r.state, ("Эсмеральда", "shoot", "Кикимора"), jail="Фроло")
    assert not r.state.over  # the thief and the killer are left
    r = play(r.state, jail="Эсмеральда")
    assert r.state.over and r.state.winner == "thief"


def test_game_goes_on_when_the_thief_and_one_team_are_left():
    """«...может выиграть только в случае, если останется один.»"""
    state = new_game(SMALL)
    r = play(state, ("Кикимора", "shoot", "Вася"), ("Эсмеральда", "shoot", "Шапочка"), jail="Джон")
    r = play(r.state, ("Эсмеральда", "shoot", "Фроло"), jail="Кикимора")
    assert [s.name for s in r.state.active()] == ["Эсмеральда", "Негодяй"]
    assert not r.state.over and r.state.winner is None


def test_nobody_wins_when_nobody_is_left_active():
    """«Так продолжается до тех пор, пока не останется активной только одна команда.» — and when
    no team is left at all, nobody wins."""
    state = new_game(SMALL)
    r = play(state, ("Кикимора", "shoot", "Джон"), ("Эсмеральда", "shoot", "Шапочка"), jail="Вася")
    r = play(r.state, jail="Фроло")
    assert [s.name for s in r.state.active()] == ["Кикимора", "Эсмеральда", "Негодяй"]
    # The thief is jailed while the mafioso and the killer shoot each other.
    r = play(r.state, ("Кикимора", "shoot", "Эсмеральда"), ("Эсмеральда", "shoot", "Кикимора"), jail="Негодяй")
    assert set(r.outcome["killed"]) == {"Кикимора", "Эсмеральда"}
    assert r.state.over and r.state.winner == "none" and r.outcome["winner"] == "none"


def test_jailed_and_killed_players_share_the_win_when_their_team_wins():
    """«Даже будучи посаженным или убитым, вы остаетесь членом своей команды и выигрываете или
    проигрываете вместе с ней.»"""
    state = new_game(SMALL)
    state = play(state, ("Эсмеральда", "shoot", "Вася"), jail="Негодяй").state
    state = play(state, jail="Кикимора").state
    r = play(state, jail="Эсмеральда")
    assert r.state.winner == "town"
    (over,) = events_of(r, "game_over")
    town = {s["name"]: s["status"] for s in over.data["seats"] if s["faction"] == "town"}
    assert town == {"Вася": "killed", "Джон": "active", "Шапочка": "active", "Фроло": "active"}


def test_game_accepts_no_more_turns_when_it_is_over():
    """«В результате объявляется победа одной из команд» — and the game ends there."""
    state = new_game(SMALL)
    for jailed in ("Негодяй", "Кикимора", "Эсмеральда"):
        state = play(state, jail=jailed).state
    assert state.over
    assert FORUM.voters(state) == () and FORUM.allowed_actions(state, sid(state, "Вася")) == ()
    assert FORUM.check_order(state, Order(sid(state, "Вася"), "check", sid(state, "Джон"))) == "game_over"
    with pytest.raises(ValueError):
        play(state, votes={})


# -- setup -----------------------------------------------------------------------------------------


def test_mafia_members_know_each_other_when_the_game_starts():
    """«Все члены этой команды знают друг друга до начала игры»"""
    _state, events = FORUM.new_game([(i, n, r) for i, (n, r) in enumerate(ROSTER, 1)])
    (team,) = [e for e in events if e.kind == "team"]
    assert team.audience == faction_audience("mafia")
    assert {(m["name"], m["role"]) for m in team.data["members"]} == {
        ("Кикимора", "mafioso"), ("Баба Яга", "mafioso"), ("Эсмеральда", "killer")}


def test_each_player_learns_only_his_own_role_when_the_game_starts():
    """«Вторая команда - мафия. Все члены этой команды знают друг друга» — the others know only
    themselves: each role goes to its own seat."""
    state, events = FORUM.new_game([(i, n, r) for i, (n, r) in enumerate(ROSTER, 1)])
    roles = [e for e in events if e.kind == "role"]
    assert len(roles) == len(ROSTER)
    for e in roles:
        assert e.audience == seat_audience(e.data["seat"])
        assert state.seat(e.data["seat"]).role == e.data["role"]
    public = [e for e in events if e.audience == PUBLIC]
    assert all("role" not in str(e.data) for e in public)


def test_default_table_fits_every_size_when_between_seven_and_twenty():
    """«Итак, в игре участвуют три команды.» — each default table has all three, and mafia is
    fewer than the town («...но их не так много, как честных жителей»)."""
    for size in range(7, 21):
        roles = FORUM.default_roles(size)
        assert len(roles) == size
        mafia = sum(r in ("mafioso", "killer") for r in roles)
        town = sum(r in ("citizen", "recruiter", "reanimator") for r in roles)
        assert roles.count("thief") == 1 and 2 <= mafia < town
        assert roles.count("recruiter") == roles.count("reanimator") == roles.count("killer") == 1
        FORUM.new_game([(i, f"p{i}", r) for i, r in enumerate(roles, 1)])
    assert default_role_table(9).count("mafioso") == 1  # the seed's own game: 9 players, 2 mafia
    for size in (6, 21):
        with pytest.raises(ValueError):
            FORUM.default_roles(size)


@pytest.mark.parametrize(
    "roles",
    [
        ["citizen"] * 6 + ["wizard"],
        ["citizen"] * 6 + ["thief"],
        ["mafioso"] * 6 + ["killer"],
        ["citizen"] * 5 + ["thief", "thief", "mafioso"],
        ["mafioso"],
        ["citizen"] * 20 + ["mafioso"],
    ],
    ids=["unknown role", "no mafia", "no town", "two thieves", "too few", "too many"],
)
def test_new_game_is_refused_when_the_role_list_makes_no_game(roles):
    """«Итак, в игре участвуют три команды.» — the GM may choose the counts, within a list that
    makes a game."""
    with pytest.raises(ValueError):
        FORUM.new_game([(i, f"p{i}", r) for i, r in enumerate(roles, 1)])


def test_new_game_accepts_a_gm_table_when_it_has_town_and_mafia():
    """«Итак, в игре участвуют три команды.» — the thief may be left out by the GM."""
    roles = ["citizen"] * 4 + ["recruiter", "mafioso", "mafioso", "killer"]
    state, _events = FORUM.new_game([(i, f"p{i}", r) for i, r in enumerate(roles, 1)])
    assert state.phase == "day 1" and len(state.active()) == 8


def test_roles_stay_hidden_in_public_events_when_reveal_roles_is_off():
    """«Набравший большинство при голосовании игрок садится в тюрьму» — whether the public learns
    his role is the GM's choice (option reveal_roles, on by default)."""
    state = new_game(reveal_roles=False)
    r = play(state, ("Эсмеральда", "shoot", "Джон"), jail="Кикимора")
    for kind in ("jailed", "killed"):
        (event,) = events_of(r, kind)
        assert "role" not in event.data
    r = play(new_game(), ("Эсмеральда", "shoot", "Джон"), jail="Кикимора")
    assert events_of(r, "jailed")[0].data["role"] == "mafioso"


def test_turn_moves_to_the_next_day_when_it_closes():
    """«И начинается новый игровой день.»"""
    state = new_game()
    assert state.phase == "day 1"
    r = play(state)
    assert r.state.phase == "day 2" and state.phase == "day 1"  # the old state is untouched


def test_orders_are_summarised_for_the_gm_when_the_turn_closes():
    """«В конце хода ведущий подытоживает собранную информацию о голосовании и заказах
    спецдействий.»"""
    state = new_game()
    r = play(state, ("Вася", "check", "Кикимора"), ("Кикимора", "shoot", "Фроло"), ("Баба Яга", "shoot", "Джон"),
             ("Шапочка", "protect", "Соня"), ("Негодяй", "steal", "Фроло", "Бонд"), jail="Бонд")
    orders = events_of(r, "order")
    assert {e.audience for e in orders} == {GM}
    assert {e.data["actor_name"] for e in orders} == {"Вася", "Кикимора", "Баба Яга", "Шапочка", "Негодяй"}
    assert gm_order(r, "Вася")["learned_role"] == "mafioso"
    assert gm_order(r, "Негодяй")["reason"] == "source_jailed"


# -- an automatic game's choice: a mafia shot nobody ordered (docs/rulesets/forum.md) ---------------
def test_unordered_mafia_shot_does_not_happen_by_default():
    """«После ведущий обрабатывает заказы на спецдействия всех игроков.» No order, no shot: the
    default, and a human GM's game."""
    resolution = play(new_game())
    assert events_of(resolution, "killed") == [] and events_of(resolution, "shot_by_lot") == []


def test_unordered_mafia_shot_is_aimed_by_lot_when_the_setup_says_so():
    """An automatic game whose setup chose «lot»: with no mafioso's order, the lot aims the mafia's
    shot at a player in play outside the mafia and not jailed today; the GM's log says so."""
    state = new_game(missing_shot="lot")
    resolution = play(state, seed=3)
    (lot,) = events_of(resolution, "shot_by_lot")
    assert lot.audience == GM
    target = state.seat(lot.data["target"])
    assert target.faction != "mafia" and target.name != "Бонд"
    assert [e.data["name"] for e in events_of(resolution, "killed")] == [target.name]
    # The same seed aims the same shot: the preview and the close agree.
    assert events_of(play(state, seed=3), "shot_by_lot")[0].data["target"] == lot.data["target"]


def test_an_ordered_mafia_shot_draws_no_lot():
    state = new_game(missing_shot="lot")
    resolution = play(state, ("Кикимора", "shoot", "Джон"))
    assert events_of(resolution, "shot_by_lot") == []
    assert [e.data["name"] for e in events_of(resolution, "killed")] == ["Джон"]


def test_the_lot_shoots_nobody_when_no_mafioso_is_free():
    """The killer's own shot is his: without a mafioso in play (both jailed or out) there is no
    collective shot to aim."""
    roster = [("Вася", "recruiter"), ("Кикимора", "mafioso"), ("Джон", "citizen"), ("Эсмеральда", "killer"),
              ("Фроло", "citizen"), ("Бонд", "citizen"), ("Соня", "citizen")]
    resolution = play(new_game(roster, missing_shot="lot"), jail="Кикимора")
    assert events_of(resolution, "shot_by_lot") == [] and events_of(resolution, "killed") == []
