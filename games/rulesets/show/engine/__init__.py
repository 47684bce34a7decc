"""The `show` rule set's pure engine (seed 000_b6489824f3cd169a.txt), part 1 of issue 18:

    roles.py    heroes and teams, the deal, keys (what a hero is NOT), innate keys, who wins, insomnia
    stages.py   the stage names, the GM's timer table, the options and their defaults
    keys.py     public keys, reveals, Secret Knowledge, in the state's memory
    facts.py    slaves, coma and today's judge read from a state
    ruleset.py  ShowRuleset: the protocol's face, what may be done now, who is awaited, /lull, waking
    close.py    StageClose: one stage's close from greetings to the morning
    privileges.py  part 3: the privileges and the carousel (privilege_keys.py: their keys)
    status.py   the public status and a hero's /fullstatus, each with its viewer

docs/rulesets/show.md explains every reading.
"""

from games.rulesets.show.engine.roles import default_roles, deal, innate_keys, keys_of, winner_of
from games.rulesets.show.engine.ruleset import SHOW, ShowRuleset
from games.rulesets.show.engine.stages import parse_phase

__all__ = ["SHOW", "ShowRuleset", "deal", "default_roles", "innate_keys", "keys_of", "parse_phase", "winner_of"]
