"""allauth customisation point (the only one, besides template overrides)."""

from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.utils.translation import gettext_lazy as _


class AccountAdapter(DefaultAccountAdapter):
    # allauth ships no Russian text for this one; ours is in our catalogue.
    error_messages = {
        **DefaultAccountAdapter.error_messages,
        "too_many_login_attempts": _("Too many failed login attempts. Try again later."),
    }

    def is_open_for_signup(self, request) -> bool:
        # Communities close signups during a wave of sock puppets without a redeploy.
        return getattr(settings, "MAFIA_SIGNUP_OPEN", True)
