"""What the site itself stores: wrong old passwords given to the password-change form."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class PasswordChangeFailure(models.Model):
    """One wrong old password (or one being checked) for ``user``, kept for the cool-off window.

    In the database, like the login limit, so every app server shares the count."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["user", "at"])]

    def __str__(self) -> str:
        return f"{self.user_id} at {self.at:%Y-%m-%d %H:%M}"
