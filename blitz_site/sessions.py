"""The database session store, reading only session keys Django could have made.

A session cookie is looked up in the database as it is sent. A quoted cookie value may hold an
octal escape (``sessionid="abcdefgh\\000ijk"``), which Python's cookie parser turns into a NUL,
and PostgreSQL refuses NUL in a query (a ``DataError``, so a 500 for every page that reads the
session). Django makes keys of lowercase letters and digits: anything else is no session, and
the visitor gets a new one, as with an expired cookie.
"""

from __future__ import annotations

import re

from django.contrib.sessions.backends import db

SESSION_KEY = re.compile(r"[a-z0-9]{8,40}")


class SessionStore(db.SessionStore):
    def _validate_session_key(self, key: object) -> bool:
        return isinstance(key, str) and SESSION_KEY.fullmatch(key) is not None
