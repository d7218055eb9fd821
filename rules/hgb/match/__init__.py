"""A live match: its state, the events that change it, and the rules those events must follow.

The state of a match is what its events say: ``replay(initial, log)`` rebuilds it from the state
the match started with and the log of events, and ``step(state, event)`` applies one event,
refusing an illegal one with a RulesError whose message a player understands. Warnings (legal, but
worth saying) come back beside the new state.

The modules, each with one reason to change:

- ``state``: the dataclasses of a match, the errors, ``new_match`` and what a state means;
- ``events``: the event kinds and their fields, reading an event, ``Step``;
- ``play``: ``step``, and the events for damage, speed, mode, actions and forward observation;
- ``rounds``: initiative, activations, the end of a round and of the match;
- ``combat``: the attack helper's events (attacks and ECM) and their warnings;
- ``figures``: a model's recorded figures as an attack reads them, and which to type in;
- ``advice``: what to say before an attack, an ECM contest or a designation is applied;
- ``units``: what the handlers share about a model in play;
- ``log``: replay and undo (``rules.eventlog`` with this game's ``step``);
- ``storage``: a state as plain data, and each event's change as plain data.
"""

from rules.eventlog import EventError, Stale, UnknownId
from rules.hgb.match.advice import (
    ammo_counter,
    attack_notes,
    attack_targets,
    attackers,
    before_attack_warnings,
    can_attack,
    designation_problems,
    ecm_problems,
    observer_of,
    target_problems,
)
from rules.hgb.match.combat import (
    FIGURE_RANGE,
    MAX_ATTACK_NOTE,
    MAX_ATTACK_TARGETS,
    MAX_FIGURES,
    attack_warnings,
    ecm_warnings,
)
from rules.hgb.match.events import (
    EVENT_FIELDS,
    OPTIONAL_FIELDS,
    UNIT_KINDS,
    Event,
    Step,
    make_event,
    parse_event,
)
from rules.hgb.match.figures import (
    FiguresToType,
    carries,
    figures_of,
    figures_to_type,
    movement_modifier,
    offered_weapons,
)
from rules.hgb.match.log import (
    LogEntry,
    base_seq,
    describe,
    effective_seqs,
    last_undoable,
    plan_undo,
    plan_undo_from,
    replay,
    rewind,
    undo_of,
    undo_reach,
)
from rules.hgb.match.play import apply_event, step
from rules.hgb.match.rounds import DIE_FACES, MAX_NOTE
from rules.hgb.match.state import (
    SIDES,
    AmmoCounter,
    Group,
    GroupSpec,
    MatchState,
    MatchWeapon,
    Mode,
    ModelFigures,
    MovementFigures,
    Phase,
    Side,
    SideSpec,
    Speed,
    Unit,
    UnitSpec,
    groups_left,
    new_match,
    other_side,
    penalised,
    tv_destroyed,
    tv_remaining,
    unit_label,
    whose_turn,
)
from rules.hgb.match.storage import (
    apply_parts,
    changed_parts,
    figures_to_dict,
    state_dict_after,
    state_from_dict,
    state_to_dict,
    unit_to_dict,
    weapon_to_dict,
)

__all__ = [
    "DIE_FACES",
    "EVENT_FIELDS",
    "FIGURE_RANGE",
    "MAX_ATTACK_NOTE",
    "MAX_ATTACK_TARGETS",
    "MAX_FIGURES",
    "MAX_NOTE",
    "OPTIONAL_FIELDS",
    "SIDES",
    "UNIT_KINDS",
    "AmmoCounter",
    "Event",
    "EventError",
    "FiguresToType",
    "Group",
    "GroupSpec",
    "LogEntry",
    "MatchState",
    "MatchWeapon",
    "Mode",
    "ModelFigures",
    "MovementFigures",
    "Phase",
    "Side",
    "SideSpec",
    "Speed",
    "Stale",
    "Step",
    "Unit",
    "UnitSpec",
    "UnknownId",
    "ammo_counter",
    "apply_event",
    "apply_parts",
    "attack_notes",
    "attack_targets",
    "attack_warnings",
    "attackers",
    "base_seq",
    "before_attack_warnings",
    "can_attack",
    "carries",
    "changed_parts",
    "describe",
    "designation_problems",
    "ecm_problems",
    "ecm_warnings",
    "effective_seqs",
    "figures_of",
    "figures_to_dict",
    "figures_to_type",
    "groups_left",
    "last_undoable",
    "make_event",
    "movement_modifier",
    "new_match",
    "observer_of",
    "offered_weapons",
    "other_side",
    "parse_event",
    "penalised",
    "plan_undo",
    "plan_undo_from",
    "replay",
    "rewind",
    "state_dict_after",
    "state_from_dict",
    "state_to_dict",
    "step",
    "target_problems",
    "tv_destroyed",
    "tv_remaining",
    "undo_of",
    "undo_reach",
    "unit_label",
    "unit_to_dict",
    "weapon_to_dict",
    "whose_turn",
]
