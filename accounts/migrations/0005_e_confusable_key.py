"""The look-alike key of display names (accounts/confusables.py), filled for existing users.

Existing users whose names already look alike keep their names: the oldest account gets the plain
key, each later one the key with its id appended, so the unique constraint holds and any new name
that looks like theirs is still refused (it meets the oldest one's key)."""

from django.db import migrations, models


def backfill(apps, schema_editor):
    from accounts.confusables import confusable_key

    User = apps.get_model("accounts", "User")
    seen = set()
    for user in User.objects.order_by("pk").only("pk", "display_name", "username").iterator():
        key = confusable_key(user.display_name or user.username)
        if key in seen:
            key = f"{key}#{user.pk}"
        seen.add(key)
        User.objects.filter(pk=user.pk).update(display_name_confusable_key=key)


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0004_notifications_search"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="display_name_confusable_key",
            field=models.CharField(editable=False, max_length=160, null=True),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="user",
            name="display_name_confusable_key",
            field=models.CharField(editable=False, max_length=160, unique=True),
        ),
    ]
