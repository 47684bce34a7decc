"""The show's privileges on the site (part 3, docs/rulesets/show.md "Part 3 on the site"): their rows of the
order ledger (ledger.py), each holder's input checked and written (services.py), the privilege panel and the
Секретарь's live view (selectors.py, views.py) and their site words (wording.py)."""
