"""gunicorn's configuration for the run command (Procfile): the log in the site's time zone from
the master's first line on (config/logtime.py). Everything else is given on the command line."""

from config.logtime import use_site_time_zone

use_site_time_zone()
