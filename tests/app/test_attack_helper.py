"""The attack helper from the board: who may use it, the htmx and plain branches, the exact odds as
inputs change, figures the data lacks asked for (never guessed) and remembered, rolls checked
against the skill, and a resolved attack applied once as one undoable event."""

from __future__ import annotations

import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from matches.models import Match, MatchEvent
from rules.hgb.attack import Attacker, Cover, RangeBand, Target, attack_summary
from tests.factories import make_match, make_user, tap

pytestmark = pytest.mark.django_db

HUNTER, JAGER = "a-1-3", "b-1-3"  # a Hunter with an LAC; a veteran Jäger (DEF 3)
ODDS = {"HX-Request": "true", "HX-Target": "attack-odds"}
HELPER = {"HX-Request": "true", "HX-Target": "attack-helper"}
SECOND = {"band": "short", "cover": "some", "dmove": "0", "armor": "14"}


@pytest.fixture
def match(client, player):
    match = make_match(player, mine="north_starter", opponent="south_starter")
    client.get(reverse("matches:match-board", args=[match.pk]))  # the seat cookie, as a tablet
    return match


def helper_url(match: Match) -> str:
    return reverse("matches:attack-helper", args=[match.pk])


def apply_url(match: Match) -> str:
    return reverse("matches:attack-apply", args=[match.pk])


def shot(**changes) -> dict:
    """A Hunter's LAC shot at a Jäger at Medium range in the open, every figure typed in."""
    data = {
        "f": "1",
        "attacker": HUNTER,
        "weapon": "0",
        "kind": "direct",
        "target": JAGER,
        "amove": "0",
        "acc": "0",
        f"dmove.{JAGER}": "0",
        f"armor.{JAGER}": "14",
        f"band.{JAGER}": "medium",
        f"cover.{JAGER}": "open",
        "key": uuid.uuid4().hex,
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def expected(cover: Cover = Cover.OPEN, band: RangeBand = RangeBand.MEDIUM):
    return attack_summary(
        Attacker(attack_dice=2, movement_modifier=0, accuracy=0, damage_multiplier=8),
        Target(defense_dice=3, movement_modifier=0, armor=14, range_band=band, cover=cover),
    )


def exact(p) -> str:
    return f"{p.numerator}/{p.denominator}"


def state(match: Match):
    match.refresh_from_db()
    return match.current_state()


# --- Who may use it -------------------------------------------------------------------------------


def test_every_card_on_the_board_has_an_attack_link_for_the_players(client, match):
    html = client.get(reverse("matches:match-board", args=[match.pk])).content.decode()
    assert f'href="/matches/{match.pk}/attack/?attacker={HUNTER}">Attack…</a>' in html
    watch = client.get(reverse("matches:match-watch", args=[match.watch_slug])).content.decode()
    assert "Attack…" not in watch


def test_the_helper_opens_on_the_attacker_from_the_card(client, match):
    response = client.get(helper_url(match) + f"?attacker={HUNTER}")
    html = response.content.decode()
    assert response.status_code == 200
    assert f'<option value="{HUNTER}" selected>Hunter 3 (Northern Guard CG1)</option>' in html
    assert '<option value="0" selected>Light Autocannon (LAC)</option>' in html
    assert "Target: Jäger 1" in html  # the first enemy model until the player picks one


def test_only_the_players_use_the_helper(client, match):
    stranger = Client()
    stranger.force_login(make_user("mallory"))
    assert stranger.get(helper_url(match)).status_code == 404
    assert (
        stranger.post(apply_url(match), shot(att="6 6", **{f"def.{JAGER}": "1 1 1"})).status_code
        == 404
    )
    assert Client().get(helper_url(match)).status_code == 404  # a spectator
    assert client.get(reverse("matches:attack-helper", args=[match.pk + 99])).status_code == 404
    assert not MatchEvent.objects.filter(match=match).exists()


def test_a_post_without_a_client_key_or_a_setting_is_400(client, match):
    response = client.post(apply_url(match), rolled(key=None))
    assert response.status_code == 400 and "client key" in response.content.decode()
    assert client.post(apply_url(match), rolled(key="short")).status_code == 400
    dice = reverse("matches:attack-dice", args=[match.pk])
    assert client.post(dice, {"screen": "maybe"}).status_code == 400
    assert not MatchEvent.objects.filter(match=match).exists()


def test_with_nobody_left_to_attack_the_helper_goes_back_to_the_board(client, match):
    for unit in match.current_state().units[1:]:
        tap(client, match, f"destroy {unit.id}")
    response = client.get(helper_url(match))
    assert response.status_code == 302 and response["Location"] == f"/matches/{match.pk}/"
    assert "there is nobody to attack" in client.get(response["Location"]).content.decode()
    response = client.get(helper_url(match), shot(), headers=ODDS)
    assert response["HX-Redirect"] == f"/matches/{match.pk}/"


def test_every_helper_page_has_a_fresh_client_key(client, match):
    # A helper reopened from a URL that carries an old key must not reuse it: the server would
    # answer the new attack with the old one.
    page = client.get(helper_url(match), shot(key="old-key-0000000000")).content.decode()
    assert 'name="key" id="attack-key" value="old-key-0000000000"' not in page
    assert re.search(r'name="key" id="attack-key" value="[0-9a-f]{32}"', page)


def test_wrong_methods_are_405(client, match):
    assert client.post(helper_url(match)).status_code == 405
    assert client.put(apply_url(match)).status_code == 405
    assert client.get(reverse("matches:attack-dice", args=[match.pk])).status_code == 405


# --- The odds -------------------------------------------------------------------------------------


def test_the_htmx_odds_update_returns_only_the_odds_fragment(client, match):
    response = client.get(helper_url(match), shot(), headers=ODDS)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.startswith('<section id="attack-odds"')
    assert "<html" not in html and "<form" not in html and "<select" not in html
    odds = expected()
    assert '<b data-chance="hit">' in html
    assert exact(odds.hit_chance) in html
    for part in (
        "Medium range",
        "Open target",
        "Hunter 3 (Northern Guard CG1)&#x27;s movement modifier (typed in)",
    ):
        assert part in html
    assert "Light Autocannon Damage Multiplier (from the datacard)" in html
    assert "Jäger 3 (MILICIA CG1)&#x27;s Armor (typed in)" in html


def test_changing_the_range_band_and_the_cover_changes_the_odds(client, match):
    before = client.get(helper_url(match), shot(), headers=ODDS).content.decode()
    after = client.get(
        helper_url(match),
        shot(**{f"band.{JAGER}": "long", f"cover.{JAGER}": "partial"}),
        headers=ODDS,
    ).content.decode()
    now = expected(Cover.PARTIAL, RangeBand.LONG)
    assert exact(now.hit_chance) in after and exact(now.hit_chance) not in before
    assert "Long range" in after and "Partial cover" in after


def test_the_htmx_helper_branch_returns_the_form_without_the_page(client, match):
    html = client.get(helper_url(match), shot(target="b-1-2"), headers=HELPER).content.decode()
    assert html.startswith('<div id="attack-helper"') and "<html" not in html
    assert "Target: Jäger 2" in html


def test_figures_the_data_lacks_are_asked_for_never_guessed(client, match):
    html = client.get(
        helper_url(match), shot(**{f"armor.{JAGER}": "", "acc": ""}), headers=ODDS
    ).content.decode()
    assert "To show the odds, the helper needs" in html
    assert "Enter the Light Autocannon&#x27;s Accuracy: the data does not give it." in html
    assert "Enter the Jäger 3 (MILICIA CG1)&#x27;s Armor: the data does not give it." in html
    assert 'href="#id_armor.b-1-3"' in html
    assert "to hit" not in html
    page = client.get(helper_url(match) + f"?attacker={HUNTER}&target={JAGER}").content.decode()
    assert 'name="dm"' not in page  # the LAC's DM x8 is in the data
    assert f'name="armor.{JAGER}"' in page and "not in the data: type it in" in page
    hunter = client.get(helper_url(match) + f"?attacker=b-1-3&target={HUNTER}").content.decode()
    assert f'name="armor.{HUNTER}"' not in hunter  # the Hunter's Armor 15 is in the data


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({f"band.{JAGER}": "warp"}, "Range band: Select a valid choice"),
        ({"amove": "fast"}, "Walker mode, Combat Speed: Enter a whole number"),
        ({"acc": "99"}, "less than or equal to 9"),
        ({"att": "five"}, "Enter the result, such as 5, or each die"),
        ({"att": "5 3 1", f"def.{JAGER}": "2 1 1"}, "roll is made with 2 dice; 3 were entered"),
        ({"att": "5 3", f"def.{JAGER}": "2 1"}, "roll is made with 3 dice; 2 were entered"),
        ({"att": "9", f"def.{JAGER}": "2"}, "at most 7 with 2 dice"),
        ({"att": "7 3", f"def.{JAGER}": "2 1 1"}, "Each die shows 1 to 6"),
        ({"attacker": "z-9-9"}, "That attacker is not a model in play"),
        ({"target": HUNTER}, "A model can&#x27;t attack itself"),
        ({"spray": "1", "rof": "0"}, "at most 0 RoF points can be used"),
        (
            {"spray": "1", "rof": "2", f"band.{JAGER}": "extreme"},
            "RoF can&#x27;t be used at Extreme",
        ),
        (
            {"also": "b-1-2", **{f"{n}.b-1-2": v for n, v in SECOND.items()}},
            "Only Spray Fire or an Area Effect weapon attacks several models",
        ),
        ({"kind": "indirect"}, "is not marked by a Forward Observer"),
    ],
)
def test_bad_input_is_a_sentence_in_the_odds_never_a_500(client, match, changes, message):
    response = client.get(helper_url(match), shot(**changes), headers=ODDS)
    assert response.status_code == 200
    assert message in response.content.decode()


@pytest.mark.parametrize(
    "query",
    [
        "weapon=99&kind=nuke&also=x&also=y",
        "attacker=&target=&f=1&band.b-1-3=&amove=1e9",
        "f=1&att=%00&def.b-1-3=-1&dir=0&rolled=forged",
        "also=" + "&also=".join(f"b-{g}-{m}" for g in (1, 2) for m in range(1, 6)),
        "kind=grenade&size=-4&grange=far",
        "kind=indirect&target=b-1-1&band=short&cover=open&att=3&dir=9",
    ],
)
def test_malformed_queries_are_answered_never_a_500(client, match, query):
    for headers in ({}, ODDS, HELPER):
        assert client.get(f"{helper_url(match)}?{query}", headers=headers).status_code == 200


# --- Rolls and applying ---------------------------------------------------------------------------


def rolled(**changes) -> dict:
    return shot(**({"att": "5 3", f"def.{JAGER}": "2 1 1"} | changes))


def test_entered_rolls_are_resolved_in_the_odds(client, match):
    html = client.get(helper_url(match), rolled(), headers=ODDS).content.decode()
    assert "Attack 5 against defense 2: MoS 3 x DM 8 = 24 damage against Armor 14: 1 box." in html
    assert "Apply: Jäger 3 (MILICIA CG1) one box" in html
    # A result entered as one number works too (the dice count is checked only for dice).
    html = client.get(
        helper_url(match), shot(att="6", **{f"def.{JAGER}": "0"}), headers=ODDS
    ).content.decode()
    assert "Attack 6 against defense 0 (Fumble, no modifiers)" in html


def test_apply_from_htmx_applies_once_as_one_event(client, match):
    data = rolled()
    first = client.post(apply_url(match), data, headers={"HX-Request": "true"})
    again = client.post(apply_url(match), data, headers={"HX-Request": "true"})
    html = first.content.decode()
    assert first.status_code == again.status_code == 200
    # The whole helper is swapped for what was applied: no form is left to apply it twice.
    assert html.startswith('<div id="attack-helper" class="attack">\n<section class="odds applied"')
    assert "<form" not in html and "<html" not in html
    assert state(match).unit(JAGER).track.marked == 1
    event = MatchEvent.objects.get(match=match)
    assert event.kind == "attack"
    assert event.summary == (
        "Hunter 3 (Northern Guard CG1) attacked. Light Autocannon, direct fire at Jäger 3 "
        "(MILICIA CG1): Attack 5 against defense 2: MoS 3 x DM 8 = 24 damage against Armor 14: "
        "1 box. Rolls entered by the players. Jäger 3 (MILICIA CG1): 1 box crossed off: Sturdy "
        "(No effect)."
    )
    # The attacker records that it attacked this round (its "actions").
    assert event.units == [HUNTER, JAGER]


def test_a_plain_apply_redirects_to_the_target_on_the_board(client, match):
    response = client.post(apply_url(match), rolled())
    assert response.status_code == 302
    assert response["Location"] == f"/matches/{match.pk}/#unit-{JAGER}"
    board = client.get(response["Location"]).content.decode()
    assert "Hunter 3 (Northern Guard CG1) attacked." in board
    assert state(match).unit(JAGER).track.marked == 1


def test_without_javascript_apply_asks_again_with_a_post_form(client, match):
    response = client.get(apply_url(match), rolled())
    html = response.content.decode()
    assert response.status_code == 200
    assert '<form method="post" action="/matches/' in html and "csrfmiddlewaretoken" in html
    assert f'name="def.{JAGER}" value="2 1 1"' in html
    assert not MatchEvent.objects.filter(match=match).exists()


def test_nothing_is_applied_before_every_roll_is_in(client, match):
    response = client.post(apply_url(match), shot(att="5 3"), headers={"HX-Request": "true"})
    html = response.content.decode()
    assert response.status_code == 200
    assert "Enter every roll first" in html and "Enter the defense roll of Jäger 3" in html
    assert response["HX-Retarget"] == "#attack-odds" and html.startswith(
        '<section id="attack-odds"'
    )
    assert not MatchEvent.objects.filter(match=match).exists()


def test_an_applied_attack_is_undone_like_every_event(client, match):
    client.post(apply_url(match), rolled(att="6 6"))  # MoS 5 x 8 = 40 >= 28: two boxes
    assert state(match).unit(JAGER).track.marked == 2
    tap(client, match, "undo last")
    assert state(match).unit(JAGER).track.marked == 0
    tap(client, match, "redo 1")
    assert state(match).unit(JAGER).track.marked == 2


def test_a_miss_is_recorded_in_the_log_and_changes_no_box(client, match):
    html = client.get(helper_url(match), rolled(att="2 1"), headers=ODDS).content.decode()
    assert "Record it in the log" in html
    client.post(apply_url(match), rolled(att="2 1"))
    assert state(match).unit(JAGER).track.marked == 0
    assert MatchEvent.objects.get(match=match).summary.endswith("Jäger 3 (MILICIA CG1): missed.")


def test_a_refused_attack_says_why_changes_nothing_and_is_logged_as_refused(client, match):
    tap(client, match, f"used {HUNTER} 1")
    html = client.get(helper_url(match), rolled(), headers=ODDS).content.decode()
    assert "Hunter 3 (Northern Guard CG1) is Used and has no kept action" in html
    response = client.post(apply_url(match), rolled(), headers={"HX-Request": "true"})
    assert "can&#x27;t attack until the next round" in response.content.decode()
    assert MatchEvent.objects.filter(match=match, kind="attack", refused=False).count() == 0
    refusal = MatchEvent.objects.get(match=match, kind="attack")
    assert refusal.refused and not refusal.effective and refusal.after == {}
    assert "can't attack until the next round" in refusal.summary


def test_reaction_fire_spends_the_kept_action(client, match):
    tap(client, match, f"keep {HUNTER} 1")
    html = client.get(helper_url(match), rolled(), headers=ODDS).content.decode()
    assert (
        "Reaction Fire: Hunter 3 (Northern Guard CG1) kept its action, and applying this attack "
        "spends it." in html
    )
    client.post(apply_url(match), rolled())
    hunter = state(match).unit(HUNTER)
    assert hunter.used and not hunter.kept_action
    assert "(Reaction Fire: its kept action is spent)" in MatchEvent.objects.last().summary


def test_a_limited_ammo_weapon_spends_a_shot(client, match):
    data = rolled(attacker="a-1-1", weapon="1", dm="10")  # Hunter 1's Heavy Panzerfaust
    html = client.get(helper_url(match), data, headers=ODDS).content.decode()
    assert "HPZF has Limited Ammo: 2 shots left" in html
    client.post(apply_url(match), data)
    assert state(match).unit("a-1-1").ammo[0].left == 1


# --- Figures remembered for the match -------------------------------------------------------------


def test_typed_in_figures_are_remembered_for_the_match(client, match):
    client.post(apply_url(match), rolled(**{f"armor.{JAGER}": "13", "acc": "1"}))
    page = client.get(helper_url(match) + "?attacker=a-1-4&target=b-1-4").content.decode()
    # Another Hunter's LAC at another Jäger model: the LAC Accuracy is the weapon's. The
    # Stripped-Down Jäger is another model, so its Armor is asked afresh.
    assert 'id="id_acc" name="acc" type="number" inputmode="numeric" step="1" value="1"' in page
    assert "typed in earlier this match" in page
    assert 'name="armor.b-1-4" type="number" inputmode="numeric" step="1" value=""' in page
    again = client.get(helper_url(match) + "?attacker=a-1-4&target=b-1-2").content.decode()
    assert 'name="armor.b-1-2" type="number" inputmode="numeric" step="1" value="13"' in again
    assert MatchEvent.objects.get(match=match).payload["figures"] == {
        "models": {
            "hunter": {"att.walker.combat": 0},
            "jager": {"def.walker.combat": 0, "armor": 13},
        },
        "weapons": {"LAC": {"accuracy": 1}},
    }


# --- Several targets, indirect fire, grenades -----------------------------------------------------


def test_spray_fire_resolves_several_models_with_one_attack_roll(client, match):
    other = "b-1-2"
    data = rolled(
        also=other,
        rof="2",
        spray="1",
        **{
            f"band.{other}": "short",
            f"cover.{other}": "some",
            f"dmove.{other}": "0",
            f"armor.{other}": "14",
            f"def.{other}": "6 6 1",
        },
    )
    html = client.get(helper_url(match), data, headers=ODDS).content.decode()
    assert "Models hit by the one attack roll" in html
    assert "Spray Fire: 1 RoF point, +1 inch of area." in html
    bar = html.split('id="attack-bar"')[1].split("</a>")[0]
    assert "+1 more" in bar  # the sticky bar names the first result and counts the others
    odds = client.get(helper_url(match), shot(**{k: v for k, v in data.items() if k != "att"}))
    bar = odds.content.decode().split('id="attack-bar"')[1].split("</a>")[0]
    assert "· +1 more" in bar  # before the rolls: the odds of the first target, and one more
    client.post(apply_url(match), data)
    event = MatchEvent.objects.get(match=match)
    assert event.payload["targets"] == [[JAGER, "one_box"], [other, "miss"]]
    assert "Jäger 2 (MILICIA CG1): missed" in event.summary


def test_an_area_effect_says_who_defends(client, match):
    html = client.get(helper_url(match), shot(ae="2"), headers=ODDS).content.decode()
    assert "Every model within 2 inches of the point where the attack landed" in html
    assert "The attacking model defends too if it is inside the area" in html


def test_concentrated_fire_adds_to_the_damage_multiplier(client, match):
    html = client.get(helper_url(match), rolled(rof="2", conc="2"), headers=ODDS).content.decode()
    assert "Concentrated Fire: 2 RoF points, +1 DM each" in html
    assert "MoS 3 x DM 10 = 30 damage against Armor 14: 2 boxes" in html


def test_indirect_fire_at_a_marked_target_scatters_and_asks_who_is_under_it(client, match):
    tap(client, match, f"fo {JAGER} 1")
    data = shot(kind="indirect", band="short", cover="open")
    html = client.get(helper_url(match), data, headers=ODDS).content.decode()
    assert "Strikes the target point" in html and "Threshold 4" in html
    assert "Open target, seen from the Forward Observer" in html
    # A 2 + 1 (open) = 3 fails by 1: it scatters one inch; the direction die is asked first.
    html = client.get(helper_url(match), data | {"att": "2 1"}, headers=ODDS).content.decode()
    assert "enter the direction die" in html
    html = client.get(
        helper_url(match), data | {"att": "2 1", "dir": "3"}, headers=ODDS
    ).content.decode()
    assert "It scatters 1 inch toward 6 o&#x27;clock" in html
    assert "Nobody is under it yet." in html and "Record it in the log" in html
    # The Jäger is still under the landing point: it defends against the unmodified 2.
    under = data | {"att": "2 1", "dir": "3", f"under.{JAGER}": "on", f"def.{JAGER}": "1 1 1"}
    html = client.get(helper_url(match), under, headers=ODDS).content.decode()
    assert "Attack 2 against defense 0 (Fumble, no modifiers): MoS 2" in html
    client.post(apply_url(match), under)
    assert state(match).unit(JAGER).track.marked == 1


def test_a_hand_grenade_asks_for_the_throwers_size(client, match):
    data = shot(kind="grenade", grange="medium", cover="open", dm="10")
    html = client.get(helper_url(match), data, headers=ODDS).content.decode()
    assert "Enter the Size of Hunter 3 (Northern Guard CG1): the data does not give it." in html
    html = client.get(helper_url(match), data | {"size": "6"}, headers=ODDS).content.decode()
    assert "Size 6: Short range is up to 6 inches (+0), Medium up to 12 inches" in html
    assert "Medium grenade range (up to twice the thrower&#x27;s Size in inches)" in html
    assert "The thrower is its own spotter" in html


def test_a_targets_autopilot_gives_it_one_defense_die(client, match):
    html = client.get(
        helper_url(match), shot(**{f"auto.{JAGER}": "on"}), headers=ODDS
    ).content.decode()
    assert "Autopilot on: 1 die for defense (Defense Skill 3)" in html


# --- Dice rolled on screen ------------------------------------------------------------------------


def test_dice_rolled_on_screen_are_the_servers_and_the_log_says_so(client, match):
    dice = reverse("matches:attack-dice", args=[match.pk])
    response = client.post(dice, {"screen": "1", "attacker": HUNTER})
    assert response.status_code == 302 and response["Location"].endswith(f"?attacker={HUNTER}")
    page = client.get(helper_url(match), shot(), headers=HELPER).content.decode()
    assert ">Roll on screen</button>" in page
    page = client.get(helper_url(match), shot(roll="screen"), headers=HELPER).content.decode()
    values = dict(
        re.findall(r'name="(att|def\.b-1-3)" type="text" autocomplete="off" value="([^"]*)"', page)
    )
    assert re.fullmatch(r"[1-6] [1-6]", values["att"])
    assert re.fullmatch(r"[1-6] [1-6] [1-6]", values["def.b-1-3"])
    token = re.search(r'name="rolled" value="([^"]+)"', page).group(1)
    assert page.count("rolled on screen") == 2
    client.post(
        apply_url(match),
        shot(att=values["att"], rolled=token, **{f"def.{JAGER}": values["def.b-1-3"]}),
    )
    assert "Dice rolled on screen." in MatchEvent.objects.get(match=match).summary


def test_a_roll_typed_over_a_screen_roll_or_a_forged_token_counts_as_entered(client, match):
    page = client.get(helper_url(match), shot(roll="screen"), headers=HELPER).content.decode()
    token = re.search(r'name="rolled" value="([^"]+)"', page).group(1)
    client.post(apply_url(match), rolled(rolled=token[:-2] + "xx"))
    assert "Rolls entered by the players." in MatchEvent.objects.get(match=match).summary


def test_the_dice_setting_is_per_device_and_off_by_default(client, match):
    page = client.get(helper_url(match)).content.decode()
    assert ">Roll on screen</button>" not in page
    assert "Roll on screen instead of real dice" in page
    other = Client()
    other.force_login(match.a_user)
    client.post(reverse("matches:attack-dice", args=[match.pk]), {"screen": "1"})
    assert ">Roll on screen</button>" in client.get(helper_url(match)).content.decode()
    assert ">Roll on screen</button>" not in other.get(helper_url(match)).content.decode()


# --- CSRF -----------------------------------------------------------------------------------------


def csrf_client(user) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return client


def token_of(client: Client, url: str) -> str:
    html = client.get(url).content.decode()
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)


def test_applying_an_attack_enforces_csrf(player, match):
    client = csrf_client(player)
    assert client.post(apply_url(match), rolled()).status_code == 403
    token = token_of(
        client, apply_url(match) + "?" + "&".join(f"{k}={v}" for k, v in rolled().items())
    )
    assert client.post(apply_url(match), rolled(csrfmiddlewaretoken=token)).status_code == 302
    assert state(match).unit(JAGER).track.marked == 1


def test_the_dice_setting_enforces_csrf(player, match):
    client = csrf_client(player)
    url = reverse("matches:attack-dice", args=[match.pk])
    assert client.post(url, {"screen": "1"}).status_code == 403
    token = token_of(client, helper_url(match))
    assert client.post(url, {"screen": "1", "csrfmiddlewaretoken": token}).status_code == 302


def test_switching_the_dice_keeps_the_figures_typed_since_the_page_was_drawn(client, match):
    """The hidden dice form keeps copies as old as the page; the form on screen (htmx sends it,
    marked ``f``) wins, so a figure typed after the page was drawn is not put back."""
    dice = reverse("matches:attack-dice", args=[match.pk])
    page = client.get(helper_url(match), shot(), headers=HELPER).content.decode()
    assert 'name="kept.attacker"' in page  # the copies a browser without JavaScript sends
    typed = {
        **shot(**{f"armor.{JAGER}": "11"}),
        "kept.attacker": HUNTER,
        f"kept.armor.{JAGER}": "14",
    }
    page = client.post(dice, {"screen": "1", **typed}, headers=HELPER).content.decode()
    assert re.search(rf'id="id_armor\.{JAGER}"[^>]*value="11"', page), "the typed Armor is lost"
    without_js = client.post(dice, {"screen": "0", "kept.attacker": HUNTER})
    assert without_js["Location"].endswith(f"?attacker={HUNTER}")
