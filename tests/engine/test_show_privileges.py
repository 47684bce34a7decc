"""The show's privileges (part 3, issue 20), one rule case per numbered rule: each docstring quotes
the seed's sentence («Привилегии», «РЕЖИМ "КАРУСЕЛЬ ПРИВИЛЕГИЙ"») or the reading chosen for it
(docs/rulesets/show.md, "Part 3: privileges"); the body plays it through the pure engine. Rules
that move money or ratings are played on hand-made part 2 records (coins.Transfer, RatingChange)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.engine.events import GM, PUBLIC, seat_audience
from games.engine.orders import Order
from games.rulesets.show.engine import SHOW
from games.rulesets.show.engine.coins import BANK, RatingChange, Transfer, escrow, hero
from games.rulesets.show.engine.facts import SLAVE, holders
from games.rulesets.show.engine.privilege_keys import PRIVILEGES
from games.rulesets.show.engine.privileges import (
    adjust_ratings,
    adjust_settlement,
    adjust_transfers,
    bank_winners,
    burden_collectors,
    can_fake,
    can_post,
    check_fake,
    intercepted,
    night_would_decide,
    secretary_ballots,
)
from games.rulesets.show.engine import roles
from games.rulesets.show.engine.roles import innate_keys
from games.rulesets.show.engine.status import full_status
from tests.engine.show_helpers import ROSTER, close, enslaved, events_of, everyone_votes, new, night_orders, sid

ALL = list(PRIVILEGES)


def at(state, phase, **memory):
    """The state moved to a stage (a test's setup), with memory entries replaced."""
    return replace(state, phase=phase, memory={**state.memory, **memory})


def ids(state, *names):
    return [sid(state, n) for n in names]


def held(state):
    return {s.name: list(p) for s in state.seats if (p := state.memory["privileges"].get(str(s.id)))}


# -- the deal -------------------------------------------------------------------------------------


def test_privileges_are_dealt_at_random_by_the_seed_each_to_one_hero():
    """«в момент назначения Ролей происходит случайное распределение доступных для этого Шоу
    Привилегий ... Одному герою может выпасть сразу несколько Привилегий.»"""
    deals = []
    for seed in range(30):
        state = new(seed=seed, in_play=ALL)
        got = held(state)
        assert sorted(p for ps in got.values() for p in ps) == sorted(ALL)
        deals.append(got)
        assert held(new(seed=seed, in_play=ALL)) == got  # the same seed, the same deal
    assert len({str(sorted(d.items())) for d in deals}) > 1
    assert any(len(d) < len(ALL) for d in deals), "several privileges to one hero happen"


def test_without_privileges_the_show_has_none():
    """A GM option: a show without privileges (the default) deals none."""
    state = new()
    assert state.memory["privileges"] == {} and state.options["privileges"] == []
    with pytest.raises(ValueError):
        new(in_play=["wings"])
    with pytest.raises(ValueError):
        new(carousel=True)


def test_each_holder_alone_learns_his_privileges():
    """«о котором герой в тайне от остальных узнает в момент получения своей Роли. Участникам
    запрещено разглашать свою Привилегию»."""
    seats = [(i, n, r) for i, (n, r) in enumerate(ROSTER, 1)]
    state, events = SHOW.new_game(seats, options={"privileges": ALL}, seed=5)
    told = {e.audience: e.data["privileges"] for e in events if e.kind == "privileges"}
    assert told == {seat_audience(int(k)): v for k, v in state.memory["privileges"].items()}
    assert [e.audience for e in events if e.kind == "privileges_gm"] == [GM]
    assert full_status(state, 1, viewer=1)["privileges"] == state.memory["privileges"].get("1", [])


def test_every_other_privilege_may_go_to_any_role():
    """«Эту Привилегию может получить обладатель любой Роли.» (rule 1 of privileges 2 to 11)"""
    roles_of = {p: set() for p in ALL}
    for seed in range(120):
        state = new(seed=seed, in_play=ALL)
        for privilege in ALL:
            roles_of[privilege] |= {state.seat(h).role for h in holders(state, privilege)}
    assert roles_of.pop("snakelet") == {"mason", "saviour", "demon"}
    assert all(roles == {"mason", "saviour", "reptiloid", "demon"} for roles in roles_of.values()), roles_of


# -- 1) ЗМЕЁНЫШ -------------------------------------------------------------------------------------


def test_snakelet_1_only_a_non_reptiloid_gets_it():
    """«Привилегию Змеёныш может получить только не Рептилоид (Масон, Спаситель или Демон).»"""
    for seed in range(40):
        (holder,) = holders(new(seed=seed, in_play=["snakelet"]), "snakelet")
        assert new(seed=seed).seat(holder).role != "reptiloid"
    with pytest.raises(ValueError):
        new(privileges={"Зина": ["snakelet"]})


def snakelet_show():
    """Зина enslaved; Илья the last free Reptiloid on a single-defendant re-vote; Аня the Змеёныш."""
    state = enslaved(new(privileges={"Аня": ["snakelet"]}), "Зина")
    return at(state, "revote 1", bench=ids(state, "Илья"))


def test_snakelet_2_turns_reptiloid_when_every_reptiloid_is_enslaved():
    """«Если и как только все Рептилоиды оказываются в рабстве, Змеёныш превращается в Рептилоида.
    Все получают об этом публичное уведомление.»"""
    state = snakelet_show()
    votes = {n: "enslave" for n in ["Аня", "Боря", "Вера", "Гоша", "Даша", "Егор", "Жора", "Кира"]}
    result = close(state, votes=votes)
    assert result.outcome["enslaved"] == ["Илья"] and result.outcome["turned"] == "Аня"
    anya = result.state.by_name("Аня")
    assert (anya.role, anya.faction) == ("reptiloid", "reptiloids")
    (notice,) = events_of(result, "snakelet_turned")
    assert notice.audience == PUBLIC and "name" not in notice.data  # public, but not who
    assert not result.state.over  # the Reptiloids are back in the show
    assert innate_keys(result.state, sid(state, "Аня"))[sid(state, "Боря")] == ("not_reptiloid",)
    # he joins the team («Рептилоиды знают друг друга со старта»): the Reptiloids' event names him
    (team,) = events_of(result, "team")
    assert team.audience == "faction:reptiloids"
    assert [m["name"] for m in team.data["members"]] == ["Аня", "Зина", "Илья"] and team.data["unnamed"] == 0


def test_snakelet_3_free_heroes_lose_their_not_reptiloid_knowledge_about_free_heroes():
    """«В момент превращения для всех остающихся на свободе героев их ранее полученные Тайные Знания
    "не-Рептилоид" о других остающихся на свободе героях стираются.»"""
    state = snakelet_show()
    b, a, v, z = ids(state, "Боря", "Аня", "Вера", "Зина")
    secret = {str(b): [{"about": a, "key": "not_reptiloid", "phase": "day 1", "source": "lot"},
                       {"about": v, "key": "not_demon", "phase": "day 1", "source": "lot"},
                       {"about": z, "key": "not_demon", "phase": "day 1", "source": "lot"}],
              str(v): [{"about": z, "key": "not_mason", "phase": "day 1", "source": "lot"}]}
    state = at(state, "revote 1", secret_keys=secret, public_keys={str(a): ["not_reptiloid"]})
    votes = {n: "enslave" for n in ["Аня", "Боря", "Вера", "Гоша", "Даша", "Егор", "Жора", "Кира"]}
    after = close(state, votes=votes).state
    assert [i["key"] for i in after.memory["secret_keys"][str(b)]] == ["not_demon", "not_demon"]
    assert len(after.memory["secret_keys"][str(v)]) == 1
    assert "not_reptiloid" not in after.memory["public_keys"][str(a)]  # the status stays true


def test_snakelet_3_the_close_reports_what_the_turn_erased_and_what_was_learnt_beside():
    """«В момент превращения для всех остающихся на свободе героев их ранее полученные Тайные Знания
    "не-Рептилоид" о других остающихся на свободе героях стираются.» The close of the turn reports
    the erased knowledge (`keys_erased`, {holder: {about: key}}), and a key learnt in that same close
    is still new in `keys_secret` although the holder's list got shorter
    (privilege-snakelet-erases-not-reptiloid.yaml found it missing)."""
    state = snakelet_show()
    b, a, g = ids(state, "Боря", "Аня", "Гоша")
    secret = {str(b): [{"about": a, "key": "not_reptiloid", "phase": "day 1", "source": "lot"},
                       {"about": g, "key": "not_reptiloid", "phase": "day 1", "source": "lot"},
                       {"about": g, "key": "not_demon", "phase": "day 1", "source": "lot"}]}
    state = at(state, "revote 1", secret_keys=secret, knowledge_rights={str(b): 1})
    votes = {n: "enslave" for n in ["Аня", "Боря", "Вера", "Гоша", "Даша", "Егор", "Жора", "Кира"]}
    result = close(state, votes=votes, knowledge={"Боря": "Гоша"})  # «не-Спаситель», the one left
    assert result.outcome["turned"] == "Аня"
    assert result.outcome["keys_erased"] == {"Боря": {"Аня": "not_reptiloid", "Гоша": "not_reptiloid"}}
    assert result.outcome["keys_secret"] == {"Боря": {"Гоша": "not_saviour"}}
    assert [i["key"] for i in result.state.memory["secret_keys"][str(b)]] == ["not_demon", "not_saviour"]
    assert close(snakelet_show(), votes={"Аня": "spare"}).outcome["keys_erased"] == {}  # no turn, nothing erased


def test_snakelet_4_alone_collects_the_reptiloid_slaves_burden():
    """«После превращения Бремя с рептилоидных рабов начинает собирать только Рептилоид-Змеёныш.»"""
    state = snakelet_show()
    votes = {n: "enslave" for n in ["Аня", "Боря", "Вера", "Гоша", "Даша", "Егор", "Жора", "Кира"]}
    after = close(state, votes=votes).state
    a, z, i = ids(after, "Аня", "Зина", "Илья")
    assert burden_collectors(after) == [a]
    assert sorted(burden_collectors(state)) == sorted([z, i])  # not before the turn


def test_snakelet_4_the_morning_burden_is_one_movement_to_him():
    """«После превращения Бремя с рептилоидных рабов начинает собирать только Рептилоид-Змеёныш»:
    the close's burden of a Reptiloids' slave goes to him in one movement (not split among the
    enslaved Reptiloids first), and the public morning line shows it whole."""
    state = snakelet_show()
    votes = {n: "enslave" for n in ["Аня", "Боря", "Вера", "Гоша", "Даша", "Егор", "Жора", "Кира"]}
    after = close(state, votes=votes).state
    assert after.phase == "night 1"
    a, b = ids(after, "Аня", "Боря")
    result = close(after, orders=night_orders(after, Аня=("enslave", "Боря"), Жора=("save", "Вера")))
    assert result.outcome["enslaved"] == ["Боря"]
    due = after.options["burden_reptiloids"]
    to_reptiloids = [t for t in result.outcome["transfers"] if t["reason"] == "burden" and t["debit"] == hero(b)]
    assert to_reptiloids == [Transfer(hero(b), hero(a), due, "burden", "reptiloids").to_dict()]
    (morning,) = events_of(result, "morning")
    assert {line["name"]: line["amount"] for line in morning.data["burdens"]}["Боря"] == due


def test_snakelet_5_a_winning_snakelet_takes_the_whole_bank():
    """«Если в финале Рептилоид-Змеёныш выживает и побеждает, то он забирает весь Банк себе и не
    делится с другими Рептилоидами, которые в этом случае считаются проигравшими.»"""
    state = snakelet_show()
    votes = {n: "enslave" for n in ["Аня", "Боря", "Вера", "Гоша", "Даша", "Егор", "Жора", "Кира"]}
    after = close(state, votes=votes).state
    won = replace(after, over=True, winner="reptiloids")
    a, z = ids(after, "Аня", "Зина")
    shares = [Transfer(BANK, hero(a), 60, "bank_share"), Transfer(BANK, hero(z), 40, "bank_share")]
    assert bank_winners(won, [a, z]) == [a]
    assert adjust_settlement(won, shares) == [Transfer(BANK, hero(a), 100, "bank_share")]


def test_snakelet_5_the_close_that_ends_the_show_gives_him_the_whole_bank():
    """«Если в финале Рептилоид-Змеёныш выживает и побеждает, то он забирает весь Банк себе и не
    делится с другими Рептилоидами, которые в этом случае считаются проигравшими.» Through the close
    that ends the show: the settlement must see the show's winner (the state of the close's start
    has none yet), so the enslaved Reptiloid Илья, rated 3, gets no share
    (privilege-snakelet-burdens-and-bank.yaml found it sharing the bank by rating)."""
    state = snakelet_show()
    votes = {n: "enslave" for n in ["Аня", "Боря", "Вера", "Гоша", "Даша", "Егор", "Жора", "Кира"]}
    after = close(state, votes=votes).state
    assert after.by_name("Аня").role == "reptiloid"
    last = enslaved(after, "Вера", "Гоша", "Даша", "Егор", "Кира")
    last = at(last, "revote 2", bench=ids(last, "Боря"),
              ratings={**last.memory["ratings"], str(sid(last, "Илья")): 3})
    result = close(last, votes={"Аня": "enslave", "Жора": "enslave"})
    assert result.state.winner == "reptiloids" and result.outcome["enslaved"] == ["Боря"]
    bank = last.memory["coins"]["accounts"]["bank"] + sum(
        t["amount"] for t in result.outcome["transfers"] if t["credit"] == "bank" and t["reason"] != "bank_share")
    assert result.outcome["settlement"]["bank_shares"] == {"Аня": bank}


def test_snakelet_6_does_not_turn_with_two_free_heroes_left():
    """«Если на свободе остаётся всего два героя, то Змеёныш уже не превращается в Рептилоида и
    остаётся Масоном до конца.»"""
    roster = [("Аня", "mason"), ("Боря", "mason"), ("Жора", "saviour"), ("Зина", "reptiloid"), ("Кира", "demon")]
    state = enslaved(new(roster, privileges={"Аня": ["snakelet"]}), "Жора", "Кира")
    state = at(state, "revote 1", bench=ids(state, "Зина"))
    result = close(state, votes={"Аня": "enslave", "Боря": "enslave"})
    assert result.outcome["enslaved"] == ["Зина"] and result.outcome["turned"] is None
    assert result.state.by_name("Аня").role == "mason" and result.state.winner == "masons"


def test_snakelet_7_reptiloids_cannot_enslave_him_at_night():
    """«По ночам Рептилоиды НЕ могут поработить Змеёныша!»"""
    state = at(new(privileges={"Аня": ["snakelet"]}), "night 1")
    orders = night_orders(state, Жора=("save", "Боря"), Зина=("enslave", "Аня"), Илья=("enslave", "Аня"))
    result = close(state, orders=orders)
    assert result.outcome["enslaved"] == [] and result.state.by_name("Аня").status != SLAVE
    # the Demon may
    orders = night_orders(state, Жора=("save", "Боря"), Кира=("enslave", "Аня"))
    assert close(state, orders=orders).outcome["enslaved"] == ["Аня"]


# -- 2) ВЫШИБАЛА ------------------------------------------------------------------------------------


def bouncer_night(holder="Аня", **kwargs):
    return at(new(privileges={holder: ["bouncer"]}, **kwargs), "night 1")


def test_bouncer_2_a_stunned_hero_loses_his_night_action():
    """«Каждую ночь Вышибала (будучи свободным героем) получает дополнительный приватный вопрос, кого
    он желает "оглушить", то есть лишить ночного действия. Делать этот выбор не обязательно.»"""
    state = bouncer_night()
    assert "stun" in SHOW.allowed_actions(state, sid(state, "Аня"))
    orders = night_orders(state, Жора=("save", "Боря"), Кира=("enslave", "Вера"))
    assert close(state, orders=orders).outcome["enslaved"] == ["Вера"]
    result = close(state, orders=orders, stun={"Аня": "Кира"})
    assert result.outcome["enslaved"] == [] and result.outcome["stunned"] == ["Кира"]
    assert "Кира" not in result.outcome["coma"]
    assert [e.audience for e in events_of(result, "stunned_gm")] == [GM]


def test_bouncer_3_each_hero_is_stunned_once_per_show():
    """«За сессию можно "простучать" героев только по одному разу, то есть с каждой ночью выбор
    активного Вышибалы сужается.»"""
    state = bouncer_night()
    after = close(state, orders=night_orders(state), stun={"Аня": "Кира"}).state
    again = at(after, "night 2")
    assert SHOW.check_stun(again, sid(state, "Аня"), sid(state, "Кира")) == "stun_used"
    assert SHOW.check_stun(again, sid(state, "Аня"), sid(state, "Боря")) is None
    assert SHOW.check_stun(again, sid(state, "Аня"), sid(state, "Аня")) == "self_forbidden"


def test_bouncer_2_one_stun_a_night():
    """«Каждую ночь Вышибала (будучи свободным героем) получает дополнительный приватный вопрос, кого
    он желает "оглушить"»: one question a night, so one hero a night. After a stun made at once, the
    engine offers no other one that night, refuses it and `stun_now` adds nobody; the close reads
    only the first."""
    state = bouncer_night()
    anya, kira, vera = ids(state, "Аня", "Кира", "Вера")
    stunned, _events = SHOW.stun(state, anya, kira)
    assert SHOW.check_stun(stunned, anya, vera) == "stunned_tonight"
    assert "stun" not in SHOW.allowed_actions(stunned, anya)
    again, events = SHOW.stun(stunned, anya, vera)
    assert events == () and again == stunned and can_post(again, vera)
    # a stun also given at the close (a scenario's `stun`) does not add a second one
    orders = night_orders(stunned, Жора=("save", "Боря"))
    result = close(stunned, orders=orders, stun={"Аня": "Вера"})
    assert result.outcome["stunned"] == ["Кира"]
    assert result.state.memory["priv"]["stun_used"] == [kira]
    # the next night he may stun again (another hero)
    assert SHOW.check_stun(at(result.state, "night 2"), anya, vera) is None


def test_bouncer_4_a_stunned_reptiloids_free_partner_chooses_for_both():
    """«Если Вышибала оглушает Рептилоида, но при этом его сообщник тоже ещё на свободе, то
    считается, что Рептилоиды успешно сделали свой ночной выбор кого поработить и это выбор
    неоглушённого сообщника.»"""
    state = bouncer_night()
    orders = night_orders(state, Жора=("save", "Боря"), Зина=("enslave", "Вера"), Илья=("enslave", "Гоша"))
    assert close(state, orders=orders).outcome["enslaved"] == []  # they disagree: nobody (A3)
    assert close(state, orders=orders, stun={"Аня": "Зина"}).outcome["enslaved"] == ["Гоша"]


def test_bouncer_5_no_stun_when_the_bad_hero_picks_him():
    """«В случае, если Вышибала выбирает плохиша (Рептилоида или Демона), а тот Вышибалу, то
    оглушение не происходит.»"""
    state = bouncer_night()
    orders = night_orders(state, Жора=("save", "Боря"), Кира=("enslave", "Аня"))
    result = close(state, orders=orders, stun={"Аня": "Кира"})
    assert result.outcome["stunned"] == [] and result.outcome["enslaved"] == ["Аня"]
    assert events_of(result, "stun_failed")
    assert SHOW.check_stun(at(result.state, "night 2"), sid(state, "Аня"), sid(state, "Кира")) is None


def test_bouncer_6_the_stunned_sends_no_message_until_the_night_ends_and_works_from_slavery():
    """«Вышибала лишает оглушаемого возможности отправлять любые сообщения до конца ночи. Причём
    Вышибала-раб также обладает этой способностью!»"""
    state = enslaved(bouncer_night(), "Аня")
    kira, anya = ids(state, "Кира", "Аня")
    stunned, events = SHOW.stun(state, anya, kira)
    assert [e.kind for e in events] == ["stunned"] and events[0].audience == seat_audience(kira)
    assert not can_post(stunned, kira) and can_post(stunned, sid(state, "Боря"))
    # he keeps and owes his night choice until the night ends, as before the stun (issue 28, item 5:
    # rule 5 must not depend on who clicked first, nor what the night waits for); the close voids it
    assert kira in SHOW.owing(stunned) and SHOW.allowed_actions(stunned, kira) == ("enslave",)
    assert SHOW.optional_actions(stunned, kira) == ()
    result = close(stunned, orders=night_orders(stunned, Жора=("save", "Боря"), Кира=("enslave", "Вера")))
    assert result.outcome["stunned"] == ["Кира"] and result.outcome["enslaved"] == []
    assert can_post(at(result.state, "day 2"), kira)


# -- 3) СЕКРЕТАРЬ -----------------------------------------------------------------------------------


def test_secretary_2_sees_who_votes_for_whom_even_from_slavery():
    """«Секретарь видит, кто за кого голосует на всех Дневных Голосованиях. Даже из рабства.» (A36:
    the re-votes too)."""
    state = enslaved(at(new(privileges={"Аня": ["secretary"]}), "day 2"), "Аня")
    anya, borya, vera = ids(state, "Аня", "Боря", "Вера")
    votes = {borya: vera, vera: borya}
    assert secretary_ballots(state, votes, None, viewer=anya) == {"ballots": votes, "extra": []}
    assert secretary_ballots(state, votes, None, viewer=borya) is None
    revote = at(state, "revote 2", bench=[vera, borya])
    assert secretary_ballots(revote, votes, None, viewer=anya)["ballots"] == votes
    assert secretary_ballots(at(state, "night 2"), votes, None, viewer=anya) is None


def test_secretary_3_sees_the_talents_votes():
    """«Секретарь видит, за кого отдают свои голоса Талантливые рабы.» Every ballot given is his,
    a Talent's too (part 2 admits the Talents to the vote)."""
    state = enslaved(at(new(privileges={"Аня": ["secretary"]}), "day 2"), "Зина")
    zina, borya = ids(state, "Зина", "Боря")
    assert secretary_ballots(state, {zina: borya}, None, viewer=sid(state, "Аня"))["ballots"] == {zina: borya}


# -- 4) БИНГО ---------------------------------------------------------------------------------------


def test_bingo_2_a_winners_share_doubles_a_losers_result_doubles():
    """«Если обладатель входит в число Победителей, разделяющих в финале Шоу Банк, то его доля
    удваивается. Если же нет, то удваивается его общий результат (до Судного Дня), в том числе и
    отрицательный (опасность!).»"""
    state = new(privileges={"Аня": ["bingo"]})
    a, b, z = ids(state, "Аня", "Боря", "Зина")
    shares = [Transfer(BANK, hero(a), 50, "bank_share"), Transfer(BANK, hero(b), 50, "bank_share")]
    doubled = adjust_settlement(state, shares)
    assert {t.credit: t.amount for t in doubled} == {hero(a): 67, hero(b): 33}
    # a loser: his result so far is doubled against the bank; the bank stays exactly split
    shares = [Transfer(BANK, hero(b), 70, "bank_share"), Transfer(BANK, hero(z), 30, "bank_share")]
    lost = [Transfer(hero(a), BANK, 40, "stage_fee")]
    out = adjust_settlement(state, shares, history=lost)
    assert Transfer(hero(a), BANK, 40, "bingo") in out
    assert sum(t.amount for t in out if t.debit == BANK) == 100 + 40
    won = [Transfer(hero(b), hero(a), 30, "grant_share")]
    out = adjust_settlement(state, shares, history=won)
    assert Transfer(BANK, hero(a), 30, "bingo") in out
    assert sum(t.amount for t in out if t.debit == BANK) == 100


def test_bingo_3_a_slave_pays_double_burden_to_reptiloids_and_demon():
    """«Будучи рабом платит удвоенное Бремя Рептилоидам и Демону.» (the public one is not doubled)"""
    state = new(privileges={"Аня": ["bingo"]})
    a, z, k = ids(state, "Аня", "Зина", "Кира")
    out = adjust_transfers(state, [Transfer(hero(a), hero(z), 10, "burden"), Transfer(hero(a), escrow(k), 10, "burden"),
                                   Transfer(hero(a), BANK, 10, "burden")])
    assert [t.amount for t in out] == [20, 20, 10]


# -- 5) ГОВОРУН -------------------------------------------------------------------------------------


def test_talker_2_his_paid_messages_cost_nothing_but_anonymous_ones_do():
    """«Любые платные сообщения (кроме анонимных) НЕ отбирают в Банк монеты у обладателя данной
    Привилегии, хотя визуально этого не видно остальным.»"""
    state = new(privileges={"Аня": ["talker"]})
    a, b = ids(state, "Аня", "Боря")
    fees = [Transfer(hero(a), BANK, 5, "message_fee"), Transfer(hero(a), BANK, 7, "anonymous_fee"),
            Transfer(hero(b), BANK, 5, "message_fee")]
    assert adjust_transfers(state, fees) == fees[1:]


def test_talker_3_up_to_five_fakes_a_stage():
    """«Имеет уникальную возможность подделывать имя отправителя для своего следующего сообщения
    командой /fake, до пяти таких сообщений за Этап.»"""
    state = at(new(privileges={"Аня": ["talker"]}), "day 1")
    a, b = ids(state, "Аня", "Боря")
    assert all(can_fake(state, a, used) for used in range(5)) and not can_fake(state, a, 5)
    assert check_fake(state, a, 5) == "fake_limit" and check_fake(state, b, 0) == "not_your_action"
    assert check_fake(state, a, 0, b) is None and check_fake(state, a, 0, a) == "bad_target"
    assert "fake" in SHOW.allowed_actions(state, a)


# -- 6) ЗАЯЦ ----------------------------------------------------------------------------------------


def test_hare_2_pays_no_fees_nor_burdens():
    """«Обладатель этой Привилегии не платит никакие Взносы (в том числе вступительный, за Этапы,
    сборы за Кому), а также не платит Бремя (ни общественное, ни Рептилоидам, ни Демону). Визуально
    при этом остальным это не видно, не работают только сами денежные транзакции.»"""
    state = new(privileges={"Аня": ["hare"]})
    a, b, z = ids(state, "Аня", "Боря", "Зина")
    mine = [Transfer(hero(a), BANK, n, r) for n, r in ((100, "entry_fee"), (5, "stage_fee"), (9, "coma_fee"),
                                                       (10, "burden"))] + [Transfer(hero(a), hero(z), 10, "burden")]
    others = [Transfer(hero(b), BANK, 100, "entry_fee"), Transfer(hero(a), "pot", 25, "bet")]
    assert adjust_transfers(state, mine + others) == others


def anya_enslaved_by_both(privilege):
    """Night 1 with Боря a public slave: the Reptiloids and the Demon all take Аня, who holds
    `privilege`. Returns the state, the close and the public morning's burden lines {name: amount}."""
    state = enslaved(at(new(privileges={"Аня": [privilege]}), "night 1"), "Боря")
    orders = night_orders(state, Жора=("save", "Вера"), Зина=("enslave", "Аня"), Илья=("enslave", "Аня"),
                          Кира=("enslave", "Аня"))
    result = close(state, orders=orders)
    assert result.outcome["enslaved"] == ["Аня"]
    (morning,) = events_of(result, "morning")
    assert morning.audience == PUBLIC
    return state, result, {line["name"]: line["amount"] for line in morning.data["burdens"]}


def test_hare_2_the_morning_shows_his_burden_as_everyone_elses():
    """«... не платит Бремя (ни общественное, ни Рептилоидам, ни Демону). Визуально при этом остальным
    это не видно, не работают только сами денежные транзакции.» The public morning line («Также
    публикуется актуальный размер Бремени для всех рабов») shows the Заяц's burden as it is due, not
    the 0 he pays, which would name him; the transfers and the close's `burdens` (the GM's) are what
    really moved. Аня, the Заяц, is a slave of the Reptiloids and of the Demon (both attacked her),
    Боря a public slave."""
    state, result, shown = anya_enslaved_by_both("hare")
    options = state.options
    assert shown == {"Аня": options["burden_reptiloids"] + options["burden_demon"], "Боря": options["burden_public"]}
    anya = hero(sid(state, "Аня"))
    assert not [t for t in result.outcome["transfers"] if t["debit"] == anya]
    assert result.outcome["burdens"] == {"Аня": 0, "Боря": options["burden_public"]}


def test_bingo_3_the_morning_shows_his_burden_as_everyone_elses():
    """«Будучи рабом платит удвоенное Бремя Рептилоидам и Демону», while each privilege is known
    only to its holder: the public morning line («Также публикуется актуальный размер Бремени для
    всех рабов») shows the burden as it is due; only the transfers (the GM's) pay it twice."""
    state, result, shown = anya_enslaved_by_both("bingo")
    options = state.options
    due = options["burden_reptiloids"] + options["burden_demon"]
    assert shown == {"Аня": due, "Боря": options["burden_public"]}
    assert result.outcome["burdens"]["Аня"] == 2 * due


def test_hare_3_becomes_a_public_slave_after_a_night_without_slaves():
    """«В случае, если утром после определения результатов ночи никто не попадает в рабство, то
    общественным рабом автоматически становится обладатель этой Привилегии с формулировкой "за
    неуплату налогов".»"""
    state = at(new(privileges={"Аня": ["hare"]}), "night 1")
    result = close(state, orders=night_orders(state))
    assert result.outcome["taxed"] == "Аня" and result.outcome["enslaved"] == ["Аня"]
    (event,) = [e for e in events_of(result, "enslaved")]
    assert event.data["by"] == "taxes" and event.data["owners"] == ["public"]
    assert result.state.memory["priv"]["hare_spent"] is True
    busy = close(state, orders=night_orders(state, Жора=("save", "Боря"), Кира=("enslave", "Вера")))
    assert busy.outcome["taxed"] is None and busy.outcome["enslaved"] == ["Вера"]


# -- 7) ХАКЕР ---------------------------------------------------------------------------------------


def knowledge_given(hacker="Аня"):
    """Боря uses a Secret Knowledge right on Кира during day 2 (knowledge number 1)."""
    state = at(new(privileges={hacker: ["hacker"]}), "day 2", knowledge_rights={})
    state = at(state, "day 2", knowledge_rights={str(sid(state, "Боря")): 1})
    state, _events = SHOW.use_knowledge(state, sid(state, "Боря"), sid(state, "Кира"), seed=3)
    return state


def test_hacker_2_intercepts_knowledge_by_guessing_its_receiver_or_its_hero():
    """«Как только кто-то получает Тайное Знание, Хакер имеет возможность перехватить его себе если
    угадает, НА КОГО или КЕМ оно было получено (за ограниченное время).»"""
    state = knowledge_given()
    anya = sid(state, "Аня")
    assert "intercept" in SHOW.allowed_actions(state, anya)
    key = state.memory["secret_keys"][str(sid(state, "Боря"))][0]["key"]
    right = close(state, intercept={"Аня": {"number": 1, "about": "Кира"}})
    assert right.outcome["intercepted"] == {"Аня": {"Кира": key}}
    assert [i["key"] for i in intercepted(right.state, anya)] == [key]
    assert [e.audience for e in events_of(right, "intercept_result")] == [seat_audience(anya)]
    by_receiver = close(state, intercept={"Аня": {"number": 1, "receiver": "Боря"}})
    assert by_receiver.outcome["intercepted"] == {"Аня": {"Кира": key}}
    wrong = close(state, intercept={"Аня": {"number": 1, "receiver": "Вера"}})
    assert wrong.outcome["intercepted"] == {} and not intercepted(wrong.state, anya)
    assert SHOW.check_intercept(wrong.state, anya, {"number": 1, "receiver": "Боря"}) is not None


def test_hacker_2_a_guess_is_answered_at_once():
    """«Как только кто-то получает Тайное Знание, Хакер имеет возможность перехватить его себе если
    угадает ... (за ограниченное время)»: the site's button answers at once (`SHOW.intercept`); the
    key is his from then on, the guess is spent, and the stage's close reports it."""
    state = knowledge_given()
    anya = sid(state, "Аня")
    key = state.memory["secret_keys"][str(sid(state, "Боря"))][0]["key"]
    now, told = SHOW.intercept(state, anya, {"number": 1, "receiver": sid(state, "Боря")})
    assert [i["key"] for i in intercepted(now, anya)] == [key] and not intercepted(state, anya)
    assert [e.kind for e in told] == ["intercept_result", "intercept_gm"]
    assert told[0].audience == seat_audience(anya) and told[0].data["right"] is True
    assert SHOW.check_intercept(now, anya, {"number": 1, "about": sid(state, "Кира")}) == "guessed_before"
    assert SHOW.intercept(now, anya, {"number": 1, "about": sid(state, "Кира")}) == (now, ())
    assert close(now).outcome["intercepted"] == {"Аня": {"Кира": key}}
    wrong, told = SHOW.intercept(state, anya, {"number": 1, "receiver": sid(state, "Вера")})
    assert told[0].data["right"] is False and not intercepted(wrong, anya)
    assert close(wrong).outcome.get("intercepted") in (None, {})
    # the state it was given is untouched (the engine is pure)
    assert SHOW.check_intercept(state, anya, {"number": 1, "about": sid(state, "Кира")}) is None


def test_hacker_2_an_intercepted_key_reaches_his_ally():
    """«Если герой, будучи в Альянсе, получает Тайное Знание, то такое же сразу приходит и его
    Союзнику» (part 2): a key the Хакер intercepts is one he receives — at once on the button, and
    at the close from its inputs."""
    state = knowledge_given()
    anya, vera = sid(state, "Аня"), sid(state, "Вера")
    state = at(state, "day 2", allies={str(anya): vera, str(vera): anya})
    key = state.memory["secret_keys"][str(sid(state, "Боря"))][0]["key"]
    guess = {"number": 1, "about": sid(state, "Кира")}
    now, told = SHOW.intercept(state, anya, guess)
    theirs = now.memory["secret_keys"][str(vera)]
    assert [(i["about"], i["key"], i["source"]) for i in theirs] == [(sid(state, "Кира"), key, "ally")]
    assert any(e.kind == "secret_key" and e.audience == seat_audience(vera) for e in told)
    assert str(vera) not in (state.memory.get("secret_keys") or {})  # the state given is untouched
    closed = close(state, intercept={"Аня": guess}).state
    assert [i["source"] for i in closed.memory["secret_keys"][str(vera)]] == ["ally"]


def test_hacker_2_the_time_is_the_stage_after_the_knowledge():
    """«(за ограниченное время)»: until the end of the stage after the one it was given in (A33)."""
    state = knowledge_given()
    anya = sid(state, "Аня")
    nobody = close(state).state  # day 2 closes with no guess: still open in the next stage
    assert SHOW.check_intercept(nobody, anya, {"number": 1, "about": sid(state, "Кира")}) is None
    later = close(nobody).state
    assert SHOW.check_intercept(later, anya, {"number": 1, "about": sid(state, "Кира")}) == "no_open_knowledge"


def test_hacker_3_gets_no_secret_knowledge_the_ordinary_way():
    """«Сам Хакер НЕ получает Тайные Знания обычным порядком.»"""
    roster = [("Аня", "mason"), ("Боря", "mason"), ("Жора", "saviour"), ("Зина", "reptiloid"), ("Кира", "demon")]
    lots = set()
    for seed in range(15):
        state = at(new(roster, privileges={"Аня": ["hacker"]}), "day 1")
        lots.add(close(state, seed=seed, votes=everyone_votes(state, "Кира")).outcome["knowledge"])
    assert "Аня" not in lots and len(lots) > 1
    state = at(state, "day 2", knowledge_rights={str(sid(state, "Аня")): 1})
    assert SHOW.check_knowledge(state, sid(state, "Аня"), sid(state, "Кира")) == "hacker"


def test_hacker_4_works_from_slavery():
    """«Хакер продолжает свою деятельность даже из рабства.»"""
    state = enslaved(knowledge_given(), "Аня")
    result = close(state, intercept={"Аня": {"number": 1, "receiver": "Боря"}})
    assert list(result.outcome["intercepted"]) == ["Аня"]


# -- 8) ГЕНИЙ ---------------------------------------------------------------------------------------


def test_genius_2_doubles_every_rating_change():
    """«Удваивает любые (положительные и отрицательные) изменения Рейтинга в ходе сессии.»"""
    state = new(privileges={"Аня": ["genius"]})
    a, b = ids(state, "Аня", "Боря")
    changes = [RatingChange(a, 1, "vote_against_bad"), RatingChange(a, -2, "judge_enslaved_saviour"),
               RatingChange(b, 1, "vote_against_bad")]
    assert [c.delta for c in adjust_ratings(state, changes)] == [2, -4, 1]


def test_genius_3_learns_each_morning_who_became_judge():
    """«По утрам знает, кто стал Судьёй.»"""
    state = at(new(privileges={"Аня": ["genius"]}, judge_public=False), "night 1")
    result = close(state, orders=night_orders(state))
    (told,) = events_of(result, "genius_judge")
    assert told.audience == seat_audience(sid(state, "Аня")) and told.data["name"] == result.outcome["judge"]


def test_genius_4_gets_the_first_secret_knowledge_unless_he_is_the_hacker():
    """«Получает первое Тайное Знание, если не является Хакером.» (A25: the show's first lot)"""
    for seed in range(8):
        state = at(new(privileges={"Вера": ["genius"]}), "day 1")
        first = close(state, seed=seed, votes=everyone_votes(state, "Кира"))
        assert first.outcome["knowledge"] == "Вера"
    both = at(new(privileges={"Вера": ["genius", "hacker"]}), "day 1")
    lots = [close(both, seed=s, votes=everyone_votes(both, "Кира")).outcome["knowledge"] for s in range(8)]
    assert None not in lots and "Вера" not in lots
    second = at(replace(first.state, seats=state.seats), "day 2")
    lots = {close(second, seed=s, votes=everyone_votes(second, "Кира")).outcome["knowledge"] for s in range(12)}
    assert len(lots) > 1


# -- 9) АВТОРИТЕТ -----------------------------------------------------------------------------------


def test_authority_2_adds_one_more_vote_in_day_votes_and_revotes():
    """«На Дневных и Повторных Голосованиях получает в начале Этапа в ленту предложение добросить
    еще один голос, можно это сделать только до конца Этапа в любой момент.»"""
    state = at(new(privileges={"Аня": ["authority"]}), "day 1")
    assert "extra_vote" in SHOW.allowed_actions(state, sid(state, "Аня"))
    result = close(state, votes={"Аня": "Кира", "Боря": "Вера"}, extra_votes={"Аня": "Вера"})
    assert result.outcome["tally"] == {"Кира": 1, "Вера": 2} and result.outcome["bench"] == ["Вера"]
    single = at(state, "revote 1", bench=ids(state, "Кира"))
    votes = {"Боря": "enslave", "Вера": "spare"}
    assert close(single, votes=votes).outcome["enslaved"] == []
    assert close(single, votes=votes, extra_votes={"Аня": "enslave"}).outcome["enslaved"] == ["Кира"]
    several = at(state, "revote 1", bench=ids(state, "Кира", "Зина"))
    out = close(several, votes={"Боря": "Кира", "Вера": "Зина"}, extra_votes={"Аня": "Зина"}).outcome
    assert out["enslaved"] == ["Зина"] and out["tally"] == {"Кира": 1, "Зина": 2}


def test_authority_3_his_vote_shows_only_in_the_counters():
    """«Никаких публичных сообщений о голосовании Авторитета не рассылается, результат виден только в
    счетчиках голосов. Авторитет действует конфиденциально.»"""
    state = at(new(privileges={"Аня": ["authority"]}), "day 1")
    result = close(state, votes={"Боря": "Вера"}, extra_votes={"Аня": "Вера"})
    (public,) = events_of(result, "day_votes")
    assert public.data["ballots"] == {"Боря": "Вера"} and public.data["tally"] == {"Вера": 2}
    assert [e.audience for e in events_of(result, "extra_vote_gm")] == [GM]


def test_authority_4_works_only_with_more_than_five_free():
    """«Авторитет работает только когда на свободе более пяти Героев.»"""
    six = enslaved(at(new(privileges={"Аня": ["authority"]}), "day 2"), "Боря", "Вера", "Гоша", "Даша")
    anya = sid(six, "Аня")
    assert SHOW.check_extra_vote(six, anya, sid(six, "Кира")) is None
    state = enslaved(six, "Егор")
    assert SHOW.check_extra_vote(state, anya, sid(state, "Кира")) == "authority_off"
    assert "extra_vote" not in SHOW.allowed_actions(state, anya)
    assert close(state, votes={"Жора": "Кира"}, extra_votes={"Аня": "Кира"}).outcome["tally"] == {"Кира": 1}


def test_authority_5_the_secretary_sees_where_his_vote_went_not_whose():
    """«Секретарь видит в кого ушёл голос Авторитета, но не видит от кого он.»"""
    state = at(new(privileges={"Аня": ["authority"], "Боря": ["secretary"]}), "day 1")
    a, b, k = ids(state, "Аня", "Боря", "Кира")
    seen = secretary_ballots(state, {}, {a: k}, viewer=b)
    assert seen == {"ballots": {}, "extra": [k]}
    assert secretary_ballots(state, {}, {a: k}, viewer=None, is_gm=True)["extra_owners"] == {a: k}


def test_authority_6_each_secret_vote_is_rated_as_usual():
    """«За каждый тайный голос Авторитет получает Рейтинг в общем порядке.» The close names the
    extra vote's holder and target to the GM's record (part 2 rates it like a ballot)."""
    state = at(new(privileges={"Аня": ["authority"]}), "day 1")
    result = close(state, votes={"Боря": "Вера"}, extra_votes={"Аня": "Кира"})
    (record,) = events_of(result, "extra_vote_gm")
    assert record.data == {"authority": "Аня", "target": "Кира"} and result.outcome["extra_vote"] == "Кира"


def test_authority_7_votes_even_from_slavery():
    """«Авторитет имеет возможность голосовать даже из рабства!» (A29: his extra vote)"""
    state = enslaved(at(new(privileges={"Аня": ["authority"]}), "day 2"), "Аня")
    anya = sid(state, "Аня")
    assert anya not in SHOW.voters(state) and SHOW.allowed_actions(state, anya) == ("extra_vote",)
    assert close(state, votes={"Боря": "Кира"}, extra_votes={"Аня": "Кира"}).outcome["tally"] == {"Кира": 2}


# -- 10) АДВОКАТ ------------------------------------------------------------------------------------


def test_lawyer_2_excludes_one_hero_from_the_next_days_vote():
    """«По ночам Адвокат (будучи свободным героем) может выбрать одного из других героев и тот будет
    исключён из списка Дневного Голосования следующего дня.» (A28: nobody may vote for him; he
    votes)"""
    state = at(new(privileges={"Аня": ["lawyer"]}), "night 1")
    result = close(state, orders=night_orders(state), exclude={"Аня": "Кира"})
    assert result.outcome["excluded"] == ["Кира"]
    day = result.state
    assert day.phase == "day 2"
    kira = sid(day, "Кира")
    assert kira not in SHOW.vote_targets(day) and kira in SHOW.voters(day)
    assert SHOW.check_vote(day, sid(day, "Боря"), kira) == "bad_target"
    assert kira in SHOW.vote_targets(at(day, "day 3"))
    assert SHOW.check_exclude(enslaved(state, "Аня"), sid(state, "Аня"), kira) == "not_free"


def test_lawyer_3_each_hero_once_himself_too():
    """«Выбирать каждого участника можно только один раз за сессию. Себя тоже можно выбрать лишь один
    раз.»"""
    state = at(new(privileges={"Аня": ["lawyer"]}), "night 1")
    anya = sid(state, "Аня")
    after = close(state, orders=night_orders(state), exclude={"Аня": "Аня"}).state
    assert after.memory["priv"]["excluded"]["seats"] == [anya]
    night2 = at(after, "night 2")
    assert SHOW.check_exclude(night2, anya, anya) == "excluded_before"
    assert SHOW.check_exclude(night2, anya, sid(state, "Боря")) is None


# -- 11) КРОТ ---------------------------------------------------------------------------------------


def test_mole_2_does_not_know_his_role():
    """«Крот не знает свою Роль и должен выяснить её в ходе Шоу.»"""
    seats = [(i, n, r) for i, (n, r) in enumerate(ROSTER, 1)]
    state, events = SHOW.new_game(seats, seat_data={"Кира": {"privileges": ["mole"]}})
    kira = sid(state, "Кира")
    mine = [e for e in events if e.audience == seat_audience(kira)]
    assert {e.kind for e in mine} == {"mole_role", "privileges"}  # no role, no innate keys
    assert all("role" not in e.data for e in mine)
    assert [e.audience for e in events if e.kind == "role" and e.data["seat"] == kira] == [GM]
    status = full_status(state, kira, viewer=kira)
    assert status["role"] is None and status["faction"] is None
    assert all(not row["innate"] for row in status["rows"])
    assert full_status(state, kira, viewer=None, is_gm=True)["role"] == "demon"
    night = at(state, "night 1")
    assert SHOW.allowed_actions(night, kira) == ("suspect", "mole_coma")  # he picks like a Mason
    orders = night_orders(night, Кира=("suspect", "Вера"))
    assert SHOW.check_order(night, Order(kira, "enslave", sid(state, "Вера"))) == "not_your_action"
    assert close(night, orders=orders).outcome["enslaved"] == []


def test_mole_3_a_mole_reptiloids_partner_does_not_know_his_name_a_mole_saviour_has_no_checks():
    """«Если Кротом оказался Рептилоид, то его Сообщник не будет знать имя напарника. Если Кротом
    оказался Спаситель, он лишается ночных проверок.»"""
    seats = [(i, n, r) for i, (n, r) in enumerate(ROSTER, 1)]
    state, events = SHOW.new_game(seats, seat_data={"Зина": {"privileges": ["mole"]}})
    (team,) = [e for e in events if e.kind == "team"]
    assert [m["name"] for m in team.data["members"]] == ["Илья"] and team.data["unnamed"] == 1
    ilya = sid(state, "Илья")
    assert set(innate_keys(state, ilya)) == {ilya}  # no «не-Рептилоид» to name her by elimination
    state = new(privileges={"Жора": ["mole"]})
    night = at(state, "night 1")
    zhora = sid(state, "Жора")
    assert SHOW.allowed_actions(night, zhora) == ("suspect", "mole_coma")
    assert SHOW.check_order(night, Order(zhora, "save", sid(state, "Аня"))) == "not_your_action"
    assert SHOW.check_order(night, Order(zhora, "suspect", sid(state, "Аня"),
                                         detail={"public_key": sid(state, "Кира")})) == "bad_detail"


def test_mole_4_buries_any_free_hero_once_a_stage_even_from_slavery():
    """«Крот может единолично "закапывать" (то есть усыплять, отправляя в кому) любого героя на
    свободе один раз за Этап с помощью команды /mole. Даже из рабства.»"""
    state = enslaved(at(new(privileges={"Аня": ["mole"]}), "day 2"), "Аня")
    anya, vera, gosha = ids(state, "Аня", "Вера", "Гоша")
    assert "mole_coma" in SHOW.allowed_actions(state, anya)
    buried, events = SHOW.mole(state, anya, vera)
    assert [(e.kind, e.audience) for e in events] == [("buried", PUBLIC), ("buried_gm", GM)]
    assert "mole" not in events[0].data and events[1].data["mole"] == "Аня"
    assert str(vera) in buried.memory["coma"] and vera not in SHOW.owing(buried)
    assert SHOW.check_mole(buried, anya, gosha) == "mole_used"
    assert SHOW.mole(buried, anya, gosha) == (buried, ())
    assert SHOW.check_mole(at(buried, "defence 2"), anya, gosha) is None
    assert SHOW.check_mole(state, anya, sid(state, "Аня")) == "target_not_free"
    assert SHOW.check_mole(state, sid(state, "Боря"), gosha) == "not_your_action"


# -- the carousel ---------------------------------------------------------------------------------


def carousel(privileges, **options):
    return at(new(privileges=privileges, carousel=True, **options), "day 1")


def to_night(state, **kwargs):
    """Day 1 closes with nobody on the bench (no votes but the thieves'), so the night begins."""
    return close(state, **kwargs)


def test_carousel_theft_is_ordered_after_the_day_vote_and_done_at_night():
    """«Чтобы заказать похищение случайной Привилегии нужно сразу после своего выбора на Дневном
    Голосовании в появляющемся меню выбрать, у кого вы хотите попробовать похитить Привилегию»; «в
    начале каждой ночи происходят переходы Привилегий от одного участника к другому»."""
    state = carousel({"Боря": ["genius"]})
    anya = sid(state, "Аня")
    assert "steal" in SHOW.allowed_actions(state, anya)
    no_vote = close(state, steal={"Аня": "Боря"}).state  # no ballot of his own: no theft
    assert no_vote.phase == "night 1" and held(no_vote) == {"Боря": ["genius"]}
    result = close(state, votes={"Аня": "Боря"}, steal={"Аня": "Боря"})
    assert result.state.phase == "defence 1" and held(result.state) == {"Боря": ["genius"]}
    assert result.state.memory["priv"]["thefts"] == {str(anya): sid(state, "Боря")}
    revote = close(close(result.state, posted={"Боря": ["defence"]}).state,
                   votes={n: "spare" for n in ["Аня", "Вера", "Гоша"]})
    assert revote.state.phase == "night 1" and held(revote.state) == {"Аня": ["genius"]}
    assert revote.outcome["thefts"] == {"Аня": "genius"}
    kinds = {e.kind: e.audience for e in revote.events if e.kind in ("privilege_stolen", "privilege_lost", "thefts_gm")}
    assert kinds == {"privilege_stolen": seat_audience(anya), "privilege_lost": seat_audience(sid(state, "Боря")),
                     "thefts_gm": GM}


def test_carousel_those_without_privileges_steal_first_and_keep_their_catch():
    """«В ходе ночного обмена приоритет отдается тем, у кого на этот момент совсем не было никаких
    Привилегий, то есть сначала похищения совершают именно эти участники и их "улов" уже нельзя
    отнять в этот раз.»"""
    for seed in range(10):
        state = carousel({"Боря": ["genius"], "Вера": ["secretary"]})
        result = close(state, seed=seed, votes={"Вера": "Аня", "Аня": "Вера"}, steal={"Вера": "Аня", "Аня": "Боря"})
        result = close(close(result.state, seed=seed, posted={"Аня": ["defence"], "Вера": ["defence"]}).state,
                       seed=seed, votes={"Боря": "Гоша"})
        assert held(result.state)["Аня"] == ["genius"], seed  # Вера (holding one) cannot take it back
        assert result.outcome["thefts"] == {"Аня": "genius", "Вера": None}


def test_carousel_slaves_take_part_and_some_privileges_are_never_stolen():
    """«В Карусели участвуют также и рабы. Привилегии Змеёныш, реализовавшийся "мёртвый" Заяц и Крот
    не участвуют в похищениях.»"""
    state = enslaved(carousel({"Боря": ["snakelet", "mole", "hare"], "Вера": ["bingo"]}), "Аня")
    spent = at(state, "day 1", priv={"hare_spent": True})
    result = close(spent, votes={"Гоша": "Даша"}, steal={"Аня": "Боря", "Гоша": "Вера"})
    result = close(close(result.state, posted={"Даша": ["defence"]}).state, votes={"Боря": "spare"})
    assert result.outcome["thefts"] == {"Аня": None, "Гоша": "bingo"}
    assert held(result.state)["Боря"] == ["snakelet", "hare", "mole"]
    fresh = close(state, votes={"Гоша": "Даша"}, steal={"Аня": "Боря"})  # an unspent Заяц may be taken
    fresh = close(close(fresh.state, posted={"Даша": ["defence"]}).state, votes={"Боря": "spare"})
    assert fresh.outcome["thefts"] == {"Аня": "hare"}


def test_carousel_moves_privileges_when_the_night_begins_after_the_stages_fees():
    """«Если Шоу проходит в режиме Карусели Привилегий, то в начале каждой ночи происходят переходы
    Привилегий от одного участника к другому» (issue 28): a theft ordered in day 1's vote takes effect
    when night 1 begins, so the re-vote and «Выбор Союзника» before it are charged with the
    privileges as they were — Боря, the Заяц («не платит никакие Взносы»), pays nothing in them; from
    the night, Аня holds it."""
    for alliances in (True, False):
        state = carousel({"Боря": ["hare"]}, alliances=alliances)
        borya, anya = hero(sid(state, "Боря")), hero(sid(state, "Аня"))
        day = close(state, votes={"Аня": "Боря"}, steal={"Аня": "Боря"})
        defence = close(day.state, posted={"Боря": ["defence"]})
        revote = close(defence.state, votes={n: "spare" for n in ["Аня", "Вера", "Гоша"]})
        stages = [revote]
        if alliances:
            assert revote.state.phase == "allies 1" and held(revote.state) == {"Боря": ["hare"]}
            assert revote.outcome["thefts"] == {}
            stages.append(close(revote.state))
        last = stages[-1]
        assert last.state.phase == "night 1" and held(last.state) == {"Аня": ["hare"]}
        assert last.outcome["thefts"] == {"Аня": "hare"}
        for result in [day, defence, *stages]:  # every stage before the night: the Заяц's, free
            transfers = [Transfer.from_dict(t) for t in result.outcome["transfers"]]
            assert not [t for t in transfers if t.debit == borya], result.state.phase
            assert [t for t in transfers if t.debit == anya and t.reason == "stage_fee"], result.state.phase
        night = close(last.state, orders=night_orders(last.state))
        transfers = [Transfer.from_dict(t) for t in night.outcome["transfers"]]
        assert [t for t in transfers if t.debit == borya and t.reason == "stage_fee"]
        assert not [t for t in transfers if t.debit == anya and t.reason == "stage_fee"]


def test_carousel_is_off_without_the_option():
    """The carousel is a GM option: without it nobody may steal."""
    state = at(new(privileges={"Боря": ["genius"]}), "day 1")
    assert SHOW.check_steal(state, sid(state, "Аня"), sid(state, "Боря")) == "not_your_action"
    assert "steal" not in SHOW.allowed_actions(state, sid(state, "Аня"))


def test_privileges_are_public_at_the_end():
    """After the end everyone sees who held what (the archive is unsealed)."""
    state = enslaved(new(privileges={"Аня": ["genius"]}), "Зина", "Кира")
    state = at(state, "revote 1", bench=ids(state, "Илья"))
    result = close(state, votes={n: "enslave" for n in ["Аня", "Боря", "Вера", "Гоша", "Даша", "Егор", "Жора"]})
    (over,) = events_of(result, "game_over")
    assert over.audience == PUBLIC and over.data["privileges"] == {"Аня": ["genius"]}


# -- part 2's flow with the privileges (the merged economy) -----------------------------------------


def test_hare_pays_no_entry_nor_stage_fee_in_a_close():
    """«Обладатель этой Привилегии не платит никакие Взносы (в том числе вступительный, за Этапы,
    сборы за Кому)»: the close's book never debits him."""
    state = at(new(privileges={"Аня": ["hare"]}), "day 1")
    result = close(state, votes=everyone_votes(state, "Кира"))
    transfers = [Transfer.from_dict(t) for t in result.outcome["transfers"]]
    anya, borya = hero(sid(state, "Аня")), hero(sid(state, "Боря"))
    assert {t.reason for t in transfers if t.debit == borya} >= {"entry_fee", "stage_fee"}
    assert not [t for t in transfers if t.debit == anya]
    assert result.outcome["balances"]["Аня"] == 0 and result.outcome["balances"]["Боря"] < 0


def test_genius_and_authority_ratings_in_a_close():
    """«Удваивает любые ... изменения Рейтинга» and «За каждый тайный голос Авторитет получает Рейтинг
    в общем порядке»: Аня (Гений) and Боря (Авторитет, his extra vote on the Demon) are rated by the
    close itself."""
    state = at(new(privileges={"Аня": ["genius"], "Боря": ["authority"]}), "day 1")
    votes = {**everyone_votes(state, "Кира"), "Боря": "Зина"}
    result = close(state, votes=votes, extra_votes={"Боря": "Кира"})
    deltas: dict[int, list[int]] = {}
    for change in result.outcome["ratings"]:
        deltas.setdefault(change["seat"], []).append(change["delta"])
    anya, borya, vera = ids(state, "Аня", "Боря", "Вера")
    assert sum(deltas[anya]) == 2 * sum(deltas[vera]) != 0
    assert sum(deltas[borya]) == 2 * sum(deltas[vera])  # his ballot on Зина and his extra one on Кира


# -- insomnia with the privileges (part 1's «Бессонница», A2 kept) ----------------------------------

INSOMNIA = "«Если результатом ночи однозначно станет выигрыш одной из \"плохих\" команд ... объявляется бессонница»"


def three_left(privileges):
    """Аня and Боря (Masons) and Зина (a Reptiloid) free, everybody else a slave: one night's slave
    would make the Reptiloids win."""
    state = enslaved(at(new(privileges=privileges), "day 3"), "Вера", "Гоша", "Даша", "Егор", "Жора", "Илья", "Кира")
    assert roles.night_would_decide(state)
    return state


def test_insomnia_a_mole_reptiloid_alone_takes_no_slave():
    """«Крот ... не знает своей Роли и должен сам её выяснить» (A32: a Mole Reptiloid enslaves nobody):
    with the Mole the last free Reptiloid, the night decides nothing, so it is played. """ + INSOMNIA
    assert night_would_decide(three_left({}))
    assert not night_would_decide(three_left({"Зина": ["mole"]}))
    # a partner who is not a Mole still takes the slave
    state = enslaved(at(new(privileges={"Зина": ["mole"]}), "day 3"), "Вера", "Гоша", "Даша", "Егор", "Жора", "Кира")
    assert night_would_decide(state)  # Аня, Боря against Зина (Mole) and Илья


def test_insomnia_a_mole_alone_but_a_hare_pays_his_taxes():
    """«В случае, если утром после определения результатов ночи никто не попадает в рабство, то
    общественным рабом автоматически становится обладатель этой Привилегии»: with nobody to take a
    slave, the Заяц's tax is that night's slave, and the Reptiloids win by it. """ + INSOMNIA
    assert night_would_decide(three_left({"Зина": ["mole"], "Аня": ["hare"]}))
    # a spent Заяц pays no more; a Заяц in the Mole's own team would only lose his team a hero
    state = three_left({"Зина": ["mole"], "Аня": ["hare"]})
    spent = at(state, "day 3", priv={**state.memory.get("priv", {}), "hare_spent": True})
    assert not night_would_decide(spent)
    assert not night_would_decide(three_left({"Зина": ["mole", "hare"]}))


def test_insomnia_a_bouncer_may_stun_the_last_bad_hero_whose_role_is_public():
    """«Вышибала ... может лишить ночного действия одного героя» and «выбор его свободного напарника
    остаётся в силе»: a lone Reptiloid whose role is public can be stunned for certain, so the night
    is played; a guess (his role unknown) is no more certain than a save (A2). """ + INSOMNIA
    state = three_left({"Вера": ["bouncer"]})  # a slave Вышибала: «в том числе из рабства»
    zina = sid(state, "Зина")
    assert night_would_decide(state)  # nobody knows Зина is the Reptiloid
    revealed = at(state, "day 3", revealed=[zina])
    assert not night_would_decide(revealed)
    used = at(revealed, "day 3", priv={**revealed.memory.get("priv", {}), "stun_used": [zina]})
    assert night_would_decide(used)  # «простучать героев только по одному разу»
    # his team-mate, who knows her, does not stun her
    assert night_would_decide(at(three_left({"Илья": ["bouncer"]}), "day 3", revealed=[zina]))


def test_mole_2_a_mole_reptiloids_burden_share_is_held_until_the_end():
    """«Крот не знает свою Роль и должен выяснить её в ходе Шоу»: a Mole who is a Reptiloid would
    learn it from «Бремя получено (reptiloids)» on his balance every morning; his share of the
    Reptiloids' slaves' burden goes to his escrow instead (nothing of his money moves), and the
    settlement pays it to him at the end (issue 28, item 2)."""
    state = enslaved(at(new(privileges={"Зина": ["mole"]}), "night 1"), "Аня", owners=("reptiloids",))
    a, z, i = sid(state, "Аня"), sid(state, "Зина"), sid(state, "Илья")
    result = close(state, orders=night_orders(state, Жора=("save", "Боря")))
    burdens = [t for t in result.outcome["transfers"] if t["reason"] == "burden" and t["debit"] == hero(a)]
    share = state.options["burden_reptiloids"] // 2
    assert {t["credit"]: t["amount"] for t in burdens} == {escrow(z): share, hero(i): share}
    assert not [t for t in result.outcome["transfers"] if hero(z) in (t["debit"], t["credit"]) and t["reason"] == "burden"]
    assert result.state.memory["coins"]["accounts"][escrow(z)] == share
