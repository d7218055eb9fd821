"""Heavy Gear Blitz's export body and Markdown (the envelope is ``armies.exports``')."""

from __future__ import annotations

import rules.hgb
from armies.hgb.presenters import RosterView
from armies.models import Roster


def hgb_export(roster: Roster, view: RosterView) -> dict:
    """Everything needed to rebuild the roster, with the data it was built with, and a summary
    for people and other tools: TV, each group's TV and the legality problems.

    The summary is only a statement: an import reads "roster" alone and recomputes the rest.
    """
    catalog = rules.hgb.default_catalog()
    return {
        "data": {"version": catalog.data_version, "fingerprint": roster.data_fingerprint},
        "summary": _summary(view, catalog),
        "roster": roster.army,
    }


def _summary(view: RosterView, catalog: rules.hgb.Catalog) -> dict:
    summary = {
        "computed_with_data": catalog.fingerprint,
        "total_tv": view.total,
        "tv_limit": view.roster.tv_limit,
        "legal": view.legal,
        "groups": [
            {"number": group.number, "squad": group.title, "tv": group.cost.total}
            for group in view.groups
        ],
        "problems": [problem.message for problem in view.problems],
    }
    if view.cost and not view.cost.complete:
        summary["not_priced"] = list(view.cost.gaps)
    if view.unreadable:
        summary["problems"].append(view.unreadable)
    return summary


def _skills(profile: rules.hgb.ModelProfile) -> str:
    s = profile.skills
    return f"ATT {_n(s.att)}, DEF {_n(s.defense)}, EW {_n(s.ew)}, LD {_n(s.ld)}"


def _n(value) -> str:
    return "—" if value is None else str(value)


def roster_markdown(view: RosterView) -> str:
    roster = view.roster
    lines = [f"# {roster.name}", ""]
    lines.append(f"**{view.faction_name}** · **{view.total} / {roster.tv_limit} TV**")
    lines.append("")
    if view.unreadable:
        return "\n".join([*lines, f"_{view.unreadable}_", ""])
    for group in view.groups:
        upgrades = ", ".join(
            group.group.stored_upgrade_name(i) for i in range(len(group.group.upgrades))
        )
        lines.append(f"## Combat Group {group.number}: {group.title} ({group.cost.total} TV)")
        if upgrades:
            lines.append(f"_Upgrades: {upgrades}_")
        lines.append("")
        for model in group.models:
            profile = model.profile
            leader = " *(leader)*" if profile.leader else ""
            weapons = ", ".join(weapon.code for weapon in profile.weapons) or "weapons not given"
            lines.append(f"- **{profile.name}**{leader}: {_skills(profile)}; {weapons}")
        lines.append("")
    if view.empty:
        lines.append("Empty: no combat groups yet.")
    elif view.problems:
        lines.append("**Not legal:**")
        lines.extend(f"- {problem.message}" for problem in view.problems)
    else:
        lines.append("Legal for the Locked & Loaded quickstart.")
    lines.append("")
    lines.append(f"_Built with Blitz · data {roster.data_fingerprint}_")
    return "\n".join(lines) + "\n"
