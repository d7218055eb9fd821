"""Who owns a roster: the signed-in user, or the guest key in the browser session; and the
requester's own roster or datacard pack, which every game's pages start from (404 otherwise)."""

from __future__ import annotations

import secrets

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404
from django.urls import reverse

from armies.models import DataPack, Owner, Roster
from blitz_site.systems import GameSystem

GUEST_KEY = "blitz_guest_key"


def request_owner(request: HttpRequest, *, create: bool = False) -> Owner:
    """The owner for this request; ``create`` gives a guest a key on their first roster."""
    if request.user.is_authenticated:
        return Owner(request.user.pk, None)
    key = request.session.get(GUEST_KEY)
    if not key and create:
        key = secrets.token_urlsafe(24)
        request.session[GUEST_KEY] = key
    return Owner(None, key)


def own_roster(request: HttpRequest, pk: int, system: GameSystem | None = None) -> Roster:
    """The requester's live roster (of ``system`` only, when given), or 404 (another player's
    roster is not even confirmed)."""
    rosters = Roster.objects.live().owned_by(request_owner(request))
    return get_object_or_404(rosters.filter(system=system.id) if system else rosters, pk=pk)


def edit_url(roster_id: int, anchor: str = "") -> str:
    """The roster's editor, at ``anchor`` when given."""
    url = reverse("armies:roster-edit", args=[roster_id])
    return f"{url}#{anchor}" if anchor else url


def own_pack(request: HttpRequest, pk: int, system: GameSystem | None = None) -> DataPack:
    """The requester's pack (of ``system`` only, when given), or 404 (another player's pack is
    not even confirmed)."""
    mine = DataPack.objects.owned_by(request_owner(request))
    pack = (mine.of(system) if system else mine).filter(pk=pk).first()
    if pack is None:
        raise Http404("No such datacard pack.")
    return pack


def library_url(pack: DataPack | None = None) -> str:
    url = reverse("datacards")
    return f"{url}?pack={pack.pk}" if pack else url


@receiver(user_logged_in)
def keep_guest_rosters(sender, request: HttpRequest | None, user, **kwargs) -> None:
    """Signing up or logging in moves the guest's rosters and datacard packs into the account
    (figures the guest typed in are then entered by the account's name)."""
    if request is None:
        return
    key = request.session.pop(GUEST_KEY, None)
    if key:
        Roster.objects.filter(owner__isnull=True, guest_key=key).update(owner=user, guest_key="")
        packs = DataPack.objects.filter(owner__isnull=True, guest_key=key)
        packs.filter(copied_from__isnull=True, entered_by="a guest").update(
            entered_by=user.get_username()
        )
        packs.update(owner=user, guest_key="")
