"""The vanilla rule set's adapter for the site: the defaults of SiteRuleset (the plain forum game's)
serve it, so it names itself, its engine and its words, and nothing else."""

from django.utils.translation import gettext_lazy as _

from games.rulesets.base import SiteRuleset
from tests.rulesets.vanilla.engine import VANILLA
from tests.rulesets.vanilla.wording import WORDING


class VanillaSite(SiteRuleset):
    key = "vanilla"
    label = _("Vanilla mafia")
    engine = VANILLA
    wording = WORDING


SITE = VanillaSite()
