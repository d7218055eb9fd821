"""The login limit (django-axes, counted in the database so every app server shares it).

Two counts, each with its own limit, over the cool-off window:

- one username from one address (``LOGIN_FAILURE_LIMIT``, 5): guessing one player's password.
  A stranger elsewhere never shares the count, so they cannot lock the player out.
- one address across every username (``LOGIN_ADDRESS_FAILURE_LIMIT``, 20): password spraying.

Axes compares one number with one limit, so the address's count is brought onto the pair's
scale: ``address - (address limit - pair limit)`` reaches the pair's limit exactly when the
address reaches its own. A successful login clears only its own pair's count: a sprayer cannot
clear their address by logging into their own account now and then.
"""

from __future__ import annotations

from axes.handlers.database import AxesDatabaseHandler
from django.conf import settings
from django.db.models import Sum


class LoginAttempts(AxesDatabaseHandler):
    """``AXES_HANDLER``, with ``AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"],
    "ip_address"]`` in this order: the pair, then the address."""

    def get_failures(self, request, credentials: dict | None = None) -> int:
        pair, address = (
            attempts.aggregate(failures=Sum("failures_since_start"))["failures"] or 0
            for attempts in self.get_user_attempts(request, credentials)
        )
        allowance = settings.LOGIN_ADDRESS_FAILURE_LIMIT - settings.AXES_FAILURE_LIMIT
        return max(pair, address - allowance)

    def reset_user_attempts(self, request, credentials: dict | None = None) -> int:
        pair = self.filter_user_attempts(request, credentials)[0]
        count, _ = pair.delete()
        return count
