"""Small things a Heavy Gear player notices in the builder and the datacard form: the tab's
title after a rename, names that cannot turn backwards, an empty roster that is not "Legal",
and figures typed on a phone."""

from __future__ import annotations

from html import unescape

import pytest
from django.urls import reverse

from armies.models import DataPack, Roster
from tests.factories import make_roster

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
BACKWARDS = "Ice\u202eyxalaG"


def test_a_rename_gives_the_tab_its_new_title(client, player):
    roster = make_roster(player)
    url = reverse("armies:roster-rename", args=[roster.pk])
    response = client.post(url, {"name": "Ice Wall"}, **HTMX)
    assert "<title>Ice Wall · Blitz</title>" in response.content.decode()
    page = client.get(reverse("armies:roster-edit", args=[roster.pk])).content.decode()
    assert "<title>Ice Wall · Blitz</title>" in page


@pytest.mark.parametrize("control", ["\u202e", "\u202a", "\u2066", "\u2069"])
def test_a_direction_control_in_a_roster_name_is_refused_in_words(client, player, control):
    roster = make_roster(player)
    url = reverse("armies:roster-rename", args=[roster.pk])
    response = client.post(url, {"name": f"Ice{control}Wall"}, **HTMX)
    assert "U+202E that turns text backwards" in unescape(response.content.decode())
    assert Roster.objects.get(pk=roster.pk).name == roster.name


def test_a_direction_control_in_a_pack_name_is_refused_and_right_to_left_names_are_kept(
    client, player
):
    response = client.post(reverse("datacard-pack-create"), {"name": BACKWARDS, "key": "b" * 12})
    assert response.status_code == 200
    assert "turns text backwards" in unescape(response.content.decode())
    assert not DataPack.objects.exists()
    client.post(reverse("datacard-pack-create"), {"name": "בטאות שלי", "key": "h" * 12})
    assert DataPack.objects.get().name == "בטאות שלי"


def test_an_imported_roster_with_a_direction_control_is_refused(client, player):
    roster = make_roster(player)
    exported = client.get(reverse("armies:roster-export-json", args=[roster.pk])).content
    text = exported.decode().replace(roster.name, "\\u202e" + roster.name, 1)
    response = client.post(reverse("armies:roster-import"), {"text": text, "key": "m" * 12})
    assert "turns text backwards" in unescape(response.content.decode())
    assert Roster.objects.count() == 1


def test_an_empty_roster_says_empty_not_legal(client, player):
    response = client.post(
        reverse("armies:roster-create"), {"start": "faction:north", "key": "e" * 12}
    )
    roster = Roster.objects.get(pk=response["Location"].rstrip("/").split("/")[-1])
    editor = client.get(reverse("armies:roster-edit", args=[roster.pk])).content.decode()
    assert "Empty: no combat groups yet" in editor and ">Legal<" not in editor
    listing = client.get(reverse("armies:roster-list")).content.decode()
    assert "Empty: no combat groups yet" in listing
    cards = client.get(reverse("armies:roster-cards", args=[roster.pk])).content.decode()
    assert "Empty: no combat groups yet" in cards
    text = client.get(reverse("armies:roster-export-md", args=[roster.pk])).content.decode()
    assert "Empty: no combat groups yet." in text and "Legal for" not in text
    full = make_roster(player)
    assert ">Legal<" in client.get(reverse("armies:roster-edit", args=[full.pk])).content.decode()


def figures_page(client, kind="models", entry="jaguar") -> tuple[DataPack, str]:
    client.post(reverse("datacard-pack-create"), {"name": "Mine", "key": "f" * 12})
    pack = DataPack.objects.get()
    return pack, client.get(reverse("datacard-edit", args=[pack.pk, kind, entry])).content.decode()


def test_the_figures_form_leaves_refusals_to_its_own_sentences(client, player):
    pack, html = figures_page(client)
    assert "novalidate" in html and "pattern=" not in html
    url = reverse("datacard-edit", args=[pack.pk, "models", "jaguar"])
    response = client.post(url, {"armor": "seven"})
    field = unescape(response.content.decode()).split('id="id_armor"', 1)[1]
    assert 'aria-invalid="true"' in response.content.decode()
    assert "Armor must be a whole number, like 7." in field.split("</div>", 1)[0]


def test_a_figure_that_can_be_negative_gets_a_keyboard_with_a_minus_sign(client, player):
    pack, html = figures_page(client, "weapons", "LAC")
    accuracy = html.split('id="id_accuracy"', 1)[0].rsplit("<input", 1)[1]
    assert "inputmode" not in accuracy  # iPhone's numeric keypad has no minus sign
    short = html.split('id="id_ranges__short"', 1)[0].rsplit("<input", 1)[1]
    assert 'inputmode="numeric"' in short
    url = reverse("datacard-edit", args=[pack.pk, "weapons", "LAC"])
    assert client.post(url, {"accuracy": "\u22121"}).status_code == 302  # a typographic minus
    assert DataPack.objects.get().figures["weapons"]["LAC"]["accuracy"] == -1
