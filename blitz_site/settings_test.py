"""Settings for the test suite: the real settings with test-only changes."""

import os

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
