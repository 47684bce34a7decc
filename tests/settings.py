"""The settings the tests run with: the site's own, plus the rule sets only the tests register
(tests/rulesets/: `vanilla`, the worked example of docs/architecture.md, "Adding a rule set")."""

from config.settings import *  # noqa: F403 - the tests run the site's settings, with one more rule set
from config.settings import INSTALLED_APPS, MAFIA_RULESETS

MAFIA_RULESETS = [*MAFIA_RULESETS, "tests.rulesets.vanilla"]
INSTALLED_APPS = [*INSTALLED_APPS, "tests.rulesets.vanilla"]
