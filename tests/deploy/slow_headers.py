"""Slowloris on loopback: slow clients dribble their headers while a normal client times pages.

Bounded: a few slow clients for a few seconds, then everything stops. Used by test_proxy.py
against the nginx front, and by hand against one gunicorn to see what the proxy prevents:

    .venv/bin/python -m tests.deploy.slow_headers http://127.0.0.1:8001 --clients 6 --seconds 10
"""

from __future__ import annotations

import argparse
import http.client
import socket
import threading
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

NORMAL_TIMEOUT = 5.0  # a normal request that waits this long counts as this long


@dataclass
class Run:
    latencies: dict[str, list[float]] = field(default_factory=dict)  # path -> seconds each
    failures: list[str] = field(default_factory=list)
    slow_bytes: list[int] = field(default_factory=list)  # header bytes each slow client sent

    @property
    def worst(self) -> float:
        return max((t for times in self.latencies.values() for t in times), default=0.0)

    def summary(self) -> str:
        parts = []
        for path, times in self.latencies.items():
            ordered = sorted(times)
            median = ordered[len(ordered) // 2]
            parts.append(
                f"{path}: {len(times)} requests, median {median:.3f} s, max {max(times):.3f} s"
            )
        parts.append(f"slow clients sent {self.slow_bytes} header bytes")
        if self.failures:
            parts.append(f"{len(self.failures)} failed: {self.failures[:3]}")
        return "; ".join(parts)


def slow_client(host: str, port: int, until: float, sent: list[int], index: int) -> None:
    """Opens a connection and sends a request's headers one byte a second, never finishing."""
    header = f"GET /healthz HTTP/1.1\r\nHost: {host}\r\nUser-Agent: slow\r\n"
    header += "".join(f"X-Slow-{n}: {'a' * 40}\r\n" for n in range(20))
    try:
        with socket.create_connection((host, port), timeout=2) as sock:
            for byte in header.encode():
                if time.monotonic() >= until:
                    return
                sock.sendall(bytes([byte]))
                sent[index] += 1
                time.sleep(1.0)
    except OSError:
        return  # the server gave up on us: that is allowed


def normal_request(host: str, port: int, path: str) -> tuple[float, int | str]:
    started = time.monotonic()
    connection = http.client.HTTPConnection(host, port, timeout=NORMAL_TIMEOUT)
    try:
        connection.request("GET", path, headers={"Accept-Encoding": "gzip"})
        response = connection.getresponse()
        response.read()
        outcome: int | str = response.status
    except OSError as error:
        outcome = type(error).__name__
    finally:
        connection.close()
    return time.monotonic() - started, outcome


def run(
    url: str,
    *,
    clients: int = 6,
    seconds: float = 10.0,
    paths: tuple[str, ...] = ("/healthz", "/"),
    pause: float = 0.25,
) -> Run:
    parts = urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    until = time.monotonic() + seconds
    result = Run(latencies={path: [] for path in paths}, slow_bytes=[0] * clients)
    threads = [
        threading.Thread(target=slow_client, args=(host, port, until, result.slow_bytes, n))
        for n in range(clients)
    ]
    for thread in threads:
        thread.start()
    time.sleep(1.5)  # the slow clients are connected and have begun
    while time.monotonic() < until:
        for path in paths:
            elapsed, outcome = normal_request(host, port, path)
            result.latencies[path].append(elapsed)
            if outcome != 200:
                result.failures.append(f"{path}: {outcome} after {elapsed:.1f} s")
        time.sleep(pause)
    for thread in threads:
        thread.join(timeout=3)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", help="http://127.0.0.1:PORT (loopback only)")
    parser.add_argument("--clients", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    if urlsplit(args.url).hostname not in {"127.0.0.1", "localhost"}:
        parser.error("loopback addresses only")
    print(run(args.url, clients=min(args.clients, 50), seconds=min(args.seconds, 60)).summary())


if __name__ == "__main__":
    main()
