"""The Shoot helper starts where the player is: the active operative shooting, its weapons and
its team's grenades once, enemy targets only; a second target of one Blast counts one use; typed
dice stay when refused; Hot's roll is applied with the shot. Every figure is made up."""

from __future__ import annotations

import copy
import uuid
from fractions import Fraction

import pytest
from django.urls import reverse

from armies.models import Owner
from matches.killteam.helper import percent
from matches.killteam.services import kt_match_start
from tests.app.test_killteam_match import kt_tap, state_of, to_firefight
from tests.factories import make_team
from tests.killteam_profiles import KT_PROFILE

pytestmark = pytest.mark.django_db

HOT_PROFILE = copy.deepcopy(KT_PROFILE)
HOT_PROFILE["weapons"][0] |= {"name": "Test plasma", "rules": ["Hot", "Limited 1"]}


@pytest.fixture
def match(player):
    mine = make_team(player, name="Red team", operatives=2, grenades=(1, 1), profile=HOT_PROFILE)
    theirs = make_team(player, name="Blue team", operatives=2)
    return kt_match_start(owner=Owner(player.pk, None), player="jan", mine=mine, opponent=theirs)


def helper(client, match, **data):
    return client.get(reverse("matches:kt-shoot", args=[match.pk]), data).content.decode()


def apply(client, match, **data):
    data = {"block": "0", "key": uuid.uuid4().hex} | data
    return client.post(reverse("matches:kt-shoot-apply", args=[match.pk]), data)


def test_the_helper_opens_with_the_active_operative_shooting_at_enemies_only(client, match):
    to_firefight(client, match)
    kt_tap(client, match, "activate a-2 engage")
    html = helper(client, match)
    assert "Test trooper 2 is the active operative." in html
    assert '<option value="a-2" selected>Test trooper 2 (Red team)</option>' in html
    assert '<option value="b-1">' not in html.split('id="shooter"')[1].split("</select>")[0]
    assert '<option value="Test plasma" selected>Test plasma</option>' in html
    assert html.count("Frag grenade (0 of 1 used)") == 1  # once, a weapon of the shooter
    targets = html.split('id="target"')[1].split("</select>")[0]
    assert '<option value="">Choose the target</option>' in targets
    assert 'value="b-1"' in targets and 'value="b-2"' in targets and 'value="a-' not in targets


def test_with_no_operative_active_the_helper_preselects_nothing_and_says_so(client, match):
    to_firefight(client, match)
    html = helper(client, match)
    assert "No operative is active on the board: choose the shooter." in html
    assert '<option value="" selected>Choose the shooter</option>' in html
    assert 'id="target"' not in html  # targets follow the shooter


def test_a_friend_as_the_target_is_refused_in_words(client, match):
    html = helper(client, match, shooter="a-1", weapon="Test plasma", target="a-2")
    assert "Test trooper 2 (Red team) is a friend: shoot an enemy operative." in html


def test_a_frag_grenade_at_a_primary_and_a_secondary_target_counts_one_use(client, match):
    to_firefight(client, match)
    kt_tap(client, match, "activate a-1 engage")
    throw = {"pick": "a-1|Frag grenade", "attack": "6 1 1 1", "defence": "1 1 1"}
    assert apply(client, match, target="b-1", as_action="1", **throw).status_code == 302
    # Back in the helper with the grenade: the next target is the same action's, by default.
    html = helper(client, match, shooter="a-1", weapon="Frag grenade", target="b-2")
    assert 'name="again" value="1" checked' in html and 'id="used-up"' not in html
    assert "Count it as" not in html  # no second Shoot action offered
    response = apply(client, match, target="b-2", again="1", rules_sent="1", **throw)
    assert response.status_code == 302
    board = client.get(response["Location"]).content.decode()
    assert "no more in this battle" not in board
    state = state_of(match)
    assert state.side("a").grenade("Frag grenade").used == 1
    assert state.operative("a-1").ap_spent == 1
    assert state.operative("b-2").current == 4  # 4 critical damage
    # A second throw that is not the same action is a use, and warned as the text says.
    kt_tap(client, match, "end a-1")
    helper_page = helper(client, match, shooter="a-2", weapon="Frag grenade", target="b-1")
    assert 'name="again"' in helper_page and 'name="again" value="1" checked' not in helper_page
    assert "1 of 1" in helper_page and 'id="used-up"' in helper_page


def test_refused_defence_dice_keep_what_was_typed(client, match):
    html = helper(
        client, match, shooter="a-1", weapon="Frag grenade", target="b-1",
        attack="6 5 1 1", defence="5 4 3 2 1",
    )  # fmt: skip
    assert "The defender rolls 3 dice" in html
    assert 'value="6 5 1 1"' in html and 'value="5 4 3 2 1"' in html


def test_hot_shows_its_exact_odds_and_its_roll_is_applied_with_the_shot(client, match):
    to_firefight(client, match)
    kt_tap(client, match, "activate a-1 engage")
    shot = {"shooter": "a-1", "weapon": "Test plasma", "target": "b-1"}
    html = helper(client, match, **shot)
    # 4+: a 1, 2 or 3 deals 2, 4 or 6 — half the time, 2 on average.
    assert "Chance of damage: <b>50.0%</b> · expected damage: <b>2.00</b> (exactly 2)" in html
    dice = {"pick": "a-1|Test plasma", "target": "b-1", "attack": "6 1 1 1", "defence": "1 1 1"}
    refused = apply(client, match, as_action="1", **dice)
    assert refused.status_code == 400 and "Enter the Hot roll" in refused.content.decode()
    assert apply(client, match, as_action="1", hot="3", **dice).status_code == 302
    state = state_of(match)
    assert state.operative("a-1").current == 2  # 8 less twice the 3
    assert state.operative("b-1").current == 4
    log = client.get(reverse("matches:match-board", args=[match.pk])).content.decode()
    assert "Test trooper 1 (Red team): Hot roll 3, 6 damage to itself" in log


def test_an_injured_shooter_is_said_beside_the_odds(client, match):
    for seen in (8, 7, 6, 5, 4):  # 3 of 8 left: injured
        assert kt_tap(client, match, f"wound a-1 {seen}").status_code == 200
    html = helper(client, match, shooter="a-1", weapon="Test plasma", target="b-1")
    assert "The shooter is injured: its weapon&#x27;s Hit is 1 worse." in html
    assert "a D6 below 5 deals twice the roll" in html


@pytest.mark.parametrize(
    ("chance", "shown"),
    [
        (Fraction(0), "0.0%"),
        (Fraction(1, 6**6), "<0.1%"),
        (Fraction(1, 1000), "0.1%"),
        (Fraction(1, 2), "50.0%"),
        (1 - Fraction(1, 6**6), ">99.9%"),
        (Fraction(1), "100.0%"),
    ],
)
def test_a_chance_that_rounds_to_nothing_says_it_is_not_nothing(chance, shown):
    assert percent(chance) == shown


def test_the_fight_helper_starts_with_the_active_operative_or_says_none_is(client, match):
    to_firefight(client, match)
    url = reverse("matches:kt-fight", args=[match.pk])
    idle = client.get(url).content.decode()
    assert "No operative is active on the board: choose the attacker." in idle
    assert '<option value="" selected>Choose the attacker</option>' in idle
    kt_tap(client, match, "activate a-2 engage")
    html = client.get(url).content.decode()
    attackers = html.split('id="attacker"')[1].split("</select>")[0]
    assert "Choose the attacker" not in attackers and "No operative is active" not in html
    assert attackers.index('value="a-2|Test blade"') < attackers.index('value="a-1|Test blade"')
    targets = html.split('id="target"')[1].split("</select>")[0]
    assert 'value="b-1|Test blade"' in targets and 'value="a-' not in targets
