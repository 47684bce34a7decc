from games.rulesets import base


class ForumRulesetConfig(base.RulesetAppConfig):
    name = "games.rulesets.forum"
    label = "ruleset_forum"
