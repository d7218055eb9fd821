"""The universal equipment on the board: one event, ``use_kit``, for each counted use of a piece a
team picked (docs/killteam-readings.md, 'Universal equipment').

- Mines: the marker's first operative in control range takes D3+3 damage (the D3 in the event;
  ``equipment.mine_damage``); the marker is then removed, so a team's mine goes off once.
- Stun grenade (1 AP) and smoke grenade (the text gives no AP cost or effect): used by the active
  operative, each as often as the team picked it. The stun grenade's stun tests are D6s in the
  event, one per operative the table says is hit ({"b-2": 4}): 3+ stuns
  (``equipment.stun_test``).
- Ammo cache (Extra ammo, 0 AP): by the active operative, once in each turning point.
- Breaching charge: once a battle, when a Breach action is made.

A piece that is used up, or was not picked, is refused in words: nothing changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rules.errors import RulesError
from rules.eventlog import Event, EventError, Step
from rules.killteam.actions import act
from rules.killteam.changes import MAX_TARGETS, in_play, label, with_side
from rules.killteam.equipment import kit_item, mine_damage, stun_test
from rules.killteam.state import KillTeamState, KitCount
from rules.killteam.wounding import damage_operative, stun_operative

MINES, STUN, SMOKE, AMMO = "mines", "stun_grenade", "smoke_grenade", "ammo_cache"
ACTIVE_USER = (STUN, SMOKE, AMMO)
"""The pieces an operative uses as its action: the active one, on the team's side."""


def left(state: KillTeamState, count: KitCount) -> int:
    """How many uses are left now (a once-a-turning-point piece: 1 or 0)."""
    if count.per_tp:
        return 0 if count.last_tp == state.turning_point else 1
    return max(count.picked - count.used, 0)


def use_kit(state: KillTeamState, event: Event) -> Step:
    side = state.side(event["side"])
    item = kit_item(event["item"])
    count = next((k for k in side.kit if k.key == item.key), None)
    if count is None:
        raise RulesError(f"{side.label}'s team did not pick {item.name}.")
    if not left(state, count):
        when = "this turning point" if count.per_tp else "this battle"
        raise RulesError(
            f"{side.label} has used its {item.name} as often as it may ({count.used} of "
            f"{count.picked if not count.per_tp else 1}): no more {when}."
        )
    used = replace(count, used=count.used + 1, last_tp=state.turning_point)
    new = with_side(state, replace(side, kit=tuple(used if k is count else k for k in side.kit)))
    writes = {f"{side.key}:kit"}
    words: list[str] = []
    warnings: list[str] = []
    if item.key in ACTIVE_USER:
        if state.active is None or state.active[0] != side.key:
            raise RulesError(
                f"{item.name} is used by {side.label}'s active operative: activate one."
            )
        user = state.operative(state.active)
        new, sentence, warnings, acted = act(new, user, item.name, item.ap or 0, "")
        writes |= acted
        words.append(sentence)
    else:
        words.append(f"{side.label}: {item.name}.")
    tests = _dice(state, event["dice"], item.key)
    for target_id, die in tests.items():
        target = new.operative(target_id)
        in_play(new, target)
        if item.key == MINES:
            amount = mine_damage(die)
            new, hurt, left_words = damage_operative(new, target, amount)
            writes |= hurt
            words.append(f"{label(state, target)}: D3 {die}, {amount} damage, {left_words}.")
        elif stun_test(die):
            new = stun_operative(new, target)
            writes.add(f"{target_id}:stuns")
            words.append(f"{label(state, target)}: stun test {die}, stunned.")
        else:
            words.append(f"{label(state, target)}: stun test {die}, not stunned.")
    if item.key == AMMO:
        words.append("Until the next turning point it may re-roll one attack die when it shoots.")
    if item.key == "breaching_charge":
        words.append("A Breach action costs 1 AP less (at least 1 AP).")
    return Step(new, " ".join(words), tuple(warnings), writes=frozenset(writes))


def _dice(state: KillTeamState, value: Mapping[str, Any], key: str) -> dict[str, int]:
    """The dice rolled for the operatives the piece reaches: one D3 for a mine, a D6 stun test
    for each operative a stun grenade reaches, none for the rest."""
    if len(value) > MAX_TARGETS:
        raise RulesError(f"At most {MAX_TARGETS} operatives at once.")
    if key == MINES and len(value) != 1:
        raise RulesError("A mine goes off against one operative: name it and its D3.")
    if key not in (MINES, STUN) and value:
        raise EventError(f"{kit_item(key).name} rolls no dice.")
    for target_id, die in value.items():
        state.operative(target_id)
        if isinstance(die, bool) or not isinstance(die, int):
            raise EventError(f"A die is a whole number; got {die!r}.")
    return dict(value)
