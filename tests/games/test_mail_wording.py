"""The game e-mails (prods, digests) greet by display name and carry the site's name
(settings.MAFIA_SITE_NAME) and a link, never a host name or an internal username."""

from datetime import timedelta

from django.core import mail

from games.services.moderation import prods_send
from tests.games.conftest import NAMES


def test_prod_mail_greets_by_display_name_and_names_the_site_when_sent(started, settings):
    settings.MAFIA_SITE_NAME = "Мафия у Кикиморы"
    settings.MAFIA_SITE_URL = "https://mafia.example.org"
    sent = prods_send(now=started.current_phase.opened_at + timedelta(hours=25))
    assert sent and mail.outbox
    by_address = {seat.user.email: seat.user for seat in started.seats.select_related("user")}
    for message in mail.outbox:
        user = by_address[message.to[0]]
        assert user.display_name in message.body and user.display_name in NAMES
        assert user.username not in message.body
        assert "Мафия у Кикиморы" in message.subject and "Мафия у Кикиморы" in message.body
        assert f"https://mafia.example.org/games/{started.pk}/" in message.body
