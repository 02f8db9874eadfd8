"""The game graph of a 2-player position: every reachable state, as compact arrays.

Nodes are engine states (turn starts and every decision or chance point inside a turn);
edges are moves and chance outcomes, chance edges carrying exact probabilities. The solver
works on the arrays; :meth:`GameGraph.to_networkx` gives the graph users see and export
(turn-start positions, the decisions inside a turn folded into the edges between them).

>>> from solver.state import State
>>> g = GameGraph.build(State.from_text(
...     "ambassador Alice:7:D:A Bob:7:A:C court=DDACCKKKBBB aside=- phase=action actor=Alice"))
>>> bool(g.kind[0] == MAX), g.size > 10
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import networkx as nx
import numpy as np
import numpy.typing as npt

from .errors import CoupError
from .moves import Move
from .state import CHANCE_PHASES, Phase, State

MAX, MIN, CHANCE, END = 0, 1, 2, 3
"""Node kinds: the player to move at the root decides (MAX), the other (MIN), chance, the end."""

DEFAULT_BUDGET = 3_000_000
"""Positions the solver builds before refusing (a setting)."""


class TooLarge(CoupError):
    """A position beyond what the exact solver is set to handle (more than two players, or
    more reachable states than the budget)."""


@dataclass
class GameGraph:
    """A game graph in compressed sparse rows: the successors of node ``i`` are
    ``succ[start[i]:start[i + 1]]``, reached by ``moves[...]`` with (for chance nodes)
    probabilities ``prob[...]`` (floats) and ``exact[...]`` (fractions)."""

    states: list[State]
    kind: npt.NDArray[np.int8]
    start: npt.NDArray[np.int64]
    succ: npt.NDArray[np.int64]
    prob: npt.NDArray[np.float64]
    exact: list[Fraction]
    moves: list[Move]
    terminal: npt.NDArray[np.int8]  # +1 the root player won, -1 lost, 0 not over
    maximizer: int  # the seat that moves at the root

    @property
    def size(self) -> int:
        return len(self.states)

    def successors(self, node: int) -> range:
        """The edge indices leaving ``node``."""
        return range(int(self.start[node]), int(self.start[node + 1]))

    @classmethod
    def build(cls, root: State, budget: int = DEFAULT_BUDGET) -> GameGraph:
        """Every state reachable from ``root``. Raises :class:`TooLarge` beyond ``budget``
        states or with more than two living players."""
        living = root.living()
        if len(living) != 2:
            raise TooLarge(f"the exact solver covers two living players; this position has {len(living)}")
        maximizer = root.current_player()
        if maximizer < 0:
            raise TooLarge("the position must be a player's decision (a turn start)")
        index: dict[State, int] = {root: 0}
        states = [root]
        kind: list[int] = []
        terminal: list[int] = []
        start = [0]
        succ: list[int] = []
        prob: list[float] = []
        exact: list[Fraction] = []
        moves: list[Move] = []
        i = 0
        while i < len(states):
            s = states[i]
            phase = s.turn.phase
            if phase is Phase.OVER:
                kind.append(END)
                terminal.append(1 if s.winner() == maximizer else -1)
            else:
                terminal.append(0)
                if phase in CHANCE_PHASES:
                    kind.append(CHANCE)
                    outcomes = s.chance_outcomes()
                else:
                    kind.append(MAX if s.turn.decider == maximizer else MIN)
                    outcomes = [(m, Fraction(0)) for m in s.legal_moves()]
                for move, p in outcomes:
                    child = s.apply(move)
                    j = index.get(child)
                    if j is None:
                        j = len(states)
                        if j >= budget:
                            raise TooLarge(f"more than {budget:,} positions (the state budget); not solved")
                        index[child] = j
                        states.append(child)
                    succ.append(j)
                    prob.append(float(p))
                    exact.append(p)
                    moves.append(move)
            start.append(len(succ))
            i += 1
        return cls(
            states,
            np.array(kind, dtype=np.int8),
            np.array(start, dtype=np.int64),
            np.array(succ, dtype=np.int64),
            np.array(prob, dtype=np.float64),
            exact,
            moves,
            np.array(terminal, dtype=np.int8),
            maximizer,
        )

    def turn_starts(self) -> list[int]:
        """The nodes that are the start of a turn (or the end of the game)."""
        return [i for i, s in enumerate(self.states) if s.turn.phase in (Phase.ACTION, Phase.OVER)]


def turn_graph(solution_graph: GameGraph, values: list[Fraction] | None = None) -> nx.MultiDiGraph[int]:
    """The graph a user sees and exports: turn-start positions (and ends of the game) as
    nodes, one edge per action from a turn start to each turn start the turn can lead to
    (the decisions and draws inside the turn folded in), with exact values when given."""
    g = solution_graph
    out: nx.MultiDiGraph[int] = nx.MultiDiGraph()
    starts = g.turn_starts()
    for node in starts:
        s = g.states[node]
        attrs = {"position": s.text(), "to_move": s.names[s.turn.actor] if not s.is_terminal() else ""}
        if values is not None:
            attrs["value"] = str(values[node])
        out.add_node(node, **attrs)
    is_start = set(starts)
    for node in starts:
        for e in g.successors(node):
            action = g.moves[e].text(g.states[0].names)
            stack, seen = [int(g.succ[e])], set()
            while stack:
                child = stack.pop()
                if child in seen:
                    continue
                seen.add(child)
                if child in is_start:
                    out.add_edge(node, child, action=action)
                    continue
                stack.extend(int(g.succ[f]) for f in g.successors(child))
    return out
