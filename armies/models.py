"""Rosters as stored: the choices a player made, in the shape ``rules`` reads back.

A roster's army (groups, models, options) is one JSON document made by
``rules.roster_to_dict``; the row adds who owns it, its share link and bookkeeping.
Costs and legality are never stored: ``rules`` computes them from the document.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone

from blitz_site import systems

TRASH_DAYS = 30
SHARE_SLUG_BYTES = 16  # 128 bits of randomness, URL-safe base64: 22 characters


def new_share_slug() -> str:
    return secrets.token_urlsafe(SHARE_SLUG_BYTES)


def known_system(value: str) -> None:
    """A game id the registry (``blitz_site.systems``) knows; the list is the registry's, not
    the column's, so a new game needs no migration."""
    if systems.find(value) is None:
        raise ValidationError(
            "Blitz does not know the game “%(value)s”.",
            code="unknown_system",
            params={"value": str(value)[:40]},
        )


def system_field() -> models.CharField:
    """The game a row belongs to, checked against ``blitz_site.systems`` (no ``choices``);
    rows from before there were two games are Heavy Gear Blitz."""
    return models.CharField(
        max_length=systems.MAX_ID, validators=[known_system], default=systems.DEFAULT.id
    )


class RosterQuerySet(models.QuerySet):
    def live(self) -> RosterQuerySet:
        return self.filter(deleted_at__isnull=True)

    def in_trash(self) -> RosterQuerySet:
        cutoff = timezone.now() - timedelta(days=TRASH_DAYS)
        return self.filter(deleted_at__isnull=False, deleted_at__gte=cutoff)

    def owned_by(self, owner: Owner) -> RosterQuerySet:
        if owner.user_id is not None:
            return self.filter(owner_id=owner.user_id)
        if owner.guest_key:
            return self.filter(owner__isnull=True, guest_key=owner.guest_key)
        return self.none()


class Roster(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="rosters",
    )
    # A guest's rosters belong to a random key kept in their session until they sign up.
    guest_key = models.CharField(max_length=64, blank=True, db_index=True)
    system = system_field()
    name = models.CharField(max_length=80)
    faction = models.CharField(max_length=64)
    tv_limit = models.PositiveIntegerField(default=610)
    army = models.JSONField(default=dict)
    data_fingerprint = models.CharField(max_length=80)
    share_slug = models.CharField(max_length=32, unique=True, null=True, blank=True)
    # Keys of the last requests that changed this roster: a retried request applies once.
    applied_keys = models.JSONField(default=list, blank=True)
    # The once-only key of the form that created this roster (new or imported): the same form
    # sent twice makes one roster (see armies.services.roster_create).
    create_key = models.CharField(max_length=64, blank=True, default="")
    copied_from = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="copies"
    )
    # The datacard pack completing this roster's figures; None: the owner's own (their first).
    pack = models.ForeignKey(
        "DataPack", null=True, blank=True, on_delete=models.SET_NULL, related_name="rosters"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    deleted_at = models.DateTimeField(null=True, blank=True)

    objects = RosterQuerySet.as_manager()

    class Meta:
        ordering = ["-updated_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(owner__isnull=False) | ~models.Q(guest_key=""),
                name="roster_has_an_owner_or_a_guest_key",
            ),
            models.UniqueConstraint(
                fields=["owner", "create_key"],
                condition=models.Q(owner__isnull=False) & ~models.Q(create_key=""),
                name="roster_create_key_once_per_user",
            ),
            models.UniqueConstraint(
                fields=["guest_key", "create_key"],
                condition=models.Q(owner__isnull=True) & ~models.Q(create_key=""),
                name="roster_create_key_once_per_guest",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def purge_at(self):
        return self.deleted_at + timedelta(days=TRASH_DAYS) if self.deleted_at else None


class RevokedShareSlug(models.Model):
    """A share link that was turned off or replaced: only its slug, never which roster it showed.

    Opening it says the link was turned off (and that its owner can make a new one) instead of
    the plain "not found" a slug that never existed gets.
    """

    slug = models.CharField(max_length=32, unique=True)
    revoked_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.slug


class Owner:
    """Who is asking: a signed-in user, or a guest known by the key in their session."""

    def __init__(self, user_id: int | None, guest_key: str | None) -> None:
        self.user_id = user_id
        self.guest_key = guest_key or ""

    @property
    def is_guest(self) -> bool:
        return self.user_id is None

    def owns(self, roster: Roster | DataPack) -> bool:
        if self.user_id is not None:
            return roster.owner_id == self.user_id
        return (
            roster.owner_id is None and bool(self.guest_key) and roster.guest_key == self.guest_key
        )


class DataPackQuerySet(models.QuerySet):
    def owned_by(self, owner: Owner) -> DataPackQuerySet:
        """The owner's packs in use (a deleted pack is only in ``in_trash``)."""
        return self.any_owned_by(owner).filter(deleted_at__isnull=True)

    def any_owned_by(self, owner: Owner) -> DataPackQuerySet:
        """The owner's packs, deleted ones too."""
        if owner.user_id is not None:
            return self.filter(owner_id=owner.user_id)
        if owner.guest_key:
            return self.filter(owner__isnull=True, guest_key=owner.guest_key)
        return self.none()

    def in_trash(self, owner: Owner) -> DataPackQuerySet:
        """The owner's packs deleted in the last ``TRASH_DAYS`` days (restorable)."""
        cutoff = timezone.now() - timedelta(days=TRASH_DAYS)
        return self.any_owned_by(owner).filter(deleted_at__gte=cutoff)

    def of(self, system: systems.GameSystem) -> DataPackQuerySet:
        return self.filter(system=system.id)


class DataPack(models.Model):
    """Datacard figures a player typed in (or imported, or copied): ``rules.complete_catalog``
    fills with them only what the game data leaves empty. ``figures`` is the pack as
    ``rules.check_pack`` returns it."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="datapacks",
    )
    guest_key = models.CharField(max_length=64, blank=True, db_index=True)
    system = system_field()  # the game whose figures (or profiles) the pack holds
    name = models.CharField(max_length=80)
    # Who typed the figures in, as the pack says on every figure ("entered by jan").
    entered_by = models.CharField(max_length=150)
    figures = models.JSONField(default=dict, blank=True)
    data_fingerprint = models.CharField(max_length=80)
    share_slug = models.CharField(max_length=32, unique=True, null=True, blank=True)
    create_key = models.CharField(max_length=64, blank=True, default="")
    copied_from = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="copies"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # Deleted packs stay restorable for TRASH_DAYS days, as rosters do; then they are gone.
    deleted_at = models.DateTimeField(null=True, blank=True)

    objects = DataPackQuerySet.as_manager()

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(owner__isnull=False) | ~models.Q(guest_key=""),
                name="datapack_has_an_owner_or_a_guest_key",
            ),
            models.UniqueConstraint(
                fields=["owner", "create_key"],
                condition=models.Q(owner__isnull=False) & ~models.Q(create_key=""),
                name="datapack_create_key_once_per_user",
            ),
            models.UniqueConstraint(
                fields=["guest_key", "create_key"],
                condition=models.Q(owner__isnull=True) & ~models.Q(create_key=""),
                name="datapack_create_key_once_per_guest",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def entry_count(self) -> int:
        """How many entries hold figures: models and weapons, or Kill Team profiles."""
        return sum(len(entries) for entries in self.figures.values() if isinstance(entries, dict))

    @property
    def purge_at(self):
        return self.deleted_at + timedelta(days=TRASH_DAYS) if self.deleted_at else None


class RevokedPackSlug(models.Model):
    """A pack share link that was turned off: only its slug (as ``RevokedShareSlug``)."""

    slug = models.CharField(max_length=32, unique=True)
    revoked_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.slug
