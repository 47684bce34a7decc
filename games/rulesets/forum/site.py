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

    def vote_profiles(self) -> dict:
        return {"forum": DEFAULT_PROFILE}


SITE = ForumSite()
