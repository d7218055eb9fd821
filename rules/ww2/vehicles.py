"""What happens to vehicles: hits, running gear, one-use cards, capture, using an enemy vehicle,
moving and firing, towing guns and carrying riders. Each handler takes the state and an event and
returns (new state, a sentence for the log, warnings); illegal input raises RulesError.

Read as docs/ww2-readings.md says: a second damage destroys (L25); any damage to a tank kills its
riders (L17, tanks only); a destroyed vehicle's crew survives and dismounts (L31); a captured
vehicle's crew are prisoners (L32); a gun does not fire in its hitch turn nor while hitched, nor
unhitches in its hitch turn (L13-L14); a rider does not get off in the turn he got on (L18)."""

from __future__ import annotations

from dataclasses import replace

from rules.errors import RulesError
from rules.eventlog import Event, Stale
from rules.ww2 import helpers
from rules.ww2.state import (
    CREW,
    DEAD,
    DESTROYED_AT,
    PRISONER,
    RIDER,
    RIDER_KINDS,
    Vehicle,
    Ww2State,
)

Result = tuple[Ww2State, str, tuple[str, ...]]
HIT_RESULTS = ("damaged", "destroyed", "cancelled")
MG_NAMES = {"hull": "hull MG", "turret": "turret MG", "armour": "on-armour MG"}
WEAPONS = ("gun", *MG_NAMES, "flamethrower")


def _live(vehicle: Vehicle) -> None:
    if vehicle.destroyed:
        raise RulesError(f"{vehicle.name} is destroyed.")


def damage(state: Ww2State, vehicle: Vehicle, amount: int) -> tuple[Ww2State, list[str]]:
    """``amount`` damages (1, or 2 to destroy) and their consequences: riders on a damaged tank
    are destroyed; a destroyed vehicle's crew survives and dismounts. Returns the words."""
    words = []
    new = replace(vehicle, damage=min(DESTROYED_AT, vehicle.damage + amount))
    state = state.with_vehicle(new)
    riders = state.aboard(vehicle.id, RIDER)
    if vehicle.kind == "tank" and riders:
        state = state.with_soldiers(*(replace(r, status=DEAD, vehicle="", seat="") for r in riders))
        words.append(f"riders lost: {', '.join(r.name for r in riders)}")
    if new.destroyed:
        words.append(f"{new.name} destroyed")
        crew = state.aboard(vehicle.id, CREW)
        if crew:
            state = state.with_soldiers(*(replace(c, vehicle="", seat="") for c in crew))
            words.append(
                f"the crew survive and dismount beside it: {', '.join(c.name for c in crew)}"
            )
        if state.aboard(vehicle.id, RIDER):
            words.append("riders still aboard: the text does not say what happens to them")
    else:
        words.append(f"{new.name} damaged (its characteristics are unchanged)")
    return state, words


def hit(state: Ww2State, event: Event) -> Result:
    vehicle = state.vehicle(event["vehicle"])
    if vehicle.damage != event["seen"]:
        raise Stale(
            f"{vehicle.name} was hit{{by}}: it is {vehicle.condition} now", f"{vehicle.id}:damage"
        )
    _live(vehicle)
    result = event["result"]
    if result not in HIT_RESULTS:
        raise RulesError(f"A hit is damaged, destroyed or cancelled; got {result!r}.")
    gun, armour = event["gun_class"], event["armour_class"] or (vehicle.armour_class or 0)
    notes: list[str] = []
    if gun and armour:
        verdict = helpers.gun_against_armour(gun, armour)
        if not verdict.damages:
            raise RulesError(f"{verdict.words} Nothing recorded for {vehicle.name}.")
        notes.append(f"gun class {gun} against armour class {armour}")
    if result == "cancelled":
        if "active_armour" not in vehicle.specialisations:
            raise RulesError(f"{vehicle.name} has no active armour.")
        if vehicle.armour_used:
            raise RulesError(f"{vehicle.name}'s active armour is already spent.")
        state = state.with_vehicle(replace(vehicle, armour_used=True))
        return state, f"{vehicle.name}: the hit is cancelled by active armour (spent).", ()
    state, words = damage(state, vehicle, 1 if result == "damaged" else DESTROYED_AT)
    how = f" ({', '.join(notes)})" if notes else ""
    return state, f"Hit on {vehicle.name}{how}: {'; '.join(words)}.", ()


def running_gear(state: Ww2State, event: Event) -> Result:
    vehicle = state.vehicle(event["vehicle"])
    _live(vehicle)
    if vehicle.running_gear:
        raise Stale(
            f"{vehicle.name}'s running gear was already damaged{{by}}", f"{vehicle.id}:running_gear"
        )
    weapon, strength = event["weapon"], event["strength"]
    gun_class = event["gun_class"] or None
    if not helpers.running_gear_damaged(weapon, strength, gun_class):
        raise RulesError(
            f"{helpers.running_gear_words(weapon, strength, gun_class)} Nothing recorded."
        )
    state = state.with_vehicle(replace(vehicle, running_gear=True))
    words = [f"{vehicle.name}: running gear damaged, it cannot move for the rest of the game"]
    if state.running_gear_counts:
        state, more = damage(state, state.vehicle(vehicle.id), 1)
        words += more
    elif vehicle.kind == "tank" and state.aboard(vehicle.id, RIDER):
        riders = state.aboard(vehicle.id, RIDER)
        state = state.with_soldiers(*(replace(r, status=DEAD, vehicle="", seat="") for r in riders))
        words.append(f"riders lost: {', '.join(r.name for r in riders)}")
    return state, "; ".join(words) + ".", ()


def mine_trawl(state: Ww2State, event: Event) -> Result:
    vehicle = state.vehicle(event["vehicle"])
    if "mine_trawl" not in vehicle.specialisations:
        raise RulesError(f"{vehicle.name} has no mine trawl.")
    if vehicle.trawl_used:
        raise Stale(
            f"{vehicle.name}'s mine trawl was already spent{{by}}", f"{vehicle.id}:trawl_used"
        )
    state = state.with_vehicle(replace(vehicle, trawl_used=True))
    return state, f"{vehicle.name}'s mine trawl withstood an anti-tank mine (spent).", ()


def napalm(state: Ww2State, event: Event) -> Result:
    vehicle = state.vehicle(event["vehicle"])
    _live(vehicle)
    if vehicle.napalm_used >= vehicle.napalm:
        raise RulesError(f"{vehicle.name} has no napalm card left ({vehicle.napalm} carried).")
    state = state.with_vehicle(replace(vehicle, napalm_used=vehicle.napalm_used + 1))
    if not event["hit"]:
        return state, f"{vehicle.name}'s napalm missed: the card is gone, no result.", ()
    names = []
    for unit_id in event["destroyed"]:
        if not isinstance(unit_id, str) or not state.has(unit_id):
            raise RulesError(f"There is no unit {unit_id!r} to mark destroyed.")
    for unit_id in event["destroyed"]:
        if any(v.id == unit_id for v in state.vehicles):
            target = state.vehicle(unit_id)
            if not target.destroyed:
                state, _ = damage(state, target, DESTROYED_AT)
            names.append(target.name)
        else:
            soldier = state.soldier(unit_id)
            if not soldier.out:
                state = state.with_soldiers(replace(soldier, status=DEAD, vehicle="", seat=""))
            names.append(soldier.name)
    marked = f'destroyed within 4": {", ".join(names)}' if names else "no unit marked destroyed"
    return state, f"{vehicle.name}'s napalm hit: {marked}; terrain there becomes light cover.", ()


def smoke(state: Ww2State, event: Event) -> Result:
    vehicle = state.vehicle(event["vehicle"])
    _live(vehicle)
    if vehicle.smoke_used >= vehicle.smoke:
        raise RulesError(f"{vehicle.name} has no smoke card left ({vehicle.smoke} carried).")
    how = event["how"]
    if how == "fired":
        refusal = helpers.smoke_from_gun(vehicle.gun_class)
        if refusal:
            raise RulesError(refusal)
        where = "fired instead of a shell"
    elif how == "placed":
        where = 'placed within 4" of it'
    else:
        raise RulesError("Smoke is placed or fired.")
    state = state.with_vehicle(replace(vehicle, smoke_used=vehicle.smoke_used + 1))
    state = replace(state, smoke=(*state.smoke, (state.turn, vehicle.id)))
    return state, f"{vehicle.name}: smoke screen ({helpers.SMOKE_STRIP}) {where}.", ()


def clear_smoke(state: Ww2State, event: Event) -> Result:
    vehicle = state.vehicle(event["vehicle"])
    if not any(vid == vehicle.id for _, vid in state.smoke):
        raise Stale(f"{vehicle.name}'s smoke was already removed{{by}}", "match:smoke")
    kept = tuple(note for note in state.smoke if note[1] != vehicle.id)
    return replace(state, smoke=kept), f"{vehicle.name}'s smoke screen removed.", ()


def capture(state: Ww2State, event: Event) -> Result:
    vehicle = state.vehicle(event["vehicle"])
    _live(vehicle)
    if vehicle.captured:
        raise Stale(f"{vehicle.name} was already captured{{by}}", f"{vehicle.id}:captured")
    if not vehicle.running_gear:
        raise RulesError(f"{vehicle.name}'s running gear is not damaged: no capture test.")
    missing = [
        words
        for key, words in helpers.CAPTURE_CONDITIONS.items()
        if key != "running_gear" and key not in event["conditions"]
    ]
    if missing:
        raise RulesError(f"No capture test yet: {'; '.join(missing)} is not ticked.")
    test = helpers.capture_test(event["die"])
    warnings = list(test.warnings)
    if vehicle.capture_turn == state.turn:
        warnings.append(
            f"A second capture test on {vehicle.name} this turn (once a turn is inferred)."
        )
    state = state.with_vehicle(replace(vehicle, capture_turn=state.turn, captured=test.succeeded))
    if not test.succeeded:
        return (
            state,
            f"{vehicle.name}: {test.words} It may be tried again in a later turn.",
            tuple(warnings),
        )
    crew = state.aboard(vehicle.id, CREW)
    state = state.with_soldiers(*(replace(c, status=PRISONER, vehicle="", seat="") for c in crew))
    taken = f"; prisoners: {', '.join(c.name for c in crew)}" if crew else ""
    return state, f"{vehicle.name}: {test.words} Captured{taken}.", tuple(warnings)


def use_enemy(state: Ww2State, event: Event) -> Result:
    vehicle = state.vehicle(event["vehicle"])
    _live(vehicle)
    side = event["side"]
    if side not in ("a", "b") or side == vehicle.controller:
        raise RulesError(f"{vehicle.name} is already {state.label(vehicle.controller)}'s.")
    soldiers = [state.soldier(s) for s in event["soldiers"]]
    if any(s.side != side or s.out for s in soldiers):
        raise RulesError(f"Only {state.label(side)}'s soldiers in the game can take it over.")
    warnings = []
    if len(soldiers) < helpers.USE_ENEMY_SOLDIERS or not any(s.leader for s in soldiers):
        warnings.append("Using an enemy vehicle needs at least 2 soldiers, 1 of them a commander.")
    crew = state.aboard(vehicle.id, CREW)
    if crew:
        warnings.append(f"Its crew is still aboard: {', '.join(c.name for c in crew)}.")
    state = state.with_vehicle(replace(vehicle, controller=side))
    state = state.with_soldiers(
        *(replace(s, vehicle=vehicle.id, seat=CREW, embarked_turn=state.turn) for s in soldiers)
    )
    names = ", ".join(s.name for s in soldiers) or "nobody"
    return state, f"{state.label(side)} use {vehicle.name} (aboard: {names}).", tuple(warnings)


def move(state: Ww2State, event: Event) -> Result:
    vehicle = state.vehicle(event["vehicle"])
    _live(vehicle)
    if vehicle.running_gear:
        raise RulesError(
            f"{vehicle.name}'s running gear is damaged: it cannot move until the end of the game."
        )
    if vehicle.kind == "gun" and not vehicle.hitched_to:
        raise RulesError(f"{vehicle.name} moves only hitched to a tow.")
    return state, f"{vehicle.name} moved.", ()


def fire(state: Ww2State, event: Event) -> Result:
    vehicle = state.vehicle(event["vehicle"])
    _live(vehicle)
    weapon = event["weapon"]
    if weapon not in WEAPONS:
        raise RulesError(f"A vehicle fires its gun, an MG or its flamethrower; got {weapon!r}.")
    warnings = []
    if weapon == "gun":
        if vehicle.hitched_to or vehicle.hitched_turn == state.turn:
            raise RulesError(
                f"{vehicle.name} is hitched (or was hitched this turn): it does not fire."
            )
    elif weapon in MG_NAMES:
        if weapon not in vehicle.mgs:
            warnings.append(f"The {MG_NAMES[weapon]} was not paid for before the battle.")
        if weapon == "armour" and not state.aboard(vehicle.id, RIDER):
            warnings.append("The on-armour MG needs at least 1 rider aboard to fire.")
    elif not vehicle.flamethrower:
        warnings.append(f"{vehicle.name}'s card has no flamethrower.")
    if not state.aboard(vehicle.id, CREW) and vehicle.kind != "gun":
        warnings.append(
            "Nobody is aboard: what an uncrewed vehicle may do is not in the rules text."
        )
    label = "gun" if weapon == "gun" else MG_NAMES.get(weapon, weapon)
    state = state.with_vehicle(replace(vehicle, fired_turn=state.turn))
    return state, f"{vehicle.name} fired its {label}.", tuple(warnings)


def hitch(state: Ww2State, event: Event) -> Result:
    gun, tow = state.vehicle(event["vehicle"]), state.vehicle(event["tow"])
    _live(gun)
    _live(tow)
    if gun.kind != "gun":
        raise RulesError(f"{gun.name} is not a gun or howitzer: only artillery is hitched.")
    if gun.hitched_to:
        raise Stale(f"{gun.name} was already hitched{{by}}", f"{gun.id}:hitched_to")
    if tow.running_gear:
        raise RulesError(f"{tow.name}'s running gear is damaged: it cannot tow.")
    warnings = []
    if tow.kind != "tractor" and (tow.seats or 0) < helpers.TOW_SEATS:
        warnings.append(
            f"{tow.name} has fewer than 6 seats and is not "
            "a tracked tractor: the text tows with those."
        )
    if gun.fired_turn == state.turn:
        warnings.append(f"{gun.name} fired this turn: artillery does not fire in its hitch turn.")
    state = state.with_vehicle(replace(gun, hitched_to=tow.id, hitched_turn=state.turn))
    return state, f"{gun.name} hitched to {tow.name} (it does not fire this turn).", tuple(warnings)


def unhitch(state: Ww2State, event: Event) -> Result:
    gun = state.vehicle(event["vehicle"])
    if not gun.hitched_to:
        raise Stale(f"{gun.name} was already unhitched{{by}}", f"{gun.id}:hitched_to")
    if gun.hitched_turn == state.turn:
        raise RulesError(f"{gun.name} was hitched this turn: it unhitches in a later turn.")
    state = state.with_vehicle(replace(gun, hitched_to=""))
    return state, f"{gun.name} unhitched: it may fire this turn.", ()


def embark(state: Ww2State, event: Event) -> Result:
    soldier, vehicle = state.soldier(event["soldier"]), state.vehicle(event["vehicle"])
    _live(vehicle)
    if soldier.out:
        raise RulesError(f"{soldier.name} is out of the game.")
    if soldier.vehicle:
        raise Stale(f"{soldier.name} is already aboard a vehicle{{by}}", f"{soldier.id}:vehicle")
    warnings = []
    if vehicle.kind not in RIDER_KINDS:
        warnings.append("The text carries infantry on trucks, APCs and tanks.")
    riders = len(state.aboard(vehicle.id, RIDER)) + 1
    if vehicle.seats is None:
        warnings.append(f"{vehicle.name}'s card gives no seats: check them on the table.")
    elif riders > vehicle.seats:
        warnings.append(f"{riders} riders on {vehicle.name}, which has {vehicle.seats} seats.")
    new = replace(soldier, vehicle=vehicle.id, seat=RIDER, embarked_turn=state.turn)
    return state.with_soldiers(new), f"{soldier.name} boarded {vehicle.name}.", tuple(warnings)


def dismount(state: Ww2State, event: Event) -> Result:
    soldier = state.soldier(event["soldier"])
    if not soldier.vehicle:
        raise Stale(f"{soldier.name} already got off{{by}}", f"{soldier.id}:vehicle")
    vehicle = state.vehicle(soldier.vehicle)
    if soldier.seat == RIDER and soldier.embarked_turn == state.turn:
        raise RulesError(f"{soldier.name} boarded this turn: he gets off in a later turn.")
    new = replace(soldier, vehicle="", seat="", disembarked_turn=state.turn)
    words = f"{soldier.name} got off {vehicle.name}"
    if soldier.seat == RIDER:
        words += ' within 4" of it: no combat this turn'
    return state.with_soldiers(new), words + ".", ()
