from games.rulesets import base


class CardsRulesetConfig(base.RulesetAppConfig):
    name = "games.rulesets.cards"
    label = "ruleset_cards"
