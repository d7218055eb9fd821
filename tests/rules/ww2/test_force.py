"""The WWII skirmish force: one test per constraint the rules text states, named after it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.ww2 import force as f


def vehicle(**fields) -> dict:
    data = {
        "id": "v1",
        "name": "T-34 no. 1",
        "kind": "tank",
        "kind_name": "",
        "armour_class": 4,
        "gun_class": 5,
        "seats": 6,
        "mgs": ["hull", "turret"],
        "flamethrower": False,
        "napalm": 0,
        "smoke": 0,
        "specialisations": [],
        "crew": [{"id": "v1c1", "name": "Ivanov", "commander": True}],
    }
    return {**data, **fields}


def read(**fields) -> f.Vehicle:
    return f.read_force({"vehicles": [vehicle(**fields)], "infantry": []}).vehicles[0]


def refused(**fields) -> f.ForceError:
    with pytest.raises(f.ForceError) as caught:
        read(**fields)
    return caught.value


def test_mine_trawl_only_on_tanks():
    assert read(specialisations=["mine_trawl"]).specialisations == ("mine_trawl",)
    error = refused(kind="truck", seats=8, name="Opel", specialisations=["mine_trawl"])
    assert "“Opel” (truck): a mine trawl goes on a tank only" in str(error)
    assert (error.entry, error.field) == ("v1", "specialisations")


@pytest.mark.parametrize("armour", [2, 3, 6])
def test_active_armour_only_on_armour_classes_2_to_6(armour):
    assert read(armour_class=armour, specialisations=["active_armour"]).armour_class == armour


@pytest.mark.parametrize("armour", [1, 7, None])
def test_active_armour_refused_on_armour_class_1_or_7_or_none(armour):
    error = refused(armour_class=armour, specialisations=["active_armour"])
    assert "active armour goes on armour classes 2–6 only" in str(error)
    assert error.field == "specialisations"


def test_crew_is_one_to_five_soldiers():
    crew = [{"id": f"v1c{n}", "name": f"Crewman {n}", "commander": n == 1} for n in range(1, 6)]
    assert len(read(crew=crew).crew) == 5
    six = [*crew, {"id": "v1c6", "name": "Sixth", "commander": False}]
    error = refused(crew=six)
    assert "a crew is 1–5 soldiers" in str(error) and "it has 6" in str(error)
    assert error.field == "crew"


def test_crew_is_optional():
    assert read(crew=[]).crew == ()


def test_crew_members_are_named():
    error = refused(crew=[{"id": "v1c1", "name": "  ", "commander": True}])
    assert "crew member 1" in str(error) and error.field == "crew"


def test_crew_without_a_commander_is_noted_not_refused():
    tank = read(crew=[{"id": "v1c1", "name": "Ivanov", "commander": False}])
    assert "No commander marked in the crew." in f.vehicle_notes(tank)


@pytest.mark.parametrize("seats", [4, 10, 16])
def test_truck_has_4_to_16_seats(seats):
    assert read(kind="truck", seats=seats).seats == seats


@pytest.mark.parametrize("seats", [3, 20, None])
def test_truck_with_seats_outside_4_to_16_refused(seats):
    error = refused(kind="truck", seats=seats, name="Opel Blitz")
    assert "“Opel Blitz” (truck): a truck has 4–16 seats" in str(error)
    assert error.field == "seats"


def test_apc_standard_is_12_seats_a_card_may_differ():
    apc = read(kind="apc", seats=10, name="Sd.Kfz. 251")
    assert apc.seats == 10
    assert "10 seats: the text's standard for an APC is 12" in " ".join(f.vehicle_notes(apc))
    assert f.vehicle_notes(read(kind="apc", seats=12, crew=[])) == []


def test_tank_standard_is_6_seats():
    assert f.seats_of(read(seats=None)) == 6
    assert f.seats_of(read(kind="apc", seats=None)) == 12
    assert f.seats_of(read(kind="tractor", seats=None)) is None
    assert "the text's standard for a tank is 6" in " ".join(f.vehicle_notes(read(seats=8)))


def test_machine_guns_hull_turret_on_armour():
    assert read(mgs=["armour", "hull", "turret"]).mgs == ("hull", "turret", "armour")
    assert "fires only with at least 1 rider" in " ".join(f.vehicle_notes(read(mgs=["armour"])))
    assert refused(mgs=["coax"]).field == "mgs"
    assert refused(mgs=["hull", "hull"]).field == "mgs"


def test_flamethrower_and_ammunition_cards():
    tank = read(flamethrower=True, napalm=2, smoke=1)
    assert (tank.flamethrower, tank.napalm, tank.smoke) == (True, 2, 1)
    assert refused(napalm=-1).field == "napalm"
    assert refused(smoke="two").field == "smoke"


def test_napalm_without_a_flamethrower_is_noted():
    notes = " ".join(f.vehicle_notes(read(napalm=1)))
    assert "Napalm is fired by a tank flamethrower" in notes


def test_classes_are_whole_numbers_as_the_card_gives_them():
    assert read(armour_class=None, gun_class=None).armour_class is None
    assert refused(armour_class=0).field == "armour_class"
    assert refused(gun_class=True).field == "gun_class"
    high = read(armour_class=9)
    assert "the rules text's classes run 1–7" in " ".join(f.vehicle_notes(high))


def test_kinds_tank_apc_truck_tractor_gun_other():
    assert {read(kind=k, seats=8).kind for k in ["tank", "apc", "truck", "tractor", "gun"]} == {
        "tank",
        "apc",
        "truck",
        "tractor",
        "gun",
    }
    assert refused(kind="plane").field == "kind"


def test_other_kind_is_named_by_the_player():
    assert refused(kind="other").field == "kind_name"
    assert read(kind="other", kind_name="Armoured car").kind_label == "Armoured car"


def test_infantry_soldiers_commanders_officers():
    force = f.read_force(
        {
            "vehicles": [],
            "infantry": [
                {"id": "i1", "name": "Petrov", "rank": "soldier"},
                {"id": "i2", "name": "Sidorov", "rank": "commander"},
                {"id": "i3", "name": "Orlov", "rank": "officer"},
            ],
        }
    )
    assert [s.rank for s in force.infantry] == ["soldier", "commander", "officer"]
    with pytest.raises(f.ForceError, match="soldier, commander or officer"):
        f.read_force({"infantry": [{"id": "i1", "name": "X", "rank": "general"}]})


def test_ids_are_unique_and_stable_across_edits():
    force, tank = f.add_vehicle(f.new_force(), read())
    force, truck = f.add_vehicle(force, read(kind="truck", seats=8, name="Opel"))
    force = f.remove_vehicle(force, tank)
    force, third = f.add_vehicle(force, read())
    assert (tank, truck, third) == ("v1", "v2", "v3")
    changed = f.change_vehicle(force, replace(force.vehicle("v2"), name="Opel Blitz"))
    assert changed.vehicle("v2").name == "Opel Blitz"
    assert [m.id for m in changed.vehicle("v3").crew] == ["v3c1"]
    with pytest.raises(f.ForceError, match="same id"):
        f.read_force({"vehicles": [vehicle(), vehicle()], "infantry": []})


def test_document_round_trip():
    force, _ = f.add_vehicle(f.new_force(), read(flamethrower=True, napalm=1))
    force, _ = f.add_soldier(force, "Petrov", "officer")
    assert f.read_force(f.force_to_dict(force)) == force


def test_no_points_anywhere():
    assert "cost" not in f.force_to_dict(f.new_force())
    assert not any("point" in key or "cost" in key for key in f.vehicle_to_dict(read()))
