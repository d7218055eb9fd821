"""What the mecha pages show: ``rules.mecha.cards`` results arranged for the templates. A figure
the players left empty shows as "not in the rules text"."""

from __future__ import annotations

from dataclasses import dataclass

from rules.mecha import cards

EMPTY = "—"


def shown(value: int | None, suffix: str = "") -> str:
    return EMPTY if value is None else f"{value}{suffix}"


@dataclass(frozen=True)
class WeaponRow:
    weapon: cards.Weapon
    number: int
    notes: tuple[str, ...]

    @property
    def range(self) -> str:
        return shown(self.weapon.range, '"')

    @property
    def damage(self) -> str:
        return str(self.weapon.damage) if self.weapon.damage else EMPTY

    @property
    def sub_types(self) -> str:
        return ", ".join(self.weapon.sub_types) or EMPTY

    @property
    def link(self) -> str:
        return str(self.weapon.link) if self.weapon.link else EMPTY


@dataclass(frozen=True)
class UnitCard:
    unit: cards.Unit
    number: int
    weapons: tuple[WeaponRow, ...]
    notes: tuple[str, ...]

    @property
    def figures(self) -> list[tuple[str, str]]:
        unit = self.unit
        return [
            ("Size Class", shown(unit.size_class)),
            ("Strength", shown(unit.strength)),
            ("Armour", shown(unit.armour)),
            ("Range Attack", shown(unit.range_attack)),
            ("Melee Attack", shown(unit.melee_attack)),
            ("Action Counters", shown(unit.action_counters)),
        ]

    @property
    def hands(self) -> str:
        count = cards.hands(self.unit)
        return "not entered" if count is None else str(count)

    @property
    def hands_note(self) -> str:
        """Where the hands come from when the card leaves them empty."""
        return "the text's default" if self.unit.hands is None and cards.hands(self.unit) else ""

    @property
    def labels(self) -> list[str]:
        unit = self.unit
        marks = [("Has arms", unit.has_arms), ("Heavy Fire", unit.heavy_fire)]
        marks.append(("Stable Platform", unit.stable_platform))
        return [label for label, on in marks if on]


def unit_cards(force: cards.Force) -> list[UnitCard]:
    return [
        UnitCard(
            unit,
            number,
            tuple(
                WeaponRow(weapon, index, cards.weapon_notes(unit, weapon))
                for index, weapon in enumerate(unit.weapons, 1)
            ),
            cards.unit_notes(unit),
        )
        for number, unit in enumerate(force.units, 1)
    ]


def markdown(name: str, title: str, force: cards.Force) -> str:
    """The force as text to copy: each unit's figures and its weapons."""
    lines = [
        f"# {name}",
        "",
        f"**{title}** · {len(force.units)} unit{'' if len(force.units) == 1 else 's'}",
        "",
    ]
    for card in unit_cards(force):
        figures = ", ".join(f"{label} {value}" for label, value in card.figures)
        lines.append(
            f"- **{card.unit.name}** ({card.unit.kind_label}): {figures}, Hands {card.hands}"
        )
        for row in card.weapons:
            weapon = row.weapon
            lines.append(
                f"  - {weapon.name} ({weapon.type_label}): Range {row.range}, Damage {row.damage}, "
                f"{weapon.fix_label}; Sub-Types {row.sub_types}; Link {row.link}"
            )
    lines += ["", "_Figures typed in by players, not from the rules text. Built with Blitz._"]
    return "\n".join(lines) + "\n"
