"""The club rule set (seed 003_0bb82146af1d6e5c.txt), one rule case per test: the docstring quotes
the sentence of the seed the test enforces, the body plays it through the pure engine."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from games.engine.events import GM, PUBLIC, faction_audience, seat_audience
from games.engine.orders import Order, PhaseInputs
from games.engine.rulesets import get_ruleset
from games.rulesets.club.engine import club_rating, default_role_table, end_of_game, rating_breakdown
from games.engine.state import GameState

CLUB = get_ruleset("club")
NOW = datetime(2024, 3, 1, 20, 0, tzinfo=UTC)

# The seed's table of twelve, seated 1..12.
ROSTER = [
    ("Анна", "civilian"),
    ("Борис", "don"),
    ("Вера", "commissar"),
    ("Глеб", "civilian"),
    ("Дина", "mafioso"),
    ("Егор", "doctor"),
    ("Жанна", "putana"),
    ("Зоя", "civilian"),
    ("Игорь", "maniac"),
    ("Кира", "mafioso"),
    ("Лев", "civilian"),
    ("Мила", "civilian"),
]
NAMES = [n for n, _r in ROSTER]


def new_game(roster=ROSTER, **options) -> GameState:
    state, _events = CLUB.new_game([(i, n, r) for i, (n, r) in enumerate(roster, 1)], options=options)
    return state


def sid(state: GameState, name: str) -> int:
    return state.by_name(name).id


def resolve(state, *orders, votes=None, gm=None):
    vote_ids = {}
    for voter, target in (votes or {}).items():
        vote_ids[sid(state, voter)] = sid(state, target) if target not in (None, "peace") else target
    order_map = {}
    for actor, action, target, *rest in orders:
        detail = rest[0] if rest else None
        order = Order(actor=sid(state, actor), action=action, target=sid(state, target) if target else None,
                      detail=detail)
        order_map[order.actor] = order
    gm = dict(gm or {})
    if "fouls" in gm:
        gm["fouls"] = [sid(state, n) for n in gm["fouls"]]
    return CLUB.resolve(state, PhaseInputs(votes=vote_ids, orders=order_map, gm=gm), seed=0, now=NOW)


def day1(**options) -> GameState:
    """The game after the acquaintance night."""
    return resolve(new_game(**options)).state


def everyone_on(state, target, **changes):
    """Every player in play votes for `target`; the target himself votes for the next player."""
    votes = {}
    for s in state.active():
        if s.name == target:
            votes[s.name] = next(o.name for o in state.active() if o.name != target)
        else:
            votes[s.name] = target
    votes.update(changes)
    return votes


def vote_out(state, target, *orders, gm=None):
    return resolve(state, *orders, votes=everyone_on(state, target), gm=gm)


def peaceful_day(state, *orders, gm=None):
    """A day closed with nobody voting: nobody is voted out."""
    return resolve(state, *orders, gm=gm)


def events_of(resolution, kind):
    return [e for e in resolution.events if e.kind == kind]


def gm_order(resolution, actor_name):
    (event,) = [e for e in events_of(resolution, "order") if e.data["actor_name"] == actor_name]
    return event.data


def out(state, *names, status="killed") -> GameState:
    """The same game with these players already out of play (to set up a late position)."""
    return state.with_seats(replace(state.by_name(n), status=status) for n in names)


TIE_VOTES = {  # Анна 6, Глеб 6
    "Борис": "Анна", "Вера": "Анна", "Дина": "Анна", "Егор": "Анна", "Жанна": "Анна", "Глеб": "Анна",
    "Зоя": "Глеб", "Игорь": "Глеб", "Кира": "Глеб", "Лев": "Глеб", "Мила": "Глеб", "Анна": "Глеб",
}


# -- setup -------------------------------------------------------------------------------------------


def test_default_table_is_the_seeds_when_twelve_play():
    """«За столом одновременно играет 12 игроков ... За столом присутствуют дон мафии, две мафии,
    путана, комиссар, доктор, маньяк и мирные жители.»"""
    roles = CLUB.default_roles(12)
    assert sorted(roles) == sorted(["don", "mafioso", "mafioso", "putana", "commissar", "doctor", "maniac"]
                                   + ["civilian"] * 5)


def test_default_table_fits_every_size_when_between_eight_and_fourteen():
    """«Они делятся случайным образом на две команды» — every table from 8 to 14 has both teams,
    each active role once, and fewer blacks than reds."""
    for size in range(8, 15):
        roles = default_role_table(size)
        assert len(roles) == size
        blacks = sum(r in ("don", "mafioso", "putana") for r in roles)
        assert blacks == (size + 1) // 3 and blacks < size - blacks
        for role in ("don", "putana", "commissar", "doctor", "maniac"):
            assert roles.count(role) == 1
        CLUB.new_game([(i, f"p{i}", r) for i, r in enumerate(roles, 1)])
    for size in (7, 15):
        with pytest.raises(ValueError):
            CLUB.default_roles(size)


@pytest.mark.parametrize(
    "roles",
    [
        ["civilian"] * 7 + ["wizard"],
        ["civilian"] * 8,
        ["mafioso"] * 8,
        ["civilian"] * 6 + ["don", "don"],
        ["civilian"] * 6 + ["don"],
        ["civilian"] * 14 + ["don"],
    ],
    ids=["unknown role", "no black", "no red", "two dons", "too few", "too many"],
)
def test_new_game_is_refused_when_the_role_list_makes_no_game(roles):
    """«Одна команда – черные (дон мафии, мафия и путана), другая команда – красные»"""
    with pytest.raises(ValueError):
        CLUB.new_game([(i, f"p{i}", r) for i, r in enumerate(roles, 1)])


def test_game_opens_with_the_acquaintance_night_when_it_starts():
    """«В начале игры, сразу после раздачи карт, наступает первая ночь»"""
    state, events = CLUB.new_game([(i, n, r) for i, (n, r) in enumerate(ROSTER, 1)])
    assert state.phase == "night 0"
    roles = [e for e in events if e.kind == "role"]
    assert len(roles) == 12 and all(e.audience == seat_audience(e.data["seat"]) for e in roles)
    assert not [e for e in events if e.kind == "team"]


def test_blacks_learn_each_other_when_the_acquaintance_night_closes():
    """«просыпаются только черные игроки, которые знакомятся друг с другом: дон показывает пальцами
    пистолет, а путана демонстрирует мизинец»"""
    r = resolve(new_game())
    (team,) = events_of(r, "team")
    assert team.audience == faction_audience("black")
    assert {(m["name"], m["role"]) for m in team.data["members"]} == {
        ("Борис", "don"), ("Дина", "mafioso"), ("Жанна", "putana"), ("Кира", "mafioso")}
    assert r.state.phase == "day 1"
    assert r.outcome["killed"] == [] and len(r.outcome["alive"]) == 12


def test_nobody_acts_when_it_is_the_acquaintance_night():
    """«В первую ночь ни у одной из активных ролей нет действия, лишь знакомство друг с другом.»"""
    state = new_game()
    for seat in state.seats:
        assert CLUB.allowed_actions(state, seat.id) == ()
    assert CLUB.voters(state) == ()
    assert CLUB.check_order(state, Order(sid(state, "Борис"), "kill", sid(state, "Анна"))) == "not_night"
    r = resolve(state, ("Борис", "kill", "Анна"), ("Вера", "check", "Борис"))
    assert r.outcome["killed"] == [] and r.outcome["checks"] == {}
    assert {gm_order(r, n)["result"] for n in ("Борис", "Вера")} == {"rejected"}


def test_phases_follow_each_other_when_they_close():
    """«Игра состоит из сменяющихся дня и ночи.» — night 0, day 1, (revote 1), night 1, day 2, ..."""
    state = day1()
    assert state.phase == "day 1"
    r = resolve(state, votes=TIE_VOTES)
    assert r.state.phase == "revote 1"
    r = resolve(r.state)
    assert r.state.phase == "night 1"
    r = resolve(r.state)
    assert r.state.phase == "day 2"
    r = vote_out(r.state, "Зоя")
    assert r.state.phase == "night 2"


# -- the day vote ------------------------------------------------------------------------------------


def test_most_fingers_vote_a_player_out_when_the_day_closes():
    """«Если и по его итогам максимальное количество пальцев у нескольких игроков, то объявляется
    мирный день» — one player with the most fingers is voted out; his card is opened («Убитый днём
    дон после вскрытия карты»)."""
    state = day1()
    votes = everyone_on(state, "Глеб", Анна="Зоя", Борис="Зоя", Дина="Мила")
    r = resolve(state, votes=votes)
    assert r.outcome["tally"] == {"Глеб": 8, "Зоя": 2, "Анна": 1, "Мила": 1}
    assert r.outcome["executed"] == ["Глеб"] and r.outcome["peaceful"] is False
    assert r.state.by_name("Глеб").status == "executed"
    (event,) = events_of(r, "executed")
    assert event.audience == PUBLIC and event.data["role"] == "civilian"


def test_vote_against_oneself_is_refused_when_cast():
    """«Нельзя голосовать против себя.»"""
    state = day1()
    anna = sid(state, "Анна")
    assert CLUB.check_vote(state, anna, anna) == "self_vote_forbidden"
    r = resolve(state, votes={"Анна": "Анна", "Борис": "Глеб"})
    assert r.outcome["votes"]["Анна"] is None
    assert r.outcome["tally"] == {"Глеб": 1}
    (dropped,) = events_of(r, "vote_dropped")
    assert dropped.audience == GM and dropped.data["reason"] == "self_vote_forbidden"


def test_silent_player_is_shown_as_not_voting_when_the_day_closes():
    """«Нельзя воздержаться от голосования.» — by post a player who does not vote is shown to the GM
    as not voting; he is not counted as voting for himself."""
    state = day1()
    r = resolve(state, votes={"Анна": "Глеб", "Борис": "Глеб"})
    assert r.outcome["votes"]["Вера"] is None
    assert r.outcome["tally"] == {"Глеб": 2}
    (result,) = events_of(r, "vote_result")
    assert {p["name"] for p in result.data["not_voting"]} == set(NAMES) - {"Анна", "Борис"}


def test_vote_for_peace_is_refused_when_cast():
    """«Нельзя воздержаться от голосования.» — there is no vote for peace; a peaceful day comes only
    from a tie."""
    state = day1()
    assert CLUB.check_vote(state, sid(state, "Анна"), "peace") == "peace_not_allowed"
    r = resolve(state, votes={"Анна": "peace", "Борис": "Глеб"})
    assert r.outcome["votes"]["Анна"] is None and r.outcome["executed"] == ["Глеб"]


def test_tied_leaders_go_to_a_revote_when_the_first_vote_ties():
    """«Переголосование может быть только одно.» — a tie sends the leaders to one re-vote."""
    state = day1()
    r = resolve(state, votes=TIE_VOTES)
    assert r.outcome["revote"] == ["Анна", "Глеб"] and r.outcome["executed"] == []
    assert r.outcome["peaceful"] is False
    assert r.state.phase == "revote 1"
    assert set(CLUB.vote_targets(r.state)) == {sid(state, "Анна"), sid(state, "Глеб")}
    assert events_of(r, "revote")[0].audience == PUBLIC


def test_two_tied_players_do_not_vote_when_the_revote_is_between_two():
    """«если на переголосовании осталось два игрока, то они не голосуют. Если больше двух, то
    голосуют все игроки.»"""
    state = resolve(day1(), votes=TIE_VOTES).state
    anna, gleb = sid(state, "Анна"), sid(state, "Глеб")
    assert anna not in CLUB.voters(state) and gleb not in CLUB.voters(state)
    assert len(CLUB.voters(state)) == 10
    assert CLUB.check_vote(state, anna, gleb) == "not_a_voter"
    assert CLUB.check_vote(state, sid(state, "Вера"), sid(state, "Зоя")) == "bad_target"
    r = resolve(state, votes={"Вера": "Анна", "Зоя": "Анна", "Анна": "Глеб"})
    assert r.outcome["executed"] == ["Анна"] and "Анна" not in r.outcome["votes"]
    assert r.outcome["peaceful"] is False


def test_everyone_votes_when_three_are_tied():
    """«Если больше двух, то голосуют все игроки.»"""
    state = day1()
    votes = {"Борис": "Анна", "Вера": "Анна", "Дина": "Анна", "Егор": "Анна",
             "Жанна": "Глеб", "Зоя": "Глеб", "Игорь": "Глеб", "Кира": "Глеб",
             "Лев": "Зоя", "Мила": "Зоя", "Анна": "Зоя", "Глеб": "Зоя"}
    r = resolve(state, votes=votes)
    assert set(r.outcome["revote"]) == {"Анна", "Глеб", "Зоя"}
    assert len(CLUB.voters(r.state)) == 12
    assert CLUB.check_vote(r.state, sid(state, "Анна"), sid(state, "Анна")) == "self_vote_forbidden"
    assert CLUB.check_vote(r.state, sid(state, "Анна"), sid(state, "Глеб")) is None


def test_day_is_peaceful_when_the_revote_ties_again():
    """«Если и по его итогам максимальное количество пальцев у нескольких игроков, то объявляется
    мирный день (никто не умирает) и наступает ночь.»"""
    state = resolve(day1(), votes=TIE_VOTES).state
    r = resolve(state, votes={"Вера": "Анна", "Зоя": "Глеб"})
    assert r.outcome["executed"] == [] and r.outcome["peaceful"] is True
    assert len(r.outcome["alive"]) == 12 and r.state.phase == "night 1"
    assert events_of(r, "no_execution")[0].data["reason"] == "tie_again"


def test_day_is_peaceful_when_everyone_got_one_finger():
    """«В случае, если во время первого голосования все игроки получили по одному пальцу, то
    объявляется мирный день.»"""
    state = day1()
    votes = {NAMES[i]: NAMES[(i + 1) % 12] for i in range(12)}
    r = resolve(state, votes=votes)
    assert set(r.outcome["tally"].values()) == {1} and len(r.outcome["tally"]) == 12
    assert r.outcome["peaceful"] is True and r.outcome["revote"] == []
    assert r.state.phase == "night 1"
    assert events_of(r, "no_execution")[0].data["reason"] == "all_one"


def test_monologues_rotate_when_a_new_round_starts():
    """«Каждый новый круг начинает говорить/голосовать следующий номер ... Если первым высказывался
    номер 1, то голосование начнется с номера 2, оправдательные речи с номера 3 (если номера 3 нет
    среди оправдывающихся, то оправдываться начинает следующий после него оправдывающийся игрок),
    переголосование также с номера 3.»"""
    state = day1()
    number = {s.id: i for i, s in enumerate(state.seats, 1)}
    assert [number[i] for i in CLUB.speaking_order(state)] == list(range(1, 13))
    assert [number[i] for i in CLUB.voting_order(state)][0] == 2
    revote = resolve(state, votes=TIE_VOTES).state  # Анна (1) and Глеб (4) tied
    assert [number[i] for i in CLUB.speaking_order(revote)] == [4, 1]
    assert [number[i] for i in CLUB.voting_order(revote)][0] == 3
    night = resolve(revote).state
    assert CLUB.speaking_order(night) == ()
    day2 = resolve(night).state
    assert [number[i] for i in CLUB.speaking_order(day2)][:2] == [4, 5]
    # Without a re-vote the next day begins one number after the vote's first voter.
    day2_plain = resolve(vote_out(day1(), "Мила").state).state
    assert [number[i] for i in CLUB.speaking_order(day2_plain)][0] == 3


def test_round_skips_a_player_out_of_play_when_his_number_comes():
    """«Каждый новый круг начинает говорить/голосовать следующий номер.» — a number out of play
    passes to the next player in play."""
    state = vote_out(day1(), "Вера").state  # number 3 is out
    day2 = resolve(state).state
    assert CLUB.speaking_order(day2)[0] == sid(state, "Глеб")


def test_finishing_vote_is_the_last_one_in_voting_order_when_a_player_is_voted_out():
    """«-1 для красного за решающий голос (добивание) мирного жителя в первый день» — the finishing
    vote is the last vote for the player voted out, in the order the round votes."""
    state = day1()
    r = vote_out(state, "Глеб")
    # The vote starts at number 2, so number 1 (Анна) votes last.
    assert r.state.memory["day_log"]["1"]["decisive"] == sid(state, "Анна")


# -- the don ----------------------------------------------------------------------------------------


def test_don_voted_out_takes_a_player_with_him_when_he_ordered_it():
    """«убитый днём дон после вскрытия карты имеет право забрать с собой в могилу (убить) любого
    игрока»"""
    state = day1()
    assert CLUB.allowed_actions(state, sid(state, "Борис")) == ("take",)
    r = vote_out(state, "Борис", ("Борис", "take", "Вера"))
    assert r.outcome["executed"] == ["Борис"] and r.outcome["taken"] == "Вера"
    assert r.state.by_name("Вера").status == "killed"
    (taken,) = events_of(r, "taken")
    assert taken.audience == PUBLIC and taken.data["by_name"] == "Борис" and "role" not in taken.data


def test_dons_take_fails_when_he_is_not_voted_out():
    """«убитый днём дон ... имеет право забрать с собой» — only a don voted out takes anyone."""
    r = vote_out(day1(), "Мила", ("Борис", "take", "Вера"))
    assert r.outcome["taken"] is None and r.state.by_name("Вера").is_active
    assert gm_order(r, "Борис")["reason"] == "not_executed"


def test_dons_take_from_the_day_counts_when_he_is_voted_out_in_the_revote():
    """«убитый днём дон ... имеет право забрать с собой» — the day's order stands through its re-vote."""
    state = day1()
    votes = dict(TIE_VOTES, Борис="Анна", Зоя="Борис", Игорь="Борис", Кира="Борис", Лев="Борис", Мила="Борис",
                 Анна="Борис", Глеб="Анна")
    votes["Вера"] = votes["Дина"] = votes["Егор"] = votes["Жанна"] = "Анна"
    r = resolve(state, ("Борис", "take", "Егор"), votes=votes)
    assert set(r.outcome["revote"]) == {"Анна", "Борис"}
    assert gm_order(r, "Борис")["result"] == "carried"
    r = resolve(r.state, votes={"Вера": "Борис", "Зоя": "Борис", "Дина": "Анна"})
    assert r.outcome["executed"] == ["Борис"] and r.outcome["taken"] == "Егор"


def test_don_takes_nobody_when_he_has_three_fouls():
    """«Если у дона мафии есть хотя бы три фола, то он лишается права «забрать в могилу» игрока.»"""
    state = vote_out(day1(), "Мила", gm={"fouls": ["Борис", "Борис", "Борис"]}).state
    state = resolve(state).state  # night 1
    assert CLUB.allowed_actions(state, sid(state, "Борис")) == ()
    assert CLUB.check_order(state, Order(sid(state, "Борис"), "take", sid(state, "Вера"))) == "no_take_right"
    r = vote_out(state, "Борис", ("Борис", "take", "Вера"))
    assert r.outcome["executed"] == ["Борис"] and r.outcome["taken"] is None


def test_don_reaching_three_fouls_today_takes_nobody_when_voted_out():
    """«Если у дона мафии есть хотя бы три фола, то он лишается права «забрать в могилу» игрока.»"""
    state = resolve(day1(), gm={"fouls": ["Борис", "Борис"]}).state
    state = resolve(state).state
    r = vote_out(state, "Борис", ("Борис", "take", "Вера"), gm={"fouls": ["Борис"]})
    assert r.outcome["executed"] == ["Борис"] and r.outcome["taken"] is None
    assert gm_order(r, "Борис")["reason"] == "no_take_right"


def test_don_killed_at_night_takes_nobody_when_the_maniac_kills_him():
    """«Если же ночью маньяк убивает дона, то у него нет возможности забрать с собой кого-либо в
    могилу.»"""
    state = peaceful_day(day1()).state
    assert CLUB.check_order(state, Order(sid(state, "Борис"), "take", sid(state, "Вера"))) == "not_day"
    r = resolve(state, ("Игорь", "kill", "Борис"))
    assert r.outcome["killed"] == ["Борис"] and r.outcome["taken"] is None
    assert len(r.state.active()) == 11


# -- the night -------------------------------------------------------------------------------------


def night1(**options) -> GameState:
    return peaceful_day(day1(**options)).state


def test_each_role_has_its_night_action_when_night_comes():
    """«Ночью поочередно просыпаются все кроме мирных жителей.»"""
    state = night1()
    actions = {s.name: CLUB.allowed_actions(state, s.id) for s in state.seats}
    assert actions["Борис"] == actions["Дина"] == ("kill",)
    assert actions["Жанна"] == ("freeze",)
    assert actions["Егор"] == ("heal",)
    assert actions["Вера"] == ("check", "note")
    assert actions["Игорь"] == ("kill",)
    assert actions["Анна"] == ()
    assert CLUB.voters(state) == ()


def test_dons_word_decides_when_the_mafia_names_different_targets():
    """«Они совещаются и беззвучно сообщают ведущему, кого они убивают этой ночью. При этом решающее
    слово за доном мафии.»"""
    r = resolve(night1(), ("Борис", "kill", "Анна"), ("Дина", "kill", "Глеб"), ("Кира", "kill", "Анна"))
    assert r.outcome["killed"] == ["Анна"]
    assert gm_order(r, "Дина")["reason"] == "overruled"
    assert gm_order(r, "Кира")["result"] == "done"


def test_one_mafiosos_order_is_the_kill_when_the_don_is_silent():
    """«При этом решающее слово за доном мафии.» — a don who names nobody leaves it to the mafiosi."""
    r = resolve(night1(), ("Дина", "kill", "Глеб"))
    assert r.outcome["killed"] == ["Глеб"]


def test_mafiosi_must_agree_when_the_don_is_dead():
    """«Они совещаются и беззвучно сообщают ведущему, кого они убивают» — without the don's word the
    mafiosi name one target, or there is no kill."""
    state = out(night1(), "Борис")
    r = resolve(state, ("Дина", "kill", "Глеб"), ("Кира", "kill", "Анна"))
    assert r.outcome["killed"] == []
    assert gm_order(r, "Дина")["reason"] == gm_order(r, "Кира")["reason"] == "mafia_disagree"
    r = resolve(state, ("Дина", "kill", "Глеб"), ("Кира", "kill", "Глеб"))
    assert r.outcome["killed"] == ["Глеб"]


def test_frozen_commissar_does_not_check_when_the_putana_freezes_him():
    """«Если путана указывает на комиссара, то он в эту ночь не проверяет»"""
    r = resolve(night1(), ("Жанна", "freeze", "Вера"), ("Вера", "check", "Борис"))
    assert r.outcome["checks"] == {} and r.outcome["frozen"] == ["Вера"]
    assert gm_order(r, "Вера")["reason"] == "frozen"
    (frozen,) = events_of(r, "frozen")
    assert frozen.audience == seat_audience(r.state.by_name("Вера").id)


def test_frozen_doctor_does_not_heal_even_himself_when_the_putana_freezes_him():
    """«если на доктора – он не лечит ... Если путана заморозила доктора, то он себя вылечить уже не
    сможет.»"""
    r = resolve(night1(), ("Жанна", "freeze", "Егор"), ("Егор", "heal", "Егор"), ("Борис", "kill", "Егор"))
    assert r.outcome["killed"] == ["Егор"] and r.outcome["healed"] == []
    assert r.outcome["frozen"] == ["Егор"]
    r = resolve(night1(), ("Жанна", "freeze", "Егор"), ("Егор", "heal", "Анна"), ("Борис", "kill", "Анна"))
    assert r.outcome["killed"] == ["Анна"]


def test_frozen_maniac_does_not_kill_when_the_putana_freezes_him():
    """«если на маньяка – он не убивает»"""
    r = resolve(night1(), ("Жанна", "freeze", "Игорь"), ("Игорь", "kill", "Борис"))
    assert r.outcome["killed"] == [] and r.outcome["frozen"] == ["Игорь"]


def test_freezing_a_civilian_does_nothing_when_he_has_no_action():
    """«Если путана морозит мирного жителя, то ничего не происходит.»"""
    r = resolve(night1(), ("Жанна", "freeze", "Анна"), ("Борис", "kill", "Глеб"))
    assert r.outcome["frozen"] == ["Анна"] and r.outcome["killed"] == ["Глеб"]
    assert not events_of(r, "frozen")  # he sleeps: nobody shows him the gesture


def test_mafia_kill_is_cancelled_when_the_putana_freezes_the_last_mafia():
    """«Если путана по ошибке морозит последнюю оставшуюся мафию, то выстрел мафии не засчитывается,
    так как мафия была заморожена.»"""
    state = out(night1(), "Борис", "Кира")
    r = resolve(state, ("Жанна", "freeze", "Дина"), ("Дина", "kill", "Глеб"))
    assert r.outcome["killed"] == []
    assert gm_order(r, "Дина")["reason"] == "last_mafia_frozen"
    # While two shooters remain a freeze on one of them changes nothing.
    r = resolve(out(night1(), "Кира"), ("Жанна", "freeze", "Дина"), ("Дина", "kill", "Глеб"))
    assert r.outcome["killed"] == ["Глеб"]


def test_putana_may_not_freeze_one_player_a_third_night_running_when_she_tries():
    """«Путана не имеет права «морозить» одного игрока более двух ночей подряд.»"""
    state = night1()
    vera = sid(state, "Вера")
    for _night in range(2):
        state = resolve(state, ("Жанна", "freeze", "Вера")).state
        state = peaceful_day(state).state
    order = Order(sid(state, "Жанна"), "freeze", vera)
    assert CLUB.check_order(state, order) == "frozen_thrice"
    # A night without that freeze breaks the run.
    state = resolve(state, ("Жанна", "freeze", "Анна")).state
    state = peaceful_day(state).state
    assert CLUB.check_order(state, order) is None


def test_putana_alone_may_kill_and_freeze_when_she_is_the_last_black():
    """«Если же по ходу игры так получилось, что у черных осталась только путана, то у нее есть
    возможность и убивать, и морозить.»"""
    state = out(night1(), "Борис", "Дина", "Кира")
    putana = sid(state, "Жанна")
    assert CLUB.allowed_actions(state, putana) == ("kill", "freeze")
    r = resolve(state, ("Жанна", "kill", "Глеб", {"freeze": sid(state, "Вера")}), ("Вера", "check", "Жанна"))
    assert r.outcome["killed"] == ["Глеб"] and r.outcome["frozen"] == ["Вера"] and r.outcome["checks"] == {}
    r = resolve(state, ("Жанна", "kill", "Глеб"))
    assert r.outcome["killed"] == ["Глеб"]
    # While another black lives she only freezes.
    assert CLUB.check_order(night1(), Order(putana, "kill", sid(state, "Глеб"))) == "not_your_action"
    assert CLUB.check_order(night1(), Order(putana, "kill", sid(state, "Глеб"),
                                            detail={"freeze": 3})) == "not_your_action"


def test_doctor_heals_from_everything_when_the_commissar_is_attacked_three_ways():
    """«если в одну ночь комиссар был убит мафией, заморожен путаной и убит маньяком, то лечение
    доктора сохраняет этому игроку жизнь и сохраняет возможность проверить игрока»"""
    r = resolve(night1(), ("Борис", "kill", "Вера"), ("Жанна", "freeze", "Вера"), ("Игорь", "kill", "Вера"),
                ("Егор", "heal", "Вера"), ("Вера", "check", "Кира"))
    assert r.outcome["killed"] == [] and r.outcome["frozen"] == []
    assert r.outcome["healed"] == ["Вера"]
    assert r.outcome["checks"] == {"Вера": {"Кира": "black"}}


def test_doctor_may_not_heal_one_player_two_nights_running_when_he_tries():
    """«лечить одного и того же человека (в том числе и себя) можно не более одной ночи подряд»"""
    state = night1()
    doctor = sid(state, "Егор")
    state = peaceful_day(resolve(state, ("Егор", "heal", "Егор")).state).state
    assert CLUB.check_order(state, Order(doctor, "heal", doctor)) == "healed_twice"
    assert CLUB.check_order(state, Order(doctor, "heal", sid(state, "Анна"))) is None


def test_doctor_may_heal_the_same_player_again_when_a_frozen_night_came_between():
    """«Ситуация, когда доктор лечил игрока N - заморожен - лечил игрока N разрешена.»"""
    state = night1()
    doctor, anna = sid(state, "Егор"), sid(state, "Анна")
    state = peaceful_day(resolve(state, ("Егор", "heal", "Анна")).state).state
    state = peaceful_day(resolve(state, ("Жанна", "freeze", "Егор"), ("Егор", "heal", "Вера")).state).state
    assert CLUB.check_order(state, Order(doctor, "heal", anna)) is None


def test_commissar_learns_red_or_black_when_he_checks():
    """«если игрок черный – палец вниз, а если красный – палец вверх» — the maniac plays for red;
    «Комиссар имеет право проверять одного и того же игрока несколько раз.»"""
    state = night1()
    r = resolve(state, ("Вера", "check", "Игорь"))
    assert r.outcome["checks"] == {"Вера": {"Игорь": "red"}}
    (result,) = events_of(r, "check_result")
    assert result.audience == seat_audience(sid(state, "Вера")) and result.data["color"] == "red"
    state = peaceful_day(resolve(state, ("Вера", "check", "Жанна")).state).state
    r = resolve(state, ("Вера", "check", "Жанна"))
    assert r.outcome["checks"] == {"Вера": {"Жанна": "black"}}


def test_commissars_note_is_read_in_the_morning_when_he_is_killed_that_night():
    """«Комиссар имеет возможность оставить ведущему записку (результат проверки в эту ночь), которая
    будет оглашена ведущим днем только в том случае, если комиссар был убит.»"""
    r = resolve(night1(), ("Вера", "note", "Дина"), ("Борис", "kill", "Вера"))
    assert r.outcome["killed"] == ["Вера"]
    assert r.outcome["checks"] == {"Вера": {"Дина": "black"}}
    assert r.outcome["note"] == {"Дина": "black"}
    (note,) = events_of(r, "note")
    assert note.audience == PUBLIC and note.data["target_name"] == "Дина" and note.data["name"] == "Вера"


def test_note_burns_when_the_commissar_survives_the_night():
    """«Если комиссар оставляет записку, а его не убивают, то записка сгорает.» and «Комиссар имеет
    право оставить лишь одну записку за игру.»"""
    state = night1()
    r = resolve(state, ("Вера", "note", "Дина"))
    assert r.outcome["note"] is None and not events_of(r, "note")
    state = peaceful_day(r.state).state
    commissar = sid(state, "Вера")
    assert CLUB.allowed_actions(state, commissar) == ("check",)
    assert CLUB.check_order(state, Order(commissar, "note", sid(state, "Кира"))) == "note_used"


def test_maniac_kills_or_abstains_but_never_himself_when_night_comes():
    """«Ночью он имеет право убить любого игрока ... Маньяк имеет право воздержаться от убийства.
    Самоубийство исключено.»"""
    state = night1()
    maniac = sid(state, "Игорь")
    assert CLUB.check_order(state, Order(maniac, "kill", maniac)) == "self_forbidden"
    assert resolve(state, ("Игорь", "kill", "Кира")).outcome["killed"] == ["Кира"]
    assert resolve(state).outcome["killed"] == []


def test_night_victims_leave_without_their_card_when_morning_comes():
    """«Ведущий позволяет игрокам проснуться и объявляет, кто был убит ночью ... Они покидают стол без
    звуков и без жестов.»"""
    r = resolve(night1(), ("Борис", "kill", "Егор"), ("Игорь", "kill", "Кира"))
    assert r.outcome["killed"] == ["Егор", "Кира"]
    for event in events_of(r, "killed"):
        assert event.audience == PUBLIC and "role" not in event.data
    assert events_of(r, "night_result")[0].audience == PUBLIC


def test_orders_are_summarised_for_the_gm_when_the_night_closes():
    """«Только ведущий имеет право оглашать результаты дня, ночи» — the GM gets every order and what
    came of it."""
    r = resolve(night1(), ("Борис", "kill", "Егор"), ("Егор", "heal", "Егор"), ("Вера", "check", "Борис"),
                ("Жанна", "freeze", "Игорь"), ("Игорь", "kill", "Кира"))
    orders = events_of(r, "order")
    assert {e.audience for e in orders} == {GM} and len(orders) == 5
    assert gm_order(r, "Борис")["outcome"] == "healed"
    assert gm_order(r, "Вера")["color"] == "black"


# -- the end of the game -------------------------------------------------------------------------------


def test_game_is_a_draw_when_nobody_is_left():
    """«Если не осталось живых игроков, объявляется ничья.»"""
    state = out(night1(), *[n for n in NAMES if n not in ("Кира", "Игорь")])
    r = resolve(state, ("Кира", "kill", "Игорь"), ("Игорь", "kill", "Кира"))
    assert r.outcome["over"] is True and r.outcome["winner"] == "none"


def test_red_wins_when_every_black_is_dead():
    """«Красные выигрывают только когда убиты все игроки чёрной команды.»"""
    state = out(day1(), "Борис", "Дина", "Жанна")
    r = vote_out(state, "Кира")
    assert r.outcome["over"] is True and r.outcome["winner"] == "red"
    (over,) = events_of(r, "game_over")
    assert over.data["reason"] == "blacks_dead"


def test_black_wins_when_every_red_is_dead():
    """«Если живых игроков не осталось только у одной из команд, победа присуждается противоположной
    команде.»"""
    state = out(night1(), "Анна", "Вера", "Глеб", "Егор", "Зоя", "Игорь", "Лев")
    r = resolve(state, ("Борис", "kill", "Мила"))
    assert r.outcome["winner"] == "black"
    assert events_of(r, "game_over")[0].data["reason"] == "reds_dead"


def test_black_wins_early_when_no_maniac_is_left_and_blacks_are_not_fewer():
    """«если не осталось маньяка, а черных игроков не меньше, чем красных»"""
    state = out(night1(), "Анна", "Глеб", "Зоя", "Лев", "Игорь", "Вера")  # 4 blacks; Егор, Мила left
    r = resolve(state, ("Борис", "kill", "Мила"), ("Егор", "heal", "Мила"))
    assert r.outcome["killed"] == [] and r.outcome["winner"] == "black"
    assert events_of(r, "game_over")[0].data["reason"] == "guaranteed"


def test_black_wins_early_when_no_doctor_is_left_and_reds_are_fewer():
    """«А также, если не осталось доктора, и число игроков красной команды меньше числа игроков
    чёрной команды.»"""
    # After a day: 3 blacks against the maniac and one civilian, night next.
    state = out(day1(), "Анна", "Вера", "Глеб", "Егор", "Зоя", "Лев", "Кира")
    r = vote_out(state, "Борис")  # 2 blacks (Дина, Жанна) against Игорь and Мила: not yet
    assert r.outcome["over"] is False
    state = out(day1(), "Анна", "Вера", "Глеб", "Егор", "Зоя", "Лев")  # 4 blacks, Игорь, Мила
    r = vote_out(state, "Мила")
    assert r.outcome["winner"] == "black"


def test_black_wins_early_when_blacks_outnumber_reds_at_daybreak():
    """«чёрные могут выиграть досрочно, если при правильных действиях они могут гарантировать себе
    победу» — more blacks than reds at the start of a day vote out a red every day, whatever the
    maniac and the doctor do (docs/rulesets/club.md)."""
    state = out(night1(), "Анна", "Глеб", "Зоя", "Лев", "Мила", "Вера")  # 4 blacks; Егор, Игорь
    r = resolve(state, ("Борис", "kill", "Егор"), ("Егор", "heal", "Егор"), ("Игорь", "kill", "Кира"))
    assert r.outcome["killed"] == ["Кира"] and r.outcome["winner"] == "black"


def test_game_goes_on_when_the_win_is_not_guaranteed():
    """«чёрные могут выиграть досрочно, если при правильных действиях они могут гарантировать себе
    победу» — equal numbers with the maniac alive are not a guaranteed win."""
    state = out(night1(), "Анна", "Глеб", "Зоя", "Лев", "Вера", "Кира")  # 3 blacks; Егор, Игорь, Мила
    r = resolve(state, ("Борис", "kill", "Мила"), ("Егор", "heal", "Мила"))
    assert r.outcome["healed"] == ["Мила"] and r.outcome["over"] is False  # 3 against 3 at daybreak
    state = out(day1(), "Анна", "Глеб", "Зоя", "Лев")  # 4 blacks; Вера, Егор, Игорь, Мила
    r = vote_out(state, "Мила")
    assert r.outcome["over"] is False  # 4 against 3, the night next: not proven


def test_end_of_game_rules_are_exposed_when_the_site_asks():
    state = out(day1(), "Анна", "Глеб", "Зоя", "Лев", "Мила", "Вера")
    assert end_of_game(state.seats, next_phase="day 3") == ("black", "guaranteed")
    assert end_of_game(state.seats, next_phase="revote 3") == (None, None)


# -- fouls -------------------------------------------------------------------------------------------


def test_three_fouls_give_a_finger_in_the_nearest_vote_when_the_day_closes():
    """«Если у игрока накапливаются три фола за игру, то он получает палец на ближайшем голосовании.»"""
    state = day1()
    r = resolve(state, votes={"Анна": "Глеб", "Борис": "Глеб", "Вера": "Зоя"},
                gm={"fouls": ["Зоя", "Зоя", "Зоя"]})
    assert r.outcome["tally"] == {"Глеб": 2, "Зоя": 2}
    assert r.outcome["revote"] == ["Глеб", "Зоя"]
    fouls = events_of(r, "foul")
    assert [e.data["fouls"] for e in fouls] == [1, 2, 3] and {e.audience for e in fouls} == {PUBLIC}
    # The finger was given once: the re-vote counts only the re-vote's votes.
    r = resolve(r.state, votes={"Анна": "Глеб"})
    assert r.outcome["tally"] == {"Глеб": 1}


def test_finger_waits_for_a_vote_he_is_in_when_the_nearest_is_a_revote_of_others():
    """«то он получает палец на ближайшем голосовании»"""
    state = resolve(day1(), votes=TIE_VOTES).state
    r = resolve(state, gm={"fouls": ["Мила", "Мила", "Мила"]})
    assert r.outcome["tally"] == {} and r.outcome["peaceful"] is True
    day2 = resolve(r.state).state
    r = resolve(day2, votes={"Анна": "Глеб"})
    assert r.outcome["tally"] == {"Глеб": 1, "Мила": 1}


def test_fourth_foul_removes_the_player_with_his_card_opened_when_given():
    """«Четвертый фол – вскрытие карты и уход игрока из-за стола. В случае вскрытия карты из-за
    четырех фолов человек не имеет 30 секунд на прощание. При этом день продолжается.»"""
    state = vote_out(day1(), "Мила", gm={"fouls": ["Зоя", "Зоя", "Зоя"]}).state
    r = resolve(state, gm={"fouls": ["Зоя"]})
    assert r.outcome["removed"] == ["Зоя"] and "Зоя" not in r.outcome["alive"]
    assert r.state.by_name("Зоя").status == "removed"
    (removed,) = events_of(r, "removed")
    assert removed.audience == PUBLIC and removed.data["role"] == "civilian"


def test_vote_for_the_removed_player_ends_the_days_killing_when_he_leads():
    """«Город может как проголосовать за убийство нового игрока, так и голосовать в игрока ушедшего по
    фолам, тогда в этот день убийств больше не будет.»"""
    state = day1()
    r = resolve(state, votes=everyone_on(state, "Зоя"), gm={"fouls": ["Зоя"] * 4})
    assert r.outcome["removed"] == ["Зоя"] and r.outcome["executed"] == []
    assert "Зоя" not in r.outcome["votes"]  # he left before the vote
    r = resolve(state, votes=everyone_on(state, "Мила"), gm={"fouls": ["Зоя"] * 4})
    assert r.outcome["executed"] == ["Мила"] and r.outcome["removed"] == ["Зоя"]


def test_removed_don_takes_nobody_when_his_fourth_foul_comes():
    """«В случае вскрытия карты из-за четырех фолов человек не имеет 30 секунд на прощание.»"""
    state = day1()
    r = resolve(state, ("Борис", "take", "Вера"), votes=everyone_on(state, "Борис"), gm={"fouls": ["Борис"] * 4})
    assert r.outcome["removed"] == ["Борис"] and r.outcome["taken"] is None
    assert gm_order(r, "Борис")["reason"] == "actor_removed"


def test_removed_players_night_order_fails_when_removed_that_night():
    """«Четвертый фол – вскрытие карты и уход игрока из-за стола.»"""
    state = vote_out(day1(), "Мила", gm={"fouls": ["Игорь"] * 3}).state
    r = resolve(state, ("Игорь", "kill", "Кира"), gm={"fouls": ["Игорь"]})
    assert r.outcome["killed"] == [] and r.outcome["removed"] == ["Игорь"]


def test_team_loses_at_once_when_the_gm_declares_a_forfeit():
    """«Запрещено нарочно получать фолы с тем, чтобы самоубийством помочь своей команде. В таких
    ситуациях объявляется победа противоположной команды.»"""
    state = day1()
    r = resolve(state, votes=everyone_on(state, "Мила"), gm={"fouls": ["Дина"] * 4, "forfeit": "black"})
    assert r.outcome["over"] is True and r.outcome["winner"] == "red"
    assert r.outcome["removed"] == ["Дина"] and r.outcome["executed"] == []
    assert events_of(r, "forfeit")[0].audience == PUBLIC
    r = resolve(state, gm={"forfeit": "mafia"})
    assert r.outcome["over"] is False and events_of(r, "forfeit_ignored")[0].audience == GM


# -- newcomers ---------------------------------------------------------------------------------------


def test_newcomer_cannot_be_voted_out_when_it_is_the_first_day():
    """«В свою самую первую игру каждый новичок имеет иммунитет на первый день и первую ночь»"""
    state = day1(newcomer_immunity=["Глеб"])
    gleb = sid(state, "Глеб")
    assert gleb not in CLUB.vote_targets(state)
    assert CLUB.check_vote(state, sid(state, "Анна"), gleb) == "target_immune"
    r = resolve(state, votes=everyone_on(state, "Глеб", Глеб="Мила"))
    assert r.outcome["executed"] == ["Мила"] and r.outcome["tally"] == {"Мила": 1}
    assert CLUB.check_order(state, Order(sid(state, "Борис"), "take", gleb)) == "target_immune"


def test_newcomer_cannot_be_killed_when_it_is_the_first_night():
    """«иммунитет на первый день и первую ночь»"""
    state = night1(newcomer_immunity=["Глеб"])
    gleb = sid(state, "Глеб")
    assert CLUB.check_order(state, Order(sid(state, "Борис"), "kill", gleb)) == "target_immune"
    assert CLUB.check_order(state, Order(sid(state, "Игорь"), "kill", gleb)) == "target_immune"
    r = resolve(state, ("Борис", "kill", "Глеб"))
    assert r.outcome["killed"] == [] and gm_order(r, "Борис")["reason"] == "target_immune"
    day2 = resolve(state).state
    assert gleb in CLUB.vote_targets(day2)


def test_maniac_may_kill_a_newcomer_when_he_finished_off_a_red_on_day_one():
    """«(но его может убить маньяк, если новичок добил в первый день красного игрока)»"""
    state = day1(newcomer_immunity=["Анна"])
    state = vote_out(state, "Мила").state  # the vote starts at number 2: Анна (1) votes last
    assert state.memory["day_log"]["1"]["decisive"] == sid(state, "Анна")
    assert CLUB.check_order(state, Order(sid(state, "Игорь"), "kill", sid(state, "Анна"))) is None
    assert CLUB.check_order(state, Order(sid(state, "Борис"), "kill", sid(state, "Анна"))) == "target_immune"
    assert resolve(state, ("Игорь", "kill", "Анна")).outcome["killed"] == ["Анна"]


def test_newcomer_option_is_refused_when_it_names_no_player_or_too_many():
    """«При этом за столом может быть не более 3 новичков.»"""
    with pytest.raises(ValueError):
        new_game(newcomer_immunity=["Волан-де-Морт"])
    with pytest.raises(ValueError):
        new_game(newcomer_immunity=["Анна", "Борис", "Вера", "Глеб"])
    assert new_game(newcomer_immunity=[1, "Борис"]).memory["immune"] == [1, 2]


# -- the rating --------------------------------------------------------------------------------------


def finish(state) -> GameState:
    """The game ended by a forfeit at its next phase, keeping everything that happened so far."""
    return resolve(state, gm={"forfeit": "black"}).state


def rules(state, seat_name=None):
    items = rating_breakdown(state)
    return sorted((i["name"], i["rule"], i["points"]) for i in items if seat_name in (None, i["name"]))


def test_civilian_killed_by_the_mafia_gets_a_point_when_it_is_the_first_night():
    """«+1 для мирного жителя за смерть от мафии в первую ночь» — the first night with actions
    (night 1; night 0 is only the acquaintance)."""
    state = finish(resolve(night1(), ("Борис", "kill", "Глеб")).state)
    assert rules(state) == [("Глеб", "civilian_killed_by_mafia_night1", 1.0)]
    assert club_rating(state)[sid(state, "Глеб")] == 1.0


def test_civilian_taken_by_the_don_gets_a_point_when_it_is_the_first_day():
    """«+1 для мирного жителя за смерть от дона в первый день»"""
    state = day1()
    r = resolve(state, ("Борис", "take", "Глеб"), votes=everyone_on(state, "Борис", Анна="Мила", Глеб="Мила"))
    # The finishing vote went to the don (black): no red is blamed.
    assert rules(finish(r.state)) == [("Глеб", "civilian_taken_by_don_day1", 1.0)]


def test_maniac_gets_a_point_when_he_kills_a_black_the_first_night_with_no_votes_on_him():
    """«+1 для маньяка за убийство чёрного в первую ночь, при условии, что по результатам голосования
    маньяк получил 0 голосов»"""
    state = finish(resolve(night1(), ("Игорь", "kill", "Кира")).state)
    assert rules(state) == [("Игорь", "maniac_killed_black_night1", 1.0)]
    voted = resolve(day1(), votes={"Анна": "Игорь", "Борис": "Глеб", "Вера": "Глеб"}).state  # a finger on him
    assert voted.phase == "night 1"
    r = resolve(voted, ("Игорь", "kill", "Кира"))
    assert r.outcome["killed"] == ["Кира"]
    assert rules(finish(r.state), "Игорь") == []


def test_player_removed_loses_three_points_when_the_game_is_rated():
    """«-3 за смерть по фолам, или в результате случайно открытой карты»"""
    state = finish(resolve(day1(), gm={"fouls": ["Лев"] * 4}).state)
    assert rules(state) == [("Лев", "removed", -3.0)]


def test_maniac_loses_a_point_when_he_kills_a_civilian_the_first_night():
    """«-1 для маньяка за убийство мирного жителя в первую ночь (при условии, что этот игрок не добивал
    красного игрока на голосовании в первый день)»"""
    state = finish(resolve(night1(), ("Игорь", "kill", "Глеб")).state)
    assert rules(state) == [("Игорь", "maniac_killed_civilian_night1", -1.0)]


def test_maniac_is_not_blamed_when_his_civilian_victim_finished_off_a_red():
    """«(при условии, что этот игрок не добивал красного игрока на голосовании в первый день)» and
    «Ещё минус один получит этот игрок, если его убьёт маньяк в первую ночь.»"""
    state = vote_out(day1(), "Мила").state  # Анна (civilian) finishes off Мила (civilian)
    state = finish(resolve(state, ("Игорь", "kill", "Анна")).state)
    assert rules(state) == [("Анна", "finished_off_civilian_day1", -1.0),
                            ("Анна", "finisher_killed_by_maniac_night1", -1.0)]


def test_maniac_loses_two_points_when_he_kills_an_active_card_the_first_night():
    """«-2 для маньяка за убийство активной карты в первую ночь»"""
    state = finish(resolve(night1(), ("Игорь", "kill", "Егор")).state)
    assert rules(state) == [("Игорь", "maniac_killed_active_night1", -2.0)]


def test_red_finishing_off_a_civilian_loses_a_point_when_it_is_the_first_day():
    """«-1 для красного за решающий голос (добивание) мирного жителя в первый день.»"""
    state = finish(vote_out(day1(), "Глеб").state)
    assert rules(state) == [("Анна", "finished_off_civilian_day1", -1.0)]


def test_red_finishing_off_an_active_card_loses_two_points_when_it_is_the_first_day():
    """«-2 для красного за решающий голос (добивание) активной карты в первый день.»"""
    state = finish(vote_out(day1(), "Вера").state)
    assert rules(state) == [("Анна", "finished_off_active_day1", -2.0)]


def test_black_finishing_off_a_red_loses_nothing_when_it_is_the_first_day():
    """«-1 для красного за решающий голос» — only a red is blamed."""
    state = day1()
    # The vote runs 2, 3, ..., 12, 1; with 11, 12 and 1 elsewhere, Кира (10, black) votes last on Глеб.
    votes = everyone_on(state, "Глеб", Лев="Зоя", Мила="Зоя", Анна="Зоя")
    state = finish(resolve(state, votes=votes).state)
    assert state.memory["day_log"]["1"]["decisive"] == sid(state, "Кира")
    assert rules(state) == []


def test_maniac_loses_a_point_when_his_shot_ends_the_game_for_red():
    """«-1 для маньяка за выстрел, который привёл к поражению красной команды, при условии, что в
    случае отказа от выстрела, игра бы продолжилась.»"""
    # 3 blacks against Игорь, Егор and Мила, day next: his shot at Мила makes it 3 against 2.
    state = out(night1(), "Анна", "Вера", "Глеб", "Зоя", "Лев", "Кира")
    r = resolve(state, ("Игорь", "kill", "Мила"), ("Борис", "kill", "Егор"), ("Егор", "heal", "Егор"))
    assert r.outcome["winner"] == "black"
    assert rules(r.state, "Игорь") == [("Игорь", "maniac_killed_civilian_night1", -1.0),
                                       ("Игорь", "maniac_shot_lost_game", -1.0)]


def test_maniac_loses_a_point_when_his_refusal_ends_the_game_for_red():
    """«-1 для маньяка за отказ от выстрела, который привёл к поражению красной команды, при условии,
    что в случае выстрела, игра могла бы продолжиться.»"""
    # 3 blacks against Игорь and Мила, day next: not shooting leaves 3 against 2 (no doctor);
    # shooting a black would have made it 2 against 2 with the maniac alive.
    state = out(night1(), "Анна", "Вера", "Глеб", "Зоя", "Лев", "Кира", "Егор")
    r = resolve(state)
    assert r.outcome["winner"] == "black"
    assert rules(r.state, "Игорь") == [("Игорь", "maniac_refusal_lost_game", -1.0)]
    # A frozen maniac refused nothing.
    r = resolve(state, ("Жанна", "freeze", "Игорь"))
    assert r.outcome["winner"] == "black" and rules(r.state, "Игорь") == []


def test_gm_marked_blunder_costs_points_when_the_team_lost():
    """«-1 для игрока, который мог своим действием гарантировать победу своей команды, но ошибся (при
    условии, что он обладал всей необходимой информацией). Ещё -2, если в результате его команда
    проиграла» — the GM judges who erred; the engine counts."""
    state = finish(day1())  # black forfeits: red wins
    anna, boris = sid(state, "Анна"), sid(state, "Борис")
    points = club_rating(state, blunders=[anna, boris])
    assert points[anna] == -1.0 and points[boris] == -3.0


def test_best_player_votes_give_a_point_each_when_the_game_is_over():
    """«После окончания игры каждый игрок отдаёт рейтинговый голос лучшему, по его мнению, игроку.»"""
    state = finish(day1())
    votes = {s.id: sid(state, "Вера") for s in state.seats if s.name != "Вера"}
    votes[sid(state, "Вера")] = sid(state, "Анна")
    points = club_rating(state, best_player_votes=votes)
    assert points[sid(state, "Вера")] == 11.0 and points[sid(state, "Анна")] == 1.0
    with pytest.raises(ValueError):
        club_rating(state, best_player_votes={1: 1})
    with pytest.raises(ValueError):
        club_rating(state, best_player_votes={1: 99})
    with pytest.raises(ValueError):
        club_rating(day1())  # the rating comes after the game


def test_gm_points_stay_within_the_limits_when_given():
    """«ведущий, по своему усмотрению, может добавить не более трёх рейтинговых голосов (суммарно на
    весь стол), или отнять не более трёх рейтинговых голосов (у каждого игрока)»"""
    state = finish(day1())
    points = club_rating(state, gm_points={1: 2, 2: 1, 3: -3, 4: -3, 5: -2.5})
    assert (points[1], points[2], points[3], points[4], points[5]) == (2.0, 1.0, -3.0, -3.0, -2.5)
    for bad in ({1: 2, 2: 1.5}, {1: -3.5}, {1: float("nan")}, {99: 1}, {1: True}):
        with pytest.raises(ValueError):
            club_rating(state, gm_points=bad)


def test_game_over_event_carries_the_automatic_points_when_the_game_ends():
    state = resolve(night1(), ("Борис", "kill", "Глеб")).state
    r = resolve(state, gm={"forfeit": "red"})
    (over,) = events_of(r, "game_over")
    assert over.audience == PUBLIC and over.data["winner"] == "black" and over.data["reason"] == "forfeit"
    points = {p["name"]: p["points"] for p in over.data["rating"]}
    assert points["Глеб"] == 1.0 and points["Анна"] == 0.0
    assert club_rating(r.state) == {p["seat"]: p["points"] for p in over.data["rating"]}


def test_game_accepts_no_more_phases_when_it_is_over():
    state = finish(day1())
    assert state.over and CLUB.voters(state) == () and CLUB.speaking_order(state) == ()
    assert CLUB.check_order(state, Order(1, "kill", 2)) == "game_over"
    with pytest.raises(ValueError):
        resolve(state)
