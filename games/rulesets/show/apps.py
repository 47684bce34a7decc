# The base class is reached through its module: Django picks the one AppConfig subclass found in
# apps.py, so importing RulesetAppConfig itself here would make two.
from games.rulesets import base


class ShowRulesetConfig(base.RulesetAppConfig):
    name = "games.rulesets.show"
    label = "ruleset_show"
