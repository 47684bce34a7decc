"""The show's coins, ratings and alliances (issue 19): one rule per test, the seed's sentence in the
docstring (docs/rulesets/show.md, "Part 2: coins")."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.engine.orders import PhaseInputs
from games.rulesets.show.engine import SHOW
from games.rulesets.show.engine.bets import about_me
from games.rulesets.show.engine.coins import Transfer
from games.rulesets.show.engine.economy import entry_transfers, message_fee, stage_fee
from games.rulesets.show.engine.ratings import TABLE, percents, weights
from games.rulesets.show.engine.stages import OPTION_DEFAULTS, options_with_defaults
from tests.engine.show_helpers import NOW, ROSTER, enslaved, everyone_votes, inputs, night_orders, sid

OPTIONS = options_with_defaults({})


def new(**options):
    state, _events = SHOW.new_game([(i, n, r) for i, (n, r) in enumerate(ROSTER, 1)], options=options)
    return state


def run(state, seed=0, extra=None, **kwargs):
    base = inputs(state, **kwargs)
    named = {}
    for key, value in (extra or {}).items():
        named[key] = _ids(state, value)
    return SHOW.resolve(state, replace(base, extra={**base.extra, **named}), seed=seed, now=NOW)


def _ids(state, value):
    if isinstance(value, str):
        return sid(state, value) if state.by_name(value) else value
    if isinstance(value, list):
        return [_ids(state, v) for v in value]
    if isinstance(value, dict):
        return {(sid(state, k) if state.by_name(k) else k): _ids(state, v) for k, v in value.items()}
    return value


def transfers(result, reason=None):
    items = [Transfer.from_dict(t) for t in result.outcome["transfers"]]
    return [t for t in items if reason is None or t.reason == reason]


def names(state):
    return [s.name for s in state.seats]


def greet(state, **extra):
    return run(state, posted={n: ["greeting"] for n in names(state)}, **extra)


def to_night1(**options):
    """Greetings, day 1 (Зина on the bench), her defence, the re-vote enslaves her, the allies stage."""
    state = greet(new(**options)).state
    state = run(state, votes=everyone_votes(state, "Зина")).state
    state = run(state, posted={"Зина": ["defence"]}).state
    voters = [n for n in names(state) if n != "Зина"]
    state = run(state, votes={n: "enslave" for n in voters}).state
    if state.phase == "allies 1":
        state = run(state).state
    assert state.phase == "night 1"
    return state


# -- options and fees --------------------------------------------------------------------------


def test_coin_options_have_documented_defaults_and_bad_values_are_refused():
    """«Базовая Ставка = 25 ㉿»; «один из трёх грантов (10㉿-15㉿-25㉿)»; «базовый взнос (30㉿)»."""
    assert OPTION_DEFAULTS["base_stake"] == 25 and OPTION_DEFAULTS["grants"] == [10, 15, 25]
    assert OPTION_DEFAULTS["pass_fee"] == 30
    for bad in ({"entry_fee": -1}, {"stage_fee_min": 20, "stage_fee_max": 10}, {"grants": []},
                {"base_stake": 0}, {"burden_public": "a lot"}, {"alliances": "yes"}):
        with pytest.raises(ValueError):
            options_with_defaults(bad)


def test_entry_fee_goes_into_the_bank_at_the_first_close():
    """«Перед раздачей Ролей все участники отправляют в Банк со своих Балансов первоначальный сбор.»"""
    state = new(entry_fee=40, stage_fee_min=0, stage_fee_max=0)
    assert sum(t.amount for t in entry_transfers(state)) == 400
    result = greet(state)
    assert [t.amount for t in transfers(result, "entry_fee")] == [40] * 10
    assert result.outcome["bank"] == 400
    assert entry_transfers(result.state) == []
    assert transfers(run(result.state), "entry_fee") == []


def test_stage_fee_grows_the_later_the_hero_acts():
    """«На каждом этапе все свободные герои платят взнос в Банк, при этом чем позже они это делают -
    тем выше этот Взнос. Максимальный взнос платят те, кто тянет со своим действием до конца этапа.»"""
    assert stage_fee(OPTIONS, 0, 3600) == 1
    assert stage_fee(OPTIONS, 1800, 3600) == 5
    assert stage_fee(OPTIONS, 3600, 3600) == 10
    assert stage_fee(OPTIONS, 99999, 3600) == 10
    state = new(entry_fee=0)
    result = run(state, posted={n: ["greeting"] for n in names(state) if n != "Кира"},
                 extra={"acted_at": {"Аня": 0, "Боря": 43200}})
    fees = {t.debit: t.amount for t in transfers(result, "stage_fee")}
    assert fees[f"hero:{sid(state, 'Аня')}"] == 1
    assert fees[f"hero:{sid(state, 'Боря')}"] == 5  # half of the 24-hour greetings
    assert fees[f"hero:{sid(state, 'Кира')}"] == 10  # never greeted: the timer's end
    assert fees[f"hero:{sid(state, 'Вера')}"] == 10  # acted, but no time reported: the timer's end


def test_messages_past_the_free_limit_anonymous_and_observers_pay():
    """«На каждом этапе есть лимит бесплатных сообщений, превышая который участник начинает платить в
    Банк за каждое новое сообщение в общий чат. Приватные персональные сообщения всегда бесплатны.
    За каждое анонимное сообщение берётся небольшая плата в Банк. Наблюдатели во время Шоу могут
    писать в общий чат за плату.»"""
    assert message_fee(OPTIONS, 0) == 0 and message_fee(OPTIONS, 9) == 0
    assert message_fee(OPTIONS, 10) == 2
    assert message_fee(OPTIONS, 0, anonymous=True) == 5 and message_fee(OPTIONS, 10, anonymous=True) == 7
    assert message_fee(OPTIONS, 0, observer=True) == 5
    with pytest.raises(ValueError):
        message_fee(OPTIONS, -1)
    state = new(entry_fee=0, stage_fee_min=0, stage_fee_max=0, coma_fee=0)
    result = greet(state, extra={"message_fees": {"Аня": 4}, "observer_fees": 10})
    assert result.outcome["bank"] == 14 and transfers(result) == []
    assert result.outcome["balances"]["Аня"] == -4


# -- burdens -----------------------------------------------------------------------------------


def quiet(**options):
    return {"entry_fee": 0, "stage_fee_min": 0, "stage_fee_max": 0, "coma_fee": 0, **options}


def test_public_slaves_pay_their_burden_into_the_bank_each_morning():
    """«Все потерявшие на этом этапе свободу герои становятся общественными рабами и каждое утро до
    конца Шоу пополняют Банк.»"""
    state = to_night1(**quiet(burden_public=7))
    result = run(state, orders=night_orders(state))
    assert result.outcome["burdens"] == {"Зина": 7}
    assert [(t.debit, t.credit, t.amount) for t in transfers(result, "burden")] == [
        (f"hero:{sid(state, 'Зина')}", "bank", 7)]
    assert any(line["amount"] == 7 for e in result.events if e.kind == "morning" for line in e.data["burdens"])


def test_reptiloids_slaves_pay_the_reptiloids_at_once():
    """«остальные своим рабовладельцам: Рептилоидам сразу» — split equally between the Reptiloids."""
    state = to_night1(**quiet(burden_reptiloids=9))
    state = enslaved(state, "Гоша", owners=("reptiloids",))
    result = run(state, orders=night_orders(state))
    got = {(t.credit, t.amount) for t in transfers(result, "burden") if t.debit == f"hero:{sid(state, 'Гоша')}"}
    assert got == {(f"hero:{sid(state, 'Зина')}", 5), (f"hero:{sid(state, 'Илья')}", 4)}


def test_demons_slaves_pay_into_escrow_returned_if_his_role_is_revealed():
    """«Если Роль Демона раскрывается до конца Шоу, он возвращает все отобранные монеты назад своим
    рабам.»"""
    state = to_night1(**quiet(burden_demon=11))
    result = run(state, orders=night_orders(state, Кира=("enslave", "Гоша")))
    escrow = f"escrow:{sid(state, 'Кира')}"
    assert [(t.credit, t.amount) for t in transfers(result, "burden") if t.debit == f"hero:{sid(state, 'Гоша')}"] \
        == [(escrow, 11)]
    after = result.state
    assert after.memory["coins"]["accounts"][escrow] == 11
    # The Demon's role is revealed: the next close returns what he took.
    memory = dict(after.memory)
    memory["revealed"] = [*memory["revealed"], sid(after, "Кира")]
    revealed = replace(after, memory=memory)
    back = run(revealed, votes={})
    assert [(t.debit, t.credit, t.amount) for t in transfers(back, "demon_return")] == [
        (escrow, f"hero:{sid(state, 'Гоша')}", 11)]
    assert back.state.memory["coins"]["accounts"][escrow] == 0
    assert any(e.kind == "demon_returned" for e in back.events)


def test_relieved_slave_pays_no_burden():
    """«либо избавляет от Бремени избранного раба до конца Шоу»."""
    state = to_night1(**quiet())
    result = run(state, orders=night_orders(state, Жора=("relieve", "Зина")))
    assert result.outcome["burdens"] == {"Зина": 0}
    assert transfers(result, "burden") == []


# -- bets and the pot --------------------------------------------------------------------------


def test_everyone_bets_the_base_stake_on_a_random_pick_changeable_until_morning():
    """«Каждый герой в начале первой ночи делает Ставку на Победителя ... в первую ночь каждый герой
    автоматически делает Ставку на случайно выбранного героя, но может до утра поменять своего
    ставленника»; «После первой ночи Куш, таким образом, всегда равен десяти Базовым Ставкам».
    «По кнопке "Обо мне" можно всегда посмотреть свою Ставку и имена тех, кто сделал свою Ставку на вас.»"""
    state = to_night1(**quiet())
    assert all(b["stake"] == 0 for b in state.memory["bets"].values()) and len(state.memory["bets"]) == 10
    result = run(state, orders=night_orders(state), extra={"bets": {"Аня": "Боря", "Боря": "Зина"}})
    assert result.outcome["pot"] == 250
    bets = result.state.memory["bets"]
    assert bets[str(sid(state, "Аня"))] == {"pick": sid(state, "Боря"), "stake": 25}
    assert bets[str(sid(state, "Боря"))]["pick"] != sid(state, "Зина")  # a slave is no pick: the default stands
    assert about_me(result.state, sid(state, "Аня"))["bet"] == {"pick": "Боря", "stake": 25}
    assert "Аня" in about_me(result.state, sid(state, "Боря"))["backers"]


def test_the_pot_goes_to_those_who_picked_a_winner_by_stake():
    """«все герои, сделавшие Ставки на реальных Победителей, делят между собой Куш пропорционально
    размеру своих Ставок»."""
    state = to_night1(**quiet())
    result = run(state, orders=night_orders(state), extra={"bets": {n: "Аня" if n == "Аня" else "Боря"
                                                                    for n in names(state)}})
    state = result.state
    # Masons win: enslave the last bad heroes directly and close a day with nobody voting.
    state = enslaved(state, "Илья", "Кира")
    end = run(state)
    assert end.state.over and end.state.winner == "masons"
    pot = {t.credit: t.amount for t in transfers(end, "pot_share")}
    assert sum(pot.values()) == 250 and len(pot) == 10


# -- ratings -----------------------------------------------------------------------------------


def test_rating_rows_of_the_seed():
    """«+1 если герой с Ролью Масона или Спасителя голосует днём или ночью против Рептилоида или
    Демона»; «-1 если Масон голосует днём против Спасителя»; «+2 ... Судьёй в Роли Масона или
    Спасителя отправляет подсудимого с Ролью Рептилоида или Демона в рабство днём»; «-2 ... Судьёй в
    Роли Масона отправляет в рабство Спасителя»."""
    assert TABLE["good_votes_bad"].delta == 1 and TABLE["mason_votes_saviour"].delta == -1
    assert TABLE["good_judge_enslaves_bad"].delta == 2 and TABLE["mason_judge_enslaves_saviour"].delta == -2
    state = greet(new(**quiet(alliances=False))).state
    result = run(state, votes={"Аня": "Зина", "Боря": "Жора", "Вера": "Зина"})
    rating = result.outcome["rating"]
    assert rating["Аня"] == 1 and rating["Вера"] == 1 and rating["Боря"] == -1 and rating["Гоша"] == 0
    assert all(e.audience == "gm" for e in result.events if e.kind == "ratings_gm")
    history = result.state.memory["rating_history"]
    assert {"stage": "day 1", "seat": sid(state, "Боря"), "delta": -1, "reason": "mason_votes_saviour",
            "detail": "Жора"} in history


def test_sparing_a_single_defendant_earns_nothing():
    """«На повторных голосованиях с одним подсудимым за пощаду Рейтинг никому не начисляется»."""
    state = greet(new(**quiet(alliances=False))).state
    state = run(state, votes=everyone_votes(state, "Зина")).state
    state = run(state, posted={"Зина": ["defence"]}).state
    ratings_before = dict(state.memory["ratings"])
    result = run(state, votes={"Аня": "spare", "Боря": "enslave"})
    assert result.outcome["rating"]["Аня"] == int(ratings_before.get(str(sid(state, "Аня")), 0))
    assert result.outcome["rating"]["Боря"] == int(ratings_before.get(str(sid(state, "Боря")), 0)) + 1


def test_percents_sum_to_100_even_with_negative_or_zero_ratings():
    """«все набранные Рейтинги нормируются в проценты (суммарно у всех героев 100%)»."""
    assert sum(percents({1: 3, 2: -2, 3: 0}).values()) == pytest.approx(100)
    assert percents({1: 3, 2: -2, 3: 0})[2] == 0
    assert percents({1: 0, 2: -1}) == {1: 50.0, 2: 50.0}
    assert weights({1: -1, 2: -5}) == {1: 1, 2: 1}


def test_coma_choices_read_the_real_ratings():
    """«он автоматически выбирает участника с самым маленьким (если это Масон или Демон) ... Рейтингом»."""
    state = to_night1(**quiet())
    memory = dict(state.memory)
    memory["ratings"] = {str(s.id): 5 for s in state.seats}
    memory["ratings"][str(sid(state, "Егор"))] = -3
    memory["coma"] = {str(sid(state, "Кира")): 1}
    state = replace(state, memory=memory)
    orders = [o for o in night_orders(state) if o[0] != "Кира"]
    result = run(state, orders=orders)
    assert "Егор" in result.outcome["enslaved"]


# -- trials and talents ------------------------------------------------------------------------


def trial_state(**options):
    """Night 1 closed with two public slaves (Зина, and Гоша set up), the trial of day 2 open."""
    state = to_night1(**quiet(**options))
    state = enslaved(state, "Гоша")
    result = run(state, orders=night_orders(state))
    return result.state


def test_trial_grants_make_talents_and_sponsors_share_the_pool():
    """«Те рабы, которые набирают сумму грантов выше средней, становятся на ближайшие сутки ТАЛАНТАМИ»;
    «Все спонсоры Талантов ... делят между собой весь суточный сбор грантов пропорционально своему
    вкладу в рабов-победителей»; «Если участник пропускает Ответ и не отсылает никакого гранта, то
    автоматически платит базовый взнос (30㉿) и НЕ участвует в последующем дележе»."""
    state = trial_state()
    assert sorted(state.memory["trial"]["slaves"]) == sorted([sid(state, "Зина"), sid(state, "Гоша")])
    grants = {n: {"Зина": 25, "Гоша": 10} for n in names(state) if n not in ("Зина", "Гоша", "Кира")}
    grants["Зина"] = {"Гоша": 10}
    grants["Гоша"] = {"Зина": 15}
    state = run(state, votes={}, extra={"trial_answers": ["Зина", "Гоша"], "grants": grants}).state
    while not state.phase.startswith("night"):
        state = run(state).state
    result = run(state, orders=night_orders(state))
    assert result.outcome["grants"] == {"Зина": 7 * 25 + 15, "Гоша": 7 * 10 + 10}
    assert result.outcome["talents"] == ["Зина"]
    assert [t.debit for t in transfers(result, "trial_pass")] == [f"hero:{sid(state, 'Кира')}"] * 2
    shares = {t.credit: t.amount for t in transfers(result, "grant_share")}
    pool = 190 + 80
    assert sum(shares.values()) == pool and f"hero:{sid(state, 'Кира')}" not in shares
    assert f"hero:{sid(state, 'Гоша')}" in shares  # he granted the Talent
    # Talents: no burden this morning («обнуляют своё ближайшее рабское Бремя»), they vote on day 3
    assert result.outcome["burdens"]["Зина"] == 0 and result.outcome["burdens"]["Гоша"] == 20
    assert sid(state, "Зина") in SHOW.voters(result.state)


def test_no_trial_with_a_single_slave():
    """«После каждой ночи, если рабов на этот момент больше одного, подводятся итоги»."""
    state = to_night1(**quiet())
    state = run(state, orders=night_orders(state)).state
    assert state.memory["trial"]["slaves"] == [sid(state, "Зина")]
    state = run(state, extra={"trial_answers": ["Зина"], "grants": {"Аня": {"Зина": 25}}}).state
    while not state.phase.startswith("night"):
        state = run(state).state
    result = run(state, orders=night_orders(state))
    assert result.outcome["talents"] == [] and transfers(result, "grant") == []


def test_a_talent_raises_every_slaves_stake_in_the_defence():
    """«Каждый Талантливый раб имеет возможность на этапе Защитных Речей поменять своего ставленника
    и одновременно с этим увеличить Ставки всех рабов включая свою на размер Базовой Ставки.»"""
    state = trial_state()
    grants = {n: {"Зина": 25, "Гоша": 10} for n in names(state) if n not in ("Зина", "Гоша")}
    grants["Зина"], grants["Гоша"] = {"Гоша": 10}, {"Зина": 25}
    state = run(state, extra={"trial_answers": ["Зина", "Гоша"], "grants": grants}).state
    while not state.phase.startswith("night"):
        state = run(state).state
    state = run(state, orders=night_orders(state)).state
    assert state.phase == "day 3"
    state = run(state, votes=everyone_votes(state, "Аня", **{"Зина": "Аня"})).state
    assert state.phase == "defence 3"
    pot = state.memory["coins"]["accounts"]["pot"]
    result = run(state, posted={"Аня": ["defence"]}, extra={"raise": ["Зина"], "bets": {"Зина": "Вера"}})
    assert result.outcome["raised"] == ["Зина"]
    assert result.outcome["pot"] == pot + 25 * 2
    assert result.state.memory["bets"][str(sid(state, "Зина"))] == {"pick": sid(state, "Вера"), "stake": 50}
    refused = run(state, posted={"Аня": ["defence"]}, extra={"raise": ["Гоша"]})
    assert refused.outcome["raised"] == [] and refused.outcome["pot"] == pot


# -- alliances ---------------------------------------------------------------------------------


def allies_stage(sympathies1, sympathies2=None):
    state = greet(new(**quiet())).state
    state = run(state, votes=everyone_votes(state, "Зина"), extra={"sympathies": sympathies1}).state
    state = run(state, posted={"Зина": ["defence"]}).state
    voters = [n for n in names(state) if n != "Зина"]
    state = run(state, votes={n: "enslave" for n in voters}, extra={"sympathies": sympathies2 or {}}).state
    assert state.phase == "allies 1"
    return state


def test_mutual_picks_form_alliances_and_only_the_count_is_public():
    """«Союзы создаются из тех, кто выразил взаимную Симпатию, в том числе отложенную»; «Все участники
    проинформированы, сколько создано Альянсов, но не знают кто с кем Союзники кроме них самих.»"""
    state = allies_stage({"Аня": "Боря", "Вера": "Гоша"}, {"Гоша": "Даша"})
    assert SHOW.ally_menu(state, sid(state, "Боря")) == (sid(state, "Аня"),)
    assert set(SHOW.ally_menu(state, sid(state, "Гоша"))) == {sid(state, "Вера"), sid(state, "Даша")}
    assert SHOW.check_ally_pick(state, sid(state, "Егор"), sid(state, "Аня")) == "bad_target"
    result = run(state, extra={"ally_picks": {"Аня": "Боря", "Боря": "Аня", "Вера": "Гоша", "Гоша": "Даша"}})
    assert result.outcome["alliances"] == [["Аня", "Боря"]]
    assert result.state.phase == "night 1"
    public = [e for e in result.events if e.kind == "alliances"]
    assert public[0].data == {"count": 1} and public[0].audience == "public"
    assert {e.audience for e in result.events if e.kind == "ally"} == {f"seat:{sid(state, 'Аня')}",
                                                                      f"seat:{sid(state, 'Боря')}"}


def test_an_ally_gets_the_partners_secret_knowledge_and_positive_gains():
    """«Если герой, будучи в Альянсе, получает Тайное Знание, то такое же сразу приходит и его
    Союзнику»; «Если герой получает положительный прирост Рейтинга за какое-то своё действие, то и
    его Союзник получает себе такой же плюс к Рейтингу.»"""
    state = allies_stage({"Аня": "Боря", "Боря": "Аня"})
    state = run(state, extra={"ally_picks": {"Аня": "Боря", "Боря": "Аня"}}).state
    result = run(state, orders=night_orders(state, Аня=("suspect", "Кира"), Боря=("suspect", "Жора")))
    assert result.outcome["rating"]["Боря"] == result.outcome["rating"]["Аня"] >= 1
    state = result.state
    memory = dict(state.memory)
    memory["knowledge_rights"] = {str(sid(state, "Аня")): 1}
    state = replace(state, memory=memory)
    after, _events = SHOW.use_knowledge(state, sid(state, "Аня"), sid(state, "Кира"), seed=3)
    mine = after.memory["secret_keys"][str(sid(state, "Аня"))]
    theirs = after.memory["secret_keys"][str(sid(state, "Боря"))]
    assert theirs[-1]["key"] == mine[-1]["key"] and theirs[-1]["source"] == "ally"
    assert after.memory["knowledge_count"] == state.memory.get("knowledge_count", 0) + 1


def test_the_allies_stage_waits_only_for_heroes_with_a_name_to_pick():
    """«все получают отправленные им ранее сообщения-Симпатии и дальше должны выбрать имя в меню»."""
    state = allies_stage({"Аня": "Боря"})
    assert set(SHOW.waiting_for(state, PhaseInputs())) == {sid(state, "Аня"), sid(state, "Боря")}
    assert SHOW.ends_early(state, PhaseInputs(extra={"ally_picks": {sid(state, "Аня"): sid(state, "Боря"),
                                                                    sid(state, "Боря"): sid(state, "Аня")}}))


def test_no_transfer_of_a_trial_names_an_anonymous_answers_author():
    """«Как только раб отправляет свой Ответ, все остальные герои ... получают его без указания имени
    автора, анонимно»: the trial's transfers (a skipped answer's fee, the grants, the shares) are
    lines of the heroes' «Баланс» pages kept forever, so none names an answer's author (the
    fee of a skipped answer used to carry it as its detail)."""
    state = trial_state()
    authors = ["Зина", "Гоша"]
    grants = {n: {"Зина": 25} for n in names(state) if n not in (*authors, "Кира")}  # Гоша's skipped
    state = run(state, votes={}, extra={"trial_answers": authors, "grants": grants}).state
    while not state.phase.startswith("night"):
        state = run(state).state
    result = run(state, orders=night_orders(state))
    assert result.outcome["grants"]["Зина"] > 0  # the trial was settled in this close
    passes = transfers(result, "trial_pass")
    # Кира skipped both answers, every granter Гоша's, each author the other's
    assert len(passes) == 2 + len(grants) + 2
    trial = [t for t in transfers(result) if t.reason in ("trial_pass", "grant", "grant_share")]
    assert trial and all(t.detail == "" for t in trial), [t for t in trial if t.detail]
    assert not [t for t in transfers(result) if t.reason == "trial_pass" and any(a in t.detail for a in authors)]
