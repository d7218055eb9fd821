"""Reading what the WWII force editor's forms send. Numbers are read as typed (ASCII digits
only); what a vehicle may be is checked by ``rules.ww2.force.check_vehicle``, whose sentence
lands beside the field it is about, with everything typed kept."""

from __future__ import annotations

from django import forms

from blitz_site.once import OnceKeyField
from blitz_site.text import StorableTextMixin
from rules.ww2 import force as f

CREW_ROWS = f.CREW[1]  # one row per crew member the text allows


def _name(label: str, required: bool = True) -> forms.CharField:
    return forms.CharField(
        label=label,
        max_length=f.MAX_NAME,
        required=required,
        error_messages={
            "required": f"{label}: give a name.",
            "max_length": f"{label} can be at most {f.MAX_NAME} characters.",
        },
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )


def _number(label: str, help_text: str = "") -> forms.CharField:
    return forms.CharField(
        label=label,
        required=False,
        max_length=4,
        help_text=help_text,
        error_messages={"max_length": f"{label}: a whole number, 0 to {f.MAX_NUMBER}."},
        widget=forms.TextInput(
            attrs={"inputmode": "numeric", "autocomplete": "off", "class": "figure-input"}
        ),
    )


def _read_number(form: forms.Form, name: str, low: int = 0) -> int | None:
    typed = (form.cleaned_data.get(name) or "").strip()
    if not typed:
        return None
    if not (typed.isascii() and typed.isdigit()) or not low <= int(typed) <= f.MAX_NUMBER:
        label = form.fields[name].label
        raise forms.ValidationError(
            f"{label}: a whole number, {low} to {f.MAX_NUMBER}, as your card gives it; "
            f"got “{typed}”."
        )
    return int(typed)


class ForceCreateForm(StorableTextMixin, forms.Form):
    name = forms.CharField(label="Name (optional)", max_length=80, required=False)
    key = OnceKeyField()


class ForceRenameForm(StorableTextMixin, forms.Form):
    name = forms.CharField(
        label="Roster name",
        max_length=80,
        error_messages={
            "required": "Give the roster a name.",
            "max_length": "A roster name can be at most 80 characters.",
        },
    )


class VehicleForm(StorableTextMixin, forms.Form):
    """One vehicle, its equipment and its crew; ``vehicle(id)`` is what it says, checked."""

    key = OnceKeyField()
    name = _name("Vehicle's name")
    kind = forms.ChoiceField(
        label="Kind",
        choices=list(f.KINDS.items()),
        error_messages={"invalid_choice": "Pick the vehicle's kind from the list."},
    )
    kind_name = _name("Its kind, if Other (an armoured car…)", required=False)
    armour_class = _number("Armour class")
    gun_class = _number("Gun class")
    seats = _number("Seats", "An APC has 12 and a tank 6 as the text's standard; a truck 4 to 16.")
    mgs = forms.MultipleChoiceField(
        label="Machine guns paid for",
        choices=list(f.MACHINE_GUNS.items()),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        error_messages={"invalid_choice": "Machine guns: hull, turret or on the armour."},
    )
    flamethrower = forms.BooleanField(label="Flamethrower", required=False)
    napalm = _number("Napalm ammunition cards")
    smoke = _number("Smoke ammunition cards")
    specialisations = forms.MultipleChoiceField(
        label="Specialisations",
        choices=list(f.SPECIALISATIONS.items()),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        error_messages={"invalid_choice": "Specialisations: spotter, mine trawl, active armour."},
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for row in range(1, CREW_ROWS + 1):
            self.fields[f"crew_{row}"] = _name(f"Crew member {row}", required=False)
            self.fields[f"commander_{row}"] = forms.BooleanField(
                label=f"Crew member {row} is a commander", required=False
            )

    @classmethod
    def initial_for(cls, vehicle: f.Vehicle | None) -> dict:
        if vehicle is None:
            return {"kind": "tank", "seats": str(f.STANDARD_SEATS["tank"])}
        shown = {
            key: "" if value is None else str(value)
            for key, value in (
                ("armour_class", vehicle.armour_class),
                ("gun_class", vehicle.gun_class),
                ("seats", vehicle.seats),
                ("napalm", vehicle.napalm or None),
                ("smoke", vehicle.smoke or None),
            )
        }
        crew = {}
        for row, member in enumerate(vehicle.crew, 1):
            crew[f"crew_{row}"] = member.name
            crew[f"commander_{row}"] = member.commander
        return {
            "name": vehicle.name,
            "kind": vehicle.kind,
            "kind_name": vehicle.kind_name,
            "mgs": list(vehicle.mgs),
            "flamethrower": vehicle.flamethrower,
            "specialisations": list(vehicle.specialisations),
            **shown,
            **crew,
        }

    def clean_armour_class(self) -> int | None:
        return _read_number(self, "armour_class", low=1)

    def clean_gun_class(self) -> int | None:
        return _read_number(self, "gun_class", low=1)

    def clean_seats(self) -> int | None:
        return _read_number(self, "seats")

    def clean_napalm(self) -> int | None:
        return _read_number(self, "napalm")

    def clean_smoke(self) -> int | None:
        return _read_number(self, "smoke")

    def crew_rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [(self[f"crew_{r}"], self[f"commander_{r}"]) for r in range(1, CREW_ROWS + 1)]

    def clean(self) -> dict:
        data = super().clean()
        for row in range(1, CREW_ROWS + 1):
            if data.get(f"commander_{row}") and not data.get(f"crew_{row}"):
                self.add_error(f"crew_{row}", f"Crew member {row} is marked commander: name him.")
        if not self.errors:
            try:
                f.check_vehicle(self.vehicle("v0"))
            except f.ForceError as refused:
                self.add_error(
                    refused.field if refused.field in self.fields else None, str(refused)
                )
        return data

    def vehicle(self, vehicle_id: str) -> f.Vehicle:
        data = self.cleaned_data
        crew = tuple(
            f.CrewMember("", data[f"crew_{r}"], bool(data.get(f"commander_{r}")))
            for r in range(1, CREW_ROWS + 1)
            if data.get(f"crew_{r}")
        )
        return f.Vehicle(
            id=vehicle_id,
            name=" ".join(data["name"].split()),
            kind=data["kind"],
            kind_name=" ".join(data["kind_name"].split()) if data["kind"] == "other" else "",
            armour_class=data["armour_class"],
            gun_class=data["gun_class"],
            seats=data["seats"],
            mgs=tuple(k for k in f.MACHINE_GUNS if k in data["mgs"]),
            flamethrower=data["flamethrower"],
            napalm=data["napalm"] or 0,
            smoke=data["smoke"] or 0,
            specialisations=tuple(k for k in f.SPECIALISATIONS if k in data["specialisations"]),
            crew=crew,
        )


class SoldierForm(StorableTextMixin, forms.Form):
    key = OnceKeyField()
    name = _name("Soldier's name")
    rank = forms.ChoiceField(
        label="Rank",
        choices=list(f.RANKS.items()),
        error_messages={"invalid_choice": "A soldier, a commander or an officer."},
    )

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("auto_id", "soldier-%s")  # the editor's rename form has a name field
        super().__init__(*args, **kwargs)
