"""Datacard packs: completing the catalog, precedence, export as a host file and import."""

from __future__ import annotations

import pytest

import rules.hgb
from rules.hgb.__main__ import check
from rules.hgb.datapack import PACK, RULES_TEXT, check_pack, read_pack_file

JAGUAR = {"models": {"jaguar": {"armor": 14, "movement.walker.combat.defense_modifier": 1}}}


def test_a_pack_fills_only_what_the_data_leaves_empty():
    catalog = rules.hgb.load_catalog()
    pack = check_pack({**JAGUAR, "weapons": {"LAC": {"accuracy": 0, "ranges.short": 12}}}, catalog)
    done = rules.hgb.complete_catalog(catalog, pack)
    assert done.models["jaguar"].armor == 14
    assert done.models["jaguar"].movement_for("walker", "combat").defense_modifier == 1
    assert done.weapons["LAC"].accuracy == 0 and done.weapons["LAC"].dm == 8
    assert done.weapons["LAC"].ranges.short == 12
    assert done.fingerprint == catalog.fingerprint
    assert catalog.models["jaguar"].armor is None  # the catalog itself is untouched


def test_the_hunters_armor_cannot_be_overridden_by_a_pack():
    catalog = rules.hgb.load_catalog()
    with pytest.raises(rules.hgb.PackError, match="already gives this figure"):
        check_pack({"models": {"hunter": {"armor": 3}}}, catalog)
    # and a pack that somehow holds it changes nothing
    done = rules.hgb.complete_catalog(catalog, {"models": {"hunter": {"armor": 3}}})
    assert done.models["hunter"].armor == 15


def test_each_figure_names_its_source():
    catalog = rules.hgb.load_catalog()
    sources = rules.hgb.figure_sources(catalog, catalog, "models", "hunter", JAGUAR)
    assert sources["armor"] == RULES_TEXT and sources["size"] is None
    assert rules.hgb.figure_sources(catalog, catalog, "models", "jaguar", JAGUAR)["armor"] == PACK


@pytest.mark.parametrize(
    ("pack", "words"),
    [
        ({"models": {"jaguar": {"armor": 1000}}}, "from 1 to 99"),
        ({"models": {"jaguar": {"armor": "7"}}}, "whole number"),
        ({"models": {"jaguar": {"armor": True}}}, "whole number"),
        ({"models": {"nope": {"armor": 7}}}, "no model with this id"),
        ({"weapons": {"NOPE": {"dm": 7}}}, "no weapon with this id"),
        ({"models": {"jaguar": {"tv": 7}}}, "not a datacard figure"),
        ({"squads": {}}, "not part of a datacard pack"),
    ],
)
def test_bad_packs_are_refused_in_words(pack, words):
    with pytest.raises(rules.hgb.PackError, match=words):
        check_pack(pack, rules.hgb.load_catalog())


def test_an_exported_pack_is_a_host_file_that_check_accepts_and_reads_back(tmp_path, capsys):
    catalog = rules.hgb.load_catalog()
    pack = check_pack(
        {**JAGUAR, "weapons": {"LAC": {"accuracy": 0, "ranges.short": 12, "traits": ["AP"]}}},
        catalog,
    )
    text = rules.hgb.pack_to_toml(pack, catalog, name='Jan\'s "cards"', owner="jan")
    assert "entered by jan" in text.lower()
    (tmp_path / "pack.toml").write_text(text, encoding="utf-8")
    assert check([str(tmp_path)]) == 0
    hosted = rules.hgb.load_catalog([tmp_path])
    assert hosted.models["jaguar"].armor == 14
    assert hosted.weapons["LAC"].dm == 8  # untouched
    assert read_pack_file("pack.toml", text.encode(), catalog) == pack


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        (b"data_version = 'x'\n[[models]]\nid = 'jaguar'\narmor = -1\n", "'armor'"),
        (b"data_version = 'x'\n[[models]]\nid = 'jaguar'\nname = 'J'\n", "not a datacard"),
        (b"[[models]]\nid = 'jaguar'\narmor = 7\n", "data_version"),
        (b"not toml ===", "not valid TOML"),
        (b"\xff\xfe", "not UTF-8"),
    ],
)
def test_bad_files_name_file_entry_and_field(raw, words):
    with pytest.raises(rules.hgb.PackError, match=words) as error:
        read_pack_file("mine.toml", raw, rules.hgb.load_catalog())
    assert all(message.startswith("mine.toml") for message in error.value.messages)
