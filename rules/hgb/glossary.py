"""Rules text for the datacards' "what does this mean" taps.

Read from rules/hgb/text/glossary.toml.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources


@dataclass(frozen=True)
class Term:
    id: str
    name: str
    text: str


@cache
def glossary() -> dict[str, Term]:
    raw = resources.files("rules.hgb").joinpath("text", "glossary.toml").read_bytes()
    data = tomllib.loads(raw.decode("utf-8"))
    return {entry["id"]: Term(entry["id"], entry["name"], entry["text"]) for entry in data["terms"]}


ARC_TERMS = {"F": "arc_F", "Ff": "arc_Ff", "FF": "arc_Ff", "Rr": "arc_Rr", "FRr": "arc_FRr"}


def weapon_terms(
    arc: str | None, reloads: bool | None, limited_ammo: int | None, parts: Sequence[str]
) -> list[Term]:
    """The glossary entries that explain one mounted weapon's traits."""
    terms = glossary()
    found: list[Term] = []
    if arc and arc in ARC_TERMS:
        found.append(terms[ARC_TERMS[arc]])
    if reloads:
        found.append(terms["reloads"])
    if limited_ammo:
        found.append(terms["limited_ammo"])
    if parts:
        found.append(terms["linked"])
    return found
