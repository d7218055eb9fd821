"""The WWII skirmish fragment: a force of vehicles (with their crews) and infantry, checked
against what the rules text states. The text names costs but gives none, so a force has no
points."""

from __future__ import annotations

from django import forms
from django.http import HttpRequest
from django.urls import reverse

from armies import services
from armies.models import Owner, Roster
from armies.systems.base import Builder, ListItem, Templates, form_key, share_url
from blitz_site.once import OnceKeyField
from blitz_site.systems import WW2
from blitz_site.text import StorableTextMixin

RULES_NOTE = (
    "The rules text names costs but gives none, so a force has no points. It gives no unit "
    "profiles either: armour and gun classes are entered from your own cards."
)
DEFAULT_NAME = "WWII force"


class ForceCreateForm(StorableTextMixin, forms.Form):
    name = forms.CharField(label="Name (optional)", max_length=80, required=False)
    key = OnceKeyField()


def _army(roster: Roster) -> dict:
    army = roster.army if isinstance(roster.army, dict) else {}
    return {
        "vehicles": list(army.get("vehicles") or []),
        "infantry": list(army.get("infantry") or []),
    }


class Ww2(Builder):
    system = WW2
    templates = Templates(
        new_roster="armies/_new_roster_ww2.html",
        list_line="armies/_roster_line_ww2.html",
        editor="armies/ww2_edit.html",
        cards="armies/ww2_cards.html",
        shared="armies/ww2_shared.html",
    )

    def play_url(self, roster: Roster) -> str:
        """The WWII skirmish match start, with this force picked."""
        return f"{reverse('matches:ww2-new')}?roster={roster.pk}"

    def create_form(self, data=None) -> forms.Form:
        return ForceCreateForm(data)

    def create(self, *, owner: Owner, form: forms.Form) -> Roster:
        if first := services.created_with(owner, form.cleaned_data["key"]):
            return first
        name = services.clean_name(form.cleaned_data["name"] or DEFAULT_NAME)
        return services.new_roster(
            owner,
            key=form.cleaned_data["key"],
            system=WW2.id,
            army={"vehicles": [], "infantry": []},
            name=name,
            faction="",
            data_fingerprint="",
        )

    def list_item(self, roster: Roster) -> ListItem:
        return ListItem(roster, self.templates.list_line, _army(roster), self.system.short_name, 0)

    def editor_context(self, request: HttpRequest, roster: Roster) -> dict:
        return {
            "roster": roster,
            "force": _army(roster),
            "rules_note": RULES_NOTE,
            "share_url": share_url(request, roster),
            "play_url": self.play_url(roster),
            "key": form_key,
        }

    def cards_context(self, request: HttpRequest, roster: Roster) -> dict:
        return {"roster": roster, "force": _army(roster), "rules_note": RULES_NOTE}

    def shared_context(self, request: HttpRequest, roster: Roster) -> dict:
        return {"force": _army(roster), "rules_note": RULES_NOTE}

    def copy_fields(self, roster: Roster, name: str) -> dict:
        return {"system": WW2.id, "army": _army(roster), "name": name, "faction": ""}

    def markdown(self, roster: Roster) -> str:
        return f"# {roster.name}\n\n**{WW2.name}**\n\n_{RULES_NOTE}_\n"

    def export(self, roster: Roster) -> dict:
        return {
            "data": {"rules": WW2.name},
            "summary": {"note": RULES_NOTE},
            "roster": _army(roster),
        }

    def import_fields(self, roster_data, *, importer: str) -> dict:
        if not isinstance(roster_data, dict):
            raise services.RosterError("This file can't be imported: its force is not readable.")
        army = {
            "vehicles": list(roster_data.get("vehicles") or []),
            "infantry": list(roster_data.get("infantry") or []),
        }
        return {"system": WW2.id, "army": army, "name": "Imported WWII force", "faction": ""}


BUILDER = Ww2()
