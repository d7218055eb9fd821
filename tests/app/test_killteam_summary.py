"""A Kill Team match's summary and Markdown log: the result, each side's operatives with their
wounds at the end, CP, the turning point, the log with undone and refused lines marked, paged
as Heavy Gear Blitz's; for players (and the summary for watchers); 404 for another game's
match. Every figure is made up."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.app.test_killteam_match import kt_tap, to_firefight
from tests.app.test_page_budgets import queries
from tests.factories import make_match, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(kt_match):
    return kt_match


def summary(client, match, query=""):
    response = client.get(reverse("matches:kt-summary", args=[match.pk]) + query)
    assert response.status_code == 200
    return response.content.decode()


def log_seqs(html: str) -> list[int]:
    return [int(seq) for seq in re.findall(r'<span class="ev-meta">#(\d+) ', html)]


def test_the_summary_shows_the_result_wounds_cp_and_the_log(client, match):
    to_firefight(client, match)  # events 1 to 5; Red takes the initiative: 3 CP each
    for seen in (8, 7, 6, 5, 4):
        kt_tap(client, match, f"wound b-1 {seen}")  # 3 of 8, fewer than half: injured
    kt_tap(client, match, "wound b-2 8")
    kt_tap(client, match, "undo last")  # b-2 back to 8
    kt_tap(client, match, "wound b-2 9")  # refused: it has 8
    kt_tap(client, match, "end-battle a")
    html = summary(client, match)
    assert "<b>Red team won</b> in turning point 1." in html
    assert "<td><b>3 CP</b></td>" in html
    assert "<td>3 of 8</td>\n<td>Injured</td>" in html
    assert "<td>8 of 8</td>\n<td>Unhurt</td>" in html
    assert "Player: jan" in html
    assert log_seqs(html) == list(range(14, 0, -1))
    assert re.search(r'<li class="undone">\n<span class="ev-meta">#11 · TP1 ', html)
    assert "<em>(undone)</em>" in html
    assert '<em class="warn">' not in html
    assert re.search(r'<li class="refused">\n<span class="ev-meta">#13 ', html)
    assert reverse("matches:kt-log-md", args=[match.pk]) in html
    assert f'href="{reverse("matches:match-board", args=[match.pk])}"' in html


def test_a_battle_in_progress_says_its_turning_point(client, match):
    html = summary(client, match)
    assert "still in progress: turning point 1, initiative phase" in html
    assert log_seqs(html) == [] and "Nothing has happened yet." in html


def test_a_lines_warnings_are_shown_after_it(client, match):
    to_firefight(client, match)
    for op in ("activate a-1 engage", "act a-1 dash 1", "act a-1 dash 1"):
        kt_tap(client, match, op)
    html = summary(client, match)
    assert '<em class="warn">Test trooper 1 (Red team) already performed Dash' in html


def test_a_long_log_is_paged_newest_first(client, match, monkeypatch):
    monkeypatch.setattr("matches.logs.SUMMARY_PAGE", 5)
    for n in range(12):
        kt_tap(client, match, f"stun {'ab'[n % 2]}-1")
    first = summary(client, match)
    assert log_seqs(first) == [12, 11, 10, 9, 8]
    assert "Events #8 to #12, newest first: page 1 of 3." in first
    assert '<a class="button secondary" href="?page=2#log">Older events</a>' in first
    assert log_seqs(summary(client, match, "?page=3")) == [2, 1]
    assert log_seqs(summary(client, match, "?page=x")) == [12, 11, 10, 9, 8]


@pytest.mark.parametrize("name", ["matches:kt-summary", "matches:kt-log-md"])
def test_the_summary_and_the_log_cost_the_same_queries_for_a_long_log(
    client, match, monkeypatch, name
):
    monkeypatch.setattr("matches.logs.SUMMARY_PAGE", 4)
    kt_tap(client, match, "stun a-1")
    url = reverse(name, args=[match.pk])
    short = queries(client, url)
    for _ in range(10):
        kt_tap(client, match, "stun a-1")
    assert queries(client, url + "?page=2") == short


def test_a_watcher_reads_the_summary_without_the_download(client, match):
    kt_tap(client, match, "stun a-1")
    watcher = Client()
    url = reverse("matches:kt-watch-summary", args=[match.watch_slug])
    html = watcher.get(url).content.decode()
    assert "Red team" in html and log_seqs(html) == [1]
    assert "Markdown" not in html
    assert f'href="{reverse("matches:match-watch", args=[match.watch_slug])}"' in html
    assert watcher.get(reverse("matches:kt-log-md", args=[match.pk])).status_code == 404
    assert watcher.get(reverse("matches:kt-summary", args=[match.pk])).status_code == 404


def test_the_log_downloads_as_markdown(client, match):
    kt_tap(client, match, "wound b-1 8")
    kt_tap(client, match, "undo last")
    kt_tap(client, match, "wound b-1 5")  # refused: it has 8
    response = client.get(reverse("matches:kt-log-md", args=[match.pk]))
    text = response.content.decode()
    assert response["Content-Type"] == "text/markdown; charset=utf-8"
    assert f'filename="blitz-match-{match.pk}.md"' in response["Content-Disposition"]
    assert text.startswith("# Red team vs Blue team (Kill Team)\n")
    assert "In progress, turning point 1" in text
    assert "| Blue team | Test trooper 1 | 8 of 8 | Unhurt |" in text
    assert "| # | TP | Time (UTC) | Who | What |" in text
    assert re.search(r"^\| 1 \| 1 \| [0-9:]+ \| jan \| ~~.*loses 1 wound.*~~ \(undone\) \|$",
                     text, re.MULTILINE)  # fmt: skip
    assert re.search(r"^\| 3 \| .* \| Refused, nothing changed: .*not 5", text, re.MULTILINE)


def test_the_board_links_its_summary_and_the_download(client, match):
    html = client.get(reverse("matches:match-board", args=[match.pk])).content.decode()
    assert f'href="{reverse("matches:kt-summary", args=[match.pk])}"' in html
    assert f'href="{reverse("matches:kt-log-md", args=[match.pk])}"' in html
    watched = Client().get(reverse("matches:match-watch", args=[match.watch_slug]))
    html = watched.content.decode()
    assert f'href="{reverse("matches:kt-watch-summary", args=[match.watch_slug])}"' in html
    assert "kt/log.md" not in html


def test_kill_team_summary_pages_of_a_heavy_gear_match_are_404(client, player):
    hgb = make_match(player)
    assert client.get(reverse("matches:kt-summary", args=[hgb.pk])).status_code == 404
    assert client.get(reverse("matches:kt-log-md", args=[hgb.pk])).status_code == 404
    url = reverse("matches:kt-watch-summary", args=[hgb.watch_slug])
    assert client.get(url).status_code == 404


def test_strangers_get_404(match):
    stranger = Client()
    stranger.force_login(make_user("eve"))
    assert stranger.get(reverse("matches:kt-summary", args=[match.pk])).status_code == 404
    assert stranger.get(reverse("matches:kt-log-md", args=[match.pk])).status_code == 404


def test_the_summary_pages_answer_only_reads(client, match):
    assert client.post(reverse("matches:kt-summary", args=[match.pk])).status_code == 405
    assert client.post(reverse("matches:kt-log-md", args=[match.pk])).status_code == 405
