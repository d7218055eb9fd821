"""Who may do what in a match: the players (seats A and B) play; anyone with the watch link watches.

A browser remembers the seats it holds in its session, with each seat's token, so that a tap or a
poll can check the seat without loading the user: the token is compared with the match row that
the request reads anyway. Freeing a seat changes its token, which ends the old holder's access.

The board also hands the browser the seat in a cookie scoped to that match's URLs (HttpOnly,
SameSite=Lax), so a tap or a poll need not even load the session: the claim is checked against
the match row all the same, and a stale cookie falls back to the session. The cookie is a Django
signed cookie whose salt holds the match and the session key, so it is void in another browser
and once the session changes (logging in or out, changing the password). A copy kept with the
old session cookie would still carry a valid signature, so logging out and changing the password
also end the seats themselves (``end_seats``: new tokens, which the match row check refuses).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse
from django.urls import reverse

from armies.owners import request_owner
from matches.models import Match
from matches.services import match_seats_end

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


def _salt(match_id: int, session_key: str) -> str:
    return f"blitz-seat:{match_id}:{session_key}"


def cookie_claim(request: HttpRequest, match_id: int) -> Claim | None:
    """The seat the match's cookie names, if it was signed for this session (reading the
    session's key needs no database); not yet checked against the match."""
    session_key = request.session.session_key
    if not session_key:
        return None
    value = request.get_signed_cookie(
        seat_cookie(match_id),
        default="",
        salt=_salt(match_id, session_key),
        max_age=SEAT_COOKIE_AGE,
    )
    side, _, token = value.partition(":")
    if side not in ("a", "b") or not token:
        return None
    return Claim(side, token)


def set_seat_cookie(response: HttpResponse, request: HttpRequest, match: Match, side: str) -> None:
    if not request.session.session_key:
        request.session.save()  # a session key to sign the cookie with
    response.set_signed_cookie(
        seat_cookie(match.pk),
        f"{side}:{match.token(side)}",
        salt=_salt(match.pk, request.session.session_key),
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


def end_seats(request: HttpRequest, *, account: bool = False) -> None:
    """End the seats this browser holds (its session's claims) and, with ``account``, every seat
    of the logged-in account: on logging out, and on changing the password."""
    claims = request.session.get(SEATS_KEY) or {}
    seats = [
        (int(match_id), seat[0], str(seat[1]))
        for match_id, seat in claims.items()
        if match_id.isdigit() and isinstance(seat, list) and len(seat) == 2
    ]
    user_id = request.user.pk if account and request.user.is_authenticated else None
    match_seats_end(user_id=user_id, seats=seats)
