"""Seat.dealt_role: the role the commitment hashed. Games dealt before it was kept get it from the
first resolution's snapshot of the seats (Phase.state_before, taken before any rule changed a
role), or from the role they hold now when no phase was resolved yet."""

from django.db import migrations, models


def fill_dealt_roles(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Phase = apps.get_model("games", "Phase")
    Seat = apps.get_model("games", "Seat")
    for game in Game.objects.exclude(commitment="").iterator():
        first = (Phase.objects.filter(game=game).exclude(state_before={})
                 .order_by("opened_at", "pk").first())
        snapshot = (first.state_before or {}).get("seats", {}) if first is not None else {}
        seats = list(Seat.objects.filter(game=game))
        for seat in seats:
            saved = snapshot.get(str(seat.pk))
            seat.dealt_role = saved[1] if saved else seat.role
        Seat.objects.bulk_update(seats, ["dealt_role"])


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0009_post_shown_author"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="dealt_role",
            field=models.CharField(blank=True, editable=False, max_length=32, verbose_name="role at the deal"),
        ),
        migrations.RunPython(fill_dealt_roles, migrations.RunPython.noop),
    ]
