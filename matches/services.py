"""The writes to a match that are the same for every game: joining, the join link, ending seats.

Each game starts its matches in its own package (``matches.hgb.services``,
``matches.killteam.services``); every tap goes through ``matches.taps``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import IntegrityError, transaction

from armies.models import Owner, Roster
from matches.models import SIDES, Match, new_slug
from matches.push import SEATS_ENDED, publish_on_commit


class MatchError(Exception):
    """A request about a match that cannot be done; the message says why, in words."""


class NotAPlayer(Exception):
    """The seat claimed does not hold the match (freed, or never held)."""


def started_with(owner: Owner, key: str) -> Match | None:
    """The match a start form with this once-only key already started, if any."""
    if not key:
        return None
    if owner.user_id is not None:
        return Match.objects.filter(a_user_id=owner.user_id, create_key=key).first()
    return Match.objects.filter(
        a_user__isnull=True, a_guest_key=owner.guest_key, create_key=key
    ).first()


def roster_columns(mine: Roster, opponent: Roster, faction: str) -> dict[str, Any]:
    """The match columns of the two rosters a match starts from (seat A's, seat B's): the
    roster, its army, its name, the faction shown, and the fingerprint of the data it was built
    from."""
    columns: dict[str, Any] = {}
    for side, roster in (("a", mine), ("b", opponent)):
        columns |= {
            f"{side}_roster": roster,
            f"{side}_army": roster.army,
            f"{side}_roster_name": roster.name[:200],
            f"{side}_faction": faction,
            f"{side}_fingerprint": roster.data_fingerprint,
        }
    return columns


def match_create(
    *, system: str, owner: Owner, player: str, initial: dict, key: str = "", **sides: Any
) -> Match:
    """A new match of game ``system`` (its ``initial`` state as plain data, its ``sides``' match
    columns), with ``owner`` in seat A; once per form ``key``: a second submit of the same form
    (even at the same moment) gets the match the first one started."""
    try:
        with transaction.atomic():
            return Match.objects.create(
                system=system,
                a_user_id=owner.user_id,
                a_guest_key="" if owner.user_id else owner.guest_key,
                a_player=player,
                initial=initial,
                state=initial,
                create_key=key,
                **sides,
            )
    except IntegrityError:
        # The same key committed by a submit that got there first: the unique index waited for
        # it, so its row is visible now. (Anything else is a real error.)
        if first := started_with(owner, key):
            return first
        raise


def match_join(*, slug: str, owner: Owner, player: str) -> tuple[Match, str]:
    """Take seat B of the match whose join link is ``slug``; returns the match and the seat."""
    with transaction.atomic():
        match = Match.objects.select_for_update().get(join_slug=slug)
        seat = match.seat_of(owner)
        if seat is not None:
            return match, seat
        if not match.is_live:
            raise MatchError("This match has ended: there is no seat to take.")
        if match.b_joined:
            raise MatchError(
                f"{match.b_player or 'Another player'} has already joined this match as "
                f"{match.b_roster_name}."
            )
        match.b_user_id = owner.user_id
        match.b_guest_key = "" if owner.user_id else owner.guest_key
        match.b_player = player
        match.b_token = new_slug()
        match.save(update_fields=["b_user", "b_guest_key", "b_player", "b_token", "updated_at"])
        publish_on_commit([match.pk], match.seq)  # the boards' polls fetch the players box
        return match, "b"


def match_new_join_link(*, match_id: int, owner: Owner, free_seat: bool = False) -> Match:
    """Revoke the join link (the old one stops working) and, if asked, free seat B."""
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        if match.seat_of(owner) != "a":
            raise MatchError("Only the player who started the match can change its join link.")
        match.join_slug = new_slug()
        fields = ["join_slug", "updated_at"]
        if free_seat:
            match.b_user_id, match.b_guest_key, match.b_player, match.b_token = None, "", "", ""
            fields += ["b_user", "b_guest_key", "b_player", "b_token"]
            publish_on_commit([match.pk], SEATS_ENDED)  # seat B's streams close
            publish_on_commit([match.pk], match.seq)  # the boards' polls fetch the players box
        match.save(update_fields=fields)
        return match


def match_seats_end(
    *, user_id: int | None = None, seats: Iterable[tuple[int, str, str]] = ()
) -> int:
    """End access to seats: every seat of account ``user_id``, and each ``(match id, side,
    token)`` in ``seats`` still held with that token. Each gets a new token, so every seat cookie
    and session claim naming the old one stops working (a browser still logged in to the account
    finds its seat again through the account), and the streams of those seats close
    (``matches.push.SEATS_ENDED``). Returns how many seats were ended."""
    ended: set[int] = set()
    count = 0
    with transaction.atomic():
        for side in SIDES if user_id is not None else ():
            held = Match.objects.filter(**{f"{side}_user_id": user_id}).values_list("pk", flat=True)
            for pk in held:
                if Match.objects.filter(pk=pk).update(**{f"{side}_token": new_slug()}):
                    ended.add(pk)
                    count += 1
        for pk, side, token in seats:
            if side in SIDES and token:
                if Match.objects.filter(pk=pk, **{f"{side}_token": token}).update(
                    **{f"{side}_token": new_slug()}
                ):
                    ended.add(pk)
                    count += 1
        publish_on_commit(sorted(ended), SEATS_ENDED)
    return count
