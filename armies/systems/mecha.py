"""Mecha attacks (rules fragment): a force of units and their weapons, every figure typed in by
the players. The text gives no unit or weapon profiles and no costs, so Blitz checks only what it
states: how each weapon may be carried and combined."""

from __future__ import annotations

from django import forms
from django.http import HttpRequest
from django.urls import reverse

from armies.mecha import services
from armies.mecha.forms import ForceCreateForm
from armies.mecha.presenters import markdown, unit_cards
from armies.models import Owner, Roster
from armies.systems.base import Builder, ListItem, Templates, form_key, share_url
from blitz_site.systems import MECHA
from rules.mecha import cards

RULES_NOTE = (
    "The mecha attack rules give no unit or weapon profiles, no costs and no hit roll, so every "
    "figure here is yours; Blitz checks only what the text states about carrying and combining "
    "weapons."
)


class Mecha(Builder):
    system = MECHA
    urls = "armies.mecha.urls"
    templates = Templates(
        new_roster="armies/_new_roster_mecha.html",
        list_line="armies/_roster_line_mecha.html",
        editor="armies/mecha_edit.html",
        cards="armies/mecha_cards.html",
        shared="armies/mecha_shared.html",
    )

    def create_form(self, data=None) -> forms.Form:
        return ForceCreateForm(data)

    def create(self, *, owner: Owner, form: forms.Form) -> Roster:
        return services.force_create(
            owner=owner, name=form.cleaned_data["name"], key=form.cleaned_data["key"]
        )

    def list_item(self, roster: Roster) -> ListItem:
        view = {"units": len(services.read(roster).units)}
        return ListItem(roster, self.templates.list_line, view, self.system.short_name, 0)

    def editor_context(self, request: HttpRequest, roster: Roster, **extra) -> dict:
        return {
            "roster": roster,
            "units": unit_cards(services.read(roster)),
            "rules_note": RULES_NOTE,
            "share_url": share_url(request, roster),
            "play_url": self.play_url(roster),
            "key": form_key,
            **extra,
        }

    def cards_context(self, request: HttpRequest, roster: Roster) -> dict:
        return {"roster": roster, "units": unit_cards(services.read(roster))}

    def shared_context(self, request: HttpRequest, roster: Roster) -> dict:
        return {
            "units": unit_cards(services.read(roster)),
            "play_against_url": self.play_against_url(roster),
        }

    def play_url(self, roster: Roster) -> str:
        """The mecha match start (the tracker's), once the force has a unit to play."""
        playable = bool(services.read(roster).units)
        return f"{reverse('matches:mecha-new')}?roster={roster.pk}" if playable else ""

    def copy_fields(self, roster: Roster, name: str) -> dict:
        return services.copy_fields(roster, name)

    def markdown(self, roster: Roster) -> str:
        return markdown(roster.name, self.system.name, services.read(roster))

    def export(self, roster: Roster) -> dict:
        force = services.read(roster)
        return {
            "data": {"rules": self.system.name},
            "summary": {"units": [unit.name for unit in force.units], "note": RULES_NOTE},
            "roster": {"name": roster.name, **cards.force_to_dict(force)},
        }

    def import_fields(self, roster_data, *, importer: str) -> dict:
        return services.import_fields(roster_data, importer=importer)


BUILDER = Mecha()
