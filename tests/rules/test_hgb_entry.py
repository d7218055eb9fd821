"""Typing an army's figures: a card's weapons, progress, and a pasted table read into a pack."""

from __future__ import annotations

import pytest

import rules.hgb
from rules.hgb.datapack import MAX_IMPORT_BYTES

CATALOG = rules.hgb.default_catalog()


def read(text: str) -> dict:
    return rules.hgb.read_figure_table(text, CATALOG)


def problems(text: str) -> list[str]:
    with pytest.raises(rules.hgb.PackError) as refused:
        read(text)
    return list(refused.value.messages)


def test_a_card_lists_its_loadout_then_the_weapons_its_options_add():
    assert rules.hgb.card_weapons(CATALOG, "grizzly") == ("HAC", "MBZK")
    hunter = rules.hgb.card_weapons(CATALOG, "hunter")
    assert hunter[:2] == ("LAC", "LRP") and {"MAC", "HPZF", "FGC", "SC"} <= set(hunter)
    assert len(hunter) == len(set(hunter))
    assert rules.hgb.card_weapons(CATALOG, "nobody") == ()


def test_an_army_lists_each_model_once_with_the_weapons_it_carries():
    army = rules.hgb.preset_roster(CATALOG, "north_starter")
    models = rules.hgb.army_models(army, CATALOG)
    assert list(models) == ["hunter", "headhunter", "grizzly", "jaguar"]
    assert set(models["hunter"]) == {"LAC", "LRP", "MAC", "HPZF"}  # two Hunters took the MAC
    assert set(models["grizzly"]) == {"HAC", "MBZK"}


def test_progress_counts_each_figure_once_and_what_the_data_gives():
    assert rules.hgb.figure_progress(CATALOG, [("models", "hunter")] * 2) == (1, 21)
    done = rules.hgb.complete_catalog(CATALOG, {"models": {"jaguar": {"size": 5}}})
    assert rules.hgb.figure_progress(done, [("models", "jaguar"), ("weapons", "LAC")]) == (2, 30)


def test_a_spreadsheets_table_with_names_blank_lines_and_minus_signs_is_read():
    text = (
        "\ufeffID\tSize\tmovement.walker.combat.defense_modifier\n"
        "HeadHunter\t5\t\u22121\n"
        "\n"
        "id,accuracy,dm,traits\n"
        "Heavy Autocannon,-1,10,AP:1; Brawl\n"
        "lac,0,,\n"
    )
    assert read(text) == {
        "models": {"headhunter": {"size": 5, "movement.walker.combat.defense_modifier": -1}},
        "weapons": {
            "HAC": {"accuracy": -1, "dm": 10, "traits": ["AP:1", "Brawl"]},
            "LAC": {"accuracy": 0},
        },
    }


@pytest.mark.parametrize(
    "text, sentence",
    [
        ("size\nhunter,5", "Row 1: the first row of a table names its columns, starting with id."),
        ("id,size,size\nhunter,5", "Row 1: the column “size” is named twice."),
        ("id,sise\nhunter,5", "Row 1, column 2 (“sise”): is not a datacard figure."),
        ("id,size\nwarlord,5", "Row 2, column 1: the data has no model or weapon “warlord”."),
        ("id,size\nhunter,5\nHunter,6", "Row 3: “Hunter” is already in row 2."),
        ("id,size\nhunter,5,6", "Row 2 has 3 cells; its table's header names 2."),
        ("id,size\nhunter,½", "Row 2: model entry 'hunter', field 'size': must be a whole number"),
        (
            "id,size\nhunter,21",
            "Row 2: model entry 'hunter', field 'size': must be a whole number from 1 to 20",
        ),
        (
            "id,armor\nhunter,14",
            "Row 2: model entry 'hunter', field 'armor': the data already gives",
        ),
        ("id,dm\nhunter,7", "Row 2: model entry 'hunter', field 'dm': is not a datacard figure."),
        ("id,size\n", "The table has no figures"),
    ],
)
def test_every_problem_names_its_row_and_column(text, sentence):
    assert any(p.startswith(sentence) for p in problems(text)), problems(text)


def test_every_problem_of_a_table_is_named_at_once():
    found = problems("id,size,sise\nhunter,x\nwarlord,1\nhunter,2")
    assert len(found) == 4


def test_a_table_over_the_size_bound_is_refused_before_reading():
    assert problems("id,size\n" + "x" * MAX_IMPORT_BYTES)[0] == "The table is larger than 128 KB."


def test_merging_says_what_was_new_and_what_replaced_a_different_figure():
    pack = {"models": {"jaguar": {"size": 5, "armor": 12}}}
    table = {"models": {"jaguar": {"size": 5, "armor": 13, "sensors": 1}}}
    merged, added, replaced = rules.hgb.merge_figures(pack, table)
    assert merged == {"models": {"jaguar": {"size": 5, "armor": 13, "sensors": 1}}}
    assert (added, replaced) == (1, 1)


def test_the_written_table_reads_back_as_the_same_figures():
    pack = {
        "models": {"jaguar": {"size": 5, "movement.ground.top.mp": 9}},
        "weapons": {"HAC": {"traits": ["AP:1", "Brawl"], "ranges.long": 36}},
    }
    entries = [("models", "hunter"), ("models", "jaguar"), ("weapons", "HAC"), ("weapons", "LAC")]
    text = rules.hgb.write_figure_table(pack, CATALOG, entries)
    assert read(text) == pack
