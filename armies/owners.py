"""Who owns a roster: the signed-in user, or the guest key in the browser session."""

from __future__ import annotations

import secrets

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest

from armies.models import DataPack, Owner, Roster

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
