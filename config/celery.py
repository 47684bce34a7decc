"""The Celery app: tasks autodiscovered from the installed apps, settings under CELERY_*."""

import os

from celery import Celery

from config.logtime import use_site_time_zone

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# The worker and beat log in the site's time zone from their first line, as the web does.
use_site_time_zone()

app = Celery("mafia")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

