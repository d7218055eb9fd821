"""The app as production serves it (``blitz_site.asgi``), with each request's time on the server
written to the benchmark's access log, as gunicorn's sync workers write ``%(D)s``: uvicorn's
access log has no duration.

The time runs from the moment the app is called with the request to the moment it has handed
the answer's last bytes to the server (what a tablet waits for; the connect and the wait for
the event loop are not in it). The log's path is ``BLITZ_BENCH_ACCESS_LOG``; a line is
``METHOD path status microseconds``, bench/_server.py's ``ACCESS`` format.
"""

from __future__ import annotations

import os
import time

from blitz_site.asgi import application as django_application

LOG = open(os.environ["BLITZ_BENCH_ACCESS_LOG"], "a", buffering=1)  # a line at a time


async def application(scope, receive, send):
    if scope["type"] != "http":
        return await django_application(scope, receive, send)
    started = time.perf_counter()
    status = 0

    async def timed_send(message):
        nonlocal status
        await send(message)
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body" and not message.get("more_body"):
            micros = round((time.perf_counter() - started) * 1e6)
            LOG.write(f"{scope['method']} {scope['path']} {status} {micros}\n")

    return await django_application(scope, receive, timed_send)
