"""Site settings: everything comes from the environment, with one embedded default (SQLite,
no external service) so that a fresh checkout runs. See docs/architecture.md, "Settings"."""

import os
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("MAFIA_VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# On for `manage.py` and the tests; the run command for people (bin/site, the Procfile) turns it
# off unless DJANGO_DEBUG=1 is given (docs/architecture.md, "Settings").
DEBUG = env_bool("DJANGO_DEBUG", True)


def secret_key_from_file(path: Path) -> str:
    """The key kept in `path` (owner-only), generated on first use. Every process of the machine
    (web workers, Celery, manage.py) and every restart reads the same key, so sessions, password
    reset links and signed cookies stay valid. Created by a hard link from a complete temporary
    file, so processes starting together never read half a key and all end with the first one."""
    import secrets

    try:
        key = path.read_text(encoding="ascii").strip()
        if key:
            return key
    except FileNotFoundError:
        pass
    temporary = path.with_name(f".{path.name}.{os.getpid()}")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="ascii") as out:
        out.write(secrets.token_urlsafe(50) + "\n")
    try:
        os.link(temporary, path)
    except FileExistsError:
        pass
    finally:
        temporary.unlink()
    return path.read_text(encoding="ascii").strip()


SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY") or secret_key_from_file(VAR_DIR / "secret_key")


def default_allowed_hosts(bind: str) -> list[str]:
    """The host names the site answers to when DJANGO_ALLOWED_HOSTS is not set: this machine's
    loopback names, plus the address MAFIA_BIND listens on; when it listens on every address
    (0.0.0.0, ::), this machine's name and addresses. A public name needs DJANGO_ALLOWED_HOSTS."""
    import socket

    hosts = ["localhost", "127.0.0.1", "[::1]"]
    host = bind.rpartition(":")[0] if ":" in bind else bind
    host = host.strip("[]")
    if host in ("", "0.0.0.0", "::"):
        try:
            name = socket.gethostname()
            found = [name, socket.getfqdn(name), *socket.gethostbyname_ex(name)[2]]
        except OSError:
            found = []
    else:
        found = [f"[{host}]" if ":" in host else host]
    return hosts + [item for item in dict.fromkeys(found) if item and item not in hosts]


ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS") or default_allowed_hosts(os.environ.get("MAFIA_BIND", "127.0.0.1:8000"))
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")
# A refused form gets a page in the site's language saying what to do (templates/403_csrf.html).
CSRF_FAILURE_VIEW = "config.views.csrf_failure"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_htmx",
    "template_partials",
    "allauth",
    "allauth.account",
    "accounts",
    "games",
    "coins",
]

# The rule sets the site hosts, one package (a Django app) each: adding a rule set is adding its
# package and one line here (docs/architecture.md, "Adding a rule set"). The order is the order
# of the game-creation form's choices; the first is the default.
MAFIA_RULESETS = ["games.rulesets.forum", "games.rulesets.club", "games.rulesets.cards", "games.rulesets.show"]
INSTALLED_APPS += MAFIA_RULESETS

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Refuses a body over MAFIA_REQUEST_MAX_BYTES from its Content-Length, before anything reads
    # it (config/upload_limits.py); before the middleware below, which reads posted forms.
    "config.upload_limits.RequestSizeLimitMiddleware",
    # Removes NUL and other control characters from every query string and posted form
    # (config/input_sanitising.py, docs/security.md).
    "config.input_sanitising.ControlCharacterMiddleware",
    # Content-Security-Policy on every page, page-cache hits included (docs/security.md, "Headers").
    "csp.middleware.CSPMiddleware",
    # Answers reloads of thread pages from the page cache before the rest (games/caching/middleware.py).
    "games.caching.middleware.ThreadPageCacheMiddleware",
    # Answers the vote-count fragment's revalidations with 304 before the rest (games/caching/conditional.py).
    "games.caching.middleware.VoteCountConditionalMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Cache-Control: private, no-store for a logged-in user's pages; inside the page cache so that
    # a kept page carries it (config/middleware.py).
    "config.middleware.PrivateResponsesMiddleware",
    "accounts.middleware.UserPreferencesMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.context_processors.notifications",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------
# Embedded default: a SQLite file. IMMEDIATE transactions because SQLite ignores
# select_for_update and, with deferred transactions, most concurrent writers fail with
# "database is locked" (measured, shared/NOTES.md).
SQLITE_PATH = VAR_DIR / "db.sqlite3"
if os.environ.get("DATABASE_URL"):
    DATABASES = {"default": dj_database_url.parse(os.environ["DATABASE_URL"], conn_max_age=60)}
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": SQLITE_PATH,
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
            # A file, not :memory:, so that a Celery worker started by a test sees the test data.
            "TEST": {"NAME": os.environ.get("MAFIA_TEST_DB_NAME") or str(VAR_DIR / "test-db.sqlite3")},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# On PostgreSQL, the posting path's statements (the locking read, the roster, the post's INSERT, the
# count, the read mark) are prepared by the server once per connection (config/prepared.py); every
# other query keeps Django's client-side binding. Off (0) behind a pooler in transaction mode that
# does not carry prepared statements over (PgBouncer before 1.21).
MAFIA_DB_PREPARED_STATEMENTS = env_bool("MAFIA_DB_PREPARED_STATEMENTS", True)

# --- Cache, Celery ----------------------------------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL and os.environ.get("PYTEST_XDIST_WORKER", "").startswith("gw"):
    # Parallel test workers (pytest-xdist) share one Redis server: each gets a database of its own
    # (gw0 -> 1, gw1 -> 2, ...), as each gets its own test database, so that one worker's
    # cache.clear() (FLUSHDB) and write counters (keyed by row ids both workers use) never reach
    # another's, nor do its Celery tasks. The processes a test starts inherit the variable.
    from urllib.parse import urlsplit, urlunsplit

    _parts = urlsplit(REDIS_URL)
    _db = 1 + int(os.environ["PYTEST_XDIST_WORKER"][2:] or 0)
    REDIS_URL = urlunsplit(_parts._replace(path=f"/{_db}"))
if REDIS_URL:
    # Fails soft: with Redis down or hung, pages render and posts go through from the database
    # alone (config/cache.py, docs/faults.md); the timeouts bound what a hung Redis costs.
    CACHES = {"default": {"BACKEND": "config.cache.FailSoftRedisCache", "LOCATION": REDIS_URL,
                          "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
                          # Lets two sites (or a benchmark) share one Redis database.
                          "KEY_PREFIX": os.environ.get("MAFIA_CACHE_PREFIX", "")}}
    CELERY_BROKER_URL = REDIS_URL
    # Without socket timeouts a publish to a hung Redis waits forever (measured: docs/faults.md).
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600, "socket_connect_timeout": 2, "socket_timeout": 3}
else:
    # One cache for every process of the machine, without a server: SQLite files in var/cache/
    # (diskcache, config/cache.py). Not the local-memory cache: with two gunicorn workers and a
    # Celery worker each would keep its own pages and write counters, and serve stale ones. Not
    # Django's file or database cache: their increments are not atomic, which rate limits need.
    # Owner-only: its values are pickles.
    # (Parallel test workers, pytest-xdist, each get a folder of their own, as each gets its own
    # test database: one worker's cache.clear() must not empty another's.)
    _cache_dir = VAR_DIR / "cache" / os.environ.get("PYTEST_XDIST_WORKER", "")
    _cache_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    CACHES = {"default": {"BACKEND": "config.cache.SharedDiskCache", "LOCATION": str(_cache_dir),
                          "OPTIONS": {"size_limit": 2**30}}}
    # A broker that needs no server: kombu's filesystem transport, a folder of message files
    # shared by the web process, the worker and beat on one machine. The host name is ignored;
    # naming one keeps kombu from warning "No hostname was supplied" at every connection.
    CELERY_BROKER_URL = "filesystem://localhost/"
    _broker_dir = VAR_DIR / "celery-broker"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir / "queue"),
        "data_folder_out": str(_broker_dir / "queue"),
        "control_folder": str(_broker_dir / "control"),
        "store_processed": False,
    }
    for _folder in ("queue", "control"):
        (_broker_dir / _folder).mkdir(parents=True, exist_ok=True)
# Sessions read from the shared cache, written through to the database: a request costs no
# session query (docs/architecture.md, "Sessions and preferences"); a cache cleared or lost logs
# nobody out. Both caches are shared by every process, so no process keeps a stale session.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# What a task prints (the console e-mail back end of the embedded default prints each mail) is
# information, not a warning: Celery's default logs a worker's stdout at WARNING.
CELERY_WORKER_REDIRECT_STDOUTS_LEVEL = "INFO"
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# The deadline lives in the database; this sweep closes whatever is due even if an ETA task was
# lost (shared/NOTES.md, "Celery deadlines with Redis").
CELERY_BEAT_SCHEDULE = {
    "sweep-deadlines": {"task": "games.tasks.sweep_deadlines", "schedule": 60.0},
    "prod-inactive-players": {"task": "games.tasks.send_prods", "schedule": 3600.0},
    "notification-digests": {"task": "games.tasks.send_digests", "schedule": 900.0},
    "notify-due-soon": {"task": "games.tasks.notify_due_soon", "schedule": 900.0},
    "host-automatic-games": {"task": "games.tasks.host_automatic_games", "schedule": 60.0},
}
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)

# --- Accounts ----------------------------------------------------------------------------------
AUTH_USER_MODEL = "accounts.User"
# Django's and allauth's back ends, loading the user with his moderator flag (accounts/backends.py).
AUTHENTICATION_BACKENDS = [
    "accounts.backends.ModelBackend",
    "accounts.backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
# allauth's messages and e-mails name a user by his display name, never the internal username.
ACCOUNT_USER_DISPLAY = "accounts.adapter.user_display"
ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
ACCOUNT_SIGNUP_FORM_CLASS = "accounts.forms.SignupExtraForm"
ACCOUNT_USER_MODEL_USERNAME_FIELD = "username"
ACCOUNT_EMAIL_VERIFICATION = os.environ.get("ACCOUNT_EMAIL_VERIFICATION", "mandatory")
ACCOUNT_CONFIRM_EMAIL_ON_GET = False
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_UNIQUE_EMAIL = True
# Sensitive account changes ask for the password again, never for a code sent by e-mail (allauth
# 65.22 adds reauthentication by code, on by default, with its routes under
# accounts/reauthenticate/code/). Every account here has a password (signup asks for one) and logs
# in with it (login by code is off: ACCOUNT_LOGIN_BY_CODE_ENABLED keeps its default, False), so a
# code would only make the mailbox a second key to the account; the code routes stay in allauth's
# URLs and answer 403 (tests/accounts/test_reauthentication.py).
ACCOUNT_REAUTHENTICATION_METHODS = ("password",)
ACCOUNT_RATE_LIMITS = {
    "login_failed": os.environ.get("ACCOUNT_LOGIN_FAILED_RATE", "10/m/ip,5/5m/key"),
    "signup": "20/m/ip",
    "reset_password": "20/m/ip,5/m/key",
}
LOGIN_REDIRECT_URL = "/"
ACCOUNT_LOGOUT_REDIRECT_URL = "/"

EMAIL_BACKEND = os.environ.get("DJANGO_EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
if os.environ.get("EMAIL_HOST"):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = os.environ["EMAIL_HOST"]
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "mafia@localhost")

# --- I18N ----------------------------------------------------------------------------------------
LANGUAGE_CODE = "ru"
LANGUAGES = [("ru", _("Russian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = "Europe/Moscow"

# --- Static and media -------------------------------------------------------------------------
STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "staticfiles"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
MEDIA_URL = "/media/"
MEDIA_ROOT = Path(os.environ.get("MAFIA_MEDIA_ROOT", VAR_DIR / "media"))
SERVE_MEDIA = env_bool("MAFIA_SERVE_MEDIA", DEBUG)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
# Media posts' files (games.models.post_media_storage): beside the avatars by default; in an
# S3-compatible bucket when MAFIA_S3_BUCKET is set (django-storages, the `s3` extra; README, "Media
# in S3"). The bucket stays private: games:post_media checks who may hear a file, then redirects
# to a URL signed for MAFIA_S3_URL_SECONDS. Avatars stay in the default storage.
MAFIA_S3_BUCKET = os.environ.get("MAFIA_S3_BUCKET", "")
# How long a signed address lives; the redirect to it may be kept half as long (games:post_media).
MAFIA_S3_URL_SECONDS = int(os.environ.get("MAFIA_S3_URL_SECONDS", "3600"))
STORAGES["media_posts"] = {"BACKEND": "django.core.files.storage.FileSystemStorage"}
if MAFIA_S3_BUCKET:
    STORAGES["media_posts"] = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": MAFIA_S3_BUCKET,
            "endpoint_url": os.environ.get("MAFIA_S3_ENDPOINT_URL") or None,
            "region_name": os.environ.get("MAFIA_S3_REGION") or None,
            "access_key": os.environ.get("MAFIA_S3_ACCESS_KEY_ID") or None,
            "secret_key": os.environ.get("MAFIA_S3_SECRET_ACCESS_KEY") or None,
            "location": os.environ.get("MAFIA_S3_PREFIX", "media-posts"),
            "default_acl": "private",
            "querystring_auth": True,
            "querystring_expire": MAFIA_S3_URL_SECONDS,
            "file_overwrite": False,
        },
    }
WHITENOISE_USE_FINDERS = DEBUG

# --- Forum behaviour ---------------------------------------------------------------------------
MAFIA_POSTS_PER_PAGE = int(os.environ.get("MAFIA_POSTS_PER_PAGE", "25"))
MAFIA_POST_MAX_LENGTH = int(os.environ.get("MAFIA_POST_MAX_LENGTH", "50000"))
MAFIA_POST_EDIT_WINDOW_SECONDS = int(os.environ.get("MAFIA_POST_EDIT_WINDOW_SECONDS", "600"))
# The posting rate limit of the site's forms: at most this many posts a minute per user; GMs in
# their games and moderators are exempt; 0 switches it off (docs/security.md, "Rate limits").
MAFIA_POST_RATE = int(os.environ.get("MAFIA_POST_RATE", "12"))
MAFIA_VOTE_POLL_SECONDS = int(os.environ.get("MAFIA_VOTE_POLL_SECONDS", "20"))
# The last page of a thread asks every this many seconds whether new posts came (games/views/live.py).
MAFIA_THREAD_POLL_SECONDS = int(os.environ.get("MAFIA_THREAD_POLL_SECONDS", "15"))
# How long a thread's (kind, post count) stays in the cache for the poll. Each new post refreshes
# it on commit in the cache every process reads; the limit only bounds what a write made outside
# post_create (an admin's edit) leaves stale.
MAFIA_THREAD_STATE_SECONDS = int(os.environ.get("MAFIA_THREAD_STATE_SECONDS", "300"))
# ... and how long each process trusts what it last read before asking the cache again: with
# Redis that saves a network round trip per poll (a new post shows up to 1 s later); the disk
# cache is a local file read, so every poll asks it and is exact.
MAFIA_THREAD_STATE_LOCAL_SECONDS = float(os.environ.get("MAFIA_THREAD_STATE_LOCAL_SECONDS", "1" if REDIS_URL else "0"))
# The site's public address, for links in e-mails (digests, prods) sent outside a request. Unset,
# the address ./bin/site listens on (MAFIA_BIND): its port, and its host, or this machine's name
# when it listens on every address (a link to 0.0.0.0 leads nowhere).
def default_site_url(bind: str) -> str:
    import socket

    host, _, port = bind.rpartition(":") if ":" in bind else (bind, "", "")
    host = host.strip("[]")
    if host in ("", "0.0.0.0", "::"):
        host = socket.gethostname() or "127.0.0.1"
    elif ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}" if port else f"http://{host}"


MAFIA_SITE_URL = os.environ.get("MAFIA_SITE_URL") or default_site_url(os.environ.get("MAFIA_BIND", "127.0.0.1:8000"))
# The site's name in e-mails (subjects, greetings, sign-offs) and wherever the site names itself.
MAFIA_SITE_NAME = os.environ.get("MAFIA_SITE_NAME", "Мафия")
MAFIA_AVATAR_MAX_BYTES = 512 * 1024
# Media posts (the Show's greetings, defence speeches, opinions): the size limit of each kind in MB
# (games/services/media.py). The type is read from the file's content.
MAFIA_MEDIA_MAX_MB = {
    "audio": int(os.environ.get("MAFIA_MEDIA_MAX_MB_AUDIO", "20")),
    "video": int(os.environ.get("MAFIA_MEDIA_MAX_MB_VIDEO", "50")),
    "image": int(os.environ.get("MAFIA_MEDIA_MAX_MB_IMAGE", "10")),
}
# ... and the length limit of each kind in seconds, when the container states its length
# (Telegram's round videos, the show's custom, last a minute; a defence speech may take longer).
MAFIA_MEDIA_MAX_SECONDS = {
    "audio": int(os.environ.get("MAFIA_MEDIA_MAX_SECONDS_AUDIO", "300")),
    "video": int(os.environ.get("MAFIA_MEDIA_MAX_SECONDS_VIDEO", "180")),
}
# The largest body a request may post (config/upload_limits.py): the largest media limit and a
# megabyte for the form's fields.
MAFIA_REQUEST_MAX_BYTES = int(os.environ.get(
    "MAFIA_REQUEST_MAX_BYTES", (max(MAFIA_MEDIA_MAX_MB.values()) + 1) * 1024 * 1024))
MAFIA_SIGNUP_OPEN = env_bool("MAFIA_SIGNUP_OPEN", True)

# --- Security (production values come from the environment) ------------------------------------
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", False)
SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", False)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_SECURE_HSTS_SECONDS", "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", SECURE_HSTS_SECONDS > 0)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", SECURE_HSTS_SECONDS > 0)
if env_bool("DJANGO_BEHIND_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # Behind proxies every request comes from a proxy's address: allauth's per-address limits
    # (ACCOUNT_RATE_LIMITS) must take the client's from X-Forwarded-For, as the last of these
    # proxies saw it, or ten wrong passwords a minute from anybody would lock everybody out.
    ALLAUTH_TRUSTED_PROXY_COUNT = int(os.environ.get("DJANGO_TRUSTED_PROXY_COUNT", "1"))
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# The site's own scripts only: no inline script or handler anywhere (static/js/site.js has them
# all); htmx's indicator <style> is switched off in base.html. Inline style attributes stay
# allowed, for BBCode's [color] (the colour is checked by games/text/bbcode.py); posts' [img] may
# show pictures from other sites. docs/security.md, "Headers".
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "style-src-attr": ["'unsafe-inline'"],
        "img-src": ["'self'", "data:", "https:", "http:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}
SESSION_COOKIE_HTTPONLY = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
}
