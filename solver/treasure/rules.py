"""The rules of treasure.md as data: every number and table of the game, in one place.

The engine, the domain and the bids read these tables; nowhere else should a rule's number be
written.

>>> PLACEMENT_POINTS[3], hand_penalty(2), hand_penalty(7), emptying_bonus(3)
(5, -1, -20, 1)
>>> BID_SCORES[Marker.ONE]
(-2, -1, 1, 3)
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

from ..errors import ParseError
from .cards import fold

MIN_PLAYERS, MAX_PLAYERS = 2, 8
"""The game is played by 2 to 8."""

# -- victory points of play ---------------------------------------------------------------------

START_VP = 5
"""Every player starts with 5 VP."""
EXTRA_CARD_VP = 1
"""A player dealt one card more than the fewest gets +1 VP at once."""
PASS_VP = -1
"""Passing while holding cards."""
EMPTYING_BONUS = (2, 2, 2)
"""The first three players to empty their hands get +2 VP each..."""
LATER_EMPTYING_BONUS = 1
"""... later ones +1 VP."""
DEUX_CARTES = 2
"""From the moment a player is down to this many cards, every player must place when they can."""
BREACH_VP = -10
"""A proven breach of "deux cartes", at the end."""
SET_OFFSET = 2
"""A connected set of n cards scores n - 2."""
HAND_PENALTY = (0, 0, -1, -5)
"""Cards left in hand at the end: 0 or 1 -> 0, 2 -> -1, 3 -> -5..."""
LARGE_HAND_PENALTY = -20
"""... 4 or more -> -20."""


def emptying_bonus(emptied_before: int) -> int:
    """The VP for emptying one's hand after ``emptied_before`` players have emptied theirs."""
    return EMPTYING_BONUS[emptied_before] if emptied_before < len(EMPTYING_BONUS) else LATER_EMPTYING_BONUS


def hand_penalty(cards_left: int) -> int:
    """The end-of-game penalty for ``cards_left`` cards in hand (0 or negative)."""
    return HAND_PENALTY[cards_left] if cards_left < len(HAND_PENALTY) else LARGE_HAND_PENALTY


# -- the domain ---------------------------------------------------------------------------------

PLACEMENT_POINTS = {1: 0, 2: 1, 3: 5, 4: 20}
"""VP of a placement by the number of touching domain cards it is compatible with (a card that
touches one card and is compatible with it scores 0; one that touches several needs 2 or more)."""
MIN_COMPATIBLE_WHEN_SEVERAL = 2
"""A card touching several domain cards must be compatible with at least this many of them."""


class Limit(NamedTuple):
    """One limit on the open rows and columns, checked after every placement: ``rows`` times
    ``per_rows`` plus ``columns`` times ``per_columns`` must stay at most ``bound``."""

    rule: str  # the limit in words
    per_rows: int
    per_columns: int
    bound: int


LIMITS = (
    Limit("columns may be at most twice the rows", -2, 1, 0),
    Limit("rows may be at most twice the columns", 1, -2, 0),
    Limit("at most 6 rows", 1, 0, 6),
    Limit("at most 11 columns", 0, 1, 11),
)
"""The limits of treasure.md, in its order: columns <= 2 x rows, rows <= 2 x columns, rows <= 6,
columns <= 11."""


def broken_limit(rows: int, columns: int) -> Limit | None:
    """The first limit that ``rows`` open rows and ``columns`` open columns break, or None.

    >>> broken_limit(1, 3).rule, broken_limit(6, 11)
    ('columns may be at most twice the rows', None)
    """
    for limit in LIMITS:
        if limit.per_rows * rows + limit.per_columns * columns > limit.bound:
            return limit
    return None


# -- bids ---------------------------------------------------------------------------------------


class Marker(IntEnum):
    """A player's bidding marker. ``UNKNOWN`` is a marker the viewer has not seen (face down)."""

    ZERO = 0
    ONE = 1
    NATURE = 2
    BACKGROUND = 3  # "fond"
    FORCE = 4
    UNKNOWN = 5

    def __repr__(self) -> str:
        return f"Marker.{self.name}"

    def __str__(self) -> str:
        return MARKER_WORDS[self]

    @property
    def letter(self) -> str:
        """One character for the compact text form: 0 1 N B F ?."""
        return _MARKER_LETTERS[self]

    @classmethod
    def parse(cls, word: str) -> Marker:
        """Return the marker named ``word``: ``0``, ``1``, ``nature``, ``fond`` (also
        ``background``), ``force``. Raises :class:`ParseError` naming the word.

        >>> Marker.parse("Fond")
        Marker.BACKGROUND
        """
        found = _MARKER_BY_WORD.get(fold(word))
        if found is None:
            raise ParseError(f"{word!r} is not a marker: 0, 1, nature, fond or force", input=word)
        return found


MARKER_WORDS = {
    Marker.ZERO: "0",
    Marker.ONE: "1",
    Marker.NATURE: "nature",
    Marker.BACKGROUND: "fond",
    Marker.FORCE: "force",
    Marker.UNKNOWN: "?",
}
"""A marker's word in the table language."""
_MARKER_BY_WORD = {word: m for m, word in MARKER_WORDS.items() if m is not Marker.UNKNOWN}
_MARKER_BY_WORD.update({"background": Marker.BACKGROUND, "zero": Marker.ZERO, "un": Marker.ONE})
_MARKER_LETTERS = {
    Marker.ZERO: "0",
    Marker.ONE: "1",
    Marker.NATURE: "N",
    Marker.BACKGROUND: "B",
    Marker.FORCE: "F",
    Marker.UNKNOWN: "?",
}

BASE_CARTONS = (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 3, 4, 5)
"""The 14 base cartons, shared by every player: ten 1s and one each of 2, 3, 4, 5."""
MARKERS: tuple[Marker, ...] = (
    Marker.ZERO,
    Marker.ONE,
    Marker.ONE,
    Marker.ONE,
    Marker.NATURE,
    Marker.BACKGROUND,
    Marker.FORCE,
)
"""Each player's 7 markers."""

BID_SCORES = {
    Marker.ZERO: (0, 0, 0, 0),
    Marker.ONE: (-2, -1, 1, 3),
}
"""Per base value, by the attributes the bid-on card shares with the treasure (0, 1, 2, 3 = on
the treasure itself): ``1`` scores -2x, -x, +x, +3x; ``0`` is a bluff."""
ATTRIBUTE_SCORES = {
    Marker.NATURE: ("nature", 1, -1),
    Marker.BACKGROUND: ("background", 1, -1),
    Marker.FORCE: ("force", 1, -1),
}
"""Per base value, for a marker on one attribute: +x if the bid-on card's attribute equals the
treasure's, else -x."""
