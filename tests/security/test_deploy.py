"""Production settings (issue 8). `manage.py check --deploy --fail-level WARNING` with the
production environment is tested in tests/test_settings.py
(test_check_deploy_is_clean_when_production_settings_given); this adds what a deploy behind a
reverse proxy needs for the login rate limits to count per client (docs/security.md)."""

import subprocess
import sys

from tests.test_settings import PRODUCTION, ROOT, _env

PROBE = ("import django; django.setup(); from django.conf import settings as s; "
         "print(repr(getattr(s, 'ALLAUTH_TRUSTED_PROXY_COUNT', None)), s.SECURE_PROXY_SSL_HEADER)")


def _proxy_settings(tmp_path, **overrides) -> str:
    result = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=_env(MAFIA_VAR_DIR=str(tmp_path), **overrides),
                            capture_output=True, text=True, check=True)
    return result.stdout.strip().splitlines()[-1]


def test_behind_a_proxy_allauth_reads_the_client_address_from_the_last_proxy(tmp_path):
    assert _proxy_settings(tmp_path, **PRODUCTION, DJANGO_BEHIND_PROXY="1") == "1 ('HTTP_X_FORWARDED_PROTO', 'https')"
    assert _proxy_settings(tmp_path, **PRODUCTION, DJANGO_BEHIND_PROXY="1", DJANGO_TRUSTED_PROXY_COUNT="2").startswith("2 ")
    # Without a proxy, X-Forwarded-For is whatever the client says: never trusted.
    assert _proxy_settings(tmp_path, **PRODUCTION) == "None None"
