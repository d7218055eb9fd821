"""ASGI entry point: ``uvicorn blitz_site.asgi:application`` (``make run``; it holds the live
streams, matches/streams.py)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "blitz_site.settings")

application = get_asgi_application()
