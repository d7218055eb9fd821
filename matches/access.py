"""Who may do what in a match: every match view asks this module, and nothing else decides.

The rules, in plain words:

- A match has two seats. Seat A is the player who started it. Seat B is the opponent who took it
  with the join link; until then the player of seat A plays both sides.
- A player (either seat) may open the board, tap it, end a round, end the match, use the attack
  helper (with its ECM and designation pages), and read the summary and the Markdown log.
- Only seat A manages the join link: sees it, shows its QR code, makes a new one, frees seat B.
- Anyone with the join link may open it; taking the free seat B makes them its player.
- Anyone with the watch link may watch: the board without its controls, its polls and the summary.
- Anyone else is told the match does not exist (404), whatever they ask for.
- A page of one game asked for a match of another game finds no match either (404); a tap of one
  game on a match of another is refused the same way by the tap writer (``matches.taps``).

How a request shows its seat. A seat belongs to an account or to a guest key (its owner; logging
in moves a guest's seats into the account) and has a token. Having found the seat through its
owner, the browser remembers it with its token in its session and, once it has opened the board,
in a Django signed cookie scoped to the match's URLs (HttpOnly, SameSite=Lax; salted with the
match and the session key, so it is void in another browser and once the session changes). A
remembered seat counts while its token is the match's: the cookie first (no database read), then
the session, then the owner (the long way). Logging out and changing the password give the seats
new tokens (``end_seats``), which ends every copy of the old claims; a freed seat B is taken
with a new token.

``match_for`` reads a match and decides what the request may do with it. ``act`` makes a change
as a player: the service it calls checks the claim's token on the locked match row, in the same
transaction as the change, so a tap reads no row before it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, TypeVar

from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse

from armies.models import Owner
from armies.owners import request_owner
from matches.models import SIDES, Match
from matches.services import NotAPlayer, match_seats_end

SEATS_KEY = "blitz_match_seats"
SEATS_KEPT = 50
SEAT_COOKIE_AGE = 60 * 60 * 24 * 30
# What telling a seat from its owner reads of a match, and its tokens: the long way's read.
OWNER_FIELDS = ("a_user", "a_guest_key", "b_user", "b_guest_key")
OWNER_ATTNAMES = {"a_user_id", "a_guest_key", "b_user_id", "b_guest_key"}
CLAIM_FIELDS = ("pk", "a_token", "b_token", *OWNER_FIELDS)
NOT_A_PLAYER = "You are not a player in this match."

To = Literal["watch", "join", "play", "manage"]
T = TypeVar("T")


@dataclass(frozen=True)
class Claim:
    """A seat this browser says it holds: the side and the seat's token."""

    side: str
    token: str

    def holds(self, match: Match) -> bool:
        return bool(self.token) and match.token(self.side) == self.token


@dataclass(frozen=True)
class Access:
    """A match and what the request may do with it: ``seat`` is the requester's seat ("a" or
    "b"), or None for a watcher (and for someone opening the join link without a seat)."""

    match: Match
    seat: str | None = None

    @property
    def manages(self) -> bool:
        """Seat A: the player who started the match shares and revokes its join link."""
        return self.seat == "a"

    @property
    def claim(self) -> Claim:
        if self.seat is None:
            raise ValueError("A watcher holds no seat.")
        return Claim(self.seat, self.match.token(self.seat))


def match_for(
    request: HttpRequest,
    pk: int | None = None,
    *,
    slug: str = "",
    to: To = "play",
    matches: QuerySet[Match] | None = None,
    game: str = "",
) -> Access:
    """The match and what the request may do with it, or Http404.

    ``to``: "watch" (by the watch link ``slug``: anyone, never a seat), "join" (by the join link
    ``slug``: anyone, with their seat if they hold one), "play" (``pk``: a player) or "manage"
    (``pk``: the player of seat A). ``matches`` reads fewer columns (a poll, the attack helper);
    the seat's owner is read separately only when no remembered claim holds. ``game``: the page
    is that game's (``blitz_site.systems`` id): a match of another game is not found.
    """
    matches = Match.objects.all() if matches is None else matches
    if game:
        matches = matches.filter(system=game)
    if to == "watch":
        return Access(get_object_or_404(matches, watch_slug=slug))
    if to == "join":
        match = get_object_or_404(matches, join_slug=slug)
        return Access(match, _seat(request, match))
    if to not in ("play", "manage"):
        raise ValueError(f"Unknown access: {to!r}.")
    match = get_object_or_404(matches, pk=pk)
    seat = _seat(request, match)
    if seat is None:
        raise Http404(NOT_A_PLAYER)
    if to == "manage" and seat != "a":
        raise Http404("Only the player who started the match manages its join link.")
    return Access(match, seat)


def act(
    request: HttpRequest, pk: int, change: Callable[[Claim], T], *, player: Access | None = None
) -> T:
    """``change(claim)`` as the player of match ``pk``: ``change`` calls a service that checks the
    claim's token on the locked row (raising NotAPlayer, or Match.DoesNotExist).

    The claim is ``player``'s (a view that has read the match), else the one the browser
    remembers (no read of its own). A refused claim is looked up the long way once (the seat was
    freed and taken again, or ended by a logout or a password change elsewhere) before a 404.
    """
    claim = player.claim if player else _remembered(request, pk) or _long_claim(request, pk)
    try:
        return change(claim)
    except (Match.DoesNotExist, NotAPlayer):
        pass
    try:
        return change(_long_claim(request, pk))
    except (Match.DoesNotExist, NotAPlayer):
        forget_seat(request, pk)
        raise Http404(NOT_A_PLAYER) from None


def still_holds(match_id: int, claim: Claim) -> bool:
    """Whether ``claim``'s seat of match ``match_id`` still has its token (one light read: a
    live stream asks after a seat of its match was ended or freed)."""
    return (
        bool(claim.token)
        and Match.objects.filter(pk=match_id, **{f"{claim.side}_token": claim.token}).exists()
    )


def holds_seat(match: Match, owner: Owner) -> bool:
    """Whether ``owner`` (an account or a guest key) holds a seat in ``match``."""
    return match.seat_of(owner) is not None


# --- Deciding -------------------------------------------------------------------------------------


def _seat(request: HttpRequest, match: Match) -> str | None:
    """The seat the requester holds in ``match``: a remembered claim whose token is the match's,
    else the owner's seat (then remembered; a stale remembered claim is forgotten)."""
    cookie = _cookie_claim(request, match.pk)
    if cookie is not None and cookie.holds(match):
        return cookie.side
    remembered = session_claims(request).get(match.pk)
    if remembered is not None and remembered.holds(match):
        return remembered.side
    if match.get_deferred_fields() & OWNER_ATTNAMES:
        match.refresh_from_db(fields=OWNER_FIELDS)  # a light read (a poll): one more query
    side = match.seat_of(request_owner(request))
    if side is None:
        if remembered is not None:
            forget_seat(request, match.pk)
        return None
    remember_seat(request, match, side)
    return side


def _long_claim(request: HttpRequest, pk: int) -> Claim:
    return match_for(request, pk, matches=Match.objects.only(*CLAIM_FIELDS)).claim


def _remembered(request: HttpRequest, pk: int) -> Claim | None:
    """The seat remembered for match ``pk``: its cookie, else the session (not yet checked)."""
    return _cookie_claim(request, pk) or session_claims(request).get(pk)


# --- The claims a browser keeps -------------------------------------------------------------------


def seat_cookie(match_id: int) -> str:
    return f"blitz_seat_{match_id}"


def _salt(match_id: int, session_key: str) -> str:
    return f"blitz-seat:{match_id}:{session_key}"


def _cookie_claim(request: HttpRequest, match_id: int) -> Claim | None:
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
    if side not in SIDES or not token:
        return None
    return Claim(side, token)


def set_seat_cookie(response: HttpResponse, request: HttpRequest, seat: Access) -> None:
    """Hand the browser its seat in ``seat.match`` as a cookie (the board does)."""
    match, claim = seat.match, seat.claim
    if not request.session.session_key:
        request.session.save()  # a session key to sign the cookie with
    response.set_signed_cookie(
        seat_cookie(match.pk),
        f"{claim.side}:{claim.token}",
        salt=_salt(match.pk, request.session.session_key),
        max_age=SEAT_COOKIE_AGE,
        path=reverse("matches:match-board", args=[match.pk]),
        secure=request.is_secure(),
        httponly=True,
        samesite="Lax",
    )


def session_claims(request: HttpRequest) -> dict[int, Claim]:
    """Every seat this browser's session remembers, by match id (not yet checked)."""
    claims = {}
    for match_id, seat in (request.session.get(SEATS_KEY) or {}).items():
        if match_id.isdigit() and isinstance(seat, list) and len(seat) == 2 and seat[0] in SIDES:
            claims[int(match_id)] = Claim(seat[0], str(seat[1]))
    return claims


def remember_seat(request: HttpRequest, match: Match, side: str) -> Claim:
    """The session remembers the seat ``side`` of ``match`` (after starting or joining it)."""
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


def end_seats(request: HttpRequest, *, account: bool = False) -> None:
    """End the seats this browser holds (its session's claims) and, with ``account``, every seat
    of the logged-in account: on logging out, and on changing the password."""
    seats = [(pk, claim.side, claim.token) for pk, claim in session_claims(request).items()]
    user_id = request.user.pk if account and request.user.is_authenticated else None
    match_seats_end(user_id=user_id, seats=seats)
