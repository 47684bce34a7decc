"""The Moderators group: its members moderate every thread (managed in the admin)."""

from django.db import migrations


def create_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.get_or_create(name="Moderators")


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name="Moderators").delete()


class Migration(migrations.Migration):
    dependencies = [("accounts", "0002_moderation"), ("auth", "0012_alter_user_first_name_max_length")]
    operations = [migrations.RunPython(create_group, remove_group)]
