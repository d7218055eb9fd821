"""What the Kill Team pages show: ``rules.killteam`` results arranged for the templates."""

from __future__ import annotations

from dataclasses import dataclass

from armies.killteam.services import LibraryProfile
from armies.models import Roster
from rules.killteam import profile as kt
from rules.killteam import team as kteam
from rules.killteam.equipment import kit_item

KIND_WORDS = {kt.RANGED: "Ranged", kt.MELEE: "Melee"}


def grenade_words(grenades: kteam.Grenades) -> str:
    """The team's explosive grenades in words: "2 frag grenades", "1 frag and 1 krak grenade"."""
    parts = [(n, what) for n, what in ((grenades.frag, "frag"), (grenades.krak, "krak")) if n]
    if not parts:
        return "No explosive grenades"
    noun = "grenade" if grenades.count == 1 or len(parts) > 1 else "grenades"
    return " and ".join(f"{n} {what}" for n, what in parts) + f" {noun}"


@dataclass(frozen=True)
class WeaponRow:
    weapon: kt.Weapon

    @property
    def kind(self) -> str:
        return KIND_WORDS[self.weapon.kind]

    @property
    def hit(self) -> str:
        return f"{self.weapon.hit}+"

    @property
    def damage(self) -> str:
        return f"{self.weapon.normal_damage}/{self.weapon.critical_damage}"

    @property
    def rules(self) -> str:
        return ", ".join(self.weapon.rule_texts) or "—"


@dataclass(frozen=True)
class ProfileCard:
    """A profile's datacard figures as the cards print them: an operative's (with its place in
    the team) or a library entry's."""

    profile: kt.OperativeProfile
    operative: kteam.Operative | None = None
    number: int = 0  # the operative's place in the team, from 1
    entry: LibraryProfile | None = None

    @property
    def title(self) -> str:
        return self.operative.title if self.operative else self.profile.name

    @property
    def renamed(self) -> bool:
        """The operative has a name of its own (the card then names its profile too)."""
        return self.title != self.profile.name

    @property
    def stats(self) -> list[tuple[str, str]]:
        p = self.profile
        return [
            ("APL", str(p.apl)),
            ("Move", f'{p.move}"'),
            ("Save", f"{p.save}+"),
            ("Wounds", str(p.wounds)),
        ]

    @property
    def line(self) -> str:
        """The figures on one line: 'APL 2 · Move 6" · Save 4+ · Wounds 8'."""
        return " · ".join(f"{label} {value}" for label, value in self.stats)

    @property
    def weapons(self) -> list[WeaponRow]:
        return [WeaponRow(weapon) for weapon in self.profile.weapons]


@dataclass
class TeamView:
    roster: Roster
    team: kteam.Team | None
    unreadable: str = ""
    faction_name: str = "Kill Team"
    total: int = 0

    @property
    def cards(self) -> list[ProfileCard]:
        if self.team is None:
            return []
        return [
            ProfileCard(operative.profile, operative, number)
            for number, operative in enumerate(self.team.operatives, start=1)
        ]

    @property
    def operative_count(self) -> int:
        return len(self.team.operatives) if self.team else 0

    @property
    def grenades(self) -> str:
        return grenade_words(self.team.grenades) if self.team else ""

    @property
    def ploys(self) -> tuple[kteam.Ploy, ...]:
        return self.team.ploys if self.team else ()

    @property
    def kit(self) -> str:
        """The other equipment in words: "Mines, 2 stun grenades, Ladders" ("" for none)."""
        if self.team is None:
            return ""
        words = []
        for key, count in self.team.kit:
            name = kit_item(key).name
            words.append(f"{count} {name.lower()}s" if count > 1 else name)
        return ", ".join(words)

    @property
    def entered_by(self) -> list[str]:
        if self.team is None:
            return []
        names = {o.entered_by for o in self.team.operatives if o.entered_by}
        return sorted(names, key=str.casefold)

    @property
    def weapon_rules(self) -> list[kt.WeaponRuleKind]:
        """Each weapon rule on the team's cards once, in the text's order: the cards explain
        them in Blitz's own words."""
        used = {
            rule.key
            for operative in (self.team.operatives if self.team else ())
            for weapon in operative.profile.weapons
            for rule in weapon.rules
        }
        return [kind for kind in kt.weapon_rules() if kind.key in used]


def team_view(roster: Roster) -> TeamView:
    try:
        team = kteam.read_team(roster.army)
    except kt.ProfileError as error:
        return TeamView(roster, None, unreadable=f"{error} It is shown as stored.")
    return TeamView(roster, team)


def library_rows(profiles: list[LibraryProfile]) -> list[ProfileCard]:
    return [ProfileCard(entry.profile, entry=entry) for entry in profiles]
