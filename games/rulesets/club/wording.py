"""The club rule set's words (seed 003): roles, the reds and the blacks, the night actions and their
failures, the rating's automatic points, the order words and the events only the club emits
(fouls, the don's take-along, the freeze, the commissar's note, the re-vote). Imports Django's
translation, games.text and games.wording only (docs/architecture.md, "Wording")."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from games.text.orders import ActionWords, OrderVocabulary
from games.wording import RulesetWording, agreed, faction_label, gender_of, name_in, names_joined

# Club (seed 003): one order per player and phase. A note is the night's check with the note left
# («Записку можно оставить только сразу после проверки»), so "записка про X" is a check of X too.
CLUB_VOCABULARY = OrderVocabulary(
    actions=(
        ActionWords(
            "kill",
            verbs=(
                "убиваю", "убиваем", "убью", "убьем", "убить", "убивать", "убийство",
                "стреляю в", "стреляю во", "стреляем в", "стреляем во", "стрелять в", "стреляю по",
                "стреляем по", "выстрел в", "выстрел во", "выстрел по", "стреляю", "стреляем", "выстрел",
            ),
            label="убийство",
        ),
        ActionWords(
            "freeze",
            verbs=(
                "замораживаю", "заморожу", "заморозить", "замораживать", "заморозка", "заморозку",
                "морожу", "морозить", "морожу игрока",
            ),
            label="заморозка",
        ),
        ActionWords(
            "heal",
            verbs=(
                "лечу", "лечим", "лечить", "вылечу", "вылечить", "лечение", "лечу игрока",
                "спасаю", "спасу", "спасти",
            ),
            label="лечение",
        ),
        ActionWords(
            "check",
            verbs=(
                "проверяю", "проверяем", "проверю", "проверить", "проверять", "проверь", "проверка",
                "проверку",
            ),
            label="проверка",
        ),
        ActionWords(
            "note",
            verbs=(
                "оставляю записку про", "оставляю записку о", "оставляю записку на", "оставляю записку",
                "пишу записку про", "пишу записку о", "пишу записку на", "пишу записку",
                "записка про", "записка о", "записка на", "записку про", "записку о", "записку на",
                "записка", "записку",
            ),
            label="записка",
            follows=("check",),
        ),
        ActionWords(
            "take",
            verbs=(
                "забираю с собой", "забираю в могилу", "забираю", "заберу с собой", "заберу",
                "забрать с собой", "забрать", "беру с собой", "возьму с собой",
            ),
            label="забираю с собой",
        ),
    )
)

COLOURS = {"red": gettext_lazy("red"), "black": gettext_lazy("black")}

# The club rating's automatic points (003 «Рейтинг»), by the engine's rule codes
# (games.rulesets.club.engine.rating_breakdown).
RATING_RULES = {
    "civilian_killed_by_mafia_night1": gettext_lazy("+1: a civilian killed by the mafia on the first night"),
    "civilian_taken_by_don_day1": gettext_lazy("+1: a civilian taken by the don on the first day"),
    "maniac_killed_black_night1": gettext_lazy("+1: the maniac killed a black on the first night with no vote on "
                                               "him"),
    "removed": gettext_lazy("−3: removed from the table (fouls or an opened card)"),
    "maniac_killed_civilian_night1": gettext_lazy("−1: the maniac killed a civilian on the first night"),
    "maniac_killed_active_night1": gettext_lazy("−2: the maniac killed an active card on the first night"),
    "finished_off_civilian_day1": gettext_lazy("−1: the finishing vote on a civilian on the first day"),
    "finished_off_active_day1": gettext_lazy("−2: the finishing vote on an active card on the first day"),
    "finisher_killed_by_maniac_night1": gettext_lazy("−1: the finisher killed by the maniac on the first night"),
    "maniac_shot_lost_game": gettext_lazy("−1: the maniac's shot lost the game for the reds"),
    "maniac_refusal_lost_game": gettext_lazy("−1: the maniac's refusal to shoot lost the game for the reds"),
    "blunder": gettext_lazy("−1: could have guaranteed the team's win and erred"),
    "blunder_lost": gettext_lazy("−2: and the team lost"),
}


def rating_rule_label(rule: str) -> str:
    return str(RATING_RULES.get(rule, rule))


# Why a club vote was dropped at the close (the rule set's check_vote codes) and why a GM entry
# was ignored, for the GM's event list.
DROPPED_VOTE_REASONS = {
    "not_a_voter": gettext_lazy("the voter may not vote in this round"),
    "bad_target": gettext_lazy("that player cannot be voted for in this round"),
    "self_vote_forbidden": gettext_lazy("a vote against oneself"),
    "peace_not_allowed": gettext_lazy("there is no vote for peace"),
    "target_immune": gettext_lazy("a newcomer is immune on the first day"),
}
IGNORED_REASONS = {
    "unknown_player": gettext_lazy("no such player in the game"),
    "not_active": gettext_lazy("the player is out of play"),
    "not_a_faction": gettext_lazy("no such team"),
}


class ClubWording(RulesetWording):
    role_names = {
        "don": gettext_lazy("don"),
        "mafioso": gettext_lazy("mafioso"),
        "putana": gettext_lazy("putana"),
        "commissar": gettext_lazy("commissar"),
        "doctor": gettext_lazy("doctor"),
        "maniac": gettext_lazy("maniac"),
        "civilian": gettext_lazy("civilian"),
    }
    role_help = {
        "don": gettext_lazy("You lead the mafia: at night your word decides whom the mafia kills. Voted out by day, "
                            "you take one player with you (not with three or more fouls)."),
        "mafioso": gettext_lazy("You know the blacks. At night the mafia kills one player; the don's word decides "
                                "while he lives."),
        "putana": gettext_lazy("Each night you freeze one player: the commissar does not check, the doctor does not "
                               "heal, the maniac does not kill. Not the same player more than two nights running. "
                               "Alone among the blacks you may also kill."),
        "commissar": gettext_lazy("Each night you check one player: red or black. Once a game you may leave a note, "
                                  "read in the morning only if you are killed that night."),
        "doctor": gettext_lazy("Each night you heal one player from everything: the mafia, the maniac, the freeze. "
                               "Not the same player two nights running."),
        "maniac": gettext_lazy("You play for the reds. Each night you may kill one player (never yourself) or "
                               "abstain."),
        "civilian": gettext_lazy("No night action. Talk, vote, find the blacks."),
    }
    faction_names = {
        "red": gettext_lazy("the reds"),
        "black": gettext_lazy("the blacks"),
    }
    faction_goals = {
        "red": gettext_lazy("The reds win when every black is out of the game."),
        "black": gettext_lazy("The blacks win when the reds can no longer stop them."),
    }
    action_labels = {
        "kill": gettext_lazy("kill"),
        "freeze": gettext_lazy("freeze"),
        "heal": gettext_lazy("heal"),
        "check": gettext_lazy("check"),
        "note": gettext_lazy("check with a note"),
        "take": gettext_lazy("take along"),
    }
    # check_order's codes (games.rulesets.club.engine.REASONS) and the close's failures (FAIL_*)
    # beyond the shared ones.
    order_reasons = {
        "not_night": gettext_lazy("night actions are ordered at night (from night 1)"),
        "not_day": gettext_lazy("this is ordered by day"),
        "unexpected_detail": gettext_lazy("this order takes one target"),
        "healed_twice": gettext_lazy("the doctor may not heal the same player two nights running"),
        "frozen_thrice": gettext_lazy("the same player may not be frozen more than two nights running"),
        "note_used": gettext_lazy("the note has already been left"),
        "no_take_right": gettext_lazy("a don with three fouls takes nobody"),
        "target_immune": gettext_lazy("a newcomer is immune on the first day and night"),
        "frozen": gettext_lazy("the actor was frozen"),
        "last_mafia_frozen": gettext_lazy("the last mafioso was frozen"),
        "overruled": gettext_lazy("the don decided otherwise"),
        "not_executed": gettext_lazy("the don was not voted out"),
        "actor_removed": gettext_lazy("the actor was removed"),
        "target_removed": gettext_lazy("the target was removed"),
        "forfeit": gettext_lazy("the game ended by forfeit"),
        "carried": gettext_lazy("carried into the re-vote"),
    }
    order_vocabulary = CLUB_VOCABULARY
    vote_button_form = "Голосую за [b]{name}[/b]"

    def event_text(self, kind: str, data: dict) -> str | None:
        name = name_in(data, "name", "target_name", "seat_name")
        if kind == "check_result" and data.get("color"):
            return _("Check: %(name)s is %(colour)s.") % {"name": name_in(data, "target_name", "name"),
                                                            "colour": str(COLOURS.get(data["color"], data["color"]))}
        if kind == "removed":
            return self.with_role(data, agreed(gender_of(name), _("%(name)s is removed for fouls."),
                                               pgettext("masculine", "%(name)s is removed for fouls."),
                                               pgettext("feminine", "%(name)s is removed for fouls.")) % {"name": name})
        if kind == "revote":
            return _("Tie: a re-vote between %(names)s.") % {  # «между Васей и Кикиморой»
                "names": names_joined([p.get("name") for p in data.get("leaders", [])], "ablt")}
        if kind == "no_execution":
            return _("A peaceful day: nobody leaves the table.")
        if kind == "taken":
            return _("The don %(don)s takes %(name)s with him.") % {"don": data.get("by_name", "?"), "name": name}
        if kind == "frozen":
            return _("You were frozen this night.")
        if kind == "note":
            return _("The commissar's note, read in the morning: %(name)s is %(colour)s.") % {
                "name": name_in(data, "target_name"), "colour": str(COLOURS.get(data.get("color"), data.get("color")))}
        if kind == "foul":
            return _("%(name)s gets a foul (%(n)s in all).") % {"name": name, "n": data.get("fouls", "?")}
        if kind == "forfeit":
            return _("Forfeit: %(loser)s lose; %(winner)s win.") % {"loser": faction_label(data.get("faction", "")),
                                                                   "winner": faction_label(data.get("winner", ""))}
        if kind == "newcomers":
            return _("Newcomers with immunity on day 1 and night 1: %(names)s.") % {
                "names": names_joined([p.get("name") for p in data.get("players", [])])}
        return self._gm_event_text(kind, data)

    def _gm_event_text(self, kind: str, data: dict) -> str | None:
        """The GM's events: a vote dropped at the close, a foul or a forfeit not given."""
        if kind == "vote_dropped":
            return _("%(voter)s's vote could not stand at the close and is not counted: %(reason)s.") % {
                "voter": data.get("voter_name", "?"),
                "reason": str(DROPPED_VOTE_REASONS.get(data.get("reason"), data.get("reason", "")))}
        if kind == "foul_ignored":
            return _("A foul was not given: %(reason)s.") % {
                "reason": str(IGNORED_REASONS.get(data.get("reason"), data.get("reason", "")))}
        if kind == "forfeit_ignored":
            return _("The forfeit was not declared: %(reason)s.") % {
                "reason": str(IGNORED_REASONS.get(data.get("reason"), data.get("reason", "")))}
        return None


WORDING = ClubWording()
