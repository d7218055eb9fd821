"""A Kill Team's own ploys: named in the editor (form errors in plain words), taken into a match
when it starts, offered by name on the board each once per turning point; CP corrected with a
reason; an operative with no AP left said so on the board. Every figure is made up."""

from __future__ import annotations

import uuid
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from armies.models import Owner, Roster
from matches.killteam.services import current_state, kt_match_start
from matches.models import MatchEvent
from rules.killteam import team as kteam
from tests.factories import make_team, make_user

pytestmark = pytest.mark.django_db


def name_ploy(client, roster, name, kind="strategic", cost="1", key=None):
    url = reverse("armies:team-ploy-add", args=[roster.pk])
    data = {"name": name, "kind": kind, "cost": cost, "key": key or uuid.uuid4().hex}
    return client.post(url, data)


def ploys_of(roster) -> tuple:
    roster.refresh_from_db()
    return kteam.read_team(roster.army).ploys


def test_a_player_names_the_teams_ploys_in_the_editor(client, player):
    roster = make_team(player, operatives=1)
    editor = unescape(client.get(reverse("armies:roster-edit", args=[roster.pk])).content.decode())
    assert "The core rules give no faction ploys" in editor and "No ploys named yet." in editor
    response = name_ploy(client, roster, "  Seek and   Destroy ", cost="1")
    assert response.status_code == 302 and response["Location"].endswith("#ploys")
    name_ploy(client, roster, "Overwhelm", cost="2 CP")
    name_ploy(client, roster, "Dodge", kind="firefight", cost="0")
    assert [(p.name, p.kind, p.cost) for p in ploys_of(roster)] == [
        ("Seek and Destroy", "strategic", 1),
        ("Overwhelm", "strategic", 2),
        ("Dodge", "firefight", 0),
    ]
    editor = unescape(client.get(reverse("armies:roster-edit", args=[roster.pk])).content.decode())
    assert "Seek and Destroy" in editor and "Firefight ploy · 0 CP" in editor
    markdown = client.get(reverse("armies:roster-export-md", args=[roster.pk])).content.decode()
    assert "Ploys: Seek and Destroy (strategic, 1 CP)" in markdown


def test_the_same_form_sent_twice_names_one_ploy(client, player):
    roster = make_team(player)
    name_ploy(client, roster, "Plan", key="ploy-key-0001")
    name_ploy(client, roster, "Plan", key="ploy-key-0001")
    assert len(ploys_of(roster)) == 1


@pytest.mark.parametrize(
    ("name", "kind", "cost", "words"),
    [
        ("", "strategic", "1", "Give the ploy a name."),
        ("Plan", "strategic", "x", "A ploy&#x27;s cost is a whole number, 0 to 9 CP"),
        ("Plan", "strategic", "-1", "A ploy&#x27;s cost is a whole number, 0 to 9 CP"),
        ("Plan", "strategic", "12", "A ploy&#x27;s cost is a whole number, 0 to 9 CP"),
        ("Plan", "sneaky", "1", "A ploy is a strategic manoeuvre or a firefight ploy."),
        ("Command re-roll", "firefight", "1", "in the core rules for every team"),
        ("seek and destroy", "firefight", "1", "already has a ploy called seek and destroy"),
    ],
)
def test_a_bad_ploy_is_a_form_error_and_keeps_what_was_typed(
    client, player, name, kind, cost, words
):
    roster = make_team(player)
    name_ploy(client, roster, "Seek and Destroy")
    response = name_ploy(client, roster, name, kind, cost)
    html = response.content.decode()
    assert response.status_code == 200 and words in html
    assert 'class="field-error" role="alert"' in html or 'class="form-errors"' in html
    if name:
        assert f'value="{name}"' in html
    assert len(ploys_of(roster)) == 1


def test_removing_a_ploy_asks_first_and_a_started_match_keeps_it(client, player):
    roster = make_team(player, operatives=1)
    name_ploy(client, roster, "Plan")
    editor = client.get(reverse("armies:roster-edit", args=[roster.pk])).content.decode()
    assert '<details class="ask-first">' in editor and "Remove Plan</button>" in editor
    other = make_team(player, name="Blue", operatives=1)
    roster.refresh_from_db()
    match = kt_match_start(owner=Owner(player.pk, None), player="jan", mine=roster, opponent=other)
    url = reverse("armies:team-ploy-remove", args=[roster.pk])
    response = client.post(url, {"name": "plan"})
    assert response.status_code == 302 and ploys_of(roster) == ()
    gone = client.post(url, {"name": "plan"}, follow=True).content.decode()
    assert "That ploy is no longer in the team." in gone
    assert [p.name for p in current_state(match).side("a").team_ploys] == ["Plan"]


@pytest.mark.parametrize("who", ["other user", "anonymous"])
def test_someone_elses_team_ploys_are_404_and_unchanged(client, who):
    owner = make_user("owner")
    roster = make_team(owner)
    roster.army = {**roster.army, "ploys": [{"name": "Plan", "kind": "strategic", "cost": 1}]}
    roster.save()
    if who == "other user":
        client.force_login(make_user("other"))
    assert name_ploy(client, roster, "Mine").status_code == 404
    url = reverse("armies:team-ploy-remove", args=[roster.pk])
    assert client.post(url, {"name": "Plan"}).status_code == 404
    assert [p.name for p in ploys_of(roster)] == ["Plan"]
    assert client.get(reverse("armies:team-ploy-add", args=[roster.pk])).status_code == 405


def test_the_ploy_form_enforces_csrf(player):
    roster = make_team(player)
    csrf_client = Client(enforce_csrf_checks=True)
    csrf_client.force_login(player)
    assert name_ploy(csrf_client, roster, "Plan").status_code == 403
    assert ploys_of(roster) == ()


# --- On the board -------------------------------------------------------------------------------


@pytest.fixture
def match(player):
    mine = make_team(player, name="Red team", operatives=2)
    team = kteam.read_team(mine.army)
    for name, kind, cost in (
        ("Seek", "strategic", 1),
        ("Hold", "strategic", 1),
        ("Duck", "firefight", 1),
    ):
        team = kteam.name_ploy(team, name, kind, cost)
    mine.army = kteam.team_to_dict(team)
    mine.save()
    theirs = make_team(player, name="Blue team", operatives=2)
    return kt_match_start(owner=Owner(player.pk, None), player="jan", mine=mine, opponent=theirs)


def tap(client, match, op, **fields):
    url = reverse("matches:kt-event", args=[match.pk])
    data = {"op": op, "key": uuid.uuid4().hex, **fields}
    return client.post(url, data, headers={"HX-Request": "true"})


def board(client, match) -> str:
    return unescape(client.get(reverse("matches:match-board", args=[match.pk])).content.decode())


def test_the_board_offers_the_teams_ploys_by_name_each_once_per_turning_point(client, match):
    for op in ("roll a 5", "roll b 2", "initiative a a"):
        tap(client, match, op)
    html = board(client, match)
    assert 'value="ploy a strategic Seek"' in html and 'value="ploy a strategic Hold"' in html
    assert "Strategic manoeuvre" not in html  # no generic button any more
    answer = tap(client, match, "ploy a strategic Seek").content.decode()
    assert "Red team used Seek, a strategic manoeuvre (1 CP, 2 left)." in unescape(answer)
    tap(client, match, "pass b")
    html = board(client, match)
    assert (
        "Seek: used in this turning point" in html and 'value="ploy a strategic Seek"' not in html
    )
    answer = unescape(tap(client, match, "ploy a strategic Hold").content.decode())
    assert "Red team used Hold" in answer and "Refused" not in answer
    tap(client, match, "pass b")
    refused = unescape(tap(client, match, "ploy a strategic seek").content.decode())
    assert "already used Seek in turning point 1" in refused
    tap(client, match, "pass a")
    tap(client, match, "pass b")
    html = board(client, match)
    assert 'value="ploy a firefight Duck"' in html and 'value="ploy b firefight Duck"' not in html
    summary = client.get(reverse("matches:kt-summary", args=[match.pk])).content.decode()
    assert "Red team used Seek" in unescape(summary)
    log = client.get(reverse("matches:kt-log-md", args=[match.pk])).content.decode()
    assert "Red team used Hold, a strategic manoeuvre" in log


def test_a_ploy_the_team_did_not_name_is_typed_in(client, match):
    for op in ("roll a 5", "roll b 2", "initiative a a", "pass a"):
        tap(client, match, op)
    html = board(client, match)
    assert "Blue team has no strategic manoeuvre named: type one in" in html
    answer = unescape(
        tap(client, match, "ploy b strategic", **{"ploy-b": "Smoke"}).content.decode()
    )
    assert "Blue team used Smoke, a strategic manoeuvre (1 CP, 2 left)." in answer
    # With JavaScript the typed name follows the op.
    tap(client, match, "pass a")
    answer = unescape(tap(client, match, "ploy b strategic Smoke").content.decode())
    assert "already used Smoke" in answer
    response = tap(client, match, "ploy b strategic")
    assert (
        response.status_code == 400 and "Type the ploy's name first." in response.content.decode()
    )


def test_a_cp_correction_is_one_tap_with_its_reason_and_undoes(client, match):
    html = board(client, match)
    assert 'value="cp a +1" data-with="cp-reason-a"' in html
    answer = unescape(tap(client, match, "cp b +1 mission objective").content.decode())
    assert "Blue team gains 1 CP (mission objective): 3 CP." in answer
    answer = unescape(tap(client, match, "cp b -1", **{"cp-reason-b": "typo"}).content.decode())
    assert "Blue team loses 1 CP (typo): 2 CP." in answer
    answer = unescape(tap(client, match, "cp a -1").content.decode())
    assert "Red team loses 1 CP (corrected on the board): 1 CP." in answer
    last = MatchEvent.objects.filter(match=match).order_by("-seq").first()
    tap(client, match, f"undo {last.seq}")
    match.refresh_from_db()
    assert current_state(match).side("a").cp == 2
    for op in ("cp a +2", "cp z +1", "cp a +1 " + "x" * 151):
        assert tap(client, match, op).status_code in (400, 404), op


def test_an_operative_with_no_ap_left_is_said_and_the_other_side_told_why_it_waits(client, match):
    for op in ("roll a 5", "roll b 2", "initiative a a", "pass a", "pass b", "activate a-1 engage"):
        tap(client, match, op)
    html = board(client, match)
    assert (
        "<b>Blue team</b> activates next, once Test trooper 1 (Red team)'s activation ends." in html
    )
    assert html.count("Activate: not yet, Test trooper 1 (Red team) is still active.") == 3
    assert "has no AP left" not in html
    tap(client, match, "act a-1 reposition 1")
    tap(client, match, "act a-1 shoot 1")
    html = board(client, match)
    assert "Test trooper 1 (Red team) has no AP left (2 of 2 spent): end its activation." in html
    assert (
        'value="end-activation a-1" class="end-now">End activation of Test trooper 1 (Red team)'
        in html
    )
    watch = Client()
    watched = unescape(
        watch.get(reverse("matches:match-watch", args=[match.watch_slug])).content.decode()
    )
    assert "has no AP left (2 of 2 spent)" in watched
    tap(client, match, "end-activation a-1")
    html = board(client, match)
    assert "has no AP left" not in html and "is still active" not in html


def test_a_match_saved_before_teams_named_ploys_still_opens(client, player):
    mine = make_team(player, name="Red team", operatives=1)
    match = kt_match_start(owner=Owner(player.pk, None), player="jan", mine=mine, opponent=mine)
    for saved in (match.initial, match.state):
        for side in saved.get("sides", []):
            side.pop("team_ploys", None)
    match.save()
    assert Roster.objects.count() == 1
    assert client.get(reverse("matches:match-board", args=[match.pk])).status_code == 200
