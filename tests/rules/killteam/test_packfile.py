"""A Kill Team profile pack as a file: what is written reads back exactly, and a bad file is
refused whole with each problem named by profile and field."""

from __future__ import annotations

import json

import pytest

from rules.killteam import packfile
from tests.factories import KT_PROFILE


def test_a_written_pack_reads_back_with_its_name_and_author():
    text = packfile.pack_to_json({"trooper": KT_PROFILE}, name="Cult", entered_by="jan")
    read = packfile.read_pack_file("cult.json", text.encode())
    assert read == packfile.PackFile("Cult", "jan", {"trooper": KT_PROFILE})


def test_every_problem_is_named_with_its_profile_and_field_and_nothing_is_kept():
    document = json.loads(packfile.pack_to_json({"a": KT_PROFILE}, name="x", entered_by="jan"))
    document["profiles"]["b"] = {**KT_PROFILE, "name": "Gunner", "apl": 0, "save": 9}
    document["profiles"]["bad id!"] = KT_PROFILE
    with pytest.raises(packfile.PackFileError) as caught:
        packfile.read_pack_file("f.json", json.dumps(document))
    messages = caught.value.messages
    assert any(
        m.startswith("f.json: profile 2 “Gunner” (id b), apl: APL must be") for m in messages
    )
    assert any("(id b), save:" in m for m in messages)
    assert any("profile 3" in m and "its id must be" in m for m in messages)


def test_a_file_too_large_is_refused_before_reading():
    with pytest.raises(packfile.PackFileError, match="larger than 512 KB"):
        packfile.read_pack_file("big.json", b" " * (packfile.MAX_FILE_BYTES + 1))
