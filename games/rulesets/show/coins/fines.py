"""Fines for the seed's forbidden acts («Запреты»: screenshots revealing private information;
oaths and bets as persuasion), decided by the show's GM or a site moderator and paid through the
coins ledger: «первый сообщивший об этом получит анонимно сумму в 1000㉿ с Баланса нарушителя»."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from coins import services as coins
from coins.models import Fine
from games.models import Game, Seat
from games.permissions import is_game_master, is_site_moderator
from games.services import ActionRefused
from games.services.journal import gm_log


def may_fine(user, game: Game) -> bool:
    """The game's GMs and the site's moderators decide fines (they also see who reported)."""
    return is_game_master(user, game) or is_site_moderator(user)


def show_fine(*, game: Game, by, offender: Seat, reporter, report: str, decision: str,
              now: datetime | None = None) -> Fine:
    """Fine the hero in `offender`'s seat for `reporter`'s report. The GM's log (public after the
    end) names the offender and the amount, never the reporter."""
    if not may_fine(by, game):
        raise ActionRefused(_("Only the GM or a site moderator fines a hero."), code="not_allowed")
    if offender is None or offender.game_id != game.pk:
        raise ActionRefused(_("Pick the offender among the show's heroes."), code="bad_target")
    if reporter is None:
        raise ActionRefused(_("No user has that display name."), code="bad_reporter")
    try:
        with transaction.atomic():
            record = coins.fine(offender.user, reporter, by=by, game=game, report=report, decision=decision)
            gm_log(game=game, user=by, action="fine",
                   data={"offender": offender.dealt_name or offender.user.display_name, "amount": record.amount},
                   now=now)
    except coins.LedgerError as error:
        raise ActionRefused(str(error), code="bad_fine") from None
    return record


def fines_of(game: Game):
    """The show's fines with their reporters, for the GMs and moderators (the caller checks)."""
    return Fine.objects.filter(game=game).select_related("offender", "reporter", "decided_by").order_by("-created_at")
