"""The characters, their names in English and French, the variants and the decks.

>>> Character.parse("Duchesse")
Character.DUKE
>>> Character.parse("capitaine").name_en
'captain'
>>> deck(Variant.INQUISITOR, players=7).count(Character.INQUISITOR)
4
"""

from __future__ import annotations

from enum import IntEnum

from ..errors import ParseError
from ..vocabulary import Vocabulary, fold


class Character(IntEnum):
    """A character card. The order is the order of the character table of rules.md.

    ``UNKNOWN`` stands for a face-down card whose character the viewer does not know
    (a puzzle's ``"?"``, or another player's card at a real table); the rules engine
    treats it as "any character" where a card must be matched.
    """

    DUKE = 0
    ASSASSIN = 1
    CONTESSA = 2
    CAPTAIN = 3
    AMBASSADOR = 4
    INQUISITOR = 5
    UNKNOWN = 6

    def __repr__(self) -> str:
        return f"Character.{self.name}"

    def __str__(self) -> str:
        return self.name_en

    @property
    def name_en(self) -> str:
        """The English id used in records and JSON: ``'duke'``, ``'captain'``, ``'?'``."""
        return _ENGLISH[self]

    @property
    def article(self) -> str:
        """The English name with its article: ``'a duke'``, ``'an assassin'``."""
        name = self.name_en
        return f"{'an' if name[0] in 'aeiou' else 'a'} {name}"

    @property
    def name_fr(self) -> str:
        """The French name of Complots: ``'duchesse'``, ``'capitaine'``."""
        return _FRENCH[self]

    @property
    def letter(self) -> str:
        """One letter for compact text forms: D A C K B I, and ``?``."""
        return _LETTERS[self]

    @classmethod
    def parse(cls, word: str) -> Character:
        """Return the character named ``word`` (English or French, any case, accents optional).

        Raises :class:`ParseError` for any other word.

        >>> Character.parse("ambassadeur")
        Character.AMBASSADOR
        """
        return CARD_WORDS.meaning(word, "card")

    @classmethod
    def from_letter(cls, letter: str) -> Character:
        """Return the character whose compact letter is ``letter``; raises :class:`ParseError`."""
        found = _BY_LETTER.get(letter.upper())
        if found is None:
            raise ParseError(f"unknown card letter: {letter!r} (letters: DACKBI?)", input=letter)
        return found


_NAMES: dict[Character, tuple[tuple[str, ...], tuple[str, ...]]] = {
    Character.DUKE: (("duke",), ("duchesse", "duc")),
    Character.ASSASSIN: (("assassin",), ("assassin",)),
    Character.CONTESSA: (("contessa",), ("comtesse",)),
    Character.CAPTAIN: (("captain",), ("capitaine",)),
    Character.AMBASSADOR: (("ambassador",), ("ambassadeur",)),
    Character.INQUISITOR: (("inquisitor",), ("inquisiteur",)),
}
"""The character table of rules.md: English id, French names (Complots)."""
CARD_WORDS: Vocabulary[Character] = Vocabulary((c, en, fr) for c, (en, fr) in _NAMES.items())
"""Every card name in both languages."""
_ENGLISH = {c: en[0] for c, (en, _) in _NAMES.items()} | {Character.UNKNOWN: "?"}
_FRENCH = {c: fr[0] for c, (_, fr) in _NAMES.items()} | {Character.UNKNOWN: "?"}
_LETTERS = {
    Character.DUKE: "D",
    Character.ASSASSIN: "A",
    Character.CONTESSA: "C",
    Character.CAPTAIN: "K",
    Character.AMBASSADOR: "B",
    Character.INQUISITOR: "I",
    Character.UNKNOWN: "?",
}
_BY_LETTER = {letter: character for character, letter in _LETTERS.items()}


class Variant(IntEnum):
    """The fifth character of the game: the ambassador (the default) or the inquisitor."""

    AMBASSADOR = 0
    INQUISITOR = 1

    def __repr__(self) -> str:
        return f"Variant.{self.name}"

    def __str__(self) -> str:
        return self.name.lower()

    @property
    def exchanger(self) -> Character:
        """The character that claims the exchange in this variant."""
        return Character.AMBASSADOR if self is Variant.AMBASSADOR else Character.INQUISITOR

    @property
    def characters(self) -> tuple[Character, ...]:
        """The five characters in play, in the order of the character table."""
        return (
            Character.DUKE,
            Character.ASSASSIN,
            Character.CONTESSA,
            Character.CAPTAIN,
            self.exchanger,
        )

    @property
    def exchange_draw(self) -> int:
        """How many cards an exchange draws from the court: 2 (ambassador) or 1 (inquisitor)."""
        return 2 if self is Variant.AMBASSADOR else 1

    @classmethod
    def parse(cls, word: str) -> Variant:
        """Return the variant named ``word`` (``ambassador``/``inquisitor``, English or French).

        Raises :class:`ParseError` for any other word.
        """
        found = CARD_WORDS.words(word)
        character = found[0].meaning if found else None
        if character is Character.AMBASSADOR:
            return Variant.AMBASSADOR
        if character is Character.INQUISITOR:
            return Variant.INQUISITOR
        raise ParseError(f"unknown variant: {word!r} (ambassador or inquisitor)", input=word)


class Draft(IntEnum):
    """How a 2-player game is set up (rules.md, "Components and set-up")."""

    DEALT_FIRST = 0
    PICK_FIRST = 1
    NONE = 2

    def __repr__(self) -> str:
        return f"Draft.{self.name}"

    def __str__(self) -> str:
        return self.name.lower().replace("_", "-")

    @classmethod
    def parse(cls, word: str) -> Draft:
        """Return the set-up named ``word``: ``dealt-first``, ``pick-first`` or ``none``.

        Raises :class:`ParseError` for any other word.
        """
        key = fold(word).replace("_", "-")
        for draft in Draft:
            if str(draft) == key:
                return draft
        raise ParseError(f"unknown draft: {word!r} (dealt-first, pick-first or none)", input=word)


MIN_PLAYERS = 2
MAX_PLAYERS = 8


def copies(players: int) -> int:
    """Copies of each character in the deck: 3 for 2 to 6 players, 4 for 7 or 8."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ParseError(f"{players} players: Coup is played by {MIN_PLAYERS} to {MAX_PLAYERS}", input=str(players))
    return 4 if players >= 7 else 3


def deck(variant: Variant, players: int) -> tuple[Character, ...]:
    """Return the whole deck, sorted: 15 cards for 2 to 6 players, 20 for 7 or 8.

    In the 2-player draft the deck is the three packs, 15 cards too.
    """
    n = copies(players)
    return tuple(c for c in variant.characters for _ in range(n))


def sort_cards(cards: tuple[Character, ...] | list[Character]) -> tuple[Character, ...]:
    """Return ``cards`` as a sorted tuple: the canonical form of a multiset of cards."""
    return tuple(sorted(cards))


def letters(cards: tuple[Character, ...]) -> str:
    """Return the compact letters of ``cards``, ``-`` for none: ``letters((DUKE, CAPTAIN)) == 'DK'``."""
    return "".join(c.letter for c in cards) or "-"


def from_letters(text: str) -> tuple[Character, ...]:
    """Inverse of :func:`letters`; the result is sorted. Raises :class:`ParseError`."""
    if text == "-":
        return ()
    return sort_cards([Character.from_letter(ch) for ch in text])
