"""The `vanilla` rule set: a plain day/night game the tests register (tests/settings.py) to prove
that a rule set is added without touching the site's core (docs/architecture.md, "Adding a rule set")."""
