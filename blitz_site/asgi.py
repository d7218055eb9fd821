"""ASGI entry point: production's ``gunicorn blitz_site.asgi -k uvicorn_worker.UvicornWorker``
(deploy/stack) and ``uvicorn blitz_site.asgi:application`` (``make run``).

Under ASGI an async view (the live streams, matches/streams.py) waits on the event loop without
a thread or a database connection; Django runs every sync view in a thread, as before.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "blitz_site.settings")

application = get_asgi_application()
