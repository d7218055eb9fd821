"""The Kill Team Fight helper: the acting side's operatives fight enemies with melee weapons, the
odds are rules.killteam's with the policy in words, the entered dice are resolved die by die in
turn and both operatives' damage is applied once as one undoable event. Every figure is made up
(tests/killteam_profiles.py: Test blade, 3 attacks, 4+, 3/5; 8 wounds)."""

from __future__ import annotations

import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from armies.models import Owner
from matches.killteam.services import kt_match_start
from matches.models import MatchEvent
from rules import killteam as kt
from tests.app.test_killteam_match import kt_tap, match, state_of, to_firefight  # noqa: F401,F811
from tests.factories import make_match, make_team, make_user
from tests.killteam_profiles import KT_PROFILE

pytestmark = pytest.mark.django_db

PICK = {"attacker": "a-1|Test blade", "target": "b-1|Test blade"}
# Red's 6 and 4 are a critical and a normal success (Hit 4+); Blue's 5 is one normal.
DICE = {"adice": "6 4 1", "tdice": "5 2 1"}
# Red strikes with its critical (5), Blue blocks Red's normal with its normal: the fight is over.
STEPS = ["strike-critical", "block-normal-normal"]


def helper(game) -> str:
    return reverse("matches:kt-fight", args=[game.pk])


def apply_url(game) -> str:
    return reverse("matches:kt-fight-apply", args=[game.pk])


@pytest.fixture
def fighting(client, match):  # noqa: F811
    """Turning point 1's firefight: Red's first operative is active."""
    to_firefight(client, match)
    kt_tap(client, match, "activate a-1 engage")
    return match


def applied(**extra) -> dict:
    data = PICK | DICE | {"step": STEPS, "aseen": "8", "tseen": "8", "key": uuid.uuid4().hex}
    return data | extra


def options(html: str) -> list[str]:
    return re.findall(r'name="choose" value="([a-z-]+)"', html)


def test_the_board_links_the_fight_helper_beside_the_shoot_helper(client, match):  # noqa: F811
    html = client.get(reverse("matches:match-board", args=[match.pk])).content.decode()
    assert f'href="{helper(match)}">Fight…</a>' in html


def test_the_acting_side_attacks_and_only_its_enemies_are_offered(client, fighting):
    html = client.get(helper(fighting)).content.decode()
    attackers = re.search(r'<select id="attacker".*?</select>', html, re.S).group(0)
    targets = re.search(r'<select id="target".*?</select>', html, re.S).group(0)
    assert 'value="a-1|Test blade"' in attackers and "b-1" not in attackers
    assert 'value="b-1|Test blade"' in targets and "a-2" not in targets
    assert "Test gun" not in attackers + targets  # melee weapons only
    assert "Red team is acting" in html


def test_the_odds_are_the_rules_exact_ones_with_the_policy_in_words(client, fighting):
    html = client.get(helper(fighting), PICK).content.decode()
    blade = kt.attack_profile(attacks=3, hit=4, normal_damage=3, critical_damage=5)
    odds = kt.fight_odds(attacker=blade, attacker_wounds=8, defender=blade, defender_wounds=8)
    shown = f"{float(odds.attacker_incapacitates) * 100:.1f}%"
    assert f'id="chance-b-1-incapacitated">{shown}<' in html
    injured = kt.injure_chance(odds.damage_to_attacker, 8, 8)
    assert f'id="chance-a-1-injured">{float(injured) * 100:.1f}%<' in html
    assert "if both players strike with every die" in html
    assert "Damage Test trooper 1 (Blue team) takes" in html


def test_htmx_gets_only_the_helper_and_its_address_to_push(client, fighting):
    response = client.get(helper(fighting), PICK | DICE, headers={"HX-Request": "true"})
    html = response.content.decode()
    assert html.startswith('<div id="kt-fight-helper"') and "<html" not in html
    pushed = response["HX-Push-Url"]
    assert pushed.startswith(helper(fighting) + "?attacker=a-1%7CTest+blade")
    assert "adice=6+4+1" in pushed and "roll" not in pushed


def test_the_players_resolve_the_dice_in_turn_and_see_each_choices_result(client, fighting):
    html = client.get(helper(fighting), PICK | DICE).content.decode()
    assert "1 critical, 1 normal kept" in html and "0 critical, 1 normal kept" in html
    assert options(html) == [
        "strike-critical",
        "block-critical-normal",
        "strike-normal",
        "block-normal-normal",
    ]
    assert (
        "Strike with a critical success<small>5 damage: Test trooper 1 (Blue team) has 3 "
        "wounds left" in html
    )
    html = client.get(helper(fighting), PICK | DICE | {"step": STEPS[:1]}).content.decode()
    assert "<b>Test trooper 1 (Blue team)</b> resolves a die" in html  # Blue's turn
    assert options(html) == ["strike-normal", "block-normal-normal"]  # never a normal on a crit
    html = client.get(helper(fighting), PICK | DICE | {"step": STEPS}).content.decode()
    assert "The fight is over." in html and options(html) == []
    assert "Test trooper 1 (Blue team) takes 5 damage: 3 of 8 wounds left." in html
    back = client.get(helper(fighting), PICK | DICE | {"step": STEPS, "back": "1"}).content
    assert options(back.decode()) == ["strike-normal", "block-normal-normal"]


def test_a_fight_applies_both_operatives_damage_as_one_event_that_undoes(client, fighting):
    dice = {"adice": "6 4 1", "tdice": "5 5 1"}  # Blue has two normals: it blocks, then strikes
    steps = ["strike-critical", "block-normal-normal", "strike-normal"]
    page = client.get(helper(fighting), PICK | dice | {"step": steps}).content.decode()
    assert 'name="as_action" value="1" checked' in page  # a-1 is the active operative
    before = MatchEvent.objects.filter(match=fighting).count()
    response = client.post(apply_url(fighting), applied(step=steps, as_action="1", **dice))
    assert response.status_code == 302
    assert response["Location"] == reverse("matches:match-board", args=[fighting.pk])
    state = state_of(fighting)
    assert state.operative("a-1").current == 5 and state.operative("b-1").current == 3
    assert state.operative("a-1").ap_spent == 1
    row = MatchEvent.objects.filter(match=fighting).latest("seq")
    assert MatchEvent.objects.filter(match=fighting).count() == before + 1
    assert row.kind == "resolve" and row.payload["damage"] == {"a-1": 3, "b-1": 5}
    board = client.get(reverse("matches:match-board", args=[fighting.pk])).content.decode()
    assert "Fight with Test blade against Test blade." in board
    kt_tap(client, fighting, "undo last")
    state = state_of(fighting)
    assert state.operative("a-1").current == 8 and state.operative("b-1").current == 8
    assert state.operative("a-1").ap_spent == 0


def test_sent_twice_a_fight_applies_once_even_when_it_took_the_enemy_out(client, fighting):
    kt_tap(client, fighting, "wound b-1 8")
    kt_tap(client, fighting, "wound b-1 7")
    kt_tap(client, fighting, "wound b-1 6")  # 5 left: the critical strike takes it out
    data = applied(step=["strike-critical"], tseen="5")
    assert client.post(apply_url(fighting), data).status_code == 302
    count = MatchEvent.objects.filter(match=fighting).count()
    assert client.post(apply_url(fighting), data).status_code == 302
    assert MatchEvent.objects.filter(match=fighting).count() == count
    assert state_of(fighting).operative("b-1").incapacitated


def test_a_fight_on_wounds_that_changed_since_is_refused_and_changes_nothing(client, fighting):
    kt_tap(client, fighting, "wound b-1 8")  # another device: 7 left, the page showed 8
    response = client.post(apply_url(fighting), applied())
    assert response.status_code == 400
    assert "has 7 wounds left, not 8" in response.content.decode()
    assert state_of(fighting).operative("a-1").current == 8
    assert state_of(fighting).operative("b-1").current == 7


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        ({"adice": "6 9 1"}, "Enter the attack dice of Test trooper 1 (Red team) as numbers 1"),
        ({"tdice": "5 5"}, "Roll 3 attack dice; got 2."),
        ({"step": ["strike-critical", "block-normal-critical"]}, "cannot block a critical"),
        ({"step": ["hit-it"]}, "Resolve a die by striking or blocking"),
        ({"target": "a-2|Test blade"}, "are on the same side: fight an enemy operative"),
        ({"attacker": "a-1|Test gun"}, "Test gun is a ranged weapon"),
    ],
)
def test_bad_input_is_a_form_error_in_plain_words(client, fighting, extra, said):
    response = client.get(helper(fighting), PICK | DICE | extra)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'class="message message-error" role="alert"' in html and said in html
    assert 'value="a-1|Test blade" selected' in html or "a-1|Test gun" in extra.get("attacker", "")


def test_a_refused_die_keeps_the_dice_resolved_before_it(client, fighting):
    steps = ["strike-critical", "block-normal-critical"]
    html = client.get(helper(fighting), PICK | DICE | {"step": steps}).content.decode()
    assert "Strike with a critical success — 5 damage" in html
    assert options(html) == ["strike-normal", "block-normal-normal"]


@pytest.mark.parametrize(
    ("extra", "status", "said"),
    [
        ({"step": ["strike-critical"]}, 400, "Resolve every die first"),
        ({"key": ""}, 400, "client key"),
        ({"aseen": "x"}, 400, "The form lost the wounds"),
        ({"adice": ""}, 400, "enter both players' attack dice"),
        ({"adice": "7"}, 400, "numbers 1 to 6"),
        ({"attacker": "a-9|Test blade"}, 404, "no operative 'a-9'"),
        ({"target": "b-1|Nope"}, 404, "no weapon called 'Nope'"),
    ],
)
def test_a_bad_apply_is_a_400_or_404_in_words_and_changes_nothing(
    client, fighting, extra, status, said
):
    before = MatchEvent.objects.filter(match=fighting).count()
    response = client.post(apply_url(fighting), applied(**extra))
    assert response.status_code == status
    assert said in response.content.decode()
    assert MatchEvent.objects.filter(match=fighting).count() == before


def test_wrong_ids_are_404_and_wrong_methods_405(client, fighting):
    assert client.get(helper(fighting), {**PICK, "target": "b-7|Test blade"}).status_code == 404
    assert client.get(helper(fighting), {**PICK, "attacker": "nobody"}).status_code == 404
    assert client.post(helper(fighting), PICK).status_code == 405
    assert client.get(apply_url(fighting)).status_code == 405
    assert client.get(reverse("matches:kt-fight", args=[fighting.pk + 99])).status_code == 404


def test_someone_elses_match_and_a_heavy_gear_match_are_404(client, player, fighting):
    stranger = Client()
    stranger.force_login(make_user("eve"))
    assert stranger.get(helper(fighting), PICK).status_code == 404
    assert stranger.post(apply_url(fighting), applied()).status_code == 404
    assert state_of(fighting).operative("b-1").current == 8
    hgb = make_match(player)
    assert client.get(helper(hgb)).status_code == 404
    assert client.post(apply_url(hgb), applied()).status_code == 404


def test_rolling_on_screen_rolls_each_weapons_attacks_and_starts_the_fight(client, fighting):
    html = client.get(helper(fighting), PICK | {"roll": "1"}).content.decode()
    rolled = re.findall(r'name="[at]dice" type="text"[^>]*value="([1-6 ]+)"', html)
    assert [len(text.split()) for text in rolled] == [3, 3]
    assert "Strike or block, one die at a time" in html


def test_applying_a_fight_enforces_csrf(player, fighting):
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    assert client.post(apply_url(fighting), applied()).status_code == 403
    page = client.get(helper(fighting), PICK | DICE | {"step": STEPS}).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    response = client.post(apply_url(fighting), applied(csrfmiddlewaretoken=token))
    assert response.status_code == 302
    assert state_of(fighting).operative("b-1").current == 3


BRUTE = KT_PROFILE | {
    "name": "Brute",
    "weapons": [KT_PROFILE["weapons"][1] | {"name": "Maul", "rules": ["Brutal", "Shock"]}],
}


@pytest.fixture
def brawl(client, player):
    """Red's brutes (a Maul: Brutal, Shock) against Blue's troopers; a-1 is active."""
    mine = make_team(player, name="Red team", operatives=1, profile=BRUTE)
    theirs = make_team(player, name="Blue team", operatives=1)
    game = kt_match_start(owner=Owner(player.pk, None), player="jan", mine=mine, opponent=theirs)
    to_firefight(client, game)
    kt_tap(client, game, "activate a-1 engage")
    return game


def test_the_table_says_which_weapon_rules_apply_and_the_odds_and_choices_follow(client, brawl):
    pick = {"attacker": "a-1|Maul", "target": "b-1|Test blade"}
    html = client.get(helper(brawl), pick).content.decode()
    assert 'name="arule" value="Brutal" checked' in html
    assert 'name="arule" value="Shock" checked' in html
    assert "Brute (Red team)&#x27;s Shock: in a fight, the first critical strike" in html
    # Blue's normal cannot block the Maul's normal (Brutal) while Brutal applies ...
    dice = {"adice": "4 4 1", "tdice": "5 1 1", "step": ["strike-normal"]}
    html = client.get(helper(brawl), pick | dice).content.decode()
    assert options(html) == ["strike-normal"]
    # ... and can once the players untick it (Shock stays).
    ticked = {"arule_for": "a-1|Maul", "arule": "Shock", "trule_for": "b-1|Test blade"}
    html = client.get(helper(brawl), pick | ticked | dice).content.decode()
    assert 'name="arule" value="Brutal">' in html and "s Brutal:" not in html
    assert options(html) == ["strike-normal", "block-normal-normal"]
    assert "Brute (Red team)&#x27;s Shock:" in html
    odds = client.get(helper(brawl), pick | ticked).content.decode()
    assert "s Brutal:" not in odds


def test_a_new_pick_starts_with_all_of_its_weapons_rules(client, brawl):
    others = {"arule_for": "a-1|Other", "arule": "Shock"}  # ticked for another pick
    html = client.get(helper(brawl), PICK | {"attacker": "a-1|Maul"} | others).content.decode()
    assert 'name="arule" value="Brutal" checked' in html
