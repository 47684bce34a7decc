"""Rule sets the tests register besides the site's own (tests/settings.py)."""
