"""A Kill Team profile pack as a file: written by ``pack_to_json``, read back whole by
``read_pack_file`` (every profile checked as the profile form checks it; any problem refuses the
whole file, each problem named with its profile and field).

The file is JSON (as a roster export is)::

    {"blitz": "killteam-profiles", "version": 1, "name": "Cult profiles",
     "entered_by": "jan", "fingerprint": "killteam-…", "note": "…",
     "profiles": {"<id>": {<a profile as profile_to_dict writes it>}, …}}
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.errors import RulesError
from rules.files import FileError, read_json
from rules.killteam.profile import ProfileError, data_fingerprint, profile_to_dict, read_profile

FORMAT = "killteam-profiles"
VERSION = 1
MAX_PROFILES = 400
MAX_FILE_BYTES = 512 * 1024  # 400 full profiles fit
NOTE = (
    "Profiles entered by players, not from the rules text: check them against your datacards "
    "before relying on them."
)
PROFILE_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")


class PackFileError(RulesError):
    """A pack file that cannot be imported; ``messages`` holds one sentence per problem."""

    def __init__(self, messages: list[str]) -> None:
        self.messages = tuple(messages)
        super().__init__(" ".join(self.messages))


@dataclass(frozen=True)
class PackFile:
    name: str
    entered_by: str  # who the file says typed the profiles ("" when it names nobody)
    profiles: dict[str, dict[str, Any]]  # id -> the profile as profile_to_dict writes it


def pack_to_json(profiles: Mapping[str, Any], *, name: str, entered_by: str) -> str:
    """The pack's profiles as a file ``read_pack_file`` reads back (a profile that no longer
    reads is left out, as the library leaves it out)."""
    kept = {}
    for profile_id, data in sorted(profiles.items()):
        try:
            kept[profile_id] = profile_to_dict(read_profile(data))
        except ProfileError:
            continue
    document = {
        "blitz": FORMAT,
        "version": VERSION,
        "name": name,
        "entered_by": entered_by,
        "fingerprint": data_fingerprint(),
        "note": NOTE,
        "profiles": kept,
    }
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n"


def read_pack_file(name: str, raw: bytes | str) -> PackFile:
    """The profiles of a pack file, checked whole: PackFileError names every problem with its
    profile (number, name and id) and field; nothing of a bad file is returned."""
    try:
        document = read_json(name, raw, max_bytes=MAX_FILE_BYTES)
    except FileError as error:
        raise PackFileError([str(error)]) from None
    if not isinstance(document, Mapping) or document.get("blitz") != FORMAT:
        raise PackFileError(
            [f"{name}: not a Kill Team profile pack (Blitz writes one with “Export profiles”)."]
        )
    if document.get("version") != VERSION:
        raise PackFileError(
            [f"{name}: written by another version of Blitz ({document.get('version')!r})."]
        )
    raw_profiles = document.get("profiles")
    if not isinstance(raw_profiles, Mapping):
        raise PackFileError([f"{name}: “profiles” must be a table of profiles by id."])
    if len(raw_profiles) > MAX_PROFILES:
        raise PackFileError([f"{name}: a pack holds at most {MAX_PROFILES} profiles."])
    problems: list[str] = []
    profiles: dict[str, dict[str, Any]] = {}
    for number, (profile_id, data) in enumerate(raw_profiles.items(), start=1):
        shown = data.get("name") if isinstance(data, Mapping) else None
        where = f"{name}: profile {number}" + (f" “{shown}”" if isinstance(shown, str) else "")
        if not PROFILE_ID.fullmatch(profile_id):
            problems.append(f"{where}: its id must be 1 to 40 letters, digits, - or _.")
            continue
        try:
            profiles[profile_id] = profile_to_dict(read_profile(data))
        except ProfileError as error:
            problems += [
                f"{where} (id {profile_id}), {problem.field or 'profile'}: {problem.message}"
                for problem in error.problems
            ]
    if problems:
        raise PackFileError(problems)
    pack_name = document.get("name")
    author = document.get("entered_by")
    return PackFile(
        name=pack_name if isinstance(pack_name, str) else "",
        entered_by=author if isinstance(author, str) else "",
        profiles=profiles,
    )
