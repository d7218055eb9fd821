"""A kill team's kit: weapon rules typed as cards print them, the universal equipment a team
picks, Kill Team profile packs exported and imported, and teams brought up to date with a
fixed profile."""

from __future__ import annotations

import json
from html import unescape

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from armies.models import DataPack
from rules.killteam import team as kteam
from tests.app.test_killteam_builder import profile_post
from tests.app.test_killteam_match import kt_tap, state_of, to_firefight
from tests.factories import KT_PROFILE, make_kt_pack, make_team, make_user

pytestmark = pytest.mark.django_db


def page(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return " ".join(unescape(response.content.decode()).split())  # as a person reads it


# --- Weapon rules as cards print them -----------------------------------------------------------


def test_the_profile_form_takes_devastatings_distance_and_heavys_one_move(client, player):
    pack = make_kt_pack(player, profiles={})
    form = page(client, reverse("datacard-profile-new", args=[pack.pk]))
    assert "Devastating's distance in inches" in form and "Dash only" in form
    post = profile_post(
        **{
            "w0-rule_devastating": "on",
            "w0-x_devastating": "1",
            "w0-bracket_devastating": '1"',
            "w0-rule_heavy": "on",
            "w0-bracket_heavy": "dash",
        }
    )
    response = client.post(reverse("datacard-profile-new", args=[pack.pk]), post)
    assert response.status_code == 302
    pack.refresh_from_db()
    (stored,) = pack.figures["profiles"].values()
    assert 'Devastating 1 (1")' in stored["weapons"][0]["rules"]
    assert "Heavy (Dash only)" in stored["weapons"][0]["rules"]
    (profile_id,) = pack.figures["profiles"]
    edit = page(client, reverse("datacard-profile-edit", args=[pack.pk, profile_id]))
    assert '<option value="dash" selected>Dash only</option>' in edit


def test_a_wrong_bracket_is_a_form_error_in_words_and_nothing_is_saved(client, player):
    pack = make_kt_pack(player, profiles={})
    post = profile_post(
        **{"w0-rule_devastating": "on", "w0-x_devastating": "1", "w0-bracket_devastating": "near"}
    )
    response = client.post(reverse("datacard-profile-new", args=[pack.pk]), post)
    assert response.status_code == 200
    assert "The bracket after Devastating is a distance" in unescape(response.content.decode())
    pack.refresh_from_db()
    assert pack.figures["profiles"] == {}


# --- Universal equipment ------------------------------------------------------------------------


def with_kit(roster, **kit):
    from armies.killteam.services import stored_fields

    team = kteam.set_kit(kteam.read_team(roster.army), kit)
    for field, value in stored_fields(team).items():
        setattr(roster, field, value)
    roster.save()
    return roster


def test_the_editor_picks_equipment_and_says_the_text_sets_no_limit(client, player):
    roster = make_team(player, operatives=1)
    editor = page(client, reverse("armies:roster-edit", args=[roster.pk]))
    assert "The core rules set no limit on how many pieces a team takes" in editor
    url = reverse("armies:team-kit", args=[roster.pk])
    data = {"kit_mines": "on", "kit_ladders": "on", "utility": "stun_grenade:2"}
    response = client.post(url, data)
    assert response.status_code == 302 and response["Location"].endswith("#equipment")
    roster.refresh_from_db()
    assert kteam.read_team(roster.army).kit == (("mines", 1), ("stun_grenade", 2), ("ladders", 1))
    editor = page(client, reverse("armies:roster-edit", args=[roster.pk]))
    assert "Mines, 2 stun grenades, Ladders" in editor
    assert 'name="kit_mines" id="id_kit_mines" checked' in editor
    markdown = client.get(reverse("armies:roster-export-md", args=[roster.pk])).content.decode()
    assert "Mines, 2 stun grenades, Ladders" in markdown


def test_a_wrong_utility_pick_is_refused_in_words_and_nothing_changes(client, player):
    roster = make_team(player, operatives=1)
    url = reverse("armies:team-kit", args=[roster.pk])
    response = client.post(url, {"utility": "stun_grenade:3"}, follow=True)
    assert "Utility grenades come as up to two" in unescape(response.content.decode())
    roster.refresh_from_db()
    assert kteam.read_team(roster.army).kit == ()


def test_someone_elses_team_equipment_is_404(client, player):
    other = make_team(make_user("other"), operatives=1)
    response = client.post(reverse("armies:team-kit", args=[other.pk]), {"kit_mines": "on"})
    assert response.status_code == 404
    assert client.get(reverse("armies:team-kit", args=[other.pk])).status_code == 405


def kit_match(player, **kit):
    from armies.models import Owner
    from matches.killteam.services import kt_match_start

    mine = with_kit(make_team(player, name="Red team", operatives=2), **kit)
    theirs = make_team(player, name="Blue team", operatives=2)
    return kt_match_start(owner=Owner(player.pk, None), player="jan", mine=mine, opponent=theirs)


def test_a_mine_is_one_tap_on_the_board_an_event_undone_like_any(client, player):
    match = kit_match(player, mines=1, comms_device=1)
    board = page(client, reverse("matches:match-board", args=[match.pk]))
    assert "Equipment" in board and "1 of 1 left" in board
    assert "Comms device" in board and "on the table: nothing to count" in board
    assert 'value="kit a mines b-1:3"' in board
    response = kt_tap(client, match, "kit a mines b-1:3")
    assert response.status_code == 200
    html = unescape(response.content.decode())
    assert "D3 3, 6 damage, 2 of 8 wounds left" in html
    assert "used up (1 of 1): no more this battle" in html
    assert state_of(match).operative("b-1").current == 8 - 6
    again = kt_tap(client, match, "kit a mines b-2:1")
    assert "used its Mines as often as it may" in unescape(again.content.decode())
    assert state_of(match).operative("b-2").current == 8
    kt_tap(client, match, "undo 1")
    state = state_of(match)
    assert state.operative("b-1").current == 8 and state.side("a").kit[0].used == 0


def test_a_stun_grenade_waits_for_the_active_operative_then_tests(client, player):
    match = kit_match(player, stun_grenade=1)
    to_firefight(client, match)
    board = page(client, reverse("matches:match-board", args=[match.pk]))
    assert "active operative uses it: activate one first" in board
    kt_tap(client, match, "activate a-1 engage")
    board = page(client, reverse("matches:match-board", args=[match.pk]))
    assert 'value="kit a stun_grenade b-1:4"' in board
    assert 'value="kit a stun_grenade a-2:4"' not in board  # enemies only
    kt_tap(client, match, "kit a stun_grenade b-1:4")
    state = state_of(match)
    assert state.operative("b-1").stuns == 1 and state.operative("a-1").ap_spent == 1


@pytest.mark.parametrize(
    "op", ["kit a mines b-1", "kit a mines b-1:x", "kit", "kit a", "kit a mines b-1:99999999999"]
)
def test_malformed_equipment_taps_are_400_or_refused_never_500(client, player, op):
    match = kit_match(player, mines=1)
    response = kt_tap(client, match, op)
    assert response.status_code in (200, 400)
    assert state_of(match).side("a").kit[0].used == 0


def test_an_unknown_operative_in_an_equipment_tap_is_404(client, player):
    match = kit_match(player, mines=1)
    assert kt_tap(client, match, "kit a mines z-9:1").status_code in (400, 404)


# --- Profile packs as files, and a shared team's profiles ----------------------------------------


def import_file(client, name: str, content: bytes, key: str = "import-key-0001"):
    upload = SimpleUploadedFile(name, content, content_type="application/json")
    return client.post(reverse("datacard-pack-import"), {"file": upload, "key": key})


def test_a_profile_pack_exports_and_imports_back_with_its_author_kept(client, player):
    pack = make_kt_pack(player)
    library = page(client, reverse("datacards") + f"?pack={pack.pk}")
    url = reverse("datacard-profiles-export", args=[pack.pk])
    assert f'href="{url}">Export data file (.json)' in library
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Disposition"] == (
        f'attachment; filename="killteam-profiles-{pack.pk}.json"'
    )
    ben = Client()
    ben.force_login(make_user("ben"))
    imported = import_file(ben, "cult.json", response.content)
    assert imported.status_code == 302
    copy = DataPack.objects.exclude(pk=pack.pk).get()
    assert copy.system == "killteam" and copy.name == "Kill Team profiles"
    assert copy.entered_by == "jan (imported from a file by ben)"
    assert copy.figures == pack.figures
    library = page(ben, reverse("datacards") + f"?pack={copy.pk}")
    assert "Test trooper" in library and "jan (imported from a file by ben)" in library


def test_a_broken_pack_file_names_entry_and_field_and_stores_nothing(client, player):
    pack = make_kt_pack(player, profiles={"trooper": KT_PROFILE, "gunner": KT_PROFILE})
    document = json.loads(client.get(reverse("datacard-profiles-export", args=[pack.pk])).content)
    document["profiles"]["gunner"] = {**KT_PROFILE, "name": "Gunner", "wounds": 0}
    response = import_file(client, "cult.json", json.dumps(document).encode())
    html = unescape(response.content.decode())
    assert response.status_code == 200
    assert "nothing of it was kept" in html
    assert "cult.json: profile 1 “Gunner” (id gunner), wounds: Wounds must be" in html
    assert DataPack.objects.count() == 1


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"{not json", "cult.json: not valid JSON"),
        (b'{"blitz": "something else"}', "not a Kill Team profile pack"),
        (b'{"blitz": "killteam-profiles", "version": 1, "profiles": []}', "table of profiles"),
        (b"\xff\xfe", "not UTF-8"),
    ],
)
def test_a_file_that_is_no_profile_pack_is_refused_in_words(client, player, content, words):
    response = import_file(client, "cult.json", content)
    assert response.status_code == 200 and words in unescape(response.content.decode())
    assert not DataPack.objects.exists()


def test_the_same_import_sent_twice_makes_one_pack(client, player):
    pack = make_kt_pack(player)
    content = client.get(reverse("datacard-profiles-export", args=[pack.pk])).content
    import_file(client, "a.json", content)
    import_file(client, "a.json", content)
    assert DataPack.objects.count() == 2


def test_someone_elses_pack_does_not_export_and_an_hgb_pack_is_404(client, player):
    other = make_kt_pack(make_user("other"))
    assert client.get(reverse("datacard-profiles-export", args=[other.pk])).status_code == 404
    assert client.get(reverse("datacard-profiles-export", args=[999999])).status_code == 404
    assert client.post(reverse("datacard-profiles-export", args=[other.pk])).status_code == 405


def test_a_shared_team_offers_its_profiles_to_copy_into_my_datacards(client, player):
    team = make_team(make_user("anna"), name="Anna's cult", operatives=3)
    team.share_slug = "s" * 22
    team.save()
    shared = page(client, reverse("roster-shared", args=[team.share_slug]))
    assert "Copy these profiles into my datacards" in shared
    url = reverse("roster-shared-profiles-copy", args=[team.share_slug])
    response = client.post(url, {"key": "copy-key-00001"})
    assert response.status_code == 302
    client.post(url, {"key": "copy-key-00001"})  # sent twice: one pack
    pack = DataPack.objects.get()
    assert pack.owner_id == player.pk and pack.name == "Profiles of Anna's cult"
    assert list(pack.figures["profiles"].values()) == [KT_PROFILE]  # three of one profile
    assert pack.entered_by == "jan"  # who typed them, as the team says
    assert client.post(reverse("roster-shared-profiles-copy", args=["nope"])).status_code == 404
    assert client.get(url).status_code == 405


# --- A fixed profile reaches the team ------------------------------------------------------------


def add_from(client, roster, choice: str, name: str = "", key: str = "add-key-0001"):
    url = reverse("armies:operative-add", args=[roster.pk])
    return client.post(url, {"profile": choice, "name": name, "key": key})


def test_a_team_built_from_an_older_profile_says_so_and_updates_all_in_one_tap(client, player):
    pack = make_kt_pack(player)
    roster = make_team(player)
    add_from(client, roster, f"{pack.pk}:trooper", name="Sergeant")
    add_from(client, roster, f"{pack.pk}:trooper", key="add-key-0002")
    editor = page(client, reverse("armies:roster-edit", args=[roster.pk]))
    assert "built from an older version" not in editor
    fixed = {**KT_PROFILE, "wounds": 9, "weapons": KT_PROFILE["weapons"][:1]}
    pack.figures = {"profiles": {"trooper": fixed}}
    pack.save()
    editor = page(client, reverse("armies:roster-edit", args=[roster.pk]))
    assert "2 operatives were built from an older version of their profile." in editor
    blade = KT_PROFILE["weapons"][1]["name"]
    assert f"Sergeant: Wounds 8 → 9, {blade} removed" in editor
    assert "own names stay" in editor and "Update all of them to the latest profiles" in editor
    url = reverse("armies:team-update-profiles", args=[roster.pk])
    response = client.post(url, {"key": "update-key-0001"})
    assert response.status_code == 302 and response["Location"].endswith("#operatives")
    roster.refresh_from_db()
    team = kteam.read_team(roster.army)
    assert [o.profile.wounds for o in team.operatives] == [9, 9]
    assert [o.title for o in team.operatives] == ["Sergeant", "Test trooper"]
    editor = page(client, reverse("armies:roster-edit", args=[roster.pk]))
    assert "built from an older version" not in editor
    again = client.post(url, {"key": "update-key-0002"}, follow=True)
    assert "already built from its latest profile" in unescape(again.content.decode())


def test_an_operative_from_before_blitz_kept_its_source_is_matched_by_profile_name(client, player):
    roster = make_team(player, operatives=1)  # built without a source
    make_kt_pack(player, profiles={"t": {**KT_PROFILE, "save": 3}})
    editor = page(client, reverse("armies:roster-edit", args=[roster.pk]))
    assert "1 operative was built from an older version of its profile." in editor
    assert "Test trooper: Save 4 → 3" in editor and "Update it to the latest profile" in editor


def test_updating_someone_elses_team_is_404_and_a_get_405(client, player):
    other = make_team(make_user("other"), operatives=1)
    url = reverse("armies:team-update-profiles", args=[other.pk])
    assert client.post(url, {"key": "update-key-0001"}).status_code == 404
    assert client.get(url).status_code == 405


# --- A Kill Team newcomer is led with Kill Team -------------------------------------------------


def test_a_newcomer_who_came_by_kill_team_gets_kill_team_first_on_datacards_and_rosters():
    guest = Client()
    assert 'name="system" value="hgb"' in page(guest, reverse("armies:roster-list"))
    page(guest, reverse("armies:roster-list") + "?game=killteam")  # "New Kill Team roster"
    library = page(guest, reverse("datacards"))
    assert "The Kill Team core rules give no datacards" in library
    assert '<option value="killteam" selected>' in library
    assert 'name="system" value="killteam"' in page(guest, reverse("armies:roster-list"))


def test_creating_a_kill_team_roster_makes_datacards_lead_with_kill_team(client, player):
    client.post(
        reverse("datacard-pack-create"), {"system": "hgb", "name": "Gears", "key": "g" * 12}
    )
    make_kt_pack(player)  # the second pack: My datacards shows the first unless told
    assert "Test trooper" not in page(client, reverse("datacards"))
    client.post(reverse("armies:roster-create"), {"system": "killteam", "name": "Cult"})
    library = page(client, reverse("datacards"))
    assert "Test trooper" in library  # the Kill Team pack is the one shown
