"""Django's PostgreSQL backend, with a cheaper health check before each request.

``CONN_HEALTH_CHECKS`` makes Django send ``SELECT 1`` on a reused connection at the start of
every request, so that a connection the server closed (a restart, an idle timeout) is replaced
instead of failing the request. That round trip is half the database time of the board's poll,
the most frequent request of the app. A server that closes a connection says so on the socket
(an error message, then the end of the stream), so an idle connection whose socket has nothing
to read has not been closed: it is used without the round trip. When the socket has something to
read, or the connection is not idle, Django's own check runs, as before. A check after an error
is Django's own too.
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base
from psycopg.pq import TransactionStatus


class DatabaseWrapper(base.DatabaseWrapper):
    def close_if_health_check_failed(self) -> None:
        if (
            self.connection is not None
            and self.health_check_enabled
            and not self.health_check_done
            and self.socket_is_quiet()
        ):
            self.health_check_done = True
            return
        super().close_if_health_check_failed()

    def socket_is_quiet(self) -> bool:
        """True when the connection is open, idle, and its socket has nothing to read."""
        connection = self.connection
        if connection.closed or connection.broken:
            return False
        if connection.info.transaction_status != TransactionStatus.IDLE:
            return False
        try:
            readable, _, _ = select.select([connection.fileno()], [], [], 0)
        except (OSError, ValueError):
            return False
        return not readable
