"""The player's address when Blitz runs behind nginx.

Behind a proxy every request comes from the proxy's address, so the login rate limit
(django-axes, per username and address) would lock a username out for everyone after five
failures from anyone. With BEHIND_PROXY=1 the address is nginx's X-Real-IP, which nginx
overwrites with the client's own (deploy/nginx/blitz.conf); without it the header is ignored, as
a client talking to the app server directly could send any address.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str:
    if settings.BEHIND_PROXY:
        forwarded = request.META.get("HTTP_X_REAL_IP", "").strip()
        if forwarded:
            return forwarded
    return request.META.get("REMOTE_ADDR", "")
