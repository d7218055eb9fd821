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


# --- Every route: the values, the files and the walk of the URL resolver -----------------------

TEXT_10KB = "x" * 10_000
TEXT_100KB = "é" * 50_000  # 100 KB of UTF-8
ROUTE_VALUES = ["²", "①", "٣", "mark a-²-1", "\x00", "a-1-1\x00", "\ud800", "9" * 5000,
                "99999999999999999999", "0", "-1", "1.5", '{"a":' * 2000, TEXT_10KB,
                TEXT_100KB]  # fmt: skip
"""The values each route gets in every query and form field, as its owner: one of each kind
in HOSTILE (Unicode digits, NUL, lone surrogates, 5,000 digits), numbers a form might misread,
deep JSON, and 10 KB and 100 KB of text."""
VISITOR_VALUES = ["²", "\x00", "\ud800", "9" * 5000]
"""The shorter list each other visitor (another player, a guest, anyone) sends."""
FILES = {
    "deep.json": b"[" * 100_000,
    "deep-object.json": b'{"a":' * 50_000,
    "huge-number.json": b"9" * 5000,
    "deep.toml": b"x = " + b"[" * 500 + b"]" * 500,
    "deep-table.toml": b"x = " + b"{a = " * 300 + b"1" + b"}" * 300,
    "huge-number.toml": b"x = " + b"9" * 5000,
    "nul.toml": b'data_version = "x\x00"\n',
    "latin1.json": b"\xff\xfe\x00{",
    "big.txt": b"x" * 300_000,
}
"""Each file sent in every upload field a form has (and in ``file``)."""
WRONG_METHODS = ["put", "delete"]


def routes(patterns=None, prefix: str = "", namespace: str = "") -> list[tuple[str, str, dict]]:
    """Every route of the site as (name, pattern, converters by argument): what the URL resolver
    knows, so a route added tomorrow is in the list without a test naming it."""
    from django.urls import URLResolver, get_resolver

    found = []
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(entry, URLResolver):
            inner = f"{namespace}:{entry.namespace}" if entry.namespace else namespace
            found += routes(entry.url_patterns, prefix + str(entry.pattern), inner.lstrip(":"))
        else:
            name = f"{namespace}:{entry.name or entry.pattern}".lstrip(":")
            found.append((name, prefix + str(entry.pattern), dict(entry.pattern.converters)))
    return found
