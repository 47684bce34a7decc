"""The coins ledger (issue 19): accounts, the immutable double-entry lines between them, fines and
the users' ИндиКоды. Persistence only; every write goes through coins.services.

Amounts are plain integers of whole coins (㉿): there is one unit, no fractions and no conversion,
so a money type (py-moneyed, django-money) would only wrap an int (docs/architecture.md, "Coins").
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


def user_key(user_or_id) -> str:
    """The key of a user's account: `user:<id>`."""
    return f"user:{int(getattr(user_or_id, 'pk', user_or_id))}"


def game_key(game_or_id, name: str) -> str:
    """The key of a game's own account, `game:<id>:<name>`: name is `bank`, `pot` or `escrow:<seat id>`."""
    return f"game:{int(getattr(game_or_id, 'pk', game_or_id))}:{name}"


class Account(models.Model):
    """One balance: a user's (`user:<id>`), the mint's (`mint`, where registrations' coins come
    from: it is minus everything ever created), or a game's own (`game:<id>:bank`, `game:<id>:pot`,
    `game:<id>:escrow:<seat id>`). `balance` is a cache of the ledger's sum, updated in the same
    transaction as the lines; coins.services.check() recomputes it."""

    key = models.CharField(_("key"), max_length=80, unique=True)
    # The key stays when a user or a game is deleted, so the ledger's history keeps its sides.
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="coin_accounts", verbose_name=_("user"))
    game = models.ForeignKey("games.Game", on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="coin_accounts", verbose_name=_("game"))
    balance = models.BigIntegerField(_("balance"), default=0)
    created_at = models.DateTimeField(_("created"), default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("coin account")
        verbose_name_plural = _("coin accounts")

    def __str__(self) -> str:
        return f"{self.key}: {self.balance}"


class EntryQuerySet(models.QuerySet):
    """Ledger lines are written once: a bulk update or delete is refused like a single one."""

    def update(self, **kwargs):
        raise ImmutableEntry("ledger lines are never changed; post a correcting transfer instead")

    def delete(self):
        raise ImmutableEntry("ledger lines are never deleted; post a correcting transfer instead")


class ImmutableEntry(Exception):
    """An attempt to change or delete a written ledger line."""


class Entry(models.Model):
    """One movement of coins: `amount` leaves `debit` and reaches `credit`. The lines of one act
    (a stage's close, a registration with its referral bonus, a fine) share a `batch`."""

    batch = models.UUIDField(_("batch"), db_index=True, editable=False)
    debit = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="debits", verbose_name=_("debited account"))
    credit = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="credits", verbose_name=_("credited account"))
    amount = models.BigIntegerField(_("amount"))
    reason = models.CharField(_("reason"), max_length=40)
    detail = models.CharField(_("detail"), max_length=300, blank=True)
    # What caused it: the game, its stage (the phase's name) and the action; empty for site-wide acts.
    # A game whose coins moved keeps its ledger: it cannot be deleted (SET_NULL would be an update
    # of written lines, which the ledger refuses).
    game = models.ForeignKey("games.Game", on_delete=models.PROTECT, null=True, blank=True, related_name="+",
                             verbose_name=_("game"))
    stage = models.CharField(_("stage"), max_length=64, blank=True)
    action = models.CharField(_("action"), max_length=64, blank=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now, editable=False, db_index=True)

    objects = EntryQuerySet.as_manager()

    class Meta:
        verbose_name = _("ledger line")
        verbose_name_plural = _("ledger lines")
        constraints = [
            models.CheckConstraint(condition=models.Q(amount__gt=0), name="coins_entry_amount_positive"),
            models.CheckConstraint(condition=~models.Q(debit=models.F("credit")), name="coins_entry_two_accounts"),
        ]

    def __str__(self) -> str:
        return f"{self.debit_id} → {self.credit_id}: {self.amount} ({self.reason})"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise ImmutableEntry("ledger lines are never changed; post a correcting transfer instead")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ImmutableEntry("ledger lines are never deleted; post a correcting transfer instead")


class IndiCode(models.Model):
    """A user's ИндиКод: a memorable code of Russian words, made on his first entry into a show,
    shown on his profile, typed or picked by a newcomer to give him the referral bonus."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="indicode",
                                verbose_name=_("user"))
    code = models.CharField(_("IndiCode"), max_length=80, unique=True)
    # The code folded for comparison (case, ё/е, separators): what a typed code is looked up by.
    key = models.CharField(max_length=80, unique=True, editable=False)
    created_at = models.DateTimeField(_("created"), default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("IndiCode")
        verbose_name_plural = _("IndiCodes")

    def __str__(self) -> str:
        return self.code

    def save(self, *args, **kwargs):
        self.key = code_key(self.code)
        super().save(*args, **kwargs)


def code_key(text: str) -> str:
    """The form in which two ИндиКоды are the same: «Весёлый синий кит» is «веселый-синий-кит»."""
    words = "".join(c if c.isalnum() else " " for c in (text or "")).split()
    return "-".join(words).casefold().replace("ё", "е")


class Fine(models.Model):
    """A fine for one of the seed's forbidden acts («Запреты»): the report, who decided and how,
    and the ledger batch that moved the coins from the offender to the first reporter. The
    reporter is known to the GMs and the site's moderators only."""

    offender = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                 verbose_name=_("offender"))
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                 verbose_name=_("reporter"))
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                   verbose_name=_("decided by"))
    game = models.ForeignKey("games.Game", on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
                             verbose_name=_("game"))
    amount = models.BigIntegerField(_("amount"))
    report = models.TextField(_("reported act"))
    decision = models.TextField(_("decision"))
    batch = models.UUIDField(_("batch"), unique=True, editable=False)
    created_at = models.DateTimeField(_("created"), default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("fine")
        verbose_name_plural = _("fines")

    def __str__(self) -> str:
        return f"{self.offender_id}: {self.amount}"
