"""The cards rule set (001): the card mafia. Its pure engine is the `engine` package; `site.py`
is its adapter for the site."""
