"""Exact counting from the tracked seat: the treasure's kind, the domain cards that may be the
treasure, the value of every bid open to the seat and of every placement it may make.

The seat sees its own dealt cards (in hand or placed), the start card and every placed card.
The removed card is uniform over the deck, so the treasure's kind t has probability
proportional to w(t): 1 if no copy of t has been seen, 1/2 if one has, 0 if both have. Bids,
calls and passes are not evidence. Once the removed card is shown, the treasure is certain.
Everything is an exact :class:`~fractions.Fraction`.

>>> from solver.treasure.state import State
>>> s = State.from_text("tresor deck=1x2x2 Ana:5:1cn1ev1ev:0111NBF Ben:5:???:??????? removed=? "
...                     "domain=0,0:1cv phase=turn mover=Ana")
>>> treasure_odds(s, 0)
{Card.parse('1cn'): Fraction(1, 4), Card.parse('1cv'): Fraction(1, 4), Card.parse('1en'): Fraction(1, 2)}
>>> [(v.marker, v.row, v.col, v.base, v.value) for v in bid_values(s, 0)[:2]]  # all force 1: force cannot lose
[(Marker.FORCE, 0, 0, 5, Fraction(5, 1)), (Marker.ONE, 0, 0, 5, Fraction(5, 2))]
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import NamedTuple

from ..errors import ImpossibleTable
from .bids import score
from .cards import COPIES, Card
from .domain import Tile
from .rules import Marker, emptying_bonus
from .state import Phase, State


class BidValue(NamedTuple):
    """A bid open to the seat: ``marker`` with base carton ``base`` on the card at ``(row, col)``,
    and its exact expected score ``value``."""

    marker: Marker
    row: int
    col: int
    base: int
    value: Fraction


class PlacementValue(NamedTuple):
    """A legal placement of the seat's ``card`` at ``(row, col)``: its immediate ``vp`` (points,
    and the emptying bonus if it is the last card) and the change ``sets`` in the seat's
    connected-set score."""

    card: Card
    row: int
    col: int
    vp: int
    sets: int

    @property
    def gain(self) -> int:
        """``vp + sets``: what the placements are ordered by."""
        return self.vp + self.sets


def seen_cards(s: State, seat: int | None) -> Counter[Card]:
    """The cards ``seat`` has seen: its known hand cards and every domain card (its own placed
    cards among them); a spectator (None) sees the domain only."""
    counts = Counter(c for c in s.hands[seat] if c.known) if seat is not None else Counter[Card]()
    counts.update(s.domain.cards())
    return counts


def treasure_weights(s: State, seat: int | None) -> tuple[dict[Card, int], int]:
    """The treasure's kinds with their weights as whole numbers (``2 w(t)``: 2 unseen, 1 seen once)
    and their sum, so that P(t) is weight / sum; once the removed card is shown (the game over),
    its kind alone. Raises :class:`ImpossibleTable` if the seat has seen every card twice."""
    treasure = s.treasure()
    if treasure is not None and s.turn.phase > Phase.REMOVED:
        return {treasure: 1}, 1
    seen = seen_cards(s, seat)
    weights = {k: COPIES - seen[k] for k in s.deck.kinds() if seen[k] < COPIES}
    total = sum(weights.values())
    if not total:
        who = s.names[seat] if seat is not None else "the spectator"
        raise ImpossibleTable(f"{who} has seen both copies of every card: nothing is left to remove")
    return weights, total


def treasure_odds(s: State, seat: int | None) -> dict[Card, Fraction]:
    """Every kind the treasure may be, with its exact probability from ``seat``'s view (None: a
    spectator's, who sees the domain only), in
    canonical order. Once the removed card is shown (the game over), the treasure is certain.
    Raises :class:`ImpossibleTable` if the seat has seen every card twice."""
    weights, total = treasure_weights(s, seat)
    return {kind: Fraction(w, total) for kind, w in weights.items()}


def treasure_cells(s: State, seat: int | None) -> tuple[tuple[Tile, Fraction], ...]:
    """The domain cards that may be the treasure (their twin unseen), with their chance, likeliest
    first (then in cell order)."""
    odds = treasure_odds(s, seat)
    found = [(t, odds[t.card]) for t in s.domain.tiles if odds.get(t.card, 0)]
    return tuple(sorted(found, key=lambda pair: -pair[1]))


def bid_values(s: State, seat: int) -> tuple[BidValue, ...]:
    """Every bid open to ``seat`` (each of its unused markers, ``0`` included, on each domain card)
    with the best base carton left for it (the largest when the marker's value is positive, the
    smallest otherwise) and its exact value x · Σ_t P(t) · score(m, d, t), best first. Empty when
    no base carton is left."""
    if not s.cartons:
        return ()
    weights, total = treasure_weights(s, seat)
    markers = sorted({m for m in s.markers[seat] if m is not Marker.UNKNOWN})
    expected: dict[tuple[Marker, Card], Fraction] = {}  # per marker and kind of card bid on
    values = []
    for marker in markers:
        for tile in s.domain.tiles:
            key = (marker, tile.card)
            if key not in expected:  # whole numbers first: the same exact value, faster
                points = sum(w * score(marker, tile.card, t) for t, w in weights.items())
                expected[key] = Fraction(points, total)
            mean = expected[key]
            base = max(s.cartons) if mean > 0 else min(s.cartons)
            values.append(BidValue(marker, tile.row, tile.col, base, base * mean))
    return tuple(sorted(values, key=lambda v: -v.value))


def placement_values(s: State, seat: int) -> tuple[PlacementValue, ...]:
    """Every legal placement of ``seat``'s known cards now, with its immediate VP and the change
    in the seat's connected-set score, ordered by their sum, best first (then by card and cell).

    A new card joins the k distinct sets of the seat it touches into one: the set score
    (cards - 2 x sets) changes by 2k - 1."""
    hand = s.hands[seat]
    labels = s.domain.components(seat)
    bonus = emptying_bonus(sum(1 for h in s.hands if not h)) if len(hand) == 1 else 0
    values = []
    for card in sorted({c for c in hand if c.known}):
        for (row, col), points in s.domain.placements(card):
            joined = {labels[t.cell] for t in s.domain.neighbours(row, col) if t.owner == seat}
            values.append(PlacementValue(card, row, col, points + bonus, 2 * len(joined) - 1))
    return tuple(sorted(values, key=lambda v: -v.gain))
