"""The numbers the Kill Team core rules text gives, read from the package's data files.

``core.toml`` holds the core numbers (command points, defence dice, injured and stun effects),
``equipment.toml`` the universal equipment's figures. Both are read once, with the stdlib.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any


def read_data(name: str) -> dict[str, Any]:
    """A TOML file of this package, as plain data."""
    raw = resources.files("rules.killteam").joinpath(name).read_bytes()
    return tomllib.loads(raw.decode("utf-8"))


@dataclass(frozen=True)
class CoreNumbers:
    starting_cp: int
    first_strategy_phase_cp: int
    initiative_cp: int
    other_cp: int
    ploy_cost: int
    defence_dice: int
    injured_move_penalty: int
    injured_hit_worsened_by: int
    stun_apl_penalty: int
    hot_damage_per_pip: int


@cache
def core_numbers() -> CoreNumbers:
    data = read_data("core.toml")
    cp = data["command_points"]
    return CoreNumbers(
        starting_cp=cp["starting"],
        first_strategy_phase_cp=cp["first_strategy_phase"],
        initiative_cp=cp["with_initiative"],
        other_cp=cp["without_initiative"],
        ploy_cost=cp["ploy_cost"],
        defence_dice=data["shoot"]["defence_dice"],
        injured_move_penalty=data["injured"]["move_penalty"],
        injured_hit_worsened_by=data["injured"]["hit_worsened_by"],
        stun_apl_penalty=data["stun"]["apl_penalty"],
        hot_damage_per_pip=data["hot"]["damage_per_pip"],
    )
