"""The club rule set's adapter for the site."""

from django.utils.translation import gettext_lazy as _

from games.rulesets.base import SiteRuleset
from games.rulesets.club.engine import CLUB


class ClubSite(SiteRuleset):
    key = "club"
    label = _("Club mafia")
    engine = CLUB


SITE = ClubSite()
