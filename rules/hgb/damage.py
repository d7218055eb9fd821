"""Attacks and damage: margin of success, the damage table and the damage track.

Quickstart, Damage: "Multiply the attack's MoS by the Damage Multiplier (DM) of the weapon used.
Compare the damage to the target's Armor": Dam < Armor no effect; Dam >= Armor 1 box;
Dam >= 2x Armor 2 boxes; Dam >= 3x Armor Overkill. "If the target is overkilled, it is instantly
and explosively destroyed and removed from the table. Otherwise, the effects of the damage depend
on the last box crossed off." The track is Sturdy, Light, Heavy, Critical; an Armored Jacket adds
one Sturdy box in front. Damage beyond the Critical box destroys the model: it stays on the table
as Rough Terrain.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import Enum
from functools import lru_cache
from typing import Any

from rules.checks import check_flag, check_whole, is_whole
from rules.errors import RulesError
from rules.hgb.dice import FUMBLE, MAX_DICE, apply_modifier, check_modifier

WEAK_FACING_BONUS = 2
"""Weak Facing: "Add 2 to the MoS of any successful attack (including MoF 0)"."""

MAX_RESULT = 5 + MAX_DICE
"""The highest possible result: every one of the most dice a roll can have shows a 6."""


# --- Attack outcomes -----------------------------------------------------------------------------


class AttackOutcome(Enum):
    """What one attack did to its target."""

    MISS = "miss"
    NO_EFFECT = "no_effect"
    ONE_BOX = "one_box"
    TWO_BOXES = "two_boxes"
    OVERKILL = "overkill"

    @property
    def hit(self) -> bool:
        """True for every outcome of a successful attack, even one that does no damage."""
        return self is not AttackOutcome.MISS

    @property
    def boxes(self) -> int | None:
        """Boxes to cross off: 0, 1 or 2; None for Overkill, which removes the model outright."""
        return _OUTCOME_BOXES[self]

    @property
    def label(self) -> str:
        return _OUTCOME_LABELS[self]


_OUTCOME_BOXES: dict[AttackOutcome, int | None] = {
    AttackOutcome.MISS: 0,
    AttackOutcome.NO_EFFECT: 0,
    AttackOutcome.ONE_BOX: 1,
    AttackOutcome.TWO_BOXES: 2,
    AttackOutcome.OVERKILL: None,
}
_OUTCOME_LABELS = {
    AttackOutcome.MISS: "Miss",
    AttackOutcome.NO_EFFECT: "No effect",
    AttackOutcome.ONE_BOX: "1 box",
    AttackOutcome.TWO_BOXES: "2 boxes",
    AttackOutcome.OVERKILL: "Overkill",
}


def check_armor(armor: object) -> int:
    return check_whole(armor, "Armor must be a whole number of 1 or more, such as 15", 1)


def check_damage_multiplier(damage_multiplier: object) -> int:
    return check_whole(
        damage_multiplier,
        "A Damage Multiplier must be a whole number of 1 or more, such as 8 for x8",
        1,
    )


def damage_outcome(damage: int, armor: int) -> AttackOutcome:
    """The damage table: what ``damage`` points do against ``armor`` (never MISS)."""
    check_whole(damage, "Damage must be a whole number of 0 or more", 0)
    return damage_table(damage, check_armor(armor))


def damage_table(damage: int, armor: int) -> AttackOutcome:
    """``damage_outcome`` without the checks, for callers that checked already."""
    if damage >= 3 * armor:
        return AttackOutcome.OVERKILL
    if damage >= 2 * armor:
        return AttackOutcome.TWO_BOXES
    if damage >= armor:
        return AttackOutcome.ONE_BOX
    return AttackOutcome.NO_EFFECT


def margin_of_success(margin: int, weak_facing: bool = False) -> int | None:
    """The MoS of an attack that won by ``margin``, or None when the attack fails.

    The attack succeeds when the attacker's final result is higher than the defender's
    (``margin > 0``). From a Weak Facing, every success gets +2 MoS and a tie (MoF 0) is a
    success with MoS 2.
    """
    if margin > 0:
        return margin + (WEAK_FACING_BONUS if weak_facing else 0)
    if margin == 0 and weak_facing:
        return WEAK_FACING_BONUS
    return None


def check_result(result: object, whose: str) -> int:
    """Return ``result`` if a roll can give it (0 for a Fumble, or 2 to 15), else raise."""
    if result == 1 and is_whole(result):
        raise RulesError(
            f"{whose} result can't be 1: a highest die of 1 means every die shows 1, "
            "which is a Fumble and counts as 0."
        )
    if not is_whole(result) or not (result == FUMBLE or 2 <= result <= MAX_RESULT):
        shown = result if is_whole(result) else repr(result)
        raise RulesError(
            f"{whose} result must be 0 (a Fumble) or 2 to {MAX_RESULT}, "
            f"before modifiers; got {shown}."
        )
    return result


@dataclass(frozen=True)
class AttackResult:
    """One direct attack worked out from the two rolled results."""

    attack_final: int
    """The attacker's result after modifiers (0 on a Fumble)."""
    defense_final: int
    """The defender's result after modifiers (0 on a Fumble)."""
    margin: int
    """``attack_final - defense_final``."""
    mos: int | None
    """Margin of Success (with the Weak Facing bonus), or None on a miss."""
    mof: int | None
    """Margin of Failure (``-margin``), or None on a hit."""
    damage: int
    """MoS x DM, 0 on a miss."""
    outcome: AttackOutcome

    @property
    def hit(self) -> bool:
        return self.mos is not None

    @property
    def boxes(self) -> int | None:
        return self.outcome.boxes


def resolve_attack(
    *,
    attack_result: int,
    defense_result: int,
    damage_multiplier: int,
    armor: int,
    attack_modifier: int = 0,
    defense_modifier: int = 0,
    weak_facing: bool = False,
) -> AttackResult:
    """Work out one direct attack from the rolled results (``Roll.result``; 0 is a Fumble).

    Modifiers are added to each result before comparing; no modifier applies to a Fumble.
    """
    check_result(attack_result, "The attacker's")
    check_result(defense_result, "The defender's")
    check_damage_multiplier(damage_multiplier)
    check_armor(armor)
    attack_final = apply_modifier(
        attack_result, check_modifier(attack_modifier, "The attack modifier")
    )
    defense_final = apply_modifier(
        defense_result, check_modifier(defense_modifier, "The defense modifier")
    )
    margin = attack_final - defense_final
    mos = margin_of_success(margin, check_flag(weak_facing, "Weak Facing"))
    if mos is None:
        return AttackResult(
            attack_final, defense_final, margin, None, -margin, 0, AttackOutcome.MISS
        )
    damage = mos * damage_multiplier
    return AttackResult(
        attack_final, defense_final, margin, mos, None, damage, damage_outcome(damage, armor)
    )


# --- The damage track ----------------------------------------------------------------------------


class BoxKind(Enum):
    """A box of the damage track, from the first to be crossed off to the last."""

    STURDY = "sturdy"
    LIGHT = "light"
    HEAVY = "heavy"
    CRITICAL = "critical"

    @property
    def letter(self) -> str:
        """The letter printed on the card: S, L, H or C."""
        return self.value[0].upper()


_BOX_ORDER = {kind: index for index, kind in enumerate(BoxKind)}

STANDARD_BOXES = (BoxKind.STURDY, BoxKind.LIGHT, BoxKind.HEAVY, BoxKind.CRITICAL)


class DamageState(Enum):
    """How a model is doing: the kind of the last box crossed off, or out of the game."""

    UNDAMAGED = "undamaged"
    STURDY = "sturdy"
    LIGHT = "light"
    HEAVY = "heavy"
    CRITICAL = "critical"
    DESTROYED = "destroyed"
    OVERKILLED = "overkilled"

    @property
    def is_out(self) -> bool:
        return self in (DamageState.DESTROYED, DamageState.OVERKILLED)

    @property
    def penalty(self) -> int:
        """Modifier to all rolls: -1 at Heavy, -2 at Critical.

        A destroyed or overkilled model keeps the Critical penalty (-2), so the penalty never
        improves as damage is added; it can't roll anyway.
        """
        return _STATE_PENALTY[self]

    @property
    def top_speed_allowed(self) -> bool:
        return self not in (
            DamageState.HEAVY,
            DamageState.CRITICAL,
            DamageState.DESTROYED,
            DamageState.OVERKILLED,
        )

    @property
    def effect_text(self) -> str:
        return _STATE_EFFECTS[self]


_STATE_PENALTY = {
    DamageState.UNDAMAGED: 0,
    DamageState.STURDY: 0,
    DamageState.LIGHT: 0,
    DamageState.HEAVY: -1,
    DamageState.CRITICAL: -2,
    DamageState.DESTROYED: -2,
    DamageState.OVERKILLED: -2,
}
_STATE_EFFECTS = {
    DamageState.UNDAMAGED: "No effect",
    DamageState.STURDY: "No effect",
    DamageState.LIGHT: "No effect in the quickstart rules",
    DamageState.HEAVY: "-1 to all rolls, no Top Speed",
    DamageState.CRITICAL: "-2 to all rolls, no Top Speed",
    DamageState.DESTROYED: "Destroyed: stays on the table as rough terrain",
    DamageState.OVERKILLED: "Overkilled: removed from the table",
}
_STATE_OF_BOX = {
    BoxKind.STURDY: DamageState.STURDY,
    BoxKind.LIGHT: DamageState.LIGHT,
    BoxKind.HEAVY: DamageState.HEAVY,
    BoxKind.CRITICAL: DamageState.CRITICAL,
}


@dataclass(frozen=True)
class DamageTrack:
    """A model's damage track: its boxes, how many are crossed off, and whether it was overkilled.

    Boxes are crossed off from left to right. ``marked`` runs from 0 to ``len(boxes) + 1``: one
    more than the number of boxes means damage went past the last box and the model is destroyed.
    Overkill is kept apart from ``marked`` so that undoing it gives back the track as it was.
    """

    boxes: tuple[BoxKind, ...] = STANDARD_BOXES
    marked: int = 0
    overkilled: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.boxes, (str, bytes)) or not isinstance(self.boxes, (tuple, list)):
            raise RulesError("A damage track is a list of boxes, such as Sturdy, Light, Heavy.")
        boxes = tuple(self.boxes)
        if not boxes:
            raise RulesError("A damage track needs at least one box.")
        for box in boxes:
            if not isinstance(box, BoxKind):
                raise RulesError(f"A damage box is Sturdy, Light, Heavy or Critical; got {box!r}.")
        if any(_BOX_ORDER[a] > _BOX_ORDER[b] for a, b in zip(boxes, boxes[1:], strict=False)):
            letters = "".join(f"[{box.letter}]" for box in boxes)
            raise RulesError(
                f"Damage boxes go in the order Sturdy, Light, Heavy, Critical; got {letters}."
            )
        object.__setattr__(self, "boxes", boxes)
        check_whole(
            self.marked,
            f"Crossed-off boxes must be a whole number from 0 to {len(boxes) + 1}",
            0,
        )
        if self.marked > len(boxes) + 1:
            raise RulesError(
                f"This track has {len(boxes)} boxes, so at most {len(boxes) + 1} can be crossed "
                f"off (the last one destroys the model); got {self.marked}."
            )
        check_flag(self.overkilled, "Overkilled")

    @classmethod
    def standard(cls, extra_sturdy: int = 0) -> DamageTrack:
        """The quickstart track S, L, H, C with ``extra_sturdy`` more Sturdy boxes in front.

        An Armored Jacket gives one extra Sturdy box: ``standard(extra_sturdy=1)`` is S, S, L, H, C.
        """
        check_whole(extra_sturdy, "Extra Sturdy boxes must be a whole number of 0 or more", 0)
        return cls(boxes=(BoxKind.STURDY,) * extra_sturdy + STANDARD_BOXES)

    # --- changes (each returns a new track) ---

    def mark(self, n: int = 1) -> DamageTrack:
        """Cross off ``n`` more boxes. Going past the last box destroys the model."""
        check_whole(n, "The number of boxes to cross off must be a whole number of 0 or more", 0)
        if self.overkilled:
            return self
        return replace(self, marked=min(self.marked + n, len(self.boxes) + 1))

    def unmark(self, n: int = 1) -> DamageTrack:
        """Clear the last ``n`` crossed-off boxes (undo ``mark``)."""
        check_whole(n, "The number of boxes to clear must be a whole number of 0 or more", 0)
        if self.overkilled:
            raise RulesError("This model was overkilled: undo the overkill before clearing boxes.")
        if n > self.marked:
            raise RulesError(
                f"Only {self.marked} boxes are crossed off, so {n} can't be cleared."
                if self.marked != 1
                else f"Only 1 box is crossed off, so {n} can't be cleared."
            )
        return replace(self, marked=self.marked - n)

    def overkill(self) -> DamageTrack:
        """The model is overkilled: destroyed at once and removed from the table."""
        return replace(self, overkilled=True)

    def undo_overkill(self) -> DamageTrack:
        """Take back an overkill: the track is as it was before."""
        return replace(self, overkilled=False)

    def destroy(self) -> DamageTrack:
        """Destroy the model in one go, as if damage went past its last box."""
        return replace(self, marked=len(self.boxes) + 1)

    def apply(self, outcome: AttackOutcome) -> DamageTrack:
        """Apply what an attack did: 1 or 2 boxes, an Overkill, or nothing."""
        if not isinstance(outcome, AttackOutcome):
            raise RulesError(f"An attack outcome is needed to apply damage; got {outcome!r}.")
        if outcome is AttackOutcome.OVERKILL:
            return self.overkill()
        boxes = outcome.boxes
        return self.mark(boxes) if boxes else self

    # --- what the track means ---

    @property
    def boxes_left(self) -> int:
        """Boxes not yet crossed off (0 once the model is out)."""
        if self.is_out:
            return 0
        return len(self.boxes) - self.marked

    @property
    def destroyed(self) -> bool:
        return self.marked > len(self.boxes)

    @property
    def state(self) -> DamageState:
        if self.overkilled:
            return DamageState.OVERKILLED
        if self.marked == 0:
            return DamageState.UNDAMAGED
        if self.destroyed:
            return DamageState.DESTROYED
        return _STATE_OF_BOX[self.boxes[self.marked - 1]]

    @property
    def is_out(self) -> bool:
        """Destroyed or overkilled: the model takes no further part."""
        return self.overkilled or self.destroyed

    @property
    def can_act(self) -> bool:
        return not self.is_out

    @property
    def penalty(self) -> int:
        """Modifier to all of the model's rolls (see ``DamageState.penalty``)."""
        return self.state.penalty

    @property
    def top_speed_allowed(self) -> bool:
        return self.state.top_speed_allowed

    @property
    def effect_text(self) -> str:
        return self.state.effect_text

    # --- plain data ---

    def to_dict(self) -> dict[str, Any]:
        """The track as plain JSON types."""
        return {
            "boxes": [box.value for box in self.boxes],
            "marked": self.marked,
            "overkilled": self.overkilled,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DamageTrack:
        """Read a track written by ``to_dict``; anything malformed raises RulesError."""
        if not isinstance(data, Mapping):
            raise RulesError(f"A saved damage track must be a mapping; got {data!r}.")
        expected = {"boxes", "marked", "overkilled"}
        if set(data) != expected:
            raise RulesError(
                "A saved damage track has exactly the fields boxes, marked and overkilled; "
                f"got {', '.join(sorted(map(str, data))) or 'none'}."
            )
        raw_boxes = data["boxes"]
        if not isinstance(raw_boxes, list):
            raise RulesError(f"A saved damage track's boxes must be a list; got {raw_boxes!r}.")
        marked, overkilled = data["marked"], data["overkilled"]
        if (
            all(type(raw) is str for raw in raw_boxes)
            and type(marked) is int
            and type(overkilled) is bool
        ):
            # A match holds the same few tracks many times over: each is read and checked once.
            return _track_read_once(tuple(raw_boxes), marked, overkilled)
        return _track(raw_boxes, marked, overkilled)


def _track(raw_boxes: Iterable[Any], marked: Any, overkilled: Any) -> DamageTrack:
    boxes = []
    for raw in raw_boxes:
        try:
            boxes.append(BoxKind(raw))
        except ValueError:
            raise RulesError(
                f"Unknown damage box {raw!r}; expected sturdy, light, heavy or critical."
            ) from None
    return DamageTrack(boxes=tuple(boxes), marked=marked, overkilled=overkilled)


# Tracks are immutable, so one read can stand for every equal one (a refusal is never kept).
_track_read_once = lru_cache(maxsize=1024)(_track)
