"""Every user who existed before the ledger gets his starting capital from the mint, so that the
sum rule (the mint is minus everything created) holds from the first day."""

import uuid

from django.conf import settings
from django.db import migrations

START_CAPITAL = 1000  # coins.services.START_CAPITAL at the time of this migration


def capital_for_existing_users(apps, schema_editor):
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    Account = apps.get_model("coins", "Account")
    Entry = apps.get_model("coins", "Entry")
    mint, _created = Account.objects.get_or_create(key="mint")
    paid = set(Entry.objects.filter(reason="registration").values_list("credit__user_id", flat=True))
    for user in User.objects.exclude(pk__in=[pk for pk in paid if pk is not None]).order_by("pk"):
        account, _created = Account.objects.get_or_create(key=f"user:{user.pk}", defaults={"user_id": user.pk})
        Entry.objects.create(batch=uuid.uuid4(), debit=mint, credit=account, amount=START_CAPITAL,
                             reason="registration", detail="")
        account.balance += START_CAPITAL
        account.save(update_fields=["balance"])
        mint.balance -= START_CAPITAL
    mint.save(update_fields=["balance"])


class Migration(migrations.Migration):
    dependencies = [
        ("coins", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(capital_for_existing_users, migrations.RunPython.noop)]
