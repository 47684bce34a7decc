"""The club rule set (003): the club mafia at a table. Its pure engine is `engine.py`; `site.py`
is its adapter for the site."""
