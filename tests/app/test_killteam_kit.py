"""A kill team's kit: weapon rules typed as cards print them, the universal equipment a team
picks, Kill Team profile packs exported and imported, and teams brought up to date with a
fixed profile."""

from __future__ import annotations

from html import unescape

import pytest
from django.urls import reverse

from rules.killteam import team as kteam
from tests.app.test_killteam_builder import profile_post
from tests.app.test_killteam_match import kt_tap, state_of, to_firefight
from tests.factories import make_kt_pack, make_team, make_user

pytestmark = pytest.mark.django_db


def page(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return unescape(response.content.decode())


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
