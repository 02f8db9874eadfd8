"""Moves: every decision a player makes and every chance outcome, as one small immutable value
that reads, with :meth:`Move.text`, as a line of the table language.

Players are seat numbers (0 is the first player); names belong to the state.

>>> names = ("Ana", "Ben")
>>> Move(Kind.PLACE, 1, card=Card.parse("3cv"), row=0, col=1).text(names)
'Ben place 3cv at 0 1'
>>> Move(Kind.BID, 0, row=0, col=0, base=2, markers=(Marker.NATURE,)).text(names)
'Ana bid 2 on 0 0 with nature'
>>> Move(Kind.PASS, 1)
Move(Kind.PASS, 1)
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

from ..game import CHANCE, NOBODY, TERMINAL
from .cards import Card
from .rules import Marker

__all__ = ["CHANCE", "NOBODY", "TERMINAL", "Kind", "Move"]


class Kind(IntEnum):
    """What a move does: the set-up's chance outcomes, a turn, the bidding, the end."""

    REMOVE = 0  # chance: the card removed unseen at the set-up
    START = 1  # chance: the start card
    DEAL = 2  # chance: the next card of the deal, to `player`
    PLACE = 3  # a card placed on the domain
    PASS = 4  # a turn passed
    NEURO = 5  # a call that opens a bidding round
    NO_NEURO = 6  # no call from this player after this turn
    BID = 7  # a base carton and a marker left on a domain card
    NO_BID = 8  # no bid from this player in this round
    REMOVED = 9  # chance: at the end, the removed card is shown
    REVEAL = 10  # at the end, a player's markers, in the order of their bids
    BREACH = 11  # at the end, a proven breach of "deux cartes"
    NO_BREACH = 12  # at the end, no (more) proven breach for this player

    def __repr__(self) -> str:
        return f"Kind.{self.name}"

    def __str__(self) -> str:
        return self.name.lower().replace("_", " ")


CHANCE_KINDS = frozenset({Kind.REMOVE, Kind.START, Kind.DEAL, Kind.REMOVED})
FIELDS = {
    Kind.REMOVE: ("card",),
    Kind.START: ("card",),
    Kind.DEAL: ("player", "card"),
    Kind.PLACE: ("player", "card", "row", "col"),
    Kind.BID: ("player", "row", "col", "base", "markers"),
    Kind.REMOVED: ("card",),
    Kind.REVEAL: ("player", "markers"),
}
"""The fields each kind of move fills (the others keep their defaults)."""


class Move(NamedTuple):
    """One move: ``kind`` by seat ``player`` (:data:`NOBODY` for chance's set-up steps), naming
    ``card`` (placed, dealt, removed), the cell ``(row, col)`` (placed on, bid on), the base
    carton ``base`` of a bid and ``markers`` (a bid's one marker, or a reveal's, in bid order)."""

    kind: Kind
    player: int = NOBODY
    card: Card | None = None
    row: int = 0
    col: int = 0
    base: int = 0
    markers: tuple[Marker, ...] = ()

    def __repr__(self) -> str:
        parts = [repr(self.kind)]
        if self.player != NOBODY:
            parts.append(str(self.player))
        if self.card is not None:
            parts.append(f"card={self.card!r}")
        if self.kind in (Kind.PLACE, Kind.BID) or self.row or self.col:
            parts.append(f"row={self.row}, col={self.col}")
        if self.base:
            parts.append(f"base={self.base}")
        if self.markers:
            inside = ", ".join(repr(m) for m in self.markers)
            parts.append(f"markers=({inside}{',' if len(self.markers) == 1 else ''})")
        return f"Move({', '.join(parts)})"

    @property
    def cell(self) -> tuple[int, int]:
        return (self.row, self.col)

    @property
    def marker(self) -> Marker:
        """A bid's marker (:data:`Marker.UNKNOWN` when not named)."""
        return self.markers[0] if self.markers else Marker.UNKNOWN

    def well_formed(self) -> bool:
        """True when the move fills exactly the fields its kind uses (a bid names one marker)."""
        used = FIELDS.get(self.kind, ("player",))
        blank = Move(self.kind)
        for name in ("player", "card", "row", "col", "base", "markers"):
            if name not in used and getattr(self, name) != getattr(blank, name):
                return False
        if ("card" in used) != (self.card is not None):
            return False
        return self.kind is not Kind.BID or len(self.markers) == 1

    def text(self, names: tuple[str, ...]) -> str:
        """Return this move in the words of the table language, e.g. ``'Dan bid 5 on 0 1'``."""
        kind = self.kind
        if kind in (Kind.REMOVE, Kind.START, Kind.REMOVED):
            return f"{kind} {self.card}"
        who = names[self.player] if 0 <= self.player < len(names) else "nobody"
        if kind is Kind.DEAL:
            return f"deal {self.card} to {who}"
        if kind is Kind.PLACE:
            return f"{who} place {self.card} at {self.row} {self.col}"
        if kind is Kind.BID:
            marker = self.marker
            shown = "" if marker is Marker.UNKNOWN else f" with {marker}"
            return f"{who} bid {self.base} on {self.row} {self.col}{shown}"
        if kind is Kind.REVEAL:
            return f"{who} reveal {' '.join(str(m) for m in self.markers)}"
        return f"{who} {kind}"
