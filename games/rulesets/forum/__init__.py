"""The forum rule set (002): the classic forum mafia. Its pure engine is `engine.py`; `site.py`
is its adapter for the site."""
