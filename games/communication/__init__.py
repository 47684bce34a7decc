"""How the players of a game talk beside the public thread (docs/architecture.md, "Private
communication"), one module per channel:

- `private_tag`: the `[private="Name"]` messages inside game-thread posts (checked before the
  post is stored, kept apart from the public HTML, shown per viewer through games.permissions);
- `anonymous`: anonymous messages through the GM;
- `rooms`: chat rooms agreed in the posts' comment field;
- `letters`: what the site writes as the GM in a player's letters to the GM (private results,
  order confirmations, corrections) and the helpers a rule set uses to write its own letters.

What differs per rule set (the default mode of private messages, who may open a room of another
size, the messages a rule set delivers itself at a close) is asked of the rule set's adapter
(games.rulesets.base.SiteRuleset, "Talking"); this package names no rule set.
"""
