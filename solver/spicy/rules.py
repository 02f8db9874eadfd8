"""The rules as data: claims and which follow which, what makes a card true, the score and
the draws. Everything the engine and the odds decide about a claim or a card comes from here.

>>> from solver.spicy.cards import DECK, WILD_NUMBER
>>> pile = Claim(Spice.CHILI, 7)
>>> legal_claims(DECK, pile)
(Claim(Spice.CHILI, 8), Claim(Spice.CHILI, 9), Claim(Spice.CHILI, 10))
>>> refusal(DECK, pile, Claim(Spice.WASABI, 8))
'a pile of chili at 7 needs chili 8 to 10'
>>> true_on(WILD_NUMBER, Trait.NUMBER, pile), true_on(WILD_NUMBER, Trait.SPICE, pile)
(True, False)
"""

from __future__ import annotations

import re
from enum import IntEnum
from functools import cache
from typing import NamedTuple

from ..errors import IllegalMove, ParseError
from .cards import Card, CardKind, Deck, Spice, fold


class Trait(IntEnum):
    """What a challenge names: the spice or the number of the claim, never both."""

    SPICE = 0
    NUMBER = 1

    def __repr__(self) -> str:
        return f"Trait.{self.name}"

    def __str__(self) -> str:
        return self.name_en

    @property
    def name_en(self) -> str:
        """``'spice'`` or ``'number'``."""
        return self.name.lower()

    @property
    def name_fr(self) -> str:
        """``'épice'`` or ``'puissance'``."""
        return "épice" if self is Trait.SPICE else "puissance"

    @classmethod
    def parse(cls, word: str) -> Trait:
        """Return the trait named ``word`` (``spice``/``épice``, ``number``/``puissance``).

        Raises :class:`ParseError` for any other word.

        >>> Trait.parse("Puissance")
        Trait.NUMBER
        """
        found = {"spice": cls.SPICE, "epice": cls.SPICE, "number": cls.NUMBER, "puissance": cls.NUMBER}.get(fold(word))
        if found is None:
            raise ParseError(f"a challenge names spice or number, not {word!r}", input=word)
        return found


class Claim(NamedTuple):
    """What a player announces with a card: a spice and a number."""

    spice: Spice
    number: int

    def __repr__(self) -> str:
        return f"Claim({self.spice!r}, {self.number})"

    def __str__(self) -> str:
        return self.text()

    def text(self) -> str:
        """The claim in the table's words: ``'chili 5'``."""
        return f"{self.spice.name_en} {self.number}"

    @property
    def token(self) -> str:
        """The compact token of the state's text form: ``C5``."""
        return f"{self.spice.letter}{self.number}"

    @classmethod
    def parse(cls, text: str) -> Claim:
        """Return the claim written ``text``: ``chili 5``, ``piment 5``, ``chili-5`` or ``C5``.

        Raises :class:`ParseError` naming the text otherwise.

        >>> Claim.parse("Poivre 10")
        Claim(Spice.PEPPER, 10)
        """
        found = re.fullmatch(r"([a-z]+)[\s-]*(\d+)", fold(text))
        if found is None:
            raise ParseError(f"a claim is a spice and a number, like 'chili 5', not {text!r}", input=text)
        word = found.group(1)
        spice = Spice("cwp".index(word)) if word in ("c", "w", "p") else Spice.parse(word)
        return cls(spice, int(found.group(2)))


@cache
def legal_claims(deck: Deck, top: Claim | None) -> tuple[Claim, ...]:
    """The claims allowed on a pile whose top card claims ``top`` (None: an empty pile).

    An empty pile opens with 1 to ``deck.opening`` (1, 2 or 3) in any spice (9 claims); after
    the deck's highest number, the pile's spice with 1 to 3; otherwise the pile's spice with
    every higher number.

    >>> from solver.spicy.cards import DECK
    >>> len(legal_claims(DECK, None)), legal_claims(DECK, Claim(Spice.PEPPER, 10))[-1]
    (9, Claim(Spice.PEPPER, 3))
    """
    if top is None:
        return tuple(Claim(s, n) for s in deck.spice_list for n in range(1, deck.opening + 1))
    if top.number >= deck.numbers:
        return tuple(Claim(top.spice, n) for n in range(1, deck.opening + 1))
    return tuple(Claim(top.spice, n) for n in range(top.number + 1, deck.numbers + 1))


def refusal(deck: Deck, top: Claim | None, claim: Claim) -> str | None:
    """Why ``claim`` may not be made on a pile whose top claims ``top``, in words; None if it may.

    >>> from solver.spicy.cards import DECK
    >>> refusal(DECK, None, Claim(Spice.WASABI, 4))
    'a new pile opens with 1, 2 or 3 in any spice'
    >>> refusal(DECK, Claim(Spice.CHILI, 10), Claim(Spice.CHILI, 4))
    'after chili 10 the pile goes on with chili 1, 2 or 3'
    """
    if claim in legal_claims(deck, top):
        return None
    opening = _numbers_words(range(1, deck.opening + 1))
    if top is None:
        return f"a new pile opens with {opening} in any spice"
    spice = top.spice.name_en
    if top.number >= deck.numbers:
        return f"after {top.text()} the pile goes on with {spice} {opening}"
    higher = range(top.number + 1, deck.numbers + 1)
    needed = f"{spice} {higher[0]}" if len(higher) == 1 else f"{spice} {higher[0]} to {higher[-1]}"
    return f"a pile of {spice} at {top.number} needs {needed}"


def _numbers_words(numbers: range) -> str:
    words = [str(n) for n in numbers]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


_WILD_TRUTH: dict[CardKind, dict[Trait, bool]] = {
    CardKind.WILD_NUMBER: {Trait.SPICE: False, Trait.NUMBER: True},
    CardKind.WILD_SPICE: {Trait.SPICE: True, Trait.NUMBER: False},
}
"""The wilds' truth, whatever the claim: a number wild is true on any number and false on any
spice; a spice wild the other way round."""


def true_on(card: Card, trait: Trait, claim: Claim) -> bool:
    """True if ``card`` makes ``claim`` true on ``trait`` (what a challenge naming it checks).

    Raises :class:`IllegalMove` for an unknown card: it must be revealed first.

    >>> true_on(Card.of(Spice.CHILI, 7), Trait.SPICE, Claim(Spice.CHILI, 9))
    True
    """
    wild = _WILD_TRUTH.get(card.kind)
    if wild is not None:
        return wild[trait]
    if card.kind is CardKind.UNKNOWN:
        raise IllegalMove(f"an unrevealed card cannot be checked on its {trait}: reveal it first")
    return card.spice == claim.spice if trait is Trait.SPICE else card.number == claim.number


def true_on_both(card: Card, claim: Claim) -> bool:
    """True if ``card`` is exactly the claimed card (no wild is true on both traits).

    >>> true_on_both(Card.of(Spice.CHILI, 7), Claim(Spice.CHILI, 7))
    True
    """
    return true_on(card, Trait.SPICE, claim) and true_on(card, Trait.NUMBER, claim)


class Points(NamedTuple):
    """The score table: points per won card, per trophy, per card left in hand."""

    won_card: int
    trophy: int
    card_in_hand: int


SCORE = Points(won_card=1, trophy=10, card_in_hand=-1)
"""+1 per won card, +10 per trophy, -1 per card in hand."""


def score(won: int, trophies: int, hand: int) -> int:
    """A player's score from their won cards, trophies and cards in hand.

    >>> score(won=7, trophies=1, hand=3)
    14
    """
    return SCORE.won_card * won + SCORE.trophy * trophies + SCORE.card_in_hand * hand


TROPHIES_TO_WIN = 2
"""A player who takes this many trophies wins at once, alone."""


class Draw(IntEnum):
    """Why a player draws."""

    PASS = 0
    LOST_CHALLENGE = 1
    TROPHY = 2

    def __repr__(self) -> str:
        return f"Draw.{self.name}"

    def count(self, deck: Deck) -> int:
        """How many cards: 1 after a pass, 2 after a lost challenge, a new hand (6) after a trophy.

        >>> from solver.spicy.cards import DECK
        >>> Draw.TROPHY.count(DECK)
        6
        """
        fixed = DRAWS[self]
        return deck.hand if fixed is None else fixed


DRAWS: dict[Draw, int | None] = {Draw.PASS: 1, Draw.LOST_CHALLENGE: 2, Draw.TROPHY: None}
"""Cards drawn per reason; None stands for a whole new hand (``deck.hand``: 6 with the published deck)."""
