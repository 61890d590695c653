"""Settings, all from the environment.

Two modes:
* embedded (the default): SQLite, the in-memory channel layer, a Celery broker on the file system;
  nothing to start by hand. A random development secret is kept in ``var/``.
* production (``LIMES_PRODUCTION=1``): every secret and address must come from the environment
  (``SECRET_KEY``, ``DATABASE_URL``, ``REDIS_URL``, ``ALLOWED_HOSTS``); nothing has a default.
"""

from __future__ import annotations

import os
import secrets
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlparse

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("LIMES_VAR_DIR", BASE_DIR / "var"))


def env(name: str, default: str | None = None) -> str | None:
    """An environment variable, '' counting as unset."""
    value = os.environ.get(name, "")
    return value if value else default


def env_bool(name: str, default: bool) -> bool:
    """A yes/no environment variable."""
    value = env(name)
    if value is None:
        return default
    return value.lower() in {"1", "true", "yes", "on"}


def required(name: str) -> str:
    """An environment variable that production must set."""
    value = env(name)
    if value is None:
        raise ImproperlyConfigured(f"{name} must be set when LIMES_PRODUCTION=1")
    return value


PRODUCTION = env_bool("LIMES_PRODUCTION", False)

# Who may create a campaign in the pages and the API: "anyone" signed in (the default) or "staff" only.
LIMES_CAMPAIGN_CREATORS = (env("LIMES_CAMPAIGN_CREATORS") or "anyone").strip().lower()
if LIMES_CAMPAIGN_CREATORS not in {"anyone", "staff"}:
    raise ImproperlyConfigured('LIMES_CAMPAIGN_CREATORS must be "anyone" or "staff"')


def _development_secret() -> str:
    # A per-checkout secret so that the embedded mode never runs on a key published in the repo.
    path = VAR_DIR / "secret_key"
    if not path.exists():
        VAR_DIR.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_urlsafe(50))
    return path.read_text().strip()


if PRODUCTION:
    SECRET_KEY = required("SECRET_KEY")
    DEBUG = env_bool("DEBUG", False)
    ALLOWED_HOSTS = [h.strip() for h in required("ALLOWED_HOSTS").split(",") if h.strip()]
    DATABASE_URL = required("DATABASE_URL")
    REDIS_URL: str | None = required("REDIS_URL")
else:
    SECRET_KEY = env("SECRET_KEY") or _development_secret()
    DEBUG = env_bool("DEBUG", False)
    ALLOWED_HOSTS = [h.strip() for h in (env("ALLOWED_HOSTS") or "localhost,127.0.0.1,[::1],testserver").split(",")]
    DATABASE_URL = env("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'db.sqlite3'}"
    REDIS_URL = env("REDIS_URL")

CSRF_TRUSTED_ORIGINS = [o.strip() for o in (env("CSRF_TRUSTED_ORIGINS") or "").split(",") if o.strip()]

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "axes",
    "campaign",
    "notifications",
    "strategic",
    "tactical",
    "moderation",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "campaign.middleware.RefuseUnstorableText",  # a NUL in a form field or query parameter: 400 naming it
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "notifications.middleware.ReaderZoneAndLanguage",  # the user's time zone and language on every page
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: it turns a refused login into the lockout page (campaign.views.locked_out).
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"

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
                "campaign.context_processors.membership",
                "notifications.context_processors.bell",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0, conn_health_checks=PRODUCTION)}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Under ASGI every request runs in a thread of its own, so a persistent connection (CONN_MAX_AGE) is never
    # taken up by the next request (Django's docs: disable them under ASGI) and each request paid a new
    # PostgreSQL connection. A pool (psycopg_pool) lends connections across threads instead. DATABASE_POOL: the
    # most connections one process holds (0: none, a new connection per request). Celery workers use a
    # persistent connection instead (config/celery.py).
    try:
        DATABASE_POOL = int(env("DATABASE_POOL", "20" if PRODUCTION else "0") or 0)
    except ValueError as error:
        raise ImproperlyConfigured("DATABASE_POOL must be a whole number of connections (0: no pool)") from error
    if DATABASE_POOL > 0:
        pool = {"min_size": min(2, DATABASE_POOL), "max_size": DATABASE_POOL}
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = pool  # beside the URL's own (?sslmode=...)
elif DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    # Concurrent requests of the embedded server wait for the write lock instead of failing.
    DATABASES["default"]["OPTIONS"] = {"timeout": 20, "transaction_mode": "IMMEDIATE"}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    # First: refuses every login of a locked-out account or address before a password is checked.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Login throttling (django-axes, failures kept in the database, so the embedded mode needs no cache server):
# after AXES_FAILURE_LIMIT failed logins on the login page or the API's token endpoint (forgotten once
# AXES_COOLOFF_TIME passes without a new one), the username is locked wherever the attempts came from, and so
# is the address whatever usernames it tried; the lock ends AXES_COOLOFF_TIME after the last failure that
# counted. An attempt refused during the lock does not count again, so the wait the message names holds.
AXES_FAILURE_LIMIT = 10
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_LOCKOUT_CALLABLE = "campaign.views.locked_out"
# The address is REMOTE_ADDR: behind the TLS proxy the ASGI server sets it from X-Forwarded-For
# (docker-compose.yml: uvicorn --proxy-headers). Only failures are kept, not a row per successful login; no
# banner at start-up.
AXES_DISABLE_ACCESS_LOG = True
AXES_VERBOSE = False

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Mail (notifications/services/mail.py). Production takes its SMTP server from the environment (README); the
# embedded mode writes every mail as a file under var/mail/, where a newcomer reads them.
if PRODUCTION or env("EMAIL_HOST"):
    EMAIL_BACKEND = env("EMAIL_BACKEND", "django.core.mail.backends.smtp.EmailBackend")
    EMAIL_HOST = env("EMAIL_HOST", "localhost")
    EMAIL_PORT = int(env("EMAIL_PORT", "25") or 25)
    EMAIL_HOST_USER = env("EMAIL_HOST_USER", "") or ""
    EMAIL_HOST_PASSWORD = env("EMAIL_HOST_PASSWORD", "") or ""
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
    EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
else:
    EMAIL_BACKEND = env("EMAIL_BACKEND", "django.core.mail.backends.filebased.EmailBackend")
    EMAIL_FILE_PATH = VAR_DIR / "mail"
EMAIL_TIMEOUT = int(env("EMAIL_TIMEOUT", "10") or 10)  # seconds: a hanging server fails the task, which retries
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", "Limes <limes@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# The site's own address, for the links in mails (and webhooks): scheme, host and port, no trailing slash.
# In production it defaults to https:// and the first of ALLOWED_HOSTS.
SITE_URL = env("SITE_URL", f"https://{ALLOWED_HOSTS[0]}" if PRODUCTION else "http://localhost:8000") or ""

# Webhooks (notifications/services/webhooks.py) post only to public addresses; a test's local receiver needs
# this on (never in production: the server could be made to post into its own network).
WEBHOOKS_ALLOW_PRIVATE = env_bool("WEBHOOKS_ALLOW_PRIVATE", False)

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("ru", _("Russian"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# collectstatic's target, used in production only (elsewhere WhiteNoise serves straight from the finders).
STATIC_ROOT = BASE_DIR / "staticfiles" if PRODUCTION else None
STATICFILES_DIRS = [BASE_DIR / "static"]
# Outside production, static files are served straight from the source folders (no collectstatic step).
WHITENOISE_USE_FINDERS = not PRODUCTION
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "config.storage.StaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # JSON through the one reader of client JSON (nesting, lone surrogates, NUL), as the battle socket reads it.
    "DEFAULT_PARSER_CLASSES": [
        "campaign.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "campaign.api_errors.exception_handler",
    "DEFAULT_PAGINATION_CLASS": None,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Limes API",
    "DESCRIPTION": "Campaigns, the strategic map, live tactical battles and moderation.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI from the installed package: no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Row ids in paths (campaign.converters): at most 18 digits.
    "PATH_CONVERTER_OVERRIDES": {"id": {"type": "integer", "minimum": 0, "maximum": 10**18 - 1}},
}

# Content-Security-Policy (django-csp's middleware): the pages load scripts, styles, pictures and fonts from
# the site itself only, and run no inline code: no inline <script>, no style="" and no on*= handler in any
# template (tests/test_csp.py), so markup that slipped past escaping could not run. Faction colours are drawn
# as SVG fill= attributes, which CSP does not restrict; the board sets styles through the CSSOM
# (element.style), which it allows. connect-src 'self' covers the board's fetches and its WebSocket: CSP 3's
# 'self' matches ws:/wss: on the page's own host and port. Two views add to it for themselves only: the API
# docs (data: pictures, config/urls.py) and the map's SVG file (its own <style>, strategic/views/turn.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF],
        "connect-src": [SELF],
        "font-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

# Threads the sockets' database work runs in on PostgreSQL (campaign/sockets.py); each may hold a pooled
# connection while it runs, so DATABASE_POOL should be larger (HTTP requests take theirs from the same pool).
try:
    SOCKET_DB_THREADS = int(env("SOCKET_DB_THREADS", "8") or 8)
except ValueError as error:
    raise ImproperlyConfigured("SOCKET_DB_THREADS must be a whole number of threads") from error

if REDIS_URL:
    CHANNEL_LAYERS = {
        # The pub/sub layer: under load the list-based core layer timed out consumers (bench/RESULTS.md).
        # Redis pub/sub ignores the database number, so two sites (or test runs) on one Redis server would hear
        # each other's battles: the channel names carry the database number of REDIS_URL.
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "prefix": f"limes{urlparse(REDIS_URL).path.strip('/') or '0'}"},
        }
    }
    CELERY_BROKER_URL = REDIS_URL
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    # A broker on the file system: the embedded mode's worker needs no server.
    _broker_dir = VAR_DIR / "celery"
    for _sub in ("out", "processed", "control"):
        (_broker_dir / _sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_URL = "filesystem://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir / "out"),
        "data_folder_out": str(_broker_dir / "out"),
        "data_folder_processed": str(_broker_dir / "processed"),
        "control_folder": str(_broker_dir / "control"),
    }
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_TASK_IGNORE_RESULT = True
# Celery's Django fixup closes every database connection before and after each task unless this is set:
# a timer task then paid a new PostgreSQL connection (most of its cost when 200 turns end in the same
# second, bench/RESULTS.md). Connections are kept instead, and config/celery.py closes one after a task
# as Django does after a request: when it failed or is older than the worker's CONN_MAX_AGE.
CELERY_DB_REUSE_MAX = 1000
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    # T6.1: ends the turns whose timer task was lost (a worker killed while holding it). Every half second:
    # such a turn ends at most about that late (the lateness target is 1.5 s), and a sweep that finds
    # nothing due is one indexed query.
    "tactical-clock-sweep": {"task": "tactical.battle_clock_sweep", "schedule": 0.5},
    # R1: applies the default retreat of beaten armies whose deadline task was lost.
    "strategic-retreat-sweep": {"task": "strategic.retreat_sweep", "schedule": 60.0},
    # S4: passes the turn of a faction whose deadline has passed.
    "campaign-faction-turns-expire": {"task": "campaign.faction_turns_expire", "schedule": 60.0},
    # S4: tells the acting faction's players when an hour is left of their turn (each turn once).
    "notifications-turn-hour-left": {"task": "notifications.turn_hour_left", "schedule": 60.0},
}

if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(env("SECURE_HSTS_SECONDS", "31536000") or 0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"quiet_refusals": {"()": "config.logfilters.QuietRefusals"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["quiet_refusals"]}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", "INFO")},
    "loggers": {"django.channels.server": {"level": "WARNING"}},
}
