"""Under ASGI (production's server), a request to a sync view switches threads once.

Django runs a sync view in a thread; each middleware that runs in async mode around it hops to a
thread and back for each of its hooks (MiddlewareMixin), about 0.2 ms each on the benchmark
machine. With the one sync-only middleware low in ``MIDDLEWARE`` (see its comment in
``blitz_site/settings.py``), every middleware above it runs in sync mode in the view's thread.
"""

from __future__ import annotations

import pytest
from asgiref.sync import SyncToAsync, async_to_sync
from django.test import AsyncClient


def thread_switches(monkeypatch, path: str) -> tuple[int, int]:
    """(status, sync-to-async calls) of one ASGI request to ``path``."""
    calls = []
    real = SyncToAsync.__call__

    async def counted(self, *args, **kwargs):
        calls.append(getattr(self.func, "__qualname__", repr(self.func)))
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(SyncToAsync, "__call__", counted)
    response = async_to_sync(AsyncClient().get)(path)
    return response.status_code, len(calls)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", ["/ping", "/healthz", "/accounts/login/"])
def test_a_request_switches_to_a_thread_a_few_times_not_per_middleware(monkeypatch, path):
    status, switches = thread_switches(monkeypatch, path)
    assert status == 200
    # the request_started signal, the middleware and the view, CSRF's view hook, the response's
    # close (and the login page's template response): 5 or 6, not 13 as before
    assert switches <= 6, f"{switches} switches into a thread for {path}"


@pytest.mark.django_db(transaction=True)
def test_the_same_middleware_higher_up_would_switch_for_each_hook(monkeypatch, settings):
    """The measure above can fail: the old order (the sync-only middleware just below the
    session middleware) switches for each hook of the middleware between it and the view."""
    sliding = "blitz_site.middleware.SlidingSessionMiddleware"
    order = [name for name in settings.MIDDLEWARE if name != sliding]
    session = order.index("django.contrib.sessions.middleware.SessionMiddleware")
    settings.MIDDLEWARE = [*order[: session + 1], sliding, *order[session + 1 :]]
    status, switches = thread_switches(monkeypatch, "/ping")
    assert status == 200
    assert switches >= 12
