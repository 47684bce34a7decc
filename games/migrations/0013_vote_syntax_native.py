"""Issue 29: the rule set's own vote words («[b]В тюрьму Негодяя[/b]») become the `native` syntax a
GM can switch off («in a game set to `##vote` only, a bold name or a bold «vote X» without the `##`
is talk, not a vote»). They were always on, so every existing game keeps them: `native` joins its
list. No schema change: the field's default (games.models.default_vote_syntaxes) now names it."""

from django.db import migrations

BATCH = 2000


def rule_set_words_stay_on(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    changed = []
    for game in Game.objects.only("pk", "vote_syntaxes").iterator(chunk_size=BATCH):
        syntaxes = list(game.vote_syntaxes or [])
        if "native" not in syntaxes:
            game.vote_syntaxes = sorted({*syntaxes, "native"})
            changed.append(game)
        if len(changed) >= BATCH:
            Game.objects.bulk_update(changed, ["vote_syntaxes"])
            changed = []
    if changed:
        Game.objects.bulk_update(changed, ["vote_syntaxes"])


def rule_set_words_always_on(apps, schema_editor):
    """Back to when the rule set's words could not be switched off: the name leaves the lists."""
    Game = apps.get_model("games", "Game")
    changed = []
    for game in Game.objects.only("pk", "vote_syntaxes").iterator(chunk_size=BATCH):
        if "native" in (game.vote_syntaxes or []):
            game.vote_syntaxes = [s for s in game.vote_syntaxes if s != "native"]
            changed.append(game)
    Game.objects.bulk_update(changed, ["vote_syntaxes"], batch_size=BATCH)


class Migration(migrations.Migration):
    dependencies = [("games", "0012_post_search_vector")]

    operations = [migrations.RunPython(rule_set_words_stay_on, rule_set_words_always_on)]
