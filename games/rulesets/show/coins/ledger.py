"""The show's money on the site (issue 19): the engine's account references mapped to the coins
ledger's keys and a stage's transfers posted to the ledger.

The engine names accounts by seat (`hero:<seat>`, `escrow:<seat>`) and by the show (`bank`,
`pot`); the ledger keys them site-wide: a hero's coins are his user's balance (`user:<id>`, across
all his games), the show's own accounts are `game:<id>:bank|pot|escrow:<seat>`. A close posts its
`Resolution.outcome["transfers"]` with `post_transfers` inside its own transaction, so the stage
and its money commit together. The lines' words (reason, detail, stage) are wording.ledger_text's,
which the «Баланс» page asks through coins.wording.register_game_words (site.py).
"""

from __future__ import annotations

import uuid

from django.utils.translation import gettext_lazy as _

from coins import services as coins
from games.models import Game, Seat
from games.rulesets.show.engine.coins import BANK, POT, Transfer, seat_of


def account_key(game: Game, reference: str, users_by_seat: dict[int, int]) -> str:
    """The ledger's key of an engine account reference in `game`."""
    if reference in (BANK, POT):
        return coins.game_key(game, reference)
    seat = seat_of(reference)
    if seat is None or seat not in users_by_seat:
        raise coins.LedgerError(_("Unknown coin account: %(key)s") % {"key": reference})
    if reference.startswith("hero:"):
        return coins.user_key(users_by_seat[seat])
    return coins.game_key(game, f"escrow:{seat}")


def post_transfers(*, game: Game, transfers: list, stage: str = "", action: str = "close") -> uuid.UUID | None:
    """Post a stage's transfers (Transfer objects or their dicts) as one batch; None when there are none."""
    items = [t if isinstance(t, Transfer) else Transfer.from_dict(t) for t in transfers or ()]
    if not items:
        return None
    users_by_seat = dict(Seat.objects.filter(game=game).values_list("pk", "user_id"))
    lines = [coins.Line(account_key(game, t.debit, users_by_seat), account_key(game, t.credit, users_by_seat),
                        t.amount, t.reason, t.detail) for t in items]
    return coins.post(lines, game=game, stage=stage, action=action)
