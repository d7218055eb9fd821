"""Kill Team (2024): a team of operatives from the profiles players type into their datacard
library, plus its explosive grenades. The core rules give no datacards, no points and no team
selection rules, so Blitz checks only each profile's figures and the grenade pick."""

from __future__ import annotations

from django import forms
from django.http import HttpRequest
from django.urls import reverse

from armies import packs
from armies.killteam import packs as kt_packs
from armies.killteam import services
from armies.killteam.forms import (
    GrenadesForm,
    KitForm,
    OperativeForm,
    PloyForm,
    TeamCreateForm,
    grenade_value,
)
from armies.killteam.presenters import library_rows, team_view
from armies.models import DataPack, Owner, Roster
from armies.owners import request_owner
from armies.systems.base import Builder, ListItem, Templates, form_key, share_url
from blitz_site.systems import KILLTEAM
from rules.killteam import profile as kt
from rules.killteam import team as kteam

RULES_NOTE = (
    "The Kill Team core rules give no datacards, no points and no rules for choosing a team, "
    "so Blitz checks only what they do give: each profile's figures and the pick of explosive "
    "grenades."
)


class KillTeam(Builder):
    system = KILLTEAM
    urls = "armies.killteam.urls"
    templates = Templates(
        new_roster="armies/_new_roster_killteam.html",
        list_line="armies/_roster_line_killteam.html",
        editor="armies/killteam_edit.html",
        cards="armies/killteam_cards.html",
        shared="armies/killteam_shared.html",
        library="armies/_killteam_profiles.html",
        library_notice="armies/_datacard_notice_killteam.html",
    )

    def create_form(self, data=None) -> forms.Form:
        return TeamCreateForm(data)

    def create(self, *, owner: Owner, form: forms.Form) -> Roster:
        return services.team_create(
            owner=owner, name=form.cleaned_data["name"], key=form.cleaned_data["key"]
        )

    def list_item(self, roster: Roster) -> ListItem:
        view = team_view(roster)
        return ListItem(roster, self.templates.list_line, view, self.system.short_name, 0)

    def editor_context(self, request: HttpRequest, roster: Roster, **extra) -> dict:
        view = team_view(roster)
        profiles = services.library_profiles(packs.library(request_owner(request), KILLTEAM))
        grenades = view.team.grenades if view.team else kteam.Grenades()
        return {
            "view": view,
            "roster": roster,
            "rules_note": RULES_NOTE,
            "share_url": share_url(request, roster),
            "play_url": self.play_url(roster),
            "key": form_key,
            "profiles": profiles,
            "operative_form": OperativeForm(profiles=profiles),
            "grenades_form": GrenadesForm(initial={"grenades": grenade_value(grenades)}),
            "ploy_form": PloyForm(),
            "kit_form": KitForm(initial=KitForm.initial_for(view.team)),
            "outdated": services.outdated_operatives(view.team, profiles) if view.team else [],
            **extra,
        }

    def cards_context(self, request: HttpRequest, roster: Roster) -> dict:
        return {"view": team_view(roster), "roster": roster}

    def shared_context(self, request: HttpRequest, roster: Roster) -> dict:
        return {"view": team_view(roster), "play_against_url": self.play_against_url(roster)}

    def play_url(self, roster: Roster) -> str:
        """The Kill Team match start, once the team has an operative to play."""
        return f"{reverse('matches:kt-new')}?roster={roster.pk}" if _playable(roster) else ""

    def play_against_url(self, roster: Roster) -> str:
        if not _playable(roster):
            return ""
        return f"{reverse('matches:kt-new')}?against={roster.share_slug}"

    def copy_fields(self, roster: Roster, name: str) -> dict:
        return services.copy_fields(roster, name)

    def markdown(self, roster: Roster) -> str:
        return team_markdown(roster)

    def export(self, roster: Roster) -> dict:
        view = team_view(roster)
        return {
            "data": {"rules": self.system.name, "fingerprint": roster.data_fingerprint},
            "summary": {
                "operatives": [card.title for card in view.cards],
                "grenades": view.grenades,
                "profiles_entered_by": view.entered_by,
                "note": RULES_NOTE,
            },
            "roster": roster.army,
        }

    def import_fields(self, roster_data, *, importer: str) -> dict:
        return services.import_fields(roster_data, importer=importer)

    def library_context(self, pack: DataPack | None, *, yours: bool) -> dict:
        profiles = services.library_profiles([pack]) if pack else []
        return {"profiles": library_rows(profiles)}

    def pack_fingerprint(self) -> str:
        return kt.data_fingerprint()

    def pack_export_url(self, pack: DataPack) -> str:
        return reverse("datacard-profiles-export", args=[pack.pk])

    pack_file_suffix = ".json"

    def pack_import(self, **kwargs) -> DataPack:
        return kt_packs.pack_import(**kwargs)

    def pack_summary(self, pack: DataPack) -> str:
        count = pack.entry_count
        return (
            f"{self.system.name} profiles entered by {pack.entered_by} · "
            f"{count} profile{'' if count == 1 else 's'}"
        )


def _playable(roster: Roster) -> bool:
    army = roster.army if isinstance(roster.army, dict) else {}
    return bool(army.get("operatives"))


def team_markdown(roster: Roster) -> str:
    view = team_view(roster)
    lines = [f"# {roster.name}", "", f"**{KILLTEAM.name}** · {_count(view.operative_count)}"]
    lines.append("")
    if view.unreadable:
        return "\n".join([*lines, f"_{view.unreadable}_", ""])
    for card in view.cards:
        also = f" ({card.profile.name})" if card.renamed else ""
        lines.append(f"- **{card.title}**{also}: {card.line}")
        for row in card.weapons:
            rules = f"; {row.rules}" if row.weapon.rules else ""
            lines.append(
                f"  - {row.weapon.name} ({row.kind.lower()}): A {row.weapon.attacks}, "
                f"Hit {row.hit}, Dmg {row.damage}{rules}"
            )
    kit = f"; {view.kit}" if view.kit else ""
    lines += ["", f"Equipment: {view.grenades}{kit}."]
    if view.ploys:
        named = ", ".join(f"{p.name} ({p.kind}, {p.cost} CP)" for p in view.ploys)
        lines.append(f"Ploys: {named}.")
    lines.append("")
    who = ", ".join(view.entered_by)
    typed = f"entered by {who}" if who else "typed in by players"
    lines.append(f"_Profiles {typed}, not from the rules text. Built with Blitz._")
    return "\n".join(lines) + "\n"


def _count(operatives: int) -> str:
    return f"{operatives} operative{'' if operatives == 1 else 's'}"


BUILDER = KillTeam()
