"""The `show` rule set (seed 000_b6489824f3cd169a.txt): «Шоу», a forum game of heroes, slaves and keys."""
