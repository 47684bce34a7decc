"""The show's coins on the site (part 2, docs/rulesets/show.md "Part 2 on the site"): the engine's accounts
posted to the coins ledger (ledger.py), the heroes' part 2 inputs (services.py), what the panels, «Баланс»,
«Обо мне» and «Итоги Шоу» read (selectors.py), and the fines for forbidden acts (fines.py, views.py)."""
