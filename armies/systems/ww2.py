"""The WWII skirmish fragment: a force of vehicles (with their crews) and infantry, checked
against what the rules text states. The text names costs but gives none, so a force has no
points; it gives no unit profiles, so classes are entered from the players' own cards."""

from __future__ import annotations

from django import forms
from django.http import HttpRequest
from django.urls import reverse

from armies.models import Owner, Roster
from armies.systems.base import Builder, ListItem, Templates, form_key, share_url
from armies.ww2 import services
from armies.ww2.forms import ForceCreateForm, SoldierForm
from armies.ww2.presenters import RULES_NOTE, force_markdown, force_view
from blitz_site.systems import WW2


class Ww2(Builder):
    system = WW2
    urls = "armies.ww2.urls"
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
        return services.force_create(
            owner=owner, name=form.cleaned_data["name"], key=form.cleaned_data["key"]
        )

    def list_item(self, roster: Roster) -> ListItem:
        return ListItem(
            roster, self.templates.list_line, force_view(roster), self.system.short_name, 0
        )

    def editor_context(self, request: HttpRequest, roster: Roster, **extra) -> dict:
        return {
            "view": force_view(roster),
            "roster": roster,
            "rules_note": RULES_NOTE,
            "share_url": share_url(request, roster),
            "play_url": self.play_url(roster),
            "key": form_key,
            "soldier_form": SoldierForm(),
            **extra,
        }

    def cards_context(self, request: HttpRequest, roster: Roster) -> dict:
        return {"view": force_view(roster), "roster": roster, "rules_note": RULES_NOTE}

    def shared_context(self, request: HttpRequest, roster: Roster) -> dict:
        return {
            "view": force_view(roster),
            "rules_note": RULES_NOTE,
            "play_against_url": self.play_against_url(roster),
        }

    def copy_fields(self, roster: Roster, name: str) -> dict:
        return services.copy_fields(roster, name)

    def markdown(self, roster: Roster) -> str:
        return force_markdown(roster, RULES_NOTE, self.system.name)

    def export(self, roster: Roster) -> dict:
        view = force_view(roster)
        return {
            "data": {"rules": self.system.name},
            "summary": {
                "vehicles": [f"{v.name} ({v.kind_label})" for v in view.vehicles],
                "infantry": [f"{s.name} ({s.rank_label})" for s in view.infantry],
                "note": RULES_NOTE,
            },
            "roster": {
                "name": roster.name,
                **(roster.army if isinstance(roster.army, dict) else {}),
            },
        }

    def import_fields(self, roster_data, *, importer: str) -> dict:
        return services.import_fields(roster_data, importer=importer)


BUILDER = Ww2()
