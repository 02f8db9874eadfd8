"""Exact values of 2-player positions, with a certificate checked exactly.

The value of a position (outputs.md): the players know every card, draws are random, each
maximises P(own win) - P(other's win), and play that goes on forever is a draw.

How (each step is cheap; only the last one is trusted):

1. The game graph is split into strongly connected components, solved sinks first.
2. Floats search: value iteration inside each cyclic component gives near-optimal values.
3. Strategies are read off those values, preferring among the best moves those that make
   progress (an attractor towards leaving the component), so a won position is not stalled.
4. The Markov chain of the two strategies is solved exactly (fractions): P(win), P(loss),
   value = P(win) - P(loss) at every node; play kept forever inside a closed class is a draw.
5. The certificate of outputs.md is checked exactly: one-step equations everywhere, both
   strategies choose best moves, and with one strategy fixed, every set of positions where the
   other player can keep play going forever has values <= 0 (resp. >= 0). A failure improves
   the strategies exactly and goes back to 4; nothing uncertified is ever reported.

>>> from solver.state import State
>>> from solver.graph import GameGraph
>>> root = State.from_text("ambassador Alice:7:D:A Bob:7:A:C court=DDACCKKKBBB aside=- phase=action actor=Alice")
>>> solution = solve(GameGraph.build(root))
>>> solution.value[0]   # Alice coups first
Fraction(1, 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from .errors import CoupError
from .graph import CHANCE, END, MAX, MIN, GameGraph

TOLERANCE = 1e-12
MAX_SWEEPS = 200_000
MAX_ROUNDS = 60

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]


class NotCertified(CoupError):
    """The solver could not certify a value (never reported as an answer)."""


@dataclass
class Solution:
    """Exact values from the root player's side, the strategies that achieve them, and the
    probabilities of winning and losing under those strategies, for every node."""

    graph: GameGraph
    value: list[Fraction]
    win: list[Fraction]
    loss: list[Fraction]
    choice: Ints  # the edge chosen at each decision node (-1 elsewhere)
    rounds: int  # strategy-improvement rounds the certificate needed

    def draw(self, node: int = 0) -> Fraction:
        return 1 - self.win[node] - self.loss[node]


def solve(graph: GameGraph) -> Solution:
    """Solve ``graph`` exactly. Raises :class:`NotCertified` if no certificate is found."""
    labels = _components(graph)
    approx = _value_iteration(graph, labels)
    choice = _strategies(graph, approx, labels)
    for rounds in range(MAX_ROUNDS):
        win, loss = _evaluate(graph, choice)
        value = [w - lo for w, lo in zip(win, loss, strict=True)]
        better = _improvements(graph, value, choice)
        if not better:
            problems = _end_component_violations(graph, value, choice)
            if not problems:
                return Solution(graph, value, win, loss, choice, rounds)
            raise NotCertified(f"a stalling strategy in {len(problems)} positions; not reported")
        for node, edge in better.items():
            choice[node] = edge
    raise NotCertified(f"no certified strategies after {MAX_ROUNDS} rounds")


# -- structure ------------------------------------------------------------------------------


def _edges(graph: GameGraph) -> tuple[Ints, Ints]:
    counts = np.diff(graph.start)
    src = np.repeat(np.arange(graph.size, dtype=np.int64), counts)
    return src, graph.succ


def _components(graph: GameGraph) -> Ints:
    """SCC labels, sinks first: every edge goes from a label to one no larger."""
    src, dst = _edges(graph)
    matrix = csr_matrix((np.ones(len(src), dtype=np.int8), (src, dst)), shape=(graph.size, graph.size))
    _, found = connected_components(matrix, directed=True, connection="strong")
    labels: Ints = found.astype(np.int64)
    if len(src) and not np.all(labels[src] >= labels[dst]):  # scipy numbers them in reverse topological order
        raise NotCertified("unexpected component order")  # pragma: no cover
    return labels


# -- 2. value iteration (floats: only a search) --------------------------------------------


def _value_iteration(graph: GameGraph, labels: Ints) -> Floats:
    """Near-optimal values, each component solved once its successors are known."""
    values = graph.terminal.astype(np.float64)
    order = np.argsort(labels, kind="stable")
    bounds = np.flatnonzero(np.diff(labels[order])) + 1
    for members in np.split(order, bounds):
        if len(members) == 1 and not _self_loop(graph, int(members[0])):
            node = int(members[0])
            values[node] = _backup(graph, node, values)
        else:
            _iterate_component(graph, members, values)
    return values


def _self_loop(graph: GameGraph, node: int) -> bool:
    return bool(np.any(graph.succ[graph.start[node] : graph.start[node + 1]] == node))


def _backup(graph: GameGraph, node: int, values: Floats) -> float:
    kind = graph.kind[node]
    if kind == END:
        return float(graph.terminal[node])
    lo, hi = graph.start[node], graph.start[node + 1]
    seen = values[graph.succ[lo:hi]]
    if kind == MAX:
        return float(seen.max())
    if kind == MIN:
        return float(seen.min())
    return float(np.dot(seen, graph.prob[lo:hi]))


def _iterate_component(graph: GameGraph, members: Ints, values: Floats) -> None:
    """Jacobi value iteration on one cyclic component (successors outside are fixed)."""
    members = np.sort(members)
    lo, hi = graph.start[members], graph.start[members + 1]
    counts = hi - lo
    edges = np.concatenate([np.arange(a, b) for a, b in zip(lo, hi, strict=True)])
    seg = np.concatenate(([0], np.cumsum(counts)[:-1]))
    targets = graph.succ[edges]
    probs = graph.prob[edges]
    kinds = graph.kind[members]
    is_max, is_min, is_chance = kinds == MAX, kinds == MIN, kinds == CHANCE
    local = values[members].copy()
    for _ in range(MAX_SWEEPS):
        values[members] = local
        seen = values[targets]
        new = np.zeros_like(local)
        new[is_max] = np.maximum.reduceat(seen, seg)[is_max]
        new[is_min] = np.minimum.reduceat(seen, seg)[is_min]
        new[is_chance] = np.add.reduceat(seen * probs, seg)[is_chance]
        change = float(np.max(np.abs(new - local)))
        local = new
        if change < TOLERANCE:
            break
    values[members] = local


# -- 3. strategies (no stalling where a side can do better than a draw) ---------------------


def _strategies(graph: GameGraph, values: Floats, labels: Ints) -> Ints:
    """Best moves by the floats, preferring progress towards leaving the component."""
    best = _near_best(graph, values)
    ranks = {side: _attractor(graph, labels, best, side) for side in (MAX, MIN)}
    choice = np.full(graph.size, -1, dtype=np.int64)
    for node in range(graph.size):
        kind = int(graph.kind[node])
        if kind in (MAX, MIN):
            choice[node] = min(best[node], key=lambda e: (_rank(graph, labels, ranks[kind], node, e), e))
    return choice


def _rank(graph: GameGraph, labels: Ints, rank: list[float], node: int, edge: int) -> float:
    target = int(graph.succ[edge])
    return 0.0 if labels[target] != labels[node] else rank[target]


def _near_best(graph: GameGraph, values: Floats) -> list[list[int]]:
    """For each decision node, the moves within a hair of the best by the floats."""
    best: list[list[int]] = [[] for _ in range(graph.size)]
    for index in np.flatnonzero((graph.kind == MAX) | (graph.kind == MIN)):
        node = int(index)
        edges = range(int(graph.start[node]), int(graph.start[node + 1]))
        seen = values[graph.succ[edges.start : edges.stop]]
        top = seen.max() if graph.kind[node] == MAX else seen.min()
        best[node] = [e for e, v in zip(edges, seen, strict=True) if abs(v - top) <= 1e-9]
    return best


def _attractor(graph: GameGraph, labels: Ints, best: list[list[int]], side: int) -> list[float]:
    """For each node, how many steps ``side`` needs to force play out of its component (or to
    the end) by best moves, whatever best moves the other side picks; inf if it cannot."""
    inf = float("inf")
    rank = [inf] * graph.size
    need = [0] * graph.size
    count = [0] * graph.size
    waiting: list[list[int]] = [[] for _ in range(graph.size)]
    frontier = []
    for node in range(graph.size):
        kind = graph.kind[node]
        if kind == END:
            rank[node] = 0.0
            continue
        edges = best[node] if kind in (MAX, MIN) else list(graph.successors(node))
        need[node] = len(edges) if kind not in (side, CHANCE) else 1
        for e in edges:
            target = int(graph.succ[e])
            if labels[target] != labels[node] or graph.kind[target] == END:
                count[node] += 1
            else:
                waiting[target].append(node)
        if count[node] >= need[node]:
            rank[node] = 1.0
            frontier.append(node)
    while frontier:
        nxt = []
        for target in frontier:
            for node in waiting[target]:
                if rank[node] < inf:
                    continue
                count[node] += 1
                if count[node] >= need[node]:
                    rank[node] = rank[target] + 1
                    nxt.append(node)
        frontier = nxt
    return rank


# -- 4. exact values of a pair of strategies ------------------------------------------------


def _evaluate(graph: GameGraph, choice: Ints) -> tuple[list[Fraction], list[Fraction]]:
    """P(win) and P(loss) of the root player at every node under ``choice``, exactly."""
    chain_src, chain_dst, chain_edges = [], [], []
    for node in range(graph.size):
        kind = graph.kind[node]
        edges = [int(choice[node])] if kind in (MAX, MIN) else list(graph.successors(node))
        for e in edges:
            chain_src.append(node)
            chain_dst.append(int(graph.succ[e]))
            chain_edges.append(e)
    n = graph.size
    src = np.array(chain_src, dtype=np.int64)
    dst = np.array(chain_dst, dtype=np.int64)
    matrix = csr_matrix((np.ones(len(src), dtype=np.int8), (src, dst)), shape=(n, n))
    _, labels = connected_components(matrix, directed=True, connection="strong")
    out: list[list[tuple[int, Fraction]]] = [[] for _ in range(n)]
    for s, d, e in zip(chain_src, chain_dst, chain_edges, strict=True):
        p = graph.exact[e] if graph.kind[s] == CHANCE else Fraction(1)
        out[s].append((d, p))
    win = [Fraction(0)] * n
    loss = [Fraction(0)] * n
    order = np.argsort(labels, kind="stable")
    bounds = np.flatnonzero(np.diff(labels[order])) + 1
    for members in np.split(order, bounds):
        nodes = [int(x) for x in members]
        if len(nodes) == 1 and all(d != nodes[0] for d, _ in out[nodes[0]]):
            node = nodes[0]
            if graph.kind[node] == END:
                win[node] = Fraction(int(graph.terminal[node] == 1))
                loss[node] = Fraction(int(graph.terminal[node] == -1))
            else:
                win[node] = sum((p * win[d] for d, p in out[node]), Fraction(0))
                loss[node] = sum((p * loss[d] for d, p in out[node]), Fraction(0))
            continue
        _solve_class(nodes, out, win, loss)
    return win, loss


def _solve_class(
    nodes: list[int], out: list[list[tuple[int, Fraction]]], win: list[Fraction], loss: list[Fraction]
) -> None:
    """A cyclic class of the chain: x = P x + b for its nodes (exits known); a class with no
    exit keeps play forever: a draw."""
    inside = {node: i for i, node in enumerate(nodes)}
    if all(d in inside for node in nodes for d, _ in out[node]):
        return  # closed: win = loss = 0
    size = len(nodes)
    from flint import fmpq, fmpq_mat

    a = fmpq_mat(size, size)
    b = fmpq_mat(size, 2)
    for i, node in enumerate(nodes):
        a[i, i] = fmpq(1)
        for d, p in out[node]:
            q = fmpq(p.numerator, p.denominator)
            j = inside.get(d)
            if j is None:
                b[i, 0] += q * fmpq(win[d].numerator, win[d].denominator)
                b[i, 1] += q * fmpq(loss[d].numerator, loss[d].denominator)
            else:
                a[i, j] -= q
    x = a.solve(b)
    for i, node in enumerate(nodes):
        w, lo = x[i, 0], x[i, 1]
        win[node] = Fraction(int(w.p), int(w.q))
        loss[node] = Fraction(int(lo.p), int(lo.q))


# -- 5. the certificate ---------------------------------------------------------------------


def _improvements(graph: GameGraph, value: list[Fraction], choice: Ints) -> dict[int, int]:
    """Decision nodes whose chosen move is not a best move under ``value`` (exactly), with a
    best move; and chance nodes' one-step equations, which hold by construction."""
    better: dict[int, int] = {}
    for node in range(graph.size):
        kind = graph.kind[node]
        if kind not in (MAX, MIN):
            continue
        edges = list(graph.successors(node))
        seen = [value[int(graph.succ[e])] for e in edges]
        top = max(seen) if kind == MAX else min(seen)
        chosen = value[int(graph.succ[choice[node]])]
        if chosen != top or value[node] != top:
            better[node] = edges[seen.index(top)]
    return better


def check_equations(graph: GameGraph, value: list[Fraction]) -> list[int]:
    """Nodes where the one-step equations fail (max / min / probability-weighted mean)."""
    bad = []
    for node in range(graph.size):
        kind = graph.kind[node]
        if kind == END:
            if value[node] != graph.terminal[node]:
                bad.append(node)
            continue
        edges = list(graph.successors(node))
        seen = [value[int(graph.succ[e])] for e in edges]
        if kind == MAX:
            expected = max(seen)
        elif kind == MIN:
            expected = min(seen)
        else:
            expected = sum((graph.exact[e] * v for e, v in zip(edges, seen, strict=True)), Fraction(0))
        if value[node] != expected:
            bad.append(node)
    return bad


def _end_component_violations(graph: GameGraph, value: list[Fraction], choice: Ints) -> list[int]:
    """Part (3) of the certificate: with the maximiser's strategy fixed, positions where the
    minimiser can keep play going forever must have values <= 0; and symmetrically >= 0."""
    bad: list[int] = []
    for fixed, sign in ((MAX, 1), (MIN, -1)):
        for component in end_components(graph, choice, fixed):
            bad.extend(node for node in component if sign * value[node] > 0)
    return bad


def end_components(graph: GameGraph, choice: Ints, fixed: int) -> list[list[int]]:
    """The maximal sets of positions where the player other than ``fixed`` can keep play
    going forever, when ``fixed`` plays ``choice`` (maximal end components)."""
    alive = np.ones(graph.size, dtype=bool)
    alive[graph.kind == END] = False
    components: list[list[int]] = []
    while True:
        edges_src, edges_dst = [], []
        for index in np.flatnonzero(alive):
            node = int(index)
            kind = graph.kind[node]
            targets = (
                [int(graph.succ[choice[node]])]
                if kind == fixed
                else [int(graph.succ[e]) for e in graph.successors(node)]
            )
            for t in targets:
                if alive[t]:
                    edges_src.append(node)
                    edges_dst.append(t)
        matrix = csr_matrix(
            (np.ones(len(edges_src), dtype=np.int8), (edges_src, edges_dst)), shape=(graph.size, graph.size)
        )
        _, labels = connected_components(matrix, directed=True, connection="strong")
        removed = False
        for index in np.flatnonzero(alive):
            node = int(index)
            kind = graph.kind[node]
            here = labels[node]
            if kind == fixed:
                stays = [int(graph.succ[choice[node]])]
                keep = all(alive[t] and labels[t] == here for t in stays)
            elif kind == CHANCE:
                keep = all(
                    alive[int(graph.succ[e])] and labels[int(graph.succ[e])] == here for e in graph.successors(node)
                )
            else:
                keep = any(
                    alive[int(graph.succ[e])] and labels[int(graph.succ[e])] == here for e in graph.successors(node)
                )
            if not keep:
                alive[node] = False
                removed = True
        if not removed:
            break
    groups: dict[int, list[int]] = {}
    for index in np.flatnonzero(alive):
        groups.setdefault(int(labels[index]), []).append(int(index))
    for nodes in groups.values():
        components.append(nodes)
    return components
