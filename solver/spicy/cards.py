"""The spice cards of Spicy, their names in English and French, and the deck as data.

A card is numbered (a spice and a number), a wild (``wild-number``: any number is true, any
spice false; ``wild-spice``: the other way round), or :data:`UNKNOWN`: a face-down card the
viewer does not know (another player's hand, the draw pile), which the engine treats as a
wildcard where a card must be matched.

>>> Card.parse("Piment-7")
Card.parse('chili-7')
>>> Card.parse("épice-au-choix").text()
'wild-spice'
>>> sorted([WILD_SPICE, Card.parse("pepper-1"), WILD_NUMBER, Card.parse("chili-9")])
[Card.parse('chili-9'), Card.parse('pepper-1'), Card.parse('wild-number'), Card.parse('wild-spice')]
>>> Deck().size, Deck(spices=1, numbers=4, copies=2, wild_numbers=1, wild_spices=1).size
(100, 10)
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, fields
from enum import IntEnum
from functools import cached_property
from typing import NamedTuple

from ..errors import ImpossibleTable, ParseError


def fold(word: str) -> str:
    """Return ``word`` in lower case without accents, as the table language compares words.

    >>> fold("Épice-au-choix")
    'epice-au-choix'
    """
    decomposed = unicodedata.normalize("NFKD", word.strip().lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


class Spice(IntEnum):
    """The three spices, in the canonical order: chili, wasabi, pepper."""

    CHILI = 0
    WASABI = 1
    PEPPER = 2

    def __repr__(self) -> str:
        return f"Spice.{self.name}"

    def __str__(self) -> str:
        return self.name_en

    @property
    def name_en(self) -> str:
        """The English word of records: ``'chili'``, ``'wasabi'``, ``'pepper'``."""
        return self.name.lower()

    @property
    def name_fr(self) -> str:
        """The French word of IELLO's edition: ``'piment'``, ``'wasabi'``, ``'poivre'``."""
        return _SPICE_FR[self]

    @property
    def letter(self) -> str:
        """One letter for the compact text form: C, W, P."""
        return "CWP"[self]

    @classmethod
    def parse(cls, word: str) -> Spice:
        """Return the spice named ``word`` (English or French, any case, accents optional).

        Raises :class:`ParseError` for any other word.

        >>> Spice.parse("Poivre")
        Spice.PEPPER
        """
        found = _SPICE_BY_NAME.get(fold(word))
        if found is None:
            raise ParseError(f"unknown spice: {word!r} (chili, wasabi or pepper)", input=word)
        return found


_SPICE_FR = {Spice.CHILI: "piment", Spice.WASABI: "wasabi", Spice.PEPPER: "poivre"}
_SPICE_BY_NAME = {name: spice for spice in Spice for name in (spice.name_en, spice.name_fr)}


class CardKind(IntEnum):
    """What a card is. The order is the canonical order of card lists."""

    NUMBERED = 0
    WILD_NUMBER = 1
    WILD_SPICE = 2
    UNKNOWN = 3

    def __repr__(self) -> str:
        return f"CardKind.{self.name}"


class Card(NamedTuple):
    """One spice card: ``kind``, and for a numbered card its ``spice`` and ``number``.

    Tuples sort in the canonical order: numbered cards by spice then number, then the number
    wilds, the spice wilds, and unknown cards last.
    """

    kind: CardKind
    spice: Spice | None = None
    number: int = 0

    def __repr__(self) -> str:
        return f"Card.parse({self.text()!r})"

    def __str__(self) -> str:
        return self.text()

    @classmethod
    def of(cls, spice: Spice, number: int) -> Card:
        """The numbered card (``spice``, ``number``).

        >>> Card.of(Spice.WASABI, 10).text()
        'wasabi-10'
        """
        return cls(CardKind.NUMBERED, spice, number)

    def text(self) -> str:
        """The English id of records: ``'chili-7'``, ``'wild-number'``, ``'wild-spice'``, ``'?'``."""
        if self.spice is not None:
            return f"{self.spice.name_en}-{self.number}"
        return _WILD_EN[self.kind]

    @property
    def name_fr(self) -> str:
        """The French name: ``'piment-7'``, ``'puissance-au-choix'``, ``'epice-au-choix'``."""
        if self.spice is not None:
            return f"{self.spice.name_fr}-{self.number}"
        return _WILD_FR[self.kind]

    @property
    def token(self) -> str:
        """The compact token of the state's text form: ``C7``, ``W10``, ``N``, ``S``, ``?``."""
        if self.spice is not None:
            return f"{self.spice.letter}{self.number}"
        return _WILD_TOKEN[self.kind]

    @property
    def is_known(self) -> bool:
        """False for :data:`UNKNOWN`."""
        return self.kind is not CardKind.UNKNOWN

    @classmethod
    def parse(cls, word: str, deck: Deck | None = None) -> Card:
        """Return the card named ``word``: ``chili-7``, ``chili7``, ``piment-7``, ``wild-number``,
        ``puissance-au-choix``, ``wild-spice``, ``épice-au-choix`` (any case, accents optional), or
        ``?`` for an unknown card. The number must be one of ``deck``'s (default: 1 to 10).

        Raises :class:`ParseError` naming the word otherwise.

        >>> Card.parse("WASABI10")
        Card.parse('wasabi-10')
        >>> Card.parse("chili-11")
        Traceback (most recent call last):
        ...
        solver.errors.ParseError: no such card: 'chili-11' (numbers go from 1 to 10)
        """
        key = re.sub(r"[\s_]+", "-", fold(word))
        wild = _WILD_BY_NAME.get(key)
        if wild is not None:
            return wild
        found = _NUMBERED.fullmatch(key)
        spice = _SPICE_BY_NAME.get(found.group(1)) if found is not None else None
        if found is None or spice is None:
            raise ParseError(
                f"unknown card: {word!r} (cards: chili-7, wasabi-10, pepper-1, wild-number, wild-spice)", input=word
            )
        number = int(found.group(2))
        return (deck or DECK).check_card(cls.of(spice, number), word)

    @classmethod
    def from_token(cls, token: str) -> Card:
        """Inverse of :attr:`token`; raises :class:`ParseError`."""
        wild = _WILD_BY_TOKEN.get(token)
        if wild is not None:
            return wild
        found = re.fullmatch(r"([CWP])(\d+)", token)
        if found is None or int(found.group(2)) < 1:
            raise ParseError(f"unknown card token: {token!r} (C7, W10, P1, N, S or ?)", input=token)
        return cls.of(Spice("CWP".index(found.group(1))), int(found.group(2)))


WILD_NUMBER = Card(CardKind.WILD_NUMBER)
"""``wild-number`` (``puissance-au-choix``): true on any number, false on any spice."""
WILD_SPICE = Card(CardKind.WILD_SPICE)
"""``wild-spice`` (``epice-au-choix``): true on any spice, false on any number."""
UNKNOWN = Card(CardKind.UNKNOWN)
"""A face-down card the viewer does not know."""

_WILD_EN = {CardKind.WILD_NUMBER: "wild-number", CardKind.WILD_SPICE: "wild-spice", CardKind.UNKNOWN: "?"}
_WILD_FR = {CardKind.WILD_NUMBER: "puissance-au-choix", CardKind.WILD_SPICE: "epice-au-choix", CardKind.UNKNOWN: "?"}
_WILD_TOKEN = {CardKind.WILD_NUMBER: "N", CardKind.WILD_SPICE: "S", CardKind.UNKNOWN: "?"}
_WILDS = (WILD_NUMBER, WILD_SPICE, UNKNOWN)
_WILD_BY_NAME = {name: card for card in _WILDS for name in (_WILD_EN[card.kind], _WILD_FR[card.kind])}
_WILD_BY_TOKEN = {_WILD_TOKEN[card.kind]: card for card in _WILDS}
_NUMBERED = re.compile(r"([a-z]+)-?(\d+)")


def sort_cards(cards: tuple[Card, ...] | list[Card]) -> tuple[Card, ...]:
    """Return ``cards`` as a sorted tuple: the canonical form of a multiset of cards."""
    return tuple(sorted(cards))


def tokens(cards: tuple[Card, ...]) -> str:
    """The compact form of a multiset of cards: tokens in order, a run of equal cards as
    ``token*count``, ``-`` for none.

    >>> tokens((Card.parse("chili-1"), Card.parse("chili-1"), WILD_SPICE, UNKNOWN, UNKNOWN))
    'C1*2S?*2'
    """
    if not cards:
        return "-"
    out = []
    for card, count in Counter(cards).items():
        out.append(card.token if count == 1 else f"{card.token}*{count}")
    return "".join(out)


def from_tokens(text: str) -> tuple[Card, ...]:
    """Inverse of :func:`tokens` (the result is sorted); raises :class:`ParseError`."""
    if text == "-":
        return ()
    cards: list[Card] = []
    position = 0
    for found in _TOKEN.finditer(text):
        if found.start() != position:
            break
        count = int(found.group(2) or 1)
        cards.extend([Card.from_token(found.group(1))] * count)
        position = found.end()
    if position != len(text) or not text:
        raise ParseError(f"unreadable cards: {text!r} (tokens like C7, W10, N, S, ?, with *count)", input=text)
    return sort_cards(cards)


_TOKEN = re.compile(r"([CWP]\d+|[NS?])(?:\*(\d+))?")


@dataclass(frozen=True)
class Deck:
    """The cards and counts a game is played with (the rules as data). The default is the
    published deck: three spices, numbers 1 to 10 in 3 copies each, 5 number wilds, 5 spice
    wilds (100 cards), hands of 6, 3 trophies, 2 to 6 players, and a pile opens with 1 to 3.
    Smaller decks serve exact cross-checks; "after a 10" means after the deck's highest number.

    ``worlds_end`` gives, per player count from ``min_players`` on, the depth of World's End:
    how many cards lie under it. The printed card shows a physical height, not a count, so the
    full-information game fixes one; by default it is half the draw pile left after the deal
    (rounded down): 44, 41, 38, 35 and 32 cards for 2 to 6 players with the published deck.

    >>> Deck(numbers=4, copies=2)
    Deck(numbers=4, copies=2)
    >>> Deck().worlds_end_depth(4)
    38
    """

    spices: int = 3
    numbers: int = 10
    copies: int = 3
    wild_numbers: int = 5
    wild_spices: int = 5
    hand: int = 6
    trophies: int = 3
    opening: int = 3
    min_players: int = 2
    max_players: int = 6
    worlds_end: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        problems = [
            (not 1 <= self.spices <= len(Spice), f"1 to {len(Spice)} spices"),
            (self.numbers < 1 or self.copies < 1, "at least one number and one copy"),
            (min(self.wild_numbers, self.wild_spices) < 0, "no negative wild count"),
            (not 1 <= self.opening <= self.numbers, "a pile opening with 1 up to at most the highest number"),
            (self.hand < 1 or self.trophies < 1, "a hand of at least 1 card and at least 1 trophy"),
            (not 2 <= self.min_players <= self.max_players, "at least 2 players"),
        ]
        for wrong, needed in problems:
            if wrong:
                raise ImpossibleTable(f"a deck needs {needed}: {self!r}")
        if self.worlds_end and len(self.worlds_end) != self.max_players - self.min_players + 1:
            raise ImpossibleTable(f"a deck needs one World's End depth per player count: {self!r}")

    def __repr__(self) -> str:
        changed = (f for f in fields(self) if getattr(self, f.name) != f.default)
        return f"Deck({', '.join(f'{f.name}={getattr(self, f.name)!r}' for f in changed)})"

    @property
    def spice_list(self) -> tuple[Spice, ...]:
        """The spices in play, in order."""
        return tuple(Spice(i) for i in range(self.spices))

    @cached_property
    def kinds(self) -> tuple[Card, ...]:
        """One card of each kind in play, sorted: the numbered ones, then the wilds (if any)."""
        numbered = tuple(Card.of(s, n) for s in self.spice_list for n in range(1, self.numbers + 1))
        wilds = tuple(w for w, k in ((WILD_NUMBER, self.wild_numbers), (WILD_SPICE, self.wild_spices)) if k)
        return numbered + wilds

    @cached_property
    def counts(self) -> dict[Card, int]:
        """Copies of each kind in the deck."""
        return {card: self.copies_of(card) for card in self.kinds}

    @cached_property
    def cards(self) -> tuple[Card, ...]:
        """Every card of the deck, sorted."""
        return tuple(card for card in self.kinds for _ in range(self.copies_of(card)))

    @property
    def size(self) -> int:
        """How many spice cards the deck has (100 by default)."""
        return self.spices * self.numbers * self.copies + self.wild_numbers + self.wild_spices

    def copies_of(self, card: Card) -> int:
        """How many copies of ``card`` the deck holds (0 for a card not in it, or unknown)."""
        if card.kind is CardKind.WILD_NUMBER:
            return self.wild_numbers
        if card.kind is CardKind.WILD_SPICE:
            return self.wild_spices
        if card.spice is None or card.spice >= self.spices or not 1 <= card.number <= self.numbers:
            return 0
        return self.copies

    def check_card(self, card: Card, word: str | None = None) -> Card:
        """Return ``card`` if the deck has it (or it is unknown); raise :class:`ParseError` naming
        ``word`` otherwise."""
        if not card.is_known or self.copies_of(card):
            return card
        if card.spice is not None and card.spice < self.spices:
            why = f"numbers go from 1 to {self.numbers}"
        elif card.spice is not None:
            why = f"this deck has {', '.join(s.name_en for s in self.spice_list)}"
        else:
            why = "this deck has no wilds of that kind"
        shown = word if word is not None else card.text()
        raise ParseError(f"no such card: {shown!r} ({why})", input=shown)

    def check_players(self, players: int) -> None:
        """Raise :class:`ImpossibleTable` unless ``players`` may play with this deck: a count in
        its range, whose hands leave a draw pile deeper than World's End."""
        if not self.min_players <= players <= self.max_players:
            raise ImpossibleTable(f"{players} players: Spicy is played by {self.min_players} to {self.max_players}")
        left = self.size - players * self.hand
        depth = self.worlds_end[players - self.min_players] if self.worlds_end else left // 2
        if not 0 <= depth < left:
            raise ImpossibleTable(
                f"{players} hands of {self.hand} leave {left} cards to draw: too few for World's End "
                f"{depth} cards deep ({self!r})"
            )

    def worlds_end_depth(self, players: int) -> int:
        """How many cards lie under World's End in a full-information game of ``players``."""
        self.check_players(players)
        if self.worlds_end:
            return self.worlds_end[players - self.min_players]
        return (self.size - players * self.hand) // 2


DECK = Deck()
"""The published deck."""
