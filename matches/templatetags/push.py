"""The board shell's poller: the stream it follows and how often it polls (matches/streams.py)."""

from __future__ import annotations

from django import template
from django.conf import settings

from matches.streams import stream_url

register = template.Library()


@register.simple_tag(takes_context=True)
def board_stream(context) -> str:
    """The stream of the board being drawn (a player's with ``controls``, else a watcher's), or
    "" where this server holds none."""
    request, match = context.get("request"), context.get("match")
    if request is None or match is None:
        return ""
    return stream_url(request, match, bool(context.get("controls")))


@register.simple_tag
def poll_trigger() -> str:
    """The poller's hx-trigger: every few seconds (static/js/push.js holds these polls back
    while the stream is live), and at once when asked ("poll-now": a pushed change, a return to
    the tab, the slow safety poll)."""
    return f"every {settings.BLITZ_POLL_SECONDS}s, poll-now"


@register.simple_tag
def safety_poll_seconds() -> int:
    """How often a board polls anyway while its stream is live."""
    return settings.BLITZ_SAFETY_POLL_SECONDS
