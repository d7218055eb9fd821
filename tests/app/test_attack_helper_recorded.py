"""The attack helper reads each model's weapons and datacard figures as the match recorded them
when it started: a later change to the game data never alters a running match, a new match takes
the new data, and a match stored before matches recorded them still works out its figures."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from matches.models import Match
from rules.hgb.attack import Attacker, Cover, RangeBand, Target, attack_summary
from rules.hgb.catalog import reset_default_catalog
from tests.app.test_attack_helper import HUNTER, JAGER, ODDS, exact, helper_url
from tests.factories import make_match

pytestmark = pytest.mark.django_db

HOST = """data_version = "h"
[[models]]
id = "hunter"
size = {size}
movement = [{{ mode = "walker", speed = "combat", attack_modifier = {move} }}]

[[models]]
id = "jager"
sensors = 1
movement = [{{ mode = "walker", speed = "combat", defense_modifier = {move} }}]

[[weapons]]
id = "LAC"
accuracy = {accuracy}
"""


@pytest.fixture
def host_data(tmp_path, monkeypatch):
    """Write the host data (BLITZ_DATA_DIRS) and load it as the server does after a restart."""
    monkeypatch.setenv("BLITZ_DATA_DIRS", str(tmp_path))

    def write(**figures) -> None:
        (tmp_path / "host.toml").write_text(HOST.format(**figures), encoding="utf-8")
        reset_default_catalog()

    yield write
    reset_default_catalog()


def started(client, player) -> Match:
    match = make_match(player, mine="north_starter", opponent="south_starter")
    client.get(reverse("matches:match-board", args=[match.pk]))  # the seat cookie
    return match


def hit_chance(move: int, accuracy: int) -> str:
    """The chance that the Hunter's LAC hits the Jäger at Medium range in the open, with the
    movement modifiers and the Accuracy the data gives."""
    summary = attack_summary(
        Attacker(attack_dice=2, movement_modifier=move, accuracy=accuracy, damage_multiplier=8),
        Target(
            defense_dice=3,
            movement_modifier=move,
            armor=14,
            range_band=RangeBand.MEDIUM,
            cover=Cover.OPEN,
        ),
    )
    return exact(summary.hit_chance)


def helper(client, match: Match, **changes) -> tuple[str, str]:
    """The whole helper for the Hunter's LAC at the Jäger, and its odds with only the Jäger's
    Armor, the range band and the cover entered."""
    who = {"attacker": HUNTER, "target": JAGER, "weapon": "0", "kind": "direct"} | changes
    page = client.get(helper_url(match), who).content.decode()
    shot = who | {f"armor.{JAGER}": "14", f"band.{JAGER}": "medium", f"cover.{JAGER}": "open"}
    odds = client.get(helper_url(match), shot, headers=ODDS).content.decode()
    return page, odds


def test_a_running_match_keeps_the_figures_it_started_with(client, player, host_data):
    host_data(size=6, move=-1, accuracy=1)
    running = started(client, player)
    host_data(size=4, move=-2, accuracy=0)
    new = started(client, player)
    assert hit_chance(-1, 1) != hit_chance(-2, 0)
    for match, move, accuracy, size in ((running, -1, 1, 6), (new, -2, 0, 4)):
        page, odds = helper(client, match)
        # The movement modifiers and the Accuracy are the data's: not asked for.
        for field in ("amove", "acc", f"dmove.{JAGER}"):
            assert f'name="{field}"' not in page
        assert hit_chance(move, accuracy) in odds
        grenade = client.get(
            helper_url(match),
            {"attacker": HUNTER, "target": JAGER, "kind": "grenade", "grange": "short"},
            headers=ODDS,
        ).content.decode()
        assert f"Size {size}: Short range is up to {size} inches" in grenade


def test_a_match_stored_before_figures_were_recorded_works_them_out(client, player, host_data):
    host_data(size=6, move=-1, accuracy=1)
    match = started(client, player)
    data = match.state
    for side in data["sides"]:
        del side["grenade"]
        for group in side["groups"]:
            for unit in group["units"]:
                del unit["weapons"], unit["figures"]
    # As stored before (a new watch slug and time: no server keeps its state).
    Match.objects.filter(pk=match.pk).update(
        state=data, initial=data, watch_slug="older-match-0002", updated_at=timezone.now()
    )
    match = Match.objects.get(pk=match.pk)
    assert match.current_state().unit(HUNTER).weapons is None
    host_data(size=4, move=-2, accuracy=0)
    page, odds = helper(client, match)
    # Worked out as the helper always did: the snapshot's weapons, today's data.
    assert "Light Autocannon (LAC)" in page
    assert f'name="dmove.{JAGER}"' not in page
    assert hit_chance(-2, 0) in odds
    # The attacker is still not offered as its own target.
    targets = page.split('id="id_target"', 1)[1].split("</select>", 1)[0]
    assert f'value="{HUNTER}"' not in targets
