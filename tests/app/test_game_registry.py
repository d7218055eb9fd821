"""A game is known by the registries alone: a third game patched into ``blitz_site.systems``
and ``armies.systems`` is offered for new rosters and stored without a migration; a game id
neither registry knows is refused."""

from __future__ import annotations

from types import ModuleType
from unittest import mock

import pytest
from django import forms
from django.core.exceptions import ValidationError
from django.template import Template
from django.urls import reverse

from armies import services
from armies import systems as builders
from armies.models import DataPack, Owner, Roster
from armies.systems.base import Builder, ListItem, Templates
from blitz_site import systems
from blitz_site.once import OnceKeyField

pytestmark = pytest.mark.django_db

LIST = reverse("armies:roster-list")
NEW = reverse("armies:roster-create")

SKIRMISH = systems.GameSystem(
    id="skirmish",
    name="Skirmish (a test game)",
    short_name="Skirmish",
    rules=ModuleType("skirmish_rules"),
    blurb="A game the registries know for one test.",
)


BAND = {
    "system": SKIRMISH.id,
    "army": {"members": []},
    "faction": "raiders",
    "data_fingerprint": "1",
}


class BandForm(forms.Form):
    name = forms.CharField(label="Band name", max_length=80)
    key = OnceKeyField()


class SkirmishBuilder(Builder):
    """Only what My rosters needs: no editor of its own, no tracker, no datacard library."""

    system = SKIRMISH
    templates = Templates(
        new_roster="registration/_form.html",
        list_line=Template("<p class=band>{{ view }}</p>"),  # type: ignore[arg-type]
        editor="",
        cards="",
        shared="",
    )

    def create_form(self, data=None) -> forms.Form:
        return BandForm(data)

    def create(self, *, owner: Owner, form: forms.Form) -> Roster:
        name = services.clean_name(form.cleaned_data["name"])
        return services.new_roster(owner, key=form.cleaned_data["key"], name=name, **BAND)

    def list_item(self, roster: Roster) -> ListItem:
        return ListItem(roster, self.templates.list_line, "a band of the test game", "", 0)


@pytest.fixture
def third_game():
    with (
        mock.patch.dict(systems.SYSTEMS, {SKIRMISH.id: SKIRMISH}),
        mock.patch.dict(builders.BUILDERS, {SKIRMISH.id: SkirmishBuilder()}),
    ):
        yield


def test_a_game_in_the_registries_is_offered_for_a_new_roster(client, player, third_game):
    html = client.get(LIST).content.decode()
    assert 'href="?game=skirmish#new-roster">Skirmish</a>' in html
    html = client.get(LIST, {"game": "skirmish"}).content.decode()
    assert '<input type="hidden" name="system" value="skirmish">' in html
    assert "Band name" in html


def test_a_roster_of_a_registered_game_is_stored_without_a_migration(client, player, third_game):
    response = client.post(NEW, {"system": "skirmish", "name": "The  raiders"})
    roster = Roster.objects.get(owner=player)
    assert response.status_code == 302
    assert response["Location"] == reverse("armies:roster-edit", args=[roster.pk])
    assert (roster.system, roster.name) == ("skirmish", "The raiders")
    roster.full_clean()  # the column's check asks the registry: no choices, no migration
    assert "<p class=band>a band of the test game</p>" in client.get(LIST).content.decode()


def test_a_game_neither_registry_knows_is_refused(client, player, third_game):
    response = client.post(NEW, {"system": "chess", "name": "Pawns"})
    assert response.status_code == 400
    assert "Choose one of the games offered" in response.content.decode()
    assert not Roster.objects.exists()
    with pytest.raises(ValidationError) as refused:
        Roster(owner=player, name="Pawns", **{**BAND, "system": "chess"}).full_clean()
    assert refused.value.message_dict["system"] == ["Blitz does not know the game “chess”."]


def test_once_the_game_leaves_the_registry_its_id_is_refused(player):
    roster = Roster(owner=player, name="Raiders", **BAND)
    with pytest.raises(ValidationError) as refused:
        roster.full_clean()
    assert list(refused.value.message_dict) == ["system"]
    roster.system = "killteam"
    roster.full_clean()


def test_a_game_without_a_datacard_library_is_not_offered_one(client, player, third_game):
    html = client.get(reverse("datacards")).content.decode()
    assert "Kill Team (2024)</option>" in html
    assert "skirmish" not in html
    response = client.post(reverse("datacard-pack-create"), {"system": "skirmish", "name": "X"})
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert not DataPack.objects.exists()


def test_the_match_list_offers_a_start_for_each_game_with_a_tracker(client, player, third_game):
    html = client.get(reverse("matches:match-list")).content.decode()
    assert f'href="{reverse("matches:match-new")}">Start a Heavy Gear Blitz match</a>' in html
    assert f'href="{reverse("matches:kt-new")}">Start a Kill Team match</a>' in html
    assert "Skirmish" not in html
