"""Every datacard pack figure on screen says who entered it: the board's weapon sheets (DM,
Accuracy, RoF, ranges, traits) as its cards' Armor, and the roster's printed cards."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from matches.hgb import board
from tests.app.test_datacards import save, start_match, start_pack
from tests.app.test_match_budget import TAP_BYTES, TAP_QUERIES, seated
from tests.factories import make_roster, tap

pytestmark = pytest.mark.django_db

MARK = '<small class="figure-mark">(entered by jan)</small>'


def sheet_of(html: str, sheet_id: str) -> str:
    found = re.search(rf'<div id="{sheet_id}" class="wpn-sheet".*?</div>\n', html, re.S)
    assert found, sheet_id
    start = found.start()
    return html[start : html.index('popovertargetaction="hide"', start)]


@pytest.fixture
def match(client, player):
    pack = start_pack(client)
    response = save(
        client, pack, "weapons", "LAC", accuracy="1", rof="2", ranges__short="12", traits="AP"
    )
    assert response.status_code == 302, response.content.decode()
    save(client, pack, "models", "jaguar", armor="7")
    return start_match(player, make_roster(player))


def lac_of(match, side: str):
    state = match.current_state()
    return next(
        (unit, weapon)
        for unit in state.units
        if unit.side == side
        for weapon in unit.weapons or ()
        if weapon.code == "LAC"
    )


def test_the_board_marks_every_pack_figure_of_a_weapon_sheet(client, match):
    html = client.get(reverse("matches:match-board", args=[match.pk])).content.decode()
    unit, weapon = lac_of(match, "a")
    assert (weapon.accuracy, weapon.rof, weapon.ranges[1]) == (1, 2, 12)
    sheet_id = board.weapon_sheet_id(weapon, "entered by jan")
    assert f'popovertarget="{sheet_id}"' in html  # the card's button opens the marked sheet
    sheet = sheet_of(html, sheet_id)
    assert f"<dt>Accuracy</dt><dd>1 {MARK}" in sheet
    assert f"<dt>RoF</dt><dd>2 {MARK}" in sheet
    assert "<dt>Ranges</dt><dd>— / 12 / — / — / — in (PB / S / M / L / X) " + MARK in sheet
    assert f"<dt>Traits</dt><dd>AP {MARK}" in sheet
    assert "<dt>DM</dt><dd>x8</dd>" in sheet  # the data's DM: unmarked
    assert "Entered by …”: a figure a player typed into their datacards" in sheet

    # The starter force facing it takes the pack of the player who started the match too.
    _, theirs = lac_of(match, "b")
    assert f'popovertarget="{board.weapon_sheet_id(theirs, "entered by jan")}"' in html
    assert "figure-mark" not in str(board.weapon_sheet(theirs, "")["figures"])


def test_no_pack_figure_appears_unmarked_on_the_board(match):
    state, marks = match.current_state(), board.pack_marks(match)
    labels = {"dm": "DM", "accuracy": "Accuracy", "rof": "RoF", "traits": "Traits"}
    checked = 0
    for unit in state.units:
        for weapon in unit.weapons or ():
            sheet = board.weapon_sheet(weapon, board.weapon_mark(unit, weapon, marks))
            shown = {label: mark for label, _, mark in sheet["figures"]}
            for key in board.pack_given(weapon):
                label = "Ranges" if key.startswith("ranges.") else labels[key]
                assert shown[label].endswith("entered by jan"), (weapon.code, key)
                checked += 1
    assert checked >= 4


def test_the_same_figures_from_two_players_packs_are_two_sheets(match):
    _, weapon = lac_of(match, "a")
    assert board.weapon_sheet_id(weapon, "entered by jan") != board.weapon_sheet_id(
        weapon, "entered by eve"
    )
    partly = board.weapon_sheet(weapon, "entered by jan")
    assert dict((f[0], f[2]) for f in partly["figures"])["Ranges"] == "entered by jan"


def test_a_tap_answer_opens_the_marked_sheet_within_budget(
    client, match, django_assert_max_num_queries
):
    unit, weapon = lac_of(match, "a")
    seated(client, match)
    tap(client, match, "mark a-1-1")  # warm up, as the budget test does
    with django_assert_max_num_queries(TAP_QUERIES):
        response = tap(client, match, f"mark {unit.id}")
    html = response.content.decode()
    assert f'popovertarget="{board.weapon_sheet_id(weapon, "entered by jan")}"' in html
    assert "wpn-sheet" not in html
    assert len(response.content) < TAP_BYTES, len(response.content)


def test_the_printed_cards_mark_the_pack_weapon_figures(client, match, player):
    roster = make_roster(player)
    cards = client.get(reverse("armies:roster-cards", args=[roster.pk])).content.decode()
    # Marked beside the figure, said once under the weapon's row (it fits a phone's card).
    assert '1<sup class="mark-ref">†</sup>' in cards
    assert "† Acc: yours, entered by jan</small>" in cards
