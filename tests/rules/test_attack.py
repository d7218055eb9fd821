"""The attack helper's direct attacks: modifiers with their sources, missing figures, exact odds
and resolution, against the quickstart's wording and its Joe Gear example."""

from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.hgb import (
    AttackOutcome,
    DamageState,
    RulesError,
    attack_odds,
    expected_boxes,
    read_roll,
)
from rules.hgb.attack import (
    AUTOPILOT_DEFENSE_DICE,
    Attacker,
    Cover,
    MissingInputs,
    Modifier,
    RangeBand,
    Target,
    attack_modifiers,
    attack_summary,
    attacks_this_round,
    blast_area,
    missing_inputs,
    read_result,
    resolve_direct,
    total,
)

# --- builders ------------------------------------------------------------------------------------


def joe(**changes) -> Attacker:
    """Joe Gear's Hunter firing its LAC (DM x8), at Walker Combat Speed.

    The example gives only the totals: "Joe rolls a 5 [...] They're at Medium Range [...] Joe's
    modified roll is a 4", so Medium range (-1) is the only modifier to his roll: his movement
    modifier and the LAC's accuracy add to 0 and the cover is Some (+0).
    """
    values = dict(
        attack_dice=2,
        movement_modifier=0,
        accuracy=0,
        damage_multiplier=8,
        name="Hunter",
        weapon="LAC",
    )
    values.update(changes)
    return Attacker(**values)


def enemy_hunter(**changes) -> Target:
    """The enemy Hunter: Armor 15, at Walker Combat Speed (-1 to defend, per the translated
    text: "the defense modifier is -1 for the target's mode and speed of movement")."""
    values = dict(
        defense_dice=2,
        movement_modifier=-1,
        armor=15,
        range_band=RangeBand.MEDIUM,
        cover=Cover.SOME,
        name="Hunter",
    )
    values.update(changes)
    return Target(**values)


# --- tables from the text ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "band,modifier,label",
    [
        (RangeBand.POINT_BLANK, 1, "Point-Blank"),
        (RangeBand.SHORT, 0, "Short"),
        (RangeBand.MEDIUM, -1, "Medium"),
        (RangeBand.LONG, -2, "Long"),
        (RangeBand.EXTREME, -3, "Extreme"),
    ],
)
def test_range_bands_modify_the_attack_as_the_table_prints(band, modifier, label):
    assert band.modifier == modifier
    assert band.label == label
    attack, _ = attack_modifiers(joe(), enemy_hunter(range_band=band))
    assert Modifier(modifier, f"{label} range") in attack


@pytest.mark.parametrize(
    "cover,modifier,label",
    [
        (Cover.OPEN, 1, "Open target"),
        (Cover.SOME, 0, "Some cover"),
        (Cover.PARTIAL, -1, "Partial cover"),
        (Cover.FULL, -2, "Full cover"),
    ],
)
def test_cover_modifies_the_attack_as_the_text_says(cover, modifier, label):
    assert cover.modifier == modifier
    attack, _ = attack_modifiers(joe(), enemy_hunter(cover=cover))
    assert Modifier(modifier, label) in attack


def test_full_cover_explains_that_a_weapon_or_limb_showing_is_fully_hidden():
    assert "only a weapon or part of a limb" in Cover.FULL.meaning


def test_only_extreme_range_forbids_rate_of_fire():
    assert [band for band in RangeBand if not band.allows_rate_of_fire] == [RangeBand.EXTREME]


# --- modifiers with their sources ----------------------------------------------------------------


def test_every_attack_modifier_is_listed_with_its_source_in_words():
    attacker = joe(movement_modifier=-1, accuracy=1, state=DamageState.HEAVY).answered(accuracy=1)
    attack, defense = attack_modifiers(attacker, enemy_hunter(cover=Cover.OPEN))
    assert [str(modifier) for modifier in attack] == [
        "-1 Medium range",
        "+1 Open target",
        "-1 Hunter's movement modifier (from the datacard)",
        "+1 LAC accuracy (typed in)",
        "-1 Hunter at Heavy damage: -1 to all rolls, no Top Speed",
    ]
    assert [str(modifier) for modifier in defense] == [
        "-1 Hunter's movement modifier (from the datacard)"
    ]


def test_every_defense_modifier_is_listed_with_its_source_in_words():
    target = enemy_hunter(rear_arc=True, state=DamageState.CRITICAL).answered(movement_modifier=-2)
    _, defense = attack_modifiers(joe(), target)
    assert [str(modifier) for modifier in defense] == [
        "-2 Hunter's movement modifier (typed in)",
        "-1 Attacked from the rear arc",
        "-2 Hunter at Critical damage: -2 to all rolls, no Top Speed",
    ]


def test_unnamed_models_and_weapons_are_called_attacker_defender_and_weapon():
    attack, defense = attack_modifiers(
        Attacker(attack_dice=2, movement_modifier=0, accuracy=0),
        Target(defense_dice=2, movement_modifier=0, range_band=RangeBand.SHORT, cover=Cover.SOME),
    )
    assert attack[2].source == "Attacker's movement modifier (from the datacard)"
    assert attack[3].source == "Weapon accuracy (from the datacard)"
    assert defense[0].source == "Defender's movement modifier (from the datacard)"


@pytest.mark.parametrize(
    "state,penalty",
    [
        (DamageState.UNDAMAGED, 0),
        (DamageState.STURDY, 0),
        (DamageState.LIGHT, 0),
        (DamageState.HEAVY, -1),
        (DamageState.CRITICAL, -2),
    ],
)
def test_the_damage_penalty_applies_to_both_attack_and_defense_rolls(state, penalty):
    attack, defense = attack_modifiers(joe(state=state), enemy_hunter(state=state))
    assert total(attack) == -1 + penalty
    assert total(defense) == -1 + penalty
    # A state without a penalty adds no line to the list.
    assert len(attack) == (4 if penalty == 0 else 5)


def test_a_destroyed_model_can_neither_attack_nor_be_attacked():
    with pytest.raises(RulesError, match="destroyed model can't attack"):
        joe(state=DamageState.DESTROYED)
    with pytest.raises(RulesError, match="already destroyed"):
        enemy_hunter(state=DamageState.OVERKILLED)


def test_a_modifier_prints_its_sign_even_at_zero():
    assert str(Modifier(0, "Some cover")) == "+0 Some cover"
    assert Modifier(-2, "Full cover").signed == "-2"


def test_a_modifier_needs_a_whole_value_and_a_source():
    with pytest.raises(RulesError):
        Modifier(1.5, "Medium range")
    with pytest.raises(RulesError, match="source in words"):
        Modifier(1, " ")


# --- the Joe Gear example ------------------------------------------------------------------------


def test_joe_gears_attack_lists_medium_range_as_the_only_nonzero_attack_modifier():
    summary = attack_summary(joe(), enemy_hunter())
    assert summary.attack_modifier == -1
    assert summary.defense_modifier == -1
    assert [m for m in summary.attack_modifiers if m.value] == [Modifier(-1, "Medium range")]


def test_joe_rolls_5_against_2_modified_4_against_1_for_mos_3_and_one_box():
    shot = resolve_direct(joe(), enemy_hunter(), attack_roll=5, defense_roll=2)
    assert (shot.result.attack_final, shot.result.defense_final) == (4, 1)
    assert shot.result.mos == 3
    assert shot.result.damage == 24  # "The LAC has a DM of x8, so Joe Gear does 24 points"
    assert shot.outcome is AttackOutcome.ONE_BOX  # "against a Hunter's 15 points of armor"
    assert shot.describe() == (
        "Attack 5 - 1 = 4 against defense 2 - 1 = 1: MoS 3 x DM 8 = 24 damage against Armor 15: "
        "1 box."
    )


def test_joe_at_mos_6_does_48_damage_and_overkills_the_hunter():
    # "If Joe Gear had been very lucky on his roll, he might have managed an MoS of 6 [...] 48
    # points of damage, instantly destroying the enemy Hunter!" Three 6s give 8 - 1 = 7 against 1.
    shot = resolve_direct(joe(attack_dice=3), enemy_hunter(), [6, 6, 6], [2, 1])
    assert shot.result.mos == 6
    assert shot.result.damage == 48
    assert shot.outcome is AttackOutcome.OVERKILL


def test_joe_gears_odds_are_the_core_odds_with_his_modifiers():
    summary = attack_summary(joe(), enemy_hunter())
    assert summary.odds == attack_odds(
        attack_dice=2,
        attack_modifier=-1,
        defense_dice=2,
        defense_modifier=-1,
        damage_multiplier=8,
        armor=15,
    )
    assert sum(summary.odds.values()) == 1
    assert summary.hit_chance == 1 - summary.odds[AttackOutcome.MISS]
    assert summary.expected_boxes == expected_boxes(summary.odds)
    assert summary.attack_dice_source == "Attack Skill 2"
    assert summary.defense_dice_source == "Defense Skill 2"


# --- missing figures -----------------------------------------------------------------------------


def test_nothing_is_missing_when_the_data_and_the_player_gave_every_figure():
    assert missing_inputs(joe(), enemy_hunter()) == ()


def test_every_missing_figure_is_named_in_a_sentence_the_helper_can_ask():
    missing = missing_inputs(
        Attacker(attack_dice=2, weapon="MAC"), Target(defense_dice=2, name="Warrior")
    )
    assert [(item.field, item.target_index) for item in missing] == [
        ("movement_modifier", None),
        ("accuracy", None),
        ("damage_multiplier", None),
        ("range_band", 0),
        ("cover", 0),
        ("movement_modifier", 0),
        ("armor", 0),
    ]
    questions = [item.question for item in missing]
    assert questions[0] == (
        "Enter the attacker's movement modifier for its current speed: the data does not give it."
    )
    assert questions[1] == "Enter the MAC's Accuracy: the data does not give it."
    assert questions[2] == "Enter the MAC's Damage Multiplier (DM): the data does not give it."
    assert questions[6] == "Enter the Warrior's Armor: the data does not give it."


@pytest.mark.parametrize(
    "attacker_changes,target_changes,field",
    [
        ({"movement_modifier": None}, {}, "movement_modifier"),
        ({"accuracy": None}, {}, "accuracy"),
        ({"damage_multiplier": None}, {}, "damage_multiplier"),
        ({}, {"armor": None}, "armor"),
        ({}, {"movement_modifier": None}, "movement_modifier"),
        ({}, {"range_band": None}, "range_band"),
        ({}, {"cover": None}, "cover"),
    ],
)
def test_the_summary_asks_for_a_missing_figure_and_never_guesses(
    attacker_changes, target_changes, field
):
    with pytest.raises(MissingInputs) as raised:
        attack_summary(joe(**attacker_changes), enemy_hunter(**target_changes))
    assert [item.field for item in raised.value.missing] == [field]
    assert isinstance(raised.value, RulesError)


def test_the_rof_rating_is_asked_for_only_when_rof_points_are_used():
    assert missing_inputs(joe(rof=None), enemy_hunter()) == ()
    (missing,) = missing_inputs(joe(rof=None, concentrated=1), enemy_hunter())
    assert missing.field == "rof"
    assert "Rate of Fire" in missing.question


def test_the_modifier_list_asks_only_for_what_the_modifiers_need():
    # The RoF rating and the DM matter for the damage, not for the modifiers.
    attacker = joe(accuracy=None, rof=None, concentrated=1, damage_multiplier=None)
    with pytest.raises(MissingInputs) as raised:
        attack_modifiers(attacker, enemy_hunter())
    assert [item.field for item in raised.value.missing] == ["accuracy"]


def test_answered_figures_fill_the_gap_and_are_shown_as_typed_in():
    attacker = Attacker(attack_dice=2).answered(
        movement_modifier=0, accuracy=-1, damage_multiplier=8
    )
    target = Target(defense_dice=2, range_band=RangeBand.SHORT, cover=Cover.SOME).answered(
        movement_modifier=-1, armor=15
    )
    summary = attack_summary(attacker, target)
    sources = [m.source for m in summary.attack_modifiers + summary.defense_modifiers]
    assert all(
        "typed in" in source for source in sources if "movement" in source or "accuracy" in source
    )
    assert summary.damage_multiplier_parts == (Modifier(8, "Weapon Damage Multiplier (typed in)"),)
    assert summary.armor_parts == (Modifier(15, "Defender's Armor (typed in)"),)


def test_only_the_figures_the_data_may_lack_can_be_typed_in():
    with pytest.raises(RulesError, match="can be typed in"):
        joe().answered(attack_dice=5)
    with pytest.raises(RulesError, match="can be typed in"):
        Target(defense_dice=2, typed_in={"defense_dice"})


# --- perks and flaws -----------------------------------------------------------------------------


def test_autopilot_defends_with_one_die_and_says_so():
    summary = attack_summary(joe(), enemy_hunter(defense_dice=3, autopilot=True))
    assert summary.defense_dice == AUTOPILOT_DEFENSE_DICE == 1
    assert summary.defense_dice_source == "Autopilot on: 1 die for defense (Defense Skill 3)"
    assert summary.odds == attack_summary(joe(), enemy_hunter(defense_dice=1)).odds


def test_autopilot_allows_a_second_attack_this_round():
    assert attacks_this_round(autopilot=True) == 2
    assert attacks_this_round(autopilot=False) == 1


def test_autopilot_defender_must_enter_exactly_one_die():
    target = enemy_hunter(defense_dice=3, autopilot=True)
    with pytest.raises(RulesError, match="1 die; 3 were entered"):
        resolve_direct(joe(), target, 5, [2, 2, 2])
    assert resolve_direct(joe(), target, 5, [2]).result.defense_final == 1


def test_a_reinforced_arc_adds_its_value_to_the_armor_and_says_from_where():
    summary = attack_summary(joe(), enemy_hunter(reinforced_arc=5))
    assert summary.armor == 20
    assert summary.armor_parts[1] == Modifier(
        5, "Reinforced Arc: +5 Armor against attacks from that arc"
    )
    # Joe's MoS 3 (24 damage) is 1 box against 15, but nothing against 15 + 10.
    shot = resolve_direct(joe(), enemy_hunter(reinforced_arc=10), 5, 2)
    assert shot.result.damage == 24
    assert shot.outcome is AttackOutcome.NO_EFFECT


def test_a_reinforced_arc_raises_the_overkill_threshold_too():
    # 48 damage overkills Armor 15 (3 x 15 = 45) but is 2 boxes against Armor 17 (51).
    shot = resolve_direct(joe(attack_dice=3), enemy_hunter(reinforced_arc=2), [6, 6, 6], [2, 1])
    assert shot.result.damage == 48
    assert shot.outcome is AttackOutcome.TWO_BOXES


@pytest.mark.parametrize(
    "attack_roll,defense_roll,mos",
    [
        (5, 2, 5),  # 4 against 1: MoS 3, +2
        (4, 4, 2),  # 3 against 3: a tie (MoF 0) succeeds with MoS 2
    ],
)
def test_weak_facing_adds_2_to_the_mos_including_a_tie(attack_roll, defense_roll, mos):
    shot = resolve_direct(joe(), enemy_hunter(weak_facing=True), attack_roll, defense_roll)
    assert shot.result.mos == mos


def test_weak_facing_does_not_turn_a_clear_miss_into_a_hit():
    shot = resolve_direct(joe(), enemy_hunter(weak_facing=True), 3, 4)
    assert not shot.hit
    assert shot.result.mof == 1


def test_weak_facing_is_listed_as_a_bonus_to_the_mos():
    summary = attack_summary(joe(), enemy_hunter(weak_facing=True))
    assert summary.weak_facing
    assert summary.mos_modifiers[0].value == 2
    assert "tie (MoF 0)" in summary.mos_modifiers[0].source


# --- fumbles -------------------------------------------------------------------------------------


@pytest.mark.parametrize("dice", [[1], [1, 1], [1, 1, 1]])
def test_an_attackers_fumble_is_0_whatever_the_modifiers(dice):
    attacker = joe(attack_dice=len(dice), movement_modifier=3, accuracy=2)
    shot = resolve_direct(attacker, enemy_hunter(range_band=RangeBand.POINT_BLANK), dice, 2)
    assert shot.result.attack_final == 0
    assert not shot.hit
    assert shot.describe().startswith("Attack 0 (Fumble, no modifiers)")


def test_a_defenders_fumble_is_0_even_with_a_penalty():
    shot = resolve_direct(joe(), enemy_hunter(rear_arc=True, state=DamageState.CRITICAL), 3, [1, 1])
    assert shot.result.defense_final == 0
    assert shot.result.mos == 2


@given(
    st.integers(1, 6),
    st.integers(-6, 6),
    st.integers(-6, 6),
    st.sampled_from(list(RangeBand)),
    st.sampled_from(list(Cover)),
)
def test_a_fumble_is_never_modified(dice, movement, accuracy, band, cover):
    attacker = joe(attack_dice=dice, movement_modifier=movement, accuracy=accuracy)
    target = enemy_hunter(range_band=band, cover=cover)
    shot = resolve_direct(attacker, target, [1] * dice, [1, 1])
    assert shot.result.attack_final == 0
    assert shot.result.defense_final == 0


# --- entering rolls ------------------------------------------------------------------------------


def test_a_roll_can_be_entered_as_its_result_its_dice_or_a_roll():
    by_result = resolve_direct(joe(), enemy_hunter(), 5, 2)
    by_dice = resolve_direct(joe(), enemy_hunter(), [5, 3], [2, 1])
    by_roll = resolve_direct(joe(), enemy_hunter(), read_roll([3, 5]), read_roll([1, 2]))
    assert by_result.result == by_dice.result == by_roll.result


@pytest.mark.parametrize(
    "entry,dice,message",
    [
        (1, 2, "can't be 1"),
        (8, 2, "at most 7 with 2 dice"),
        (7, 1, "at most 6 with 1 die"),
        ([5, 3, 2], 2, "made with 2 dice; 3 were entered"),
        ([7, 2], 2, "Each die shows 1 to 6"),
        ("5", 2, "list of dice"),
    ],
)
def test_an_impossible_roll_is_refused_with_a_sentence(entry, dice, message):
    with pytest.raises(RulesError, match=message):
        read_result(entry, dice, "The attacker's")


def test_several_defense_rolls_for_one_target_are_refused():
    with pytest.raises(RulesError, match="1 target, 2 rolls"):
        from rules.hgb.attack import resolve_multi_target

        resolve_multi_target(joe(), [enemy_hunter()], 5, [2, 3])


# --- rate of fire ---------------------------------------------------------------------------------


def test_concentrated_fire_adds_one_dm_per_point():
    summary = attack_summary(joe(rof=3, concentrated=2), enemy_hunter())
    assert summary.damage_multiplier == 10
    assert summary.damage_multiplier_parts == (
        Modifier(8, "LAC Damage Multiplier (from the datacard)"),
        Modifier(2, "Concentrated Fire: 2 RoF points, +1 DM each"),
    )
    # Joe's MoS 3 does 30 damage instead of 24.
    assert resolve_direct(joe(rof=3, concentrated=2), enemy_hunter(), 5, 2).result.damage == 30


def test_rof_points_can_not_exceed_the_weapons_rating():
    with pytest.raises(RulesError, match=r"RoF 2, so at most 2 RoF points.*3 were chosen"):
        joe(rof=2, spray=1, concentrated=2)


def test_rof_can_not_be_used_at_extreme_range():
    with pytest.raises(RulesError, match="Extreme range"):
        attack_summary(joe(rof=2, concentrated=1), enemy_hunter(range_band=RangeBand.EXTREME))
    # Without RoF points an Extreme shot is fine: -3.
    summary = attack_summary(joe(rof=2), enemy_hunter(range_band=RangeBand.EXTREME))
    assert summary.attack_modifier == -3


def test_a_single_shot_with_a_rof_weapon_is_a_normal_attack():
    assert (
        attack_summary(joe(rof=3), enemy_hunter()).odds
        == attack_summary(joe(), enemy_hunter()).odds
    )


def test_spray_fire_notes_its_area_and_that_everyone_in_it_defends():
    summary = attack_summary(joe(rof=2, spray=2), enemy_hunter())
    assert any("Spray Fire: 2 RoF points, +2 inches of area" in note for note in summary.notes)
    assert any("friend or foe, defends separately" in note for note in summary.notes)


@given(st.integers(1, 6), st.integers(1, 6), st.integers(-3, 3), st.integers(0, 4))
def test_concentrated_fire_never_lowers_the_expected_boxes(attack, defense, modifier, points):
    base = joe(attack_dice=attack, movement_modifier=modifier, rof=4)
    target = enemy_hunter(defense_dice=defense)
    plain = attack_summary(base, target)
    concentrated = attack_summary(replace(base, concentrated=points), target)
    assert concentrated.expected_boxes >= plain.expected_boxes
    assert concentrated.hit_chance == plain.hit_chance
    assert concentrated.kill_chance >= plain.kill_chance


@given(st.integers(1, 6), st.integers(1, 6), st.integers(0, 10))
def test_a_reinforced_arc_never_raises_the_expected_boxes(attack, defense, value):
    attacker = joe(attack_dice=attack)
    plain = attack_summary(attacker, enemy_hunter(defense_dice=defense))
    reinforced = attack_summary(attacker, enemy_hunter(defense_dice=defense, reinforced_arc=value))
    assert reinforced.expected_boxes <= plain.expected_boxes


@given(st.integers(1, 6), st.integers(1, 6), st.integers(-3, 3))
def test_a_weak_facing_never_lowers_the_hit_chance(attack, defense, modifier):
    attacker = joe(attack_dice=attack, accuracy=modifier)
    plain = attack_summary(attacker, enemy_hunter(defense_dice=defense))
    weak = attack_summary(attacker, enemy_hunter(defense_dice=defense, weak_facing=True))
    assert weak.hit_chance >= plain.hit_chance
    assert weak.expected_boxes >= plain.expected_boxes


@given(st.integers(1, 6), st.integers(1, 6))
def test_the_rear_arc_never_lowers_the_hit_chance(attack, defense):
    attacker = joe(attack_dice=attack)
    front = attack_summary(attacker, enemy_hunter(defense_dice=defense))
    rear = attack_summary(attacker, enemy_hunter(defense_dice=defense, rear_arc=True))
    assert rear.hit_chance >= front.hit_chance


def test_expected_boxes_use_the_boxes_left():
    # At its Critical box (1 box left) an Overkill or 2 boxes count as 1.
    summary = attack_summary(joe(), enemy_hunter(boxes_left=1))
    assert summary.boxes_left == 1
    assert summary.expected_boxes == summary.hit_chance - summary.odds[AttackOutcome.NO_EFFECT]
    assert summary.expected_boxes == expected_boxes(summary.odds, 1)
    assert (
        summary.kill_chance
        == summary.odds[AttackOutcome.TWO_BOXES] + summary.odds[AttackOutcome.OVERKILL]
    )


def test_the_summary_totals_add_up_its_listed_modifiers():
    summary = attack_summary(
        joe(movement_modifier=-1, accuracy=1, rof=2, concentrated=1),
        enemy_hunter(rear_arc=True, reinforced_arc=3, cover=Cover.PARTIAL),
    )
    assert summary.attack_modifier == sum(m.value for m in summary.attack_modifiers) == -2
    assert summary.defense_modifier == sum(m.value for m in summary.defense_modifiers) == -2
    assert summary.damage_multiplier == 9
    assert summary.armor == 18
    assert summary.odds == attack_odds(
        attack_dice=2,
        attack_modifier=-2,
        defense_dice=2,
        defense_modifier=-2,
        damage_multiplier=9,
        armor=18,
    )


def test_chances_are_exact_fractions():
    summary = attack_summary(joe(), enemy_hunter())
    assert all(isinstance(p, Fraction) for p in summary.odds.values())
    assert isinstance(summary.expected_boxes, Fraction)


# --- area effect ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "area_effect,spray,indirect,radius,centre",
    [
        (0, 0, False, 0, "the main target's base"),
        (0, 2, False, 2, "the main target's base"),
        (3, 0, False, 3, "the point where the attack landed"),
        (0, 1, True, 1, "the point where the attack landed"),
        (2, 1, True, 3, "the point where the attack landed"),
    ],
)
def test_a_blast_area_has_the_ae_radius_plus_an_inch_per_spray_point(
    area_effect, spray, indirect, radius, centre
):
    area = blast_area(area_effect=area_effect, spray=spray, indirect=indirect)
    assert area.radius_inches == radius
    assert area.centre == centre


def test_everyone_in_a_blast_defends_friend_or_foe_attacked_from_the_attackers_direction():
    area = blast_area(area_effect=3)
    assert area.who_defends == (
        "Every model within 3 inches of the point where the attack landed, friend or foe, "
        "defends separately with its own modifiers."
    )
    assert "direction of the attacking model" in area.direction
    assert blast_area().who_defends == "Only the target defends."


def test_the_shooter_is_caught_by_its_own_area_effect_but_not_by_its_spray():
    # Translated edition: Area Effect hits "any model, including the shooter itself"; Sweep Fire
    # hits friend and enemy "(other than the shooter itself)".
    assert "defends too" in blast_area(area_effect=2).shooter
    assert "does not defend" in blast_area(spray=2).shooter
    assert blast_area().shooter == ""


@given(
    st.integers(1, 6),
    st.integers(1, 6),
    st.integers(-4, 4),
    st.integers(1, 12),
    st.integers(1, 30),
    st.one_of(st.none(), st.integers(0, 6)),
    st.booleans(),
)
def test_the_summary_chances_are_the_core_functions_of_its_odds(
    attack, defense, modifier, dm, armor, boxes_left, weak
):
    from rules.hgb import hit_chance, kill_chance

    summary = attack_summary(
        joe(attack_dice=attack, accuracy=modifier, damage_multiplier=dm),
        enemy_hunter(defense_dice=defense, armor=armor, boxes_left=boxes_left, weak_facing=weak),
    )
    assert summary.hit_chance == hit_chance(summary.odds)
    assert summary.expected_boxes == expected_boxes(summary.odds, boxes_left)
    assert summary.kill_chance == kill_chance(summary.odds, boxes_left)
