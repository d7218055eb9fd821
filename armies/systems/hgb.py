"""Heavy Gear Blitz! Locked & Loaded: its rosters as ``armies`` has always built them.

Everything here was the only way before there were two games; this module only says so to the
generic pages (My rosters, the editor's URL, datacards and print, share, copies, exports).
"""

from __future__ import annotations

from django import forms
from django.http import HttpRequest
from django.urls import reverse

from armies import packs
from armies.hgb import editor, exports, services
from armies.hgb import packs as hgb_packs
from armies.hgb.forms import CreateForm
from armies.hgb.presenters import entry_rows, roster_view
from armies.models import DataPack, Owner, Roster
from armies.owners import request_owner
from armies.systems.base import Builder, ListItem, Templates
from blitz_site.systems import HGB
from rules.hgb.glossary import glossary


class HeavyGearBlitz(Builder):
    system = HGB
    urls = "armies.hgb.urls"
    templates = Templates(
        new_roster="armies/_new_roster_hgb.html",
        list_line="armies/_roster_line_hgb.html",
        editor="armies/roster_edit.html",
        cards="armies/roster_cards.html",
        shared="armies/roster_shared.html",
        library="armies/_datacard_tables.html",
        library_notice="armies/_datacard_notice_hgb.html",
    )

    def create_form(self, data=None) -> forms.Form:
        return CreateForm(data)

    def create(self, *, owner: Owner, form: forms.Form) -> Roster:
        kind, _, value = form.cleaned_data["start"].partition(":")
        return services.roster_create(
            owner=owner,
            preset=value if kind == "preset" else "",
            faction=value if kind == "faction" else "",
            name=form.cleaned_data["name"],
            key=form.cleaned_data["key"],
        )

    def list_item(self, roster: Roster) -> ListItem:
        view = roster_view(roster, figures=False)
        return ListItem(roster, self.templates.list_line, view, view.faction_name, view.total)

    def editor_context(self, request: HttpRequest, roster: Roster) -> dict:
        return editor.editor_context(request, roster)

    def cards_context(self, request: HttpRequest, roster: Roster) -> dict:
        return {
            "view": roster_view(roster),
            "roster": roster,
            "glossary": glossary(),
            "packs": packs.library(request_owner(request), HGB),
        }

    def shared_context(self, request: HttpRequest, roster: Roster) -> dict:
        return {"view": roster_view(roster), "play_against_url": self.play_against_url(roster)}

    def play_url(self, roster: Roster) -> str:
        return editor.play_url(roster)

    def play_against_url(self, roster: Roster) -> str:
        return editor.play_against_url(roster)

    def copy_fields(self, roster: Roster, name: str) -> dict:
        return services.copy_fields(roster, name)

    def markdown(self, roster: Roster) -> str:
        return exports.roster_markdown(roster_view(roster))

    def export(self, roster: Roster) -> dict:
        return exports.hgb_export(roster, roster_view(roster))

    def import_fields(self, roster_data, *, importer: str) -> dict:
        # A Heavy Gear roster holds no typed figures (they live in datacard packs, imported
        # on their own): nothing in it claims an author.
        return services.import_fields(roster_data)

    def library_context(self, pack: DataPack | None, *, yours: bool) -> dict:
        return {
            "models": entry_rows("models", pack, yours=yours),
            "weapons": entry_rows("weapons", pack, yours=yours),
        }

    def pack_summary(self, pack: DataPack) -> str:
        count = pack.entry_count
        return (
            f"Figures entered by {pack.entered_by} · {count} model{'' if count == 1 else 's'} "
            f"and weapons with figures · data {pack.data_fingerprint}"
        )

    def pack_fingerprint(self) -> str:
        return hgb_packs.data_fingerprint()

    def pack_export_url(self, pack: DataPack) -> str:
        return reverse("datacard-export", args=[pack.pk])

    pack_file_suffix = ".toml"

    def pack_import(self, **kwargs) -> DataPack:
        return hgb_packs.pack_import(**kwargs)


BUILDER = HeavyGearBlitz()
