"""Part 2 of the cards rule set, helper D: the Veche's overt roles (Политик, Социопат), the talking
dead (Мститель's team), the Joker's knowledge of the dead and the Hero's passive rules. One rule a
test; each docstring quotes the seed (001_666f92ca90d279a9.txt) it enforces."""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest

from games.engine.events import visible_to
from games.rulesets.cards.engine.hero import hero_record
from games.rulesets.cards.engine.veche_roles import POLITICIAN_LED
from tests.engine.test_cards_rules import CARDS, close, events, hand, player, play_of, sid, table

# A hand a player dies from quickly, and one that lasts.
THIN = ["Совет"]


def day(state):
    """Close the night with nothing played: the next day."""
    return close(state).state


# -- Политик ----------------------------------------------------------------------------------------


def test_politician_votes_for_one_and_a_half_beside_the_authority():
    """«Политик +0,5 к силе голоса (голос считается за 1,5)» and «Авторитет +1 к силе голоса (голос
    считается за 2)»: 1.5 + 1 beats 2 for the other."""
    state = day(table(player("Вася", "sheriff", overt="Политик"), player("Петя", "boss", overt="Авторитет"),
                      player("Маша", "doctor"), player("Глаша", "judge"), player("Паша", "killer")))
    result = close(state, votes={"Вася": "Паша", "Маша": "Паша", "Петя": "Глаша"},
                   measures={"Вася": "prison", "Маша": "prison"})
    assert result.outcome["tally"] == {"Паша": 2.5, "Глаша": 2}
    assert result.outcome["imprisoned"] == ["Паша"]


def test_politicians_first_lead_is_prison_instead_of_execution_then_the_next_is_execution():
    """«Если он становится лидером голосования в первый раз, попадает в тюрьму вместо казни.» The
    Authority's 2 and a plain vote lead him with execution voted: prison, told publicly; the
    second time he leads, the execution stands."""
    state = day(table(player("Вася", "sheriff", overt="Политик"), player("Петя", "boss", overt="Авторитет"),
                      player("Маша", "doctor"), player("Глаша", "judge"), player("Паша", "killer")))
    first = close(state, votes={"Петя": "Вася", "Маша": "Вася", "Вася": "Петя"},
                  measures={"Петя": "execution", "Маша": "execution"})
    assert first.outcome["measure"] == "prison" and first.outcome["imprisoned"] == ["Вася"]
    assert first.outcome["executed"] == [] and "Вася" not in first.outcome["damage"]
    (spared,) = events(first, "politician_spared")
    assert spared.audience == "public" and spared.data["name"] == "Вася"
    assert first.state.memory[POLITICIAN_LED] == [sid(state, "Вася")]
    second = close(day(first.state), votes={"Петя": "Вася", "Маша": "Вася"},
                   measures={"Петя": "execution", "Маша": "execution"})
    assert second.outcome["executed"] == ["Вася"] and second.outcome["damage"] == {"Вася": 6}
    assert not events(second, "politician_spared")


def test_politicians_first_lead_is_spent_even_when_prison_was_voted():
    """«в первый раз»: the first lead is the first time, whatever the measure; prison voted is
    prison with no word of a change, and his next lead is executed."""
    state = day(table(player("Вася", "sheriff", overt="Политик"), player("Петя", "boss"), player("Маша", "doctor"),
                      player("Глаша", "judge")))
    first = close(state, votes={"Петя": "Вася", "Маша": "Вася"}, measures={"Петя": "prison"})
    assert first.outcome["imprisoned"] == ["Вася"] and not events(first, "politician_spared")
    second = close(day(first.state), votes={"Петя": "Вася", "Маша": "Вася"}, measures={"Петя": "execution"})
    assert second.outcome["executed"] == ["Вася"]


def test_a_politician_who_only_shares_a_tied_lead_he_loses_keeps_his_first_lead():
    """«лидером голосования»: the leader is the one the Veche punishes; a tie lost by the alphabet
    of the classes («Приоритет повешения - по алфавиту») does not spend his first lead."""
    state = day(table(player("Вася", "sheriff", overt="Политик"), player("Петя", "boss", overt="Боец"),
                      player("Маша", "doctor"), player("Глаша", "judge"), player("Паша", "killer")))
    result = close(state, votes={"Маша": "Вася", "Глаша": "Петя"}, measures={"Маша": "execution"})
    assert result.outcome["executed"] == ["Петя"]  # «Боец» before «Политик»
    assert POLITICIAN_LED not in result.state.memory


# -- Социопат ---------------------------------------------------------------------------------------


SOCIOPATH_TABLE = (player("Вася", "sheriff", overt="Социопат"), player("Петя", "boss"), player("Маша", "doctor"),
                   player("Глаша", "judge"), player("Паша", "killer"))


def test_sociopath_cannot_be_the_target_of_cards_on_night_one():
    """«Социопат Не может быть целью карт и голосования в первые сутки»: the game opens at night, so
    the first day and night are night 1 and day 1. A card at him is refused as it comes and at
    the close; the pages do not offer him."""
    state = table(*SOCIOPATH_TABLE)
    pistol = {"card": "Пистолет", "from": "hand", "target": sid(state, "Вася")}
    assert CARDS.check_play(state, sid(state, "Петя"), pistol) == "target_protected"
    assert sid(state, "Вася") not in CARDS.valid_targets(state, sid(state, "Петя"), "Пистолет")[0]
    assert sid(state, "Маша") in CARDS.valid_targets(state, sid(state, "Петя"), "Пистолет")[0]
    result = close(state, plays=[{"by": "Петя", "card": "Пистолет", "from": "hand", "target": "Вася"}])
    assert play_of(result, "Петя", "Пистолет")["reason"] == "target_protected"
    assert "Вася" not in result.outcome["damage"]
    # Night 1 is not all of it: a two-target card may not name him second either.
    swap = {"card": "Подмена", "from": "hand", "target": sid(state, "Маша"), "target2": sid(state, "Вася")}
    assert CARDS._check_targets(state, sid(state, "Петя"), CARDS_CARD("Подмена"), swap["target"],
                                swap["target2"]) == "target_protected"


def CARDS_CARD(name):  # noqa: N802 - a card of the shipped collection
    from games.rulesets.cards.engine.collection import default_collection

    return default_collection().get(name)


def test_sociopath_cannot_be_voted_for_on_day_one_but_can_from_night_two():
    """«в первые сутки»: on day 1 a vote for him is refused (and dropped at the close if it stood);
    from night 2 cards and from day 2 votes may name him."""
    state = day(table(*SOCIOPATH_TABLE))
    assert CARDS.check_vote(state, sid(state, "Петя"), sid(state, "Вася")) == "target_protected"
    assert sid(state, "Вася") not in CARDS.vote_targets(state)
    assert CARDS.check_vote(state, sid(state, "Петя"), "peace") is None
    result = close(state, votes={"Петя": "Вася", "Маша": "Вася", "Глаша": "Паша"})
    dropped = [e.data for e in events(result, "vote_dropped")]
    assert {d["voter_name"] for d in dropped} == {"Петя", "Маша"}
    assert {d["reason"] for d in dropped} == {"target_protected"}
    assert result.outcome["imprisoned"] == ["Паша"]
    night2 = result.state
    pistol = {"card": "Пистолет", "from": "hand", "target": sid(night2, "Вася")}
    assert CARDS.check_play(night2, sid(night2, "Петя"), pistol) is None
    day2 = day(night2)
    assert CARDS.check_vote(day2, sid(day2, "Петя"), sid(day2, "Вася")) is None


# -- Мститель ---------------------------------------------------------------------------------------


def _all_die(state, *, seed=0):
    """Everybody takes 10 damage from the GM at this close: the whole town dies."""
    return close(state, gm={"damage": {s.name: 10 for s in state.active()}}, seed=seed)


def test_the_avengers_team_wins_when_the_whole_town_dies():
    """«Если умер весь город, победителем становится команда Мстителя»: the dead Avenger's faction
    wins instead of nobody («В случае ситуации "умерли все" не выигрывает никто»)."""
    state = table(player("Вася", "sheriff"), player("Петя", "boss", overt="Мститель"), player("Маша", "doctor"))
    result = _all_die(state)
    assert result.state.over and result.state.winner == "mafia"
    (won,) = events(result, "avenger_team_won")
    assert won.audience == "public" and won.data["name"] == "Петя" and won.data["winner"] == "mafia"
    (over,) = events(result, "game_over")
    assert [w["name"] for w in over.data["winners"]] == ["Петя"]
    plain = _all_die(table(player("Вася", "sheriff"), player("Петя", "boss"), player("Маша", "doctor")))
    assert plain.state.winner == "none" and not events(plain, "avenger_team_won")


def test_a_hero_avengers_team_is_the_law_and_a_traitors_the_mafia():
    """«команда Мстителя»: the traitor's team is the mafia («Цель - привести мафию к победе»), the
    hero's the law («Побеждает при победе Закона»)."""
    traitor = _all_die(table(player("Вася", "sheriff"), player("Петя", "traitor", overt="Мститель"),
                             player("Маша", "boss")))
    assert traitor.state.winner == "mafia"
    hero = _all_die(table(player("Вася", "sheriff"), player("Петя", "hero", overt="Мститель"), player("Маша", "boss")))
    assert hero.state.winner == "law"


def test_the_last_avenger_to_die_decides_and_a_dice_settles_those_who_died_together():
    """«если до игры допущено несколько мстителей, то погибшего последним Мстителя. Спорные случаи
    решаются дайсом»: with the GM's option several Avengers play; the one who died last names the
    team; two dying in the same phase are settled by the close's seeded dice, publicly."""
    with pytest.raises(ValueError):
        table(player("Вася", "sheriff", overt="Мститель"), player("Петя", "boss", overt="Мститель"),
              player("Маша", "doctor"))
    options = {"several_avengers": True}
    players = (player("Вася", "sheriff", overt="Мститель"), player("Петя", "boss", overt="Мститель"),
               player("Маша", "doctor"), player("Глаша", "killer"))
    state = table(*players, options=options)
    # Вася dies first (night 1); then everybody else on day 1: Петя died last.
    first = close(state, gm={"damage": {"Вася": 10}})
    result = _all_die(first.state)
    assert result.state.winner == "mafia" and not events(result, "avenger_dice")
    # Both die together: the dice, seeded and logged, picks one; the same seed the same one.
    picks = set()
    for seed in range(12):
        together = _all_die(table(*players, options=options), seed=seed)
        (dice,) = events(together, "avenger_dice")
        assert {a["name"] for a in dice.data["avengers"]} == {"Вася", "Петя"}
        picks.add((dice.data["name"], together.state.winner))
        again = _all_die(table(*players, options=options), seed=seed)
        assert events(again, "avenger_dice")[0].data == dice.data
    assert picks == {("Вася", "law"), ("Петя", "mafia")}


# -- Джокер: «Знает Тайные роли мёртвых персонажей» --------------------------------------------------


def test_the_joker_learns_the_secret_role_of_each_who_dies_and_nobody_else_does():
    """«Знает Тайные роли мёртвых персонажей»: at each death the joker (in play) is told the dead
    character's secret role; the public event names none, and no other player sees his."""
    state = table(player("Вася", "sheriff", hand=THIN), player("Петя", "boss"), player("Маша", "joker",
                  colours=["damage", "recon"]), player("Глаша", "doctor"), player("Паша", "killer"))
    result = close(state, gm={"damage": {"Вася": 1}})
    assert result.outcome["dead"] == ["Вася"]
    (died,) = events(result, "died")
    assert "role" not in died.data
    (known,) = events(result, "dead_role")
    assert known.data["name"] == "Вася" and known.data["role"] == "sheriff"
    joker, others = sid(state, "Маша"), [s for s in state.seats if s.name != "Маша"]
    assert visible_to(known, seat_id=joker, faction="joker", is_gm=False, game_over=False)
    for seat in others:
        assert not visible_to(known, seat_id=seat.id, faction=seat.faction, is_gm=False, game_over=False)
    assert not visible_to(known, seat_id=None, faction=None, is_gm=False, game_over=False)


def test_a_dead_joker_learns_nothing():
    """«Мертвые персонажи ... не получают сообщений»: the joker dying in the same phase is told
    nothing."""
    state = table(player("Вася", "sheriff", hand=THIN), player("Петя", "boss"),
                  player("Маша", "joker", colours=["damage", "recon"], hand=THIN), player("Глаша", "doctor"))
    result = close(state, gm={"damage": {"Вася": 1, "Маша": 1}})
    assert set(result.outcome["dead"]) == {"Вася", "Маша"} and not events(result, "dead_role")


# -- Герой ------------------------------------------------------------------------------------------


HERO_HAND = ["Супергерой", "Пролом", "Совет", "Бинокль", "Кофе", "Письмо"]


def test_the_hero_deals_no_damage_in_any_way():
    """«Не может наносить урон никаким образом»: the damage of his cards does not happen (the
    card's other effects do: Пролом still breaks the armour), and his report says why."""
    state = table(player("Вася", "hero", hand=HERO_HAND), player("Петя", "boss", hand=["Бункер", "Совет"]),
                  player("Маша", "doctor"), player("Глаша", "judge"))
    result = close(state, plays=[{"by": "Вася", "card": "Пролом", "from": "hand", "target": "Петя"},
                                 {"by": "Петя", "card": "Бункер", "from": "hand"}])
    assert "Петя" not in result.outcome["damage"] and "Петя" not in result.outcome["armour"]
    assert hand(result.state, "Петя") == ["Совет", "Кофе"]  # Бункер replaced, nothing lost
    effects = play_of(result, "Вася", "Пролом")["effects"]
    assert {"op": "damage", "target": sid(state, "Петя"), "target_name": "Петя", "n": 0,
            "reason": "hero_no_damage"} in effects
    (report,) = [e for e in events(result, "phase_report") if e.data["name"] == "Вася"]
    assert report.data["no_damage"] == ["Пролом"]
    # Someone else's Пролом deals its damage.
    other = table(player("Вася", "doctor", hand=HERO_HAND), player("Петя", "boss"), player("Маша", "judge"))
    assert close(other, plays=[{"by": "Вася", "card": "Пролом", "from": "hand", "target": "Петя"}]
                 ).outcome["damage"] == {"Петя": 1}


def _hero_saves(state, damage, *, target="Маша"):
    """The hero gives Супергерой (3 armour) to `target`, who takes `damage` from the GM."""
    return close(state, plays=[{"by": "Вася", "card": "Супергерой", "from": "hand", "target": target}],
                 gm={"damage": {target: damage}})


HERO_TABLE = (player("Вася", "hero", hand=HERO_HAND), player("Петя", "boss"),
              player("Маша", "doctor", hand=["Совет", "Кофе"]), player("Глаша", "judge"), player("Паша", "sheriff"))


def test_the_heros_armour_that_saves_a_law_members_life_at_night_fulfils_his_first_goal():
    """«Имеет две цели, о выполнении которых узнаёт: - Ночью данная им броня спасла жизнь
    представителю Закона.» Маша (2 cards) takes 4 damage: with his 3 armour she keeps one card;
    without it she would have died. He is told; nobody else is."""
    state = table(*HERO_TABLE)
    result = _hero_saves(state, 4)
    assert result.outcome["hand_sizes"]["Маша"] == 1 and "Маша" not in result.outcome["dead"]
    (goal,) = events(result, "hero_goal")
    assert goal.audience == f"seat:{sid(state, 'Вася')}" and goal.data["goal"] == "armour"
    assert goal.data["seat_name"] == "Маша"
    assert hero_record(result.state.memory, sid(state, "Вася"))["goals"] == {"armour": "night 1"}


def test_armour_that_was_not_needed_or_did_not_save_is_no_goal():
    """«спасла жизнь»: armour she did not need (1 damage) saves nobody, and armour that could not
    keep her alive (6 damage) neither; nor is a mafioso «представитель Закона»."""
    state = table(*HERO_TABLE)
    assert not events(_hero_saves(state, 1), "hero_goal")
    died = _hero_saves(state, 6)
    assert died.outcome["dead"] == ["Маша"] and not events(died, "hero_goal")
    mafia = close(state, plays=[{"by": "Вася", "card": "Супергерой", "from": "hand", "target": "Петя"}],
                  gm={"damage": {"Петя": 8}})
    assert "Петя" not in mafia.outcome["dead"] and not events(mafia, "hero_goal")


def test_the_heros_goals_do_not_count_when_the_mafia_and_traitor_are_as_many_as_the_rest():
    """«Цели не засчитываются, если в фазу их выполнения живых представителей Мафии и Предателя не
    меньше, чем остальных живых.» Two mafia and the traitor against the hero, Маша and one more:
    the save is only noted to the GM."""
    state = table(player("Вася", "hero", hand=HERO_HAND), player("Петя", "boss"), player("Маша", "doctor",
                  hand=["Совет", "Кофе"]), player("Глаша", "killer"), player("Паша", "traitor"), player("Саша", "judge"))
    result = _hero_saves(state, 4)
    assert not events(result, "hero_goal")
    (void,) = events(result, "hero_goal_void")
    assert void.audience == "gm" and void.data["goal"] == "armour"
    assert hero_record(result.state.memory, sid(state, "Вася"))["goals"] == {}


def _marked(state, hero, *marks):
    memory = copy.deepcopy(dict(state.memory))
    memory["hero"] = {str(sid(state, hero)): {"marks": [sid(state, m) for m in marks], "goals": {}, "won": False}}
    return replace(state, memory=memory)


def test_a_marked_mafioso_dying_by_the_days_result_fulfils_the_second_goal():
    """«По итогам дня погибает найденный им представитель мафии, имеющий его метку.» The marked
    boss is executed with one card: the goal. An unmarked mafioso's death is none."""
    state = day(table(*HERO_TABLE[:4], player("Паша", "sheriff"), player("Саша", "judge")))
    state = _marked(state, "Вася", "Петя")
    state = replace(state, memory={**state.memory, "players": {
        **state.memory["players"], str(sid(state, "Петя")): {**state.memory["players"][str(sid(state, "Петя"))],
                                                             "hand": ["Совет"]}}})
    result = close(state, votes={"Маша": "Петя", "Глаша": "Петя"}, measures={"Маша": "execution"})
    assert result.outcome["dead"] == ["Петя"]
    (goal,) = events(result, "hero_goal")
    assert goal.data["goal"] == "mark" and goal.data["seat_name"] == "Петя"
    unmarked = close(_marked(state, "Вася"), votes={"Маша": "Петя", "Глаша": "Петя"}, measures={"Маша": "execution"})
    assert unmarked.outcome["dead"] == ["Петя"] and not events(unmarked, "hero_goal")


def test_two_goals_win_the_hero_and_take_him_out_and_the_game_goes_on():
    """«Если выполнил две цели, побеждает и покидает игру. Игра при этом продолжается.»"""
    state = table(*HERO_TABLE, player("Саша", "killer"), player("Даша", "judge"))
    night = _hero_saves(state, 4)
    assert events(night, "hero_goal")
    day1 = _marked(night.state, "Вася", "Петя")
    memory = copy.deepcopy(dict(day1.memory))
    memory["hero"][str(sid(day1, "Вася"))]["goals"] = {"armour": "night 1"}
    memory["players"][str(sid(day1, "Петя"))]["hand"] = ["Совет"]
    day1 = replace(day1, memory=memory)
    result = close(day1, votes={"Маша": "Петя", "Глаша": "Петя"}, measures={"Маша": "execution"})
    (left,) = events(result, "hero_left")
    assert left.audience == "public" and left.data["name"] == "Вася"
    assert result.state.seat(sid(state, "Вася")).status == "left" and not result.state.over
    assert hero_record(result.state.memory, sid(state, "Вася"))["won"]
    # Whoever wins in the end, he is among the winners: the mafia here.
    end = close(result.state, gm={"damage": {n: 10 for n in ("Маша", "Глаша", "Паша", "Даша")}})
    (over,) = events(end, "game_over")
    assert end.state.winner == "mafia" and "Вася" in {w["name"] for w in over.data["winners"]}


def test_the_hero_wins_with_the_law_alive_or_dead_with_one_goal_but_not_dead_without():
    """«Побеждает при победе Закона, если дожил до неё или выполнил одну цель.»"""
    state = table(player("Вася", "hero", hand=THIN), player("Петя", "boss", hand=THIN), player("Маша", "doctor"))
    dead_hero = close(state, gm={"damage": {"Вася": 1, "Петя": 1}})
    (over,) = events(dead_hero, "game_over")
    assert dead_hero.state.winner == "law" and "Вася" not in {w["name"] for w in over.data["winners"]}
    with_goal = _marked(state, "Вася")
    memory = copy.deepcopy(dict(with_goal.memory))
    memory["hero"][str(sid(state, "Вася"))]["goals"] = {"armour": "night 1"}
    result = close(replace(with_goal, memory=memory), gm={"damage": {"Вася": 1, "Петя": 1}})
    (over,) = events(result, "game_over")
    assert "Вася" in {w["name"] for w in over.data["winners"]}


# -- abilities -------------------------------------------------------------------------------------


def ab(state, by, ability, **data):
    """One phase-end ability as the close takes it, with names for players."""
    item = {"by": sid(state, by), "ability": ability}
    for key, value in data.items():
        item[key] = sid(state, value) if key in ("target", "target2") else value
    return item


def test_prosecutor_adds_two_to_his_vote_once_a_game_on_the_day_he_uses_it():
    """«Прокурор: Один раз за игру, голосуя, может получить на этот день +2 к силе голоса.» At once
    (the live count shows it), that day only; a second use is refused."""
    state = day(table(player("Вася", "sheriff", overt="Прокурор"), player("Петя", "boss", overt="Авторитет"),
                      player("Маша", "doctor"), player("Глаша", "judge"), player("Паша", "killer")))
    vasya = sid(state, "Вася")
    assert CARDS.vote_weight(state, vasya) == 1
    boosted = CARDS.act_now(state, vasya, "prosecutor_boost", {}, seed=1)
    assert boosted.reason is None and CARDS.vote_weight(boosted.state, vasya) == 3
    assert boosted.result == {"weight": 3}
    assert CARDS.check_ability(boosted.state, vasya, "prosecutor_boost", {}) == "used_up"
    result = close(boosted.state, votes={"Вася": "Паша", "Петя": "Глаша"}, measures={"Вася": "execution",
                                                                                     "Петя": "prison"})
    assert result.outcome["tally"] == {"Паша": 3, "Глаша": 2} and result.outcome["executed"] == ["Паша"]
    later = day(result.state)
    assert CARDS.vote_weight(later, vasya) == 1
    assert CARDS.check_ability(table(*SOCIOPATH_TABLE), sid(state, "Петя"), "prosecutor_boost", {}) \
        == "not_your_ability"
    assert CARDS.check_ability(table(player("Вася", "sheriff", overt="Прокурор"), player("Петя", "boss"),
                                     player("Маша", "doctor")), vasya, "prosecutor_boost", {}) == "wrong_phase"


def test_assassin_kills_a_player_with_exactly_one_card_at_the_end_of_the_phase_once_a_game():
    """«Убийца: Раз за игру может убить одного игрока, имеющего ровно 1 карту в руке.» Only a
    one-card Hand (as the phase began: what everybody knows) is offered and accepted; the kill
    acts at the end of the phase with the cards («по окончании фазы»), even if he played his card
    and would draw a replacement; once a game."""
    state = table(player("Вася", "sheriff", overt="Убийца"), player("Петя", "boss", hand=["Бункер"]),
                  player("Маша", "doctor"), player("Глаша", "judge"), player("Паша", "killer"))
    vasya = sid(state, "Вася")
    assert CARDS.ability_choices(state, vasya, "assassin_kill") == {"target": [sid(state, "Петя")]}
    assert CARDS.check_ability(state, vasya, "assassin_kill", {"target": sid(state, "Маша")}) == "not_one_card"
    assert CARDS.check_ability(state, vasya, "assassin_kill", {"target": vasya}) == "self_target"
    result = close(state, plays=[{"by": "Петя", "card": "Бункер", "from": "hand"}],
                   abilities=[ab(state, "Вася", "assassin_kill", target="Петя")])
    assert result.outcome["dead"] == ["Петя"] and result.outcome["abilities"] == {"Вася": ["assassin_kill"]}
    (killed,) = events(result, "assassinated")
    assert killed.audience == "public" and killed.data["name"] == "Петя"
    assert CARDS.check_ability(day(result.state), vasya, "assassin_kill", {}) == "used_up"
    # «Герой: Не может наносить урон никаким образом»: a hero who took the class kills nobody.
    hero = table(player("Вася", "hero", overt="Убийца"), player("Петя", "boss", hand=["Бункер"]),
                 player("Маша", "doctor"))
    assert CARDS.check_ability(hero, vasya, "assassin_kill", {"target": sid(hero, "Петя")}) == "hero_no_damage"
    assert "assassin_kill" not in CARDS.abilities_available(hero, vasya)


def test_heros_night_armour_is_three_to_another_and_can_fulfil_his_goal():
    """«Ночью, если не применяет карт из Рукава, может дать 3 брони любому другому персонажу»: the
    armour is his («данная им броня»), so saving a law member's life is his first goal."""
    state = table(*HERO_TABLE)
    assert CARDS.check_ability(state, sid(state, "Вася"), "hero_armour", {"target": sid(state, "Вася")}) \
        == "self_target"
    result = close(state, abilities=[ab(state, "Вася", "hero_armour", target="Маша")], gm={"damage": {"Маша": 4}})
    assert result.outcome["armour"] == {"Маша": 3} and "Маша" not in result.outcome["dead"]
    (goal,) = [e for e in events(result, "hero_goal")]
    assert goal.data["goal"] == "armour"
    assert CARDS.check_ability(day(state), sid(state, "Вася"), "hero_armour", {"target": sid(state, "Маша")}) \
        == "wrong_phase"


def test_hero_acts_at_night_only_without_a_sleeve_card_and_only_one_of_his_two_choices():
    """«Ночью, если не применяет карт из Рукава, может дать 3 брони ... или назвать персонажа и Тайную
    роль Мафии»: with his Оракул played from the Sleeve the ability is refused; with both choices
    standing, the later one counts."""
    state = table(*HERO_TABLE)
    sleeve_play = close(state, plays=[{"by": "Вася", "card": "Оракул", "from": "sleeve", "target": "Петя"}],
                        abilities=[ab(state, "Вася", "hero_armour", target="Маша")])
    assert sleeve_play.outcome["armour"] == {}
    assert sleeve_play.outcome["abilities"] == {"Вася": ["hero_armour: hero_sleeve_played"]}
    both = close(state, abilities=[ab(state, "Вася", "hero_armour", target="Маша"),
                                   ab(state, "Вася", "hero_guess", target="Петя", role="boss")])
    assert both.outcome["armour"] == {}
    assert both.outcome["abilities"] == {"Вася": ["hero_armour: hero_other_choice", "hero_guess"]}


def test_heros_right_guess_marks_a_mafioso_and_his_death_by_the_day_is_the_second_goal():
    """«назвать персонажа и Тайную роль Мафии. Если угадывает, персонаж получает метку.» and «По
    итогам дня погибает найденный им представитель мафии, имеющий его метку.» A wrong role marks
    nobody; the hero is not told which (the GM is)."""
    base = (*HERO_TABLE[:2], player("Маша", "doctor"), player("Глаша", "judge"), player("Паша", "sheriff"),
            player("Саша", "killer"))
    state = table(*base)
    hero = sid(state, "Вася")
    assert CARDS.check_ability(state, hero, "hero_guess", {"target": sid(state, "Петя"), "role": "sheriff"}) \
        == "bad_role"
    wrong = close(state, abilities=[ab(state, "Вася", "hero_guess", target="Петя", role="killer")])
    assert hero_record(wrong.state.memory, hero)["marks"] == []
    (mark,) = events(wrong, "hero_mark")
    assert mark.audience == "gm" and mark.data["right"] is False
    right = close(state, abilities=[ab(state, "Вася", "hero_guess", target="Петя", role="boss")])
    assert hero_record(right.state.memory, hero)["marks"] == [sid(state, "Петя")]
    (report,) = [e for e in events(right, "phase_report") if e.data["name"] == "Вася"]
    assert report.data["abilities"][0]["role"] == "boss" and "right" not in report.data["abilities"][0]
    day1 = right.state
    memory = copy.deepcopy(dict(day1.memory))
    memory["players"][str(sid(day1, "Петя"))]["hand"] = ["Совет"]
    result = close(replace(day1, memory=memory), votes={"Маша": "Петя", "Глаша": "Петя"},
                   measures={"Маша": "execution"})
    (goal,) = events(result, "hero_goal")
    assert goal.data["goal"] == "mark"


def test_joker_uses_the_effect_of_hr_each_night_without_the_card():
    """«Джокер: Каждую ночь может использовать эффект карты Отдел кадров»: the target's secret role,
    told to him at the end of the night (no card, no Price); by day he may not."""
    state = table(player("Вася", "sheriff"), player("Петя", "boss"), player("Маша", "joker", colours=["damage", "recon"]),
                  player("Глаша", "doctor"))
    result = close(state, abilities=[ab(state, "Маша", "joker_hr", target="Петя")])
    (seen,) = events(result, "reveal")
    assert seen.audience == f"seat:{sid(state, 'Маша')}"
    assert seen.data == {"card": "Отдел кадров", "target": sid(state, "Петя"), "target_name": "Петя",
                         "what": "role", "value": "boss"}
    assert CARDS.check_ability(day(state), sid(state, "Маша"), "joker_hr", {"target": sid(state, "Петя")}) \
        == "wrong_phase"
    sociopath = table(player("Вася", "sheriff", overt="Социопат"), player("Петя", "boss"),
                      player("Маша", "joker", colours=["damage", "recon"]))
    assert CARDS.check_ability(sociopath, sid(sociopath, "Маша"), "joker_hr", {"target": sid(sociopath, "Вася")}) \
        == "target_protected"


def test_joker_puts_one_ace_a_phase_into_any_ones_sleeve():
    """«Каждую фазу может добавить одну карту Туз в рукав любой одной цели.» At the end of the
    phase; once a phase, night or day; the Ace vanishes with the rest when his list is wrong."""
    state = table(player("Вася", "sheriff"), player("Петя", "boss"), player("Маша", "joker", colours=["damage", "recon"]),
                  player("Глаша", "doctor"))
    result = close(state, abilities=[ab(state, "Маша", "joker_ace", target="Вася")])
    assert result.outcome["sleeves"] == {"Вася": ["Туз"]}
    by_day = close(result.state, abilities=[ab(state, "Маша", "joker_ace", target="Петя")])
    assert by_day.outcome["sleeves"] == {"Петя": ["Туз"]}
    twice = close(state, abilities=[ab(state, "Маша", "joker_ace", target="Вася"),
                                    ab(state, "Маша", "joker_ace", target="Петя")])
    assert twice.outcome["sleeves"] == {"Петя": ["Туз"]}  # the last one stands
