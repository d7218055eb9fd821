"""The attack helper at arm's length from the board: the models its lists offer, the forward
observer named when a target is marked, both models' actions on the ECM page, and the figures
the match has on the board's weapon sheets."""

from __future__ import annotations

import pytest
from django.urls import reverse

from matches.models import Match
from tests.factories import make_match, tap

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
