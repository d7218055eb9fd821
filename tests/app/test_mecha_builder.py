"""Mecha forces: creating one, typing unit and weapon cards (each refusal of the rules text a
form error next to its field, nothing typed lost), removing asks first, others' forces 404, and
the shared roster pages (print, copy, share, export and import) working for it."""

from __future__ import annotations

import copy
import json
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from armies.models import Roster
from blitz_site.systems import MECHA
from tests.factories import MECHA_FORCE, make_force, make_user

pytestmark = pytest.mark.django_db


def page(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return unescape(response.content.decode())


def units(roster) -> list[dict]:
    roster.refresh_from_db()
    return roster.army["units"]


def unit_post(**changes) -> dict:
    return {"name": "Gouf", "kind": "mobile_suit", "strength": "4", "size_class": "3",
            "key": "unit-form-0001", **changes}  # fmt: skip


def weapon_post(**changes) -> dict:
    return {"name": "Heat sword", "type": "melee", "fix": "1_handed", "range": "0",
            "damage_count": "2", "damage_die": "6", "key": "weapon-form-01", **changes}  # fmt: skip


def test_a_new_mecha_force_is_empty_and_its_editor_links_the_rules_page(client, player):
    response = client.post(
        reverse("armies:roster-create"), {"system": "mecha", "name": "Zeon", "key": "k" * 12}
    )
    roster = Roster.objects.get(name="Zeon")
    assert roster.system == MECHA.id and roster.army == {"units": []}
    assert response["Location"] == reverse("armies:roster-edit", args=[roster.pk])
    html = page(client, response["Location"])
    assert "No units yet." in html and reverse("armies:mecha-rules") in html


def test_typing_a_unit_and_a_weapon_shows_them_on_the_card(client, player):
    roster = make_force(player, document={"name": "Empty", "units": []})
    response = client.post(reverse("armies:mecha-unit-new", args=[roster.pk]), unit_post())
    assert response.status_code == 302
    [gouf] = units(roster)
    assert (gouf["id"], gouf["strength"], gouf["armour"], gouf["hands"]) == ("u1", 4, None, None)
    url = reverse("armies:mecha-weapon-new", args=[roster.pk, "u1"])
    assert client.post(url, weapon_post()).status_code == 302
    html = page(client, reverse("armies:roster-edit", args=[roster.pk]))
    assert "Heat sword" in html and "Damage 2D6" in html and "Hands</dt>" in html
    assert "the text's default" in html and "not in the rules text" in html


def test_a_double_submit_adds_the_unit_once(client, player):
    roster = make_force(player, document={"name": "Empty", "units": []})
    for _ in range(2):
        client.post(reverse("armies:mecha-unit-new", args=[roster.pk]), unit_post())
    assert len(units(roster)) == 1


@pytest.mark.parametrize(
    ("post", "field", "words"),
    [
        (weapon_post(range="6"), "range", "All Melee type weapons have a Range value of 0"),
        (weapon_post(damage_die="8"), "damage_die", "Select a valid choice"),
        (weapon_post(range="x"), "range", "Range (inches) must be a whole number from 0 to 99."),
        (weapon_post(fix="arc", arc=""), "arc", "There are eight different locations"),
        (weapon_post(damage_count="0"), "damage_count", "Damage is 1 to 20 dice."),
    ],
)
def test_a_weapon_the_text_rules_out_is_a_form_error_and_nothing_typed_is_lost(
    client, player, post, field, words
):
    roster = make_force(player)
    response = client.post(reverse("armies:mecha-weapon-new", args=[roster.pk, "u1"]), post)
    assert response.status_code == 200
    assert words in response.context["form"].errors[field][0]
    assert 'value="Heat sword"' in response.content.decode()
    assert len(units(roster)[0]["weapons"]) == 2


def test_a_hand_held_weapon_on_a_unit_without_arms_is_refused_with_the_texts_sentence(
    client, player
):
    roster = make_force(player)
    tank = unit_post(name="Magella", kind="other", kind_name="Tank", key="unit-form-0002")
    client.post(reverse("armies:mecha-unit-new", args=[roster.pk]), tank)
    url = reverse("armies:mecha-weapon-new", args=[roster.pk, "u3"])
    response = client.post(url, weapon_post(type="range", range="24", fix="2_handed"))
    assert (
        "other units with arms have hand held weapons" in response.context["form"].errors["fix"][0]
    )
    response = client.post(url, weapon_post(type="range", range="24", fix="turret"))
    assert response.status_code == 302 and units(roster)[2]["weapons"][0]["fix"] == "turret"


def test_a_unit_of_another_kind_needs_its_kinds_name(client, player):
    roster = make_force(player)
    response = client.post(
        reverse("armies:mecha-unit-new", args=[roster.pk]), unit_post(kind="other")
    )
    assert response.context["form"].errors["kind_name"] == ["Name the unit's kind."]


def test_editing_a_unit_keeps_its_id_and_weapons(client, player):
    roster = make_force(player)
    url = reverse("armies:mecha-unit-edit", args=[roster.pk, "u1"])
    assert 'value="Zaku"' in page(client, url)
    client.post(url, unit_post(name="Zaku II", armour="5"))
    zaku = units(roster)[0]
    assert (zaku["id"], zaku["name"], zaku["armour"], len(zaku["weapons"])) == (
        "u1",
        "Zaku II",
        5,
        2,
    )


def test_removing_a_unit_asks_first_and_applies_once(client, player):
    roster = make_force(player)
    url = reverse("armies:mecha-unit-remove", args=[roster.pk, "u1"])
    assert "Remove Zaku and its weapons?" in page(client, url)
    assert len(units(roster)) == 2
    for _ in range(2):
        response = client.post(url, {"key": "remove-key-01"})
        assert response.status_code == 302
    assert [u["name"] for u in units(roster)] == ["Trooper"]


def test_removing_a_weapon_asks_first(client, player):
    roster = make_force(player)
    url = reverse("armies:mecha-weapon-remove", args=[roster.pk, "u1", "u1w2"])
    assert "Remove Heat hawk from Zaku?" in page(client, url)
    client.post(url, {"key": "remove-key-02"})
    assert [w["name"] for w in units(roster)[0]["weapons"]] == ["Machine gun"]


@pytest.mark.parametrize(
    "name",
    ["armies:mecha-unit-edit", "armies:mecha-unit-remove", "armies:mecha-weapon-new"],
)
def test_another_players_force_and_a_wrong_unit_are_404(client, player, name):
    theirs = make_force(make_user("ben"))
    mine = make_force(player)
    assert client.get(reverse(name, args=[theirs.pk, "u1"])).status_code == 404
    assert client.post(reverse(name, args=[theirs.pk, "u1"]), unit_post()).status_code == 404
    assert client.get(reverse(name, args=[mine.pk, "u9"])).status_code == 404
    assert len(units(theirs)) == 2


def test_a_wrong_weapon_is_404(client, player):
    roster = make_force(player)
    url = reverse("armies:mecha-weapon-edit", args=[roster.pk, "u1", "u2w1"])
    assert client.get(url).status_code == 404


def test_the_unit_form_works_with_csrf_enforced(player):
    roster = make_force(player)
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(player)
    url = reverse("armies:mecha-unit-new", args=[roster.pk])
    assert strict.post(url, unit_post()).status_code == 403
    token = strict.get(url).cookies["csrftoken"].value
    assert strict.post(url, {**unit_post(), "csrfmiddlewaretoken": token}).status_code == 302


def test_the_rules_page_lists_what_the_text_gives_and_the_two_ram_readings(client):
    html = page(client, reverse("armies:mecha-rules"))
    assert "Not given" in html and "any hit roll" in html
    assert "can be read two ways" in html and "the text does not decide" in html


def test_the_range_0_flag_shows_on_the_card(client, player):
    document = copy.deepcopy(MECHA_FORCE)
    document["units"][0]["weapons"][0]["range"] = 0
    roster = make_force(player, document=document)
    assert "cannot be used in range based attacks" in page(
        client, reverse("armies:roster-edit", args=[roster.pk])
    )


def test_the_export_imports_back_as_the_same_force(client, player):
    roster = make_force(player)
    document = json.loads(
        client.get(reverse("armies:roster-export-json", args=[roster.pk])).content
    )
    assert document["system"] == "mecha" and document["summary"]["units"] == ["Zaku", "Trooper"]
    response = client.post(
        reverse("armies:roster-import"), {"text": json.dumps(document), "key": "i" * 12}
    )
    imported = Roster.objects.exclude(pk=roster.pk).get()
    assert response["Location"] == reverse("armies:roster-edit", args=[imported.pk])
    assert imported.system == "mecha" and imported.name == "Zeon patrol"
    assert imported.army == roster.army


def test_a_broken_file_names_entry_and_field_and_stores_nothing(client, player):
    roster = make_force(player)
    document = json.loads(
        client.get(reverse("armies:roster-export-json", args=[roster.pk])).content
    )
    document["roster"]["units"][0]["weapons"][1]["range"] = 3
    response = client.post(
        reverse("armies:roster-import"), {"text": json.dumps(document), "key": "i" * 12}
    )
    text = unescape(response.content.decode())
    assert "Unit 1 (“Zaku”), weapon 2 (“Heat hawk”)" in text and "Range value of 0" in text
    assert Roster.objects.count() == 1


def test_the_share_page_copy_text_print_and_duplicate_work(client, player):
    roster = make_force(player)
    client.post(reverse("armies:roster-share-new", args=[roster.pk]))
    roster.refresh_from_db()
    shared = page(Client(), reverse("roster-shared", args=[roster.share_slug]))
    assert "Zaku" in shared and "Heat hawk" in shared and "Edit unit" not in shared
    text = page(client, reverse("armies:roster-export-md", args=[roster.pk]))
    assert "**Zaku** (Mobile Suit)" in text and 'Heat hawk (Melee): Range 0"' in text
    assert "Machine gun" in page(client, reverse("armies:roster-cards", args=[roster.pk]))
    client.post(reverse("armies:roster-duplicate", args=[roster.pk]), {"key": "d" * 12})
    copied = Roster.objects.exclude(pk=roster.pk).get()
    assert copied.army == roster.army and copied.system == "mecha"


def test_a_unit_edit_that_strands_a_weapon_names_the_weapon_above_the_form(client, player):
    roster = make_force(player)
    url = reverse("armies:mecha-unit-edit", args=[roster.pk, "u1"])
    response = client.post(url, unit_post(name="Zaku", hands="0"))
    errors = response.context["form"].non_field_errors()
    assert "Weapon 1 (“Machine gun”)" in errors[0] and "no hands" in errors[0]
    assert units(roster)[0]["hands"] is None
