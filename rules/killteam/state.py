"""A Kill Team battle as the tracker holds it: the turning point, each player's command points
and ploys, each operative's wounds, order, readiness, AP and counters. Immutable; only events
change it (``rules.killteam.play``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

from rules.eventlog import UnknownId
from rules.killteam.command import STARTING_CP
from rules.killteam.data import core_numbers
from rules.killteam.equipment import TURNING_POINT, equipment, kit_item
from rules.killteam.names import numbered_names
from rules.killteam.ploys import Ploy, find_ploy
from rules.killteam.profile import Weapon
from rules.killteam.team import Team
from rules.killteam.wounds import WoundState, injured_hit, injured_move, wound_state

SIDES = ("a", "b")
ENGAGE, CONCEAL = "engage", "conceal"
ORDERS = {ENGAGE: "Engage", CONCEAL: "Conceal"}


def other_side(side: str) -> str:
    return "b" if side == "a" else "a"


class Phase(Enum):
    INITIATIVE = "initiative"
    STRATEGY = "strategy"
    FIREFIGHT = "firefight"
    ENDED = "ended"
    """The battle is over (the players ended it)."""


@dataclass(frozen=True)
class BattleOperative:
    """An operative in the battle. ``id`` is "<side>-<number>" ("a-3"), numbered from 1.

    The profile figures (``apl``, ``move``, ``save``, ``wounds``) are as typed; the rest
    changes: ``current`` wounds left, the ``order`` (None before its first activation),
    ``ready`` (False: expended, or incapacitated), ``ap_spent`` and ``actions`` in its current
    or last activation, ``uses`` of its Limited weapons, ``stuns`` (each APL -1 until the end of
    its next activation) of which ``stuns_held`` were on it when its activation began."""

    id: str
    name: str
    apl: int
    move: int
    save: int
    wounds: int
    weapons: tuple[Weapon, ...] = ()
    current: int = 0
    order: str | None = None
    ready: bool = True
    ap_spent: int = 0
    actions: tuple[str, ...] = ()
    weapons_used: tuple[str, ...] = ()
    uses: tuple[tuple[str, int], ...] = ()
    stuns: int = 0
    stuns_held: int = 0

    @property
    def side(self) -> str:
        return self.id[0]

    @property
    def state(self) -> WoundState:
        return wound_state(self.wounds, self.current)

    @property
    def incapacitated(self) -> bool:
        return self.current <= 0

    @property
    def injured(self) -> bool:
        return self.state is WoundState.INJURED

    @property
    def effective_apl(self) -> int:
        """APL less 1 for each stun on it (never below 0)."""
        return max(0, self.apl - self.stuns * core_numbers().stun_apl_penalty)

    @property
    def effective_move(self) -> int:
        return injured_move(self.move) if self.injured else self.move

    def effective_hit(self, weapon: Weapon) -> int:
        return injured_hit(weapon.hit) if self.injured else weapon.hit

    def weapon(self, name: str) -> Weapon:
        for weapon in self.weapons:
            if weapon.name == name:
                return weapon
        raise UnknownId(f"{self.name} carries no weapon called {name!r}.")

    def used(self, weapon: str) -> int:
        return dict(self.uses).get(weapon, 0)

    @property
    def effects(self) -> tuple[str, ...]:
        """What its state changes, in words."""
        words = []
        if self.injured:
            move = core_numbers().injured_move_penalty
            words.append(f'Injured: Move {self.effective_move}" ({move}" less), Hit 1 worse')
        if self.stuns:
            words.append(f"Stunned: APL {self.effective_apl} until the end of its next activation")
        return tuple(words)


@dataclass(frozen=True)
class GrenadeCount:
    """Explosive grenades a team picked (``key`` frag or krak) and how often it used them."""

    key: str
    name: str
    picked: int
    used: int = 0


@dataclass(frozen=True)
class KitCount:
    """A piece of equipment the team picked that the board counts (``rules.killteam.kit``):
    ``picked`` uses a battle, or once a turning point (``per_tp``; ``last_tp``: the turning
    point it was last used in, 0 for never)."""

    key: str
    name: str
    picked: int
    used: int = 0
    per_tp: bool = False
    last_tp: int = 0


@dataclass(frozen=True)
class BattleSide:
    key: str
    label: str
    team: str
    operatives: tuple[BattleOperative, ...]
    cp: int = STARTING_CP
    ploys: tuple[tuple[str, str], ...] = ()
    """Ploys used this turning point: (kind, name), kind "strategic" or "firefight"."""
    grenades: tuple[GrenadeCount, ...] = ()
    team_ploys: tuple[Ploy, ...] = ()
    """The team's own named ploys as they were when the match started (``rules.killteam.ploys``)."""

    def team_ploy(self, name: str) -> Ploy | None:
        return find_ploy(self.team_ploys, name)

    kit: tuple[KitCount, ...] = ()
    """The counted equipment picked; ``kit_kept`` the rest, by key (the table judges them)."""
    kit_kept: tuple[str, ...] = ()

    def ready_operatives(self) -> tuple[BattleOperative, ...]:
        return tuple(op for op in self.operatives if op.ready and not op.incapacitated)

    def grenade(self, name: str) -> GrenadeCount | None:
        for grenade in self.grenades:
            if grenade.name == name:
                return grenade
        return None


@dataclass(frozen=True)
class KillTeamState:
    """Everything about a Kill Team battle in progress. Change it only through ``step``."""

    sides: tuple[BattleSide, BattleSide]
    turning_point: int = 1
    phase: Phase = Phase.INITIATIVE
    rolls: tuple[int | None, int | None] = (None, None)
    """This turning point's initiative dice, side a and side b (None: not rolled yet)."""
    decider: str | None = None
    """Who decides who has the initiative, once both have rolled (None: the players pick, after
    a tie in the first turning point: docs/killteam-readings.md, 'First initiative tie')."""
    initiative: str | None = None
    strategy_turn: str | None = None
    passes: int = 0
    last_side: str | None = None
    """The side that activated an operative last this turning point."""
    active: str | None = None
    result: str | None = None
    note: str = ""
    tie: bool = False

    def side(self, key: object) -> BattleSide:
        if key not in SIDES:
            raise UnknownId(f"A side is a or b; got {key!r}.")
        return self.sides[SIDES.index(key)]

    def operative(self, operative_id: object) -> BattleOperative:
        if isinstance(operative_id, str) and operative_id[:1] in SIDES:
            for operative in self.side(operative_id[0]).operatives:
                if operative.id == operative_id:
                    return operative
        raise UnknownId(f"This battle has no operative {operative_id!r}.")

    @property
    def operatives(self) -> tuple[BattleOperative, ...]:
        return self.sides[0].operatives + self.sides[1].operatives


def whose_turn(state: KillTeamState) -> str | None:
    """The side due to activate an operative next (docs/killteam-readings.md, 'Turning point end'):
    sides take turns from the one with the initiative; a side with no ready operative is skipped.
    None when an operative is active, or no operative is ready (the turning point ends), or not in
    the firefight phase."""
    if state.phase is not Phase.FIREFIGHT or state.active is not None:
        return None
    first = other_side(state.last_side) if state.last_side else state.initiative
    for key in (first, other_side(first)) if first else ():
        if state.side(key).ready_operatives():
            return key
    return None


def all_expended(state: KillTeamState) -> bool:
    """True when no operative is ready or active: the turning point ends (docs/killteam-readings.md,
    'Turning point end')."""
    return state.active is None and not any(side.ready_operatives() for side in state.sides)


# --- A new battle -------------------------------------------------------------------------------


@dataclass(frozen=True)
class OperativeSpec:
    name: str
    apl: int
    move: int
    save: int
    wounds: int
    weapons: tuple[Weapon, ...] = ()


@dataclass(frozen=True)
class SideSpec:
    label: str
    team: str
    operatives: Sequence[OperativeSpec]
    grenades: dict[str, int] = field(default_factory=dict)
    """Explosive grenades picked, by key: {"frag": 1, "krak": 1}."""
    ploys: Sequence[Ploy] = ()
    kit: dict[str, int] = field(default_factory=dict)
    """The other equipment picked, by key: {"mines": 1, "stun_grenade": 2}."""


def new_battle(a: SideSpec, b: SideSpec) -> KillTeamState:
    """A battle at the start of turning point 1: each player with the starting CP, every
    operative ready and unhurt, no order yet."""
    return KillTeamState(sides=(_new_side("a", a), _new_side("b", b)))


def _new_side(key: str, spec: SideSpec) -> BattleSide:
    names = numbered_names([op.name for op in spec.operatives])
    operatives = tuple(
        BattleOperative(
            id=f"{key}-{number}",
            name=names[number - 1],
            apl=op.apl,
            move=op.move,
            save=op.save,
            wounds=op.wounds,
            weapons=tuple(op.weapons),
            current=op.wounds,
        )
        for number, op in enumerate(spec.operatives, start=1)
    )
    grenades = tuple(
        GrenadeCount(g.key, g.name, spec.grenades.get(g.key, 0))
        for g in equipment().grenades
        if spec.grenades.get(g.key, 0)
    )
    items = [kit_item(k) for k in spec.kit if spec.kit[k]]
    kit = tuple(
        KitCount(
            item.key,
            item.name,
            picked=spec.kit[item.key] * (1 if item.utility else item.count),
            per_tp=item.uses == TURNING_POINT,
        )
        for item in items
        if item.counted
    )
    kept = tuple(item.key for item in items if not item.counted)
    return BattleSide(
        key,
        spec.label,
        spec.team,
        operatives,
        grenades=grenades,
        team_ploys=tuple(spec.ploys),
        kit=kit,
        kit_kept=kept,
    )


def side_from_team(team: Team, label: str) -> SideSpec:
    """A side built from a kill team the builder made (``team.Team``)."""
    return SideSpec(
        label=label,
        team=team.name,
        operatives=[
            OperativeSpec(
                name=operative.title,
                apl=operative.profile.apl,
                move=operative.profile.move,
                save=operative.profile.save,
                wounds=operative.profile.wounds,
                weapons=operative.profile.weapons,
            )
            for operative in team.operatives
        ],
        grenades={"frag": team.grenades.frag, "krak": team.grenades.krak},
        ploys=team.ploys,
        kit=dict(team.kit),
    )
