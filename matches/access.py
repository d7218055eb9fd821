"""Who may do what in a match: the players (seats A and B) play; anyone with the watch link watches.

A browser remembers the seats it holds in its session, with each seat's token, so that a tap or a
poll can check the seat without loading the user: the token is compared with the match row that
the request reads anyway. Freeing a seat changes its token, which ends the old holder's access.

The board also hands the browser the seat in a cookie scoped to that match's URLs (HttpOnly,
SameSite=Lax), so a tap or a poll need not even load the session: the claim is checked against
the match row all the same, and a stale cookie falls back to the session.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.crypto import constant_time_compare, salted_hmac

from armies.owners import request_owner
from matches.models import Match

SEATS_KEY = "blitz_match_seats"
SEATS_KEPT = 50
SEAT_COOKIE_AGE = 60 * 60 * 24 * 30


@dataclass(frozen=True)
class Claim:
    """A seat this browser says it holds: the side and the seat's token."""

    side: str
    token: str

    def holds(self, match: Match) -> bool:
        return bool(self.token) and match.token(self.side) == self.token


def seat_cookie(match_id: int) -> str:
    return f"blitz_seat_{match_id}"


def _seal(match_id: int, side: str, token: str, session_key: str | None) -> str:
    """Binds a seat cookie to this browser session: logging out (a new session) voids it."""
    return salted_hmac("blitz-seat", f"{match_id}:{side}:{token}:{session_key}").hexdigest()[:20]


def cookie_claim(request: HttpRequest, match_id: int) -> Claim | None:
    """The seat the match's cookie names, if it was sealed for this session (reading the
    session's key needs no database); not yet checked against the match."""
    side, token, seal = (request.COOKIES.get(seat_cookie(match_id), "").split(":") + ["", ""])[:3]
    session_key = request.session.session_key
    if side not in ("a", "b") or not token or not session_key:
        return None
    if not constant_time_compare(seal, _seal(match_id, side, token, session_key)):
        return None
    return Claim(side, token)


def set_seat_cookie(response: HttpResponse, request: HttpRequest, match: Match, side: str) -> None:
    if not request.session.session_key:
        request.session.save()  # a session key to seal the cookie with
    token = match.token(side)
    response.set_cookie(
        seat_cookie(match.pk),
        f"{side}:{token}:{_seal(match.pk, side, token, request.session.session_key)}",
        max_age=SEAT_COOKIE_AGE,
        path=reverse("matches:match-board", args=[match.pk]),
        secure=request.is_secure(),
        httponly=True,
        samesite="Lax",
    )


def cached_claim(request: HttpRequest, match_id: int) -> Claim | None:
    """The seat remembered for this match: its cookie, else the session (not yet checked)."""
    claim = cookie_claim(request, match_id)
    if claim is not None:
        return claim
    return session_claim(request, match_id)


def session_claim(request: HttpRequest, match_id: int) -> Claim | None:
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
    claim = session_claim(request, match.pk)
    for remembered in (cookie_claim(request, match.pk), claim):
        if remembered is not None and remembered.holds(match):
            return remembered.side
    side = match.seat_of(request_owner(request))
    if side is None:
        if claim is not None:
            forget_seat(request, match.pk)
        return None
    remember_seat(request, match, side)
    return side
