"""The one checked reader every importer uses: any file is a document or a sentence naming the
file, never a parser's exception."""

from __future__ import annotations

import pytest

from rules.files import MAX_DEPTH, FileError, read_json, read_toml

HOSTILE_JSON = [
    ("[" * 100_000, "nested too deep"),
    ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "nested too deep"),
    ('{"a":' * 50_000, "nested too deep"),
    ("9" * 5000, "number too long"),
    ("1" + "0" * 20, "number too long"),
    ("NaN", "number too long"),
    ("[1e999]", "too large"),
    ("{", "not valid JSON"),
    (b"\xff\xfe{}", "not UTF-8"),
    ("x" * 300_000, "larger than 256 KB"),
]
HOSTILE_TOML = [
    ("x = " + "[" * 500 + "]" * 500, "nested too deep"),
    ("x = " + "{a = " * 300 + "1" + "}" * 300, "nested too deep"),
    ("x = " + "9" * 5000, "number too long"),
    ("x = " + "9" * 16, "number too long"),
    ("x = inf", "too large"),
    ("x = [", "not valid TOML"),
    (b"\xc3\x28 = 1", "not UTF-8"),
]


@pytest.mark.parametrize(("text", "words"), HOSTILE_JSON)
def test_a_hostile_json_file_is_a_sentence_naming_the_file(text, words):
    with pytest.raises(FileError, match=words) as error:
        read_json("mine.json", text)
    assert str(error.value).startswith("mine.json: ")


@pytest.mark.parametrize(("text", "words"), HOSTILE_TOML)
def test_a_hostile_toml_file_is_a_sentence_naming_the_file(text, words):
    with pytest.raises(FileError, match=words) as error:
        read_toml("mine.toml", text)
    assert str(error.value).startswith("mine.toml: ")


def test_a_good_file_reads_whole_with_a_byte_order_mark_and_at_the_limits():
    deep = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert read_json("a.json", "\ufeff" + deep) is not None
    assert read_json("a.json", b'{"n": 999999999999999, "x": [1.5, true]}') == {
        "n": 999_999_999_999_999,
        "x": [1.5, True],
    }
    assert read_toml("a.toml", b"\xef\xbb\xbfa = 1\n[b]\nc = 'd'\n") == {"a": 1, "b": {"c": "d"}}
