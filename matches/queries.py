"""Reading matches: a player's matches, and the matches a roster was played in."""

from __future__ import annotations

from django.db.models import Q, QuerySet
from django.urls import reverse

from armies.models import Owner, Roster
from matches import access, systems
from matches.models import Match

LIST_FIELDS = (
    "a_user_id", "a_guest_key", "a_player", "a_roster_name", "a_faction", "a_roster_id",
    "b_user_id", "b_guest_key", "b_player", "b_roster_name", "b_faction", "b_roster_id",
    "status", "result", "seq", "created_at", "updated_at", "ended_at", "system",
)  # fmt: skip


def my_matches(owner: Owner) -> QuerySet[Match]:
    """The matches in which ``owner`` holds a seat, latest first."""
    return Match.objects.played_by(owner).only(*LIST_FIELDS)


def matches_for_roster(roster: Roster, viewer: Owner | None = None, limit: int = 20) -> list[Match]:
    """The matches a roster was played in (as either side), latest first: its history.

    Each match gets ``opponent`` (the other list's name), ``outcome`` for this roster ("Won",
    "Lost", "Draw", "In progress") and ``summary_url``, set only when ``viewer`` holds a seat
    in the match (a roster shared with others may be played in matches its owner is not in).
    """
    matches = list(
        Match.objects.filter(Q(a_roster=roster) | Q(b_roster=roster)).only(*LIST_FIELDS)[:limit]
    )
    for match in matches:
        side = "a" if match.a_roster_id == roster.pk else "b"
        match.opponent = match.b_roster_name if side == "a" else match.a_roster_name
        match.outcome = _outcome(match, side)
        held = viewer is not None and access.holds_seat(match, viewer)
        summary = systems.tracker(match.system).summary_name
        match.summary_url = reverse(summary, args=[match.pk]) if held else ""
    return matches


def _outcome(match: Match, side: str) -> str:
    if match.status != Match.Status.ENDED:
        return "In progress"
    if match.result == "draw":
        return "Draw"
    return "Won" if match.result == side else "Lost"


POLL_FIELDS = ("pk", "system", "seq", "status", "a_token", "b_token")


def poll_matches() -> QuerySet[Match]:
    """What a poll needs of a match, read in one query of five short columns (``access``
    checks the seat's token against them): a quiet poll every two seconds from every tablet is
    the most frequent request."""
    return Match.objects.only(*POLL_FIELDS)
