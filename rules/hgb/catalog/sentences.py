"""Words for the data in sentences: articles, sentence case, number words, option refusals."""

from __future__ import annotations

_AN_LETTERS = set("AEFHILMNORSX")


def article(word: str) -> str:
    """ "a" or "an" before a name or a code ("an LAC", "an MBZK", "a HeadHunter", "a Jäger")."""
    if not word:
        return "a"
    if len(word) > 1 and word.isupper() and word.isalpha():
        return "an" if word[0] in _AN_LETTERS else "a"
    return "an" if word[0].lower() in "aeiou" else "a"


def with_article(word: str) -> str:
    return f"{article(word)} {word}"


def sentence_case(text: str) -> str:
    """The text with its first letter capitalised (and nothing else changed)."""
    return text[:1].upper() + text[1:]


_NUMBER_WORDS = (
    "none",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
)


def number_word(number: int) -> str:
    """0 -> "none", 1 -> "one" ... 12 -> "twelve", then digits."""
    return _NUMBER_WORDS[number] if 0 <= number < len(_NUMBER_WORDS) else str(number)
