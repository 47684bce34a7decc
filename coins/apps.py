from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CoinsConfig(AppConfig):
    name = "coins"
    verbose_name = _("Coins")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Every new user gets his starting capital from the mint, whichever way he was created.
        from coins import signals  # noqa: F401 - connects the receivers
