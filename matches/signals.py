"""A guest who signs up or logs in keeps the seats they hold in their matches; logging out ends the
seats the browser holds, a new password every seat of the account (however it was set: our form,
the admin, ``manage.py changepassword``)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.db.models.signals import pre_delete, pre_save
from django.dispatch import receiver
from django.http import HttpRequest

from blitz_site.signals import password_changed
from matches.access import end_seats, session_claims
from matches.models import SIDES, Match
from matches.services import match_seats_end


@receiver(user_logged_in)
def keep_guest_seats(sender, request: HttpRequest | None, user, **kwargs) -> None:
    """Move the guest seats remembered in this browser's session into the account."""
    if request is None or not hasattr(request, "session"):
        return
    for match_id, claim in session_claims(request).items():
        side = claim.side
        if not claim.token:
            continue
        Match.objects.filter(
            pk=match_id, **{f"{side}_user__isnull": True, f"{side}_token": claim.token}
        ).exclude(**{f"{side}_guest_key": ""}).update(
            **{f"{side}_user": user, f"{side}_guest_key": "", f"{side}_player": user.get_username()}
        )


@receiver(pre_delete, sender=settings.AUTH_USER_MODEL)
def keep_matches_of_a_deleted_account(sender, instance, **kwargs) -> None:
    """A deleted account's matches stay whole: its seats become closed guest seats (a key nobody
    holds), so the match, its log and the other player's history keep their player."""
    for side in SIDES:
        Match.objects.filter(**{f"{side}_user": instance}).update(
            **{f"{side}_user": None, f"{side}_guest_key": f"deleted-account-{instance.pk}"}
        )


@receiver(user_logged_out)
def end_seats_on_logout(sender, request: HttpRequest | None, user, **kwargs) -> None:
    """Sent before the session is flushed: its seats get new tokens, so a copy of this browser's
    cookies cannot go on tapping."""
    if request is not None and hasattr(request, "session"):
        end_seats(request)


@receiver(pre_save, sender=settings.AUTH_USER_MODEL)
def end_seats_on_a_new_password(sender, instance, update_fields=None, **kwargs) -> None:
    """Every seat of the account, in every browser, when its password changes; a browser still
    logged in finds its seats again through the account."""
    if instance.pk is None or (update_fields is not None and "password" not in update_fields):
        return  # a new account, or a save of other fields (the time of the last login)
    stored = sender.objects.filter(pk=instance.pk).values_list("password", flat=True).first()
    if stored is not None and stored != instance.password:
        match_seats_end(user_id=instance.pk)


@receiver(password_changed)
def end_seats_on_password_change(sender, request: HttpRequest, user, **kwargs) -> None:
    """And the seats this browser's session holds (the account's ended as the password was
    saved)."""
    end_seats(request)
