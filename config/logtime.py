"""One time zone in the log of every process the run command starts (gunicorn's master and
workers, the Celery worker, beat): the site's, settings.TIME_ZONE.

Django moves TIME_ZONE into the process's TZ when its settings load, so a process logs in UTC
until then and in the site's zone after: gunicorn's master (which never loads the site) and
Celery's first lines were in UTC, the rest in Moscow time. Loading the zone first thing, in the
gunicorn configuration and when the Celery app is imported, makes every line use the site's."""

import os
import time


def use_site_time_zone() -> str:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.conf import settings

    os.environ["TZ"] = settings.TIME_ZONE
    time.tzset()
    return settings.TIME_ZONE
