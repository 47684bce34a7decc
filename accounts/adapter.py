"""allauth customisation point (the only one, besides template overrides)."""

from dataclasses import dataclass
from urllib.parse import urlsplit

from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.utils.encoding import force_str
from django.utils.translation import gettext_lazy as _


def user_display(user) -> str:
    """How allauth names a user in its messages and e-mails (ACCOUNT_USER_DISPLAY): the display
    name everybody knows him by; the username is internal."""
    return getattr(user, "display_name", "") or getattr(user, "username", "") or ""


@dataclass(frozen=True)
class SiteIdentity:
    """What allauth's templates read from `current_site`: the site's name (MAFIA_SITE_NAME), not
    the host a request came to, and its domain as the public address (MAFIA_SITE_URL) has it."""

    name: str
    domain: str


def site_identity() -> SiteIdentity:
    return SiteIdentity(name=settings.MAFIA_SITE_NAME, domain=urlsplit(settings.MAFIA_SITE_URL).netloc)


class AccountAdapter(DefaultAccountAdapter):
    # allauth ships no Russian text for this one; ours is in our catalogue.
    error_messages = {
        **DefaultAccountAdapter.error_messages,
        "too_many_login_attempts": _("Too many failed login attempts. Try again later."),
    }

    def is_open_for_signup(self, request) -> bool:
        # Communities close signups during a wave of sock puppets without a redeploy.
        return getattr(settings, "MAFIA_SIGNUP_OPEN", True)

    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        # Without the sites framework allauth names the site by the request's host («127.0.0.1:8000»).
        super().send_mail(template_prefix, email,
                          {**context, "current_site": site_identity(), "site_url": settings.MAFIA_SITE_URL})

    def format_email_subject(self, subject: str) -> str:
        return f"[{settings.MAFIA_SITE_NAME}] {force_str(subject)}"
