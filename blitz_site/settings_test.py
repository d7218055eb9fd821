"""Settings for the test suite: the real settings with test-only changes."""

import os
import tempfile

os.environ.setdefault("SECRET_KEY", "test-only-secret-key-not-for-production-use-0123456789")
os.environ.setdefault("DEBUG", "0")

from blitz_site.settings import *  # noqa: E402,F403
from blitz_site.settings import STORAGES  # noqa: E402

# Manifest storage fails every {% static %} before collectstatic: tests use plain storage.
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# No collectstatic in tests: whitenoise serves from the finders instead of STATIC_ROOT.
STATIC_ROOT = None
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True

# SQLite's test database is a file, not Django's in-memory default. The browser tests' servers
# answer several requests at once (one tablet taps while another polls): with an in-memory
# database every server thread shares one connection, and its transaction, so a tap beside a
# poll could fail with "database table is locked". A file gives each request a connection of its
# own under WAL, as production runs.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": os.path.join(tempfile.gettempdir(), f"blitz-test-{os.getpid()}.sqlite3")
    }
