"""The client's address, as the proxies the deployment trusts saw it.

Behind nginx every request connects from the proxy, and the client's own address is the one
nginx appended to ``X-Forwarded-For``. Everything to the left of the trusted proxies' entries was
written by the client and may be anything, so with ``TRUSTED_PROXY_COUNT = N`` the address is the
Nth entry from the right; with 0 (no proxy) the header is never read. A header with fewer entries
than trusted proxies, or an entry that is not an address, means the request did not come through
them all: the connecting address is used, which no client can choose.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str | None:
    """The client's IP address (django-axes' ``AXES_CLIENT_IP_CALLABLE``)."""
    remote = request.META.get("REMOTE_ADDR")
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies <= 0:
        return remote
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    if len(forwarded) < proxies:
        return remote
    try:
        return str(ipaddress.ip_address(forwarded[-proxies]))
    except ValueError:
        return remote
