"""Taps name what the player saw: a box number, a speed, a round. A tap made on a screen that was
out of date changes nothing and says why (rules.hgb.match.Stale), naming what changed under it."""

from __future__ import annotations

import pytest

from rules.errors import RulesError
from rules.hgb.match import EventError, Stale, make_event, step
from tests.rules.test_match import activations, ev, play, small_match


def stale(state, kind: str, **data) -> Stale:
    with pytest.raises(Stale) as caught:
        step(state, make_event(kind, **data))
    return caught.value


def test_crossing_off_box_n_crosses_off_that_box():
    state = play(small_match(), ev("mark_box", unit="a-1-1", box=1))
    state = play(state, ev("mark_box", unit="a-1-1", box=2))
    assert state.unit("a-1-1").track.marked == 2


def test_a_second_tap_on_the_same_box_changes_nothing_and_says_so():
    state = play(small_match(), ev("mark_box", unit="a-1-1", box=1))
    error = stale(state, "mark_box", unit="a-1-1", box=1)
    assert error.part == "a-1-1:damage"
    assert str(error) == (
        "Box 1 of Hunter 1 (North CG1) was already crossed off. Nothing was changed."
    )
    assert error.sentence(" by Anna a moment ago") == (
        "Box 1 of Hunter 1 (North CG1) was already crossed off by Anna a moment ago. "
        "Nothing was changed."
    )


def test_a_box_past_the_next_one_is_refused_as_stale():
    state = play(
        small_match(), ev("mark_box", unit="a-1-1", box=1), ev("clear_box", unit="a-1-1", box=1)
    )
    assert "Box 1 of Hunter 1 (North CG1) was cleared" in str(
        stale(state, "mark_box", unit="a-1-1", box=2)
    )


def test_a_stale_clear_changes_nothing():
    state = play(small_match(), ev("mark_box", unit="a-1-1", box=1))
    state = play(state, ev("clear_box", unit="a-1-1", box=1))
    error = stale(state, "clear_box", unit="a-1-1", box=1)
    assert "Box 1 of Hunter 1 (North CG1) was already cleared" in str(error)
    marked = play(state, ev("mark_box", unit="a-1-1", box=1), ev("mark_box", unit="a-1-1", box=2))
    assert "clear it before box 1" in str(stale(marked, "clear_box", unit="a-1-1", box=1))


def test_box_numbers_out_of_the_track_are_malformed():
    with pytest.raises(EventError):
        step(small_match(), make_event("mark_box", unit="a-1-1", box=99))


def test_the_box_past_critical_destroys_and_cannot_be_tapped_twice():
    state = small_match()
    track = state.unit("a-1-1").track
    last = len(track.boxes) + 1
    for box in range(1, last + 1):
        state = play(state, ev("mark_box", unit="a-1-1", box=box))
    assert state.unit("a-1-1").track.destroyed
    assert "already crossed off" in str(stale(state, "mark_box", unit="a-1-1", box=last))


def test_events_stored_before_taps_named_boxes_still_mean_the_next_box():
    state = play(small_match(), ev("mark_box", unit="a-1-1"), ev("mark_box", unit="a-1-1"))
    assert state.unit("a-1-1").track.marked == 2
    state = play(state, ev("clear_box", unit="a-1-1"))
    assert state.unit("a-1-1").track.marked == 1


@pytest.mark.parametrize(
    ("first", "again", "part", "words"),
    [
        (("set_speed", {"speed": "top"}), None, "a-1-1:speed", "already set to Top Speed"),
        (("set_mode", {"mode": "ground"}), None, "a-1-1:mode", "already set to Ground mode"),
        (("set_used", {"used": True}), None, "a-1-1:used", "already marked Used"),
        (("keep_action", {"kept": True}), None, "a-1-1:kept", "already set to keep its action"),
        (("fo_mark", {"marked": True}), None, "a-1-1:fo", "already marked by a forward observer"),
        (("overkill", {}), None, "a-1-1:overkilled", "already overkilled"),
        (("destroy", {}), None, "a-1-1:damage", "already destroyed"),
        (("set_used", {"used": True}), ("set_used", {"used": False}), "a-1-1:used", "cleared"),
    ],
)
def test_setting_a_value_that_is_already_so_is_stale(first, again, part, words):
    kind, data = first
    state = play(small_match(), ev(kind, unit="a-1-1", **data))
    if again:
        state = play(state, ev(again[0], unit="a-1-1", **again[1]))
        kind, data = again
    error = stale(state, kind, unit="a-1-1", **data)
    assert error.part == part
    assert words in str(error)


def test_end_round_names_the_round_and_a_second_end_changes_nothing():
    state = activations(small_match())
    state = play(state, ev("end_round", round=1))
    assert state.round == 2
    error = stale(state, "end_round", round=1)
    assert (error.part, str(error)) == (
        "match:round",
        "Round 1 was already ended. Nothing was changed.",
    )
    assert state.round == 2


def test_initiative_and_activation_taps_from_an_old_screen_are_stale():
    state = activations(small_match())
    assert stale(state, "initiative_roll", side="a", die=3).part == "match:first"
    assert stale(state, "choose_first", side="a").part == "match:first"
    state = play(state, ev("activate", group="a-1"))
    assert stale(state, "activate", group="a-1").part == "match:activated"
    half = play(small_match(), ev("initiative_roll", side="a", die=5))
    assert stale(half, "initiative_roll", side="a", die=5).part == "match:rolls"


def test_a_tap_after_the_end_of_the_match_is_stale():
    state = play(small_match(), ev("end_match", winner="a", note=""))
    assert stale(state, "end_match", winner="b", note="").part == "match:phase"
    assert "undo 'End match'" in str(stale(state, "mark_box", unit="a-1-1", box=1))


def test_a_stale_tap_is_a_rules_error():
    assert issubclass(Stale, RulesError)
