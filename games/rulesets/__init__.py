"""The rule sets, one package each (`forum`, `club`, `cards`, ...): everything a rule set adds to
the site lives in its package, and the core finds it through `games.rulesets.registry`.

This module imports nothing, so that a rule set's pure engine module (`<key>/engine.py`) can be
imported without Django.
"""
