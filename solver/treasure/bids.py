"""Bids on where the treasure lies: the base cartons (shared), each player's markers and what a
bid scores once the treasure is known (the tables are in :mod:`solver.treasure.rules`).

>>> treasure = Card.parse("2ev")
>>> [score(m, Card.parse("2ev"), treasure) for m in (Marker.ONE, Marker.NATURE, Marker.ZERO)]
[3, 1, 0]
>>> Bid(1, 5, 0, 1, Marker.ONE).score(Card.parse("1rb"), treasure)
-10
>>> Marker.parse("fond")
Marker.BACKGROUND
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import NamedTuple

from ..errors import ParseError
from .cards import Card
from .rules import ATTRIBUTE_SCORES, BASE_CARTONS, BID_SCORES, MARKERS, Marker

__all__ = ["BASE_CARTONS", "MARKERS", "Bid", "Marker", "marker_letters", "parse_marker_letters", "score"]

_MARKER_BY_LETTER = {m.letter: m for m in Marker}


def marker_letters(markers: Iterable[Marker]) -> str:
    """The markers as letters (``'0111NBF'``), ``-`` for none."""
    return "".join(m.letter for m in markers) or "-"


def parse_marker_letters(text: str) -> tuple[Marker, ...]:
    """Inverse of :func:`marker_letters` (order kept). Raises :class:`ParseError`."""
    if text == "-":
        return ()
    try:
        return tuple(_MARKER_BY_LETTER[ch] for ch in text)
    except KeyError:
        raise ParseError(f"{text!r} is not a list of markers (letters 0 1 N B F ?)", input=text) from None


def score(marker: Marker, card: Card, treasure: Card) -> int:
    """What a bid with ``marker`` on ``card`` scores per unit of base carton when the treasure's
    kind is ``treasure``. (A card of the treasure's kind on the domain is the treasure itself.)"""
    attribute = ATTRIBUTE_SCORES.get(marker)
    if attribute is not None:
        name, equal, different = attribute
        return equal if getattr(card, name) == getattr(treasure, name) else different
    return BID_SCORES[marker][card.shared(treasure)]


class Bid(NamedTuple):
    """A bid: ``player`` left base carton ``base`` on the domain card at ``(row, col)`` with
    ``marker`` on it (:data:`Marker.UNKNOWN` while the viewer has not seen it)."""

    player: int
    base: int
    row: int
    col: int
    marker: Marker = Marker.UNKNOWN

    def score(self, card: Card, treasure: Card) -> int:
        """What this bid on ``card`` scores when the treasure's kind is ``treasure``."""
        return self.base * score(self.marker, card, treasure)


def unused_markers(markers: Iterable[Marker], used: Iterable[Marker]) -> Counter[Marker] | None:
    """The markers of :data:`MARKERS` left once ``markers`` (held, possibly unknown) and ``used``
    (on bids, possibly unknown) are accounted for, or None when they cannot be one player's.

    >>> unused_markers((Marker.UNKNOWN,) * 6, (Marker.NATURE,))
    Counter({Marker.ONE: 3, Marker.ZERO: 1, Marker.BACKGROUND: 1, Marker.FORCE: 1})
    """
    seen: Counter[Marker] = Counter(m for m in (*markers, *used) if m is not Marker.UNKNOWN)
    full: Counter[Marker] = Counter(MARKERS)
    if any(count > full[m] for m, count in seen.items()):
        return None
    return full - seen
