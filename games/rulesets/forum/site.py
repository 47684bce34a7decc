"""The forum rule set's adapter for the site: the defaults of SiteRuleset are the forum's."""

from django.utils.translation import gettext_lazy as _

from games.rulesets.base import SiteRuleset
from games.rulesets.forum.engine import FORUM


class ForumSite(SiteRuleset):
    key = "forum"
    label = _("Forum mafia")
    engine = FORUM


SITE = ForumSite()
