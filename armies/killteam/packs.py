"""Kill Team profile packs as files, and a shared team's profiles copied into a library: each a
new pack (``armies.packs.new_pack``, once per form key), checked whole by ``rules.killteam``."""

from __future__ import annotations

import hashlib

from armies.models import DataPack, Owner, Roster
from armies.packs import MAX_ENTERED_BY, PackError, created_with, imported_by, new_pack, pack_name
from blitz_site.systems import KILLTEAM
from blitz_site.text import MESSAGE as UNSTORABLE_MESSAGE
from blitz_site.text import storable
from rules.killteam import packfile
from rules.killteam import profile as kt
from rules.killteam import team as kteam


def pack_export(pack: DataPack) -> str:
    """The pack as a file (``rules.killteam.packfile``), naming who typed its profiles."""
    profiles = (pack.figures or {}).get("profiles") or {}
    return packfile.pack_to_json(profiles, name=pack.name, entered_by=pack.entered_by)


def pack_import(
    *, owner: Owner, importer: str, filename: str, raw: bytes, key: str = ""
) -> DataPack:
    """A new Kill Team pack from a pack file, checked whole: nothing of a bad file is kept. Its
    profiles stay the file's author's, marked as imported by ``importer`` (``imported_by``)."""
    if first := created_with(owner, key):
        return first
    try:
        read = packfile.read_pack_file(filename, raw)
    except packfile.PackFileError as error:
        raise PackError(*error.messages) from None
    if not storable(read.profiles) or not storable(read.name):
        raise PackError(f"{filename}: {UNSTORABLE_MESSAGE}")
    return new_pack(
        owner,
        key=key,
        name=pack_name(read.name or filename.rsplit(".", 1)[0], "Imported profiles"),
        entered_by=imported_by(read.entered_by, importer),
        figures={"profiles": read.profiles},
        system=KILLTEAM.id,
        data_fingerprint=kt.data_fingerprint(),
    )


def team_profiles(team: kteam.Team) -> dict[str, dict]:
    """The distinct profiles a team's operatives were built from, by a stable id."""
    profiles = {}
    for operative in team.operatives:
        data = kt.profile_to_dict(operative.profile)
        digest = hashlib.sha256(repr(sorted(data.items())).encode()).hexdigest()[:10]
        profiles[digest] = data
    return profiles


def team_authors(team: kteam.Team) -> str:
    """Who typed a team's profiles, as its operatives say ("jan, ben")."""
    names = sorted({o.entered_by for o in team.operatives if o.entered_by}, key=str.casefold)
    return ", ".join(names)[:MAX_ENTERED_BY] or "players (the shared team names nobody)"


def pack_from_shared_team(*, owner: Owner, slug: str, key: str = "") -> DataPack:
    """The profiles of a shared kill team as a new pack of the owner's (Roster.DoesNotExist for
    a link that is not a live Kill Team's); each stays "entered by" whoever typed it."""
    roster = Roster.objects.live().filter(system=KILLTEAM.id).get(share_slug=slug)
    if first := created_with(owner, key):
        return first
    try:
        team = kteam.read_team(roster.army)
    except kt.ProfileError as error:
        raise PackError(f"This team can't be read: {error}") from None
    if not team.operatives:
        raise PackError("This team has no operatives yet: there are no profiles to copy.")
    return new_pack(
        owner,
        key=key,
        name=pack_name(f"Profiles of {roster.name}", "Copied profiles"),
        entered_by=team_authors(team),
        figures={"profiles": team_profiles(team)},
        system=KILLTEAM.id,
        data_fingerprint=kt.data_fingerprint(),
    )
