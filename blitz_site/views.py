from __future__ import annotations

import hashlib
import logging

from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from blitz_site import systems

log = logging.getLogger(__name__)


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"games": list(systems.SYSTEMS.values())})


@require_safe
@never_cache
def ping(request: HttpRequest) -> HttpResponse:
    """The cheapest page there is (no database, no template): the benchmarks' baseline."""
    return HttpResponse("ok", content_type="text/plain")


@require_safe
@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database answers a round trip, 503 when it does not."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as error:
        log.warning("healthz: database unreachable: %s", error)
        return JsonResponse({"status": "error", "database": "unreachable"}, status=503)
    return JsonResponse({"status": "ok", "database": "ok"})


PRECACHE = [
    "css/blitz.css",
    "css/match.css",
    "js/blitz.js",
    "js/match.js",
    "django_htmx/htmx-2.min.js",
    "img/icon.svg",
    "img/icon-192.png",
]


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, served from the root so it may look after every page."""
    urls = [static(path) for path in PRECACHE]
    version = hashlib.sha256("\n".join(urls).encode()).hexdigest()[:12]
    response = render(
        request,
        "sw.js",
        {"precache": urls, "version": version},
        content_type="application/javascript",
    )
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    return render(request, "offline.html")
