"""What the WWII force pages show: each vehicle's line and notes, in words; no arithmetic or
rule in the templates."""

from __future__ import annotations

from dataclasses import dataclass

from armies.models import Roster
from armies.ww2.services import read_or_empty
from rules.ww2 import force as f

RULES_NOTE = (
    "The rules text names costs (machine guns “paid for”, specialisations bought for command "
    "points) but gives none, so a force has no points. It gives no unit profiles either: enter "
    "armour and gun classes from your own cards."
)


@dataclass(frozen=True)
class VehicleCard:
    vehicle: f.Vehicle
    number: int
    notes: tuple[str, ...]

    @property
    def classes(self) -> str:
        armour, gun = self.vehicle.armour_class, self.vehicle.gun_class
        return (
            f"Armour class {'—' if armour is None else armour} · "
            f"gun class {'—' if gun is None else gun}"
        )

    @property
    def seats(self) -> str:
        seats = f.seats_of(self.vehicle)
        if seats is None:
            return "Seats: none entered"
        standard = " (the text's standard)" if self.vehicle.seats is None else ""
        return f"{seats} seat{'' if seats == 1 else 's'}{standard}"

    @property
    def armament(self) -> str:
        parts = [f.MACHINE_GUNS[k] for k in self.vehicle.mgs]
        if self.vehicle.flamethrower:
            parts.append("Flamethrower")
        if self.vehicle.napalm:
            parts.append(
                f"{self.vehicle.napalm} napalm card{'' if self.vehicle.napalm == 1 else 's'}"
            )
        if self.vehicle.smoke:
            parts.append(f"{self.vehicle.smoke} smoke card{'' if self.vehicle.smoke == 1 else 's'}")
        return ", ".join(parts) or "No machine guns, flamethrower or ammunition cards"

    @property
    def specialisations(self) -> str:
        return ", ".join(f.SPECIALISATIONS[k] for k in self.vehicle.specialisations)

    @property
    def crew(self) -> str:
        if not self.vehicle.crew:
            return "No crew (the text makes a crew optional)"
        return ", ".join(
            f"{m.name} (commander)" if m.commander else m.name for m in self.vehicle.crew
        )


@dataclass(frozen=True)
class ForceView:
    force: f.Force
    cards: tuple[VehicleCard, ...]
    unreadable: str = ""

    @property
    def vehicles(self) -> tuple[f.Vehicle, ...]:
        return self.force.vehicles

    @property
    def infantry(self) -> tuple[f.Soldier, ...]:
        return self.force.infantry

    @property
    def summary(self) -> str:
        v, i = len(self.force.vehicles), len(self.force.infantry)
        return f"{v} vehicle{'' if v == 1 else 's'} · {i} soldier{'' if i == 1 else 's'} on foot"


def force_view(roster: Roster) -> ForceView:
    force, unreadable = read_or_empty(roster)
    cards = tuple(
        VehicleCard(v, n, tuple(f.vehicle_notes(v))) for n, v in enumerate(force.vehicles, 1)
    )
    return ForceView(force, cards, unreadable)


def force_markdown(roster: Roster, note: str, system_name: str) -> str:
    view = force_view(roster)
    lines = [f"# {roster.name}", "", f"**{system_name}** · {view.summary}", ""]
    if view.unreadable:
        return "\n".join([*lines, f"_{view.unreadable}_", ""])
    if view.cards:
        lines += ["## Vehicles", ""]
    for card in view.cards:
        lines.append(
            f"- **{card.vehicle.name}** ({card.vehicle.kind_label}): {card.classes}; {card.seats}"
        )
        lines.append(f"  - {card.armament}")
        if card.specialisations:
            lines.append(f"  - Specialisations: {card.specialisations}")
        lines.append(f"  - Crew: {card.crew}")
    if view.infantry:
        lines += ["", "## Infantry", ""]
        lines += [f"- {s.name} ({s.rank_label.lower()})" for s in view.infantry]
    lines += ["", f"_{note} Built with Blitz._"]
    return "\n".join(lines) + "\n"
