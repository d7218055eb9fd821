"""Every write to a Kill Team roster or to the profiles of a Kill Team datacard pack: one
function each, in a transaction, asking ``rules.killteam`` for the result.

A roster keeps a copy of each operative's profile as it was added (its share page, exports,
print-outs and matches need no library); editing a profile later changes no roster until the
player picks the profile again for that operative.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace

from django.db import transaction

from armies import packs
from armies.models import DataPack, Owner, Roster
from armies.packs import PackError, imported_by, locked
from armies.services import Change, RosterError, change_once, clean_name, created_with, new_roster
from blitz_site import inputs
from blitz_site.systems import KILLTEAM
from rules.killteam import profile as kt
from rules.killteam import team as kteam

DEFAULT_NAME = "Kill team"
MAX_PROFILES = 400  # profiles in one pack (a Heavy Gear Blitz pack holds as many entries)


def stored_fields(team: kteam.Team) -> dict:
    """The row's fields of a Kill Team roster."""
    return {
        "system": KILLTEAM.id,
        "army": kteam.team_to_dict(team),
        "name": team.name,
        "faction": "",
        "data_fingerprint": kt.data_fingerprint(),
    }


@transaction.atomic
def team_create(*, owner: Owner, name: str = "", key: str = "") -> Roster:
    """A new, empty kill team, once per form ``key``."""
    if first := created_with(owner, key):
        return first
    team = kteam.new_team(clean_name(name or DEFAULT_NAME))
    return new_roster(owner, key=key, **stored_fields(team))


def team_change(
    *, owner: Owner, roster_id: int, key: str = "", change: Callable[[kteam.Team], kteam.Team]
) -> Change:
    """Apply one change to a kill team, once per key, under a row lock (Roster.DoesNotExist
    for anything but the owner's live Kill Team roster)."""

    def store(roster: Roster) -> None:
        for field, value in stored_fields(change(kteam.read_team(roster.army))).items():
            setattr(roster, field, value)

    return change_once(owner=owner, roster_id=roster_id, key=key, system=KILLTEAM, store=store)


def team_rename(*, owner: Owner, roster_id: int, name: str) -> Change:
    clean = clean_name(name)
    return team_change(
        owner=owner, roster_id=roster_id, change=lambda team: kteam.rename_team(team, clean)
    )


def team_name_ploy(*, owner: Owner, roster_id: int, key: str, ploy: kteam.Ploy) -> Change:
    """Name one of the team's own ploys, once per form ``key``."""
    return team_change(
        owner=owner,
        roster_id=roster_id,
        key=key,
        change=lambda team: kteam.name_ploy(team, ploy.name, ploy.kind, ploy.cost),
    )


def team_drop_ploy(*, owner: Owner, roster_id: int, name: str) -> Change:
    """Remove the team's ploy called ``name`` (already gone: nothing changes)."""
    return team_change(
        owner=owner, roster_id=roster_id, change=lambda team: kteam.drop_ploy(team, name)
    )


def team_set_grenades(*, owner: Owner, roster_id: int, frag: int, krak: int) -> Change:
    return team_change(
        owner=owner, roster_id=roster_id, change=lambda team: kteam.set_grenades(team, frag, krak)
    )


def team_set_kit(*, owner: Owner, roster_id: int, kit: dict[str, int]) -> Change:
    return team_change(
        owner=owner, roster_id=roster_id, change=lambda team: kteam.set_kit(team, kit)
    )


@dataclass(frozen=True)
class LibraryProfile:
    """A profile in one of the player's Kill Team packs."""

    pack: DataPack
    id: str
    profile: kt.OperativeProfile

    @property
    def choice(self) -> str:
        return f"{self.pack.pk}:{self.id}"


def library_profiles(packs: list[DataPack]) -> list[LibraryProfile]:
    """Every profile of these packs, by name (a stored profile that no longer reads, say after
    a change of the checks, is left out rather than offered)."""
    found = []
    for pack in packs:
        for profile_id, data in ((pack.figures or {}).get("profiles") or {}).items():
            try:
                found.append(LibraryProfile(pack, profile_id, kt.read_profile(data)))
            except kt.ProfileError:
                continue
    return sorted(found, key=lambda p: (p.profile.name.casefold(), p.pack.pk, p.id))


def _library_profile(owner: Owner, choice: str) -> LibraryProfile:
    pack_id, _, profile_id = choice.partition(":")
    pack = None
    if (asked := inputs.optional_id(pack_id)) is not None:
        pack = DataPack.objects.owned_by(owner).of(KILLTEAM).filter(pk=asked).first()
    found = [p for p in library_profiles([pack] if pack else []) if p.id == profile_id]
    if not found:
        raise RosterError("That profile is no longer in your datacards: pick another.")
    return found[0]


def operative_add(*, owner: Owner, roster_id: int, key: str, choice: str, name: str = "") -> Change:
    """Add an operative built from a profile of the owner's library (``choice``: "pack:id")."""
    picked = _library_profile(owner, choice)
    return team_change(
        owner=owner,
        roster_id=roster_id,
        key=key,
        change=lambda team: kteam.add_operative(
            team,
            picked.profile,
            name=name,
            entered_by=picked.pack.entered_by,
            source=picked.choice,
        ),
    )


def operative_change(
    *, owner: Owner, roster_id: int, operative_id: int, name: str, choice: str = ""
) -> Change:
    """Rename an operative and, with a ``choice``, build it from that library profile now."""
    picked = _library_profile(owner, choice) if choice else None
    return team_change(
        owner=owner,
        roster_id=roster_id,
        change=lambda team: kteam.change_operative(
            team,
            operative_id,
            name=name,
            profile=picked.profile if picked else None,
            entered_by=picked.pack.entered_by if picked else None,
            source=picked.choice if picked else None,
        ),
    )


@dataclass(frozen=True)
class Outdated:
    """An operative built from an older version of a profile still in the owner's library."""

    operative: kteam.Operative
    latest: LibraryProfile
    changes: tuple[str, ...]  # what the update replaces, in words ("Wounds 8 → 9")


def outdated_operatives(team: kteam.Team, profiles: list[LibraryProfile]) -> list[Outdated]:
    """The operatives whose library profile has changed since they were built from it: found
    by the profile they were built from, or, for an operative built before Blitz kept that,
    by its profile's name when exactly one library profile has it."""
    by_choice = {p.choice: p for p in profiles}
    by_name: dict[str, list[LibraryProfile]] = {}
    for entry in profiles:
        by_name.setdefault(entry.profile.name.casefold(), []).append(entry)
    found = []
    for operative in team.operatives:
        latest = by_choice.get(operative.source) if operative.source else None
        if not operative.source:
            named = by_name.get(operative.profile.name.casefold(), [])
            latest = named[0] if len(named) == 1 else None
        if latest is not None and latest.profile != operative.profile:
            changes = kteam.profile_changes(operative.profile, latest.profile)
            found.append(Outdated(operative, latest, tuple(changes)))
    return found


def team_update_profiles(*, owner: Owner, roster_id: int, key: str = "") -> Change:
    """Every operative built from an older version of a library profile rebuilt from the
    latest (their own names kept), in one change; once per key."""
    profiles = library_profiles(packs.library(owner, KILLTEAM))

    def update(team: kteam.Team) -> kteam.Team:
        latest = {
            o.operative.id: (o.latest.profile, o.latest.pack.entered_by, o.latest.choice)
            for o in outdated_operatives(team, profiles)
        }
        if not latest:
            raise RosterError("Every operative is already built from its latest profile.")
        return kteam.update_profiles(team, latest)

    return team_change(owner=owner, roster_id=roster_id, key=key, change=update)


def operative_remove(*, owner: Owner, roster_id: int, key: str, operative_id: int) -> Change:
    return team_change(
        owner=owner,
        roster_id=roster_id,
        key=key,
        change=lambda team: kteam.remove_operative(team, operative_id),
    )


def copy_fields(roster: Roster, name: str) -> dict:
    return stored_fields(kteam.rename_team(kteam.read_team(roster.army), name))


def import_fields(data: object, *, importer: str) -> dict:
    """A kill team's fields from an export's "roster", checked whole; each operative's profile
    stays entered by whom the file says, marked as imported by ``importer``."""
    try:
        team = kteam.read_team(data)
    except kt.ProfileError as error:
        raise RosterError("This file can't be imported. " + str(error)) from error
    team = replace(
        team,
        operatives=tuple(
            replace(operative, entered_by=imported_by(operative.entered_by, importer), source="")
            for operative in team.operatives
        ),
    )
    return stored_fields(kteam.rename_team(team, clean_name(team.name or "Imported kill team")))


# --- Profiles in a Kill Team datacard pack ------------------------------------------------------


def _profile_id(key: str) -> str:
    """A new profile's id: from the form's once-only key (a second submit of the same form
    saves over the first), else random."""
    if key:
        return hashlib.sha256(key.encode()).hexdigest()[:10]
    return secrets.token_hex(5)


@transaction.atomic
def profile_save(
    *, owner: Owner, pack_id: int, profile: kt.OperativeProfile, profile_id: str = "", key: str = ""
) -> str:
    """Save a profile into the owner's Kill Team pack (over ``profile_id``; new without it).
    Returns its id."""
    pack = locked(owner, pack_id, KILLTEAM)
    profiles = dict((pack.figures or {}).get("profiles") or {})
    if profile_id and profile_id not in profiles:
        raise PackError("That profile is no longer in this pack.")
    profile_id = profile_id or _profile_id(key)
    if profile_id not in profiles and len(profiles) >= MAX_PROFILES:
        raise PackError(f"A pack holds at most {MAX_PROFILES} profiles: start another pack.")
    profiles[profile_id] = kt.profile_to_dict(profile)
    pack.figures = {**(pack.figures or {}), "profiles": profiles}
    pack.data_fingerprint = kt.data_fingerprint()
    pack.save(update_fields=["figures", "data_fingerprint", "updated_at"])
    return profile_id


@transaction.atomic
def profile_delete(*, owner: Owner, pack_id: int, profile_id: str) -> None:
    """Delete a profile from a pack (the rosters built from it keep their copies)."""
    pack = locked(owner, pack_id, KILLTEAM)
    profiles = dict((pack.figures or {}).get("profiles") or {})
    if profiles.pop(profile_id, None) is None:
        return
    pack.figures = {**(pack.figures or {}), "profiles": profiles}
    pack.save(update_fields=["figures", "updated_at"])
