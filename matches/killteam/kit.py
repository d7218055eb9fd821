"""What the Kill Team board shows of each side's universal equipment: the counted pieces with
the uses left and their one-tap use (``rules.killteam.kit``), and the pieces the table judges."""

from __future__ import annotations

from rules import killteam as kt
from rules.killteam.equipment import equipment, kit_item
from rules.killteam.kit import ACTIVE_USER, MINES, STUN, left


def _targets(state: kt.KillTeamState, side: kt.BattleSide, key: str) -> list[dict]:
    """Who a mine can go off against (any operative in play) or a stun grenade reach (enemies)."""
    if key not in (MINES, STUN):
        return []
    return [
        {"id": op.id, "name": kt.label(state, op)}
        for op in state.operatives
        if not op.incapacitated and (key == MINES or op.side != side.key)
    ]


def _item(state: kt.KillTeamState, side: kt.BattleSide, count) -> dict:
    item = kit_item(count.key)
    remaining = left(state, count)
    if count.per_tp:
        words = "ready this turning point" if remaining else "used this turning point"
    elif remaining:
        words = f"{remaining} of {count.picked} left"
    else:
        words = f"used up ({count.used} of {count.picked}): no more this battle"
    waiting = item.key in ACTIVE_USER and (state.active or " ")[0] != side.key
    kit = equipment()
    dice = ""
    if item.key == MINES:
        dice = f"Tap the operative it goes off against and the D{kit.mine_die} rolled."
    elif item.key == STUN:
        dice = (
            f"Tap the enemy it is thrown at and its stun test (a D{kit.stun_die}, "
            f'{kit.stun_success}+ stuns). Each other operative within {kit.stun_radius}" of it '
            "rolls too: on a 3+ tap Stun on its card."
        )
    faces = range(1, (kit.mine_die if item.key == MINES else kit.stun_die) + 1)
    ap = f" ({item.ap} AP)" if item.ap is not None else ""
    return {
        "key": item.key,
        "name": item.name,
        "summary": item.summary,
        "left_words": words,
        "usable": bool(remaining) and not waiting and state.phase is not kt.Phase.ENDED,
        "waiting": bool(remaining) and waiting,
        "use_label": f"Use {item.name}{ap}",
        "targets": _targets(state, side, item.key),
        "faces": faces,
        "dice_help": dice,
    }


def kit_panel(state: kt.KillTeamState) -> list[dict]:
    """Each side's equipment as the board lists it."""
    return [
        {
            "key": side.key,
            "label": side.label,
            "items": [_item(state, side, count) for count in side.kit],
            "kept": [kit_item(key) for key in side.kit_kept],
        }
        for side in state.sides
    ]
