"""Signals the site sends that Django does not."""

from __future__ import annotations

from django.dispatch import Signal

# A logged-in user changed their password on the password-change form (``request``, ``user``);
# sent before the session is renewed. Receivers end what the old password gave access to.
password_changed = Signal()
