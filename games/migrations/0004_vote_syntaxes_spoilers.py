"""Issue 16: the English vote words become the `bold_vote` syntax a GM can switch off, so every
existing game keeps them on; votes inside spoilers become a game option (off by default)."""

from django.db import migrations, models

import games.models


def english_words_stay_on(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    for game in Game.objects.all().only("pk", "vote_syntaxes"):
        syntaxes = list(game.vote_syntaxes or [])
        if "bold_vote" not in syntaxes:
            game.vote_syntaxes = sorted({*syntaxes, "bold_vote"})
            game.save(update_fields=["vote_syntaxes"])


class Migration(migrations.Migration):
    dependencies = [("games", "0003_seat_overt_role_contacts")]

    operations = [
        migrations.AlterField(
            model_name="game",
            name="vote_syntaxes",
            field=models.JSONField(blank=True, default=games.models.default_vote_syntaxes, verbose_name="vote syntaxes"),
        ),
        migrations.AddField(
            model_name="game",
            name="count_spoiler_votes",
            field=models.BooleanField(default=False, verbose_name="votes inside spoilers count"),
        ),
        migrations.RunPython(english_words_stay_on, migrations.RunPython.noop),
    ]
