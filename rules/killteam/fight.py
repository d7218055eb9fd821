"""The Fight sequence: resolved die by die from entered rolls, and its odds under a stated policy.

From the text: both operatives roll their melee weapon's attack dice; starting with the
attacker, the players take turns resolving one kept success each (or all the rest when the
opponent has none left): strike (deal its damage) or block (cancel one of the opponent's
unresolved successes: a normal blocks a normal, a critical blocks either). In a fight two
normals never block a critical (docs/killteam-readings.md, 'Fight'). Brutal: the opponent
blocks with critical successes only. Shock: the first time in the sequence its wielder strikes
with a critical, one of the opponent's unresolved normal successes is discarded too (a critical
if none is left). Devastating x deals x per kept critical as the dice are kept, before anyone
resolves a die. Stun: a fighter that keeps a critical success with a Stun weapon takes 1 from the
opponent's APL until the end of the opponent's next activation (kept, so even when that die is
blocked).

Readings: an operative at 0 wounds is incapacitated and removed, so the fight stops there. The
odds use the policy 'Fight' names: both players strike with every die (no blocks), each
striking with its critical successes first.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache

from rules.checks import check_flag, check_whole
from rules.errors import RulesError
from rules.exact import as_fractions
from rules.killteam.data import core_numbers
from rules.killteam.dice import KeptDice, RetainedCounts, retain_policy, retained_counts
from rules.killteam.shoot import AttackProfile
from rules.killteam.weapons import attack_faces

ATTACKER, DEFENDER = "attacker", "defender"
STRIKE, BLOCK = "strike", "block"
CRITICAL, NORMAL = "critical", "normal"
ODDS_POLICY = "if both players strike with every die, critical successes first (no blocks)"


@dataclass(frozen=True)
class Fighter:
    """One side of a fight: its unresolved successes, its weapon's damage, its wounds left."""

    crits: int
    normals: int
    normal_damage: int
    critical_damage: int
    wounds: int
    brutal: bool = False
    shock: bool = False
    shock_used: bool = False
    stuns: bool = False
    """Its weapon has Stun and it kept a critical success: the opponent is stunned."""

    @property
    def has_dice(self) -> bool:
        return self.crits + self.normals > 0


@dataclass(frozen=True)
class FightChoice:
    """A die resolved: strike with a critical or normal success, or block one of the
    opponent's (``target``) with it."""

    action: str
    die: str
    target: str | None = None

    @property
    def words(self) -> str:
        if self.action == STRIKE:
            return f"Strike with a {self.die} success"
        return f"Block a {self.target} success with a {self.die} one"


@dataclass(frozen=True)
class Fight:
    """A fight in progress. ``turn`` is who resolves a die next (None: the fight is over)."""

    attacker: Fighter
    defender: Fighter
    turn: str | None
    damage_to_attacker: int = 0
    damage_to_defender: int = 0
    notes: tuple[str, ...] = ()
    choices: tuple[tuple[str, FightChoice], ...] = ()
    """Each die resolved so far: (who, what)."""

    def side(self, key: str) -> Fighter:
        return self.attacker if key == ATTACKER else self.defender

    @property
    def over(self) -> bool:
        return self.turn is None

    @property
    def incapacitated(self) -> tuple[str, ...]:
        return tuple(key for key in (ATTACKER, DEFENDER) if self.side(key).wounds <= 0)

    @property
    def tally(self) -> str:
        """ "Attacker: 2 strikes, 1 block; defender: 1 strike, 0 blocks." """
        parts = []
        for key in (ATTACKER, DEFENDER):
            done = [choice.action for who, choice in self.choices if who == key]
            strikes, blocks = done.count(STRIKE), done.count(BLOCK)
            parts.append(
                f"{key}: {strikes} strike{'s' if strikes != 1 else ''}, "
                f"{blocks} block{'s' if blocks != 1 else ''}"
            )
        return "; ".join(parts).capitalize() + "."

    @property
    def stunned(self) -> tuple[str, ...]:
        """The sides stunned by the other's Stun weapon (an incapacitated one is removed)."""
        return tuple(
            key
            for key in (ATTACKER, DEFENDER)
            if self.side(_other(key)).stuns and key not in self.incapacitated
        )


def _other(key: str) -> str:
    return DEFENDER if key == ATTACKER else ATTACKER


def _fighter(profile: AttackProfile, dice: KeptDice, wounds: int) -> Fighter:
    check_whole(wounds, "Wounds left must be a whole number of 1 or more", 1)
    return Fighter(
        crits=dice.crits,
        normals=dice.normals,
        normal_damage=profile.normal_damage,
        critical_damage=profile.critical_damage,
        wounds=wounds,
        brutal=profile.rules.brutal,
        shock=profile.rules.shock,
        stuns=profile.rules.stun and dice.crits > 0,
    )


def start_fight(
    attacker: AttackProfile,
    attacker_dice: KeptDice,
    attacker_wounds: int,
    defender: AttackProfile,
    defender_dice: KeptDice,
    defender_wounds: int,
) -> Fight:
    """A fight from both players' kept dice (``shoot.read_attack`` reads melee dice too) and
    both operatives' wounds left; Devastating acts at once."""
    a = _fighter(attacker, attacker_dice, attacker_wounds)
    d = _fighter(defender, defender_dice, defender_wounds)
    notes = []
    to_attacker = defender.rules.devastating * d.crits
    to_defender = attacker.rules.devastating * a.crits
    if to_defender:
        notes.append(f"Devastating: the defender takes {to_defender}.")
    if to_attacker:
        notes.append(f"Devastating: the attacker takes {to_attacker}.")
    for key, fighter in ((ATTACKER, a), (DEFENDER, d)):
        if fighter.stuns:
            notes.append(f"Stun: the {_other(key)} is stunned (a kept critical success).")
    a = replace(a, wounds=a.wounds - to_attacker)
    d = replace(d, wounds=d.wounds - to_defender)
    fight = Fight(a, d, ATTACKER, to_attacker, to_defender, tuple(notes))
    return replace(fight, turn=_first_turn(fight, ATTACKER))


def _first_turn(fight: Fight, preferred: str) -> str | None:
    if fight.incapacitated:
        return None
    for key in (preferred, _other(preferred)):
        if fight.side(key).has_dice:
            return key
    return None


def fight_choices(fight: Fight) -> tuple[FightChoice, ...]:
    """What the player whose turn it is may do with one die (none once the fight is over)."""
    if fight.turn is None:
        return ()
    me, foe = fight.side(fight.turn), fight.side(_other(fight.turn))
    choices = []
    for die, count in ((CRITICAL, me.crits), (NORMAL, me.normals)):
        if not count:
            continue
        choices.append(FightChoice(STRIKE, die))
        if die == NORMAL and foe.brutal:
            continue  # Brutal: only critical successes block
        for target, left in ((CRITICAL, foe.crits), (NORMAL, foe.normals)):
            if left and (die == CRITICAL or target == NORMAL):
                choices.append(FightChoice(BLOCK, die, target))
    return tuple(choices)


def fight_choose(fight: Fight, choice: FightChoice) -> Fight:
    """The fight after the player whose turn it is resolves one die; a choice the dice or the
    rules do not allow raises RulesError with a sentence."""
    if fight.turn is None:
        raise RulesError("The fight is over: no die is left to resolve.")
    key = fight.turn
    if choice not in fight_choices(fight):
        raise RulesError(_refusal(fight, key, choice))
    me, foe = fight.side(key), fight.side(_other(key))
    me = _spend(me, choice.die)
    notes = list(fight.notes)
    who = key.capitalize()
    if choice.action == BLOCK:
        foe = _spend(foe, choice.target)
        notes.append(f"{who} blocks a {choice.target} success with a {choice.die} one.")
        damage = 0
    else:
        damage = me.critical_damage if choice.die == CRITICAL else me.normal_damage
        foe = replace(foe, wounds=foe.wounds - damage)
        notes.append(f"{who} strikes with a {choice.die} success: {damage} damage.")
        if choice.die == CRITICAL and me.shock and not me.shock_used:
            me = replace(me, shock_used=True)
            if foe.has_dice:
                lost = NORMAL if foe.normals else CRITICAL
                foe = _spend(foe, lost)
                notes.append(f"Shock: one {lost} success of the {_other(key)} is discarded.")
    sides = {key: me, _other(key): foe}
    new = Fight(
        attacker=sides[ATTACKER],
        defender=sides[DEFENDER],
        turn=key,
        damage_to_attacker=fight.damage_to_attacker + (damage if key == DEFENDER else 0),
        damage_to_defender=fight.damage_to_defender + (damage if key == ATTACKER else 0),
        notes=tuple(notes),
        choices=(*fight.choices, (key, choice)),
    )
    return replace(new, turn=_first_turn(new, _other(key)))


def _spend(fighter: Fighter, die: str | None) -> Fighter:
    if die == CRITICAL:
        return replace(fighter, crits=fighter.crits - 1)
    return replace(fighter, normals=fighter.normals - 1)


def _refusal(fight: Fight, turn: str, choice: FightChoice) -> str:
    """Why ``turn`` (the player whose turn it is) may not make ``choice``."""
    me, foe = fight.side(turn), fight.side(_other(turn))
    if choice.action not in (STRIKE, BLOCK) or choice.die not in (CRITICAL, NORMAL):
        return "Resolve a die by striking or blocking with a critical or normal success."
    if (me.crits if choice.die == CRITICAL else me.normals) == 0:
        return f"The {turn} has no unresolved {choice.die} success."
    if choice.action == BLOCK and choice.die == NORMAL and foe.brutal:
        return "Brutal: only a critical success can block this weapon's successes."
    if choice.action == BLOCK and choice.die == NORMAL and choice.target == CRITICAL:
        return "In a fight a normal success cannot block a critical one."
    return f"The {_other(turn)} has no unresolved {choice.target} success to block."


# --- Odds -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FightOdds:
    """Exact chances under ``ODDS_POLICY``: the damage each operative takes and the chance
    each side incapacitates the other."""

    damage_to_defender: dict[int, Fraction]
    damage_to_attacker: dict[int, Fraction]
    attacker_incapacitates: Fraction
    defender_incapacitates: Fraction
    policy: str = ODDS_POLICY


def fight_odds(
    *,
    attacker: AttackProfile,
    attacker_wounds: int,
    defender: AttackProfile,
    defender_wounds: int,
    attacker_injured: bool = False,
    defender_injured: bool = False,
) -> FightOdds:
    """The fight's odds if both players strike with every die (docs/killteam-readings.md, 'Fight'),
    each kept-dice distribution as the Shoot odds make it (re-rolls and choices under the same
    policies)."""
    check_whole(
        attacker_wounds, "The attacker's wounds left must be a whole number of 1 or more", 1
    )
    check_whole(
        defender_wounds, "The defender's wounds left must be a whole number of 1 or more", 1
    )
    check_flag(attacker_injured, "Injured attacker")
    check_flag(defender_injured, "Injured defender")
    a_counts, a_total = _kept(attacker, attacker_injured)
    d_counts, d_total = _kept(defender, defender_injured)
    to_defender: dict[int, int] = {}
    to_attacker: dict[int, int] = {}
    attacker_wins = defender_wins = 0
    for a_dice, a_ways in a_counts:
        for d_dice, d_ways in d_counts:
            ways = a_ways * d_ways
            dealt_a, dealt_d = _strike_all(
                _side(attacker, a_dice, attacker_wounds), _side(defender, d_dice, defender_wounds)
            )
            to_defender[dealt_a] = to_defender.get(dealt_a, 0) + ways
            to_attacker[dealt_d] = to_attacker.get(dealt_d, 0) + ways
            attacker_wins += ways if dealt_a >= defender_wounds else 0
            defender_wins += ways if dealt_d >= attacker_wounds else 0
    total = a_total * d_total
    return FightOdds(
        damage_to_defender=as_fractions(to_defender, total),
        damage_to_attacker=as_fractions(to_attacker, total),
        attacker_incapacitates=Fraction(attacker_wins, total),
        defender_incapacitates=Fraction(defender_wins, total),
    )


def fight_policy(
    attacker: AttackProfile,
    defender: AttackProfile,
    *,
    names: tuple[str, str] = ("The attacker", "The defender"),
    injured: tuple[bool, bool] = (False, False),
) -> tuple[str, ...]:
    """The policies behind ``fight_odds`` in words: the 'Fight' reading's first, then for each
    fighter (``names``) a worse Hit when injured and each weapon rule's reading ("The attacker's
    Lethal 5+: successes of x+ are critical")."""
    lines = [f"The odds: {ODDS_POLICY}; the fight stops when an operative is incapacitated."]
    for name, profile, hurt in zip(names, (attacker, defender), injured, strict=True):
        if hurt:
            worse = core_numbers().injured_hit_worsened_by
            lines.append(f"{name} is injured: its weapon's Hit is {worse} worse.")
        lines += [f"{name}'s {sentence}." for sentence in profile.rules.sentences()]
    return tuple(lines)


def _kept(profile: AttackProfile, injured: bool) -> tuple[RetainedCounts, int]:
    faces = attack_faces(profile.hit, profile.rules, injured=injured)
    retain = retain_policy(profile.rules, helpful=profile.helpful)
    return retained_counts(profile.attacks, faces, retain)


Side = tuple[int, int, int, int, int, bool, int]
"""(crits, normals, normal damage, critical damage, Devastating x, Shock, wounds left)."""


def _side(profile: AttackProfile, dice: tuple[int, int], wounds: int) -> Side:
    crits, normals = dice
    rules = profile.rules
    return (
        crits,
        normals,
        profile.normal_damage,
        profile.critical_damage,
        rules.devastating,
        rules.shock,
        wounds,
    )


@lru_cache(maxsize=65536)
def _strike_all(attacker: Side, defender: Side) -> tuple[int, int]:
    """(damage dealt by the attacker, by the defender) when both strike with every die,
    criticals first, taking turns from the attacker, until one is incapacitated."""
    dice = [[attacker[0], attacker[1]], [defender[0], defender[1]]]
    sides = (attacker, defender)
    dealt = [attacker[4] * attacker[0], defender[4] * defender[0]]  # Devastating
    shocked = [False, False]
    turn = 0
    while dealt[0] < defender[6] and dealt[1] < attacker[6]:
        if not sum(dice[turn]):
            turn = 1 - turn
            if not sum(dice[turn]):
                break
        mine, foe = dice[turn], dice[1 - turn]
        if mine[0]:
            mine[0] -= 1
            dealt[turn] += sides[turn][3]
            if sides[turn][5] and not shocked[turn]:
                shocked[turn] = True
                if foe[1]:
                    foe[1] -= 1
                elif foe[0]:
                    foe[0] -= 1
        else:
            mine[1] -= 1
            dealt[turn] += sides[turn][2]
        turn = 1 - turn
    return dealt[0], dealt[1]


def clear_caches() -> None:
    """Forget this module's cached answers (for benchmarks; answers never change)."""
    for cached in (_strike_all,):
        cached.cache_clear()
