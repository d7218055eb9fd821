"""Brute force: every roll of every die enumerated, face by face, the rules applied to the faces
as a player would at the table. Written apart from rules/killteam (no shared code but the rule
parser), so a test comparing the two compares two readings of the text.

Each function returns exact chances (Fractions). Re-rolls branch into all six faces of each
re-rolled die, so a re-roll of k dice multiplies the rolls by 6**k. The attack and defence
rolls are independent, so the chance of a pair is the product of theirs.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product

from rules.killteam.profile import parse_weapon_rule


def read_rules(texts) -> dict:
    rules = {}
    for text in texts:
        rule = parse_weapon_rule(text)
        rules[rule.key] = rule.x if rule.x is not None else True
    return rules


def classify(face: int, hit: int, lethal: int | None) -> str:
    if face == 6:
        return "crit"
    if face == 1 or face < hit:
        return "fail"
    if lethal is not None and face >= lethal:
        return "crit"
    return "normal"


def _rerolled(faces: tuple[int, ...], indices: list[int]):
    """Every way the dice at ``indices`` land when re-rolled: (faces, extra dice rolled)."""
    for new in product(range(1, 7), repeat=len(indices)):
        result = list(faces)
        for index, face in zip(indices, new, strict=True):
            result[index] = face
        yield tuple(result), len(indices)


def attack_outcomes(
    attacks: int,
    hit: int,
    rules: dict,
    *,
    injured: bool = False,
    helpful: bool = True,
    command_reroll: bool = False,
) -> dict[tuple[int, int], Fraction]:
    """(crits, normals) kept, by chance, enumerating every attack roll and every re-roll."""
    if injured:
        hit = min(hit + 1, 7)
    lethal = rules.get("lethal")
    accurate = min(rules.get("accurate", 0), attacks)
    rolled = attacks - accurate

    def fails(faces):
        return [i for i, f in enumerate(faces) if classify(f, hit, lethal) == "fail"]

    def stages():
        if rules.get("relentless"):
            yield lambda faces: fails(faces)
        if rules.get("ceaseless"):

            def alike(faces):
                failed = [faces[i] for i in fails(faces)]
                if not failed:
                    return []
                counts = Counter(failed)
                value = max(sorted(counts), key=lambda v: counts[v])
                return [i for i, f in enumerate(faces) if f == value]

            yield alike
        if rules.get("balanced"):
            yield lambda faces: fails(faces)[:1]
        if command_reroll:
            yield lambda faces: fails(faces)[:1]

    chosen = list(stages())
    out: Counter = Counter()

    def walk(faces, stage, extra):
        if stage == len(chosen):
            out[keep(faces)] += Fraction(1, 6 ** (rolled + extra))
            return
        indices = chosen[stage](faces)
        if not indices:
            walk(faces, stage + 1, extra)
            return
        for new_faces, more in _rerolled(faces, indices):
            walk(new_faces, stage + 1, extra + more)

    def keep(faces):
        reads = [classify(f, hit, lethal) for f in faces]
        crits, normals, failed = reads.count("crit"), reads.count("normal"), reads.count("fail")
        normals += accurate
        if rules.get("severe") and helpful and crits == 0 and normals:
            return (1, normals - 1)
        if crits and rules.get("punishing") and failed:
            normals += 1  # one more normal success never lowers the damage: always taken
        if crits and rules.get("rending") and helpful and normals:
            crits, normals = crits + 1, normals - 1
        return (crits, normals)

    for faces in product(range(1, 7), repeat=rolled):
        walk(faces, 0, 0)
    return dict(out)


@cache
def defence_outcomes(dice: int, save: int) -> dict[tuple[int, int], Fraction]:
    out: Counter = Counter()
    for faces in product(range(1, 7), repeat=dice):
        reads = [classify(f, save, None) for f in faces]
        out[(reads.count("crit"), reads.count("normal"))] += Fraction(1, 6**dice)
    return dict(out)


@cache
def least_damage(crits, normals, d_crits, d_normals, normal_damage, critical_damage, brutal):
    """Every assignment of each defence success to an attack success (or to none) tried."""
    attack = ["c"] * crits + ["n"] * normals
    defence = ["c"] * d_crits + ([] if brutal else ["n"] * d_normals)
    best = None
    for targets in product(range(-1, len(attack)), repeat=len(defence)):
        on = [[] for _ in attack]
        for die, target in zip(defence, targets, strict=True):
            if target >= 0:
                on[target].append(die)
        damage = 0
        for kind, blockers in zip(attack, on, strict=True):
            if kind == "n":
                blocked = bool(blockers)  # a normal or a critical blocks a normal
                damage += 0 if blocked else normal_damage
            else:
                blocked = "c" in blockers or blockers.count("n") >= 2
                damage += 0 if blocked else critical_damage
        best = damage if best is None else min(best, damage)
    return best


def shoot(
    *,
    attacks,
    hit,
    normal_damage,
    critical_damage,
    save,
    defence_dice=3,
    cover=False,
    injured_attacker=False,
    weapon_rules=(),
    command_reroll=False,
) -> dict[int, Fraction]:
    rules = read_rules(weapon_rules)
    helpful = critical_damage >= normal_damage
    out: Counter = Counter()
    attack = attack_outcomes(
        attacks,
        hit,
        rules,
        injured=injured_attacker,
        helpful=helpful,
        command_reroll=command_reroll,
    )
    for (crits, normals), p in attack.items():
        dice = defence_dice - rules.get("piercing", 0)
        if crits:
            dice -= rules.get("piercing_crits", 0)
        dice = max(dice, 0)
        kept = 1 if cover and not rules.get("saturate") and dice > 0 else 0
        for (d_crits, d_normals), q in defence_outcomes(dice - kept, save).items():
            damage = rules.get("devastating", 0) * crits + least_damage(
                crits,
                normals,
                d_crits,
                d_normals + kept,
                normal_damage,
                critical_damage,
                bool(rules.get("brutal")),
            )
            out[damage] += p * q
    return dict(sorted(out.items()))
