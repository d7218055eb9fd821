"""Who may do what in a match: the players (seats A and B) play; anyone with the watch link watches.

A browser remembers the seats it holds in its session, with each seat's token, so that a tap or a
poll can check the seat without loading the user: the token is compared with the match row that
the request reads anyway. Freeing a seat changes its token, which ends the old holder's access.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpRequest

from armies.owners import request_owner
from matches.models import Match

SEATS_KEY = "blitz_match_seats"
SEATS_KEPT = 50


@dataclass(frozen=True)
class Claim:
    """A seat this browser says it holds: the side and the seat's token."""

    side: str
    token: str

    def holds(self, match: Match) -> bool:
        return bool(self.token) and match.token(self.side) == self.token


def cached_claim(request: HttpRequest, match_id: int) -> Claim | None:
    """The seat remembered in the session for this match (not yet checked against the match)."""
    seat = request.session.get(SEATS_KEY, {}).get(str(match_id))
    if isinstance(seat, list) and len(seat) == 2 and seat[0] in ("a", "b"):
        return Claim(seat[0], str(seat[1]))
    return None


def remember_seat(request: HttpRequest, match: Match, side: str) -> Claim:
    claim = Claim(side, match.token(side))
    seats = dict(request.session.get(SEATS_KEY, {}))
    if seats.get(str(match.pk)) != [claim.side, claim.token]:
        seats.pop(str(match.pk), None)
        seats[str(match.pk)] = [claim.side, claim.token]
        request.session[SEATS_KEY] = dict(list(seats.items())[-SEATS_KEPT:])
    return claim


def forget_seat(request: HttpRequest, match_id: int) -> None:
    seats = dict(request.session.get(SEATS_KEY, {}))
    if seats.pop(str(match_id), None) is not None:
        request.session[SEATS_KEY] = seats


def player_seat(request: HttpRequest, match: Match) -> str | None:
    """The seat the requester holds in ``match`` ("a" or "b"), or None; remembered if held."""
    claim = cached_claim(request, match.pk)
    if claim is not None and claim.holds(match):
        return claim.side
    side = match.seat_of(request_owner(request))
    if side is None:
        if claim is not None:
            forget_seat(request, match.pk)
        return None
    remember_seat(request, match, side)
    return side
