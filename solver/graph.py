"""The game graph of a 2-player stochastic game with a win/lose end, as compact arrays
(compressed sparse rows), whatever the game: what :mod:`solver.values` solves.

Nodes are positions where the player at the root decides (:data:`MAX`), the other player
decides (:data:`MIN`), chance draws (:data:`CHANCE`), or the game is over (:data:`END`); edges
are moves and chance outcomes, chance edges carrying exact probabilities (``fractions`` and
``prob_code``) beside their float copies (``prob``). A game's builder attaches
:class:`Labels` that say which position and move each node and edge stand for.

>>> g = GameGraph.of_edges([MAX, END, END], [[1, 2], [], []], terminal=[0, 1, -1])
>>> g, g.size, list(g.successors(0))
(<GameGraph 3 nodes, 2 edges>, 3, [0, 1])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
import numpy.typing as npt

from .errors import Unsupported

if TYPE_CHECKING:
    import networkx as nx  # imported where a graph is built: slow to import

MAX, MIN, CHANCE, END = 0, 1, 2, 3
"""Node kinds: the root player decides (MAX), the other (MIN), chance, the end."""

Ints = npt.NDArray[np.int64]


class Labels(Protocol):
    """What a game's builder says about the nodes and edges of its graph."""

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names."""
        ...

    def state(self, node: int) -> Any:
        """The game position of ``node``."""
        ...

    def move(self, edge: int) -> Any:
        """The move (or chance outcome) of ``edge``."""
        ...

    def tail(self, edge: int) -> tuple[Any, ...]:
        """Forced moves folded into ``edge`` after its own move."""
        ...


@dataclass(repr=False)
class GameGraph:
    """A game graph in compressed sparse rows: the successors of node ``i`` are
    ``succ[start[i]:start[i + 1]]``. ``terminal`` is +1 where the root player won, -1 where
    they lost; ``height`` orders the nodes of one turn for Gauss-Seidel sweeps (0 if unknown);
    ``turn_start_nodes`` are the nodes users see (turn starts and the ends)."""

    kind: npt.NDArray[np.int8]
    start: Ints
    succ: Ints
    prob: npt.NDArray[np.float64]
    terminal: npt.NDArray[np.int8]
    maximizer: int
    fractions: list[Fraction]  # the distinct exact chance probabilities
    prob_code: Ints  # per edge: its index in ``fractions`` (-1 for a decision's edge)
    height: Ints
    turn_start_nodes: Ints
    labels: Labels | None = None
    win_node: int = -1
    loss_node: int = -1

    def __repr__(self) -> str:
        return f"<GameGraph {self.size:,} nodes, {len(self.succ):,} edges>"

    @property
    def size(self) -> int:
        return len(self.kind)

    def successors(self, node: int) -> range:
        """The edge indices leaving ``node``."""
        return range(int(self.start[node]), int(self.start[node + 1]))

    def source(self, edge: int) -> int:
        """The node ``edge`` leaves."""
        return _source(self.start, edge)

    def exact(self, edge: int) -> Fraction:
        """The exact probability of a chance edge (0 for a decision's edge)."""
        code = int(self.prob_code[edge])
        return self.fractions[code] if code >= 0 else Fraction(0)

    def state(self, node: int) -> Any:
        """The position of ``node`` (from the game's labels). Raises ValueError at an end."""
        if self.kind[node] == END or self.labels is None:
            raise Unsupported(f"node {node} is an end of the game: it has no position")
        return self.labels.state(node)

    def move(self, edge: int) -> Any:
        assert self.labels is not None
        return self.labels.move(edge)

    def tail(self, edge: int) -> tuple[Any, ...]:
        assert self.labels is not None
        return self.labels.tail(edge)

    @property
    def names(self) -> tuple[str, ...]:
        return self.labels.names if self.labels is not None else ("first", "second")

    def turn_starts(self) -> list[int]:
        """The nodes that start a turn (and the two ends of the game)."""
        return [int(n) for n in self.turn_start_nodes]

    @classmethod
    def of_edges(
        cls,
        kind: Sequence[int],
        children: Sequence[Sequence[int]],
        terminal: Sequence[int],
        probabilities: Sequence[Sequence[Fraction]] | None = None,
    ) -> GameGraph:
        """A small graph given node by node (tests, hand-made games): ``children[i]`` lists the
        successors of node ``i``, ``probabilities[i]`` their chances at a chance node."""
        start = np.concatenate(([0], np.cumsum([len(c) for c in children]))).astype(np.int64)
        succ = np.array([c for cs in children for c in cs], dtype=np.int64)
        exact = [
            p
            for i, cs in enumerate(children)
            for p in (probabilities[i] if probabilities and kind[i] == CHANCE else [Fraction(0)] * len(cs))
        ]
        distinct = sorted(set(exact))
        code = np.array(
            [distinct.index(p) if kind[_source(start, e)] == CHANCE else -1 for e, p in enumerate(exact)],
            dtype=np.int64,
        )
        ends = [i for i, k in enumerate(kind) if k == END]
        return cls(
            kind=np.array(kind, dtype=np.int8),
            start=start,
            succ=succ,
            prob=np.array([float(p) for p in exact], dtype=np.float64),
            terminal=np.array(terminal, dtype=np.int8),
            maximizer=0,
            fractions=distinct,
            prob_code=code,
            height=np.zeros(len(kind), dtype=np.int64),
            turn_start_nodes=np.array(range(len(kind)), dtype=np.int64),
            win_node=next((i for i in ends if terminal[i] == 1), -1),
            loss_node=next((i for i in ends if terminal[i] == -1), -1),
        )


def _source(start: Ints, edge: int) -> int:
    """The node an edge leaves, from the row starts."""
    return int(np.searchsorted(start, edge, side="right") - 1)


def turn_graph(graph: GameGraph, values: Sequence[Fraction] | None = None) -> nx.MultiDiGraph[int]:
    """The graph a user sees and exports: turn-start positions (and the two ends) as nodes,
    one edge per action from a turn start to each turn start the turn can lead to, with
    exact values (as text) when given."""
    import networkx as nx

    out: nx.MultiDiGraph[int] = nx.MultiDiGraph()
    starts = graph.turn_starts()
    names = graph.names
    for node in starts:
        if node in (graph.win_node, graph.loss_node):
            winner = graph.maximizer if node == graph.win_node else 1 - graph.maximizer
            attrs = {"position": f"{names[winner]} wins", "to_move": ""}
        else:
            s = graph.state(node)
            attrs = {"position": s.text(), "to_move": names[s.current_player()]}
        if values is not None:
            attrs["value"] = str(values[node])
        out.add_node(node, **attrs)
    is_start = set(starts)
    for node in starts:
        if graph.kind[node] == END:
            continue
        for e in graph.successors(node):
            action = graph.move(e).text(names)
            stack, seen = [int(graph.succ[e])], set()
            while stack:
                child = stack.pop()
                if child in seen:
                    continue
                seen.add(child)
                if child in is_start:
                    out.add_edge(node, child, action=action)
                    continue
                stack.extend(int(graph.succ[f]) for f in graph.successors(child))
    return out
