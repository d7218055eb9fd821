"""Board taps: htmx fragments, plain redirects, bad input, one application per key, undo, rounds."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches.models import Match, MatchEvent
from rules.hgb.match import LogEntry, replay
from tests.examples import examples
from tests.factories import make_match, make_user, tap

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(player):
    return make_match(player)


def state_of(match: Match):
    match.refresh_from_db()
    return match.current_state()


def test_a_tap_from_htmx_returns_only_the_changed_card_and_log_line(client, match):
    response = tap(client, match, "mark b-1-1")
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html and "<form" not in html
    assert '<article id="unit-b-1-1" class="unit s-sturdy" hx-swap-oob="true">' in html
    assert 'class="side-sum"' not in html  # no model left the game: TV destroyed is the same
    assert 'hx-swap-oob="afterbegin:#log-list"' in html
    assert "Warrior 1 (PRDF CG1): box 1 crossed off: Sturdy" in html
    assert state_of(match).unit("b-1-1").track.marked == 1


def test_a_tap_that_takes_a_model_out_also_returns_its_sides_summary(client, match):
    html = tap(client, match, "destroy b-1-1").content.decode()
    assert '<header id="side-b" class="side-sum" hx-swap-oob="true">' in html
    assert "out 1/" in html
    assert 'id="side-a"' not in html  # the other side did not change
    html = tap(client, match, "undo last").content.decode()
    assert '<header id="side-b" class="side-sum" hx-swap-oob="true">' in html
    assert "out 0/" in html


def test_a_plain_tap_redirects_back_to_the_card(client, match):
    response = tap(client, match, "mark b-1-1", htmx=False)
    assert response.status_code == 302
    assert response["Location"] == reverse("matches:match-board", args=[match.pk]) + "#unit-b-1-1"
    assert state_of(match).unit("b-1-1").track.marked == 1


def test_a_refused_tap_says_why_on_the_card_and_is_logged_as_refused(client, match):
    for _ in range(3):
        tap(client, match, "mark a-1-1")
    response = tap(client, match, "speed a-1-1 top")
    html = response.content.decode()
    assert response.status_code == 200
    assert 'role="alert"' in html
    assert (
        "Hunter 1 (Northern Guard CG1) is at Heavy damage: it can&#x27;t travel at Top Speed."
        in html
    )
    refusal = MatchEvent.objects.get(match=match, seq=4)
    assert refusal.refused and not refusal.effective and refusal.units == []
    assert 'class="refused"' in html and "Refused, nothing changed:" in html
    assert state_of(match).unit("a-1-1").speed.value == "combat"


def test_a_refused_plain_tap_comes_back_as_a_message(client, match):
    response = tap(client, match, "clear a-1-1", htmx=False)
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "has no damage box crossed off" in page


def test_warnings_are_shown_with_the_change(client, match):
    html = tap(client, match, "speed a-1-1 top").content.decode()
    assert "Top Speed costs Hunter 1 (Northern Guard CG1)&#x27;s action" in html
    assert MatchEvent.objects.get(match=match).warnings


def test_the_same_key_sent_twice_applies_once(client, match):
    first = tap(client, match, "mark b-1-1", key="double-tap-0001")
    second = tap(client, match, "mark b-1-1", key="double-tap-0001")
    assert first.status_code == second.status_code == 200
    assert state_of(match).unit("b-1-1").track.marked == 1
    assert MatchEvent.objects.filter(match=match).count() == 1
    # A plain form resent (a double submit without JavaScript) is the same.
    tap(client, match, "mark b-1-2", key="plain-form-0001", htmx=False)
    tap(client, match, "mark b-1-2", key="plain-form-0001", htmx=False)
    assert state_of(match).unit("b-1-2").track.marked == 1


def test_the_event_endpoint_is_post_only(client, match):
    assert client.get(reverse("matches:match-event", args=[match.pk])).status_code == 405


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"op": "mark b-1-1"}, "client key"),
        ({"op": "mark b-1-1", "key": "short"}, "client key"),
        ({"op": "", "key": "k" * 12}, "no op"),
        ({"op": "explode b-1-1", "key": "k" * 12}, "Unknown change"),
        ({"op": "used b-1-1 maybe", "key": "k" * 12}, "takes 1 or 0"),
        ({"op": "speed b-1-1 warp", "key": "k" * 12}, "stationary, combat or top"),
        ({"op": "mark", "key": "k" * 12}, "takes a model"),
        ({"op": "roll a seven", "key": "k" * 12}, "whole number"),
        ({"op": "undo x", "key": "k" * 12}, "whole number"),
    ],
)
def test_malformed_taps_get_a_400_with_a_message(client, match, data, message):
    response = client.post(reverse("matches:match-event", args=[match.pk]), data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not MatchEvent.objects.filter(match=match).exists()


@pytest.mark.parametrize("op", ["mark b-9-1", "mark z-1-1", "fire a-1-3 1", "activate a-7"])
def test_unknown_models_and_groups_are_404(client, match, op):
    if op.startswith("activate"):
        tap(client, match, "roll a 5")
        tap(client, match, "roll b 2")
        tap(client, match, "first a")
    response = tap(client, match, op)
    assert response.status_code == 404
    assert "has no" in response.content.decode()


def test_an_unknown_match_is_404(client, player):
    assert tap(client, Match(pk=999999), "mark a-1-1").status_code == 404


def test_someone_else_cannot_tap_a_match_they_are_not_in(match):
    stranger = Client()
    stranger.force_login(make_user("mallory"))
    assert tap(stranger, match, "mark a-1-1").status_code == 404
    assert tap(Client(), match, "mark a-1-1").status_code == 404
    assert not MatchEvent.objects.filter(match=match).exists()


def test_the_board_form_enforces_csrf(player, match):
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    assert tap(client, match, "mark a-1-1").status_code == 403
    assert not MatchEvent.objects.filter(match=match).exists()


def test_every_event_records_who_when_and_before_and_after(client, match):
    tap(client, match, "mark b-1-1")
    event = MatchEvent.objects.get(match=match)
    assert (event.seq, event.actor_side, event.actor_name, event.round) == (1, "a", "jan", 1)
    assert (event.kind, event.payload) == ("mark_box", {"unit": "b-1-1", "box": 0})
    assert (event.before, event.after) == ({"b-1-1": {"damage": 0}}, {"b-1-1": {"damage": 1}})
    assert event.units == ["b-1-1"] and event.created_at is not None


# --- Undo -----------------------------------------------------------------------------------------


def test_undo_last_and_redo_through_the_log(client, match):
    tap(client, match, "mark b-1-1")
    tap(client, match, "mark b-1-2")
    response = tap(client, match, "undo last")
    html = response.content.decode()
    assert '<section id="match-log" class="log" hx-swap-oob="true"' in html
    assert 'id="ev-2" class="undone"' in html
    assert state_of(match).unit("b-1-2").track.marked == 0
    tap(client, match, "redo 2")
    assert state_of(match).unit("b-1-2").track.marked == 1
    kinds = list(MatchEvent.objects.filter(match=match).values_list("kind", "effective"))
    assert kinds == [("mark_box", True), ("mark_box", True), ("undo", False), ("undo", True)]


def test_undo_of_an_event_a_later_one_depends_on_is_refused_in_words(client, match):
    tap(client, match, "mark b-1-1")
    tap(client, match, "mark b-1-1")
    html = tap(client, match, "undo 1").content.decode()
    assert "Can&#x27;t undo #1" in html and "Undo #2 first" in html
    assert state_of(match).unit("b-1-1").track.marked == 2


def test_undo_of_an_unknown_event_is_404(client, match):
    assert tap(client, match, "undo 42").status_code == 404
    assert tap(client, match, "redo 42").status_code == 404


def test_the_cached_state_is_what_the_stored_events_say(client, match):
    for op in ["mark b-1-1", "roll a 6", "roll b 1", "first b", "activate b-2", "mark a-2-3",
               "activate a-1", "speed a-1-1 top", "undo last", "keep a-1-1 1", "fire a-1-1 1",
               "destroy b-2-5", "undo 9", "redo 9", "fo b-1-1 1"]:  # fmt: skip
        tap(client, match, op)
    match.refresh_from_db()
    rows = MatchEvent.objects.filter(match=match, refused=False)
    log = [event.log_entry() for event in rows]
    assert all(isinstance(entry, LogEntry) for entry in log)
    assert replay(match.initial_state(), log) == match.current_state()


# --- Rounds, initiative, activations --------------------------------------------------------------


def test_initiative_then_alternate_activations_from_the_board(client, match):
    tap(client, match, "roll a 3")
    html = tap(client, match, "roll b 3").content.decode()
    assert "Tie on 3: roll again." in html
    tap(client, match, "roll a 5")
    html = tap(client, match, "roll b 4").content.decode()
    assert "<b>Northern Guard</b> won the initiative" in html
    html = tap(client, match, "first b").content.decode()
    assert "<b>PRDF</b> activates the next combat group" in html
    assert 'value="activate b-1"' in html and 'value="activate a-1"' not in html
    html = tap(client, match, "activate b-1").content.decode()
    assert "Activating: <b>Combat Group 1 of PRDF</b>" in html
    assert '<h3 id="group-b-1" class="group-head" hx-swap-oob="true">' in html
    html = tap(client, match, "activate a-1").content.decode()
    # The PRDF group that activated before is now Used: its cards come back.
    assert '<article id="unit-b-1-1" class="unit s-undamaged used" hx-swap-oob="true">' in html


def test_rolling_on_screen_records_a_die(client, match):
    tap(client, match, "roll a screen")
    die = state_of(match).rolls[0]
    assert die in range(1, 7)
    assert "on screen" in MatchEvent.objects.get(match=match).summary


def test_end_round_asks_first_then_clears_used_and_starts_the_next_round(client, match):
    tap(client, match, "used a-1-1 1")
    url = reverse("matches:match-end-round", args=[match.pk])
    page = client.get(url).content.decode()
    assert "End round 1?" in page and "Nobody has activated this round yet." in page
    assert "round 2 starts with a new initiative roll" in page
    response = client.post(url, {"key": "end-round-key-1"})
    assert response.status_code == 302
    state = state_of(match)
    assert state.round == 2 and not state.unit("a-1-1").used
    client.post(url, {"key": "end-round-key-1"})  # sent twice: still round 2
    assert state_of(match).round == 2


def test_end_round_form_enforces_csrf(player, match):
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    url = reverse("matches:match-end-round", args=[match.pk])
    assert client.post(url, {"key": "end-round-key-1"}).status_code == 403


def test_ending_the_match_records_the_result_and_stops_changes(client, match):
    tap(client, match, "destroy b-1-1")
    url = reverse("matches:match-end", args=[match.pk])
    assert "Northern Guard won" in client.get(url).content.decode()
    response = client.post(url, {"winner": "a", "note": "Held the ridge", "key": "end-key-0001"})
    assert response.status_code == 302
    assert response["Location"] == reverse("matches:match-summary", args=[match.pk])
    match.refresh_from_db()
    assert (match.status, match.result) == ("ended", "a") and match.ended_at
    html = tap(client, match, "mark b-1-2").content.decode()
    assert "The match was ended by you a moment ago" in html
    # Undoing the end reopens the match.
    tap(client, match, "undo last")
    match.refresh_from_db()
    assert match.status == "live" and not match.result


def test_end_match_form_needs_a_result(client, match):
    response = client.post(
        reverse("matches:match-end", args=[match.pk]), {"winner": "", "key": "end-key-0001"}
    )
    assert response.status_code == 200
    assert "This field is required." in response.content.decode()
    assert Match.objects.get(pk=match.pk).status == "live"


def test_end_match_form_enforces_csrf(player, match):
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    response = client.post(
        reverse("matches:match-end", args=[match.pk]), {"winner": "a", "key": "end-key-0001"}
    )
    assert response.status_code == 403


ops_words = st.sampled_from(
    ["mark", "clear", "destroy", "overkill", "unoverkill", "speed", "mode", "used", "keep", "fo",
     "fire", "roll", "first", "activate", "end-round", "undo", "redo", "last", "screen", "top",
     "walker", "a", "b", "c", "a-1", "a-1-1", "b-2-5", "a-0-0", "z-1-1", "1", "0", "-1", "7",
     "999999", "9" * 12, "\u00e9", "", "a-1-1-1", " "]
)  # fmt: skip


@settings(
    max_examples=examples(200),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    op=st.one_of(st.lists(ops_words, max_size=4).map(" ".join), st.text(max_size=40)),
    key=st.one_of(st.just("k" * 16), st.text(max_size=70)),
)
def test_no_tap_ever_gets_a_server_error(client, match, op, key):
    response = client.post(
        reverse("matches:match-event", args=[match.pk]),
        {"op": op, "key": key},
        headers={"HX-Request": "true"},
    )
    assert response.status_code in (200, 400, 404), (op, key, response.status_code)
    if response.status_code != 200:
        assert response.content, "an error answer says why"


def test_each_answer_carries_a_fresh_key_for_the_next_tap(client, match):
    first = tap(client, match, "mark b-1-1").content.decode()
    second = tap(client, match, "mark b-1-1").content.decode()
    pattern = r'<input type="hidden" name="key" id="tap-key" value="(\w+)" hx-swap-oob="true">'
    keys = [re.search(pattern, html).group(1) for html in (first, second)]
    assert keys[0] != keys[1]


def test_a_key_reused_for_another_change_answers_with_what_it_applied(client, match):
    tap(client, match, "mark b-1-1", key="reused-key-0001")
    response = tap(client, match, "mark nonsense", key="reused-key-0001")
    assert response.status_code == 200
    assert 'id="unit-b-1-1"' in response.content.decode()
    assert MatchEvent.objects.filter(match=match).count() == 1


def test_a_tap_naming_no_such_model_on_an_ended_match_is_refused_in_words(client, match):
    client.post(reverse("matches:match-end", args=[match.pk]), {"winner": "a", "key": "end-00002"})
    response = tap(client, match, "mark a-9-9")
    assert response.status_code == 200
    assert "ended" in response.content.decode()
    assert MatchEvent.objects.filter(match=match, refused=False).count() == 1  # the end only
