"""Kill Team rosters: picking the game, typing profiles, building a team, and every page a
Heavy Gear Blitz roster has (print, copy, share, export, history) working for it too."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from armies.models import DataPack, Roster
from blitz_site import systems
from blitz_site.systems import HGB, KILLTEAM
from rules.killteam import team as kteam
from tests.factories import (
    KT_PROFILE,
    make_kt_pack,
    make_roster,
    make_team,
    make_user,
    seat_guest,
)

pytestmark = pytest.mark.django_db


def edit_url(roster) -> str:
    return reverse("armies:roster-edit", args=[roster.pk])


def page(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return unescape(response.content.decode())


def flash(response) -> str:
    """The messages the redirect left, as the next page shows them."""
    return " ".join(m.message for m in response.wsgi_request._messages)


def team_of(roster) -> kteam.Team:
    roster.refresh_from_db()
    return kteam.read_team(roster.army)


def profile_post(**changes) -> dict:
    """The profile form as a player fills it in: the test trooper, with ``changes``."""
    data = {
        "key": "profile-form-0001",
        "slots": "3",
        "name": KT_PROFILE["name"],
        "apl": "2",
        "move": "6",
        "save": "4+",
        "wounds": "8",
        "w0-name": "Test gun",
        "w0-kind": "ranged",
        "w0-attacks": "4",
        "w0-hit": "4+",
        "w0-normal_damage": "3",
        "w0-critical_damage": "4",
        "w0-rule_lethal": "on",
        "w0-x_lethal": "5",
        "w0-rule_piercing": "on",
        "w0-x_piercing": "1",
        "w1-name": "Test blade",
        "w1-kind": "melee",
        "w1-attacks": "3",
        "w1-hit": "4",
        "w1-normal_damage": "3",
        "w1-critical_damage": "5",
    }
    data.update(changes)
    return {key: value for key, value in data.items() if value is not None}


# --- The seam: rows know their game, HGB by default ------------------------------------------


def test_rosters_packs_and_matches_are_heavy_gear_blitz_unless_said_otherwise():
    from tests.factories import make_match

    user = make_user()
    roster = make_roster(user)
    pack = DataPack.objects.create(owner=user, name="P", entered_by="jan", data_fingerprint="x")
    match = make_match(user, roster=roster)
    assert (roster.system, pack.system, match.system) == (HGB.id, HGB.id, HGB.id)
    assert make_team(user).system == KILLTEAM.id


@pytest.mark.django_db(transaction=True)
def test_the_migration_makes_every_existing_row_heavy_gear_blitz():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before = [("armies", "0005_remove_roster_revision"), ("matches", "0007_state_on_every_tap")]
    after = [("armies", "0006_system"), ("matches", "0008_system")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    old_roster = old.get_model("armies", "Roster").objects.create(
        guest_key="g" * 12, name="Old list", faction="north", army={}, data_fingerprint="x"
    )
    old_pack = old.get_model("armies", "DataPack").objects.create(
        guest_key="g" * 12, name="Old pack", entered_by="a guest", data_fingerprint="x"
    )
    old_match = old.get_model("matches", "Match").objects.create(
        a_guest_key="g" * 12, a_roster_name="A", b_roster_name="B", a_faction="", b_faction=""
    )
    executor = MigrationExecutor(connection)
    executor.migrate(after)
    new = executor.loader.project_state(after).apps
    try:
        assert new.get_model("armies", "Roster").objects.get(pk=old_roster.pk).system == "hgb"
        assert new.get_model("armies", "DataPack").objects.get(pk=old_pack.pk).system == "hgb"
        assert new.get_model("matches", "Match").objects.get(pk=old_match.pk).system == "hgb"
    finally:
        # The tests after this one need the latest schema.
        MigrationExecutor(connection).migrate(executor.loader.graph.leaf_nodes())


# --- Picking the game ---------------------------------------------------------------------------


def test_the_home_page_offers_each_game_heavy_gear_blitz_first(client):
    html = page(client, reverse("home"))
    games = re.findall(r'href="/armies/\?game=(\w+)#new-roster"', html)
    assert games == list(systems.SYSTEMS) and games[0] == "hgb"
    assert "New Kill Team roster" in html and "New Heavy Gear Blitz roster" in html


def test_my_rosters_shows_the_heavy_gear_blitz_form_unless_another_game_is_picked(client):
    html = page(client, reverse("armies:roster-list"))
    assert 'id="id_start"' in html and 'name="system" value="hgb"' in html
    html = page(client, reverse("armies:roster-list") + "?game=killteam")
    assert 'id="id_start"' not in html and 'name="system" value="killteam"' in html
    assert 'aria-current="true">Kill Team</a>' in html
    html = page(client, reverse("armies:roster-list"))
    assert 'name="system" value="killteam"' in html  # the session remembers the game asked for
    html = page(Client(), reverse("armies:roster-list") + "?game=chess")
    assert 'id="id_start"' in html  # an unknown game, nothing remembered: the default


def test_a_guest_creates_a_kill_team_roster(client):
    response = client.post(
        reverse("armies:roster-create"), {"system": "killteam", "name": "Night patrol"}
    )
    roster = Roster.objects.get()
    assert response.status_code == 302 and response["Location"] == edit_url(roster)
    assert (roster.system, roster.name) == (KILLTEAM.id, "Night patrol")
    html = page(client, edit_url(roster))
    assert "give no datacards, no points and no rules for choosing a team" in html
    assert 'data-testid="operative-count">0</strong>' in html
    assert "Play a match" not in html  # no operative to play yet


def test_creating_a_roster_of_an_unknown_game_is_refused(client):
    response = client.post(reverse("armies:roster-create"), {"system": "chess", "name": "X"})
    assert response.status_code == 400 and not Roster.objects.exists()


def test_a_kill_team_form_error_keeps_the_kill_team_form(client):
    response = client.post(
        reverse("armies:roster-create"), {"system": "killteam", "name": "x" * 81}
    )
    html = response.content.decode()
    assert response.status_code == 400 and 'name="system" value="killteam"' in html
    assert not Roster.objects.exists()


def test_the_list_shows_each_roster_in_its_own_words_and_sorts_both_games(client, player):
    make_roster(player)
    make_team(player, name="Night patrol", operatives=3)
    html = page(client, reverse("armies:roster-list"))
    assert "Kill Team · <strong>3 operatives</strong> · No explosive grenades" in html
    assert "610 / 610 TV" in html
    for sort in ("name", "faction", "tv", "changed"):
        assert client.get(reverse("armies:roster-list") + f"?sort={sort}").status_code == 200


# --- Typing profiles into the datacard library -----------------------------------------------


def kt_pack_via_the_library(client) -> DataPack:
    response = client.post(
        reverse("datacard-pack-create"), {"system": "killteam", "name": "My KT", "key": "k" * 12}
    )
    assert response.status_code == 302
    return DataPack.objects.get(name="My KT")


def test_a_profile_typed_into_the_library_is_checked_and_kept(client, player):
    pack = kt_pack_via_the_library(client)
    assert pack.system == KILLTEAM.id
    library = page(client, reverse("datacards") + f"?pack={pack.pk}")
    assert "Type in a profile" in library and "Export data file (.json)" in library
    response = client.post(reverse("datacard-profile-new", args=[pack.pk]), profile_post())
    assert response.status_code == 302
    pack.refresh_from_db()
    (stored,) = pack.figures["profiles"].values()
    assert stored == KT_PROFILE
    library = page(client, reverse("datacards") + f"?pack={pack.pk}")
    assert "Test trooper" in library and "Lethal 5+, Piercing 1" in library
    assert "1 profile" in library


def test_sending_the_new_profile_form_twice_saves_one_profile(client, player):
    pack = kt_pack_via_the_library(client)
    for _ in range(2):
        client.post(reverse("datacard-profile-new", args=[pack.pk]), profile_post())
    pack.refresh_from_db()
    assert len(pack.figures["profiles"]) == 1


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"apl": "0"}, "APL must be from 1 to 9; got 0."),
        ({"apl": "two"}, "APL must be a whole number from 1 to 9."),
        ({"wounds": ""}, "Wounds is missing: type it from the datacard."),
        ({"save": "7+"}, "Save must be from 2+ to 6+ (a 1 always fails and a 6 always succeeds)"),
        ({"name": ""}, "Give the profile a name."),
        ({"w0-hit": "9"}, "Test gun: Hit must be from 2+ to 6+"),
        ({"w0-kind": None}, "Test gun: say whether it is ranged or melee."),
        ({"w0-x_lethal": ""}, "Lethal needs its x, like “Lethal 5+”."),
        ({"w0-x_lethal": "9"}, "got Lethal 9+"),
        ({"w0-x_lethal": "five"}, "The x of Lethal must be a whole number."),
        ({"w1-name": ""}, "Give weapon 2 a name."),
        ({"apl": "²"}, "APL must be a whole number"),
        ({"wounds": "9" * 9}, "Wounds must be a whole number."),
    ],
)
def test_a_bad_profile_is_a_form_error_in_plain_words_and_nothing_is_saved(
    client, player, changes, words
):
    pack = make_kt_pack(player, profiles={})
    response = client.post(reverse("datacard-profile-new", args=[pack.pk]), profile_post(**changes))
    assert response.status_code == 200
    assert words in unescape(response.content.decode())
    assert "The profile was not saved" in unescape(response.content.decode())
    pack.refresh_from_db()
    assert pack.figures["profiles"] == {}


def test_editing_a_profile_shows_its_figures_and_saves_over_it(client, player):
    pack = make_kt_pack(player)
    url = reverse("datacard-profile-edit", args=[pack.pk, "trooper"])
    html = page(client, url)
    assert (
        'value="Test trooper"' in html
        and 'name="w0-rule_lethal" id="id_w0-rule_lethal" checked' in html
    )
    client.post(url, profile_post(apl="3", key=""))
    pack.refresh_from_db()
    assert pack.figures["profiles"]["trooper"]["apl"] == 3 and len(pack.figures["profiles"]) == 1


def test_a_profile_can_be_deleted_and_teams_keep_their_copies(client, player):
    pack = make_kt_pack(player)
    roster = make_team(player, operatives=1)
    client.post(reverse("datacard-profile-delete", args=[pack.pk, "trooper"]))
    pack.refresh_from_db()
    assert pack.figures["profiles"] == {}
    assert team_of(roster).operatives[0].profile.name == "Test trooper"


def test_a_shared_kill_team_pack_shows_its_profiles_and_copies_as_kill_team(client, player):
    pack = make_kt_pack(player)
    client.post(reverse("datacard-share-new", args=[pack.pk]))
    pack.refresh_from_db()
    visitor = Client()
    html = page(visitor, reverse("datacard-shared", args=[pack.share_slug]))
    assert "Test trooper" in html and "Lethal 5+, Piercing 1" in html
    assert "Type in a profile" not in html  # read-only
    other = make_user("other")
    visitor.force_login(other)
    visitor.post(reverse("datacard-shared-copy", args=[pack.share_slug]), {"key": "c" * 12})
    copy = DataPack.objects.get(owner=other)
    assert copy.system == KILLTEAM.id and copy.figures == pack.figures


def test_the_hgb_datacard_pages_refuse_a_kill_team_pack_and_the_profile_pages_an_hgb_pack(
    client, player
):
    kt_pack = make_kt_pack(player)
    hgb_pack = DataPack.objects.create(
        owner=player, name="HGB", entered_by="jan", data_fingerprint="x"
    )
    for url in (
        reverse("datacard-edit", args=[kt_pack.pk, "models", "jaguar"]),
        reverse("datacard-export", args=[kt_pack.pk]),
        reverse("datacard-profile-new", args=[hgb_pack.pk]),
        reverse("datacard-profile-edit", args=[kt_pack.pk, "nobody"]),
    ):
        assert client.get(url).status_code == 404, url


# --- Building a team ----------------------------------------------------------------------------


def add(client, roster, choice: str, name: str = "", key: str = "add-key-0001"):
    return client.post(
        reverse("armies:operative-add", args=[roster.pk]),
        {"profile": choice, "name": name, "key": key},
    )


def test_operatives_are_added_from_library_profiles_renamed_and_removed(client, player):
    pack = make_kt_pack(player)
    roster = make_team(player)
    choice = f"{pack.pk}:trooper"
    editor = page(client, edit_url(roster))
    assert f'<option value="{choice}">Test trooper (APL 2, Wounds 8)</option>' in editor
    response = add(client, roster, choice, name="Sergeant")
    assert response.status_code == 302 and response["Location"].endswith("#operatives")
    add(client, roster, choice, key="add-key-0002")
    team = team_of(roster)
    assert [o.title for o in team.operatives] == ["Sergeant", "Test trooper"]
    assert team.operatives[0].entered_by == "jan"
    editor = page(client, edit_url(roster))
    assert 'data-testid="operative-count">2</strong>' in editor
    assert "Profile entered by jan" in editor and "Lethal 5+, Piercing 1" in editor

    edit = reverse("armies:operative-edit", args=[roster.pk, team.operatives[1].id])
    assert client.post(edit, {"name": "Gunner", "profile": ""}).status_code == 302
    assert team_of(roster).operatives[1].title == "Gunner"

    remove = reverse("armies:operative-remove", args=[roster.pk, team.operatives[0].id])
    client.post(remove, {"key": "remove-key-0001"})
    assert [o.title for o in team_of(roster).operatives] == ["Gunner"]
    response = client.post(remove, {"key": "remove-key-0002"})  # a stale second form
    assert "That operative is no longer in the team." in flash(response)
    assert len(team_of(roster).operatives) == 1


def test_the_same_add_sent_twice_adds_one_operative(client, player):
    pack = make_kt_pack(player)
    roster = make_team(player)
    add(client, roster, f"{pack.pk}:trooper")
    add(client, roster, f"{pack.pk}:trooper")
    assert len(team_of(roster).operatives) == 1


def test_picking_the_profile_again_takes_its_latest_figures(client, player):
    pack = make_kt_pack(player)
    roster = make_team(player)
    add(client, roster, f"{pack.pk}:trooper")
    pack.figures = {"profiles": {"trooper": {**KT_PROFILE, "wounds": 9}}}
    pack.save()
    operative = team_of(roster).operatives[0]
    assert operative.profile.wounds == 8  # the team keeps its copy...
    edit = reverse("armies:operative-edit", args=[roster.pk, operative.id])
    client.post(edit, {"name": "", "profile": f"{pack.pk}:trooper"})
    assert team_of(roster).operatives[0].profile.wounds == 9  # ...until it is picked again


def test_a_profile_not_in_the_players_library_cannot_be_added(client, player):
    other_pack = make_kt_pack(make_user("other"))
    roster = make_team(player)
    response = add(client, roster, f"{other_pack.pk}:trooper")
    assert "That profile is no longer in your datacards: pick another." in flash(response)
    assert team_of(roster).operatives == ()


def test_an_editor_without_profiles_says_how_to_type_one_in(client, player):
    roster = make_team(player)
    editor = page(client, edit_url(roster))
    assert "Your datacards hold no Kill Team profile yet" in editor
    response = client.post(reverse("armies:team-new-profile", args=[roster.pk]))
    pack = DataPack.objects.get(owner=player)
    assert pack.system == KILLTEAM.id
    form_url = reverse("datacard-profile-new", args=[pack.pk]) + f"?roster={roster.pk}"
    assert response["Location"] == form_url
    client.post(reverse("armies:team-new-profile", args=[roster.pk]))  # a second tap
    assert DataPack.objects.filter(owner=player).count() == 1
    response = client.post(form_url, profile_post())
    assert response["Location"] == edit_url(roster) + "#add-operative"
    assert "Test trooper (APL 2, Wounds 8)" in page(client, edit_url(roster))


@pytest.mark.parametrize(
    ("value", "frag", "krak"), [("2-0", 2, 0), ("0-2", 0, 2), ("1-1", 1, 1), ("0-0", 0, 0)]
)
def test_the_team_picks_its_grenades_as_the_rules_allow(client, player, value, frag, krak):
    roster = make_team(player)
    client.post(reverse("armies:team-grenades", args=[roster.pk]), {"grenades": value})
    assert team_of(roster).grenades == kteam.Grenades(frag, krak)


@pytest.mark.parametrize("value", ["3-0", "1-0", "2-2", "", "x"])
def test_any_other_grenade_pick_is_refused_in_words(client, player, value):
    roster = make_team(player)
    client.post(reverse("armies:team-grenades", args=[roster.pk]), {"grenades": "1-1"})
    response = client.post(reverse("armies:team-grenades", args=[roster.pk]), {"grenades": value})
    assert response.status_code == 302
    assert "grenades" in flash(response)
    assert team_of(roster).grenades == kteam.Grenades(1, 1)


def test_renaming_a_team(client, player):
    roster = make_team(player)
    client.post(reverse("armies:team-rename", args=[roster.pk]), {"name": "  Night   watch "})
    roster.refresh_from_db()
    assert roster.name == "Night watch" and team_of(roster).name == "Night watch"
    response = client.post(reverse("armies:team-rename", args=[roster.pk]), {"name": ""})
    assert "Give the roster a name." in flash(response)
    roster.refresh_from_db()
    assert roster.name == "Night watch"


# --- Who may: like a Heavy Gear Blitz roster ------------------------------------------------------


def kt_urls(roster, pack) -> list[tuple[str, str]]:
    return [
        ("GET", edit_url(roster)),
        ("GET", reverse("armies:roster-cards", args=[roster.pk])),
        ("GET", reverse("armies:roster-text", args=[roster.pk])),
        ("GET", reverse("armies:roster-export-json", args=[roster.pk])),
        ("GET", reverse("armies:operative-edit", args=[roster.pk, 1])),
        ("POST", reverse("armies:operative-remove", args=[roster.pk, 1])),
        ("POST", reverse("armies:operative-add", args=[roster.pk])),
        ("POST", reverse("armies:team-grenades", args=[roster.pk])),
        ("POST", reverse("armies:team-rename", args=[roster.pk])),
        ("POST", reverse("armies:team-new-profile", args=[roster.pk])),
        ("GET", reverse("datacard-profile-new", args=[pack.pk])),
        ("GET", reverse("datacard-profile-edit", args=[pack.pk, "trooper"])),
        ("POST", reverse("datacard-profile-delete", args=[pack.pk, "trooper"])),
    ]


@pytest.mark.parametrize("who", ["other user", "guest", "anonymous"])
def test_someone_elses_kill_team_is_404_everywhere_and_unchanged(client, who):
    owner = make_user("owner")
    roster = make_team(owner, operatives=1)
    pack = make_kt_pack(owner)
    if who == "other user":
        client.force_login(make_user("other"))
    elif who == "guest":
        seat_guest(client, "guest-key-9999")
    for method, url in kt_urls(roster, pack):
        response = client.get(url) if method == "GET" else client.post(url, {"name": "X"})
        assert response.status_code == 404, (method, url)
    assert len(team_of(roster).operatives) == 1
    pack.refresh_from_db()
    assert "trooper" in pack.figures["profiles"]


def test_a_guests_kill_team_is_theirs(client):
    seat_guest(client, "guest-key-0001")
    roster = make_team(guest_key="guest-key-0001", operatives=1)
    assert client.get(edit_url(roster)).status_code == 200


def test_the_hgb_editor_changes_refuse_a_kill_team_roster_with_404(client, player):
    roster = make_team(player, operatives=1)
    key = {"key": "k" * 12}
    for name, args, data in [
        ("armies:group-add", [roster.pk], {"squad": "north_general_purpose", **key}),
        ("armies:model-add", [roster.pk, 0], {"model": "hunter", **key}),
        ("armies:roster-tv-limit", [roster.pk], {"tv_limit": "700"}),
        ("armies:roster-rename", [roster.pk], {"name": "HGB name"}),
        ("armies:roster-pack", [roster.pk], {"pack": ""}),
    ]:
        assert client.post(reverse(name, args=args), data).status_code == 404, name
    roster.refresh_from_db()
    assert roster.system == KILLTEAM.id and team_of(roster).name == "Test team"


def test_the_kill_team_forms_refuse_a_heavy_gear_blitz_roster_with_404(client, player):
    roster = make_roster(player)
    for name in ("armies:team-rename", "armies:team-grenades", "armies:operative-add"):
        assert client.post(reverse(name, args=[roster.pk]), {"name": "x"}).status_code == 404


def test_kill_team_forms_enforce_csrf(player):
    roster = make_team(player, operatives=1)
    csrf_client = Client(enforce_csrf_checks=True)
    csrf_client.force_login(player)
    response = csrf_client.post(
        reverse("armies:team-grenades", args=[roster.pk]), {"grenades": "2-0"}
    )
    assert response.status_code == 403
    assert team_of(roster).grenades == kteam.Grenades()


# --- Every other page: print, text, share, copy, exports, history ------------------------------


def test_print_text_and_markdown_show_every_operative(client, player):
    roster = make_team(player, name="Night patrol", operatives=2)
    client.post(reverse("armies:team-grenades", args=[roster.pk]), {"grenades": "1-1"})
    cards = page(client, reverse("armies:roster-cards", args=[roster.pk]))
    assert cards.count('class="datacard"') == 2 and "data-print" in cards
    assert "1 frag and 1 krak grenade" in cards
    assert "Successes of x or more are critical." in cards  # Lethal explained in Blitz's words
    assert "entered by jan" in cards and "give no datacards" in cards
    text = client.get(reverse("armies:roster-export-md", args=[roster.pk])).content.decode()
    assert text.startswith("# Night patrol\n\n**Kill Team (2024)** · 2 operatives")
    assert "  - Test gun (ranged): A 4, Hit 4+, Dmg 3/4; Lethal 5+, Piercing 1" in text
    assert "Equipment: 1 frag and 1 krak grenade." in text
    assert text in unescape(page(client, reverse("armies:roster-text", args=[roster.pk])))


def test_a_shared_kill_team_opens_prints_copies_and_offers_a_match(client, player):
    roster = make_team(player, operatives=1)
    anonymous = Client()
    shared = page(anonymous, reverse("roster-shared", args=[roster.share_slug]))
    assert "Test trooper" in shared and "Copy to my rosters" in shared and "data-print" in shared
    assert f"{reverse('matches:kt-new')}?against={roster.share_slug}" in shared
    qr = anonymous.get(reverse("roster-shared-qr", args=[roster.share_slug]))
    assert qr.status_code == 200 and qr["Content-Type"] == "image/svg+xml"
    other = make_user("other")
    anonymous.force_login(other)
    response = anonymous.post(
        reverse("roster-shared-copy", args=[roster.share_slug]), {"key": "copy-key-0001"}
    )
    copy = Roster.objects.get(owner=other)
    assert response["Location"] == edit_url(copy)
    assert copy.system == KILLTEAM.id and copy.name == "Copy of Test team"
    assert team_of(copy).operatives == team_of(roster).operatives


def test_duplicate_delete_and_restore_a_kill_team(client, player):
    roster = make_team(player, operatives=2)
    response = client.post(reverse("armies:roster-duplicate", args=[roster.pk]), {"key": "d" * 12})
    copy = Roster.objects.exclude(pk=roster.pk).get()
    assert response["Location"] == edit_url(copy) and copy.system == KILLTEAM.id
    assert len(team_of(copy).operatives) == 2
    client.post(reverse("armies:roster-delete", args=[copy.pk]))
    assert client.get(edit_url(copy)).status_code == 404
    client.post(reverse("armies:roster-restore", args=[copy.pk]))
    assert client.get(edit_url(copy)).status_code == 200


def test_the_match_history_of_a_kill_team_offers_a_kill_team_match(client, player):
    roster = make_team(player, operatives=1)
    html = page(client, reverse("matches:roster-history", args=[roster.pk]))
    assert "has not been played in a match yet." in html
    assert f'href="/matches/new/killteam/?roster={roster.pk}">Start a match</a>' in html
    hgb = make_roster(player)
    html = page(client, reverse("matches:roster-history", args=[hgb.pk]))
    assert f'href="/matches/new/?roster={hgb.pk}">Start a match</a>' in html


def test_the_tracker_offers_heavy_gear_blitz_rosters_only(client, player):
    team = make_team(player, name="Night patrol")
    make_roster(player)
    html = page(client, reverse("matches:match-new"))
    assert "Night patrol" not in html and "Northern Guard starter force" in html
    html = page(client, reverse("matches:match-new") + f"?against={team.share_slug}")
    assert "Night patrol" not in html


# --- Exports: they state their game -----------------------------------------------------------


def export(client, roster) -> dict:
    return json.loads(client.get(reverse("armies:roster-export-json", args=[roster.pk])).content)


def test_an_hgb_export_states_its_game_and_imports_back(client, player):
    roster = make_roster(player)
    document = export(client, roster)
    assert (document["format"], document["system"]) == ("blitz-roster/2", "hgb")
    assert document["summary"]["total_tv"] == 610
    response = client.post(reverse("armies:roster-import"), {"text": json.dumps(document)})
    assert response.status_code == 302
    copy = Roster.objects.exclude(pk=roster.pk).get()
    assert copy.system == HGB.id and copy.army["groups"] == roster.army["groups"]


def test_an_export_from_before_there_were_two_games_imports_as_heavy_gear_blitz(client, player):
    roster = make_roster(player, preset="south_starter")
    old = {
        "format": "blitz-roster/1",
        "exported_at": "2026-01-01T00:00:00+00:00",
        "roster": roster.army,
    }
    client.post(reverse("armies:roster-import"), {"text": json.dumps(old)})
    copy = Roster.objects.exclude(pk=roster.pk).get()
    assert copy.system == HGB.id and copy.army["groups"] == roster.army["groups"]


def test_a_kill_team_export_states_its_game_and_rebuilds_the_team(client, player):
    roster = make_team(player, name="Night patrol", operatives=2)
    client.post(reverse("armies:team-grenades", args=[roster.pk]), {"grenades": "2-0"})
    document = export(client, roster)
    assert (document["format"], document["system"]) == ("blitz-roster/2", "killteam")
    assert document["summary"]["operatives"] == ["Test trooper", "Test trooper"]
    assert document["summary"]["grenades"] == "2 frag grenades"
    response = client.post(
        reverse("armies:roster-import"), {"text": json.dumps(document), "key": "i" * 12}
    )
    copy = Roster.objects.exclude(pk=roster.pk).get()
    assert response["Location"] == edit_url(copy)
    marked = f"jan (imported from a file by {player.username})"  # armies.packs.imported_by
    original = team_of(roster)
    operatives = tuple(replace(o, entered_by=marked) for o in original.operatives)
    assert copy.system == KILLTEAM.id and team_of(copy) == replace(original, operatives=operatives)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d.update(system="chess"), "a game Blitz does not know (“chess”)"),
        (lambda d: d.pop("system"), "does not say which game it is for"),
        (lambda d: d.update(system=["killteam"]), "does not say which game it is for"),
        (
            lambda d: d["roster"]["operatives"][0]["profile"].update(apl=0),
            "Operative 1: APL must be from 1 to 9; got 0.",
        ),
        (lambda d: d["roster"].update(grenades={"frag": 3}), "2 frag, 2 krak, or one of each"),
        (lambda d: d.update(roster="a team"), "This is not a Kill Team roster."),
    ],
)
def test_a_bad_kill_team_file_is_refused_whole_in_words(client, player, change, words):
    roster = make_team(player, operatives=1)
    document = export(client, roster)
    change(document)
    response = client.post(reverse("armies:roster-import"), {"text": json.dumps(document)})
    assert response.status_code == 400
    assert words in unescape(response.content.decode())
    assert Roster.objects.count() == 1


def test_the_editor_costs_the_same_queries_for_one_operative_or_twenty(
    client, player, django_assert_max_num_queries
):
    make_kt_pack(player)
    small, big = make_team(player, operatives=1), make_team(player, operatives=20)
    client.get(edit_url(small))
    with django_assert_max_num_queries(12) as small_queries:
        client.get(edit_url(small))
    with django_assert_max_num_queries(len(small_queries)):
        client.get(edit_url(big))
