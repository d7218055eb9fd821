"""Starting a match, joining it, watching it, the board, the summary, the export, the history."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse

import rules.hgb
from armies.models import Roster
from armies.owners import GUEST_KEY
from matches.models import Match, MatchEvent
from matches.queries import matches_for_roster
from tests.factories import make_match, make_roster, make_user, seat_guest, tap

pytestmark = pytest.mark.django_db


# --- Starting -------------------------------------------------------------------------------------


def test_the_start_form_offers_my_rosters_and_the_starter_forces(client, player):
    roster = make_roster(player)
    page = client.get(reverse("matches:match-new") + f"?roster={roster.pk}").content.decode()
    assert f'<option value="roster:{roster.pk}" selected>' in page
    assert 'value="preset:south_starter"' in page
    assert "editing a roster later does not change a match in progress" in page


def test_starting_from_my_roster_snapshots_it(client, player):
    roster = make_roster(player)
    response = client.post(
        reverse("matches:match-new"),
        {"mine": f"roster:{roster.pk}", "opponent": "preset:south_starter"},
    )
    match = Match.objects.get()
    assert response["Location"] == reverse("matches:match-board", args=[match.pk])
    assert (match.a_roster, match.a_source, match.b_source) == (roster, "roster", "preset")
    assert match.a_fingerprint == roster.data_fingerprint and match.a_tv == 610
    before = match.current_state()
    # Editing the roster afterwards changes nothing in the match.
    army = rules.hgb.roster_from_dict(roster.army, rules.hgb.default_catalog())
    roster.army = rules.hgb.roster_to_dict(rules.hgb.remove_group(army, 0))
    roster.save()
    match.refresh_from_db()
    assert match.current_state() == before
    assert len(match.current_state().side("a").groups) == 2


def test_play_against_a_shared_list(client, player):
    other = make_roster(make_user("sam"), preset="peace_river_starter")
    other.share_slug = "shared-list-slug-0001"
    other.save()
    page = client.get(reverse("matches:match-new") + "?against=shared-list-slug-0001")
    html = page.content.decode()
    assert "Playing against the shared list" in html
    assert '<option value="shared:shared-list-slug-0001" selected>' in html
    client.post(
        reverse("matches:match-new"),
        {
            "mine": "preset:north_starter",
            "opponent": "shared:shared-list-slug-0001",
            "against": "shared-list-slug-0001",
        },
    )
    match = Match.objects.get()
    assert (match.b_roster, match.b_source) == (other, "shared")


def test_a_dead_share_link_says_so(client, player):
    page = client.get(reverse("matches:match-new") + "?against=nope").content.decode()
    assert "That share link no longer works" in page


def test_a_choice_that_was_not_offered_is_a_form_error(client, player):
    response = client.post(
        reverse("matches:match-new"), {"mine": "roster:999", "opponent": "preset:nope"}
    )
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert not Match.objects.exists()


def test_an_empty_roster_cannot_start_a_match(client, player):
    roster = make_roster(player)
    army = rules.hgb.roster_from_dict(roster.army, rules.hgb.default_catalog())
    roster.army = rules.hgb.roster_to_dict(
        rules.hgb.remove_group(rules.hgb.remove_group(army, 1), 0)
    )
    roster.save()
    response = client.post(
        reverse("matches:match-new"),
        {"mine": f"roster:{roster.pk}", "opponent": "preset:south_starter"},
    )
    assert "has no models yet" in response.content.decode()
    assert not Match.objects.exists()


def test_a_guest_can_start_a_match_and_keeps_the_seat():
    client = Client()
    response = client.post(
        reverse("matches:match-new"),
        {"mine": "preset:north_starter", "opponent": "preset:south_starter"},
    )
    match = Match.objects.get()
    assert match.a_guest_key == client.session[GUEST_KEY]
    assert client.get(response["Location"]).status_code == 200


def test_the_start_form_enforces_csrf(player):
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    response = client.post(
        reverse("matches:match-new"),
        {"mine": "preset:north_starter", "opponent": "preset:south_starter"},
    )
    assert response.status_code == 403
    assert not Match.objects.exists()


# --- The board, players and spectators ------------------------------------------------------------


def test_the_board_shows_both_armies_by_combat_group(client, player):
    match = make_match(player)
    html = client.get(reverse("matches:match-board", args=[match.pk])).content.decode()
    assert html.count('class="unit ') == 20
    assert "CG1 · General Purpose Squad" in html and "CG2 · Fire Support Squad" in html
    assert 'value="fire a-1-1 1"' in html and "Fire HPZF <b>2/2</b>" in html
    assert "Round 1" in html and 'value="roll a 6"' in html
    assert f'hx-get="/matches/{match.pk}/poll?seq=0&amp;joined=0"' in html
    assert 'src="/static/js/match.js"' in html and "<script>" not in html
    assert "Join link for your opponent" in html


def test_the_board_of_a_match_i_am_not_in_is_404(player):
    match = make_match(player)
    stranger = Client()
    stranger.force_login(make_user("mallory"))
    assert stranger.get(reverse("matches:match-board", args=[match.pk])).status_code == 404
    assert Client().get(reverse("matches:match-board", args=[match.pk])).status_code == 404


def test_an_unknown_match_is_404(client, player):
    assert client.get(reverse("matches:match-board", args=[424242])).status_code == 404
    assert client.get(reverse("matches:match-summary", args=[424242])).status_code == 404


def test_the_opponent_joins_by_link_and_plays_their_side(player):
    match = make_match(player)
    guest = Client()
    page = guest.get(reverse("matches:match-join", args=[match.join_slug])).content.decode()
    assert "Join as PRDF" in page
    response = guest.post(reverse("matches:match-join", args=[match.join_slug]))
    assert response["Location"] == reverse("matches:match-board", args=[match.pk])
    match.refresh_from_db()
    assert match.b_joined and match.b_player == ""  # no name typed: the board says "Player B"
    assert tap(guest, match, "mark a-1-1").status_code == 200
    event = MatchEvent.objects.get(match=match)
    assert (event.actor_side, event.actor_name) == ("b", "")
    # A third person finds the seat taken.
    late = Client()
    html = late.post(reverse("matches:match-join", args=[match.join_slug])).content.decode()
    assert "Another player has already joined this match" in html


def test_the_first_players_board_shows_the_opponent_once_they_join_and_leave(client, player):
    match = make_match(player)
    board = client.get(reverse("matches:match-board", args=[match.pk])).content.decode()
    poll = re.search(r'hx-get="([^"]+)"', board.split('id="poller"')[1]).group(1)
    poll = poll.replace("&amp;", "&")
    assert poll.endswith("?seq=0&joined=0")
    assert client.get(poll).status_code == 204  # nothing new
    Client().post(reverse("matches:match-join", args=[match.join_slug]))
    html = client.get(poll).content.decode()  # a join is not an event, but the name changed
    assert '<header id="side-b" class="side-sum" hx-swap-oob="true">' in html
    assert "Player B" in html and "not joined" not in html
    assert "?seq=0&amp;joined=1" in html
    assert client.get(poll.replace("joined=0", "joined=1")).status_code == 204
    client.post(reverse("matches:match-join-link", args=[match.pk]), {"free_seat": "1"})
    assert client.get(poll.replace("joined=0", "joined=1")).status_code == 200
    assert client.get(poll).status_code == 204


def test_the_join_form_enforces_csrf(player):
    match = make_match(player)
    client = Client(enforce_csrf_checks=True)
    assert client.post(reverse("matches:match-join", args=[match.join_slug])).status_code == 403


def test_revoking_the_join_link_and_freeing_the_seat(client, player):
    match = make_match(player)
    guest = Client()
    guest.post(reverse("matches:match-join", args=[match.join_slug]), {"name": "Robin"})
    old = match.join_slug
    url = reverse("matches:match-join-link", args=[match.pk])
    assert "Also remove Robin from the match" in client.get(url).content.decode()
    client.post(url, {"free_seat": "1"})
    match.refresh_from_db()
    assert match.join_slug != old and not match.b_joined
    assert guest.get(reverse("matches:match-join", args=[old])).status_code == 404
    # The removed player's taps and board now answer 404.
    assert tap(guest, match, "mark a-1-1").status_code == 404
    assert guest.get(reverse("matches:match-board", args=[match.pk])).status_code == 404


def test_only_the_first_player_manages_the_join_link(player):
    match = make_match(player)
    guest = Client()
    guest.post(reverse("matches:match-join", args=[match.join_slug]))
    assert guest.post(reverse("matches:match-join-link", args=[match.pk])).status_code == 404


def test_the_watch_link_is_read_only(player):
    match = make_match(player)
    watcher = Client()
    html = watcher.get(reverse("matches:match-watch", args=[match.watch_slug])).content.decode()
    assert "You are watching this match" in html
    board = html.split('id="board"')[1]
    # The only buttons open and close a weapon's sheet; nothing changes the match.
    assert board.count("<button") == board.count('<button type="button"') > 0
    assert 'name="op"' not in board and "Undo last" not in board
    assert "<form" not in board
    assert f'hx-get="/matches/watch/{match.watch_slug}/poll?seq=0&amp;joined=0"' in html
    assert watcher.get(reverse("matches:match-watch", args=["nope"])).status_code == 404
    assert tap(watcher, match, "mark a-1-1").status_code == 404


def test_a_guest_seat_is_kept_in_the_session(player):
    match = make_match(None, guest_key="guest-key-7777")
    client = Client()
    seat_guest(client, "guest-key-7777")
    assert client.get(reverse("matches:match-board", args=[match.pk])).status_code == 200
    assert tap(client, match, "mark a-1-1").status_code == 200


# --- The end: summary, export, history ------------------------------------------------------------


def test_the_summary_shows_the_result_and_tv_destroyed_per_side(client, player):
    match = make_match(player)
    tap(client, match, "destroy b-1-1")  # an Armored Jacket Warrior: 43 + 10
    tap(client, match, "overkill a-2-3")  # the Grizzly with the MBZK: 75 + 10
    client.post(reverse("matches:match-end", args=[match.pk]), {"winner": "a", "key": "end-0001"})
    html = client.get(reverse("matches:match-summary", args=[match.pk])).content.decode()
    assert "<b>Northern Guard won</b> in round 1." in html
    assert '<th scope="row">TV destroyed</th><td><b>85</b></td>' in html
    assert '<th scope="row">TV destroyed</th><td><b>53</b></td>' in html
    assert "Grizzly 1 (Northern Guard CG2): Overkilled" in html
    assert "each model counts for an equal share of its squad" in html


def test_the_log_exports_as_markdown(client, player):
    match = make_match(player)
    tap(client, match, "mark b-1-1")
    tap(client, match, "undo last")
    response = client.get(reverse("matches:match-log-md", args=[match.pk]))
    text = response.content.decode()
    assert response["Content-Type"] == "text/markdown; charset=utf-8"
    assert text.startswith("# Northern Guard vs PRDF")
    assert "| 1 | 1 |" in text and "~~Warrior 1 (PRDF CG1): box 1 crossed off" in text
    assert "Undid #1" in text
    assert "&#x27;" not in text


def test_the_markdown_log_shows_a_lines_warnings_in_italics_after_it(client, player):
    match = make_match(player)
    tap(client, match, "mark b-1-1")
    MatchEvent.objects.filter(match=match).update(warnings=["Out of arc?", "Check the range"])
    text = client.get(reverse("matches:match-log-md", args=[match.pk])).content.decode()
    assert "box 1 crossed off" in text
    assert "(No effect). _Out of arc?_ _Check the range_ |\n" in text


def play(client, match: Match, events: int) -> None:
    """``events`` damage taps, each crossing off the next box of the next model."""
    units = [unit.id for unit in match.current_state().units]
    for n in range(events):
        unit, box = units[n % len(units)], n // len(units) + 1
        assert tap(client, match, f"mark {unit} {box}").status_code == 200


def log_seqs(html: str) -> list[int]:
    return [int(seq) for seq in re.findall(r'<span class="ev-meta">#(\d+) ', html)]


def test_a_long_log_is_paged_on_the_summary_newest_first(client, player, monkeypatch):
    monkeypatch.setattr("matches.logs.SUMMARY_PAGE", 5)
    match = make_match(player)
    play(client, match, 12)
    url = reverse("matches:match-summary", args=[match.pk])
    first = client.get(url).content.decode()
    assert log_seqs(first) == [12, 11, 10, 9, 8]
    assert "Events #8 to #12, newest first: page 1 of 3." in first
    assert "The Markdown download has the whole log." in first
    assert '<a class="button secondary" href="?page=2#log">Older events</a>' in first
    assert "Newer events" not in first
    last = client.get(url + "?page=3").content.decode()
    assert log_seqs(last) == [2, 1]
    assert '<a class="button secondary" href="?page=2#log">Newer events</a>' in last
    assert "Older events" not in last
    # A page number that is not one shows the first page; one past the end, the last.
    assert log_seqs(client.get(url + "?page=x").content.decode()) == [12, 11, 10, 9, 8]
    assert log_seqs(client.get(url + "?page=%C2%B2").content.decode()) == [12, 11, 10, 9, 8]
    assert log_seqs(client.get(url + "?page=99").content.decode()) == [2, 1]
    # A watcher pages the same log; the download, a player's, has every event.
    watch = reverse("matches:match-watch-summary", args=[match.watch_slug])
    watched = client.get(watch + "?page=2").content.decode()
    assert log_seqs(watched) == [7, 6, 5, 4, 3]
    assert "Markdown" not in watched
    text = client.get(reverse("matches:match-log-md", args=[match.pk])).content.decode()
    assert re.findall(r"^\| (\d+) \| 1 \|", text, re.MULTILINE) == [str(n) for n in range(1, 13)]


def test_a_short_log_has_no_pages(client, player):
    match = make_match(player)
    play(client, match, 3)
    html = client.get(reverse("matches:match-summary", args=[match.pk])).content.decode()
    assert log_seqs(html) == [3, 2, 1]
    assert "newest first: page" not in html and "Older events" not in html


def test_a_roster_lists_the_matches_it_was_played_in(client, player):
    roster = make_roster(player)
    match = make_match(player, roster=roster)
    client.post(reverse("matches:match-end", args=[match.pk]), {"winner": "b", "key": "end-0001"})
    history = matches_for_roster(roster, viewer=_owner(player))
    assert [(m.opponent, m.outcome) for m in history] == [("Peace River starter force", "Lost")]
    html = render_to_string("matches/_roster_history.html", {"matches": history})
    assert f'href="/matches/{match.pk}/summary/"' in html and "Lost" in html
    # Someone who is not in the match sees it listed without a link.
    html = render_to_string(
        "matches/_roster_history.html", {"matches": matches_for_roster(roster, viewer=None)}
    )
    assert 'href="/matches/' not in html.split("Start a match")[0]
    assert Roster.objects.get(pk=roster.pk).matches_as_a.get() == match


def _owner(user):
    from armies.models import Owner

    return Owner(user.pk, None)


def test_my_matches_are_listed(client, player):
    match = make_match(player)
    make_match(make_user("sam"))
    html = client.get(reverse("matches:match-list")).content.decode()
    assert html.count('class="match-link"') == 1
    assert f'href="/matches/{match.pk}/"' in html


def test_a_guest_who_logs_in_keeps_their_seat():
    from tests.factories import PASSWORD

    client = Client()
    client.post(
        reverse("matches:match-new"),
        {"mine": "preset:north_starter", "opponent": "preset:south_starter"},
    )
    match = Match.objects.get()
    user = make_user("kim")
    client.post(reverse("login"), {"username": "kim", "password": PASSWORD})
    match.refresh_from_db()
    assert (match.a_user, match.a_guest_key, match.a_player) == (user, "", "kim")
    other_device = Client()
    other_device.force_login(user)
    assert other_device.get(reverse("matches:match-board", args=[match.pk])).status_code == 200


def test_the_join_link_comes_as_a_qr_code_for_the_first_player_only(client, player):
    match = make_match(player)
    response = client.get(reverse("matches:match-join-qr", args=[match.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "image/svg+xml"
    assert response.content.startswith(b"<svg")
    guest = Client()
    guest.post(reverse("matches:match-join", args=[match.join_slug]))
    assert guest.get(reverse("matches:match-join-qr", args=[match.pk])).status_code == 404


def test_deleting_an_account_keeps_its_matches_whole():
    from matches.models import Match
    from tests.factories import make_match, make_user

    host = make_user("leaving")
    match = make_match(host)
    host.delete()
    kept = Match.objects.get(pk=match.pk)
    assert kept.a_user_id is None and kept.a_guest_key.startswith("deleted-account-")
    assert kept.a_player == "leaving"
