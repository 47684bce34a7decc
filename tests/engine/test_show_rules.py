"""The show rule set (seed 000_b6489824f3cd169a.txt), one rule case per test: the docstring quotes
the sentence of the seed the test enforces (or the open question it decides, docs/rulesets/show.md),
the body plays it through the pure engine."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from games.engine.events import GM, PUBLIC, faction_audience, seat_audience
from games.engine.orders import Order
from games.engine.rulesets import Ruleset
from games.rulesets.show.engine import SHOW, deal, default_roles, innate_keys, keys_of, winner_of
from games.rulesets.show.engine.facts import SLAVE, judge_sits
from games.rulesets.show.engine.roles import night_would_decide
from games.rulesets.show.engine.status import NotYours, full_status, public_status, visible_ballots
from tests.engine.show_helpers import (
    MASONS,
    NOW,
    ROSTER,
    close,
    day1,
    enslaved,
    events_of,
    everyone_votes,
    free_names,
    greet,
    inputs,
    new,
    night_orders,
    sid,
)

# -- heroes, teams and the deal ---------------------------------------------------------------------


def test_big_show_deals_six_masons_a_saviour_two_reptiloids_and_a_demon():
    """«В каждом Большом Шоу всегда ровно 10 участников, разбитых своими Ролями на три команды (7+2+1)»."""
    roles = default_roles(10)
    assert sorted(roles) == sorted(["mason"] * 6 + ["saviour", "reptiloid", "reptiloid", "demon"])
    assert {SHOW.roles[r].faction for r in roles} == {"masons", "reptiloids", "demon"}


def test_small_test_show_is_a_documented_option():
    """A GM's smaller test show: 5 heroes are 3 + 1 + 1; without a Demon on request."""
    assert sorted(default_roles(5)) == ["demon", "mason", "mason", "reptiloid", "saviour"]
    assert "demon" not in default_roles(5, demon=False)
    with pytest.raises(ValueError):
        default_roles(11)


def test_deal_is_a_permutation_fixed_by_the_seed():
    """«Каждый герой в начале Шоу приватно получает свою Роль»: dealt with the game's seed."""
    names = [n for n, _r in ROSTER]
    assert deal(names, 7) == deal(names, 7)
    assert sorted(deal(names, 7)) == sorted(default_roles(10))
    assert any(deal(names, s) != deal(names, 7) for s in range(8, 20))


def test_reptiloids_know_each_other_from_the_start():
    """«Рептилоиды знают друг друга со старта и действуют сообща против остальных.»"""
    _state, events = SHOW.new_game([(i, n, r) for i, (n, r) in enumerate(ROSTER, 1)])
    team = [e for e in events if e.kind == "team"]
    assert len(team) == 1 and team[0].audience == faction_audience("reptiloids")
    assert {m["name"] for m in team[0].data["members"]} == {"Зина", "Илья"}
    roles = [e for e in events if e.kind == "role"]
    assert all(e.audience == seat_audience(e.data["seat"]) for e in roles) and len(roles) == 10


def test_a_hero_has_three_keys_of_what_he_is_not():
    """«если герою досталась Роль Масона, то про него могут стать известны три Ключа: не-Рептилоид,
    не-Демон и не-Спаситель»."""
    assert set(keys_of("mason")) == {"not_reptiloid", "not_demon", "not_saviour"}
    assert set(keys_of("demon")) == {"not_mason", "not_saviour", "not_reptiloid"}


def test_innate_keys_after_the_deal():
    """«После раздачи Ролей в систему добавляются также врождённые персональные Ключи. Например,
    Демон знает про всех остальных участников что они не-Демоны и так далее.»"""
    state = new()
    demon = innate_keys(state, sid(state, "Кира"))
    assert all(demon[sid(state, n)] == ("not_demon",) for n in MASONS)
    zina = innate_keys(state, sid(state, "Зина"))
    assert set(zina[sid(state, "Илья")]) == set(keys_of("reptiloid"))  # the partner: his whole role
    assert zina[sid(state, "Кира")] == ("not_reptiloid",)
    mason = innate_keys(state, sid(state, "Аня"))
    assert set(mason) == {sid(state, "Аня")}  # a Mason learns nothing of the others
    _state, events = SHOW.new_game([(i, n, r) for i, (n, r) in enumerate(ROSTER, 1)])
    told = next(e for e in events if e.kind == "innate_keys" and e.audience == seat_audience(sid(state, "Кира")))
    assert told.data["keys"]["Аня"] == ["not_demon"] and "Кира" not in told.data["keys"]


# -- stages and timers ------------------------------------------------------------------------------


def test_the_show_starts_with_greetings_then_the_day_vote():
    """«Это уникальный самый первый этап Шоу, на котором каждый участник должен прислать своё
    короткое аудио/видео-приветствие»."""
    state = new()
    assert state.phase == "greetings"
    assert SHOW.owed_actions(state, sid(state, "Аня")) == ("greeting",)
    assert greet(state).phase == "day 1"


def test_stage_ends_early_when_every_active_hero_acted():
    """«Любой этап заканчивается либо когда все активные герои совершают необходимое на этом этапе
    действие, либо когда Таймер обнуляется»."""
    state = new()
    some = inputs(state, posted={n: ["greeting"] for n in free_names(state)[:9]})
    assert SHOW.waiting_for(state, some) == (sid(state, "Кира"),)
    assert not SHOW.ends_early(state, some)
    assert SHOW.ends_early(state, inputs(state, posted={n: ["greeting"] for n in free_names(state)}))


def test_stage_timer_depends_on_the_number_of_free_heroes():
    """«На каждый этап отводится определённое время, зависящее от количества остающихся на свободе
    героев» (the GM's table; default: 100% from 8 free, 75% from 5, 50% below)."""
    state = day1()
    assert SHOW.stage_length(state) == timedelta(hours=12)
    few = enslaved(state, "Аня", "Боря", "Вера")
    assert SHOW.stage_length(few) == timedelta(hours=9)
    assert SHOW.deadline(few, NOW) == NOW + timedelta(hours=9)
    custom = day1(stage_minutes={"day": 60}, timer_table=[[0, 100]])
    assert SHOW.stage_length(custom) == timedelta(minutes=60)


def test_day_votes_are_hidden_until_the_stage_ends():
    """«Кто как проголосовал становится всем видно только в конце этапа.»"""
    state = day1()
    votes = {sid(state, "Аня"): sid(state, "Кира"), sid(state, "Боря"): sid(state, "Аня")}
    assert visible_ballots(state, votes, viewer=sid(state, "Аня")) == {sid(state, "Аня"): sid(state, "Кира")}
    assert visible_ballots(state, votes, viewer=None) == {}
    assert visible_ballots(state, votes, viewer=None, is_gm=True) == votes
    result = close(state, votes=everyone_votes(state, "Кира"))
    shown = events_of(result, "day_votes")[0]
    assert shown.audience == PUBLIC and shown.data["ballots"]["Аня"] == "Кира"


def test_a_slave_makes_no_free_hero_s_choice():
    """«Если днём или ночью вас лишили свободы, вы становитесь рабом»: a slave neither votes nor
    chooses at night (his thread and trials are the site's and part 2's)."""
    state = enslaved(night1(), "Боря")
    assert SHOW.check_order(state, _order(state, "Боря", "suspect", "Аня")) == "not_free"
    assert SHOW.allowed_actions(state, sid(state, "Боря")) == ()
    assert sid(state, "Боря") not in SHOW.waiting_for(state, inputs(state))


def test_nobody_votes_against_himself_nor_against_a_slave():
    """«Каждый участник должен указать в меню имя героя, которому он выражает своё недоверие» (A8:
    another free hero)."""
    state = enslaved(day1(), "Боря")
    assert SHOW.check_vote(state, sid(state, "Аня"), sid(state, "Аня")) == "self_vote_forbidden"
    assert SHOW.check_vote(state, sid(state, "Аня"), sid(state, "Боря")) == "bad_target"
    assert SHOW.check_vote(state, sid(state, "Боря"), sid(state, "Аня")) == "not_a_voter"
    assert SHOW.check_vote(state, sid(state, "Аня"), "peace") == "peace_not_allowed"


def test_the_most_voted_heroes_go_to_the_bench():
    """«Герои, набравшие наибольшее количество голосов на предыдущем этапе, попадают на "скамью
    подсудимых"» (A37: all the tied leaders)."""
    state = day1()
    votes = {n: ("Кира" if i % 2 else "Зина") for i, n in enumerate(MASONS)}
    votes.update({"Жора": "Аня", "Зина": "Аня", "Илья": "Аня", "Кира": "Боря"})
    result = close(state, votes=votes)
    assert set(result.outcome["bench"]) == {"Кира", "Зина", "Аня"}
    assert result.state.phase == "defence 1"


def test_no_vote_means_no_bench_and_the_night_comes():
    """Nobody voted: nobody is on the bench, the day ends without a sentence."""
    result = close(day1())
    assert result.outcome["bench"] == [] and result.state.phase == "night 1"


def test_defence_speech_is_owed_only_once_per_show():
    """«обязательно нужно присылать аудио/видео-Речь только один раз за Шоу, то есть если ранее герой
    уже выступал с Защитной Речью, то все не будут ждать по Таймеру его новой Речи»."""
    state = day1()
    state = close(state, votes=everyone_votes(state, "Кира")).state
    assert SHOW.owed_actions(state, sid(state, "Кира")) == ("defence",)
    state = close(state, posted={"Кира": ["defence"]}).state
    state = close(state, votes={n: "spare" for n in free_names(state) if n != "Кира"}).state
    state = close(state, orders=night_orders(state)).state  # night 1 → day 2
    state = close(state, votes=everyone_votes(state, "Кира")).state
    assert state.phase == "defence 2"
    assert SHOW.owed_actions(state, sid(state, "Кира")) == ()
    assert SHOW.ends_early(state, inputs(state))
    result = close(state)
    assert "Кира" not in result.outcome["coma"]


def test_a_first_defence_missed_at_the_timer_is_a_coma():
    """«все, кто не успел произвести требуемое действие (проголосовать, прислать видео, сделать свой
    выбор), впадают в кому»."""
    state = day1()
    state = close(state, votes=everyone_votes(state, "Кира")).state
    result = close(state)
    assert result.outcome["coma"] == ["Кира"]


def test_single_defendant_is_enslaved_by_a_majority_of_the_ballots():
    """«Если на голосовании только один герой, то перед всеми кроме него стоит выбор "В рабство"/
    "Пощадить" и если он набирает большинство голосов, то теряет свободу.» (A7: of the ballots cast)"""
    state = day1()
    state = close(state, votes=everyone_votes(state, "Кира")).state
    state = close(state, posted={"Кира": ["defence"]}).state
    assert state.phase == "revote 1"
    assert SHOW.check_vote(state, sid(state, "Кира"), "spare") == "not_a_voter"
    others = [n for n in free_names(state) if n != "Кира"]
    tie = {n: ("enslave" if i < 4 else "spare") for i, n in enumerate(others[:8])}
    assert close(state, votes=tie).outcome["enslaved"] == []
    five = {n: ("enslave" if i < 5 else "spare") for i, n in enumerate(others)}
    result = close(state, votes=five)
    assert result.outcome["enslaved"] == ["Кира"]
    assert result.state.by_name("Кира").status == SLAVE


def test_single_defendant_majority_of_all_voters_is_an_option():
    """A7 as an option: `single_majority: voters` counts everyone who may vote."""
    state = day1(single_majority="voters")
    state = close(state, votes=everyone_votes(state, "Кира")).state
    state = close(state, posted={"Кира": ["defence"]}).state
    four = {n: "enslave" for n in ["Аня", "Боря", "Вера", "Гоша"]}
    assert close(state, votes=four).outcome["enslaved"] == []


def test_several_defendants_all_with_the_most_votes_lose_freedom():
    """«Если подсудимых больше одного, то свободу теряют все, кто набрал максимальное количество
    голосов. Все потерявшие на этом этапе свободу герои становятся общественными рабами»."""
    state = day1()
    votes = {"Аня": "Кира", "Боря": "Кира", "Вера": "Зина", "Гоша": "Зина", "Даша": "Илья", "Егор": "Илья",
             "Жора": "Аня", "Зина": "Боря", "Илья": "Вера", "Кира": "Гоша"}
    state = close(state, votes=votes).state
    assert len(state.memory["bench"]) == 3
    state = close(state, posted={n: ["defence"] for n in ("Кира", "Зина", "Илья")}).state
    ballots = {"Аня": "Кира", "Боря": "Кира", "Вера": "Зина", "Гоша": "Зина", "Даша": "Илья", "Кира": "Зина",
               "Зина": "Кира"}
    result = close(state, votes=ballots)
    assert set(result.outcome["enslaved"]) == {"Кира", "Зина"}
    slaves = result.state.memory["slaves"]
    assert slaves[str(sid(state, "Кира"))]["owners"] == ["public"]


def test_enslaved_hero_gets_one_random_public_key():
    """«Когда кто-то из героев теряет днём или ночью свободу и отправляется в рабство, о нём
    становится известен один публичный Ключ, выбираемый системой случайно.»"""
    seen = set()
    for seed in range(12):
        state = day1()
        state = close(state, votes=everyone_votes(state, "Кира")).state
        state = close(state, posted={"Кира": ["defence"]}).state
        result = close(state, seed=seed, votes={n: "enslave" for n in free_names(state) if n != "Кира"})
        keys = result.outcome["keys_public"]["Кира"]
        assert len(keys) == 1 and keys[0] in keys_of("demon")
        seen.add(keys[0])
    assert len(seen) > 1


# -- the night ---------------------------------------------------------------------------------------


def night1(**options):
    state = day1(**options)
    return close(state).state  # no votes: straight to the night


def test_reptiloids_who_agree_enslave_their_victim():
    """«По ночам должны синхронизировать свой выбор чтобы отправить жертву себе в рабство»."""
    state = night1()
    result = close(state, orders=night_orders(state, Зина=("enslave", "Боря"), Илья=("enslave", "Боря")))
    assert result.outcome["enslaved"] == ["Боря"]
    assert result.state.memory["slaves"][str(sid(state, "Боря"))]["owners"] == ["reptiloids"]


def test_reptiloids_who_disagree_take_nobody():
    """A3: they «должны синхронизировать свой выбор»; two victims take nobody (default), or one by lot."""
    state = night1()
    orders = night_orders(state, Зина=("enslave", "Боря"), Илья=("enslave", "Вера"))
    assert close(state, orders=orders).outcome["enslaved"] == []
    lot = night1(reptiloid_disagree="lot")
    assert close(lot, orders=orders).outcome["enslaved"] in (["Боря"], ["Вера"])


def test_reptiloid_choosing_himself_abstains_and_may_be_taken_by_his_partner():
    """«Если ночью Рептилоид выбирает себя, то тем самым отказывается от выбора и тогда может быть
    даже порабощён своим сообщником.»"""
    state = night1()
    result = close(state, orders=night_orders(state, Зина=("enslave", "Зина"), Илья=("enslave", "Зина")))
    assert result.outcome["enslaved"] == ["Зина"]
    result = close(state, orders=night_orders(state, Зина=("enslave", "Зина"), Илья=("enslave", "Вера")))
    assert result.outcome["enslaved"] == ["Вера"]


def test_demon_choosing_himself_enslaves_nobody():
    """«Каждую ночь выбирает жертву и превращает в своего раба (но может это и не делать, выбирая себя)»."""
    state = night1()
    assert close(state, orders=night_orders(state)).outcome["enslaved"] == []
    result = close(state, orders=night_orders(state, Кира=("enslave", "Гоша")))
    assert result.outcome["enslaved"] == ["Гоша"]
    assert result.state.memory["slaves"][str(sid(state, "Гоша"))]["owners"] == ["demon"]
    burdens = events_of(result, "morning")[0].data["burdens"]
    # part 2 fills the amount: the Demon's burden (option burden_demon, 20 by default)
    assert burdens == [{"seat": sid(state, "Гоша"), "name": "Гоша", "owners": ["demon"], "relieved": False,
                        "amount": 20}]


def test_hero_taken_by_both_teams_is_a_slave_of_both():
    """A4: «остальные своим рабовладельцам: Рептилоидам сразу или Демону» — both owners are kept
    for part 2's burden."""
    state = night1()
    result = close(state, orders=night_orders(state, Зина=("enslave", "Гоша"), Илья=("enslave", "Гоша"),
                                              Кира=("enslave", "Гоша")))
    assert result.state.memory["slaves"][str(sid(state, "Гоша"))]["owners"] == ["reptiloids", "demon"]
    assert len(result.outcome["keys_public"]["Гоша"]) == 1


def test_saviour_saves_the_hero_attacked_that_night():
    """«По ночам либо спасает любого выбранного им свободного участника от атаки Рептилоидов/Демона»."""
    state = night1()
    result = close(state, orders=night_orders(state, Кира=("enslave", "Гоша"), Жора=("save", "Гоша")))
    assert result.outcome["enslaved"] == [] and result.outcome["saved"] == "Гоша"
    morning = events_of(result, "morning")[0].data
    assert morning["saved"] is True and "Гоша" not in str(morning)  # whether, never whom (C13)


def test_saviour_saves_himself_only_once_per_show():
    """«Спасти себя ... может только один раз за Шоу» (A5: by default only the self-save is limited;
    `save_once: each` lets each hero be saved once)."""
    state = night1()
    state = close(state, orders=night_orders(state, Жора=("save", "Жора"))).state
    state = close(state, votes={}).state  # day 2: nobody votes → night 2
    assert state.phase == "night 2"
    assert SHOW.check_order(state, _order(state, "Жора", "save", "Жора")) == "self_save_used"
    assert SHOW.check_order(state, _order(state, "Жора", "save", "Аня")) is None
    each = night1(save_once="each")
    each = close(each, orders=night_orders(each, Жора=("save", "Аня"))).state
    each = close(each).state
    assert SHOW.check_order(each, _order(each, "Жора", "save", "Аня")) == "saved_before"


def _order(state, actor, action, target, detail=None):
    return Order(sid(state, actor), action, sid(state, target) if target else None, detail=detail)


def test_self_save_fails_when_both_bad_teams_attack_him():
    """«при этом в случае одновременной ночной атаки со стороны и Рептилоидов и Демона само-спасение
    не срабатывает»."""
    state = night1()
    orders = night_orders(state, Жора=("save", "Жора"), Зина=("enslave", "Жора"), Илья=("enslave", "Жора"),
                          Кира=("enslave", "Жора"))
    assert close(state, orders=orders).outcome["enslaved"] == ["Жора"]
    orders = night_orders(state, Жора=("save", "Жора"), Кира=("enslave", "Жора"))
    assert close(state, orders=orders).outcome["enslaved"] == []


def test_saviour_relieves_a_slave_and_reveals_his_role():
    """«либо избавляет от Бремени избранного раба до конца Шоу и раскрывает для всех его Роль»."""
    state = enslaved(night1(), "Кира")
    result = close(state, orders=night_orders(state, Жора=("relieve", "Кира")))
    assert result.outcome["freed"] == "Кира" and "Кира" in result.outcome["revealed"]
    status = public_status(result.state)
    kira = next(h for h in status["heroes"] if h["name"] == "Кира")
    assert kira["role"] == "demon" and kira["relieved"] and len(kira["keys"]) == 3
    assert SHOW.check_order(result.state, _order(result.state, "Жора", "relieve", "Кира")) is not None


def test_saviour_adds_one_public_key_once_per_show():
    """«Кроме того, Спаситель один раз за Шоу может ночью добавить о ком-то один публичный Ключ»."""
    state = night1()
    result = close(state, orders=night_orders(state, Жора=("save", "Аня", {"public_key": "Зина"})))
    assert len(result.outcome["keys_public"]["Зина"]) == 1
    state = close(result.state).state
    assert SHOW.check_order(state, _order(state, "Жора", "save", "Аня", {"public_key": sid(state, "Илья")})) \
        == "key_used"


def test_saviour_extra_knowledge_in_the_first_three_nights_if_free_in_the_morning():
    """«Также в первые три ночи имеет возможность получить себе внеочередное Тайное Знание если утром
    останется на свободе»."""
    state = night1()
    result = close(state, orders=night_orders(state, Жора=("save", "Аня", {"extra_knowledge": "Кира"})))
    assert list(result.outcome["keys_secret"]["Жора"]) == ["Кира"]
    taken = close(state, orders=night_orders(state, Жора=("save", "Аня", {"extra_knowledge": "Кира"}),
                                              Кира=("enslave", "Жора")))
    assert taken.outcome["keys_secret"] == {}
    late = replace(state, phase="night 4")
    assert SHOW.check_order(late, _order(late, "Жора", "save", "Аня", {"extra_knowledge": sid(late, "Кира")})) \
        == "bad_detail"


def test_saviour_extra_knowledge_with_privileges_is_once_per_hero():
    """«Также в первые три ночи имеет возможность получить себе внеочередное Тайное Знание если утром
    останется на свободе (в сессиях с Привилегиями не более одного на каждого участника)»: in a show
    with privileges, one extra key about each hero over the whole show (issue 28); without
    privileges, no such limit."""
    for in_play, limited in ((["secretary"], True), (None, False)):
        state = night1(in_play=in_play) if in_play else night1()
        first = close(state, orders=night_orders(state, Жора=("save", "Аня", {"extra_knowledge": "Егор"})))
        assert list(first.outcome["keys_secret"]["Жора"]) == ["Егор"]
        night2 = replace(first.state, phase="night 2")
        again = _order(night2, "Жора", "save", "Аня", {"extra_knowledge": sid(night2, "Егор")})
        other = _order(night2, "Жора", "save", "Аня", {"extra_knowledge": sid(night2, "Илья")})
        assert SHOW.check_order(night2, again) == ("extra_knowledge_had" if limited else None)
        assert SHOW.check_order(night2, other) is None
        targets = SHOW.extra_knowledge_targets(night2, sid(night2, "Жора"))
        assert (sid(night2, "Егор") in targets) is not limited and sid(night2, "Илья") in targets
        # the close asks the same rule: the refused extra gives nothing
        second = close(night2, orders=night_orders(night2, Жора=("save", "Аня", {"extra_knowledge": "Егор"})))
        assert ("Жора" in second.outcome["keys_secret"]) is not limited


def test_masons_suspicions_cut_the_judge_weight_tenfold_and_the_lot_is_logged():
    """«Ночью каждый Масон выбирает самого подозрительного участника и вероятность для того стать
    Судьёй на следующее утро снижается на порядок» (each suspicion ×0.1; the weights go to the GM)."""
    state = night1()
    result = close(state, orders=night_orders(state))
    lot = events_of(result, "judge_lot")[0]
    assert lot.audience == GM
    assert lot.data["weights"]["Аня"] == pytest.approx(0.1 ** 5)
    assert lot.data["weights"]["Боря"] == pytest.approx(0.1)
    assert lot.data["weights"]["Вера"] == 1.0
    left, replayed = lot.data["drawn"], None  # the archive replays the draw from the log alone
    for name, weight in lot.data["weights"].items():
        left -= weight
        if left < 0:
            replayed = name
            break
    assert replayed == lot.data["judge"] == result.outcome["judge"]
    judges = {close(state, seed=s, orders=night_orders(state)).outcome["judge"] for s in range(40)}
    assert "Аня" not in judges and len(judges) > 3
    once = night1(suspicion_cut="once")
    assert events_of(close(once, orders=night_orders(once)), "judge_lot")[0].data["weights"]["Аня"] == 0.1


def test_a_secret_judge_is_told_only_to_himself():
    """A11 as an option (`judge_public: false`): the judge is told alone (part 3's Гений «По утрам
    знает, кто стал Судьёй»); the thread hears of his decision and his lost status without his name."""
    state = night1(judge_public=False)
    result = close(state, orders=night_orders(state))
    judge = result.state.memory["judge"]
    [told] = events_of(result, "judge")
    assert told.audience == seat_audience(judge)
    assert not any(h["judge"] for h in public_status(result.state)["heroes"])
    removed = close(result.state, votes=everyone_votes(result.state, result.state.seat(judge).name))
    assert events_of(removed, "judge_removed")[0].data == {}


def test_the_judge_is_private_by_default_when_the_genius_is_in_play():
    """A11 by default (issue 28): the Гений «По утрам знает, кто стал Судьёй», which tells him
    nothing if everyone is told; so with the Гений in play the judge is told only to himself and
    the GM unless the GM says otherwise, and announced to all in a show without him."""
    assert new().options["judge_public"] is True
    assert new(in_play=["genius"]).options["judge_public"] is False
    assert new(in_play=["secretary"]).options["judge_public"] is True
    assert new(in_play=["genius"], judge_public=True).options["judge_public"] is True
    assert new(judge_public=False).options["judge_public"] is False
    with pytest.raises(ValueError):
        new(judge_public="sometimes")
    state = close(greet(new(in_play=["genius"], alliances=False))).state
    result = close(state, orders=night_orders(state))
    [told] = events_of(result, "judge")
    assert told.audience == seat_audience(result.state.memory["judge"])


def test_secret_knowledge_lots_at_every_main_day_stage_as_a_gm_option():
    """«На всех основных дневных этапах среди участников, находящихся на свободе, разыгрывается
    возможность получить Тайное Знание» (A25, issue 28): by default one lot per day vote; with the
    GM's `knowledge_lots: day_stages`, the seed's letter, a lot at the defence and the re-vote (and
    the judge's decision) too, each among the free heroes awake."""
    for lots, every in (("day", False), ("day_stages", True)):
        state = day1(knowledge_lots=lots)
        day = close(state, votes=everyone_votes(state, "Кира"))
        defence = close(day.state, posted={"Кира": ["defence"]})
        revote = close(defence.state, votes={n: "spare" for n in free_names(defence.state) if n != "Кира"})
        assert day.outcome["knowledge"] in free_names(state)
        for result in (defence, revote):
            assert (result.outcome.get("knowledge") is not None) is every
            assert bool(events_of(result, "knowledge_won")) is every
        rights = revote.state.memory["knowledge_rights"]
        assert sum(int(n) for n in rights.values()) == (3 if every else 1)
    with pytest.raises(ValueError):
        new(knowledge_lots="nights")


def test_slaves_may_be_drawn_judge_and_decide_from_slavery_as_a_gm_option():
    """«А на утро среди всех героев, которые не находятся в Коме, с учётом ночных Масонских действий
    выбирается Судья следующего дня. Таким образом, Судьёй может стать герой с любой Ролью.» A9 by
    default draws among the free; the GM's `judge_from: all` (issue 28) takes the seed's letter:
    a slave may be drawn, and judges from slavery; nobody in coma is drawn either way."""
    drawn = {"free": set(), "all": set()}
    for option in drawn:
        for seed in range(30):
            state = enslaved(night1(judge_from=option), "Гоша", "Даша")
            state = replace(state, memory={**state.memory, "coma": {}})  # a slave is never in coma
            drawn[option].add(close(state, seed=seed, orders=night_orders(state)).outcome["judge"])
    assert not drawn["free"] & {"Гоша", "Даша"}
    assert drawn["all"] & {"Гоша", "Даша"}
    state = enslaved(night1(judge_from="all"), "Аня")
    state = replace(state, memory={**state.memory, "coma": {}})
    anya = sid(state, "Аня")
    day2 = replace(state, phase="day 2", memory={**state.memory, "judge": anya, "judge_day": 2})
    assert judge_sits(day2, anya) and not judge_sits(replace(day2, options={**day2.options, "judge_from": "free"}), anya)
    benched = close(day2, votes=everyone_votes(day2, "Кира"))
    defence = close(benched.state, posted={"Кира": ["defence"]})
    assert defence.state.phase == "judge 2"  # the slave judge sits
    assert SHOW.allowed_actions(defence.state, anya) == ("enslave", "spare")
    assert SHOW.owing(defence.state) == [anya]
    decided = close(defence.state, orders=[("Аня", "enslave", "Кира")])
    assert decided.outcome["enslaved"] == ["Кира"]


def test_judge_is_drawn_among_free_heroes_not_in_coma():
    """«А на утро среди всех героев, которые не находятся в Коме ... выбирается Судья» (A9: slaves
    are not candidates)."""
    state = enslaved(night1(), "Вера")
    orders = [o for o in night_orders(state) if o[0] != "Гоша"]  # Гоша misses the night: coma
    for seed in range(30):
        result = close(state, seed=seed, orders=orders)
        weights = events_of(result, "judge_lot")[0].data["weights"]
        assert "Вера" not in weights and "Гоша" not in weights
        assert result.outcome["judge"] not in ("Вера", "Гоша")


def test_active_judge_alone_decides_the_bench():
    """«Если на этот момент есть активный Судья (не находящийся в коме), то он единолично принимает
    решение»; «Если же на скамье всего один герой, то у Судьи есть выбор и он может его пощадить»."""
    state = close(night1(), orders=night_orders(night1())).state
    judge = state.seat(state.memory["judge"]).name
    target = next(n for n in ("Кира", "Зина") if n != judge)
    state = close(state, votes=everyone_votes(state, target)).state
    state = close(state, posted={target: ["defence"]}).state
    assert state.phase == "judge 2"
    assert SHOW.voters(state) == ()
    assert SHOW.owed_actions(state, sid(state, judge)) == ("enslave", "spare")
    assert SHOW.waiting_for(state, inputs(state)) == (sid(state, judge),)
    assert close(state, orders=[(judge, "spare", None)]).outcome["enslaved"] == []
    assert close(state, orders=[(judge, "enslave", target)]).outcome["enslaved"] == [target]


def test_judge_with_several_defendants_must_enslave_one():
    """«Если на скамье подсудимых больше одного героя, то Судья обязан выбрать одного из них»."""
    state = close(night1(), orders=night_orders(night1())).state
    judge = state.seat(state.memory["judge"]).name
    a, b = [n for n in ("Кира", "Зина", "Илья") if n != judge][:2]
    votes = {n: (a if i % 2 else b) for i, n in enumerate(free_names(state)) if n not in (a, b)}
    votes.update({a: b, b: a})
    state = close(state, votes=votes).state
    state = close(state, posted={a: ["defence"], b: ["defence"]}).state
    assert SHOW.check_order(state, _order(state, judge, "spare", None)) == "spare_not_allowed"
    assert SHOW.check_order(state, _order(state, judge, "enslave", "Аня" if "Аня" != judge else "Боря")) \
        == "not_on_bench"


def test_judge_on_the_bench_loses_his_status_and_all_vote_again():
    """«Если подсудимым становится Судья, то он лишается своего статуса и далее происходит Повторное
    голосование, в котором участвуют все кто остался на свободе.»"""
    state = close(night1(), orders=night_orders(night1())).state
    judge = state.seat(state.memory["judge"]).name
    result = close(state, votes=everyone_votes(state, judge))
    assert events_of(result, "judge_removed")[0].data["name"] == judge
    state = close(result.state, posted={judge: ["defence"]}).state
    assert state.phase == "revote 2"


def test_judge_missing_his_decision_falls_into_coma_and_all_vote_again():
    """A12: without an active judge the re-vote is held by all; a judge who lets the timer run out
    is in coma («все, кто не успел ... впадают в кому»)."""
    state = close(night1(), orders=night_orders(night1())).state
    judge = state.seat(state.memory["judge"]).name
    target = next(n for n in ("Кира", "Зина") if n != judge)
    state = close(state, votes=everyone_votes(state, target)).state
    state = close(state, posted={target: ["defence"]}).state
    result = close(state)
    assert result.outcome["coma"] == [judge] and result.state.phase == "revote 2"


def test_judge_questions_one_unrevealed_slave_when_there_are_more_than_one():
    """«Если ночью есть Судья от предыдущего дня, то после своего ночного выбора он имеет возможность
    "допросить" одного из невскрытых рабов (если их больше одного) и тогда на утро все узнают про него
    один новый публичный Ключ.»"""
    state = close(night1(), orders=night_orders(night1())).state
    judge = state.seat(state.memory["judge"]).name
    slaves = [n for n in ("Вера", "Гоша", "Даша") if n != judge][:2]
    state = close(state).state  # day 2 without votes → night 2
    assert state.phase == "night 2"
    one = enslaved(state, slaves[0])
    own = next(o for o in night_orders(one) if o[0] == judge)
    assert SHOW.check_order(one, _order(one, judge, own[1], own[2], {"question": sid(one, slaves[0])})) \
        == "question_not_possible"
    two = enslaved(state, *slaves)
    orders = [o if o[0] != judge else (*o[:3], {"question": slaves[0]}) for o in night_orders(two)]
    result = close(two, orders=orders)
    assert len(result.outcome["keys_public"][slaves[0]]) == 1
    assert events_of(result, "questioned")[0].audience == PUBLIC


def test_three_public_keys_reveal_the_role():
    """«Как только про героя становятся известны все его три Ключа, вскрывается его Роль, то есть все
    её узнают.»"""
    state = night1()
    memory = dict(state.memory)
    memory["public_keys"] = {str(sid(state, "Зина")): ["not_mason", "not_demon"]}
    state = replace(state, memory=memory)
    result = close(state, orders=night_orders(state, Жора=("save", "Аня", {"public_key": "Зина"})))
    assert result.outcome["revealed"] == ["Зина"]
    revealed = events_of(result, "role_revealed")[0]
    assert revealed.audience == PUBLIC and revealed.data["role"] == "reptiloid"


# -- secret knowledge -------------------------------------------------------------------------------


def test_secret_knowledge_is_drawn_on_each_day_vote_among_free_heroes():
    """«На всех основных дневных этапах среди участников, находящихся на свободе, разыгрывается
    возможность получить Тайное Знание»."""
    state = enslaved(day1(), "Аня")
    result = close(state, votes=everyone_votes(state, "Кира"))
    winner = result.outcome["knowledge"]
    assert winner in free_names(state)
    won = events_of(result, "knowledge_won")[0]
    assert won.audience == seat_audience(sid(state, winner))
    assert SHOW.allowed_actions(result.state, sid(state, winner))[-1] == "use_knowledge"


def test_secret_knowledge_is_a_non_public_key_never_not_mason_and_its_holder_stays_secret():
    """«получить о нём в индивидуальное пользование случайный Ключ, ещё не ставший публичным»;
    «Ключ "не-Масон" никогда не выпадает в качестве Тайного Знания»; «Все участники видят в общем
    чате, что такой-то герой получил Тайное Знание, но не знают кто и о ком именно» (C8)."""
    for seed in range(15):
        state = day1()
        memory = dict(state.memory)
        memory["knowledge_rights"] = {str(sid(state, "Аня")): 1}
        memory["public_keys"] = {str(sid(state, "Кира")): ["not_saviour"]}
        state = replace(state, memory=memory)
        result = close(state, seed=seed, knowledge={"Аня": "Кира"})
        assert result.outcome["keys_secret"] == {"Аня": {"Кира": "not_reptiloid"}}
        public = events_of(result, "knowledge_received")[0]
        assert public.audience == PUBLIC and set(public.data) == {"count"}
        assert public_status(result.state)["knowledge_count"] == 1
        assert SHOW.check_knowledge(result.state, sid(state, "Аня"), sid(state, "Кира")) == "no_right"


def test_secret_knowledge_used_at_once_by_the_site_is_the_same_rule():
    """The site's button takes the key at once (`SHOW.use_knowledge`), by the same rule as the close."""
    state = day1()
    memory = dict(state.memory)
    memory["knowledge_rights"] = {str(sid(state, "Аня")): 1}
    state = replace(state, memory=memory)
    after, events = SHOW.use_knowledge(state, sid(state, "Аня"), sid(state, "Кира"), seed=3)
    [secret] = [e for e in events if e.kind == "secret_key"]
    assert secret.audience == seat_audience(sid(state, "Аня"))
    assert secret.data["key"] in ("not_saviour", "not_reptiloid")
    assert after.memory["knowledge_rights"][str(sid(state, "Аня"))] == 0
    assert SHOW.use_knowledge(after, sid(state, "Аня"), sid(state, "Зина"), seed=3) == (after, ())
    assert SHOW.use_knowledge(state, sid(state, "Аня"), sid(state, "Кира"), seed=3) == (after, events)


def test_a_target_with_nothing_left_to_learn_is_refused_and_the_right_kept():
    """A25: a ТЗ always teaches something; a hero with no key left to give is refused."""
    state = day1()
    memory = dict(state.memory)
    memory["knowledge_rights"] = {str(sid(state, "Зина")): 1}
    state = replace(state, memory=memory)
    # Зина (a Reptiloid) knows her partner's whole role from the start.
    assert SHOW.check_knowledge(state, sid(state, "Зина"), sid(state, "Илья")) == "no_key_left"


# -- opinions ----------------------------------------------------------------------------------------


def test_requested_opinion_holds_the_early_end_and_the_request_is_anonymous():
    """«каждый оставшийся на свободе участник имеет возможность анонимно выбрать, чьё аудио/видео-Мнение
    он обязательно хочет увидеть, без этого этап не будет досрочно завершён»."""
    state = close(night1(), orders=night_orders(night1())).state
    assert state.phase == "day 2"
    votes = everyone_votes(state, "Кира")
    pending = inputs(state, votes=votes, requests={"Аня": "Зина"})
    assert SHOW.waiting_for(state, pending) == (sid(state, "Зина"),)
    done = inputs(state, votes=votes, requests={"Аня": "Зина"}, posted={"Зина": ["opinion"]})
    assert SHOW.ends_early(state, done)
    result = close(state, votes=votes, requests={"Аня": "Зина"})
    public = events_of(result, "opinions")[0]
    assert public.audience == PUBLIC and public.data["requested"] == ["Зина"] and "Аня" not in str(public.data)
    assert "Зина" not in result.outcome["coma"]  # a missing opinion holds the early end only (A38)
    assert SHOW.check_request(day1(), sid(state, "Аня"), sid(state, "Зина")) == "not_your_action"


# -- coma ---------------------------------------------------------------------------------------------


def test_missing_the_vote_at_the_timer_is_a_coma_and_nobody_waits_for_him():
    """«Все герои, находящиеся в коме, перестают тормозить общий ход Шоу, то есть их никто не ждёт»."""
    state = day1()
    votes = everyone_votes(state, "Кира")
    del votes["Гоша"]
    result = close(state, votes=votes)
    assert result.outcome["coma"] == ["Гоша"]
    after = result.state
    assert sid(after, "Гоша") not in SHOW.waiting_for(after, inputs(after))
    assert public_status(after)["heroes"][3]["sleep"] == "asleep"


def test_any_activity_wakes_a_hero_and_everyone_is_told():
    """«Как только герой проявляет любую активность (нажимает любую кнопку или отправляет что угодно в
    чат), он автоматически выходит из комы и все получают уведомление об этом.»"""
    state = close(day1(), votes={}).state
    assert str(sid(state, "Гоша")) in state.memory["coma"]
    woken, events = SHOW.wake(state, sid(state, "Гоша"))
    assert str(sid(state, "Гоша")) not in woken.memory["coma"] and events[0].kind == "woke"
    assert events[0].audience == PUBLIC
    result = close(state, orders=night_orders(state), active=["Аня"])
    assert "Аня" in result.outcome["woke"]


def test_sleeping_after_one_miss_deep_coma_after_more():
    """«Если герой только недавно попал в кому и пропущен всего один этап, то в Статусе он помечается
    как "Спит"»."""
    state = day1()
    votes = everyone_votes(state, "Кира")
    del votes["Гоша"]
    state = close(state, votes=votes).state
    assert next(h for h in public_status(state)["heroes"] if h["name"] == "Гоша")["sleep"] == "asleep"
    state = close(state, posted={"Кира": ["defence"]}).state  # Кира's defence asks nothing of Гоша
    assert next(h for h in public_status(state)["heroes"] if h["name"] == "Гоша")["sleep"] == "asleep"
    state = close(state, votes={n: "spare" for n in free_names(state) if n not in ("Кира", "Гоша")}).state
    assert next(h for h in public_status(state)["heroes"] if h["name"] == "Гоша")["sleep"] == "coma"


def test_coma_counts_only_the_stages_that_asked_the_hero_an_input():
    """«Если герой только недавно попал в кому и пропущен всего один этап, то в Статусе он помечается
    как "Спит" и будучи на Повторном голосовании он не отправляется в рабство автоматически»: a
    stage is missed only when it asked his input (issue 28): another hero's defence, or the re-vote
    on himself as the single defendant («перед всеми кроме него стоит выбор»), or a stage in which
    he has spoken already, is not missed."""
    state = day1()
    state = close(state, votes=everyone_votes(state, "Кира")).state
    state = close(state, posted={"Кира": ["defence"]}).state  # Кира has spoken once in the show
    state = close(state, votes={n: "spare" for n in free_names(state) if n != "Кира"}).state
    state = close(state, orders=night_orders(state)).state
    assert state.phase == "day 2" and not state.memory["coma"]
    kira = sid(state, "Кира")
    votes = everyone_votes(state, "Кира")
    del votes["Кира"]
    state = close(state, votes=votes).state  # Кира misses the day's vote: «Спит»
    assert state.memory["coma"] == {str(kira): 1} and state.memory["bench"] == [kira]
    state = replace(state, memory={**state.memory, "judge": None})  # no judge today: the re-vote decides
    state = close(state).state  # his defence is owed «только один раз за Шоу»: not missed
    assert state.phase == "revote 2" and state.memory["coma"] == {str(kira): 1}
    assert public_status(state)["heroes"][9]["sleep"] == "asleep"
    spare = {n: "spare" for n in free_names(state) if n != "Кира"}
    result = close(state, votes=spare)  # the re-vote on him asks him no ballot
    assert result.outcome["enslaved"] == []  # «не отправляется в рабство автоматически»
    assert result.state.memory["coma"] == {str(kira): 1}
    assert next(h for h in public_status(result.state)["heroes"] if h["name"] == "Кира")["sleep"] == "asleep"


def test_sleeping_defendant_is_not_enslaved_automatically_a_deep_coma_one_is():
    """«будучи на Повторном голосовании он не отправляется в рабство автоматически» (A14: one missed
    stage spares him; a deeper coma is enslaved whatever the ballots)."""
    state = day1()
    votes = everyone_votes(state, "Кира")
    del votes["Кира"]
    state = close(state, votes=votes).state  # Кира missed the vote: «Спит»
    assert state.memory["coma"][str(sid(state, "Кира"))] == 1
    state = close(state).state  # no defence: now two missed stages
    spare = {n: "spare" for n in free_names(state) if n != "Кира"}
    assert close(state, votes=spare).outcome["enslaved"] == ["Кира"]
    light = day1()
    light = close(light, votes=everyone_votes(light, "Кира")).state
    light = close(light, posted={"Кира": ["defence"]}).state
    lulled, _ = SHOW.lull(light, {sid(light, n): sid(light, "Кира") for n in MASONS})
    assert close(lulled, votes=spare).outcome["enslaved"] == []


def test_coma_heroes_act_automatically_at_night():
    """«Если герой оказался в коме ночью, то он автоматически выбирает участника с самым маленьким
    (если это Масон или Демон) или самым большим (если это Спаситель) Рейтингом, а если это Рептилоид,
    то присоединяется к сообщнику (если сообщника нет или он в коме, то действует как Демон).»"""
    state = night1()
    ratings = {n: 5 for n in free_names(state)}
    ratings.update({"Гоша": -3, "Егор": 9})
    orders = [o for o in night_orders(state, Зина=("enslave", "Вера")) if o[0] not in ("Кира", "Жора", "Илья")]
    result = close(state, orders=orders, ratings=ratings)
    choices = events_of(result, "night_choices")[0].data
    assert set(choices["auto"]) == {"Кира", "Жора", "Илья"}
    assert choices["choices"]["Кира"] == ["enslave", "Гоша"]
    assert choices["choices"]["Жора"] == ["save", "Егор"]
    assert choices["choices"]["Илья"] == ["enslave", "Вера"]
    alone = [o for o in night_orders(state) if o[0] not in ("Зина", "Илья")]
    both = events_of(close(state, orders=alone, ratings=ratings), "night_choices")[0].data["choices"]
    assert both["Зина"] == ["enslave", "Гоша"] and both["Илья"] == ["enslave", "Гоша"]


def test_ratings_default_to_zero_and_ties_go_by_the_seeded_lot():
    """Until part 2 «самым маленьким ... Рейтингом» is a tie among all: the seeded lot decides."""
    state = night1()
    orders = [o for o in night_orders(state) if o[0] != "Кира"]
    picks = {events_of(close(state, seed=s, orders=orders), "night_choices")[0].data["choices"]["Кира"][1]
             for s in range(20)}
    assert len(picks) > 2 and "Кира" not in picks
    first = close(state, seed=3, orders=orders)
    assert first.outcome == close(state, seed=3, orders=orders).outcome


def test_lull_by_majority_puts_a_hero_into_coma():
    """«Можно принудительно отправлять в кому героев большинством голосов с помощью команды /lull»
    (A38: more than half of the free heroes awake)."""
    state = day1()
    five = {sid(state, n): sid(state, "Кира") for n in MASONS[:5]}
    assert SHOW.lull(state, five)[1] == ()
    six = {sid(state, n): sid(state, "Кира") for n in MASONS}
    lulled, events = SHOW.lull(state, six)
    assert events[0].kind == "lulled" and str(sid(state, "Кира")) in lulled.memory["coma"]


# -- insomnia and the end -------------------------------------------------------------------------------


def test_insomnia_when_the_night_would_certainly_win_it_for_a_bad_team():
    """«Если результатом ночи однозначно станет выигрыш одной из "плохих" команд (например, осталось
    три Масона и два Рептилоида, или два Масона и Демон или Рептилоид), но объявляется бессонница и Шоу
    продолжается без этапа ночного выбора.»"""
    state = enslaved(day1(), "Аня", "Боря", "Вера", "Гоша", "Кира")  # Даша, Егор, Жора; Зина, Илья
    assert night_would_decide(state)
    result = close(state, votes=everyone_votes(state, "Даша", Даша="Зина"))
    state = close(result.state, posted={"Даша": ["defence"]}).state
    result = close(state, votes={"Егор": "spare", "Жора": "spare", "Зина": "spare", "Илья": "spare"})
    assert result.outcome["insomnia"] is True and result.state.phase == "day 2"
    assert events_of(result, "insomnia")[0].audience == PUBLIC
    assert night_would_decide(enslaved(day1(), "Аня", "Боря", "Вера", "Гоша", "Даша", "Егор", "Зина", "Илья"))
    assert not night_would_decide(day1())


def test_masons_win_when_every_reptiloid_and_the_demon_are_enslaved():
    """«Если вы в команде Масонов (включая Спасителя), вам нужно как можно быстрее найти и лишить свободы
    Рептилоидов и Демона, тогда вы победите.»"""
    state = enslaved(day1(), "Зина", "Илья")
    state = close(state, votes=everyone_votes(state, "Кира")).state
    state = close(state, posted={"Кира": ["defence"]}).state
    result = close(state, votes={n: "enslave" for n in free_names(state) if n != "Кира"})
    assert result.state.over and result.state.winner == "masons"
    over = events_of(result, "game_over")[0]
    assert over.data["winner"] == "masons" and over.audience == PUBLIC
    # «Далее объявляются подробные результаты»: the results list every hero's role
    assert {r["name"]: r["role"] for r in over.data["roles"]} == {s.name: s.role for s in result.state.seats}


def test_bad_team_wins_at_parity():
    """A1, read from the insomnia examples: a bad team wins when its free heroes are at least as many
    as all the other free heroes («осталось три Масона и два Рептилоида» → a night's slave makes 2
    against 2)."""
    state = enslaved(day1(), "Аня", "Боря", "Вера", "Гоша", "Даша", "Кира")  # Егор, Жора; Зина, Илья
    assert winner_of(state) == "reptiloids"
    assert winner_of(enslaved(day1(), *MASONS, "Зина", "Илья")) == "demon"  # Жора and Кира
    assert winner_of(enslaved(day1(), *MASONS[:5], "Зина", "Илья")) is None  # Егор, Жора, Кира


def test_one_reptiloid_against_the_demon_alone_is_the_documented_draw():
    """A1: neither bad team can stop the other once every good hero is a slave: winner `none`."""
    state = enslaved(day1(), *MASONS, "Жора", "Илья")
    assert winner_of(state) == "none"


# -- status and secrets ------------------------------------------------------------------------------


def test_fullstatus_is_the_hero_s_own_and_the_gm_s_and_everyone_s_after_the_end():
    """«Полная картина по доступным Ключам (публичные + приватные + врождённые) доступна по
    индивидуальной команде /fullstatus»."""
    state = day1()
    zina = sid(state, "Зина")
    mine = full_status(state, zina, viewer=zina)
    assert mine["role"] == "reptiloid"
    row = next(r for r in mine["rows"] if r["name"] == "Илья")
    assert set(row["innate"]) == set(keys_of("reptiloid"))
    with pytest.raises(NotYours):
        full_status(state, zina, viewer=sid(state, "Аня"))
    with pytest.raises(NotYours):
        full_status(state, zina, viewer=None)
    assert full_status(state, zina, viewer=None, is_gm=True)["role"] == "reptiloid"
    assert full_status(replace(state, over=True), zina, viewer=None)["role"] == "reptiloid"


def test_public_status_shows_no_role_until_revealed():
    """«Публичные Ключи доступны всем, это объективная общеизвестная информация, которая суммируется
    в Статусе»: roles appear only when revealed (or after the end)."""
    status = public_status(day1())
    assert all(h["role"] is None and h["keys"] == [] for h in status["heroes"])


def test_resolve_is_deterministic_for_state_inputs_and_seed():
    state = night1()
    a = close(state, seed=11, orders=night_orders(state, Кира=("enslave", "Гоша")))
    b = close(state, seed=11, orders=night_orders(state, Кира=("enslave", "Гоша")))
    assert a.state == b.state and a.events == b.events


def test_show_fills_the_rule_set_protocol():
    """The show is the fourth rule set of the plug-in design: the same protocol as the others."""
    assert isinstance(SHOW, Ruleset)
    assert {"not_a_voter", "bad_target", "peace_not_allowed"} <= set(SHOW.vote_reasons)
    roles = SHOW.default_roles(SHOW.min_players)
    state, _events = SHOW.new_game([(i, f"p{i}", r) for i, r in enumerate(roles, 1)])
    assert state.phase == "greetings" and SHOW.voters(state) == ()
    assert {"winner", "refused"} & set(SHOW.outcome_keys) == set()
    with pytest.raises(ValueError):
        SHOW.new_game([(1, "a", "mason"), (2, "b", "mason"), (3, "c", "saviour"), (4, "d", "saviour")])
    with pytest.raises(ValueError):
        new(save_once="sometimes")
