"""Army rosters: value types, TV cost, legality, changes, presets and model profiles.

A roster is a frozen value: every change returns a new one. Rosters hold ids (stable strings from
the data files) plus the display names they were built with, so a roster stored as JSON still loads
when the data later drops an entry: unknown ids are kept, shown by their stored names, and reported
as problems. Validation warns, it never refuses to represent a roster: ``roster_problems`` lists
every broken rule as a plain sentence. The changes refuse only what cannot be done at all (an option
the model cannot take, an index out of range), with a RulesError.

TV: a squad's printed TV pays for its printed composition; options and group upgrades add their own
TV change. The texts give no per-model TV, so a model beyond the printed composition costs its
``tv`` if a host data file gives one, and otherwise the cost is incomplete (``complete`` False).

Indexes in the API are 0-based; sentences number groups and models from 1 ("Combat Group 2").

Choosing an option that shares a ``choice`` with one the model already has (MAC, FGC or RFB for a
Warrior's single LAC; one swap per Spitting Cobra) replaces it: a player who picks the FGC expects
it to take the MAC's place.

The package, by reason to change: ``values`` (the value types), ``members`` (a group read
against the data), ``cost``, ``legality``, ``changes`` (building and changing rosters),
``offers`` (what the builder offers), ``profile`` (a model's datacard) and ``stored``
(to and from a dict). Callers import from ``rules.hgb.army``.
"""

from rules.hgb.army.changes import (
    add_group,
    add_model,
    new_roster,
    preset_roster,
    remove_group,
    remove_model,
    rename,
    set_group_upgrade,
    set_option,
    set_tv_limit,
)
from rules.hgb.army.cost import (
    roster_cost,
)
from rules.hgb.army.legality import (
    roster_is_legal,
    roster_problems,
)
from rules.hgb.army.offers import (
    BulkChoice,
    OfferBaseline,
    available_bulk_options,
    available_group_upgrades,
    available_options,
    identical_models,
    offer_baseline,
    set_option_for_identical,
)
from rules.hgb.army.profile import (
    model_profile,
)
from rules.hgb.army.stored import (
    roster_from_dict,
    roster_to_dict,
)
from rules.hgb.army.values import (
    FORMAT_VERSION,
    LIMIT_CODES,
    MAX_NAME_LENGTH,
    MAX_TV_LIMIT,
    CombatGroup,
    CostItem,
    GroupCost,
    ModelCost,
    ModelEntry,
    ModelProfile,
    OptionChoice,
    Problem,
    ProfileWeapon,
    Roster,
    RosterCost,
    UpgradeChoice,
)

__all__ = [
    "BulkChoice",
    "CombatGroup",
    "CostItem",
    "FORMAT_VERSION",
    "GroupCost",
    "LIMIT_CODES",
    "MAX_NAME_LENGTH",
    "MAX_TV_LIMIT",
    "ModelCost",
    "ModelEntry",
    "ModelProfile",
    "OfferBaseline",
    "OptionChoice",
    "Problem",
    "ProfileWeapon",
    "Roster",
    "RosterCost",
    "UpgradeChoice",
    "add_group",
    "add_model",
    "available_bulk_options",
    "available_group_upgrades",
    "available_options",
    "identical_models",
    "model_profile",
    "new_roster",
    "offer_baseline",
    "preset_roster",
    "remove_group",
    "remove_model",
    "rename",
    "roster_cost",
    "roster_from_dict",
    "roster_is_legal",
    "roster_problems",
    "roster_to_dict",
    "set_group_upgrade",
    "set_option",
    "set_option_for_identical",
    "set_tv_limit",
]
