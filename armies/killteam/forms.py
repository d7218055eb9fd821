"""Reading what the Kill Team forms send. Numbers are read as typed ("3+" and '6"' too); what
they must be is checked by ``rules.killteam.read_profile``, whose sentences land on the field."""

from __future__ import annotations

import re

from django import forms

from blitz_site.once import OnceKeyField
from blitz_site.text import StorableTextMixin
from rules.killteam import ploys as kp
from rules.killteam import profile as kt
from rules.killteam import team as kteam
from rules.killteam.equipment import kit_item, kit_items

NUMBER = re.compile(r"[0-9]{1,4}")  # ASCII digits only: "²" or "٣" is not a figure here
FIRST_SLOTS = 3  # weapon slots of a new profile; an edited one shows its weapons and two more


def _number_input(label: str) -> forms.CharField:
    return forms.CharField(
        label=label,
        required=False,
        max_length=8,
        error_messages={"max_length": f"{label} must be a whole number."},
        widget=forms.TextInput(
            attrs={"inputmode": "numeric", "autocomplete": "off", "class": "figure-input"}
        ),
    )


def read_number(text: str) -> int | str | None:
    """A typed figure: None when empty, an int when it is one ("3+", '6"' read as 3 and 6),
    else the text itself (the rules then say it must be a whole number)."""
    clean = (text or "").strip().removesuffix("+").removesuffix('"').strip()
    if not clean:
        return None
    return int(clean) if NUMBER.fullmatch(clean) else clean


def _shown(value: int | None, suffix: str = "") -> str:
    return "" if value is None else f"{value}{suffix}"


class TeamCreateForm(StorableTextMixin, forms.Form):
    name = forms.CharField(label="Name (optional)", max_length=80, required=False)
    key = OnceKeyField()


class TeamRenameForm(StorableTextMixin, forms.Form):
    name = forms.CharField(
        label="Roster name",
        max_length=80,
        error_messages={
            "required": "Give the roster a name.",
            "max_length": "A roster name can be at most 80 characters.",
        },
    )


class PloyForm(StorableTextMixin, forms.Form):
    name = forms.CharField(
        label="Ploy's name",
        max_length=kt.MAX_NAME,
        error_messages={
            "required": "Give the ploy a name.",
            "max_length": f"A ploy's name can be at most {kt.MAX_NAME} characters.",
        },
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    kind = forms.ChoiceField(
        label="Kind",
        choices=[(key, words.capitalize()) for key, words in kp.PLOY_KINDS.items()],
        error_messages={"invalid_choice": "A ploy is a strategic manoeuvre or a firefight ploy."},
    )
    cost = forms.CharField(
        label="Cost (CP)",
        initial=str(kp.PLOY_COST),
        max_length=8,
        error_messages={
            "required": f"Give the ploy's cost: a whole number, 0 to {kp.MAX_COST} CP.",
            "max_length": f"A ploy's cost is a whole number, 0 to {kp.MAX_COST} CP.",
        },
        widget=forms.TextInput(
            attrs={"inputmode": "numeric", "autocomplete": "off", "class": "figure-input"}
        ),
    )

    def __init__(self, *args, team: kteam.Team | None = None, **kwargs):
        kwargs.setdefault("auto_id", "ploy-%s")  # the editor has other forms with a name field
        super().__init__(*args, **kwargs)
        self.team = team

    def clean_cost(self) -> int:
        typed = self.cleaned_data["cost"].strip()
        number = typed.upper().removesuffix("CP").strip()  # "2 CP" is 2
        if not (number.isascii() and number.isdigit()):
            raise forms.ValidationError(
                f"A ploy's cost is a whole number, 0 to {kp.MAX_COST} CP; got “{typed}”."
            )
        return int(number)

    def clean(self) -> dict:
        data = super().clean()
        if self.errors:
            return data
        try:
            ploy = kp.read_ploy(data)
            if self.team is not None:
                kteam.name_ploy(self.team, ploy.name, ploy.kind, ploy.cost)
        except kt.ProfileError as error:
            for problem in error.problems:
                field = problem.field.rpartition(".")[2]
                self.add_error(field if field in self.fields else None, problem.message)
        else:
            self.ploy = ploy
        return data


class OperativeForm(StorableTextMixin, forms.Form):
    """Add an operative (``profile`` required) or change one (``profile`` "": keep its own)."""

    profile = forms.ChoiceField(label="Profile")
    name = forms.CharField(
        label="Its own name (optional)",
        max_length=kt.MAX_NAME,
        required=False,
        error_messages={
            "max_length": f"An operative's name can be at most {kt.MAX_NAME} characters."
        },
    )

    def __init__(self, *args, profiles, keep: str = "", **kwargs):
        kwargs.setdefault("auto_id", "operative-%s")  # the editor's rename form has id_name
        super().__init__(*args, **kwargs)
        groups: dict[str, list[tuple[str, str]]] = {}
        for entry in profiles:
            label = f"{entry.profile.name} (APL {entry.profile.apl}, Wounds {entry.profile.wounds})"
            groups.setdefault(entry.pack.name, []).append((entry.choice, label))
        choices: list = [("", keep)] if keep else []
        self.fields["profile"].choices = [*choices, *groups.items()]
        self.fields["profile"].required = not keep
        self.fields["profile"].error_messages["invalid_choice"] = (
            "That profile is no longer in your datacards: pick another."
        )


def grenade_label(choice: kteam.Grenades) -> str:
    if not choice.count:
        return "No explosive grenades"
    if choice.frag and choice.krak:
        return f"{choice.frag} frag and {choice.krak} krak grenade"
    return f"{choice.count} {'frag' if choice.frag else 'krak'} grenades"


def grenade_value(choice: kteam.Grenades) -> str:
    return f"{choice.frag}-{choice.krak}"


class GrenadesForm(forms.Form):
    grenades = forms.ChoiceField(
        label="Explosive grenades",
        widget=forms.RadioSelect,
        choices=lambda: [(grenade_value(c), grenade_label(c)) for c in kteam.grenade_choices()],
        error_messages={
            "required": "Pick the team's explosive grenades (or none).",
            "invalid_choice": "Explosive grenades come as a pick of two: 2 frag, 2 krak, or one "
            "of each (or none).",
        },
    )

    def choice(self) -> tuple[int, int]:
        frag, krak = self.cleaned_data["grenades"].split("-")
        return int(frag), int(krak)


UTILITY_CHOICES = [
    ("", "No utility grenades"),
    ("smoke_grenade:1", "1 smoke grenade"),
    ("stun_grenade:1", "1 stun grenade"),
    ("smoke_grenade:2", "2 smoke grenades"),
    ("stun_grenade:2", "2 stun grenades"),
    ("smoke_grenade:1,stun_grenade:1", "1 smoke and 1 stun grenade"),
]


class KitForm(forms.Form):
    """The other universal equipment: a box for each piece, and the utility grenades (up to
    two); the text sets no limit on how many pieces a team takes."""

    utility = forms.ChoiceField(
        label="Utility grenades",
        widget=forms.RadioSelect,
        choices=UTILITY_CHOICES,
        required=False,
        error_messages={
            "invalid_choice": "Utility grenades come as up to two: 2 smoke, 2 stun, or one of "
            "each (or none)."
        },
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for item in kit_items():
            if not item.utility:
                self.fields[f"kit_{item.key}"] = forms.BooleanField(label=item.name, required=False)

    def pieces(self) -> list[dict]:
        return [
            {"item": item, "box": self[f"kit_{item.key}"]}
            for item in kit_items()
            if not item.utility
        ]

    def kit(self) -> dict[str, int]:
        data = self.cleaned_data
        picked = {item.key: 1 for item in kit_items() if data.get(f"kit_{item.key}")}
        for part in filter(None, (data.get("utility") or "").split(",")):
            key, _, count = part.partition(":")
            picked[key] = int(count)
        return picked

    @staticmethod
    def initial_for(team: kteam.Team | None) -> dict:
        kit = dict(team.kit) if team else {}
        utility = ",".join(f"{key}:{n}" for key, n in kit.items() if kit_item(key).utility)
        return {"utility": utility, **{f"kit_{key}": True for key in kit}}


# --- Profiles in the datacard library -------------------------------------------------------------


class ProfileFigures(StorableTextMixin, forms.Form):
    """The operative's own figures."""

    name = forms.CharField(label="Profile name", max_length=kt.MAX_NAME * 2, required=False)
    apl = _number_input("APL")
    move = _number_input("Move (inches)")
    save = _number_input("Save (x+)")
    wounds = _number_input("Wounds")

    NUMBERS = ("apl", "move", "save", "wounds")


class WeaponFigures(StorableTextMixin, forms.Form):
    """One weapon slot: its figures and the weapon rules it has, each with its x."""

    name = forms.CharField(label="Weapon name", max_length=kt.MAX_NAME * 2, required=False)
    kind = forms.ChoiceField(
        label="Ranged or melee",
        choices=list(kt.WEAPON_KINDS.items()),
        widget=forms.RadioSelect,
        required=False,
    )
    attacks = _number_input("Attacks")
    hit = _number_input("Hit (x+)")
    normal_damage = _number_input("Damage, normal")
    critical_damage = _number_input("Damage, critical")

    NUMBERS = ("attacks", "hit", "normal_damage", "critical_damage")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.rule_errors: list[str] = []
        for kind in kt.weapon_rules():
            self.fields[f"rule_{kind.key}"] = forms.BooleanField(label=kind.label, required=False)
            if kind.takes_x:
                self.fields[f"x_{kind.key}"] = forms.CharField(
                    label=f"x of {kind.english}",
                    required=False,
                    max_length=8,
                    error_messages={"max_length": f"The x of {kind.english} is a whole number."},
                    widget=forms.TextInput(
                        attrs={"inputmode": "numeric", "autocomplete": "off", "class": "rule-x"}
                    ),
                )
        # The brackets cards print after two rules: 'Devastating 1 (1")', "Heavy (Dash only)".
        self.fields["bracket_devastating"] = forms.CharField(
            label="Devastating's distance in inches, as in (1\") (empty: none)",
            required=False,
            max_length=8,
            widget=forms.TextInput(
                attrs={"inputmode": "numeric", "autocomplete": "off", "class": "rule-x"}
            ),
        )
        self.fields["bracket_heavy"] = forms.ChoiceField(
            label="The one move Heavy allows (empty: none)",
            required=False,
            choices=[("", "no move")]
            + [(key, f"{names[0]} only") for key, names in kt.MOVE_ACTIONS.items()],
        )

    def rule_rows(self) -> list[dict]:
        """The 24 forms of the 22 weapon rules, each a row of the picker."""
        rows = []
        for kind in kt.weapon_rules():
            rows.append(
                {
                    "kind": kind,
                    "box": self[f"rule_{kind.key}"],
                    "x": self[f"x_{kind.key}"] if kind.takes_x else None,
                    "bracket": self[f"bracket_{kind.key}"] if kind.key in BRACKETS else None,
                }
            )
        return rows

    @property
    def chosen_rules(self) -> int:
        return sum(1 for kind in kt.weapon_rules() if self[f"rule_{kind.key}"].value())

    def is_blank(self) -> bool:
        data = self.cleaned_data
        return not any(data.get(key) for key in ("name", *self.NUMBERS)) and not any(
            data.get(f"rule_{kind.key}") for kind in kt.weapon_rules()
        )

    def typed(self) -> dict:
        """The slot as ``read_profile`` reads a weapon."""
        data = self.cleaned_data
        rules = []
        for kind in kt.weapon_rules():
            if not data.get(f"rule_{kind.key}"):
                continue
            if not kind.takes_x:
                rules.append(kind.text() + self._bracket(kind.key))
                continue
            x = read_number(data.get(f"x_{kind.key}", ""))
            if isinstance(x, str):
                self.add_error(f"x_{kind.key}", f"The x of {kind.english} must be a whole number.")
                continue
            rules.append((kind.english if x is None else kind.text(x)) + self._bracket(kind.key))
        return {
            "name": data.get("name", ""),
            "kind": data.get("kind") or None,
            **{key: read_number(data.get(key, "")) for key in self.NUMBERS},
            "rules": rules,
        }

    def _bracket(self, key: str) -> str:
        """The bracket typed after Devastating or Heavy, as a card prints it ("" for none)."""
        value = self.cleaned_data.get(f"bracket_{key}") or ""
        distance = value.strip().rstrip('"').strip()
        if key == "devastating" and distance:
            return f' ({distance}")'
        if key == "heavy" and value:
            return f" ({kt.MOVE_ACTIONS[value][0]} only)"
        return ""


BRACKETS = ("devastating", "heavy")


def weapon_initial(weapon: kt.Weapon) -> dict:
    initial = {
        "name": weapon.name,
        "kind": weapon.kind,
        "attacks": weapon.attacks,
        "hit": _shown(weapon.hit),
        "normal_damage": weapon.normal_damage,
        "critical_damage": weapon.critical_damage,
    }
    for rule in weapon.rules:
        initial[f"rule_{rule.key}"] = True
        if rule.x is not None:
            initial[f"x_{rule.key}"] = rule.x
        if rule.area is not None:
            initial["bracket_devastating"] = rule.area
        if rule.only:
            initial["bracket_heavy"] = rule.only
    return initial


class ProfileEditor:
    """The profile form: its figures and its weapon slots, checked together by the rules.

    ``is_valid`` reads what was typed, asks ``rules.killteam.read_profile`` and puts each of
    its sentences on the field it names; ``profile`` is then the checked profile."""

    def __init__(self, data=None, *, profile: kt.OperativeProfile | None = None, key: str = ""):
        self.data = data
        weapons = profile.weapons if profile else ()
        slots = self._slots(data, len(weapons))
        initial = (
            {}
            if profile is None
            else {
                "name": profile.name,
                "apl": profile.apl,
                "move": profile.move,
                "save": profile.save,
                "wounds": profile.wounds,
            }
        )
        self.figures = ProfileFigures(data, initial=initial)
        self.weapons = [
            WeaponFigures(
                data,
                prefix=f"w{index}",
                initial=weapon_initial(weapons[index]) if index < len(weapons) else {},
            )
            for index in range(slots)
        ]
        self.slots = slots
        self.key = key
        self.profile: kt.OperativeProfile | None = None

    @staticmethod
    def _slots(data, existing: int) -> int:
        if data is not None:
            posted = data.get("slots", "")
            if NUMBER.fullmatch(posted or "") and 1 <= int(posted) <= kt.MAX_WEAPONS:
                return int(posted)
        return min(kt.MAX_WEAPONS, max(existing + 2, FIRST_SLOTS))

    def is_valid(self) -> bool:
        ok = self.figures.is_valid()
        ok = all([weapon.is_valid() for weapon in self.weapons]) and ok
        if not ok:
            return False
        typed = {key: read_number(self.figures.cleaned_data[key]) for key in ProfileFigures.NUMBERS}
        typed["name"] = self.figures.cleaned_data["name"]
        filled = [weapon for weapon in self.weapons if not weapon.is_blank()]
        typed["weapons"] = [weapon.typed() for weapon in filled]
        try:
            self.profile = kt.read_profile(typed)
        except kt.ProfileError as error:
            for problem in error.problems:
                self._place(problem, filled)
        return self.profile is not None and not any(weapon.errors for weapon in filled)

    def _place(self, problem: kt.Problem, filled: list[WeaponFigures]) -> None:
        parts = problem.field.split(".")
        if parts[0] == "weapons" and len(parts) == 3:
            weapon = filled[int(parts[1])]
            if parts[2] == "rules":
                weapon.rule_errors.append(problem.message)
                weapon.add_error(None, problem.message)
            else:
                weapon.add_error(parts[2], problem.message)
        elif parts[0] in self.figures.fields:
            self.figures.add_error(parts[0], problem.message)
        else:
            self.figures.add_error(None, problem.message)

    @property
    def errors(self) -> list[str]:
        """Every error, for the summary at the top of the form (each names its figure)."""
        found = [*self.figures.non_field_errors()]
        for field in self.figures:
            found += field.errors
        for weapon in self.weapons:
            found += weapon.non_field_errors()
            for field in weapon:
                found += field.errors
        return found
