"""The site's error pages (issue 14, item 8): in the site's language, in its layout where Django
gives the request, and rendering without one (400, 500) where it does not. The run command's
production settings themselves are tested with real servers in tests/faults/test_multiprocess_fresh.py."""

import pytest
from django.test import Client, RequestFactory
from django.utils import translation
from django.views import defaults

from tests.conftest import client_for


def _ru(text: str) -> str:
    with translation.override("ru"):
        return translation.gettext(text)


@pytest.mark.parametrize(("view", "title"), [(defaults.server_error, "Server error"), (defaults.bad_request, "Bad request")])
def test_error_page_renders_in_russian_when_rendered_without_the_request(view, title):
    request = RequestFactory().get("/")
    with translation.override("ru"):
        response = view(request) if view is defaults.server_error else view(request, Exception("bad"))
    html = response.content.decode()
    assert response.status_code in (400, 500)
    assert _ru(title) in html and 'lang="ru"' in html
    assert "Мафия" in html or _ru("Mafia by post") in html


def test_missing_page_is_the_sites_russian_404_when_debug_is_off(db, settings, town_player):
    settings.DEBUG = False
    response = client_for(town_player).get("/no-such-page/")
    html = response.content.decode()
    assert response.status_code == 404
    assert "Страница не найдена" in html and "site-header" in html and "URLconf" not in html


def test_refused_form_is_the_sites_page_when_the_csrf_token_is_missing(db, town_player, game):
    client = Client(enforce_csrf_checks=True)
    client.force_login(town_player)
    response = client.post(f"/threads/{game.game_thread_id}/reply/", {"body": "без токена"})
    html = response.content.decode()
    assert response.status_code == 403
    assert _ru("The form has expired") in html and "site-header" in html
    assert "CSRF verification failed" not in html and "Ошибка проверки CSRF" not in html


def test_run_command_is_production_like_when_debug_is_not_asked():
    """./bin/site and every Procfile line default DJANGO_DEBUG to 0; bin/site collects the
    static files the manifest storage needs before starting them."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    site = (root / "bin" / "site").read_text()
    assert 'export DJANGO_DEBUG="${DJANGO_DEBUG:-0}"' in site
    # prepare_site migrates, collects the static files (when they changed) and loads the demo.
    assert site.index("prepare_site") < site.index("honcho start")
    assert "collectstatic" in (root / "games" / "management" / "commands" / "prepare_site.py").read_text()
    assert site.index("use_site_time_zone") < site.index("honcho start")  # honcho's time stamps too
    for line in (root / "Procfile").read_text().splitlines():
        if line.strip():
            assert line.split(":", 1)[1].strip().startswith("DJANGO_DEBUG=${DJANGO_DEBUG:-0} "), line
