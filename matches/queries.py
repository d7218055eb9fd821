"""Reading matches: a player's matches, and the matches a roster was played in."""

from __future__ import annotations

from django.db.models import Q, QuerySet
from django.urls import reverse

from armies.models import Owner, Roster
from matches.models import Match
from matches.rows import db

LIST_FIELDS = (
    "a_user_id", "a_guest_key", "a_player", "a_roster_name", "a_faction", "a_roster_id",
    "b_user_id", "b_guest_key", "b_player", "b_roster_name", "b_faction", "b_roster_id",
    "status", "result", "seq", "created_at", "updated_at", "ended_at",
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
        held = viewer is not None and match.seat_of(viewer) is not None
        match.summary_url = reverse("matches:match-summary", args=[match.pk]) if held else ""
    return matches


def _outcome(match: Match, side: str) -> str:
    if match.status != Match.Status.ENDED:
        return "In progress"
    if match.result == "draw":
        return "Draw"
    return "Won" if match.result == side else "Lost"


_POLL_SQL: dict[tuple[str, str], str] = {}
_POLL_COLUMNS = ("id", "seq", "status", "a_token", "b_token")


def poll_row(column: str, value: object) -> dict | None:
    """What a poll needs of a match (by "id" or "watch_slug"), in one plain query: a quiet poll
    every two seconds from every tablet is the most frequent request, and building this SELECT
    through the ORM cost more than running it."""
    connection = db()
    sql = _POLL_SQL.get((connection.vendor, column))
    if sql is None:
        quote = connection.ops.quote_name
        sql = _POLL_SQL[(connection.vendor, column)] = (
            f"SELECT {', '.join(quote(c) for c in _POLL_COLUMNS)} "
            f"FROM {quote(Match._meta.db_table)} WHERE {quote(column)} = %s"
        )
    # On PostgreSQL (blitz_site.postgres) a cursor whose statement the server prepares once.
    prepared = getattr(connection, "prepared_cursor", connection.cursor)
    with prepared() as cursor:
        cursor.execute(sql, [value])
        found = cursor.fetchone()
    if found is None:
        return None
    row = dict(zip(_POLL_COLUMNS, found, strict=True))
    row["pk"] = row["id"]
    return row
