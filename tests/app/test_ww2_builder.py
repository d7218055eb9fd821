"""WWII skirmish forces: creating one, adding and editing vehicles and soldiers, every refusal
of the rules text as a form error with what was typed kept, others' rosters out of reach, and
the pages every game shares (print, copy, share, export and import)."""

from __future__ import annotations

import json
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from armies.models import Owner, Roster
from armies.ww2.services import force_create
from blitz_site.systems import WW2
from rules.ww2 import force as f
from tests.factories import make_user

pytestmark = pytest.mark.django_db


WW2_FORCE = {
    "vehicles": [
        {
            "id": "v1",
            "name": "T-34 no. 1",
            "kind": "tank",
            "kind_name": "",
            "armour_class": 4,
            "gun_class": 5,
            "seats": 6,
            "mgs": ["hull", "turret"],
            "flamethrower": True,
            "napalm": 1,
            "smoke": 1,
            "specialisations": ["mine_trawl"],
            "crew": [
                {"id": "v1c1", "name": "Ivanov", "commander": True},
                {"id": "v1c2", "name": "Kuznetsov", "commander": False},
            ],
        },
        {
            "id": "v2",
            "name": "Opel Blitz",
            "kind": "truck",
            "kind_name": "",
            "armour_class": 1,
            "gun_class": None,
            "seats": 10,
            "mgs": [],
            "flamethrower": False,
            "napalm": 0,
            "smoke": 0,
            "specialisations": [],
            "crew": [],
        },
    ],
    "infantry": [
        {"id": "i1", "name": "Petrov", "rank": "soldier"},
        {"id": "i2", "name": "Orlov", "rank": "officer"},
    ],
}


def make_ww2_force(user, *, name: str = "Red force") -> Roster:
    """A WWII skirmish force: a tank with a crew of two, a truck, two soldiers on foot."""
    roster = force_create(owner=Owner(user.pk, None), name=name)
    roster.army = json.loads(json.dumps(WW2_FORCE))
    roster.save()
    return roster


def page(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return unescape(response.content.decode())


def force_of(roster) -> f.Force:
    roster.refresh_from_db()
    return f.read_force(roster.army)


def vehicle_post(**changes) -> dict:
    data = {
        "key": "vehicle-form-0001",
        "name": "T-34 no. 2",
        "kind": "tank",
        "kind_name": "",
        "armour_class": "4",
        "gun_class": "5",
        "seats": "6",
        "mgs": ["hull", "armour"],
        "napalm": "",
        "smoke": "2",
        "crew_1": "Ivanov",
        "commander_1": "on",
        "crew_2": "Popov",
    }
    data.update(changes)
    return {key: value for key, value in data.items() if value is not None}


def test_it_creates_an_empty_force_from_my_rosters(client, player):
    response = client.post(
        reverse("armies:roster-create"), {"system": WW2.id, "name": "Red force", "key": "k" * 12}
    )
    roster = Roster.objects.get(name="Red force")
    assert response.status_code == 302 and roster.system == WW2.id
    assert roster.army == {"vehicles": [], "infantry": []}
    editor = page(client, reverse("armies:roster-edit", args=[roster.pk]))
    assert "a force has no points" in editor and "What these rules give" in editor


def test_it_adds_a_tank_with_its_crew(client, player):
    roster = make_ww2_force(player)
    url = reverse("armies:ww2-vehicle-new", args=[roster.pk])
    assert "Add a vehicle" in page(client, url)
    response = client.post(url, vehicle_post())
    assert response.status_code == 302
    tank = force_of(roster).vehicle("v3")
    assert (tank.name, tank.mgs, tank.smoke) == ("T-34 no. 2", ("hull", "armour"), 2)
    assert [(m.id, m.name, m.commander) for m in tank.crew] == [
        ("v3c1", "Ivanov", True),
        ("v3c2", "Popov", False),
    ]
    editor = page(client, reverse("armies:roster-edit", args=[roster.pk]))
    assert "Crew: Ivanov (commander), Popov" in editor
    assert "The MG on the armour fires only with at least 1 rider aboard." in editor


def test_a_resent_add_vehicle_form_adds_once(client, player):
    roster = make_ww2_force(player)
    url = reverse("armies:ww2-vehicle-new", args=[roster.pk])
    client.post(url, vehicle_post())
    client.post(url, vehicle_post())
    assert len(force_of(roster).vehicles) == 3


@pytest.mark.parametrize(
    ("changes", "field", "sentence"),
    [
        (
            {"kind": "truck", "seats": "20", "specialisations": []},
            "seats",
            "a truck has 4–16 seats",
        ),
        (
            {"kind": "truck", "seats": "8", "specialisations": ["mine_trawl"]},
            "specialisations",
            "a mine trawl goes on a tank only",
        ),
        (
            {"armour_class": "1", "specialisations": ["active_armour"]},
            "specialisations",
            "active armour goes on armour classes 2–6 only",
        ),
        (
            {"armour_class": "7", "specialisations": ["active_armour"]},
            "specialisations",
            "active armour goes on armour classes 2–6 only",
        ),
        ({"armour_class": "four"}, "armour_class", "Armour class: a whole number"),
        ({"seats": "٣"}, "seats", "Seats: a whole number"),
        ({"kind": "other"}, "kind_name", "name its kind"),
        ({"crew_3": "", "commander_3": "on"}, "crew_3", "marked commander: name him"),
    ],
)
def test_each_refusal_is_a_form_error_beside_its_field_with_the_typing_kept(
    client, player, changes, field, sentence
):
    roster = make_ww2_force(player)
    response = client.post(
        reverse("armies:ww2-vehicle-new", args=[roster.pk]), vehicle_post(**changes)
    )
    assert response.status_code == 200
    assert sentence in " ".join(response.context["form"].errors[field])
    html = unescape(response.content.decode())
    assert sentence in html and 'value="T-34 no. 2"' in html and 'value="Popov"' in html
    assert len(force_of(roster).vehicles) == 2


def test_a_crew_of_six_is_refused_by_name_on_import(client, player):
    crew = [{"id": f"v1c{n}", "name": f"Crewman {n}", "commander": False} for n in range(1, 7)]
    data = json.loads(json.dumps(WW2_FORCE))
    data["vehicles"][0]["crew"] = crew
    response = import_file(client, {"format": "blitz-roster/2", "system": WW2.id, "roster": data})
    text = unescape(response.content.decode())
    assert "“T-34 no. 1” (tank): a crew is 1–5 soldiers" in text and "it has 6" in text
    assert not Roster.objects.filter(owner=player).exists()


def test_it_edits_a_vehicle_keeping_its_id_and_crew_ids(client, player):
    roster = make_ww2_force(player)
    url = reverse("armies:ww2-vehicle-edit", args=[roster.pk, "v1"])
    assert 'value="Ivanov"' in page(client, url)
    response = client.post(url, vehicle_post(name="T-34 renamed", crew_2="Kuznetsov"))
    assert response.status_code == 302
    tank = force_of(roster).vehicle("v1")
    assert tank.name == "T-34 renamed" and [m.id for m in tank.crew] == ["v1c1", "v1c2"]


def test_removing_asks_first_then_removes(client, player):
    roster = make_ww2_force(player)
    editor = page(client, reverse("armies:roster-edit", args=[roster.pk]))
    assert "Remove Opel Blitz and its crew" in editor  # inside a "Remove" that opens first
    client.post(reverse("armies:ww2-vehicle-remove", args=[roster.pk, "v2"]))
    client.post(reverse("armies:ww2-vehicle-remove", args=[roster.pk, "v2"]))  # a second tap
    assert [v.id for v in force_of(roster).vehicles] == ["v1"]
    client.post(reverse("armies:ww2-soldier-remove", args=[roster.pk, "i1"]))
    assert [s.id for s in force_of(roster).infantry] == ["i2"]


def test_it_adds_and_edits_soldiers(client, player):
    roster = make_ww2_force(player)
    url = reverse("armies:ww2-soldier-add", args=[roster.pk])
    client.post(url, {"key": "soldier-form-001", "name": "Sidorov", "rank": "commander"})
    client.post(url, {"key": "soldier-form-001", "name": "Sidorov", "rank": "commander"})
    assert [(s.id, s.name, s.rank) for s in force_of(roster).infantry][-1] == (
        "i3",
        "Sidorov",
        "commander",
    )
    assert len(force_of(roster).infantry) == 3
    edit = reverse("armies:ww2-soldier-edit", args=[roster.pk, "i3"])
    assert 'value="Sidorov"' in page(client, edit)
    client.post(edit, {"name": "Sidorov", "rank": "officer"})
    assert force_of(roster).soldier("i3").rank == "officer"


def test_a_refused_soldier_keeps_the_typing(client, player):
    roster = make_ww2_force(player)
    response = client.post(
        reverse("armies:ww2-soldier-add", args=[roster.pk]), {"name": "Sidorov", "rank": "general"}
    )
    assert response.status_code == 200
    html = unescape(response.content.decode())
    assert "A soldier, a commander or an officer." in html and 'value="Sidorov"' in html


def test_others_rosters_are_404(client, player):
    theirs = make_ww2_force(make_user("ben"))
    for url in [
        reverse("armies:roster-edit", args=[theirs.pk]),
        reverse("armies:ww2-vehicle-new", args=[theirs.pk]),
        reverse("armies:ww2-vehicle-edit", args=[theirs.pk, "v1"]),
        reverse("armies:ww2-soldier-edit", args=[theirs.pk, "i1"]),
    ]:
        assert client.get(url).status_code == 404
    response = client.post(reverse("armies:ww2-vehicle-remove", args=[theirs.pk, "v1"]))
    assert response.status_code == 404
    assert len(force_of(theirs).vehicles) == 2


def test_wrong_ids_are_404(client, player):
    roster = make_ww2_force(player)
    assert (
        client.get(reverse("armies:ww2-vehicle-edit", args=[roster.pk, "v99"])).status_code == 404
    )
    assert client.get(reverse("armies:ww2-soldier-edit", args=[roster.pk, "x"])).status_code == 404


def test_a_form_with_csrf_enforced_works(player):
    roster = make_ww2_force(player)
    csrf_client = Client(enforce_csrf_checks=True)
    csrf_client.force_login(player)
    assert csrf_client.post(reverse("armies:ww2-soldier-add", args=[roster.pk])).status_code == 403


def import_file(client, document: dict):
    from django.core.files.uploadedfile import SimpleUploadedFile

    raw = json.dumps(document).encode()
    upload = SimpleUploadedFile("force.json", raw, content_type="application/json")
    return client.post(reverse("armies:roster-import"), {"file": upload, "key": "import-key-001"})


def test_export_import_round_trip(client, player):
    roster = make_ww2_force(player)
    response = client.get(reverse("armies:roster-export-json", args=[roster.pk]))
    document = json.loads(response.content)
    assert (
        document["system"] == WW2.id and document["roster"]["vehicles"][0]["name"] == "T-34 no. 1"
    )
    roster.delete()
    import_file(client, document)
    copy = Roster.objects.get(owner=player)
    assert copy.name == "Red force" and f.read_force(copy.army) == f.read_force(WW2_FORCE)


def test_a_broken_file_names_the_entry_and_field_and_stores_nothing(client, player):
    data = json.loads(json.dumps(WW2_FORCE))
    data["vehicles"][1]["seats"] = 20
    response = import_file(client, {"format": "blitz-roster/2", "system": WW2.id, "roster": data})
    text = unescape(response.content.decode())
    assert "“Opel Blitz” (truck): a truck has 4–16 seats" in text and "20 entered" in text
    assert not Roster.objects.filter(owner=player).exists()


def test_share_print_copy_text_and_rules_pages(client, player):
    roster = make_ww2_force(player)
    shared = page(client, reverse("roster-shared", args=[roster.share_slug]))
    assert "T-34 no. 1" in shared and "Crew: Ivanov (commander), Kuznetsov" in shared
    assert "Copy to my rosters" in shared
    cards = page(client, reverse("armies:roster-cards", args=[roster.pk]))
    assert "2 vehicles · 2 soldiers on foot" in cards, cards[cards.find("<main") :][:1500]
    assert 'Orlov <span class="muted">(officer)</span>' in cards
    text = client.get(reverse("armies:roster-export-md", args=[roster.pk])).content.decode()
    assert "**T-34 no. 1** (Tank): Armour class 4 · gun class 5; 6 seats" in text
    assert "Specialisations: Mine trawl" in text
    rules = page(client, reverse("armies:ww2-rules"))
    assert "What these rules give" in rules and "a force in Blitz has no points" in rules
    duplicate = client.post(reverse("armies:roster-duplicate", args=[roster.pk]), {"key": "d" * 12})
    assert duplicate.status_code == 302
    copy = Roster.objects.get(name="Copy of Red force")
    assert copy.army == roster.army


def test_my_rosters_line(client, player):
    make_ww2_force(player)
    assert "WWII skirmish · <strong>2 vehicles · 2 soldiers on foot</strong>" in page(
        client, reverse("armies:roster-list")
    )


def test_the_editor_reads_a_big_force_in_as_few_queries_as_a_small_one(
    client, player, django_assert_max_num_queries
):
    roster = make_ww2_force(player)
    url = reverse("armies:roster-edit", args=[roster.pk])
    client.get(url)
    with django_assert_max_num_queries(8):
        page(client, url)
    data = json.loads(json.dumps(WW2_FORCE))
    for number in range(3, 41):
        data["vehicles"].append({**data["vehicles"][0], "id": f"v{number}", "crew": []})
        data["infantry"].append(
            {"id": f"i{number}", "name": f"Soldier {number}", "rank": "soldier"}
        )
    roster.army = data
    roster.save()
    with django_assert_max_num_queries(8):
        assert "40 vehicles · 40 soldiers on foot" in page(client, url)
