"""Kill Team matches: started from two teams, every tap an event with undo, applied once per key,
the sync parts exact, who may act decided by matches/access.py. Every figure is made up."""

from __future__ import annotations

import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from armies.models import Owner
from matches import taps
from matches.killteam.services import current_state, kt_match_start, log_entry
from matches.models import HEAVY_FIELDS, STATES, Match, MatchEvent
from rules import killteam as kt
from tests.factories import make_team, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(kt_match):
    return kt_match


def kt_tap(client, match, op, key=None, *, htmx=True):
    headers = {"HX-Request": "true"} if htmx else {}
    url = reverse("matches:kt-event", args=[match.pk])
    return client.post(url, {"op": op, "key": key or uuid.uuid4().hex}, headers=headers)


def state_of(match):
    match.refresh_from_db()
    return current_state(match)


def to_firefight(client, match):
    for op in ("roll a 5", "roll b 2", "initiative a a", "pass a", "pass b"):
        assert kt_tap(client, match, op).status_code == 200


def test_the_start_page_starts_a_match_between_two_teams(client, player):
    mine = make_team(player, name="Red team", operatives=1)
    theirs = make_team(player, name="Blue team", operatives=1)
    url = reverse("matches:kt-new")
    page = client.get(url, {"roster": mine.pk})
    assert page.status_code == 200 and "Red team" in page.content.decode()
    data = {"name": "jan", "mine": f"roster:{mine.pk}", "opponent": f"roster:{theirs.pk}"}
    response = client.post(url, data | {"key": "k" * 20})
    match = Match.objects.get()
    assert response["Location"] == reverse("matches:match-board", args=[match.pk])
    assert match.system == "killteam"
    client.post(url, data | {"key": "k" * 20})  # sent twice: one match
    assert Match.objects.count() == 1
    board = client.get(response["Location"]).content.decode()
    assert "Turning point 1" in board and '<b id="wounds-a-1">8</b> of 8 wounds' in board


def test_the_match_list_and_a_teams_history_lead_to_kill_team_matches(client, player, match):
    html = client.get(reverse("matches:match-list")).content.decode()
    assert reverse("matches:kt-new") in html and "Red team" in html
    history = reverse("matches:roster-history", args=[match.a_roster_id])
    html = client.get(history).content.decode()
    assert f'href="{reverse("matches:kt-summary", args=[match.pk])}"' in html
    assert reverse("matches:match-summary", args=[match.pk]) not in html


def test_a_team_without_operatives_cannot_start_a_match(client, player):
    mine = make_team(player, name="Empty")
    theirs = make_team(player, name="Blue team", operatives=1)
    data = {"mine": f"roster:{mine.pk}", "opponent": f"roster:{theirs.pk}", "key": "x" * 20}
    page = client.post(reverse("matches:kt-new"), data).content.decode()
    assert "has no operatives yet" in page and not Match.objects.exists()


def test_the_kill_team_builder_offers_a_match(client, player):
    team = make_team(player, operatives=1)
    page = client.get(reverse("armies:roster-edit", args=[team.pk])).content.decode()
    assert f"{reverse('matches:kt-new')}?roster={team.pk}" in page


def test_initiative_cp_and_activation_taps(client, match):
    html = kt_tap(client, match, "roll a 5").content.decode()
    assert 'id="turn"' in html and "rolled 5" in html
    kt_tap(client, match, "roll b 2")
    html = kt_tap(client, match, "initiative a a").content.decode()
    assert "3 CP" in html  # 2 to start, 1 in the first strategy phase
    kt_tap(client, match, "pass a")
    kt_tap(client, match, "pass b")
    html = kt_tap(client, match, "activate a-1 engage").content.decode()
    assert "Order: Engage" in html and "AP 0 of 2" in html
    html = kt_tap(client, match, "act a-1 shoot 1").content.decode()
    assert "AP 1 of 2" in html
    state = state_of(match)
    assert state.active == "a-1" and state.operative("a-1").order == "engage"


def test_wounds_show_injured_at_the_right_wound_and_undo_brings_them_back(client, match):
    for seen in (8, 7, 6, 5):
        kt_tap(client, match, f"wound b-1 {seen}")
    assert state_of(match).operative("b-1").state is kt.WoundState.WOUNDED  # 4 of 8: not injured
    html = kt_tap(client, match, "wound b-1 4").content.decode()
    assert '<b class="st">Injured</b>' in html  # 3 of 8
    assert "Injured: Move 4&quot; (2&quot; less), Hit 1 worse" in html
    html = kt_tap(client, match, "undo last").content.decode()
    assert state_of(match).operative("b-1").current == 4
    assert 'class="undone"' in html


def test_a_first_turning_point_tie_lets_the_players_pick_who_decides(client, match):
    kt_tap(client, match, "roll a 3")
    html = kt_tap(client, match, "roll b 3").content.decode()
    assert "A tie: nobody holds the initiative yet" in html
    assert html.count('value="initiative ') == 4  # either decider, either holder
    html = kt_tap(client, match, "initiative b a").content.decode()
    assert "<b>Blue team</b> has the initiative" in html
    state = state_of(match)
    assert (state.initiative, state.decider, state.phase) == ("b", "a", kt.Phase.STRATEGY)


def test_ending_the_battle_locks_the_board_until_undone(client, match):
    html = kt_tap(client, match, "end-battle a").content.decode()
    assert "Battle over: Red team won" in html and 'value="wound ' not in html
    match.refresh_from_db()
    assert (match.status, match.result) == (Match.Status.ENDED, "a")
    kt_tap(client, match, "undo last")
    match.refresh_from_db()
    assert match.status == Match.Status.LIVE


def test_a_watcher_sees_the_board_without_its_controls(match):
    watcher = Client()
    html = watcher.get(reverse("matches:match-watch", args=[match.watch_slug])).content.decode()
    assert "You are watching this match" in html and "match-form" not in html
    assert reverse("matches:kt-watch-poll", args=[match.watch_slug]) in html


def test_a_tap_sent_twice_applies_once_and_a_stale_one_changes_nothing(client, match):
    key = uuid.uuid4().hex
    kt_tap(client, match, "wound a-2 8", key)
    kt_tap(client, match, "wound a-2 8", key)
    assert state_of(match).operative("a-2").current == 7
    html = kt_tap(client, match, "wound a-2 8").content.decode()  # another device saw 8
    assert "Nothing was changed" in html
    assert state_of(match).operative("a-2").current == 7
    assert MatchEvent.objects.filter(match=match, refused=True).count() == 1


@pytest.mark.parametrize(
    "op", ["", "wound", "wound a-1 x", "fly a-1", "activate a-1 sideways", "cp a +5"]
)
def test_bad_taps_are_400_never_500(client, match, op):
    assert kt_tap(client, match, op).status_code == 400


def test_a_die_the_rules_refuse_is_logged_as_refused(client, match):
    html = kt_tap(client, match, "roll a 9").content.decode()
    assert "A die must be from 1 to 6" in html and 'class="refused"' in html
    assert state_of(match).rolls == (None, None)


def test_the_board_log_counts_turning_points(client, match):
    kt_tap(client, match, "roll a 9")
    html = client.get(reverse("matches:match-board", args=[match.pk])).content.decode()
    log = html[html.index('id="match-log"') :]
    assert re.search(r'<span class="ev-meta">#\d+ · TP1 · ', log)
    assert " · T1 · " not in log


def test_an_unknown_operative_is_404(client, match):
    assert kt_tap(client, match, "wound z-9 8").status_code in (400, 404)
    assert kt_tap(client, match, "wound a-9 8").status_code == 404


def test_strangers_get_404_and_a_heavy_gear_match_takes_no_kill_team_taps(match):
    stranger = Client()
    stranger.force_login(make_user("eve"))
    assert stranger.get(reverse("matches:match-board", args=[match.pk])).status_code == 404
    assert kt_tap(stranger, match, "wound a-1 8").status_code == 404
    url = reverse("matches:kt-poll", args=[match.pk])
    assert stranger.get(url, {"seq": 0}).status_code == 404
    assert stranger.get(reverse("matches:kt-shoot", args=[match.pk])).status_code == 404


def test_the_hgb_match_refuses_kill_team_taps(client, player):
    from tests.factories import make_match

    hgb = make_match(player)
    assert kt_tap(client, hgb, "wound a-1 8").status_code == 404


def test_the_poll_is_204_when_nothing_changed_and_the_board_after_a_tap(client, match):
    url = reverse("matches:kt-poll", args=[match.pk])
    assert client.get(url, {"seq": 0}).status_code == 204
    assert client.get(url, {"seq": "x"}).status_code == 400
    kt_tap(client, match, "stun a-1")
    html = client.get(url, {"seq": 0}).content.decode()
    assert "Stunned" in html and 'data-seq="1"' in html


def test_the_first_players_board_learns_the_opponent_joined_and_left(client, match):
    board = client.get(reverse("matches:match-board", args=[match.pk])).content.decode()
    assert "nobody has joined yet" in board
    poll = reverse("matches:kt-poll", args=[match.pk])
    assert f'hx-get="{poll}?seq=0&amp;joined=0"' in board
    assert client.get(poll, {"seq": 0, "joined": 0}).status_code == 204  # nothing new
    guest = Client()
    guest.post(reverse("matches:match-join", args=[match.join_slug]), {"name": "Robin"})
    # A join is not an event, but the players box changed: the poll sends it with the name.
    html = client.get(poll, {"seq": 0, "joined": 0}).content.decode()
    assert '<section id="share" class="share" hx-swap-oob="true">' in html
    assert "Robin" in html and "nobody has joined yet" not in html
    assert f"{poll}?seq=0&amp;joined=1" in html
    assert client.get(poll, {"seq": 0, "joined": 1}).status_code == 204
    # Freeing seat B is told the same way; a watcher's poll never gets the players box.
    client.post(reverse("matches:match-join-link", args=[match.pk]), {"free_seat": "1"})
    html = client.get(poll, {"seq": 0, "joined": 1}).content.decode()
    assert "nobody has joined yet" in html
    watch = reverse("matches:kt-watch-poll", args=[match.watch_slug])
    assert 'id="share"' not in Client().get(watch, {"seq": 0, "joined": 1}).content.decode()


def test_each_events_recorded_changes_give_exactly_the_new_state(client, match):
    to_firefight(client, match)
    for op in (
        "activate a-1 conceal",
        "act a-1 dash 1",
        "wound b-1 8",
        "stun b-2",
        "ploy b firefight Command Re-roll",
        "end-activation a-1",
        "undo last",
    ):
        kt_tap(client, match, op)
    initial = kt.state_from_dict(match.initial)
    rows = [r for r in MatchEvent.objects.filter(match=match).order_by("seq") if not r.refused]
    entries = [log_entry(row) for row in rows]
    state = initial
    for index, row in enumerate(rows):
        expected = kt.replay(initial, entries[: index + 1])  # the state after this event
        assert kt.apply_parts(state, row.after) == expected, row.summary
        assert kt.apply_parts(expected, row.before) == state, row.summary
        state = expected
    assert state == state_of(match)
    assert len(rows) == 12


def test_the_state_is_a_snapshot_every_few_events_and_any_server_reads_it_exactly(
    client, match, monkeypatch, django_assert_max_num_queries
):
    """As for Heavy Gear Blitz (test_match_state.py): a tap writes its event, the whole state
    every SNAPSHOT_EVERY events and at the end of the battle (and its undo)."""
    monkeypatch.setattr(taps, "SNAPSHOT_EVERY", 3)
    initial = kt.state_from_dict(match.initial)
    snapshots = []
    for op in (
        *("roll a 5", "roll b 2", "initiative a a", "pass a", "undo last", "pass a", "pass b"),
        *("wound b-1 8", "stun b-2", "end-battle a", "stun b-2", "undo last"),
    ):
        kt_tap(client, match, op)
        stored = Match.objects.defer(*HEAVY_FIELDS).get(pk=match.pk)
        STATES.entries.clear()  # as a server that saw none of the taps
        with django_assert_max_num_queries(1):
            state = current_state(stored)
        rows = MatchEvent.objects.filter(match=match, refused=False).order_by("seq")
        assert state == kt.replay(initial, [log_entry(row) for row in rows])
        snapshots.append(Match.objects.get(pk=match.pk).state_seq)
    # Every 3 events, and the end of the battle (#10) and its undo (#12; #11 was refused).
    assert snapshots == [0, 0, 3, 3, 3, 6, 6, 6, 9, 10, 10, 12]
    assert state.phase is kt.Phase.FIREFIGHT and state.operative("b-1").current == 7


# As Heavy Gear Blitz's (test_match_budget.py): SAVEPOINT, the locked read, INSERT, UPDATE,
# RELEASE; and the log the board shows again.
TAP_QUERIES = 6


def test_a_tap_costs_the_same_few_queries_for_2_and_10_operatives_a_side_and_later_on(
    client, player, django_assert_max_num_queries
):
    counts = []
    for operatives in (2, 10):
        mine = make_team(player, name="Red team", operatives=operatives)
        theirs = make_team(player, name="Blue team", operatives=operatives)
        match = kt_match_start(
            owner=Owner(player.pk, None), player="jan", mine=mine, opponent=theirs
        )
        board = client.get(reverse("matches:match-board", args=[match.pk]))
        assert board.status_code == 200  # the seat is remembered: a tap reads no session
        to_firefight(client, match)
        for seen in (8, 7, 6):  # the first tap after the strategy phase, and later ones
            with django_assert_max_num_queries(TAP_QUERIES) as queries:
                response = kt_tap(client, match, f"wound b-{operatives} {seen}")
            assert f"{seen - 1} of 8 wounds left" in response.content.decode()
            counts.append(len(queries))
    assert len(set(counts)) == 1, counts


def test_the_shoot_helper_shows_the_exact_odds_and_applies_the_damage(client, match):
    to_firefight(client, match)
    kt_tap(client, match, "activate a-1 engage")
    url = reverse("matches:kt-shoot", args=[match.pk])
    pick = {"pick": "a-1|Test gun", "target": "b-1"}
    html = client.get(url, pick).content.decode()
    distribution = kt.shoot_damage_distribution(
        attacks=4, hit=4, normal_damage=3, critical_damage=4, save=4,
        weapon_rules=("Lethal 5+", "Piercing 1"),
    )  # fmt: skip
    chance = kt.incapacitate_chance(distribution, 8)
    assert f"{float(chance) * 100:.1f}%" in html
    assert "least damage" in html
    read = client.get(url, pick | {"attack": "6 5 2 1", "defence": "4 3"}).content.decode()
    assert "The defender blocks" in read
    response = client.post(
        reverse("matches:kt-shoot-apply", args=[match.pk]),
        pick
        | {
            "attack": "6 5 2 1",
            "defence": "4 3",
            "block": "0",
            "as_action": "1",
            "key": uuid.uuid4().hex,
        },
    )
    assert response.status_code == 302
    state = state_of(match)
    assert state.operative("b-1").current < 8
    assert state.operative("a-1").ap_spent == 1
    kt_tap(client, match, "undo last")
    assert state_of(match).operative("b-1").current == 8


def test_rolling_on_screen_rolls_the_defence_dice_the_rules_say(client, match):
    url = reverse("matches:kt-shoot", args=[match.pk])
    html = client.get(url, {"pick": "a-1|Test gun", "target": "b-1", "roll": "1"}).content
    html = html.decode()
    assert "The defender blocks" in html  # Piercing 1: two dice (or one fewer), never refused
    wrong = client.get(url, {"pick": "a-1|Test gun", "target": "b-1", "attack": "6 6"})
    assert "Roll 4 attack dice; got 2." in wrong.content.decode()
    kept = wrong.content.decode()
    assert '<option value="a-1" selected>' in kept and '<option value="Test gun" selected>' in kept


def test_the_shoot_helper_refuses_bad_dice_with_400(client, match):
    response = client.post(
        reverse("matches:kt-shoot-apply", args=[match.pk]),
        {
            "pick": "a-1|Test gun",
            "target": "b-1",
            "attack": "9 9",
            "defence": "1",
            "key": uuid.uuid4().hex,
        },
    )
    assert response.status_code == 400
    page = client.get(
        reverse("matches:kt-shoot", args=[match.pk]), {"pick": "a-1|Nope", "target": "b-1"}
    )
    assert page.status_code == 404


def test_the_start_page_names_the_shared_team_or_says_the_link_is_dead(client, player):
    make_team(player, name="Red team", operatives=1)
    theirs = make_team(make_user("ben"), name="Blue team", operatives=1)
    url = reverse("matches:kt-new")
    html = client.get(url, {"against": theirs.share_slug}).content.decode()
    assert "Playing against the shared team <b>Blue team</b>." in html
    assert f'<option value="shared:{theirs.share_slug}" selected>Blue team (shared)' in html
    html = client.get(url, {"against": "x" * 22}).content.decode()
    assert "That share link no longer works" in html and "Playing against" not in html
