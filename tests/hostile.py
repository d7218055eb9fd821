"""Values an outside probe sends to find a 500: shared by the fuzz tests.

Unicode digits pass ``str.isdigit()`` but not ``int()``; PostgreSQL refuses NUL in text; no
database stores a lone surrogate; ``int()`` refuses more than 4,300 digits; and a long string
finds a column or a loop that was sized for short ones.
"""

from __future__ import annotations

from urllib.parse import urlencode

UNICODE_DIGITS = ["²", "¹", "①", "٣", "1²", "²5", "a-²-1", "a-1-²", "undo ²", "mark a-²-1"]
NULS = ["\x00", "a\x00b", "a-1-1\x00", "mark a-1-1\x00"]
SURROGATES = ["\ud800", "a\udfffb", "a-\ud800-1"]
HUGE = ["9" * 5000, "-" + "9" * 5000, "mark a-1-1 " + "9" * 5000, "a-" + "1" * 5000 + "-1"]
LONG = ["x" * 300, "a-1-1" + " " * 300, "é" * 256]
HOSTILE = UNICODE_DIGITS + NULS + SURROGATES + HUGE + LONG


def encoded(data: dict[str, str]) -> str:
    """A form body or query string as a client sends it: a lone surrogate goes out as the three
    bytes UTF-8 would give it (what a broken client sends; Django reads them back as U+FFFD)."""
    return urlencode(data, encoding="utf-8", errors="surrogatepass")


def post(client, url: str, data: dict[str, str], **extra):
    return client.post(
        url, encoded(data), content_type="application/x-www-form-urlencoded", **extra
    )


def get(client, url: str, data: dict[str, str], **extra):
    return client.get(f"{url}?{encoded(data)}" if data else url, **extra)
