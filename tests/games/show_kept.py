"""A show scenario file played through the site and kept, for the show's site tests to read its
pages (one helper: the copies in test_show_coins and test_show_words were the same lines)."""

from __future__ import annotations

from pathlib import Path

import yaml

from games.models import Game

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios" / "show"


def kept_show(tmp_path, file: str, stages: int | None = None, *, options: dict | None = None,
              phase_expectations: bool = True):
    """`file`'s first `stages` stages (all by default) played through the site, with `options` over
    the file's; returns the game and its users and seats by the heroes' names. A cut file drops its
    end's expectations; `phase_expectations=False` drops each stage's too (they may speak of the
    file's own options or of a later stage)."""
    from games import scenarios  # the scenario player imports the site's services: read at call time

    data = yaml.safe_load((SCENARIOS / file).read_text("utf-8"))
    if stages is not None:
        data["phases"] = data["phases"][:stages]
        data.pop("expect", None)
    if options:
        data["options"] = {**data.get("options", {}), **options}
        data.pop("expect", None)
    if not phase_expectations:
        for phase in data["phases"]:
            phase.pop("expect", None)
    path = tmp_path / "show.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    report = scenarios.play(str(path), keep=True)
    assert all(not p.diffs for p in report.phases), [p.diffs for p in report.phases]
    game = Game.objects.filter(ruleset="show").latest("pk")
    users = {s.dealt_name: s.user for s in game.seats.select_related("user")}
    seats = {s.dealt_name: s for s in game.seats.all()}
    return game, users, seats
