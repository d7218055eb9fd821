"""The mecha cards against the rules text: one test per sentence the cards check, named after it."""

from __future__ import annotations

import pytest

from rules.mecha import cards
from rules.mecha import force as edits


def weapon(**fields) -> dict:
    return {"name": "Gun", "type": "range", "fix": "1_handed", **fields}


def unit(*weapons: dict, **fields) -> dict:
    return {"name": "Zaku", "kind": "mobile_suit", **fields, "weapons": list(weapons)}


def read(*units: dict) -> cards.Force:
    return cards.read_force({"units": list(units)})


def refusal(*units: dict) -> cards.CardError:
    with pytest.raises(cards.CardError) as caught:
        read(*units)
    return caught.value


def test_all_melee_type_weapons_have_a_range_value_of_0():
    error = refusal(unit(weapon(type="melee", range=2)))
    assert error.field == "range"
    assert "All Melee type weapons have a Range value of 0" in str(error)
    assert "Unit 1 (“Zaku”), weapon 1 (“Gun”)" in str(error)
    assert read(unit(weapon(type="melee", range=0))).units[0].weapons[0].range == 0


def test_a_weapon_with_range_0_cannot_be_used_in_range_based_attacks():
    force = read(unit(weapon(range=0), weapon(range=12)))
    zero, twelve = force.units[0].weapons
    assert not cards.can_fire_ranged(zero) and cards.can_fire_ranged(twelve)
    assert cards.RANGE_ZERO in cards.weapon_notes(force.units[0], zero)
    assert "cannot be used in range based attacks" in cards.RANGE_ZERO
    assert cards.weapon_notes(force.units[0], twelve) == ()


def test_only_sracus_infantry_and_units_with_arms_have_hand_held_weapons():
    error = refusal(unit(weapon(fix="2_handed"), kind="other", kind_name="Tank"))
    assert error.field == "fix"
    assert "as well as other units with arms have hand held weapons" in str(error)
    read(unit(weapon(fix="2_handed"), kind="other", kind_name="Walker", has_arms=True, hands=2))
    read(unit(weapon(), kind="scaru", hands=2))
    read(unit(weapon(fix="turret"), kind="other", kind_name="Tank"))  # not hand held


def test_a_unit_with_no_hands_holds_no_hand_held_weapon():
    error = refusal(unit(weapon(), hands=0))
    assert error.field == "fix" and "no hands" in str(error)


def test_mobile_suits_and_infantry_have_two_hands_unless_stated():
    force = read(unit(), unit(kind="infantry"), unit(hands=1), unit(kind="scaru"))
    assert [cards.hands(u) for u in force.units] == [2, 2, 1, None]


def test_a_2_handed_weapon_in_one_hand_has_a_penalty_not_given_by_the_text():
    force = read(unit(weapon(fix="2_handed"), hands=1))
    notes = cards.weapon_notes(force.units[0], force.units[0].weapons[0])
    assert cards.ONE_HAND_2H in notes and "not given by the text" in cards.ONE_HAND_2H
    two = read(unit(weapon(fix="2_handed"))).units[0]
    assert cards.weapon_notes(two, two.weapons[0]) == ()


def test_a_unit_cannot_use_two_half_handed_weapons_at_the_same_time():
    zaku = read(unit(weapon(name="A", fix="1_2_handed"), weapon(name="B", fix="1_2_handed"))).units[
        0
    ]
    a, b = zaku.weapons
    with pytest.raises(cards.CardError, match="cannot use two 1/2 Handed weapons at the same time"):
        cards.check_held(zaku, {a.id: 1, b.id: 1})
    assert cards.check_held(zaku, {a.id: 2}) == ()
    assert "penalty is not given by the text" in cards.check_held(zaku, {a.id: 1})[0]


def test_hands_in_use_are_at_most_the_units_hands():
    zaku = read(unit(weapon(name="A"), weapon(name="B"), weapon(name="C", fix="2_handed"))).units[0]
    a, b, c = zaku.weapons
    assert cards.check_held(zaku, {a.id: 1, b.id: 1}) == ()
    with pytest.raises(cards.CardError, match="2 free hands; this uses 3"):
        cards.check_held(zaku, {a.id: 1, c.id: 2})
    with pytest.raises(cards.CardError, match="held in one hand"):
        cards.check_held(zaku, {a.id: 2})


def test_fixed_handed_weapons_replace_the_hand():
    zaku = read(unit(weapon(name="Claw", fix="fixed_handed"), weapon(name="Gun"), hands=2)).units[0]
    assert cards.free_hands(zaku) == 1
    error = refusal(unit(*(weapon(name=f"C{i}", fix="fixed_handed") for i in range(3))))
    assert "replace the hand or entire arm" in str(error)


def test_there_are_eight_x_arc_locations_seven_named_and_rear_right_inferred():
    assert list(cards.ARCS.values())[-1] == "Rear Right (inferred)" and len(cards.ARCS) == 8
    error = refusal(unit(weapon(fix="arc")))
    assert error.field == "arc" and "eight different locations" in str(error)
    gun = read(unit(weapon(fix="arc", arc="rear_right"))).units[0].weapons[0]
    assert gun.fix_label == "Rear Right (inferred) Arc"


@pytest.mark.parametrize("die", [3, 6, 10])
def test_damage_is_normally_d3s_d6s_or_d10s(die):
    gun = read(unit(weapon(damage={"count": 2, "die": die}))).units[0].weapons[0]
    assert str(gun.damage) == f"2D{die}"


@pytest.mark.parametrize("damage", [{"count": 2, "die": 8}, {"count": 0, "die": 6}, "2D6"])
def test_damage_other_than_d3_d6_d10_is_refused(damage):
    assert refusal(unit(weapon(damage=damage))).field == "damage"


def test_sracu_and_scaru_are_one_kind():
    assert cards.KINDS["scaru"] == "SRACU (also SCARU)"
    trooper = read(unit(kind="scaru")).units[0]
    assert cards.can_attack_unarmed(trooper) and cards.has_arms(trooper)


def test_only_infantry_and_scarus_as_well_as_units_that_have_arms_make_unarmed_attacks():
    error = refusal(unit(weapon(type="unarmed", fix="fixed_handed"), hands=1))
    assert error.field == "type" and "can make unarmed attacks" in str(error)
    read(unit(weapon(type="unarmed", fix="fixed_handed"), hands=1, has_arms=True))
    read(unit(weapon(type="unarmed", fix="fixed_handed"), kind="infantry"))


def test_two_or_more_weapons_can_be_linked_together():
    alone = read(unit(weapon(link={"kind": "linked", "set": "A"}))).units[0]
    assert any("Two or more weapons can be linked" in n for n in cards.unit_notes(alone))
    pair = read(
        unit(
            weapon(link={"kind": "linked", "set": "A"}), weapon(link={"kind": "linked", "set": "A"})
        )
    ).units[0]
    assert cards.unit_notes(pair) == ()


def test_attached_weapons_are_a_weapon_main_and_a_weapon_add_on():
    main = {"kind": "attached_main", "set": "1"}
    lone = read(unit(weapon(link=main))).units[0]
    assert any("Weapon Main and a Weapon Add-On" in n for n in cards.unit_notes(lone))
    full = read(unit(weapon(link=main), weapon(link={"kind": "attached_addon", "set": "1"})))
    assert cards.unit_notes(full.units[0]) == ()


def test_every_figure_may_stay_empty_the_text_gives_no_profile():
    zaku = read(unit(weapon())).units[0]
    assert (zaku.size_class, zaku.strength, zaku.armour, zaku.action_counters) == (None,) * 4
    assert zaku.weapons[0].range is None and zaku.weapons[0].damage is None


@pytest.mark.parametrize("value", [-1, 100, "3", 2.5, True])
def test_a_figure_is_a_whole_number_0_to_99(value):
    assert refusal(unit(strength=value)).field == "strength"


def test_the_document_round_trips_with_stable_ids():
    force = read(unit(weapon(), weapon(name="Axe", type="melee", range=0)), unit(kind="infantry"))
    document = cards.force_to_dict(force)
    assert [u["id"] for u in document["units"]] == ["u1", "u2"]
    assert [w["id"] for w in document["units"][0]["weapons"]] == ["u1w1", "u1w2"]
    assert cards.read_force(document) == force


def test_edits_keep_ids_and_check_the_weapon_against_its_unit():
    force = read(unit(weapon()))
    tank = cards.read_unit({"name": "Tank", "kind": "other", "kind_name": "Tank"}, weapons=False)
    force = edits.put_unit(force, tank)
    assert [u.id for u in force.units] == ["u1", "u2"]
    with pytest.raises(cards.CardError, match="hand held weapons"):
        edits.put_weapon(force, "u2", cards.read_weapon(weapon()))
    force = edits.put_weapon(force, "u2", cards.read_weapon(weapon(fix="turret")))
    assert force.units[1].weapons[0].id == "u2w1"
    force = edits.remove_unit(force, "u1")
    assert [u.id for u in force.units] == ["u2"]
    with pytest.raises(KeyError):
        edits.remove_weapon(force, "u2", "u1w1")
