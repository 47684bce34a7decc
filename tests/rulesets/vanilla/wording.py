"""The vanilla rule set's words: its two roles and teams, its one action and the two events only
it words (a day without a lynch, a night without a kill). Every other event kind it emits
(executed, killed, tie_break, vote_result, game_over, ...) has the shared text of
games.wording.events."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.wording import RulesetWording


class VanillaWording(RulesetWording):
    role_names = {
        "citizen": gettext_lazy("honest citizen"),
        "mafioso": gettext_lazy("mafioso"),
    }
    role_help = {
        "citizen": gettext_lazy("No night action. Talk, vote, find the mafia."),
        "mafioso": gettext_lazy("You know the other mafiosi. Each night the mafia kill one player: one "
                                "mafioso's order is enough, but two different targets kill nobody."),
    }
    faction_names = {
        "town": gettext_lazy("honest citizens"),
        "mafia": gettext_lazy("the mafia"),
    }
    faction_goals = {
        "town": gettext_lazy("Your team wins when no mafioso is left in play."),
        "mafia": gettext_lazy("Your team wins when the mafia are at least half of the players in play."),
    }
    action_labels = {"kill": gettext_lazy("kill")}
    order_reasons = {"not_night": gettext_lazy("night actions are ordered at night (from night 1)")}
    vote_button_form = "Голосую за [b]{name}[/b]"

    def event_text(self, kind: str, data: dict) -> str | None:
        if kind == "no_execution":
            return _("A peaceful day: nobody leaves the table.")  # no vote at all: nobody is lynched
        if kind == "night_result":
            return "" if data.get("killed") else _("The night passed without a death.")
        return None


WORDING = VanillaWording()
