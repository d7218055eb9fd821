"""Legality: every broken rule of a roster as a plain sentence (``roster_problems``)."""

from __future__ import annotations

from rules.hgb.army.cost import (
    cost_and_problems,
)
from rules.hgb.army.members import (
    Member,
    group_members,
    model_label,
)
from rules.hgb.army.values import (
    CombatGroup,
    Problem,
    Roster,
    plural,
    spot,
)
from rules.hgb.catalog import (
    Catalog,
    Limit,
    Squad,
    number_word,
    sentence_case,
    with_article,
)

# --- Legality -------------------------------------------------------------------------------------


def roster_problems(roster: Roster, catalog: Catalog) -> tuple[Problem, ...]:
    """Every broken rule and every gap of the roster, each in a plain sentence."""
    problems: list[Problem] = []
    faction = catalog.factions.get(roster.faction)
    if faction is None:
        problems.append(
            Problem(
                "unknown_faction",
                f"The army's faction '{roster.faction}' is not in the current data.",
            )
        )
    for group_index, group in enumerate(roster.groups):
        group_problems(roster, group_index, group, catalog, problems)
    problems.extend(army_limit_problems(roster, catalog))
    cost, gaps = cost_and_problems(roster, catalog)
    problems.extend(gap for gap in gaps if gap.code == "tv_not_given")
    over = over_limit_problem(roster, cost.total, cost.complete)
    if over:
        problems.append(over)
    return tuple(problems)


def army_limit_problems(roster: Roster, catalog: Catalog) -> list[Problem]:
    """The faction's army-wide limits (one veteran command squad, three Armored Jackets)."""
    faction = catalog.factions.get(roster.faction)
    if faction is None:
        return []
    problems = []
    for limit in faction.limits:
        count = 0
        for group in roster.groups:
            if limit.upgrades and any(u in limit.upgrades for u in group.upgrades):
                count += 1
            if limit.options:
                for entry in group.models:
                    if any(o in limit.options for o in entry.options):
                        count += 1
        message = _limit_message(limit, count, "", -1)
        if message:
            code = "army_limit_too_many" if message[0] == "many" else "army_limit_too_few"
            problems.append(Problem(code, message[1]))
    return problems


def over_limit_problem(roster: Roster, total: int, complete: bool) -> Problem | None:
    if total <= roster.tv_limit:
        return None
    at_least = "" if complete else "at least "
    return Problem(
        "over_tv_limit",
        f"The army costs {at_least}{total} TV, over its {roster.tv_limit} TV limit.",
    )


def roster_is_legal(roster: Roster, catalog: Catalog) -> bool:
    """True when the roster has no problems at all."""
    return not roster_problems(roster, catalog)


def _limit_message(
    limit: Limit, count: int, squad_name: str, group_index: int
) -> tuple[str, str] | None:
    """("many" or "few", the sentence) when ``count`` breaks the limit, else None."""
    values = {
        "count": number_word(count),
        "max": number_word(limit.max) if limit.max is not None else "",
        "min": number_word(limit.min) if limit.min is not None else "",
        "squad": squad_name,
        "group": group_index + 1,
    }
    if limit.max is not None and count > limit.max:
        return ("many", sentence_case(limit.too_many.format(**values)))
    if limit.min is not None and count < limit.min:
        return ("few", sentence_case(limit.too_few.format(**values)))
    return None


def group_problems(
    roster: Roster, group_index: int, group: CombatGroup, catalog: Catalog, out: list[Problem]
) -> None:
    g = group_index
    squad = catalog.squads.get(group.squad)
    size = len(group.models)
    most = catalog.rules.max_group_size
    if size > most:
        out.append(
            Problem(
                "group_too_large",
                f"Combat Group {g + 1} has {size} models; a combat group holds at most {most}.",
                g,
            )
        )
    if squad is None:
        out.append(
            Problem(
                "unknown_squad",
                f"Combat Group {g + 1}'s squad, {group.squad_name or group.squad}, is not in the "
                "current data; shown as stored.",
                g,
            )
        )
    elif squad.faction != roster.faction and roster.faction in catalog.factions:
        theirs = catalog.factions.get(squad.faction)
        ours = catalog.factions[roster.faction]
        out.append(
            Problem(
                "wrong_faction",
                f"Combat Group {g + 1} is {with_article(theirs.name if theirs else squad.faction)} "
                f"squad ({squad.name}); this is {with_article(ours.name)} army.",
                g,
            )
        )

    # Group upgrades.
    seen_upgrades: set[str] = set()
    for position, upgrade_id in enumerate(group.upgrades):
        upgrade = catalog.upgrades.get(upgrade_id)
        if upgrade is None:
            out.append(
                Problem(
                    "unknown_upgrade",
                    f"The upgrade {group.stored_upgrade_name(position)} of Combat Group {g + 1} "
                    "is not in the current data; shown as stored.",
                    g,
                )
            )
        elif squad is not None and upgrade_id not in squad.upgrades:
            out.append(
                Problem(
                    "upgrade_not_allowed",
                    f'"{upgrade.label}" is not an upgrade of the {squad.name} {spot(g)}.',
                    g,
                )
            )
        if upgrade_id in seen_upgrades:
            out.append(
                Problem(
                    "duplicate_upgrade",
                    f"Combat Group {g + 1} takes the upgrade "
                    f"{upgrade.label if upgrade else upgrade_id} twice.",
                    g,
                )
            )
        seen_upgrades.add(upgrade_id)

    members = group_members(group, squad, catalog)

    # Composition.
    if squad is not None:
        counts: dict[str, int] = {}
        for member in members:
            counts[member.entry.model] = counts.get(member.entry.model, 0) + 1
        for slot in squad.slots:
            have = counts.get(slot.model, 0)
            if have != slot.count:
                model = catalog.models.get(slot.model)
                name = model.name if model else slot.model
                has = f"has {have} {plural(name, have)}" if have else f"has no {name}"
                out.append(
                    Problem(
                        "missing_models" if have < slot.count else "extra_models",
                        f"Combat Group {g + 1} {has}; the {squad.name} has {slot.count}.",
                        g,
                    )
                )
    for member in members:
        m = member.index
        if member.model is None:
            out.append(
                Problem(
                    "unknown_model",
                    f"Model {m + 1} of Combat Group {g + 1}, "
                    f"{member.entry.model_name or member.entry.model}, is not in the current "
                    "data; shown as stored.",
                    g,
                    m,
                )
            )
        elif squad is not None and squad.slot_for(member.entry.model) is None:
            out.append(
                Problem(
                    "model_not_in_squad",
                    f"Combat Group {g + 1} has {with_article(member.model.name)} (model {m + 1}), "
                    f"which the {squad.name} does not include.",
                    g,
                    m,
                )
            )
        _option_problems(member, g, squad, catalog, out)

    # Squad limits.
    if squad is not None:
        for limit in squad.limits:
            count = 0
            if limit.options:
                for member in members:
                    if any(o in limit.options for o in member.entry.options):
                        count += 1
            if limit.upgrades and any(u in limit.upgrades for u in group.upgrades):
                count += 1
            message = _limit_message(limit, count, squad.name, g)
            if message:
                code = "limit_too_many" if message[0] == "many" else "limit_too_few"
                out.append(Problem(code, message[1], g))


def _option_problems(
    member: Member, g: int, squad: Squad | None, catalog: Catalog, out: list[Problem]
) -> None:
    entry = member.entry
    m = member.index
    if not entry.options:
        return
    choices: dict[str, str] = {}
    seen: set[str] = set()
    for position, option_id in enumerate(entry.options):
        option = catalog.options.get(option_id)
        if option is None:
            out.append(
                Problem(
                    "unknown_option",
                    f"The option {entry.stored_option_name(position)} of model {m + 1} of "
                    f"Combat Group {g + 1} is not in the current data; shown as stored.",
                    g,
                    m,
                )
            )
            continue
        if option_id in seen:
            out.append(
                Problem(
                    "duplicate_option",
                    f'{sentence_case(with_article(model_label(member)))} takes "{option.label}" '
                    f"twice {spot(g, m)}.",
                    g,
                    m,
                )
            )
            continue
        seen.add(option_id)
        if squad is not None and option_id not in squad.options:
            out.append(
                Problem(
                    "option_not_in_squad",
                    f'"{option.label}" is not an option of the {squad.name} {spot(g, m)}.',
                    g,
                    m,
                )
            )
        elif member.effective is not None:
            refusal = catalog.refusal(member.effective.id, option_id)
            if refusal:
                out.append(Problem("option_not_allowed", f"{refusal[:-1]} {spot(g, m)}.", g, m))
        if option.choice is not None:
            other = choices.get(option.choice)
            if other is not None:
                out.append(
                    Problem(
                        "option_conflict",
                        f"{sentence_case(with_article(model_label(member)))} may take only one "
                        f'of "{other}" and "{option.label}" {spot(g, m)}.',
                        g,
                        m,
                    )
                )
            else:
                choices[option.choice] = option.label
