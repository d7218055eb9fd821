"""What to say before an attack, an ECM contest or a designation is applied: whether the model
can act at all, what applying it will warn about, the Limited Ammo shot it spends, and notes.

The events themselves (``rules.hgb.match.combat``, ``rules.hgb.match.play``) decide; these sentences
tell the players beforehand, in the same terms.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules.hgb.attack import RangeBand, attacks_this_round, limited_ammo_counter
from rules.hgb.match.combat import attack_warnings, observed
from rules.hgb.match.figures import carries
from rules.hgb.match.state import MatchState, MatchWeapon, Speed, Unit, unit_label


def ammo_counter(unit: Unit, weapon: MatchWeapon | None) -> int | None:
    """The Limited Ammo counter a shot of ``weapon`` spends
    (``rules.hgb.attack.limited_ammo_counter``), or None for a weapon without Limited Ammo (or one
    typed in by name)."""
    if weapon is None or not weapon.limited_ammo:
        return None
    return limited_ammo_counter(unit.ammo, weapon.code)


def can_attack(unit: Unit) -> bool:
    """Whether applying an attack by the model would be taken (``rules.hgb.match.combat``): it is
    in play, and a Used model still holds a kept action (Reaction Fire), a model that is not Used
    did not spend its action moving at Top Speed."""
    if unit.is_out:
        return False
    if unit.used:
        return unit.kept_action
    return unit.speed is not Speed.TOP


def attackers(state: MatchState) -> list[Unit]:
    """The models the attack helper offers as attackers: those that can attack now. While a
    combat group activates, that is its models and any model holding a kept action (Reaction
    Fire): "a model acts when its combat group activates" (``acting_warnings``). Otherwise
    (before initiative, between activations) every model that can attack."""
    able = [unit for unit in state.units if can_attack(unit)]
    if state.active_group is None:
        return able
    now = [u for u in able if u.group_id == state.active_group or u.kept_action]
    return now or able


def attack_targets(state: MatchState, attacker: Unit) -> list[Unit]:
    """The models the helper offers as an attack's target: the attacker's enemies in play (a
    friend under a blast is one of the "other models in the area", never the target)."""
    return [unit for unit in state.units if not unit.is_out and unit.side != attacker.side]


def observer_of(state: MatchState, target: Unit) -> Unit | None:
    """The enemy model whose forward observation this round marked ``target``, if one was named."""
    marked = unit_label(state, target)
    return next(
        (u for u in state.units if u.side != target.side and observed(u, marked)),
        None,
    )


def before_attack_warnings(
    state: MatchState,
    attacker: Unit,
    *,
    weapon: MatchWeapon | None = None,
    targets: Sequence[Unit] = (),
    reaction: bool = False,
    autopilot: bool = False,
    rof: int = 0,
    bands: Mapping[str, RangeBand | None] | None = None,
) -> list[str]:
    """What the players are told before an attack is applied:

    - a Used model attacks only by spending its kept action (Reaction Fire), and with none left
      it can't attack this round; a model at Top Speed spent its action moving (applying such an
      attack is refused: ``rules.hgb.match.combat``);
    - what applying it will warn about (``attack_warnings``);
    - a Limited Ammo weapon's shots left, one of which the attack spends, or that it has none.
    """
    name = unit_label(state, attacker)
    warnings = []
    if attacker.used and attacker.kept_action:
        warnings.append(
            f"Reaction Fire: {name} kept its action, and applying this attack spends it. It "
            "fires after the moving model's next inch or action; a model may be acted against at "
            "most once per inch moved or per action."
        )
    elif attacker.used:
        warnings.append(
            f"{name} is Used and has no kept action: it can't attack until the next round."
        )
    elif attacker.speed is Speed.TOP:
        warnings.append(f"{name} is at Top Speed: it spent its action moving and can't attack.")
    warnings += attack_warnings(
        state,
        attacker,
        targets=targets,
        reaction=reaction,
        autopilot=autopilot,
        rof=rof,
        bands=bands,
    )
    counter = ammo_counter(attacker, weapon)
    if counter is not None:
        left = attacker.ammo[counter].left
        code = attacker.ammo[counter].weapon
        warnings.append(
            f"{code} has Limited Ammo: {left} shot{'s' if left != 1 else ''} left; applying "
            "this attack spends one."
            if left
            else f"{code} is out of ammo."
        )
    return warnings


def target_problems(state: MatchState, attacker: Unit, target: Unit, *, kind: str) -> list[str]:
    """Why a model can't be the target of this kind of attack: indirect fire strikes a model
    "marked" by a Forward Observer, and an observer marks an enemy model."""
    if kind != "indirect":
        return []
    if not target.fo_mark:
        return [
            f"{unit_label(state, target)} is not marked by a Forward Observer: mark it on the "
            "board (FO mark) first, or choose direct fire."
        ]
    if target.side == attacker.side:
        return ["A Forward Observer marks an enemy model: choose an enemy target."]
    return []


def attack_notes(
    state: MatchState,
    attacker: Unit,
    *,
    kind: str,
    weapon: MatchWeapon | None,
    autopilot: bool = False,
) -> list[str]:
    """Notes on an attack beside its odds: a Hand Grenade offered to a model whose data gives it
    none (its figures are the datacard's to type in), and what Autopilot allows this round."""
    name = unit_label(state, attacker)
    notes = []
    if kind == "grenade" and weapon is not None and not carries(attacker, weapon):
        notes.append(
            f"The quickstart names no Hand Grenades for {name}: this is a Hand Grenade as its "
            "datacard may give it. Its DM, Accuracy and Area Effect are not in the texts: type "
            "them in from the card."
        )
    if autopilot:
        notes.append(
            f"Autopilot on: {name} may make {attacks_this_round(True)} attacks this round, "
            "and rolls 1 die for defense."
        )
    return notes


def ecm_problems(state: MatchState, blocker: Unit) -> list[str]:
    """Why a model can't try ECM now: "A Model with the ECM Perk may attempt to block a Forward
    Observation" during the enemy's activation, which spends a kept action (applying it without
    one is refused: ``rules.hgb.match.combat``)."""
    if blocker.kept_action:
        return []
    return [
        f"{unit_label(state, blocker)} has no kept action: ECM is used during the enemy's "
        "activation, so only a model that kept its action can try it."
    ]


def designation_problems(target: Unit) -> list[str]:
    """Why a model can't be designated: it is already marked by a Forward Observer (marking it
    again changes nothing: ``rules.hgb.match.play``)."""
    if target.fo_mark:
        return [f"{target.name} is already marked by a Forward Observer."]
    return []
