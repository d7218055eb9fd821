"""Refuse a request body that is too big before anything reads it.

Django reads at most ``Content-Length`` bytes of a body (a request without one has an empty
body), so looking at that header is enough: a request above ``MAX_REQUEST_BYTES`` gets a 413
page and not one byte of its body is read, spooled or parsed (not even by the CSRF check, which
reads the form for its token). Behind nginx the proxy refuses it first (``client_max_body_size``
in ``deploy/nginx/blitz.conf``); this is the same limit for an app server reached directly.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string


class BodySizeLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if _content_length(request) > settings.MAX_REQUEST_BYTES:
            return too_large()
        return self.get_response(request)


def _content_length(request: HttpRequest) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0  # Django reads no body then either


def too_large() -> HttpResponse:
    """The 413 page: no request, no database (like the 500 page)."""
    limit = f"{settings.MAX_REQUEST_BYTES // 1024} KB"
    return HttpResponse(render_to_string("413.html", {"limit": limit}), status=413)
