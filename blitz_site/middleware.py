"""Site-wide middleware."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

RENEWED = "blitz_renewed"  # when the session's expiry was last pushed back (a Unix timestamp)
RENEW_EVERY = 24 * 60 * 60


class SlidingSessionMiddleware:
    """Keep a session alive while it is used: SESSION_COOKIE_AGE counts from the last visit.

    Django renews a session's expiry only when the session is saved. Saving it on every request
    (SESSION_SAVE_EVERY_REQUEST) would write a row per poll; instead a session the view has read
    anyway is saved at most once a day, by rewriting the time of the last renewal. Requests that
    never touch the session (polls, static files) are left alone.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        session = getattr(request, "session", None)
        if session is None or not session.accessed or session.is_empty():
            return response
        now = _now()
        # A session saved anyway (a new guest key, a login) gets its new expiry for free.
        if session.modified or now - session.get(RENEWED, 0) >= RENEW_EVERY:
            session[RENEWED] = now  # marks it modified: SessionMiddleware saves it, new expiry
        return response


def _now() -> int:
    return int(timezone.now().timestamp())


@receiver(user_logged_in)
def stamp_renewal(sender, request: HttpRequest | None, user, **kwargs) -> None:
    """Logging in saves the session with a fresh expiry: note it (the test client's too)."""
    if request is not None and hasattr(request, "session"):
        request.session[RENEWED] = _now()
