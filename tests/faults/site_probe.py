"""Test-only: the site in a process of its own, configured from the environment exactly as a web
process is (REDIS_URL, DATABASE_URL...), driven with Django's test client.

`python -m tests.faults.site_probe` reads a JSON list of steps on stdin, each
{"get": url} or {"post": url, "data": {...}}, with "as": a user id (logged in) or null, and
prints one JSON list of {"url", "status", "location", "body"} on stdout. Warnings go to stderr.
"""

import json
import os
import sys


def main() -> None:
    steps = json.load(sys.stdin)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.test import Client
    from django.test.utils import setup_test_environment

    from accounts.models import User

    setup_test_environment()  # the test client's host name, mail kept in memory
    clients: dict = {}
    results = []
    for step in steps:
        who = step.get("as")
        if who not in clients:
            clients[who] = Client()
            if who is not None:
                clients[who].force_login(User.objects.get(pk=who))
        client = clients[who]
        if "post" in step:
            url, response = step["post"], client.post(step["post"], step.get("data") or {})
        else:
            url, response = step["get"], client.get(step["get"])
        results.append({"url": url, "status": response.status_code, "location": response.get("Location", ""),
                        "body": response.content.decode("utf-8", "replace")})
    sys.stdout.write(json.dumps(results, ensure_ascii=False))


if __name__ == "__main__":
    main()
