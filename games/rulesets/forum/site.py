"""The forum rule set's adapter for the site: the defaults of SiteRuleset are the forum's."""

from django.utils.translation import gettext_lazy as _

from games.rulesets.base import SiteRuleset
from games.rulesets.forum.engine import FORUM
from games.rulesets.forum.wording import WORDING
from games.text.votes import DEFAULT_PROFILE


class ForumSite(SiteRuleset):
    key = "forum"
    label = _("Forum mafia")
    engine = FORUM
    wording = WORDING

    # --- Votes: the plain profile (bold votes, the English words on, no peace vote), named
    # «forum» as the parse_vote command and the JSON lines have always called it.
    vote_profile_name = "forum"

    # «По умолчанию считается, что игрок голосует сам за себя» (the engine's _settle_jail): the
    # count says it, or its «Не голосовали» disagrees with the results' «Голоса: …».
    not_voting_note = _("by the rules each of them votes for himself")

    def vote_profiles(self) -> dict:
        return {"forum": DEFAULT_PROFILE}

    # --- Automatic games: the engine decides what the GM would (docs/rulesets/forum.md,
    # "Automatic games"): a tie by lot, an order not sent is no action.
    auto_host = True

    def auto_host_choices(self) -> dict:
        return {"missing_shot": (_("A mafia shot nobody ordered"),
                                 (("none", _("does not happen")), ("lot", _("is aimed by lot"))), "none")}

    def auto_host_rules(self, *, game) -> list:
        by_lot = (game.options or {}).get("missing_shot") == "lot"
        return [
            _("The day ends at its deadline; the player with the most votes goes to jail. A tie between "
              "the leaders is broken by lot, drawn with the game's secret seed."),
            _("Orders are sent on the site (the order form on your role page) before the deadline; an order "
              "not sent is no action.") + " " + (
                _("When no mafioso orders the mafia's shot, the lot aims it at a player outside the mafia.")
                if by_lot else _("A mafia shot nobody ordered does not happen.")),
            _("Roles are revealed as the rules say; the winner is announced when one side has won."),
        ]


SITE = ForumSite()
