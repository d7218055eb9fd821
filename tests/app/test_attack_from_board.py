"""The attack helper at arm's length from the board: the models its lists offer, the forward
observer named when a target is marked, both models' actions on the ECM page, and the figures
the match has on the board's weapon sheets."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from matches.models import Match
from tests.factories import make_match, make_user, tap

pytestmark = pytest.mark.django_db

HUNTER, JAGER = "a-1-3", "b-1-3"  # a Hunter with an LAC; a veteran Jäger


@pytest.fixture
def match(client, player):
    match = make_match(player, mine="north_starter", opponent="south_starter")
    client.get(reverse("matches:match-board", args=[match.pk]))  # the seat cookie, as a tablet
    return match


def state(match: Match):
    match.refresh_from_db()
    return match.current_state()


def options(page: str, select: str) -> list[str]:
    """The values a <select> of the page offers."""
    body = page.split(f'id="{select}"', 1)[1].split("</select>", 1)[0]
    return [part.split('"', 1)[0] for part in body.split('<option value="')[1:]]


def helper(client, match, **query) -> str:
    response = client.get(reverse("matches:attack-helper", args=[match.pk]), query)
    assert response.status_code == 200
    return response.content.decode()


# --- The helper's lists ---------------------------------------------------------------------------


def test_the_lists_offer_only_models_that_can_attack_and_enemies_in_play(client, match):
    assert tap(client, match, "used a-1-1 1").status_code == 200  # Used, no kept action
    assert tap(client, match, "speed a-1-2 top").status_code == 200  # spent its action moving
    assert tap(client, match, "keep a-1-4 1").status_code == 200  # Used, kept action: can react
    assert tap(client, match, "destroy b-1-2").status_code == 200  # out of the game
    page = helper(client, match, attacker=HUNTER)
    attackers = options(page, "id_attacker")
    units = state(match).units
    assert "a-1-1" not in attackers and "a-1-2" not in attackers
    assert "b-1-2" not in attackers
    assert {HUNTER, "a-1-4", "b-1-1"} <= set(attackers)
    assert len(attackers) == len(units) - 3
    targets = options(page, "id_target")
    # Only the Hunter's enemies in play: never a friend, never the destroyed Jäger.
    assert all(uid.startswith("b-") for uid in targets)
    assert "b-1-2" not in targets
    assert len(targets) == sum(1 for u in units if u.side == "b") - 1


def test_a_model_that_cannot_attack_stays_listed_when_tapped_with_the_reason(client, match):
    tap(client, match, "used a-1-1 1")
    page = helper(client, match, attacker="a-1-1")
    assert "a-1-1" in options(page, "id_attacker")
    assert "is Used and has no kept action: it can&#x27;t attack until the next round" in page


def test_the_helper_opens_on_an_attacker_that_can_act(client, match):
    tap(client, match, "used a-1-1 1")
    page = helper(client, match)
    chosen = page.split('id="id_attacker"', 1)[1].split(" selected", 1)[0]
    assert chosen.rsplit('value="', 1)[1].startswith("a-1-2")


def test_while_a_group_activates_its_models_and_kept_actions_are_the_attackers(client, match):
    tap(client, match, "keep b-2-1 1")  # a Spitting Cobra keeps its action for Reaction Fire
    for op in ("roll a 6", "roll b 1", "first a", "activate a-1"):
        assert tap(client, match, op).status_code == 200
    page = helper(client, match, attacker=HUNTER)
    attackers = options(page, "id_attacker")
    assert attackers == ["a-1-1", "a-1-2", "a-1-3", "a-1-4", "a-1-5", "b-2-1"]
    assert len(options(page, "id_target")) == 9  # the nine MILICIA models, and no Hunter


# --- Forward observation names its observer -------------------------------------------------------


def observe_url(match: Match) -> str:
    return reverse("matches:attack-observe", args=[match.pk])


def test_the_board_asks_who_observed_before_marking(client, match):
    board = client.get(reverse("matches:match-board", args=[match.pk])).content.decode()
    assert f'href="{observe_url(match)}?target={JAGER}">FO mark…</a>' in board
    page = client.get(observe_url(match), {"target": JAGER}).content.decode()
    assert "Which model observed Jäger 3 (MILICIA CG1)?" in page
    # Every Northern model can observe; no MILICIA model is offered.
    assert page.count(f'value="fo {JAGER} 1 a-') == 10
    assert f'value="fo {JAGER} 1 b-' not in page
    assert f'action="{reverse("matches:match-event", args=[match.pk])}"' in page


def test_marking_spends_the_observers_action_and_a_second_action_warns(client, match):
    response = tap(client, match, f"fo {JAGER} 1 a-2-1")
    assert response.status_code == 200
    after = state(match)
    assert after.unit(JAGER).fo_mark
    observer = after.unit("a-2-1")
    assert [kind for kind, _ in observer.actions] == ["fo"]
    assert "marked by Hunter 1 (Northern Guard CG2)" in response.content.decode()
    # The same observer marks another target: warned, never refused.
    response = tap(client, match, "fo b-1-1 1 a-2-1")
    assert response.status_code == 200
    assert state(match).unit("b-1-1").fo_mark
    assert "already spent its action this round" in response.content.decode()
    # The observer who already acted is listed with what it did.
    page = client.get(observe_url(match), {"target": "b-1-2"}).content.decode()
    assert "already acted: #1: forward observation of Jäger 3 (MILICIA CG1)" in page


def test_an_observer_on_the_targets_side_or_unknown_is_refused_in_plain_words(client, match):
    response = tap(client, match, f"fo {JAGER} 1 b-1-1")
    assert "A forward observer marks an enemy model" in response.content.decode()
    assert not state(match).unit(JAGER).fo_mark
    assert tap(client, match, f"fo {JAGER} 1 a-9-9").status_code == 404
    assert tap(client, match, f"fo {JAGER} 0 a-2-1").status_code == 400


def test_the_observe_page_reads_its_target_safely(client, match):
    assert client.get(observe_url(match)).status_code == 400
    assert client.get(observe_url(match), {"target": "b-9-9"}).status_code == 404
    assert client.get(observe_url(match), {"target": "\u202e"}).status_code == 404
    stranger = Client()
    stranger.force_login(make_user("mallory"))
    assert stranger.get(observe_url(match), {"target": JAGER}).status_code == 404


# --- The ECM page records both models' actions ----------------------------------------------------


def test_ecm_records_the_blockers_and_the_observers_actions(client, match):
    marked, blocker, observer = "b-1-1", "b-1-2", "a-1-1"
    tap(client, match, f"fo {marked} 1")  # marked without naming the observer (an older tap)
    tap(client, match, f"keep {blocker} 1")
    page = client.get(reverse("matches:attack-ecm", args=[match.pk])).content.decode()
    assert "Both actions are spent either way." in page
    data = {
        "target": marked,
        "observer": observer,
        "blocker": blocker,
        "ocomm": "0",
        "bcomm": "0",
        "ecm": "2",
        "oroll": "3",
        "broll": "5",
        "key": "ecm-key-0002",
    }
    response = client.post(reverse("matches:attack-ecm-apply", args=[match.pk]), data)
    assert response.status_code == 302
    after = state(match)
    assert not after.unit(marked).fo_mark
    assert not after.unit(blocker).kept_action
    assert after.unit(blocker).actions == (
        ("ecm", "#3: ECM against the observation of Jäger 1 (MILICIA CG1)"),
    )
    assert after.unit(observer).actions == (
        ("fo", "#3: forward observation of Jäger 1 (MILICIA CG1) (ECM contest)"),
    )
    # The blocker's action is spent: an attack by it later this round is warned about.
    page = helper(client, match, attacker=blocker)
    assert "already spent its action this round (#3: ECM against the observation" in page


def test_ecm_against_a_named_observer_offers_it_and_records_its_action_once(client, match):
    marked, blocker, observer = "b-1-1", "b-1-2", "a-2-1"
    tap(client, match, f"fo {marked} 1 {observer}")
    tap(client, match, f"keep {blocker} 1")
    page = client.get(reverse("matches:attack-ecm", args=[match.pk])).content.decode()
    chosen = page.split('id="id_observer"', 1)[1].split(" selected", 1)[0]
    assert chosen.endswith(f'value="{observer}"')
    data = {
        "target": marked,
        "observer": observer,
        "blocker": blocker,
        "ocomm": "0",
        "bcomm": "0",
        "ecm": "2",
        "oroll": "5",
        "broll": "3",
        "key": "ecm-key-0003",
    }
    client.post(reverse("matches:attack-ecm-apply", args=[match.pk]), data)
    after = state(match)
    assert after.unit(marked).fo_mark  # the observation goes ahead
    assert [kind for kind, _ in after.unit(observer).actions] == ["fo"]
    assert [kind for kind, _ in after.unit(blocker).actions] == ["ecm"]


# --- The board's weapon sheets show the figures the match has -------------------------------------


def sheet_of(board: str, code: str) -> str:
    """The first weapon sheet of the board for the weapon ``code``."""
    start = board.index(f'<h2 id="w-{code}-')
    return board[start : board.index("</div>\n</div>", start)]


def test_a_figure_typed_in_the_helper_shows_on_the_boards_weapon_sheet(client, match):
    url = reverse("matches:match-board", args=[match.pk])
    sheet = sheet_of(client.get(url).content.decode(), "LAC")
    assert "<dt>Accuracy</dt><dd>—</dd>" in sheet
    assert "<dt>DM</dt><dd>x8</dd>" in sheet  # the quickstart gives the LAC's DM
    response = client.post(
        reverse("matches:attack-figure", args=[match.pk]),
        {"form": "attack", "field": "acc", "attacker": HUNTER, "target": JAGER, "acc": "1"},
        headers={"HX-Request": "true"},
    )
    assert "Kept for this match: 1." in response.content.decode()
    sheet = sheet_of(client.get(url).content.decode(), "LAC")
    assert (
        '<dt>Accuracy</dt><dd>1 <small class="figure-mark">(typed in this match)</small></dd>'
        in sheet
    )
    assert "<dt>DM</dt><dd>x8</dd>" in sheet
    assert "“Typed in this match”" in sheet


def test_applying_from_the_panel_sends_the_sheets_with_the_figures_typed(client, match):
    data = {
        "f": "1",
        "panel": "1",
        "attacker": HUNTER,
        "weapon": "0",
        "kind": "direct",
        "target": JAGER,
        "amove": "0",
        "acc": "2",
        f"dmove.{JAGER}": "0",
        f"armor.{JAGER}": "14",
        f"band.{JAGER}": "medium",
        f"cover.{JAGER}": "open",
        "att": "6 6",
        f"def.{JAGER}": "1 1 1",
        "key": "a" * 32,
    }
    response = client.post(
        reverse("matches:attack-apply", args=[match.pk]),
        data,
        headers={"HX-Request": "true", "HX-Target": "attack-helper"},
    )
    body = response.content.decode()
    assert response["HX-Trigger"] == '{"blitz:attack-applied": {"warned": true}}'
    assert '<div id="wpn-sheets" class="wpn-sheets" hx-swap-oob="true">' in body
    assert (
        '<dt>Accuracy</dt><dd>2 <small class="figure-mark">(typed in this match)</small></dd>'
        in body
    )
    assert "data-panel-close>Close</button>" in body
    assert "Back to the board" not in body


# --- The helper marks a pack's figure as the board does -------------------------------------------


def test_the_helper_says_who_entered_a_pack_figure(client, player):
    from tests.app.test_datacards import save, start_match, start_pack
    from tests.factories import make_roster

    pack = start_pack(client)
    assert save(client, pack, "weapons", "LAC", accuracy="1").status_code == 302
    match = start_match(player, make_roster(player))
    client.get(reverse("matches:match-board", args=[match.pk]))
    state_now = match.current_state()
    shooter = next(
        u for u in state_now.units if u.side == "a" and [w.code for w in u.weapons][:1] == ["LAC"]
    )
    target = next(u for u in state_now.units if u.side == "b")
    query = {
        "f": "1",
        "attacker": shooter.id,
        "weapon": "0",
        "target": target.id,
        "amove": "0",
        f"dmove.{target.id}": "0",
        f"armor.{target.id}": "14",
        f"band.{target.id}": "medium",
        f"cover.{target.id}": "open",
    }
    page = helper(client, match, **query)
    assert "Light Autocannon accuracy (entered by jan)" in page
    assert "Light Autocannon Damage Multiplier (from the datacard)" in page
