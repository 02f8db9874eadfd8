"""The domain: the cards laid on the table, on cells ``(row, column)`` relative to the start card
(rows grow downwards, columns to the right), each with its owner.

Where a card may go and what it scores follow the tables of :mod:`solver.treasure.rules`: an
empty cell sharing an edge with the domain; compatible with the one card it touches, or with at
least two of the several it touches (2 -> +1 VP, 3 -> +5, 4 -> +20); and the limits on the open
rows and columns. A refused placement says which rule it breaks.

>>> d = Domain.start(Card.parse("2cv")).place(Card.parse("2cb"), 1, 0, owner=0).place(Card.parse("2rv"), 0, 1, owner=1)
>>> d.points(Card.parse("2rb"), 1, 1), d.set_scores()
(1, {0: -1, 1: -1})
>>> print(d.refusal(Card.parse("1rv"), 1, 1))
1rv at 1 1 touches 2rv and 2cb but is compatible with only one
>>> print(d.refusal(Card.parse("3en"), -1, 1))
3en at -1 1 touches 2rv only and is not compatible with it (they share 0 attributes)
>>> row = Domain.start(Card.parse("2cv")).place(Card.parse("2cb"), 0, 1, owner=0)
>>> print(row.refusal(Card.parse("2cv"), 0, 2))
2cv at 0 2 would open 1 row and 3 columns: columns may be at most twice the rows
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from ..game import NOBODY
from .cards import Card
from .rules import MIN_COMPATIBLE_WHEN_SEVERAL, PLACEMENT_POINTS, SET_OFFSET, broken_limit

if TYPE_CHECKING:
    import networkx as nx


Cell = tuple[int, int]
_SIDES = ((-1, 0), (0, -1), (0, 1), (1, 0))


class Tile(NamedTuple):
    """A domain card: its cell, its card and the seat that placed it (:data:`NOBODY` for the start)."""

    row: int
    col: int
    card: Card
    owner: int = NOBODY

    @property
    def cell(self) -> Cell:
        return (self.row, self.col)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _names(cards: Iterable[Card]) -> str:
    words = [str(c) for c in cards]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


@lru_cache(maxsize=4096)
def _grid(tiles: tuple[Tile, ...]) -> dict[Cell, Tile]:
    return {(t.row, t.col): t for t in tiles}


class Domain(NamedTuple):
    """The domain's tiles, sorted by cell. Build it with :meth:`start` and :meth:`place`."""

    tiles: tuple[Tile, ...] = ()

    def __repr__(self) -> str:
        return f"Domain({self.tiles!r})"

    @classmethod
    def start(cls, card: Card) -> Domain:
        """The domain of the start card alone, at (0, 0), owned by nobody."""
        return cls((Tile(0, 0, card),))

    def at(self, row: int, col: int) -> Tile | None:
        """The tile at ``(row, col)``, or None for an empty cell."""
        return _grid(self.tiles).get((row, col))

    def neighbours(self, row: int, col: int) -> tuple[Tile, ...]:
        """The domain cards sharing an edge with ``(row, col)``, in cell order."""
        grid = _grid(self.tiles)
        found = (grid.get((row + dr, col + dc)) for dr, dc in _SIDES)
        return tuple(t for t in found if t is not None)

    def frontier(self) -> tuple[Cell, ...]:
        """The empty cells sharing an edge with the domain, in cell order."""
        grid = _grid(self.tiles)
        cells = {(t.row + dr, t.col + dc) for t in self.tiles for dr, dc in _SIDES}
        return tuple(sorted(c for c in cells if c not in grid))

    def open_rows(self) -> int:
        """How many rows hold a domain card."""
        return len({t.row for t in self.tiles})

    def open_columns(self) -> int:
        """How many columns hold a domain card."""
        return len({t.col for t in self.tiles})

    def refusal(self, card: Card, row: int, col: int) -> str | None:
        """Return why ``card`` may not go at ``(row, col)``, in words, or None when it may."""
        where = f"{card} at {row} {col}"
        taken = self.at(row, col)
        if taken is not None:
            return f"{row} {col} already holds {taken.card}"
        touching = self.neighbours(row, col)
        if not touching:
            return f"{where} touches no domain card"
        compatible = sum(1 for t in touching if card.compatible(t.card))
        if len(touching) == 1 and not compatible:
            other = touching[0].card
            shared = _plural(card.shared(other), "attribute")
            return f"{where} touches {other} only and is not compatible with it (they share {shared})"
        if len(touching) > 1 and compatible < MIN_COMPATIBLE_WHEN_SEVERAL:
            how = "only one" if compatible == 1 else "none of them"
            return f"{where} touches {_names(t.card for t in touching)} but is compatible with {how}"
        return self.limit_refusal(card, row, col)

    def limit_refusal(self, card: Card, row: int, col: int) -> str | None:
        """Return the limit on open rows and columns that a card at ``(row, col)`` would break,
        in words, or None. (Only the cell matters, not the card.)"""
        rows = len({t.row for t in self.tiles} | {row})
        columns = len({t.col for t in self.tiles} | {col})
        limit = broken_limit(rows, columns)
        if limit is None:
            return None
        opened = f"{_plural(rows, 'row')} and {_plural(columns, 'column')}"
        return f"{card} at {row} {col} would open {opened}: {limit.rule}"

    def legal(self, card: Card, row: int, col: int) -> bool:
        """True when ``card`` may go at ``(row, col)``."""
        return self.refusal(card, row, col) is None

    def points(self, card: Card, row: int, col: int) -> int:
        """The VP of placing ``card`` at ``(row, col)`` (0, 1, 5 or 20), assuming it is legal."""
        touching = self.neighbours(row, col)
        compatible = sum(1 for t in touching if card.compatible(t.card))
        return PLACEMENT_POINTS[compatible] if len(touching) > 1 else 0

    def placements(self, card: Card) -> tuple[tuple[Cell, int], ...]:
        """Every cell where ``card`` may go, with its VP, in cell order.

        >>> Domain.start(Card.parse("2cv")).placements(Card.parse("2cb"))
        (((-1, 0), 0), ((0, -1), 0), ((0, 1), 0), ((1, 0), 0))
        """
        return _placements(self.tiles, card)

    def place(self, card: Card, row: int, col: int, owner: int) -> Domain:
        """The domain with ``card`` placed at ``(row, col)`` by ``owner`` (no rule is checked)."""
        return Domain(tuple(sorted((*self.tiles, Tile(row, col, card, owner)))))

    def cards(self) -> tuple[Card, ...]:
        """The domain's cards, in cell order."""
        return tuple(t.card for t in self.tiles)

    def connected(self) -> bool:
        """True when every domain card is joined to every other edge to edge."""
        if not self.tiles:
            return True
        grid = _grid(self.tiles)
        seen = {self.tiles[0].cell}
        stack = [self.tiles[0].cell]
        while stack:
            r, c = stack.pop()
            for dr, dc in _SIDES:
                near = (r + dr, c + dc)
                if near in grid and near not in seen:
                    seen.add(near)
                    stack.append(near)
        return len(seen) == len(self.tiles)

    def graph(self) -> nx.Graph[Cell]:
        """The domain as a grid graph: a node per occupied cell (with its tile as ``tile``), an
        edge per pair of cells sharing an edge."""
        import networkx as nx

        graph: nx.Graph[Cell] = nx.Graph()
        for t in self.tiles:
            graph.add_node(t.cell, tile=t)
        grid = _grid(self.tiles)
        for t in self.tiles:
            for dr, dc in ((0, 1), (1, 0)):
                if (t.row + dr, t.col + dc) in grid:
                    graph.add_edge(t.cell, (t.row + dr, t.col + dc))
        return graph

    def components(self, owner: int) -> dict[Cell, int]:
        """Label each of ``owner``'s cells with the number of its connected set (0, 1, ...)."""
        return _components(self.graph(), self.tiles, owner)

    def sets(self) -> dict[int, list[int]]:
        """Per owner (the start card excluded), the sizes of their connected sets (largest groups
        of their cards joined edge to edge), largest first."""
        graph = self.graph()
        sizes: dict[int, list[int]] = {}
        for owner in sorted({t.owner for t in self.tiles if t.owner != NOBODY}):
            labels = Counter(_components(graph, self.tiles, owner).values())
            sizes[owner] = sorted(labels.values(), reverse=True)
        return sizes

    def set_scores(self) -> dict[int, int]:
        """Per owner, what their connected sets score: n - 2 for a set of n cards."""
        return {owner: sum(n - SET_OFFSET for n in sizes) for owner, sizes in self.sets().items()}

    def set_score(self, owner: int) -> int:
        """What ``owner``'s connected sets score (0 for an owner with no card)."""
        return self.set_scores().get(owner, 0)


def _components(graph: nx.Graph[Cell], tiles: tuple[Tile, ...], owner: int) -> dict[Cell, int]:
    import networkx as nx

    mine = graph.subgraph(t.cell for t in tiles if t.owner == owner)
    components = sorted(sorted(c) for c in nx.connected_components(mine))
    return {cell: label for label, cells in enumerate(components) for cell in cells}


@lru_cache(maxsize=4096)
def _open_cells(tiles: tuple[Tile, ...]) -> tuple[tuple[Cell, tuple[Card, ...]], ...]:
    """The frontier cells where a card would break no limit on open rows and columns, each with
    the domain cards it touches."""
    if not tiles:
        return ()
    domain = Domain(tiles)
    card = tiles[0].card
    return tuple(
        (cell, tuple(t.card for t in domain.neighbours(*cell)))
        for cell in domain.frontier()
        if domain.limit_refusal(card, *cell) is None
    )


@lru_cache(maxsize=65536)
def _placements(tiles: tuple[Tile, ...], card: Card) -> tuple[tuple[Cell, int], ...]:
    found = []
    for cell, touching in _open_cells(tiles):
        compatible = sum(1 for other in touching if card.shared(other) >= 2)
        if len(touching) == 1:
            if compatible:
                found.append((cell, 0))
        elif compatible >= MIN_COMPATIBLE_WHEN_SEVERAL:
            found.append((cell, PLACEMENT_POINTS[compatible]))
    return tuple(found)
