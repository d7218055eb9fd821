"""The Shoot sequence: resolved from entered dice, and its exact damage distribution.

From the text: the attacker rolls a D6 per Attack, keeping each result of the Hit or more; the
defender rolls three D6 against the Save (in cover, one may be kept as a normal success
unrolled); the defender blocks (normal on normal, two normals on a critical, a critical on
either); every unblocked success deals the weapon's normal or critical damage.

Readings (docs/killteam-readings.md): the defender blocks to take the least damage in the odds
('Least-damage blocks'), and chooses when rolls are entered (the least-damage choice offered first);
Piercing x with cover: x fewer dice first, then cover keeps one of those left as a normal success
('Piercing with cover') — the odds assume the defender keeps it; Devastating x deals x per kept
critical at once, and the critical still counts in the block step ('Devastating'). Brutal lets the
defender block with critical successes only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache

from rules.checks import check_flag, check_whole, is_whole
from rules.errors import RulesError
from rules.exact import as_fractions
from rules.killteam.data import core_numbers
from rules.killteam.dice import (
    KeptDice,
    check_faces,
    defence_counts,
    keep_attack_dice,
    keep_defence_dice,
    retain_policy,
    retained_counts,
)
from rules.killteam.profile import Weapon, WeaponRule
from rules.killteam.weapons import AttackRules, attack_faces, defence_faces, read_weapon_rules

SHOOT_POLICY = "if the defender blocks to take the least damage"
"""The odds' block policy in words, to show beside them (docs/killteam-readings.md,
'Least-damage blocks')."""

MAX_ATTACKS = 20
"""A bound on typing, as the profile form's: not a game number (the text gives none)."""
MAX_DAMAGE = 99
MAX_DEFENCE_DICE = 6


@dataclass(frozen=True)
class AttackProfile:
    """A weapon as the dice use it: Attacks, Hit (the x of "x+"), damage and its rules."""

    attacks: int
    hit: int
    normal_damage: int
    critical_damage: int
    rules: AttackRules = AttackRules()

    @property
    def helpful(self) -> bool:
        """Whether Severe and Rending are taken (docs/killteam-readings.md, "Attacker's helpful
        choices"); Punishing always is."""
        return self.critical_damage >= self.normal_damage


def attack_profile(
    *,
    attacks: int,
    hit: int,
    normal_damage: int,
    critical_damage: int,
    weapon_rules: Iterable[str | WeaponRule] = (),
) -> AttackProfile:
    """A weapon's figures checked (RulesError with a sentence) and its rules read."""
    check_whole(attacks, f"Attacks must be a whole number from 1 to {MAX_ATTACKS}", 1)
    if attacks > MAX_ATTACKS:
        raise RulesError(f"Attacks must be a whole number from 1 to {MAX_ATTACKS}; got {attacks}.")
    _check_x_plus(hit, "Hit")
    for value, what in ((normal_damage, "Normal damage"), (critical_damage, "Critical damage")):
        if not is_whole(value) or not 0 <= value <= MAX_DAMAGE:
            raise RulesError(
                f"{what} must be a whole number from 0 to {MAX_DAMAGE}; got {value!r}."
            )
    return AttackProfile(
        attacks, hit, normal_damage, critical_damage, read_weapon_rules(weapon_rules)
    )


def profile_of(weapon: Weapon) -> AttackProfile:
    """The dice's view of a weapon typed into a profile."""
    return AttackProfile(
        weapon.attacks,
        weapon.hit,
        weapon.normal_damage,
        weapon.critical_damage,
        read_weapon_rules(weapon.rules),
    )


def _check_x_plus(value: object, what: str) -> int:
    if not is_whole(value) or not 2 <= value <= 6:
        raise RulesError(
            f"{what} is the x of x+, from 2 to 6 (a 1 always fails, a 6 always succeeds); "
            f"got {value!r}."
        )
    return value


def _check_defence_dice(value: object) -> int:
    if not is_whole(value) or not 0 <= value <= MAX_DEFENCE_DICE:
        raise RulesError(
            f"Defence dice must be a whole number from 0 to {MAX_DEFENCE_DICE}; got {value!r}."
        )
    return value


def defence_dice_to_roll(
    rules: AttackRules, crits: int, *, defence_dice: int, cover: bool
) -> tuple[int, bool]:
    """(dice the defender rolls, whether cover keeps one unrolled): Piercing takes x dice away
    (Piercing Crits only with a critical kept) before cover keeps one of those left; Saturate
    keeps no cover save."""
    left = defence_dice - rules.piercing - (rules.piercing_crits if crits else 0)
    left = max(0, left)
    kept = cover and not rules.saturate and left > 0
    return left - kept, kept


# --- Blocks -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Blocks:
    """How the defender blocks: criticals on criticals, pairs of normals on criticals,
    criticals on normals, normals on normals; and the damage then taken (Devastating
    included)."""

    crit_on_crit: int
    pairs_on_crit: int
    crit_on_normal: int
    normal_on_normal: int
    damage: int = 0

    @property
    def blocked_crits(self) -> int:
        return self.crit_on_crit + self.pairs_on_crit

    @property
    def blocked_normals(self) -> int:
        return self.crit_on_normal + self.normal_on_normal

    @property
    def words(self) -> str:
        parts = []
        for count, what in (
            (self.crit_on_crit, "critical on critical"),
            (self.pairs_on_crit, "two normals on a critical"),
            (self.crit_on_normal, "critical on normal"),
            (self.normal_on_normal, "normal on normal"),
        ):
            if count:
                parts.append(f"{count} × {what}")
        return ", ".join(parts) or "no blocks"


def _damage(
    profile: AttackProfile, crits: int, normals: int, blocked_c: int, blocked_n: int
) -> int:
    return _damage_of(_figures(profile), crits, normals, blocked_c, blocked_n)


Figures = tuple[int, int, int, bool]
"""(normal damage, critical damage, Devastating x, Brutal): what blocking depends on."""


def _figures(profile: AttackProfile) -> Figures:
    rules = profile.rules
    return (profile.normal_damage, profile.critical_damage, rules.devastating, rules.brutal)


def _damage_of(figures: Figures, crits: int, normals: int, blocked_c: int, blocked_n: int) -> int:
    normal, critical, devastating, _brutal = figures
    return devastating * crits + (crits - blocked_c) * critical + (normals - blocked_n) * normal


def block_options(
    profile: AttackProfile, attack: KeptDice, defence: KeptDice
) -> tuple[Blocks, ...]:
    """Every way to block that is not worse in every way than another, the least damage first
    (ties: fewer dice used). Brutal: only critical successes block."""
    return _block_options(
        _figures(profile), attack.crits, attack.normals, defence.crits, defence.normals
    )


@lru_cache(maxsize=8192)
def _block_options(
    figures: Figures, crits: int, normals: int, d_crits: int, d_normals: int
) -> tuple[Blocks, ...]:
    usable_normals = 0 if figures[3] else d_normals
    best: dict[tuple[int, int], Blocks] = {}
    for cc in range(min(d_crits, crits) + 1):
        for pairs in range(min(usable_normals // 2, crits - cc) + 1):
            cn = min(d_crits - cc, normals)
            nn = min(usable_normals - 2 * pairs, normals - cn)
            blocks = Blocks(cc, pairs, cn, nn)
            key = (blocks.blocked_crits, blocks.blocked_normals)
            if key not in best:
                best[key] = replace(blocks, damage=_damage_of(figures, crits, normals, *key))
    keys = [
        key for key in best if not any(o != key and o[0] >= key[0] and o[1] >= key[1] for o in best)
    ]
    options = [best[key] for key in keys]
    return tuple(
        sorted(
            options, key=lambda b: (b.damage, b.crit_on_crit + b.crit_on_normal, -b.pairs_on_crit)
        )
    )


@lru_cache(maxsize=8192)
def least_damage(figures: Figures, crits: int, normals: int, d_crits: int, d_normals: int) -> int:
    """The damage taken when the defender blocks to take the least: every count of criticals
    on criticals and of pairs of normals on criticals tried, the rest on normals."""
    normal, critical, devastating, brutal = figures
    usable = 0 if brutal else d_normals
    least = crits * critical + normals * normal
    for on_crits in range(min(d_crits, crits) + 1):
        for pairs in range(min(usable // 2, crits - on_crits) + 1):
            blocked = min(normals, d_crits - on_crits + usable - 2 * pairs)
            damage = (crits - on_crits - pairs) * critical + (normals - blocked) * normal
            least = min(least, damage)
    return devastating * crits + least


# --- From entered rolls -----------------------------------------------------------------------


def read_attack(
    profile: AttackProfile,
    dice: Sequence[int],
    *,
    injured_attacker: bool = False,
    command_reroll: bool = False,
) -> KeptDice:
    """The attack dice as they lie (after any re-rolls), read: which are critical, normal or
    failed, and the successes kept after the weapon's rules. Accurate x: roll up to x dice
    fewer than the Attacks; those are kept as normal successes."""
    faces_shown = check_faces(dice, "attack dice")
    check_flag(injured_attacker, "Injured attacker")
    unrolled = profile.attacks - len(faces_shown)
    if not 0 <= unrolled <= min(profile.rules.accurate, profile.attacks):
        fewer = (
            f" (or up to {profile.rules.accurate} fewer with Accurate)"
            if profile.rules.accurate
            else ""
        )
        raise RulesError(f"Roll {profile.attacks} attack dice{fewer}; got {len(faces_shown)}.")
    retain = replace(
        retain_policy(profile.rules, helpful=profile.helpful, command_reroll=command_reroll),
        accurate=unrolled,
    )
    faces = attack_faces(profile.hit, profile.rules, injured=injured_attacker)
    return keep_attack_dice(faces_shown, faces, retain)


def read_defence(
    profile: AttackProfile,
    attack: KeptDice,
    dice: Sequence[int],
    *,
    save: int,
    cover: bool = False,
    defence_dice: int | None = None,
) -> KeptDice:
    """The defence dice read against ``save``. In cover the defender may keep one die unrolled
    as a normal success: enter one die fewer to do so."""
    faces_shown = check_faces(dice, "defence dice")
    _check_x_plus(save, "Save")
    check_flag(cover, "In cover")
    total = core_numbers().defence_dice if defence_dice is None else defence_dice
    _check_defence_dice(total)
    rolled, can_keep = defence_dice_to_roll(
        profile.rules, attack.crits, defence_dice=total, cover=cover
    )
    allowed = (rolled, rolled + 1) if can_keep else (rolled,)
    if len(faces_shown) not in allowed:
        why = _defence_words(profile.rules, attack.crits, cover)
        shown = " or ".join(str(n) for n in sorted(allowed, reverse=True))
        raise RulesError(f"The defender rolls {shown} dice{why}; got {len(faces_shown)}.")
    cover_kept = can_keep and len(faces_shown) == rolled
    return keep_defence_dice(faces_shown, defence_faces(save), cover_kept)


def _defence_words(rules: AttackRules, crits: int, cover: bool) -> str:
    parts = []
    if rules.piercing:
        parts.append(f"Piercing {rules.piercing}")
    if rules.piercing_crits and crits:
        parts.append(f"Piercing Crits {rules.piercing_crits}")
    if cover and rules.saturate:
        parts.append("Saturate: no cover save")
    elif cover:
        parts.append("one fewer to keep the cover save")
    return f" ({'; '.join(parts)})" if parts else ""


@dataclass(frozen=True)
class ShootResult:
    """One Shoot sequence resolved: the damage the target takes and how."""

    damage: int
    devastating: int
    unblocked_crits: int
    unblocked_normals: int
    blocks: Blocks
    stun: bool

    @property
    def words(self) -> str:
        parts = []
        if self.devastating:
            parts.append(f"{self.devastating} from Devastating")
        if self.unblocked_crits:
            parts.append(f"{self.unblocked_crits} critical unblocked")
        if self.unblocked_normals:
            parts.append(f"{self.unblocked_normals} normal unblocked")
        how = f" ({', '.join(parts)})" if parts else ""
        return f"{self.damage} damage{how}; blocks: {self.blocks.words}."


def resolve_shoot(
    profile: AttackProfile,
    attack: KeptDice,
    defence: KeptDice,
    blocks: Blocks | None = None,
) -> ShootResult:
    """The damage of one Shoot sequence with the defender's ``blocks`` (by default the
    least-damage one); a block the dice cannot make raises RulesError."""
    options = block_options(profile, attack, defence)
    chosen = options[0] if blocks is None else _check_blocks(profile, attack, defence, blocks)
    blocked_c, blocked_n = chosen.blocked_crits, chosen.blocked_normals
    return ShootResult(
        damage=_damage(profile, attack.crits, attack.normals, blocked_c, blocked_n),
        devastating=profile.rules.devastating * attack.crits,
        unblocked_crits=attack.crits - blocked_c,
        unblocked_normals=attack.normals - blocked_n,
        blocks=replace(
            chosen, damage=_damage(profile, attack.crits, attack.normals, blocked_c, blocked_n)
        ),
        stun=profile.rules.stun and attack.crits > 0,
    )


def _check_blocks(
    profile: AttackProfile, attack: KeptDice, defence: KeptDice, blocks: Blocks
) -> Blocks:
    counts = (blocks.crit_on_crit, blocks.pairs_on_crit, blocks.crit_on_normal)
    if not all(is_whole(n) and n >= 0 for n in (*counts, blocks.normal_on_normal)):
        raise RulesError("Blocks are counted in whole numbers of 0 or more.")
    if blocks.crit_on_crit + blocks.crit_on_normal > defence.crits:
        raise RulesError(f"The defender kept {defence.crits} critical successes to block with.")
    normals_used = 2 * blocks.pairs_on_crit + blocks.normal_on_normal
    if normals_used and profile.rules.brutal:
        raise RulesError("Brutal: the defender can block only with critical successes.")
    if normals_used > defence.normals:
        raise RulesError(f"The defender kept {defence.normals} normal successes to block with.")
    if blocks.blocked_crits > attack.crits:
        raise RulesError(f"The attacker kept {attack.crits} critical successes to block.")
    if blocks.blocked_normals > attack.normals:
        raise RulesError(f"The attacker kept {attack.normals} normal successes to block.")
    return blocks


# --- Odds -------------------------------------------------------------------------------------


def shoot_damage_distribution(
    *,
    attacks: int,
    hit: int,
    normal_damage: int,
    critical_damage: int,
    save: int,
    defence_dice: int = 3,
    cover: bool = False,
    injured_attacker: bool = False,
    weapon_rules: Iterable[str | WeaponRule] = (),
    command_reroll: bool = False,
) -> dict[int, Fraction]:
    """Exact chance of each damage the target takes from one Shoot sequence, if the defender
    blocks to take the least damage (docs/killteam-readings.md, 'Least-damage blocks'), under the
    stated policies (``rules.killteam.dice``; ``command_reroll``: the attacker re-rolls one failed
    attack die with the ploy). Keys are the possible damages, lowest first; the chances add up to
    1."""
    profile = attack_profile(
        attacks=attacks,
        hit=hit,
        normal_damage=normal_damage,
        critical_damage=critical_damage,
        weapon_rules=weapon_rules,
    )
    _check_x_plus(save, "Save")
    _check_defence_dice(defence_dice)
    check_flag(cover, "In cover")
    check_flag(injured_attacker, "Injured attacker")
    check_flag(command_reroll, "Command Re-roll")
    counts, total = _damage_counts(
        profile, save, defence_dice, cover, injured_attacker, command_reroll
    )
    return as_fractions(dict(counts), total)


@lru_cache(maxsize=4096)
def _damage_counts(
    profile: AttackProfile,
    save: int,
    defence_dice: int,
    cover: bool,
    injured: bool,
    command_reroll: bool,
) -> tuple[tuple[tuple[int, int], ...], int]:
    faces = attack_faces(profile.hit, profile.rules, injured=injured)
    retain = retain_policy(profile.rules, helpful=profile.helpful, command_reroll=command_reroll)
    attack, attack_total = retained_counts(profile.attacks, faces, retain)
    damages: dict[int, int] = {}
    figures = _figures(profile)
    for (crits, normals), attack_ways in attack:
        rolled, kept = defence_dice_to_roll(
            profile.rules, crits, defence_dice=defence_dice, cover=cover
        )
        scale = attack_ways * 6 ** (defence_dice - rolled)
        for (d_crits, d_normals), defence_ways in defence_counts(rolled, save):
            damage = least_damage(figures, crits, normals, d_crits, d_normals + kept)
            damages[damage] = damages.get(damage, 0) + scale * defence_ways
    return tuple(damages.items()), attack_total * 6**defence_dice


def odds_policy(
    weapon_rules: Iterable[str | WeaponRule] = (),
    *,
    cover: bool = False,
    injured_attacker: bool = False,
) -> tuple[str, ...]:
    """The policies behind ``shoot_damage_distribution`` in words, for the rules given: the
    block policy, a worse Hit when the shooter is injured, then each weapon rule's reading
    ("Balanced: the odds re-roll one failed attack die") and Blitz's choices where the text is
    silent about two of them together, and the cover save kept when the target is in cover."""
    check_flag(injured_attacker, "Injured attacker")
    rules = read_weapon_rules(weapon_rules)
    lines = [SHOOT_POLICY[0].upper() + SHOOT_POLICY[1:] + "."]
    if injured_attacker:
        worse = core_numbers().injured_hit_worsened_by
        lines.append(f"The shooter is injured: its weapon's Hit is {worse} worse.")
    lines += [f"{line}." for line in (*rules.sentences(), *rules.readings())]
    if cover and not rules.saturate:
        lines.append("In cover: the defender keeps one defence die as a normal success unrolled.")
    return tuple(lines)


def incapacitate_chance(distribution: dict[int, Fraction], wounds_left: int) -> Fraction:
    """Chance that damage from ``distribution`` takes an operative with ``wounds_left`` to 0."""
    return sum((p for damage, p in distribution.items() if damage >= wounds_left), Fraction(0))


def injure_chance(distribution: dict[int, Fraction], starting: int, wounds_left: int) -> Fraction:
    """Chance that the operative ends injured (fewer than half its starting Wounds) but not
    incapacitated."""
    return sum(
        (
            p
            for damage, p in distribution.items()
            if 0 < wounds_left - damage and 2 * (wounds_left - damage) < starting
        ),
        Fraction(0),
    )


def clear_caches() -> None:
    """Forget this module's cached answers (for benchmarks; answers never change)."""
    for cached in (_block_options, least_damage, _damage_counts):
        cached.cache_clear()
