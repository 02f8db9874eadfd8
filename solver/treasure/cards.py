"""The neurotrio cards: force 1-3 × nature (coeur, etoile, rose) × background (noir, vert, bleu),
each kind twice; their names, their canonical order and when two of them are compatible.

A card is written force, nature initial, background initial (``2ev``), or in long form
(``2-etoile-vert``, accents optional). Smaller decks (fewer forces, natures or backgrounds) exist
for exact cross-checks; the published 54-card deck is :data:`STANDARD`.

>>> Card.parse("2-étoile-vert")
Card.parse('2ev')
>>> Card.parse("2ev").long
'2-etoile-vert'
>>> Card.parse("2ev").shared(Card.parse("2eb")), Card.parse("2ev").compatible(Card.parse("1rv"))
(2, False)
>>> len(STANDARD.cards()), len(Deck(1, 2, 2).cards())
(54, 8)
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import lru_cache
from typing import NamedTuple

from ..errors import ParseError

COPIES = 2
"""Every kind of card is in the deck twice."""

NATURES = ("coeur", "etoile", "rose")
"""The natures, in canonical order (their initials c, e, r)."""
BACKGROUNDS = ("noir", "vert", "bleu")
"""The backgrounds (fonds), in canonical order (their initials n, v, b)."""

_NATURE_WORDS = {"coeur": 0, "cœur": 0, "heart": 0, "etoile": 1, "star": 1, "rose": 2}
_BACKGROUND_WORDS = {"noir": 0, "black": 0, "vert": 1, "green": 1, "bleu": 2, "blue": 2}


def fold(word: str) -> str:
    """Return ``word`` in lower case without accents, as the table language compares words.

    >>> fold("Étoile")
    'etoile'
    """
    decomposed = unicodedata.normalize("NFKD", word.strip().lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


class Card(NamedTuple):
    """One card: ``force`` 1-3, ``nature`` and ``background`` as indexes into :data:`NATURES`
    and :data:`BACKGROUNDS`. The tuple order is the canonical order (force, then nature c e r,
    then background n v b). :data:`UNKNOWN` (force 0) is a card the viewer has not seen."""

    force: int
    nature: int
    background: int

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __str__(self) -> str:
        if self.force == 0:
            return "?"
        return f"{self.force}{NATURES[self.nature][0]}{BACKGROUNDS[self.background][0]}"

    @property
    def long(self) -> str:
        """The long form: ``'2-etoile-vert'`` (``'?'`` for an unknown card)."""
        if self.force == 0:
            return "?"
        return f"{self.force}-{NATURES[self.nature]}-{BACKGROUNDS[self.background]}"

    @property
    def known(self) -> bool:
        """False for :data:`UNKNOWN`."""
        return self.force != 0

    def shared(self, other: Card) -> int:
        """Return how many of the three attributes ``self`` and ``other`` share (0-3).

        >>> Card.parse("1cn").shared(Card.parse("1cn")), Card.parse("1cn").shared(Card.parse("3rb"))
        (3, 0)
        """
        return (self.force == other.force) + (self.nature == other.nature) + (self.background == other.background)

    def compatible(self, other: Card) -> bool:
        """True when the two cards share at least two attributes (a twin is compatible)."""
        return self.shared(other) >= 2

    @classmethod
    def parse(cls, word: str) -> Card:
        """Return the card written ``word``: ``2ev``, ``2-etoile-vert`` (accents, case and the
        English ``2-star-green`` optional), or ``?`` for :data:`UNKNOWN`. Raises
        :class:`ParseError` naming the word otherwise.

        >>> Card.parse("3RB"), Card.parse("1-coeur-noir")
        (Card.parse('3rb'), Card.parse('1cn'))
        """
        return _parse(word)


@lru_cache(maxsize=1024)
def _parse(word: str) -> Card:
    text = fold(word)
    if text == "?":
        return UNKNOWN
    if "-" in text:
        parts = text.split("-")
        if len(parts) == 3 and parts[0] in ("1", "2", "3"):
            nature = _NATURE_WORDS.get(parts[1])
            background = _BACKGROUND_WORDS.get(parts[2])
            if nature is not None and background is not None:
                return Card(int(parts[0]), nature, background)
    elif len(text) == 3 and text[0] in "123" and text[1] in "cer" and text[2] in "nvb":
        return Card(int(text[0]), "cer".index(text[1]), "nvb".index(text[2]))
    raise ParseError(f"{word!r} is not a card: write force, nature, background, as 2ev or 2-etoile-vert", input=word)


UNKNOWN = Card(0, 0, 0)
"""A card the viewer does not know (another player's, or the removed card): a wildcard."""


class Deck(NamedTuple):
    """The deck: the first ``forces`` forces, ``natures`` natures and ``backgrounds``
    backgrounds, each kind :data:`COPIES` times. ``Deck()`` is the published 54-card deck."""

    forces: int = 3
    natures: int = 3
    backgrounds: int = 3

    def kinds(self) -> tuple[Card, ...]:
        """Every kind of card of this deck, in canonical order."""
        return tuple(
            Card(f, n, b)
            for f in range(1, self.forces + 1)
            for n in range(self.natures)
            for b in range(self.backgrounds)
        )

    def cards(self) -> tuple[Card, ...]:
        """The whole deck, sorted: each kind twice."""
        return tuple(card for card in self.kinds() for _ in range(COPIES))

    def has(self, card: Card) -> bool:
        """True when ``card`` is a kind of this deck."""
        return 1 <= card.force <= self.forces and card.nature < self.natures and card.background < self.backgrounds

    def text(self) -> str:
        """``'3x3x3'``: forces x natures x backgrounds."""
        return f"{self.forces}x{self.natures}x{self.backgrounds}"

    @classmethod
    def parse(cls, text: str) -> Deck:
        """Inverse of :meth:`text`; raises :class:`ParseError` (each size 1 to 3).

        >>> Deck.parse("1x2x2")
        Deck(forces=1, natures=2, backgrounds=2)
        """
        parts = text.split("x")
        if len(parts) != 3 or not all(p in ("1", "2", "3") for p in parts):
            raise ParseError(f"{text!r} is not a deck: forces x natures x backgrounds, each 1 to 3", input=text)
        return cls(int(parts[0]), int(parts[1]), int(parts[2]))


STANDARD = Deck()
"""The published deck: 27 kinds, 54 cards."""


def sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Return ``cards`` in canonical order (unknown cards first): the form of a hand."""
    return tuple(sorted(cards))


def cards_text(cards: Iterable[Card]) -> str:
    """Return the cards written end to end (``'1cn2ev??'``), ``-`` for none."""
    return "".join(str(c) for c in cards) or "-"


def parse_cards(text: str) -> tuple[Card, ...]:
    """Inverse of :func:`cards_text` (any order; the result is sorted). Raises :class:`ParseError`.

    >>> parse_cards("2ev?1cn")
    (Card.parse('?'), Card.parse('1cn'), Card.parse('2ev'))
    """
    if text == "-":
        return ()
    cards: list[Card] = []
    i = 0
    while i < len(text):
        size = 1 if text[i] == "?" else 3
        cards.append(Card.parse(text[i : i + size]))
        i += size
    return sort_cards(cards)
