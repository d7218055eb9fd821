"""What a board offers a device, the same for every game: each log line's Undo or Redo, the
bar's "Undo last", and which side's turn controls it drives.

A player's board offers only what the tap writer (``matches.taps``) would take: no Undo on an
ended board but that of its end, no Redo of an event that a later change depends on. An undo of
the other player's change asks first ("Undo Anna's change #12?"), as the tap writer insists;
one's own stays one tap. While nobody has joined seat B, seat A's device plays both sides."""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import QuerySet

from matches.logs import LOG_FIELDS
from matches.models import SIDES, Match, MatchEvent
from matches.pages import player_label
from matches.taps import LOG_REACH

END_KIND = "end_match"  # the event that ends a match, in every game: an ended board undoes only it

# The columns a board's log reads: a log line's, and what its event changed and read (a Redo
# is not offered when a later change depends on it).
BOARD_LOG_FIELDS = (*LOG_FIELDS, "writes", "reads")


def board_log(match: Match) -> QuerySet[MatchEvent]:
    """The match's events, newest first, with the columns a board's log reads."""
    return MatchEvent.objects.filter(match=match).only(*BOARD_LOG_FIELDS).order_by("-seq")


def takes_a_redo(match: Match, event: MatchEvent) -> bool:
    """Whether ``event`` (just stored, counting) depends on an undone event the board's log
    still offers a Redo of (``match.undone_seq``, read with the tap's row): then that Redo is
    no longer offered and the log is drawn afresh. One query, only when the log holds one."""
    if not getattr(match, "undone_seq", None) or not event.effective or event.kind == "undo":
        return False
    touched = set(event.writes or ()) | set(event.reads or ())
    undone = MatchEvent.objects.filter(
        match=match, seq__gt=event.seq - LOG_REACH, effective=False, refused=False
    ).exclude(kind="undo")
    return any(touched & set(writes or ()) for writes in undone.values_list("writes", flat=True))


def theirs(event: MatchEvent, seat: str | None) -> str:
    """The other player's name when ``event`` is theirs (an undo of it asks first), else ""."""
    side = event.actor_side
    if seat is None or side not in SIDES or side == seat:
        return ""
    return player_label(event.actor_name, side)


def offers(rows: Sequence[MatchEvent], seat: str | None, ended: bool) -> dict[int, dict]:
    """What each log line offers the device of ``seat`` (None: a watcher, nothing), by event
    number: ``undo`` (one tap), ``ask`` (the undo is of the other player's change: their name,
    and the board asks first) or ``redo``. ``rows`` are the lines shown, newest first: a Redo is
    offered when no later change among them that counts reads or writes what it wrote."""
    offered: dict[int, dict] = {}
    later: set[str] = set()  # what the counting changes after a line touched
    for row in rows:
        offer = {"undo": False, "redo": False, "ask": ""}
        counts = not row.refused and row.kind != "undo"
        if seat is not None and counts:
            if row.effective and (not ended or row.kind == END_KIND):
                offer |= {"undo": True, "ask": theirs(row, seat)}
            elif not row.effective and not ended and not set(row.writes or ()) & later:
                offer["redo"] = True
        if counts and row.effective:
            later |= set(row.writes or ()) | set(row.reads or ())
        offered[row.seq] = offer
    return offered


def undo_last(rows: Sequence[MatchEvent], seat: str | None) -> dict:
    """The bar's "Undo last": one tap when the latest change that counts is this device's own
    (or not among ``rows``: the tap writer decides), else its number and the other player's
    name, so the bar asks first."""
    for row in rows:
        if row.effective and not row.refused and row.kind != "undo":
            return {"seq": row.seq, "ask": theirs(row, seat)}
    return {"seq": 0, "ask": ""}


def drives(match: Match, seat: str | None, side: str) -> bool:
    """Whether the device of ``seat`` is offered ``side``'s turn controls (its rolls, who goes
    first, activating) as they are: its own side's, and both sides' while nobody has joined seat
    B (one device for both players). The other side's sit behind "Act for Anna…"."""
    return seat is not None and (seat == side or not match.b_token)
