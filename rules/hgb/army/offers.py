"""What the builder offers: the options and upgrades a model or group can take, and why not."""

from __future__ import annotations

from dataclasses import dataclass

from rules.errors import RulesError
from rules.hgb.army.changes import (
    effective_member,
    group_at,
    option_label,
    set_group_upgrade,
    set_option,
)
from rules.hgb.army.cost import (
    group_cost,
    roster_cost,
)
from rules.hgb.army.legality import (
    army_limit_problems,
    group_problems,
    over_limit_problem,
    roster_problems,
)
from rules.hgb.army.members import (
    Member,
    group_members,
    model_label,
)
from rules.hgb.army.values import (
    LIMIT_CODES,
    OptionChoice,
    Problem,
    Roster,
    UpgradeChoice,
    plural,
)
from rules.hgb.catalog import (
    Catalog,
    number_word,
)

# --- What the builder offers ----------------------------------------------------------------------


@dataclass(frozen=True)
class OfferBaseline:
    """What the builder's offers compare against: the roster's current problems and TV.

    Make it once with ``offer_baseline`` and pass it to ``available_options`` and
    ``available_group_upgrades`` for every model of a page: each offer then re-checks only the
    group it changes, the army-wide limits and the TV limit.
    """

    messages: frozenset[str]
    total: int
    complete: bool
    group_totals: tuple[int, ...]


def offer_baseline(roster: Roster, catalog: Catalog) -> OfferBaseline:
    cost = roster_cost(roster, catalog)
    return OfferBaseline(
        messages=frozenset(problem.message for problem in roster_problems(roster, catalog)),
        total=cost.total,
        complete=cost.complete,
        group_totals=tuple(group.total for group in cost.groups),
    )


def _new_breaks(
    base: OfferBaseline, taken: Roster, catalog: Catalog, group_index: int
) -> tuple[str, ...]:
    """The limits that ``taken`` (the roster with one change to one group) breaks anew."""
    return tuple(
        problem.message for problem in _new_break_problems(base, taken, catalog, group_index)
    )


def _new_break_problems(
    base: OfferBaseline, taken: Roster, catalog: Catalog, group_index: int
) -> tuple[Problem, ...]:
    after: list[Problem] = []
    group_problems(taken, group_index, taken.groups[group_index], catalog, after)
    after.extend(army_limit_problems(taken, catalog))
    group_total = group_cost(group_index, taken.groups[group_index], catalog, []).total
    total = base.total - base.group_totals[group_index] + group_total
    over = over_limit_problem(taken, total, base.complete)
    if over:
        after.append(over)
    return tuple(
        problem
        for problem in after
        if problem.code in LIMIT_CODES and problem.message not in base.messages
    )


def available_options(
    roster: Roster,
    catalog: Catalog,
    group_index: int,
    model_index: int,
    baseline: OfferBaseline | None = None,
) -> tuple[OptionChoice, ...]:
    """The options this model may take, in the squad's order, with TV change, chosen flag, the
    options taking it would replace, and the limits taking it now would break."""
    group, squad, member = effective_member(roster, catalog, group_index, model_index)
    if squad is None or member.effective is None:
        return ()
    base = baseline or offer_baseline(roster, catalog)
    out = []
    for option_id in squad.options:
        option = catalog.options[option_id]
        if catalog.refusal(member.effective.id, option_id):
            continue
        chosen = option_id in member.entry.options
        replaces: tuple[str, ...] = ()
        breaks: tuple[str, ...] = ()
        if not chosen:
            if option.choice is not None:
                replaces = tuple(
                    other
                    for other in member.entry.options
                    if other in catalog.options and catalog.options[other].choice == option.choice
                )
            taken = set_option(roster, catalog, group_index, model_index, option_id, True)
            breaks = _new_breaks(base, taken, catalog, group_index)
        out.append(
            OptionChoice(
                id=option_id,
                label=option.label,
                tv=option.tv,
                tv_printed=option.tv_printed,
                tv_note=option.tv_note,
                chosen=chosen,
                replaces=replaces,
                breaks=breaks,
            )
        )
    return tuple(out)


def available_group_upgrades(
    roster: Roster, catalog: Catalog, group_index: int, baseline: OfferBaseline | None = None
) -> tuple[UpgradeChoice, ...]:
    """The upgrades this combat group may take, with TV, chosen flag and limits they would break."""
    group = group_at(roster, group_index)
    squad = catalog.squads.get(group.squad)
    if squad is None:
        return ()
    base = baseline or offer_baseline(roster, catalog)
    out = []
    for upgrade_id in squad.upgrades:
        upgrade = catalog.upgrades[upgrade_id]
        chosen = upgrade_id in group.upgrades
        breaks: tuple[str, ...] = ()
        if not chosen:
            taken = set_group_upgrade(roster, catalog, group_index, upgrade_id, True)
            breaks = _new_breaks(base, taken, catalog, group_index)
        out.append(
            UpgradeChoice(
                id=upgrade_id,
                label=upgrade.label,
                tv=upgrade.tv,
                tv_printed=upgrade.tv_printed,
                tv_note=upgrade.tv_note,
                chosen=chosen,
                breaks=breaks,
            )
        )
    return tuple(out)


def identical_models(
    roster: Roster, catalog: Catalog, group_index: int, model_index: int
) -> tuple[int, ...]:
    """The models of the group identical to this one (the same model, as leader or not, with the
    same options), this one included, in the group's order."""
    group, squad, member = effective_member(roster, catalog, group_index, model_index)

    def signature(other: Member) -> tuple[str, str, bool, frozenset[str]]:
        effective = other.effective.id if other.effective else other.entry.model
        return (other.entry.model, effective, other.leader, frozenset(other.entry.options))

    mine = signature(member)
    return tuple(
        other.index for other in group_members(group, squad, catalog) if signature(other) == mine
    )


@dataclass(frozen=True)
class BulkChoice:
    """An option offered to every identical model of a group at once ("Apply to all 3 Hunters").

    ``chosen`` True means they all have it and the offer drops it from all of them. ``breaks``
    holds only the TV limit the change would break: a bulk change that would break a limit on how
    many models may take an option is not offered (``set_option_for_identical`` refuses it).
    """

    id: str
    label: str
    chosen: bool
    models: tuple[int, ...]
    name: str
    breaks: tuple[str, ...] = ()

    @property
    def count(self) -> int:
        return len(self.models)


def _bulk_refusal(
    roster: Roster,
    catalog: Catalog,
    group_index: int,
    models: tuple[int, ...],
    option_id: str,
    chosen: bool,
    base: OfferBaseline,
) -> tuple[Roster, tuple[str, ...], str]:
    """The roster with the option taken or dropped for ``models``, the limits it breaks anew,
    and why the change is refused ("" when it is allowed)."""
    taken = roster
    for m in models:
        taken = set_option(taken, catalog, group_index, m, option_id, chosen)
    problems = _new_break_problems(base, taken, catalog, group_index)
    breaks = tuple(problem.message for problem in problems)
    counted = [problem.message for problem in problems if problem.code != "over_tv_limit"]
    if counted:
        member = group_members(roster.groups[group_index], None, catalog)[models[0]]
        name = plural(model_label(member), len(models))
        label = option_label(catalog, option_id)
        numbers = [str(m + 1) for m in models]
        which = ", ".join(numbers[:-1]) + " and " + numbers[-1]
        every = "both" if len(models) == 2 else "all"
        return (
            taken,
            breaks,
            f"The {number_word(len(models))} {name} (models {which}) of Combat Group "
            f'{group_index + 1} cannot {every} take "{label}": {" ".join(counted)}',
        )
    return taken, breaks, ""


def set_option_for_identical(
    roster: Roster,
    catalog: Catalog,
    group_index: int,
    model_index: int,
    option_id: str,
    chosen: bool,
) -> Roster:
    """Take or drop an option for this model and every identical model of its group, as one
    change. Refused with a RulesError when one of them cannot take it at all, or when taking it
    for all of them would break a limit on how many models may take it (going over the TV limit
    is allowed and shows in roster_problems, as for one model)."""
    models = identical_models(roster, catalog, group_index, model_index)
    base = offer_baseline(roster, catalog)
    taken, _, refusal = _bulk_refusal(roster, catalog, group_index, models, option_id, chosen, base)
    if refusal:
        raise RulesError(refusal)
    return taken


def available_bulk_options(
    roster: Roster,
    catalog: Catalog,
    group_index: int,
    model_index: int,
    baseline: OfferBaseline | None = None,
) -> tuple[BulkChoice, ...]:
    """The options this model and every identical model of its group may take (or drop)
    together; empty when the model has no identical model in its group."""
    models = identical_models(roster, catalog, group_index, model_index)
    if len(models) < 2:
        return ()
    group, squad, member = effective_member(roster, catalog, group_index, model_index)
    if squad is None or member.effective is None:
        return ()
    base = baseline or offer_baseline(roster, catalog)
    out = []
    for option_id in squad.options:
        if catalog.refusal(member.effective.id, option_id):
            continue
        chosen = option_id in member.entry.options
        _, breaks, refusal = _bulk_refusal(
            roster, catalog, group_index, models, option_id, not chosen, base
        )
        if refusal:
            continue
        out.append(
            BulkChoice(
                id=option_id,
                label=catalog.options[option_id].label,
                chosen=chosen,
                models=models,
                name=plural(model_label(member), len(models)),
                breaks=breaks,
            )
        )
    return tuple(out)
