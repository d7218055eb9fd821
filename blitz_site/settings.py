"""Blitz settings: one file, driven by the environment.

Environment variables (all optional on a developer machine):

- ``DEBUG``: ``1``/``true`` turns debug on. Off unless asked.
- ``SECRET_KEY``: required when debug is off.
- ``DATABASE_URL``: ``postgres://user:pass@host:5432/name`` switches to PostgreSQL;
  without it Blitz uses SQLite (``db.sqlite3`` beside ``manage.py``, WAL mode).
- ``ALLOWED_HOSTS``: comma-separated host names (default: localhost names).
- ``CSRF_TRUSTED_ORIGINS``: comma-separated origins, for HTTPS behind a proxy.
- ``BLITZ_DATA_DIRS``: extra game-data directories (see docs/configuration.md, "Host data files").
- ``STATIC_ROOT``: where ``collectstatic`` writes (default: ``staticfiles/`` beside ``manage.py``).
- ``DATABASE_POOL_SIZE``: PostgreSQL connections one process may hold at most (default 10).
- ``TRUSTED_PROXY_COUNT``: how many reverse proxies append to ``X-Forwarded-For`` (1 behind
  the nginx of ``deploy/``); 0 (default): the connecting address.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path
from urllib.parse import unquote, urlsplit

from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    if not value.isdigit():
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}.")
    return int(value)


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def database_from_url(url: str) -> dict:
    """Read a ``postgres://`` or ``sqlite:///`` URL into a Django DATABASES entry."""
    parts = urlsplit(url)
    if parts.scheme in {"postgres", "postgresql", "pgsql"}:
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": unquote(parts.path.lstrip("/")),
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": str(parts.port or ""),
            # A pool of connections per process (psycopg's, through Django), not a persistent
            # connection per thread: under ASGI Django runs each sync view in a thread of its
            # own, so a kept connection would be a new one per request (and linger with its
            # thread). Each connection is checked as it is taken (CONN_HEALTH_CHECKS: one the
            # server closed is replaced) and given back at the end of the request.
            "CONN_MAX_AGE": 0,
            "CONN_HEALTH_CHECKS": True,
            "OPTIONS": {"pool": postgres_pool()},
        }
    if parts.scheme == "sqlite":
        return sqlite_database(Path(unquote(parts.path)) if parts.path else BASE_DIR / "db.sqlite3")
    raise ImproperlyConfigured(
        f"DATABASE_URL must start with postgres:// or sqlite:///, not {parts.scheme!r}."
    )


def postgres_pool() -> dict:
    return {
        "min_size": 2,
        "max_size": env_int("DATABASE_POOL_SIZE", 10),
        "timeout": 10,  # seconds a request waits for a free connection
    }


def sqlite_database(path: Path) -> dict:
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": path,
        "OPTIONS": {
            # WAL lets readers (polling tablets) run beside a writer; IMMEDIATE makes a
            # write transaction take the lock up front instead of failing half way.
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
        },
        # Closed at the end of each request, as Django asks under ASGI ("When using ASGI,
        # persistent connections should be disabled"): each request runs in a thread of its own,
        # so a kept connection would never be used again and would stay open until its thread
        # was collected. Opening a local file costs well under a millisecond.
        "CONN_MAX_AGE": int(os.environ.get("CONN_MAX_AGE", "0")),
    }


DEBUG = env_bool("DEBUG")

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if DEBUG:
        SECRET_KEY = "insecure-development-key-only-for-DEBUG-runs"
    else:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. Set the SECRET_KEY environment variable to a long random "
            "string (for example: python3 -c 'import secrets; print(secrets.token_urlsafe(50))'),"
            " or set DEBUG=1 for local development."
        )

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "axes",
    "csp",
    "blitz_site",
    "armies",
    "matches",
]

MIDDLEWARE = [
    # First: a body above MAX_REQUEST_BYTES is refused (413) before anything reads it.
    "blitz_site.body_limit.BodySizeLimitMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Inside the session middleware, so it runs before it on the way out: renews a used session
    # daily. Sync only, and here, just above the (natively async) axes middleware: under ASGI
    # Django then runs every middleware above it in sync mode, in one thread with the view: a
    # request switches threads 5 times, not 13. Higher up, the async-capable middleware below
    # it would each run in async mode and hop to a thread and back for every hook (Django's
    # MiddlewareMixin): 3 ms more for every request on this project's benchmark machine.
    # tests/app/test_asgi.py holds this.
    "blitz_site.middleware.SlidingSessionMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into a clear 429 page.
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

# Login attempts are rate-limited in the database (so every app server shares the count), by
# blitz_site.login_limits: after 5 failures for one username from one address that pair waits
# 15 minutes (a stranger elsewhere never shares the count), and after 20 failures from one
# address across usernames (password spraying) the address waits. The cool-off counts from the
# last failure that was let through: attempts during a lockout neither count nor extend it.
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5)
LOGIN_ADDRESS_FAILURE_LIMIT = max(env_int("LOGIN_ADDRESS_FAILURE_LIMIT", 20), AXES_FAILURE_LIMIT)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_COOLOFF_MINUTES", 15))
AXES_HANDLER = "blitz_site.login_limits.LoginAttempts"
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
# The client's address: REMOTE_ADDR, or with TRUSTED_PROXY_COUNT=N the Nth address from the
# right of X-Forwarded-For (what the outermost trusted proxy saw); see blitz_site/client.py.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)
AXES_CLIENT_IP_CALLABLE = "blitz_site.client.client_address"
AXES_DISABLE_ACCESS_LOG = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False

ROOT_URLCONF = "blitz_site.urls"
WSGI_APPLICATION = "blitz_site.wsgi.application"
ASGI_APPLICATION = "blitz_site.asgi.application"

# The live push (matches/push.py, matches/streams.py): a stream's heartbeat (seconds; below every
# proxy's read timeout), how many streams one address may hold on a stream server process, and
# the boards' poll (seconds; the fallback when there is no stream) and their slow safety poll
# while the stream is live. The broker that tells every board of a match at once:
# BLITZ_PUSH_BROKER, below DATABASES (it depends on the database).
BLITZ_PUSH_HEARTBEAT = 20
BLITZ_PUSH_PER_ADDRESS = env_int("BLITZ_PUSH_PER_ADDRESS", 20)
# Whether the boards open streams when their page was served by a WSGI server: on behind a proxy
# that sends the streams to stream servers (deploy/stack: sync app servers for the pages and
# taps, ASGI stream servers for the streams). Off, a board opens one only when its page came
# from an ASGI server (make run), and polls under Django's test server.
BLITZ_STREAM_SERVERS = env_bool("BLITZ_STREAM_SERVERS")
BLITZ_POLL_SECONDS = 2
BLITZ_SAFETY_POLL_SECONDS = 120

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

if os.environ.get("DATABASE_URL"):
    DATABASES = {"default": database_from_url(os.environ["DATABASE_URL"])}
else:
    DATABASES = {"default": sqlite_database(BASE_DIR / "db.sqlite3")}

# The live push's broker (matches/push.py): on PostgreSQL every app server's streams hear every
# change through LISTEN/NOTIFY (matches/push_pg.py: one listening connection per process); on
# SQLite, the one process fans out in memory.
BLITZ_PUSH_BROKER = os.environ.get("BLITZ_PUSH_BROKER") or (
    "matches.push_pg.PgBroker"
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    else "matches.push.MemoryBroker"
)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# No state in a process: sessions and login attempts live in the database, so any number of app
# servers can share one PostgreSQL. Nothing uses Django's cache (axes counts attempts with its
# database handler, sessions use the db store), so CACHES keeps Django's default.
SESSION_ENGINE = "blitz_site.sessions"  # the db store, refusing keys Django never makes
# A guest's rosters survive three months of absence: the expiry counts from the last visit
# (blitz_site.middleware.SlidingSessionMiddleware renews a used session at most once a day).
SESSION_COOKIE_AGE = 60 * 60 * 24 * 90

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
# STATIC_ROOT: where collectstatic writes (the benchmarks point it at a temporary directory).
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # whitenoise's compressed, hashed files, CSS and JS minified first (blitz_site/storage.py)
    "staticfiles": {"BACKEND": "blitz_site.storage.MinifiedStaticFilesStorage"},
}

# Request bodies. The largest a player sends is a roster import: a file of at most
# armies.forms.MAX_IMPORT_BYTES (256 KB), or the same JSON pasted as text, which form encoding can
# make three times bigger. A body above MAX_REQUEST_BYTES is refused with a 413 before it is read
# (blitz_site.body_limit; nginx refuses it first with client_max_body_size, deploy/nginx/). Every
# body allowed fits in memory, so an upload is never spooled to a temporary file.
MAX_REQUEST_BYTES = 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_REQUEST_BYTES
FILE_UPLOAD_MAX_MEMORY_SIZE = MAX_REQUEST_BYTES
FILE_UPLOAD_HANDLERS = ["django.core.files.uploadhandler.MemoryFileUploadHandler"]

# HTTPS hardening: on when HTTPS=1 (documented in docs/deploying.md).
if env_bool("HTTPS"):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
# Content-Security-Policy (django-csp): no inline script, no eval, nothing from other sites.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "font-src": [SELF],
        "manifest-src": [SELF],
        "worker-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
