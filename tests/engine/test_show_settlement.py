"""The show's final settlement (issue 19, docs/rulesets/show.md "Settlement"): each rule on a show set
up at its last close, with the numbers worked out by hand in the test (remainders included), and the
exact arithmetic of the splits and the stage fee.

The set-up (`finale`) is the ten-hero roster at day 1 with the show's accounts, bets, ratings and
alliances written into memory; the day closes with no ballot, so the win check ends the show on the
statuses the test chose and `settlement.settle` runs on what the test wrote."""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest

from games.rulesets.show.engine import SHOW
from games.rulesets.show.engine.coins import Transfer, split
from games.rulesets.show.engine.economy import stage_fee
from games.rulesets.show.engine.ratings import percents
from games.rulesets.show.engine.stages import options_with_defaults
from tests.engine.show_helpers import NOW, ROSTER, enslaved, inputs, sid

QUIET = {"entry_fee": 0, "stage_fee_min": 0, "stage_fee_max": 0, "coma_fee": 0, "alliances": False}
NAMES = [name for name, _role in ROSTER]  # seats 1..10; Жора the Saviour, Зина and Илья Reptiloids, Кира the Demon


def finale(*, free, bank=0, pot=0, bets=None, ratings=None, allies=(), net=None, escrow_from=None, revealed=(),
           privileges=None):
    """The show at day 1 with only `free` heroes free (the others public slaves), the given accounts
    and memory; returns the close that ends it. `bets` {name: (pick, stake)}, `ratings` {name: n},
    `allies` [(a, b)], `net` {name: coins this show so far}, `escrow_from` {slave: coins paid to the
    Demon} (his escrow holds their sum)."""
    state, _events = SHOW.new_game([(i, n, r) for i, (n, r) in enumerate(ROSTER, 1)], options=QUIET)
    state = SHOW.resolve(state, inputs(state, posted={n: ["greeting"] for n in NAMES}), seed=0, now=NOW).state
    assert state.phase == "day 1"
    state = enslaved(state, *[n for n in NAMES if n not in free])
    memory = copy.deepcopy(dict(state.memory))
    escrow_from = escrow_from or {}
    coins = memory["coins"]
    coins["accounts"] = {"bank": bank, "pot": pot}
    if escrow_from:
        coins["accounts"][f"escrow:{sid(state, 'Кира')}"] = sum(escrow_from.values())
    coins["escrow_from"] = {str(sid(state, n)): v for n, v in escrow_from.items()}
    coins["net"] = {str(sid(state, n)): v for n, v in (net or {}).items()}
    if bets is not None:
        memory["bets"] = {str(sid(state, n)): {"pick": sid(state, pick), "stake": stake}
                          for n, (pick, stake) in bets.items()}
        memory["bets_charged"] = True
    memory["ratings"] = {str(sid(state, n)): v for n, v in (ratings or {}).items()}
    memory["allies"] = {}
    for a, b in allies:
        memory["allies"][str(sid(state, a))], memory["allies"][str(sid(state, b))] = sid(state, b), sid(state, a)
    memory["revealed"] = [*memory["revealed"], *[sid(state, n) for n in revealed]]
    if privileges:
        memory["privileges"] = {str(sid(state, n)): list(keys) for n, keys in privileges.items()}
    state = replace(state, memory=memory)
    result = SHOW.resolve(state, inputs(state), seed=0, now=NOW)
    assert result.state.over
    # «Монеты никуда не исчезают»: the show's own accounts end empty.
    assert not any(result.state.memory["coins"]["accounts"].values())
    return result


def paid(result, reason):
    """{name: coins} credited to heroes for `reason` at the close."""
    out: dict[str, int] = {}
    for item in result.outcome["transfers"]:
        t = Transfer.from_dict(item)
        if t.reason == reason and t.credit.startswith("hero:"):
            name = NAMES[int(t.credit.split(":")[1]) - 1]
            out[name] = out.get(name, 0) + t.amount
    return out


MASONS_FREE = ["Аня", "Боря", "Жора"]  # the Masons win: no Reptiloid and no Demon free


# -- the bank ------------------------------------------------------------------------------------


def test_the_winning_team_splits_the_bank_by_rating_enslaved_members_too():
    """«Когда Шоу заканчивается, победившая команда делит между собой Банк пропорционально
    заработанным Рейтингам.» A19: every member of the team, free or not (Вера is a slave). Bank 100 by
    Аня 3, Боря 3, Вера 1 (Даша's −2 and the zeros weigh nothing): 300/7 = 42 6/7, 42 6/7, 100/7 =
    14 2/7 → 42 + 42 + 14 = 98, the two coins left to the largest remainders (6/7): Аня 43, Боря 43,
    Вера 14. Зина's 10 is a loser's rating: nothing."""
    result = finale(free=MASONS_FREE, bank=100, ratings={"Аня": 3, "Боря": 3, "Вера": 1, "Даша": -2, "Зина": 10})
    assert result.state.winner == "masons"
    assert paid(result, "bank_share") == {"Аня": 43, "Боря": 43, "Вера": 14}
    assert result.outcome["settlement"]["bank_shares"] == {"Аня": 43, "Боря": 43, "Вера": 14}


def test_a_team_without_a_positive_rating_splits_the_bank_equally():
    """«пропорционально заработанным Рейтингам»; A18: when nobody of the team has a positive rating,
    everyone weighs the same. Bank 100 among the seven Masons: 14 each (98), the two coins left by
    seat: Аня 15, Боря 15. Кира's 5 (a loser) changes nothing."""
    result = finale(free=MASONS_FREE, bank=100, ratings={"Аня": -1, "Даша": -3, "Кира": 5})
    assert paid(result, "bank_share") == {"Аня": 15, "Боря": 15, "Вера": 14, "Гоша": 14, "Даша": 14, "Егор": 14,
                                          "Жора": 14}


def test_the_demon_winning_takes_the_whole_bank_whatever_the_ratings():
    """«Побеждая, он забирает себе весь Банк!» Кира and Аня free: 1 against 1, the Demon wins; his
    rating −3 against Аня's 5 does not matter: all 137 coins are his."""
    result = finale(free=["Аня", "Кира"], bank=137, ratings={"Аня": 5, "Кира": -3})
    assert result.state.winner == "demon"
    assert paid(result, "bank_share") == {"Кира": 137}


def test_the_reptiloids_winning_split_the_bank_by_rating():
    """«победившая команда делит между собой Банк пропорционально заработанным Рейтингам»: Зина free
    (rating 1) and Илья enslaved (rating 2) against Аня: 100 by 1:2 → 33 1/3, 66 2/3 → 33 + 66 = 99,
    the coin left to the larger remainder (2/3): Зина 33, Илья 67."""
    result = finale(free=["Аня", "Зина"], bank=100, ratings={"Зина": 1, "Илья": 2, "Аня": 9})
    assert result.state.winner == "reptiloids"
    assert paid(result, "bank_share") == {"Зина": 33, "Илья": 67}


def test_with_no_winning_team_the_bank_goes_to_all_by_rating_ties_by_seat_number():
    """«все набранные Рейтинги нормируются в проценты (суммарно у всех героев 100%) и затем
    пропорционально Рейтингам вычисляются доли, которые герои забирают себе из общего Банка» (C5: the
    draw `none` splits among all). Зина and Кира free: the draw. Bank 50 by Аня 2, Зина 1, Кира 1
    (Даша −4 weighs 0): 25, 12.5, 12.5 → 25 + 12 + 12 = 49; the coin left goes to the first of the
    equal remainders by seat: Зина (seat 8) before Кира (seat 10)."""
    result = finale(free=["Зина", "Кира"], bank=50, ratings={"Аня": 2, "Зина": 1, "Кира": 1, "Даша": -4})
    assert result.state.winner == "none"
    assert paid(result, "bank_share") == {"Аня": 25, "Зина": 13, "Кира": 12}


# -- the pot -------------------------------------------------------------------------------------


def test_the_pot_goes_to_those_who_picked_a_free_winner_by_stake():
    """«При подведении итогов Шоу все герои, сделавшие Ставки на реальных Победителей, делят между
    собой Куш пропорционально размеру своих Ставок.» A19: a Winner is free at the end («останется на
    свободе до конца Шоу»): Даша's bet on Вера (a Mason, but a slave) is wrong. Pot 225; the right
    stakes: Вера 50 (on Аня), Гоша 25 (on Боря), Зина 75 (on Жора) = 150 → 225 × 50/150 = 75,
    225 × 25/150 = 37.5, 225 × 75/150 = 112.5 → 75 + 37 + 112 = 224, the coin left to the first of the
    equal remainders (½) by seat: Гоша 38, Зина 112."""
    bets = {"Вера": ("Аня", 50), "Гоша": ("Боря", 25), "Зина": ("Жора", 75), "Даша": ("Вера", 25),
            "Кира": ("Зина", 25), "Аня": ("Кира", 25)}
    result = finale(free=MASONS_FREE, pot=225, bets=bets)
    assert paid(result, "pot_share") == {"Вера": 75, "Гоша": 38, "Зина": 112}


def test_the_pot_by_stake_rounds_by_the_largest_remainder():
    """«делят между собой Куш пропорционально размеру своих Ставок»: pot 200, right stakes 50, 25, 75
    (150): 66 2/3, 33 1/3, 100 → 66 + 33 + 100 = 199, the coin to the largest remainder (2/3): Вера 67."""
    bets = {"Вера": ("Аня", 50), "Гоша": ("Боря", 25), "Зина": ("Жора", 75), "Кира": ("Зина", 50)}
    result = finale(free=MASONS_FREE, pot=200, bets=bets)
    assert paid(result, "pot_share") == {"Вера": 67, "Гоша": 33, "Зина": 100}


def test_nobody_picked_a_winner_the_pot_is_split_equally_among_the_winners():
    """«Если оказывается, что никто из героев не поставил ни на одного из Победителей, то весь Куш
    делится поровну между ними» (A20: among the Winners, the free heroes of the winning team; the
    enslaved Masons get nothing). Pot 100 among Аня, Боря, Жора: 33 each (99), the coin by seat: Аня 34."""
    bets = {n: ("Зина", 25) for n in ("Аня", "Боря", "Жора", "Кира")}
    result = finale(free=MASONS_FREE, pot=100, bets=bets)
    assert paid(result, "pot_even") == {"Аня": 34, "Боря": 33, "Жора": 33}
    assert paid(result, "pot_share") == {}


def test_with_no_winners_the_stakes_are_returned():
    """«Если Победителей нет, то Ставки возвращаются назад.» The draw (Зина and Кира free): each gets
    exactly his stake back, raised ones included (Вера 50, Гоша 50, Аня 25; pot 125)."""
    bets = {"Аня": ("Зина", 25), "Вера": ("Кира", 50), "Гоша": ("Жора", 50)}
    result = finale(free=["Зина", "Кира"], pot=125, bets=bets)
    assert paid(result, "stake_returned") == {"Аня": 25, "Вера": 50, "Гоша": 50}


def test_a_winning_team_with_nobody_free_returns_the_stakes():
    """«Победитель ... тот, кто из героев ... останется на свободе до конца Шоу и чья команда
    победит»; «Если Победителей нет, то Ставки возвращаются назад» (A21). Every hero a slave: no
    Reptiloid and no Demon free, the Masons win, but nobody is a Winner for the pot: the stakes (25 and
    50) come back; the bank (70) still goes to the team by rating (Вера 1 of 1)."""
    bets = {"Аня": ("Боря", 25), "Боря": ("Аня", 50)}
    result = finale(free=[], pot=75, bank=70, bets=bets, ratings={"Вера": 1})
    assert result.state.winner == "masons"
    assert paid(result, "stake_returned") == {"Аня": 25, "Боря": 50}
    assert paid(result, "bank_share") == {"Вера": 70}


# -- the Demon's escrow --------------------------------------------------------------------------


def test_the_demons_escrow_is_his_at_the_end_if_never_revealed_even_when_he_loses():
    """«остальные своим рабовладельцам: Рептилоидам сразу или Демону, если его Роль не будет вскрыта
    до конца Шоу»: the Masons win, Кира is a slave but his role was never revealed: the 40 coins his
    slaves paid (Вера 25, Гоша 15) are his."""
    result = finale(free=MASONS_FREE, escrow_from={"Вера": 25, "Гоша": 15})
    assert paid(result, "demon_burdens") == {"Кира": 40}
    assert paid(result, "demon_return") == {}


def test_the_demons_escrow_goes_back_to_his_slaves_if_his_role_was_revealed():
    """«Если Роль Демона раскрывается до конца Шоу, он возвращает все отобранные монеты назад своим
    рабам»: each slave gets back exactly what he paid (Вера 25, Гоша 15); the Demon keeps nothing."""
    result = finale(free=MASONS_FREE, escrow_from={"Вера": 25, "Гоша": 15}, revealed=["Кира"])
    assert paid(result, "demon_return") == {"Вера": 25, "Гоша": 15}
    assert paid(result, "demon_burdens") == {}


# -- the alliances -------------------------------------------------------------------------------


def test_allies_split_their_gains_by_rating():
    """«В конце Шоу после распределения Банка и Куша все Союзники делят между собой заработанные
    монеты ... пропорционально заработанным Рейтингам.» Аня (rating 2) earned 10, Боря (1) 90: 100 by
    2:1 → 66 2/3, 33 1/3 → 67 (the coin to the larger remainder) and 33: Боря pays Аня 57."""
    result = finale(free=MASONS_FREE, allies=[("Аня", "Боря")], ratings={"Аня": 2, "Боря": 1},
                    net={"Аня": 10, "Боря": 90})
    assert [(t["debit"], t["credit"], t["amount"]) for t in result.outcome["transfers"]
            if t["reason"] == "ally_split"] == [("hero:2", "hero:1", 57)]
    assert result.outcome["balances"]["Аня"] == 67 and result.outcome["balances"]["Боря"] == 33


def test_allies_split_their_losses_by_rating_too():
    """«все Союзники делят между собой заработанные монеты (в том числе и убытки) пропорционально
    заработанным Рейтингам» (A35: a loss too, literally). Аня (rating 3) lost 10, Зина (1) lost 90:
    −100 by 3:1 → Аня −75, Зина −25: Аня pays Зина 65."""
    result = finale(free=MASONS_FREE, allies=[("Аня", "Зина")], ratings={"Аня": 3, "Зина": 1},
                    net={"Аня": -10, "Зина": -90})
    assert paid(result, "ally_split") == {"Зина": 65}
    assert result.outcome["balances"]["Аня"] == -75 and result.outcome["balances"]["Зина"] == -25


def test_allies_without_a_positive_rating_split_equally_the_odd_coin_by_seat():
    """«пропорционально заработанным Рейтингам»; A18: no positive rating, equal weights. Аня (0) and
    Боря (−2) lost 7 in all (Боря's): 3.5 each → the odd coin of the loss falls on the first seat:
    Аня −4, Боря −3 (Аня pays Боря 4)."""
    result = finale(free=MASONS_FREE, allies=[("Аня", "Боря")], ratings={"Аня": 0, "Боря": -2},
                    net={"Аня": 0, "Боря": -7})
    assert paid(result, "ally_split") == {"Боря": 4}
    assert result.outcome["balances"]["Аня"] == -4 and result.outcome["balances"]["Боря"] == -3


def test_the_allies_split_comes_after_the_bank_and_the_pot():
    """«В конце Шоу после распределения Банка и Куша все Союзники делят между собой заработанные
    монеты»; «успешный Союзник вполне может вытащить своего партнёра из глубокого минуса». Bank 90 by
    Аня 2, Боря 1 → 60, 30. Аня (−20 + 60 = 40) is allied with the Reptiloid Зина (−50, rating 1): −10 by
    2:1 → 6 2/3, 3 1/3 → Аня −7, Зина −3: Аня pays Зина 47, after the bank's shares."""
    result = finale(free=MASONS_FREE, bank=90, allies=[("Аня", "Зина")], ratings={"Аня": 2, "Боря": 1, "Зина": 1},
                    net={"Аня": -20, "Зина": -50})
    reasons = [t["reason"] for t in result.outcome["transfers"]]
    assert reasons == ["bank_share", "bank_share", "ally_split"]
    assert paid(result, "bank_share") == {"Аня": 60, "Боря": 30}
    assert paid(result, "ally_split") == {"Зина": 47}
    assert result.outcome["balances"]["Аня"] == -7 and result.outcome["balances"]["Зина"] == -3
    assert result.outcome["settlement"]["alliances"] == [{"pair": ["Аня", "Зина"], "moved": 47}]


# -- percentages and the arithmetic ------------------------------------------------------------


def test_percents_round_by_the_largest_remainder_and_sum_to_100():
    """«все набранные Рейтинги нормируются в проценты (суммарно у всех героев 100%)»: 10,000
    hundredths split exactly. Three equal ratings: 3333 1/3 each → 33.34, 33.33, 33.33. Ratings 2, −5,
    0, 1: a negative or zero rating is 0%; 6666 2/3 and 3333 1/3 → 66.67, 33.33. Nobody positive (0, −1,
    −7): everyone the same, 33.34, 33.33, 33.33."""
    assert percents({1: 4, 2: 4, 3: 4}) == {1: 33.34, 2: 33.33, 3: 33.33}
    assert percents({1: 2, 2: -5, 3: 0, 4: 1}) == {1: 66.67, 2: 0.0, 3: 0.0, 4: 33.33}
    assert percents({1: 0, 2: -1, 3: -7}) == {1: 33.34, 2: 33.33, 3: 33.33}
    result = finale(free=MASONS_FREE, ratings={"Аня": 1, "Боря": 1, "Вера": 1, "Даша": -2})
    shown = result.outcome["settlement"]["percents"]
    assert shown["Аня"] == 33.34 and shown["Боря"] == 33.33 and shown["Вера"] == 33.33 and shown["Даша"] == 0.0
    assert round(sum(shown.values()), 2) == 100.0
    public = [e for e in result.events if e.kind == "show_results"]
    assert public and public[0].audience == "public" and public[0].data["percents"] == shown


def test_split_is_exact_equal_remainders_tie_by_seat_number():
    """«Монеты никуда не исчезают из системы, а только перераспределяются»: every split hands out
    exactly its amount. 2 coins by 4:1:1 are 4/3, 1/3, 1/3: the three remainders are the same third,
    so the coin left goes by seat (1), not to whichever float came out a hair larger; and seat 2 comes
    before seat 10."""
    assert split(2, {1: 4, 2: 1, 3: 1}) == {1: 2}
    assert split(1, {10: 1, 2: 1}) == {2: 1}
    assert split(7, {1: 1, 2: 1}) == {1: 4, 2: 3}
    assert split(5, {1: 0, 2: -1}) == {} and split(0, {1: 1}) == {}
    for amount in (1, 7, 100, 9_999):
        shares = split(amount, {1: 3, 2: 0.5, 3: 2.25, 4: -1})
        assert sum(shares.values()) == amount and 4 not in shares


@pytest.mark.parametrize(("elapsed", "length", "fee"), [
    (1740, 3000, 58), (1740.0, 3000.0, 58), (6960, 24000, 29), (0, 3000, 0), (3000, 3000, 100), (-5, 3000, 0),
    (9000, 3000, 100), (float("inf"), 3000, 100), (1, 0, 100),
])
def test_stage_fee_is_exact(elapsed, length, fee):
    """«чем позже они это делают - тем выше этот Взнос. Максимальный взнос платят те, кто тянет со
    своим действием до конца этапа»: min + floor((max − min) × elapsed / length), exactly: 100 × 1740 /
    3000 is 58 (floats gave 57), 100 × 6960 / 24000 is 29 (floats gave 28)."""
    options = options_with_defaults({"stage_fee_min": 0, "stage_fee_max": 100})
    assert stage_fee(options, elapsed, length) == fee


def test_a_losing_bingos_doubled_result_counts_his_pot_share():
    """Бинго: «Если же нет, то удваивается его общий результат (до Судного Дня), в том числе и
    отрицательный»; the results before the Судный День are the bank's split, the pot's and the
    alliances' («Далее объявляются подробные результаты ..., делится Банк, распределяется Куш
    Победителей, подводятся итоги сотрудничества Альянсов, а затем наступает заключительный этап:
    Судный День»). So the pot is split before the bank: Вера (Бинго, a slave: no bank share) lost
    100 so far and wins the whole pot of 30 (the only right pick) → her result −70 is paid once more
    into the bank (300 + 70 = 370), which the three free Masons split by rating 1:1:1 → 124/123/123."""
    bets = {"Вера": ("Аня", 25), "Гоша": ("Зина", 25)}
    result = finale(free=MASONS_FREE, bank=300, pot=30, bets=bets, ratings={"Аня": 1, "Боря": 1, "Жора": 1},
                    net={"Вера": -100}, privileges={"Вера": ["bingo"]})
    assert paid(result, "pot_share") == {"Вера": 30}
    lost = [Transfer.from_dict(t) for t in result.outcome["transfers"] if t["reason"] == "bingo"]
    assert [(t.debit, t.amount) for t in lost] == [(f"hero:{NAMES.index('Вера') + 1}", 70)]
    assert sorted(paid(result, "bank_share").values()) == [123, 123, 124]
