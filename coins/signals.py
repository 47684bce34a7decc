"""Every new user gets his starting capital from the mint in the transaction that creates him,
whichever way he is created (the signup, the admin, createsuperuser, a scenario's players), so
the sum rule holds for every user (docs/architecture.md, "Coins")."""

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver

from coins.services import register


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="coins_register_new_user")
def new_user_registered(sender, instance, created: bool, raw: bool = False, **kwargs) -> None:
    if created and not raw:
        register(instance)
