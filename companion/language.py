"""What every game's table language shares: words that remember how they were typed, phrases
of several words read as one, player names (declared once, then written by any unambiguous
prefix), the French form of a line, the next words of the lines legal now (for completion).
Each game's own words live in its folder; figures as a person reads them are in
:mod:`companion.figures`.

>>> tokenize("Bob Aide  étrangère # a comment", [(("aide", "etrangere"), "aide-etrangere")])
['bob', 'aide-etrangere']
>>> resolve_name("ca", ("Alice", "Bob", "Carol"), lambda word: False)
'Carol'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from solver.errors import GameError, ParseError
from solver.vocabulary import Vocabulary, fold

NAME_PATTERN = re.compile(r"^[^\W_][\w-]*$")
"""A player's name: one word of letters, digits, ``-`` and ``_``."""
PROMPT_WORDS = frozenset({"history", "undo", "redo", "save", "help", "quit"})
"""The commands every prompt has: a player named so would be read as the command."""

Reserved = Callable[[str], bool]
"""Whether a word is a word of the game's language (so it cannot be a name)."""


class Token(str):
    """A word as the language compares it (folded), remembering how it was typed."""

    typed: str

    def __new__(cls, folded: str, typed: str) -> Token:
        token = super().__new__(cls, folded)
        token.typed = typed
        return token


def typed(word: str) -> str:
    """The word as it was typed (for messages)."""
    return getattr(word, "typed", word)


Phrases = Iterable[tuple[tuple[str, ...], str]]
"""Phrases of several (folded) words read as one word: ``(("aide", "etrangere"), "aide-etrangere")``."""


def tokenize(text: str, phrases: Phrases = ()) -> list[Token]:
    """The words of ``text`` without its comment (``#`` to the end), folded, each of
    ``phrases`` read as its one word."""
    raw = text.split("#", 1)[0].replace("\u2019", "'").split()
    tokens = [Token(fold(w), w) for w in raw]
    joined: list[Token] = []
    i = 0
    while i < len(tokens):
        for phrase, word in phrases:
            if tuple(tokens[i : i + len(phrase)]) == phrase:
                joined.append(Token(word, " ".join(t.typed for t in tokens[i : i + len(phrase)])))
                i += len(phrase)
                break
        else:
            joined.append(tokens[i])
            i += 1
    return joined


def declare(words: Sequence[str], reserved: Reserved, least: int, most: int) -> tuple[str, ...]:
    """The names of a ``players`` line, checked: ``least`` to ``most`` of them, each a name
    (:data:`NAME_PATTERN`) that is no word of the language, distinct ignoring case and
    accents. Raises :class:`ParseError` naming the offending name."""
    if not least <= len(words) <= most:
        raise ParseError(f"players: {least} to {most} names, not {len(words)}", input=" ".join(words))
    seen: set[str] = set()
    for word in words:
        if not NAME_PATTERN.match(word):
            raise ParseError(f"{word!r} is not a name: letters, digits, - and _ only", input=word)
        if reserved(word):
            raise ParseError(f"{word!r} cannot be a name: it is a word of the table language", input=word)
        if fold(word) in seen:
            raise ParseError(f"{word!r} is given twice", input=word)
        seen.add(fold(word))
    return tuple(words)


def resolve_name(word: str, names: tuple[str, ...], reserved: Reserved, example: str = "Alice Bob Carol") -> str:
    """The declared name ``word`` stands for: the exact name (any case, accents optional), else
    the one name it is a prefix of; a word of the language is that word, never a name's prefix.
    Raises :class:`ParseError`."""
    folded = fold(word)
    exact = [n for n in names if fold(n) == folded]
    if exact:
        return exact[0]
    matches = [n for n in names if fold(n).startswith(folded)]
    if len(matches) == 1 and not reserved(folded):
        return matches[0]
    shown = typed(word)
    if len(matches) > 1:
        raise ParseError(f"{shown!r} could be {' or '.join(matches)}: type more of the name", input=shown)
    if not names:
        raise ParseError(f"{shown!r}: no players yet (start with: players {example})", input=shown)
    raise ParseError(f"{shown!r} is not a player (players: {', '.join(names)})", input=shown)


def french(line: str, vocabularies: Sequence[Vocabulary[Any]], other: Callable[[str], str] = lambda word: word) -> str:
    """The French form of a canonical line: each English word of ``vocabularies`` (the first
    that knows it) in its French form, any other word through ``other`` (names unchanged)."""
    out = []
    for word in line.split():
        for vocabulary in vocabularies:
            english = [w.meaning for w in vocabulary.words(word) if not w.french]
            if english:
                out.append(vocabulary.french(english[0]))
                break
        else:
            out.append(other(word))
    return " ".join(out)


def next_words(
    lines: Iterable[str],
    before_cursor: str,
    names: tuple[str, ...],
    vocabularies: Sequence[Vocabulary[Any]],
    to_french: Callable[[str], str],
    resolve: Callable[[str, tuple[str, ...]], str],
    first: Iterable[str] = (),
    split: Callable[[str], Sequence[str]] = str.split,
    extra: Callable[[list[str], set[str]], Iterable[str]] = lambda words, languages: (),
) -> list[str]:
    """The words that may come next after ``before_cursor`` (its last word may be partial) in
    one of the canonical ``lines`` legal now, in the language being typed (:func:`languages`):
    ``first`` (the command names) and the lines' first words on an empty line, and
    ``extra(words, languages)`` (the game's own, such as the cards a hand may name). ``split``
    reads the words typed (joining a game's phrases).

    >>> next_words(["Bob pass", "Bob challenge"], "B", ("Bob",), [], str, lambda w, n: "Bob")
    ['Bob']
    """
    words = before_cursor.split()
    partial = "" if before_cursor.endswith(" ") or not words else words.pop()
    folded = [fold(w) for w in split(" ".join(words))]
    language = languages([*folded, *([fold(partial)] if partial else [])], vocabularies)
    candidates: list[str] = list(first) if not words else []
    candidates += extra(folded, language)
    for line in lines:
        forms = ([line] if "en" in language else []) + ([to_french(line)] if "fr" in language else [])
        for form in forms:
            parts = form.split()
            if len(parts) > len(folded) and _matches(parts[: len(folded)], folded, names, resolve):
                candidates.append(parts[len(folded)])
    start = fold(partial)
    return [c for c in dict.fromkeys(candidates) if fold(c).startswith(start)]


def languages(folded: list[str], vocabularies: Sequence[Vocabulary[Any]]) -> set[str]:
    """The languages a line being typed may be in: ``{"fr"}`` once a word is only French,
    ``{"en"}`` once one is only English, else both."""
    if any(v.is_french(w) for v in vocabularies for w in folded):
        return {"fr"}
    if any(v.is_english(w) for v in vocabularies for w in folded):
        return {"en"}
    return {"en", "fr"}


def _matches(
    parts: list[str], folded: list[str], names: tuple[str, ...], resolve: Callable[[str, tuple[str, ...]], str]
) -> bool:
    for part, word in zip(parts, folded, strict=True):
        if fold(part) == word:
            continue
        if part not in names:
            return False
        try:
            if resolve(word, names) != part:
                return False
        except GameError:
            return False
    return True
