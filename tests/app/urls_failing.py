"""A URLconf for the error-page tests: the site's URLs plus views that fail on purpose."""

from django.core.exceptions import PermissionDenied
from django.urls import path

from blitz_site.urls import urlpatterns as site_urlpatterns


def boom(request):
    raise RuntimeError("a bug, on purpose")


def forbidden(request):
    raise PermissionDenied


urlpatterns = [
    *site_urlpatterns,
    path("test-only/boom", boom),
    path("test-only/forbidden", forbidden),
]
