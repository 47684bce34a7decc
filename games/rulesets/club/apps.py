from games.rulesets import base


class ClubRulesetConfig(base.RulesetAppConfig):
    name = "games.rulesets.club"
    label = "ruleset_club"
