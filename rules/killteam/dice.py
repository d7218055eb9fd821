"""Attack and defence dice of Kill Team, read from entered rolls and as exact distributions.

Each attack die fails, is a normal success or a critical one (``weapons.DieFaces``); the
distributions count the dice in each, never enumerating the 6**n rolls: n dice split among
fail/normal/critical with multinomial counts (``rules.exact``), re-rolls convolve the failed
dice again. The policies, said beside every odds shown:

- Re-rolls (docs/killteam-readings.md, 'Re-rolls') re-roll failed dice only, in this order, each on
  the dice failed at that moment: Relentless every failed die; Ceaseless the failed dice showing the
  failed result that most of them show; Balanced one failed die; Command Re-roll one failed die.
  (The text does not forbid re-rolling a die twice, so a later re-roll may take a die an earlier one
  re-rolled.)
- Accurate x ('Accurate'): x dice (at most all of them) are kept as normal successes
  unrolled, the rest are rolled.
- The attacker's helpful choices ("Attacker's helpful choices"): Severe (no critical kept: one
  normal becomes critical; then Punishing and Rending do not apply) and Rending (with a critical
  kept, one normal becomes critical) only when the critical damage is at least the normal damage;
  Punishing (with a critical kept, one failed die becomes a normal success) always, as one more
  success can only add damage.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from rules.checks import is_whole
from rules.errors import RulesError
from rules.exact import category_counts, most_alike_counts
from rules.killteam.weapons import AttackRules, DieFaces

CRITICAL, NORMAL, FAIL = "critical", "normal", "fail"

RetainedCounts = tuple[tuple[tuple[int, int], int], ...]
Counts = dict[tuple[int, int, int], int]
"""How many rolls give each (crits, normals, fails) before the rules re-roll or keep dice."""
"""((crits, normals), count) pairs out of a total number of equally likely rolls."""


@dataclass(frozen=True)
class Retain:
    """What the attacker keeps of its attack dice, with the rules that act on them."""

    accurate: int = 0
    relentless: bool = False
    ceaseless: bool = False
    balanced: bool = False
    command_reroll: bool = False
    severe: bool = False
    punishing: bool = False
    rending: bool = False


def retain_policy(rules: AttackRules, *, helpful: bool, command_reroll: bool = False) -> Retain:
    """The retain rules of a weapon; ``helpful`` is whether its critical damage is at least its
    normal damage (Severe and Rending, which turn a normal success critical, are only taken then;
    Punishing, which adds a normal success, always: docs/killteam-readings.md, "Attacker's helpful
    choices")."""
    return Retain(
        accurate=rules.accurate,
        relentless=rules.relentless,
        ceaseless=rules.ceaseless,
        balanced=rules.balanced,
        command_reroll=command_reroll,
        severe=rules.severe and helpful,
        punishing=rules.punishing,
        rending=rules.rending and helpful,
    )


# --- Entered rolls ----------------------------------------------------------------------------


def check_faces(dice: object, what: str) -> tuple[int, ...]:
    """Entered dice: a list of whole numbers 1 to 6."""
    if isinstance(dice, str | bytes) or not isinstance(dice, Sequence):
        raise RulesError(f"The {what} are a list of dice, each 1 to 6; got {dice!r}.")
    for face in dice:
        if not is_whole(face) or not 1 <= face <= 6:
            raise RulesError(f"Each of the {what} shows 1 to 6; got {face!r}.")
    return tuple(dice)


@dataclass(frozen=True)
class KeptDice:
    """Dice as kept: each rolled die read, the dice kept unrolled, and the successes kept after
    the rules (``notes`` says in words what each rule did)."""

    dice: tuple[int, ...]
    reads: tuple[str, ...]
    unrolled: int
    crits: int
    normals: int
    notes: tuple[str, ...] = ()

    @property
    def successes(self) -> int:
        return self.crits + self.normals


def keep_attack_dice(dice: tuple[int, ...], faces: DieFaces, retain: Retain) -> KeptDice:
    """The successes kept from entered attack dice (after any re-rolls: the dice as they lie),
    with ``unrolled`` = attacks - len(dice) kept unrolled by Accurate."""
    reads = tuple(faces.read(face) for face in dice)
    crits, normals, fails = reads.count(CRITICAL), reads.count(NORMAL), reads.count(FAIL)
    return _apply_choices(dice, reads, crits, normals, fails, retain)


def kept_after_choices(
    crits: int, normals: int, fails: int, retain: Retain
) -> tuple[int, int, tuple[str, ...]]:
    """(crits, normals) kept once Severe, Punishing and Rending have acted, and the rules that
    did (their keys, in order)."""
    if retain.severe and not crits and normals:
        return 1, normals - 1, ("severe",)
    used: tuple[str, ...] = ()
    if crits:
        if retain.punishing and fails:
            normals += 1
            used += ("punishing",)
        if retain.rending and normals:
            crits, normals = crits + 1, normals - 1
            used += ("rending",)
    return crits, normals, used


_CHOICE_NOTES = {
    "severe": "Severe: a normal success becomes critical.",
    "punishing": "Punishing: a failed die is kept as a normal success.",
    "rending": "Rending: a normal success becomes critical.",
}


def _apply_choices(
    dice: tuple[int, ...],
    reads: tuple[str, ...],
    crits: int,
    normals: int,
    fails: int,
    retain: Retain,
) -> KeptDice:
    unrolled = retain.accurate
    notes: list[str] = []
    if unrolled:
        notes.append(f"Accurate: {unrolled} kept as normal success{'es' * (unrolled > 1)}.")
    crits, normals, used = kept_after_choices(crits, normals + unrolled, fails, retain)
    notes += [_CHOICE_NOTES[key] for key in used]
    return KeptDice(dice, reads, unrolled, crits, normals, tuple(notes))


def keep_defence_dice(dice: tuple[int, ...], faces: DieFaces, cover_kept: bool) -> KeptDice:
    """The successes kept from entered defence dice, plus one normal kept unrolled in cover."""
    reads = tuple(faces.read(face) for face in dice)
    notes = ("Cover: one normal success kept unrolled.",) if cover_kept else ()
    return KeptDice(
        dice,
        reads,
        int(cover_kept),
        reads.count(CRITICAL),
        reads.count(NORMAL) + int(cover_kept),
        notes,
    )


# --- Distributions ----------------------------------------------------------------------------


def trinomial(dice: int, faces: DieFaces) -> tuple[tuple[tuple[int, ...], int], ...]:
    """((fails, normals, crits), count) of ``dice`` dice, out of 6**dice rolls."""
    return category_counts(dice, (faces.fail, faces.normal, faces.critical))


@lru_cache(maxsize=4096)
def retained_counts(attacks: int, faces: DieFaces, retain: Retain) -> tuple[RetainedCounts, int]:
    """How many equally likely rolls keep each (crits, normals), and how many rolls in all."""
    unrolled = min(retain.accurate, attacks)
    rolled = attacks - unrolled
    states: Counts = {(c, n, f): count for (f, n, c), count in trinomial(rolled, faces)}
    total = 6**rolled
    if retain.relentless:
        states, total = _reroll(states, total, rolled, faces, lambda f: f)
    if retain.ceaseless:
        states, total = _reroll_alike(states, total, rolled, faces)
    if retain.balanced:
        states, total = _reroll(states, total, 1, faces, lambda f: min(f, 1))
    if retain.command_reroll:
        states, total = _reroll(states, total, 1, faces, lambda f: min(f, 1))
    kept: dict[tuple[int, int], int] = {}
    for (c, n, f), count in states.items():
        crits, normals, _used = kept_after_choices(c, n + unrolled, f, retain)
        kept[(crits, normals)] = kept.get((crits, normals), 0) + count
    return tuple(sorted(kept.items())), total


def _reroll(
    states: Counts, total: int, most: int, faces: DieFaces, how_many: Callable[[int], int]
) -> tuple[Counts, int]:
    """Re-roll ``how_many(fails)`` failed dice of each state (at most ``most``)."""
    new: dict[tuple[int, int, int], int] = {}
    for (c, n, f), count in states.items():
        k = how_many(f)
        scale = count * 6 ** (most - k)
        for (rf, rn, rc), ways in trinomial(k, faces):
            key = (c + rc, n + rn, f - k + rf)
            new[key] = new.get(key, 0) + scale * ways
    return new, total * 6**most


def _reroll_alike(states: Counts, total: int, most: int, faces: DieFaces) -> tuple[Counts, int]:
    """Ceaseless: re-roll the failed dice that show the failed result most of them show. The
    failed dice of a state show each failing face alike, so how many share the commonest one
    is counted (``most_alike_counts``), then that many are re-rolled."""
    failing = faces.fail
    new: dict[tuple[int, int, int], int] = {}
    for (c, n, f), count in states.items():
        for m, alike in enumerate(most_alike_counts(f, failing)):
            if not alike:
                continue
            scale = count * alike * failing ** (most - f) * 6 ** (most - m)
            for (rf, rn, rc), ways in trinomial(m, faces):
                key = (c + rc, n + rn, f - m + rf)
                new[key] = new.get(key, 0) + scale * ways
    return new, total * failing**most * 6**most


@lru_cache(maxsize=256)
def defence_counts(dice: int, save: int) -> tuple[tuple[tuple[int, int], int], ...]:
    """((crits, normals), count) of ``dice`` defence dice against a Save of ``save``, out of
    6**dice."""
    faces = DieFaces(hit=save, critical_from=6)
    return tuple(((c, n), count) for (_f, n, c), count in trinomial(dice, faces))


def clear_caches() -> None:
    """Forget this module's cached answers (for benchmarks; answers never change)."""
    for cached in (
        retained_counts,
        defence_counts,
    ):
        cached.cache_clear()
