"""Bilingual word tables: the one way every game holds the words players type, in English and
French, for cards (the solver reads them in positions and puzzles) and for the table language
(the companion reads them at the prompt).

Words are compared *folded* (lower case, accents dropped); a word may have several meanings
(the table language decides between them); an unknown word is answered with the nearest known
one.

>>> colours = Vocabulary([("red", ("red",), ("rouge",)), ("green", ("green",), ("vert", "verte"))])
>>> colours.meaning("Rouge"), colours.french("green"), colours.english("green")
('red', 'vert', 'green')
>>> colours.suggest("gren")
'green'
>>> colours.meaning("bleu")
Traceback (most recent call last):
solver.errors.ParseError: unknown word 'bleu' (red, green)
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from .errors import ParseError

T = TypeVar("T", bound=Hashable)


def fold(word: str) -> str:
    """Return ``word`` in lower case without accents, as every table language compares words.

    >>> fold(" Échange ")
    'echange'
    """
    decomposed = unicodedata.normalize("NFKD", word.strip().lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


@dataclass(frozen=True)
class Word(Generic[T]):
    """One word as typed in a language: its written form and what it means."""

    text: str
    meaning: T
    french: bool


class Vocabulary(Generic[T]):
    """Words of two languages for a set of meanings. Built from rows ``(meaning, English words,
    French words)``; the first word of each language is the one written back."""

    def __init__(self, rows: Iterable[tuple[T, Sequence[str], Sequence[str]]]) -> None:
        self._words: dict[str, list[Word[T]]] = {}
        self._english: dict[T, str] = {}
        self._french: dict[T, str] = {}
        for meaning, english, french in rows:
            for texts, is_french, first in ((english, False, self._english), (french, True, self._french)):
                for text in texts:
                    self._words.setdefault(fold(text), []).append(Word(text, meaning, is_french))
                if texts:
                    first.setdefault(meaning, texts[0])

    def __repr__(self) -> str:
        return f"<Vocabulary {len(self._english)} meanings, {len(self._words)} words>"

    def __contains__(self, word: str) -> bool:
        return fold(word) in self._words

    def words(self, word: str) -> list[Word[T]]:
        """Every meaning of ``word`` (any case, accents optional), in the order of the rows; [] if unknown."""
        return self._words.get(fold(word), [])

    def meaning(self, word: str, what: str = "word") -> T:
        """The first meaning of ``word``. Raises :class:`ParseError` naming the nearest known word."""
        found = self.words(word)
        if not found:
            raise self.unknown(word, what)
        return found[0].meaning

    def english(self, meaning: T) -> str:
        """The English word written for ``meaning``."""
        return self._english[meaning]

    def french(self, meaning: T) -> str:
        """The French word written for ``meaning`` (the English one if it has none)."""
        return self._french.get(meaning, self._english[meaning])

    def is_french(self, word: str) -> bool:
        """True if every meaning of ``word`` is French (it marks the line as typed in French)."""
        found = self.words(word)
        return bool(found) and all(w.french for w in found)

    def is_english(self, word: str) -> bool:
        found = self.words(word)
        return bool(found) and not any(w.french for w in found)

    def known(self) -> list[str]:
        """Every known word, folded."""
        return list(self._words)

    def suggest(self, word: str) -> str | None:
        """The known word nearest to ``word`` (as written in its row), or None if none is near."""
        close = difflib.get_close_matches(fold(word), self._words, n=1, cutoff=0.75)
        return self._words[close[0]][0].text if close else None

    def unknown(self, word: str, what: str = "word") -> ParseError:
        """The error for an unknown ``word``: the nearest known word, or the list of them."""
        near = self.suggest(word)
        if near is not None:
            return ParseError(f"unknown {what} {word!r}: did you mean {near!r}?", input=word)
        choices = ", ".join(self._english.values())
        return ParseError(f"unknown {what} {word!r} ({choices})", input=word)
