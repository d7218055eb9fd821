"""blitz_site/inputs.py: every request value read one checked way, refused in a sentence."""

from __future__ import annotations

import pytest

from blitz_site import inputs
from tests import hostile


@pytest.mark.parametrize("value", [*hostile.HOSTILE, None, ["1"], "", " 1", "+1", "-1", "1.5",
                                   "1000000000"])  # fmt: skip
def test_a_whole_number_is_ascii_digits_only_and_anything_else_a_sentence(value):
    with pytest.raises(inputs.InputError, match="A box number must be a whole number") as error:
        inputs.whole_number(value, "A box number")
    assert len(str(error.value)) < 120 and "\x00" not in str(error.value)


@pytest.mark.parametrize(("value", "number"), [("0", 0), ("007", 7), ("999999999", 999_999_999)])
def test_a_whole_number_reads_ascii_digits(value, number):
    assert inputs.whole_number(value, "A die") == number


def test_a_choice_is_one_of_those_offered():
    assert inputs.choice_index("1", 2, "Choose one.") == 1
    for value in ("2", "²", "-1", "9" * 5000, None):
        with pytest.raises(inputs.InputError, match="Choose one."):
            inputs.choice_index(value, 2, "Choose one.")


@pytest.mark.parametrize(
    ("value", "words"),
    [("a\x00b", "NUL"), ("a\ud800b", "broken characters"), ("x" * 151, "at most 150"), (3, "text")],
)
def test_free_text_is_bounded_and_storable(value, words):
    with pytest.raises(inputs.InputError, match=words):
        inputs.text(value, "A ploy's name")


def test_free_text_and_ids_that_can_be_read():
    assert inputs.text("Command Re-roll", "A ploy's name") == "Command Re-roll"
    assert inputs.text(None, "A note") == ""
    assert inputs.optional_id("12") == 12
    assert [inputs.optional_id(v) for v in ("", "²", "1.0", "9" * 5000, None)] == [None] * 5
    assert inputs.is_once_key("k" * 8) and not inputs.is_once_key("k" * 7 + "\x00")


def test_a_refused_value_is_repeated_short_and_printable():
    assert inputs.shown("a\x00" + "x" * 5000) == repr("a?" + "x" * 38 + "…")
