"""What the roster pages show: ``rules`` results arranged for the templates (no rule logic)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property

import rules.hgb
from armies.hgb.packs import pack_catalog
from armies.models import DataPack, Roster
from armies.packs import roster_pack
from rules.hgb.datapack import PACK, SOURCE_WORDS
from rules.hgb.glossary import glossary, weapon_terms

BOX_LETTERS = {"sturdy": "S", "light": "L", "heavy": "H", "critical": "C"}

# Printed datacards: Chromium cannot number printed pages from CSS, so the cards are split into
# sheets that each fit one A4 or Letter page, and each sheet says "Page N of M". A sheet holds
# rows of two cards; each combat group starts a new row under its heading. The first page also
# holds the roster's summary, so its sheet has fewer rows.
SHEET_COLUMNS = 2
SHEET_ROWS = 4
FIRST_SHEET_ROWS = 2
SHEET_HEADINGS = 3


@dataclass(frozen=True)
class Marks:
    """Where a card's figures come from, as the card marks them: the rules text unmarked, host
    data as "host data", a pack's figure "entered by <owner>" (never an official number)."""

    pack: DataPack | None = None
    pack_words: str = ""

    def figure(self, kind: str, entry_id: str, key: str) -> str:
        if rules.hgb.figure_of(rules.hgb.builtin_catalog(), kind, entry_id, key) is not None:
            return ""
        if rules.hgb.figure_of(rules.hgb.default_catalog(), kind, entry_id, key) is not None:
            return "host data"
        if (
            self.pack is not None
            and (self.pack.figures.get(kind) or {}).get(entry_id, {}).get(key) is not None
        ):
            return self.pack_words
        return ""


def pack_words(pack: DataPack | None, *, yours: bool) -> str:
    if pack is None:
        return ""
    return f"yours, entered by {pack.entered_by}" if yours else f"entered by {pack.entered_by}"


@dataclass(frozen=True)
class WeaponRow:
    weapon: rules.hgb.ProfileWeapon
    terms: list
    marks: dict = field(default_factory=dict)

    @property
    def ammo(self) -> str:
        mount = self.weapon.mount
        if mount.limited_ammo:
            return f"Limited Ammo {mount.limited_ammo}"
        if mount.reloads is True:
            return "Reloads"
        if mount.reloads is False:
            return "No reloads"
        return ""

    @property
    def mark_note(self) -> str:
        """Where the row's marked figures come from, said once under the row ("DM, Acc:
        yours, entered by jan"): beside each figure it wrapped to five lines in a phone's card."""
        names = {"dm": "DM", "accuracy": "Acc"}
        words: dict[str, list[str]] = {}
        for key, mark in self.marks.items():
            if mark:
                words.setdefault(mark, []).append(names.get(key, key))
        return "; ".join(f"{', '.join(keys)}: {mark}" for mark, keys in words.items())


class Offers:
    """The editor's offers, computed only for the groups a response draws, against one
    baseline (the roster's problems and TV) made at most once per request."""

    def __init__(self, army: rules.hgb.Roster, catalog: rules.hgb.Catalog) -> None:
        self.army = army
        self.catalog = catalog

    @cached_property
    def baseline(self) -> rules.hgb.OfferBaseline:
        return rules.hgb.offer_baseline(self.army, self.catalog)

    def options(self, g: int, m: int) -> tuple[rules.hgb.OptionChoice, ...]:
        return rules.hgb.available_options(self.army, self.catalog, g, m, self.baseline)

    def upgrades(self, g: int) -> tuple[rules.hgb.UpgradeChoice, ...]:
        return rules.hgb.available_group_upgrades(self.army, self.catalog, g, self.baseline)

    def bulk(self, g: int, m: int) -> tuple[rules.hgb.BulkChoice, ...]:
        return rules.hgb.available_bulk_options(self.army, self.catalog, g, m, self.baseline)


@dataclass(frozen=True)
class OptionRow:
    """One option of a model in the editor, with its "apply to all identical models" offer."""

    option: rules.hgb.OptionChoice
    bulk: rules.hgb.BulkChoice | None


@dataclass
class ModelView:
    index: int
    group_index: int
    entry: rules.hgb.ModelEntry
    cost: rules.hgb.ModelCost
    profile: rules.hgb.ModelProfile
    offers: Offers | None
    problems: list[rules.hgb.Problem] = field(default_factory=list)
    marks: Marks = Marks()

    @property
    def armor_mark(self) -> str:
        return self.marks.figure("models", self.profile.model, "armor")

    @cached_property
    def options(self) -> tuple[rules.hgb.OptionChoice, ...]:
        return self.offers.options(self.group_index, self.index) if self.offers else ()

    @cached_property
    def option_rows(self) -> list[OptionRow]:
        if not self.options:
            return []
        bulk = {choice.id: choice for choice in self.offers.bulk(self.group_index, self.index)}
        return [OptionRow(option, bulk.get(option.id)) for option in self.options]

    @property
    def number(self) -> int:
        """The model's place in its group, counted from 1 as a player counts."""
        return self.index + 1

    @property
    def weapon_rows(self) -> list[WeaponRow]:
        rows = []
        for weapon in self.profile.weapons:
            mount = weapon.mount
            parts = weapon.weapon.parts if weapon.weapon else ()
            marks = {
                key: self.marks.figure("weapons", weapon.code, key) for key in ("dm", "accuracy")
            }
            rows.append(
                WeaponRow(
                    weapon,
                    weapon_terms(mount.arc, mount.reloads, mount.limited_ammo, parts),
                    marks,
                )
            )
        return rows

    @property
    def boxes(self) -> list[tuple[str, str]]:
        return [(BOX_LETTERS.get(kind, "?"), kind.title()) for kind in self.profile.damage_track]

    @property
    def weapon_span(self) -> int:
        """How many columns the card's weapon table has (a note row spans them all)."""
        return 1 + sum(self.weapon_columns.values())

    @property
    def weapon_columns(self) -> dict[str, bool]:
        """Which weapon figures the card shows: those the quickstart gives for some weapon."""
        rows = self.weapon_rows
        return {
            "arc": any(row.weapon.mount.arc for row in rows),
            "dm": any(row.weapon.dm is not None for row in rows),
            "acc": any(row.weapon.accuracy is not None for row in rows),
            "ammo": any(row.ammo for row in rows),
        }

    @property
    def not_given(self) -> list[str]:
        """The card's figures the quickstart does not give, named once instead of "—" rows."""
        profile = self.profile
        missing = [] if profile.armor is not None else ["Armor"]
        skills = profile.skills
        for name, value in (("ATT", skills.att), ("DEF", skills.defense), ("EW", skills.ew)):
            if value is None:
                missing.append(name)
        if skills.ld is None:
            missing.append("LD")
        if profile.weapons:
            names = {"arc": "Arc", "dm": "DM", "acc": "Accuracy", "ammo": "Ammo"}
            missing += [names[key] for key, shown in self.weapon_columns.items() if not shown]
        return missing

    @property
    def terms(self) -> list:
        found = [glossary()["damage_track"]]
        if any(option == "Armored Jacket" for option in self.profile.options):
            found.append(glossary()["armored_jacket"])
        return found


@dataclass
class GroupView:
    index: int
    group: rules.hgb.CombatGroup
    squad: object | None
    cost: rules.hgb.GroupCost
    offers: Offers | None
    models: list[ModelView]
    addable: list[tuple[str, str]]
    problems: list[rules.hgb.Problem] = field(default_factory=list)

    @cached_property
    def upgrades(self) -> tuple[rules.hgb.UpgradeChoice, ...]:
        return self.offers.upgrades(self.index) if self.offers else ()

    @property
    def number(self) -> int:
        return self.index + 1

    @property
    def title(self) -> str:
        return self.group.squad_name or self.group.squad


@dataclass(frozen=True)
class SheetCard:
    group: GroupView
    model: ModelView
    heading: bool  # the group's first card on this sheet: the sheet names the group here
    continued: bool  # ...and the group began on an earlier sheet
    count: int = 1  # the group's models this card stands for (identical models: one card, "×4")


def card_models(group: GroupView) -> list[tuple[ModelView, int]]:
    """A group's models as printed: identical models (the same profile but for their place in
    the group) once, with how many there are, in the order the first of each comes."""
    kinds: list[tuple[ModelView, int]] = []
    for model in group.models:
        same = replace(model.profile, index=0)
        for at, (first, count) in enumerate(kinds):
            if replace(first.profile, index=0) == same:
                kinds[at] = (first, count + 1)
                break
        else:
            kinds.append((model, 1))
    return kinds


@dataclass(frozen=True)
class Sheet:
    number: int
    count: int
    cards: list[SheetCard]


def sheets(groups: list[GroupView]) -> list[Sheet]:
    """The datacards split into printed sheets of a size that fits one page each."""
    pages: list[list[SheetCard]] = [[]]
    rows = headings = column = 0
    for group in groups:
        for model, count in card_models(group):
            heading = model.index == 0 or not pages[-1]
            room = FIRST_SHEET_ROWS if len(pages) == 1 else SHEET_ROWS
            new_row = heading or column == SHEET_COLUMNS
            if pages[-1] and (
                (new_row and rows == room) or (heading and headings == SHEET_HEADINGS)
            ):
                pages.append([])
                rows = headings = 0
                heading = new_row = True
            if heading:
                headings += 1
            if new_row:
                rows += 1
                column = 0
            column += 1
            pages[-1].append(SheetCard(group, model, heading, heading and model.index > 0, count))
    return [Sheet(number, len(pages), cards) for number, cards in enumerate(pages, start=1)]


@dataclass
class RosterView:
    roster: Roster
    army: rules.hgb.Roster | None
    cost: rules.hgb.RosterCost | None
    problems: tuple[rules.hgb.Problem, ...]
    groups: list[GroupView]
    faction_name: str
    squads: tuple = ()
    unreadable: str = ""  # why the stored roster could not be read with the current data
    pack: DataPack | None = None

    @property
    def total(self) -> int:
        return self.cost.total if self.cost else 0

    @property
    def over_limit(self) -> bool:
        return self.total > self.roster.tv_limit

    @property
    def empty(self) -> bool:
        """No combat group yet: nothing to call legal (the pages say "Empty" instead)."""
        return not self.groups and not self.unreadable

    @property
    def legal(self) -> bool:
        return not self.problems and not self.unreadable and not self.empty

    @cached_property
    def sheets(self) -> list[Sheet]:
        return sheets(self.groups)

    @property
    def unprinted_tv(self) -> bool:
        """Whether an offer on the page has a TV change the quickstart does not print (a "*")."""
        return any(
            not offer.tv_printed
            for group in self.groups
            for offer in (*group.upgrades, *(o for m in group.models for o in m.options))
        )

    @property
    def gaps(self) -> list[str]:
        """What the TV leaves out, minus what the problems already say: ``roster_problems``
        reports a model the texts give no TV for ("... is not counted") as a problem too."""
        if not self.cost:
            return []
        said = {problem.message for problem in self.problems}
        return [gap for gap in self.cost.gaps if gap not in said]

    @property
    def model_count(self) -> int:
        return sum(len(group.models) for group in self.groups)


def roster_view(
    roster: Roster, *, editing: bool = False, yours: bool = True, figures: bool = True
) -> RosterView:
    """Everything a roster page shows. ``editing`` adds the choices the editor offers. The
    figures are the data's, completed by the roster's datacard pack; ``yours``: the viewer owns
    the roster (and so its pack); ``figures``: the page shows datacard figures (the roster list
    shows only TV and legality, so it reads no pack)."""
    # The editor shows choices and the list totals, not figures: neither reads the pack.
    pack = None if editing or not figures else roster_pack(roster)
    catalog = pack_catalog(pack.figures if pack else None)
    marks = Marks(pack, pack_words(pack, yours=yours))
    faction = catalog.factions.get(roster.faction)
    faction_name = faction.name if faction else roster.faction
    try:
        army = rules.hgb.roster_from_dict(roster.army, catalog)
    except rules.hgb.RulesError as error:
        return RosterView(
            roster, None, None, (), [], faction_name, unreadable=f"{error} It is shown as stored."
        )
    cost = rules.hgb.roster_cost(army, catalog)
    problems = rules.hgb.roster_problems(army, catalog)
    offers = Offers(army, catalog) if editing else None
    groups = []
    for group_cost, group in zip(cost.groups, army.groups, strict=True):
        g = group_cost.index
        squad = catalog.squads.get(group.squad)
        models = [
            ModelView(
                index=m,
                group_index=g,
                entry=entry,
                cost=model_cost,
                profile=rules.hgb.model_profile(army, catalog, g, m),
                offers=offers,
                marks=marks,
            )
            for m, (entry, model_cost) in enumerate(
                zip(group.models, group_cost.models, strict=True)
            )
        ]
        addable = []
        if editing and squad is not None:
            addable = [
                (slot.model, catalog.models[slot.model].name)
                for slot in squad.slots
                if slot.model in catalog.models
            ]
        groups.append(
            GroupView(
                index=g,
                group=group,
                squad=squad,
                cost=group_cost,
                offers=offers,
                models=models,
                addable=addable,
            )
        )
    for problem in problems:
        if problem.group is not None and problem.group < len(groups):
            view = groups[problem.group]
            if problem.model is not None and problem.model < len(view.models):
                view.models[problem.model].problems.append(problem)
            else:
                view.problems.append(problem)
    squads = catalog.squads_of(roster.faction) if editing else ()
    return RosterView(roster, army, cost, problems, groups, faction_name, squads=squads, pack=pack)


# --- My datacards: every model and weapon with its figures and their sources ---------------

SUMMARY = {
    "models": ("armor", "size", "sensors"),
    "weapons": ("accuracy", "dm", "rof"),
}


SUMMARY_LABELS = {
    "armor": "Armor",
    "size": "Size",
    "sensors": "Sensors",
    "accuracy": "Acc",
    "dm": "DM",
    "rof": "RoF",
}


@dataclass(frozen=True)
class Cell:
    value: object
    source: str  # "rules text", "host data", "yours"... or "" when missing
    label: str = ""  # the column's heading, shown beside the figure on a phone


@dataclass(frozen=True)
class EntryRow:
    kind: str
    id: str
    name: str
    cells: list[Cell]
    more_given: int  # other figures given (movement lines, ranges, traits)
    more_total: int


def _words(source: str | None, pack: DataPack | None, yours: bool) -> str:
    if source is None:
        return ""
    if source == PACK and pack is not None:
        who = f"entered by {pack.entered_by}"
        return f"yours, {who}" if yours else who
    return SOURCE_WORDS[source]


def entry_rows(kind: str, pack: DataPack | None, *, yours: bool) -> list[EntryRow]:
    """Every model (or weapon) the data knows, with its figures and where each comes from."""
    figures = pack.figures if pack else {}
    builtin, hosted = rules.hgb.builtin_catalog(), rules.hgb.default_catalog()
    done = rules.hgb.complete_catalog(hosted, figures)
    entries = getattr(hosted, kind).values()
    rows = []
    for entry in sorted(entries, key=lambda e: e.name.lower()):
        entry_id = entry.id if kind == "models" else entry.code
        sources = rules.hgb.figure_sources(builtin, hosted, kind, entry_id, figures)
        cells = [
            Cell(
                rules.hgb.figure_of(done, kind, entry_id, key),
                _words(sources[key], pack, yours),
                SUMMARY_LABELS[key],
            )
            for key in SUMMARY[kind]
        ]
        others = [key for key in sources if key not in SUMMARY[kind]]
        given = sum(1 for key in others if sources[key] is not None)
        rows.append(EntryRow(kind, entry_id, entry.name, cells, given, len(others)))
    return rows
