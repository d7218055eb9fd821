"""Django's PostgreSQL backend, with a cheaper health check before each request.

``CONN_HEALTH_CHECKS`` makes Django send ``SELECT 1`` on a reused connection at the start of
every request, so that a connection the server closed (a restart, an idle timeout) is replaced
instead of failing the request. That round trip is half the database time of the board's poll,
the most frequent request of the app. A server that closes a connection says so on the socket
(an error message, then the end of the stream), so a connection that is idle, was checked a
moment ago (``QUIET_SECONDS``: busy app servers check every few requests), and whose socket has
nothing to read has not been closed: it is used without the round trip. Otherwise Django's own
check runs, as before: after a longer pause a connection may have been dropped without a word (a
firewall or a load balancer's idle timeout), which only a round trip shows. A check after an
error is Django's own too.

``prepared_cursor`` gives the board's quiet poll, the most frequent request, a cursor that binds
its parameters on the server, so that psycopg prepares the poll's statement once it has run a
few times (``prepare_threshold``) and the server stops parsing and planning it on every poll.
Django's own queries keep its client-side binding. Behind PgBouncer in transaction mode, set
``"prepare_threshold": None`` in the database's OPTIONS.
"""

from __future__ import annotations

import select
import time

from django.db.backends.postgresql import base
from psycopg.pq import TransactionStatus

QUIET_SECONDS = 5.0


class DatabaseWrapper(base.DatabaseWrapper):
    checked_at = float("-inf")  # when this connection last passed a health check

    def connect(self) -> None:
        super().connect()
        self.checked_at = time.monotonic()

    def close_if_health_check_failed(self) -> None:
        if self.connection is None or not self.health_check_enabled or self.health_check_done:
            return
        now = time.monotonic()
        if now - self.checked_at < QUIET_SECONDS and self.socket_is_quiet():
            self.health_check_done = True
            return
        super().close_if_health_check_failed()
        if self.connection is not None:
            self.checked_at = now

    def prepared_cursor(self):
        """A cursor (Django's wrapper) whose statements the server prepares once they repeat."""
        self.close_if_health_check_failed()
        self.ensure_connection()
        with self.wrap_database_errors:
            factory = self.connection.cursor_factory
            self.connection.cursor_factory = base.ServerBindingCursor
            try:
                cursor = self.create_cursor()
            finally:
                self.connection.cursor_factory = factory
            return self._prepare_cursor(cursor)

    def socket_is_quiet(self) -> bool:
        """True when the connection is open, idle, and its socket has nothing to read."""
        connection = self.connection
        if connection.closed or connection.broken:
            return False
        if connection.info.transaction_status != TransactionStatus.IDLE:
            return False
        try:
            poller = select.poll()
            poller.register(connection.fileno(), select.POLLIN | select.POLLPRI)
            return not poller.poll(0)
        except (OSError, ValueError):
            return False
