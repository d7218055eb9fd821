"""A team's picked Frag and Krak grenades in the Shoot helper: offered as each operative's weapon
with the team's count, their exact odds from the text's profiles, their use counted once (with or
without the Shoot action), and the rules' warning once used up."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

from armies.models import Owner
from matches.killteam.services import kt_match_start
from rules import killteam as kt
from tests.app.test_killteam_match import kt_tap, state_of, to_firefight
from tests.factories import make_team

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(player):
    mine = make_team(player, name="Red team", operatives=2, grenades=(1, 1))
    theirs = make_team(player, name="Blue team", operatives=2)
    return kt_match_start(owner=Owner(player.pk, None), player="jan", mine=mine, opponent=theirs)


def throw(client, match, shooter="a-1", *, as_action=True, grenade="Frag grenade"):
    data = {
        "pick": f"{shooter}|{grenade}",
        "target": "b-1",
        "attack": "6 1 1 1",
        "defence": "1 1 1",
        "block": "0",
        "key": uuid.uuid4().hex,
    }
    if as_action:
        data["as_action"] = "1"
    return client.post(reverse("matches:kt-shoot-apply", args=[match.pk]), data)


def test_the_helper_offers_the_teams_grenades_with_their_odds(client, match):
    url = reverse("matches:kt-shoot", args=[match.pk])
    html = client.get(url, {"shooter": "a-1"}).content.decode()
    # Once, as a weapon of the chosen shooter, with the team's count.
    assert html.count('<option value="Frag grenade">Frag grenade (0 of 1 used)</option>') == 1
    assert '<option value="Krak grenade">' in html
    assert "Frag grenade" not in client.get(url, {"shooter": "b-1"}).content.decode()  # none
    html = client.get(url, {"pick": "a-1|Krak grenade", "target": "b-1"}).content.decode()
    krak = kt.grenade_weapon("krak")
    distribution = kt.shoot_damage_distribution(
        attacks=krak.attacks, hit=krak.hit, normal_damage=krak.normal_damage,
        critical_damage=krak.critical_damage, save=4, weapon_rules=("Piercing 1", "Saturate"),
        cover=False,
    )  # fmt: skip
    chance = kt.incapacitate_chance(distribution, 8)
    assert f'<b id="chance-incapacitate">{float(chance) * 100:.1f}%</b>' in html
    assert "with Krak grenade" in html and "Piercing 1" in html
    assert 'id="used-up"' not in html


def test_a_grenade_thrown_is_counted_once_and_warned_when_used_up(client, match):
    to_firefight(client, match)
    kt_tap(client, match, "activate a-1 engage")
    assert throw(client, match).status_code == 302
    state = state_of(match)
    assert state.side("a").grenade("Frag grenade").used == 1  # once, with the Shoot action
    assert state.operative("a-1").ap_spent == 1 and state.operative("b-1").current == 4
    board = client.get(reverse("matches:match-board", args=[match.pk])).content.decode()
    assert "grenades Frag grenade 1/1, Krak grenade 0/1" in board
    url = reverse("matches:kt-shoot", args=[match.pk])
    html = client.get(url, {"pick": "a-2|Frag grenade", "target": "b-1"}).content.decode()
    warning = "Red team has used its Frag grenades as often as it picked them (1 of 1)"
    assert 'id="used-up"' in html and warning in html
    assert "Frag grenade (1 of 1 used)" in html
    # Thrown again anyway (the table decides; the rules warn, never refuse), without the action.
    response = throw(client, match, "a-2", as_action=False)
    assert response.status_code == 302
    board = client.get(response["Location"]).content.decode()
    assert warning in board  # said on the board it returns to, and kept in the log
    state = state_of(match)
    assert state.side("a").grenade("Frag grenade").used == 2
    assert state.operative("a-2").ap_spent == 0
    kt_tap(client, match, "undo last")
    assert state_of(match).side("a").grenade("Frag grenade").used == 1


def test_a_grenade_the_team_did_not_pick_is_404(client, match):
    url = reverse("matches:kt-shoot", args=[match.pk])
    assert client.get(url, {"pick": "b-1|Frag grenade", "target": "a-1"}).status_code == 404
