"""The forum rule set's words (seed 002): roles, teams, the special actions and their failures, and
the events only the forum emits (jail, wounds, the recruiter's granted check). Imports Django's
translation, the engine and games.wording only (docs/architecture.md, "Wording")."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from games.text.orders import FORUM_VOCABULARY
from games.wording import RulesetWording, agreed, gender_of, name_in


class ForumWording(RulesetWording):
    role_names = {
        "citizen": gettext_lazy("honest citizen"),
        "recruiter": gettext_lazy("recruiter"),
        "reanimator": gettext_lazy("reanimator"),
        "mafioso": gettext_lazy("mafioso"),
        "killer": gettext_lazy("killer"),
        "thief": gettext_lazy("thief"),
    }
    role_help = {
        "citizen": gettext_lazy("No night action. Talk, vote, find the mafia. If the recruiter checks you, you "
                                "may make one check of your own the next turn."),
        "recruiter": gettext_lazy("Each turn you may check one player and learn his role. If he is a plain "
                                  "citizen, he gets one check of his own for the next turn."),
        "reanimator": gettext_lazy("Each turn you may protect one player (not yourself): if he is shot, he "
                                   "survives, wounded."),
        "mafioso": gettext_lazy("You know the other members of the mafia. Each turn the mafia shoots once: one "
                                "mafioso's order is enough, but two different targets mean no shot."),
        "killer": gettext_lazy("You are the mafia's killer: each turn you shoot on your own, besides the mafia's "
                               "shot."),
        "thief": gettext_lazy("Each turn you may steal the action of one player and apply it to anyone, yourself "
                              "included. You are not told what you stole, only what came of it."),
    }
    faction_names = {
        "town": gettext_lazy("honest citizens"),
        "mafia": gettext_lazy("the mafia"),
        "thief": gettext_lazy("the thief"),
    }
    faction_goals = {
        "town": gettext_lazy("Your team wins when the mafia and the thief are all jailed or killed."),
        "mafia": gettext_lazy("Your team wins when every other team is jailed or killed."),
        "thief": gettext_lazy("You win only if you are the last one left in play."),
    }
    action_labels = {
        "check": gettext_lazy("check"),
        "protect": gettext_lazy("protection"),
        "shoot": gettext_lazy("shot"),
        "steal": gettext_lazy("theft"),
    }
    # check_order's codes (games.rulesets.forum.engine.REASONS) and the close's failures (FAIL_*)
    # beyond the shared ones.
    order_reasons = {
        "missing_source": gettext_lazy("say whose action you steal"),
        "bad_source": gettext_lazy("the player you steal from is not in this game"),
        "source_not_active": gettext_lazy("the player you steal from is out of play"),
        "actor_jailed": gettext_lazy("the actor was jailed"),
        "target_jailed": gettext_lazy("the target was jailed"),
        "source_jailed": gettext_lazy("the robbed player was jailed"),
        "stolen": gettext_lazy("the thief stole it"),
    }
    order_vocabulary = FORUM_VOCABULARY
    vote_button_form = "[b]В тюрьму {name}[/b]"  # the forum rules' own example

    def event_text(self, kind: str, data: dict) -> str | None:
        name = name_in(data, "name", "target_name", "seat_name")
        if kind == "jailed":
            return self.with_role(data, agreed(gender_of(name), _("%(name)s is jailed."),
                                               pgettext("masculine", "%(name)s is jailed."),
                                               pgettext("feminine", "%(name)s is jailed.")) % {"name": name})
        if kind == "wounded":
            return agreed(gender_of(name), _("%(name)s was shot but survived, wounded."),
                          pgettext("masculine", "%(name)s was shot but survived, wounded."),
                          pgettext("feminine", "%(name)s was shot but survived, wounded.")) % {"name": name}
        if kind == "granted_check":
            return _("You were checked by the recruiter: next turn you may make one check of your own.")
        if kind == "shot_by_lot":
            return _("The mafia ordered no shot: the lot chose its target, %(target)s (the automatic game's rule).") % {
                "target": data.get("target_name", "")}
        if kind == "tie_break_ignored":
            return _("The GM's tie-break was not used (%(reason)s).") % {"reason": data.get("reason", "")}
        return None


WORDING = ForumWording()
