"""Exact values of 2-player positions, with a certificate checked exactly.

The value of a position (outputs.md): the players know every card, draws are random, each
maximises P(own win) - P(other's win), and play that goes on forever is a draw.

How (each step vectorised over the graph's arrays; only the exact steps are trusted):

1. The graph is split into strongly connected components and cut into *levels*: a level
   depends only on the levels before it (sinks first).
2. Floats search: values level by level, value iteration inside each cyclic component.
3. Strategies are read off those values, preferring among the best moves those that make
   progress (an attractor towards leaving the component): a won position is not stalled.
4. The Markov chain of the two strategies is solved exactly (python-flint rationals): P(win),
   P(loss), and value = P(win) - P(loss) at every node; a class that keeps play going forever
   is a draw.
5. The certificate of outputs.md is checked exactly: the one-step equations everywhere, both
   strategies choose best moves, and with one strategy fixed, every set of positions where the
   other player can keep play going forever has values <= 0 (resp. >= 0). A failure improves
   the strategies exactly and goes back to 4; nothing uncertified is reported.

>>> from solver.graph import GameGraph, MAX, CHANCE, END
>>> from fractions import Fraction as F
>>> g = GameGraph.of_edges([MAX, CHANCE, END, END], [[1, 3], [0, 2], [], []], terminal=[0, 0, 1, -1],
...                        probabilities=[[], [F(1, 2), F(1, 2)], [], []])
>>> solve(g).value[0]   # a coin flip the root may retry forever: a sure win
Fraction(1, 1)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from .errors import NotCertified
from .graph import CHANCE, END, MAX, MIN, GameGraph

TOLERANCE = 1e-13
MAX_SWEEPS = 100_000
MAX_ROUNDS = 60
NO_RANK = np.iinfo(np.int64).max // 4

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]
Objects = npt.NDArray[np.object_]


@dataclass(repr=False)
class Solution:
    """Exact values from the root player's side, the strategies that achieve them, and the
    probabilities of winning and losing under those strategies (per node)."""

    graph: GameGraph
    values: Objects  # python-flint rationals
    wins: Objects
    losses: Objects
    choice: Ints  # the edge chosen at each decision node (-1 elsewhere)
    rounds: int  # strategy-improvement rounds the certificate needed

    @property
    def value(self) -> _FractionView:
        return _FractionView(self.values)

    @property
    def win(self) -> _FractionView:
        return _FractionView(self.wins)

    @property
    def loss(self) -> _FractionView:
        return _FractionView(self.losses)

    def __repr__(self) -> str:
        return f"<Solution of {self.graph!r}: value {self.value[0]} at the root, {self.rounds} rounds>"

    def draw(self, node: int = 0) -> Fraction:
        return 1 - self.win[node] - self.loss[node]


class _FractionView:
    """Reads python-flint rationals as :class:`fractions.Fraction`."""

    def __init__(self, values: Objects) -> None:
        self._values = values

    def __getitem__(self, node: int) -> Fraction:
        return to_fraction(self._values[node])

    def __len__(self) -> int:
        return len(self._values)


def to_fraction(q: Any) -> Fraction:
    return Fraction(int(q.p), int(q.q))


def solve(graph: GameGraph) -> Solution:
    """Solve ``graph`` exactly. Raises :class:`NotCertified` if no certificate is found."""
    arrays = _Arrays(graph)
    labels, levels = _levels(graph, arrays.src)
    approx = _value_iteration(graph, arrays, labels, levels)
    choice = _strategies(graph, arrays, approx, labels)
    for rounds in range(MAX_ROUNDS):
        wins, losses = _evaluate(graph, arrays, choice)
        values = wins - losses
        better = _improvements(graph, arrays, values, choice)
        if len(better) == 0:
            if _end_component_violations(graph, arrays, values, choice):
                raise NotCertified("a strategy keeps play going where it should not; not reported")
            return Solution(graph, values, wins, losses, choice, rounds)
        choice[better[:, 0]] = better[:, 1]
    raise NotCertified(f"no certified strategies after {MAX_ROUNDS} rounds")


class _Arrays:
    """Per-edge helpers shared by the passes."""

    def __init__(self, graph: GameGraph) -> None:
        counts = np.diff(graph.start)
        self.src: Ints = np.repeat(np.arange(graph.size, dtype=np.int64), counts)
        self.decision: Bools = (graph.kind == MAX) | (graph.kind == MIN)
        self.has_edges: Bools = counts > 0
        self.seg: Ints = graph.start[:-1][self.has_edges]
        chance_edges = graph.kind[self.src] == CHANCE
        self.chance_edges: Ints = np.flatnonzero(chance_edges)
        self.exact_chance, self.chance_scale, self.chance_weights = _exact_probabilities(
            graph, self.chance_edges, self.src
        )


def _exact_probabilities(graph: GameGraph, edges: Ints, src: Ints) -> tuple[Objects, int, Ints]:
    """The exact probabilities of ``edges`` (chance edges) as python-flint rationals, their
    common denominator, and each one times it (0 if that would not fit 64 bits): one
    conversion per distinct probability, not per edge."""
    from flint import fmpq  # here: python-flint is imported only to solve a graph

    distinct = graph.fractions
    scale = math.lcm(*(p.denominator for p in distinct)) if distinct else 1
    rationals = np.empty(len(distinct), dtype=object)
    rationals[:] = [fmpq(p.numerator, p.denominator) for p in distinct]
    weights = np.array([int(p * scale) if scale < LIMIT else 0 for p in distinct], dtype=np.int64)
    code = graph.prob_code[edges]
    return rationals[code], scale, weights[code]


# -- 1. components and levels ------------------------------------------------------------


def _ranges(starts: Ints, lengths: Ints) -> Ints:
    """The concatenation of ``range(start, start + length)`` for each pair, vectorised."""
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    offsets = np.repeat(starts - np.cumsum(np.concatenate(([0], lengths[:-1]))), lengths)
    return offsets + np.arange(total)


def _components(n: int, src: Ints, dst: Ints) -> Ints:
    """SCC labels with every edge from a label to one no larger (sinks first)."""
    from scipy.sparse import csr_matrix  # here: scipy is slow to import
    from scipy.sparse.csgraph import connected_components

    matrix = csr_matrix((np.ones(len(src), dtype=np.int8), (src, dst)), shape=(n, n))
    _, found = connected_components(matrix, directed=True, connection="strong")
    labels: Ints = found.astype(np.int64)
    if len(src) and not np.all(labels[src] >= labels[dst]):  # scipy numbers them so
        raise NotCertified("unexpected component order")  # pragma: no cover
    return labels


def _levels(graph: GameGraph, src: Ints) -> tuple[Ints, Ints]:
    """SCC labels, and each node's level: 0 for sinks, else one more than the deepest
    component it leads to."""
    labels = _components(graph.size, src, graph.succ)
    return labels, _component_levels(labels, graph.start, graph.succ)[labels]


def _component_levels(labels: Ints, start: Ints, succ: Ints) -> Ints:
    """Per component: 0 for a sink, else 1 + the largest level among the components its
    edges reach (``start``/``succ``: the edges in CSR form). Relaxed to a fixed point, one
    round per level; each round is a few passes over the arrays."""
    n = len(labels)
    k = int(labels.max()) + 1 if n else 0
    src = np.repeat(np.arange(n, dtype=np.int64), np.diff(start))
    step = (labels[src] != labels[succ]).astype(np.int64)
    target = labels[succ]
    has_edges = np.flatnonzero(np.diff(start) > 0)
    seg = start[:-1][has_edges]
    by_label = np.argsort(labels[has_edges], kind="stable")
    grouped = has_edges[by_label]
    label_of_group = labels[grouped]
    cuts = np.flatnonzero(np.diff(label_of_group)) + 1
    first = np.concatenate(([0], cuts)) if len(grouped) else np.zeros(0, dtype=np.int64)
    owners = label_of_group[first]
    level = np.zeros(k, dtype=np.int64)
    while len(seg):
        per_node = np.maximum.reduceat(level[target] + step, seg)
        per_comp = np.maximum.reduceat(per_node[by_label], first)
        if np.array_equal(per_comp, level[owners]):
            return level
        level[owners] = per_comp
    return level


# -- 2. value iteration (floats: only a search) --------------------------------------------


class _Backup:
    """One backup of a fixed set of nodes (all with edges): max / min / mean of their
    successors, with the index arithmetic done once."""

    def __init__(self, graph: GameGraph, nodes: Ints) -> None:
        lo, hi = graph.start[nodes], graph.start[nodes + 1]
        lengths = hi - lo
        idx = _ranges(lo, lengths)
        self.nodes = nodes
        self.targets = graph.succ[idx]
        self.prob = graph.prob[idx]
        self.seg = np.concatenate(([0], np.cumsum(lengths)[:-1]))
        kind = graph.kind[nodes]
        self.is_max, self.is_min = np.flatnonzero(kind == MAX), np.flatnonzero(kind == MIN)

    def __call__(self, values: Floats) -> float:
        """Back the nodes up in place; return the largest change."""
        seen = values[self.targets]
        out = np.add.reduceat(seen * self.prob, self.seg)
        if len(self.is_max):
            out[self.is_max] = np.maximum.reduceat(seen, self.seg)[self.is_max]
        if len(self.is_min):
            out[self.is_min] = np.minimum.reduceat(seen, self.seg)[self.is_min]
        change = float(np.max(np.abs(out - values[self.nodes])))
        values[self.nodes] = out
        return change


def _value_iteration(graph: GameGraph, arrays: _Arrays, labels: Ints, levels: Ints) -> Floats:
    values = graph.terminal.astype(np.float64)
    sizes = np.bincount(labels)
    self_loop = np.zeros(graph.size, dtype=bool)
    self_loop[arrays.src[arrays.src == graph.succ]] = True
    cyclic = (sizes[labels] > 1) | self_loop
    heights = graph.height
    order = np.argsort(levels, kind="stable")
    cuts = np.flatnonzero(np.diff(levels[order])) + 1
    for members in np.split(order, cuts):
        members = members[graph.kind[members] != END]
        plain = members[~cyclic[members]]
        if len(plain):
            _Backup(graph, plain)(values)
        loops = members[cyclic[members]]
        if len(loops):
            for component in np.split(
                loops[np.argsort(labels[loops], kind="stable")], np.flatnonzero(np.diff(np.sort(labels[loops]))) + 1
            ):
                by_height = component[np.argsort(heights[component], kind="stable")]
                cuts_h = np.flatnonzero(np.diff(heights[by_height])) + 1
                passes = [_Backup(graph, nodes) for nodes in np.split(by_height, cuts_h)]
                for _ in range(MAX_SWEEPS):
                    if max(backup(values) for backup in passes) < TOLERANCE:
                        break
    return values


# -- 3. strategies ---------------------------------------------------------------------------


def _strategies(graph: GameGraph, arrays: _Arrays, values: Floats, labels: Ints) -> Ints:
    """Best moves by the floats; among them, the one nearest to leaving the component."""
    seen = values[graph.succ]
    src = arrays.src
    top = np.full(graph.size, np.nan)
    seg = arrays.seg
    nodes_with_edges = np.flatnonzero(arrays.has_edges)
    top[nodes_with_edges] = np.where(
        graph.kind[nodes_with_edges] == MAX,
        np.maximum.reduceat(seen, seg),
        np.minimum.reduceat(seen, seg),
    )
    best = arrays.decision[src] & (np.abs(seen - top[src]) <= 1e-9)
    rank_max = _attractor(graph, arrays, labels, best, MAX)
    rank_min = _attractor(graph, arrays, labels, best, MIN)
    leaving = labels[graph.succ] != labels[src]
    rank = np.where(graph.kind[src] == MAX, rank_max[graph.succ], rank_min[graph.succ])
    rank = np.where(leaving, 0, rank)
    edges = np.arange(len(src), dtype=np.int64)
    key = np.where(best, rank * (len(src) + 1) + edges, NO_RANK * 4)
    choice = np.full(graph.size, -1, dtype=np.int64)
    decided = np.flatnonzero(arrays.decision)
    position = np.searchsorted(nodes_with_edges, decided)
    low = np.minimum.reduceat(key, seg)[position]
    choice[decided] = low % (len(src) + 1)
    return choice


def _attractor(graph: GameGraph, arrays: _Arrays, labels: Ints, best: Bools, side: int) -> Ints:
    """Steps ``side`` needs to force play out of the component (or to the end) by best
    moves, whatever best moves the other side picks (NO_RANK if it cannot)."""
    src, dst = arrays.src, graph.succ
    kind = graph.kind
    relevant = np.where(arrays.decision[src], best, True)
    need = np.bincount(src, weights=relevant, minlength=graph.size).astype(np.int64)
    need = np.where((kind == side) | (kind == CHANCE), np.minimum(need, 1), need)
    rank = np.full(graph.size, NO_RANK, dtype=np.int64)
    rank[kind == END] = 0
    exits = relevant & ((labels[dst] != labels[src]) | (kind[dst] == END))
    count = np.bincount(src[exits], minlength=graph.size).astype(np.int64)
    inside = relevant & ~exits
    order = np.argsort(dst[inside], kind="stable")
    in_src, in_dst = src[inside][order], dst[inside][order]
    pred_start = np.concatenate(([0], np.cumsum(np.bincount(in_dst, minlength=graph.size))))
    frontier = np.flatnonzero((count >= need) & (need > 0) & (kind != END))
    rank[frontier] = 1
    depth = 1
    while len(frontier):
        starts, ends = pred_start[frontier], pred_start[frontier + 1]
        lengths = ends - starts
        if lengths.sum() == 0:
            break
        touched = in_src[_ranges(starts, lengths)]
        touched = touched[rank[touched] == NO_RANK]
        np.add.at(count, touched, 1)
        candidates = np.unique(touched)
        frontier = candidates[count[candidates] >= need[candidates]]
        depth += 1
        rank[frontier] = depth
    return rank


# -- 4. exact values of a pair of strategies ------------------------------------------------


def _chain(graph: GameGraph, arrays: _Arrays, choice: Ints) -> Bools:
    """The edges the two strategies (and chance) follow."""
    kept = ~arrays.decision[arrays.src]
    chosen = choice[arrays.decision]
    kept[chosen] = True
    return kept


def _evaluate(graph: GameGraph, arrays: _Arrays, choice: Ints) -> tuple[Objects, Objects]:
    """P(win) and P(loss) of the root player at every node under ``choice``, exactly: the
    chain's components sinks first, level by level; a decision node copies its chosen
    successor's figures, a chance node averages, a cyclic class is one exact linear solve."""
    from flint import fmpq  # here: python-flint is imported only to solve a graph

    kept = _chain(graph, arrays, choice)
    src, dst = arrays.src[kept], graph.succ[kept]
    n = graph.size
    one, zero = fmpq(1), fmpq(0)
    prob = np.full(len(graph.succ), one, dtype=object)
    prob[arrays.chance_edges] = arrays.exact_chance
    probs = prob[kept]
    wins = np.full(n, zero, dtype=object)
    losses = np.full(n, zero, dtype=object)
    wins[graph.terminal == 1] = one
    losses[graph.terminal == -1] = one
    counts = np.bincount(src, minlength=n)
    start = np.concatenate(([0], np.cumsum(counts)))
    labels = _components(n, src, dst)
    level = _component_levels(labels, start, dst)[labels]
    sizes = np.bincount(labels)
    cyclic = sizes[labels] > 1
    cyclic[src[src == dst]] = True
    chance = graph.kind == CHANCE
    order = np.argsort(level, kind="stable")
    for nodes in np.split(order, np.flatnonzero(np.diff(level[order])) + 1):
        nodes = nodes[counts[nodes] > 0]
        simple = nodes[~cyclic[nodes]]
        copy = simple[~chance[simple]]
        wins[copy], losses[copy] = wins[dst[start[copy]]], losses[dst[start[copy]]]
        average = simple[chance[simple]]
        if len(average):
            idx = _ranges(start[average], counts[average])
            seg = np.concatenate(([0], np.cumsum(counts[average])[:-1]))
            wins[average] = np.add.reduceat(probs[idx] * wins[dst[idx]], seg)
            losses[average] = np.add.reduceat(probs[idx] * losses[dst[idx]], seg)
        loops = nodes[cyclic[nodes]]
        if len(loops):
            loops = loops[np.argsort(labels[loops], kind="stable")]
            for members in np.split(loops, np.flatnonzero(np.diff(labels[loops])) + 1):
                _solve_class(members, start, dst, probs, wins, losses)
    return wins, losses


def _solve_class(members: Ints, out_start: Ints, dst: Ints, probs: Objects, wins: Objects, losses: Objects) -> None:
    """x = P x + b on a cyclic class of the chain (its exits known). A class with no exit
    keeps play going forever: a draw (0, 0)."""
    from flint import fmpq, fmpq_mat  # here: python-flint is imported only to solve a graph

    inside = {int(node): i for i, node in enumerate(members)}
    size = len(members)
    a = fmpq_mat(size, size)
    b = fmpq_mat(size, 2)
    exits = False
    for i, node in enumerate(members):
        a[i, i] = fmpq(1)
        for e in range(int(out_start[node]), int(out_start[node + 1])):
            target, p = int(dst[e]), probs[e]
            j = inside.get(target)
            if j is None:
                exits = True
                b[i, 0] += p * wins[target]
                b[i, 1] += p * losses[target]
            else:
                a[i, j] -= p
    if not exits:
        return
    x = a.solve(b)
    for i, node in enumerate(members):
        wins[node], losses[node] = x[i, 0], x[i, 1]


# -- 5. the certificate ---------------------------------------------------------------------


def _improvements(graph: GameGraph, arrays: _Arrays, values: Objects, choice: Ints) -> Ints:
    """Rows (node, best edge) where the one-step equations fail or the chosen move is not a
    best move, exactly. Chance nodes hold by construction and are checked too.

    The values are scaled to integers by their common denominator when that fits in 64 bits
    (machine integers compare exactly and fast); otherwise the rationals themselves."""
    from flint import fmpq  # here: python-flint is imported only to solve a graph

    scaled = _scaled(values, arrays.chance_scale)
    vals: npt.NDArray[Any] = values if scaled is None else scaled
    weights = arrays.exact_chance if scaled is None else arrays.chance_weights
    scale = 1 if scaled is None else arrays.chance_scale
    seen = vals[graph.succ]
    seg = arrays.seg
    nodes = np.flatnonzero(arrays.has_edges)
    kind = graph.kind[nodes]
    top = np.empty(len(nodes), dtype=vals.dtype)
    is_max, is_min, is_chance = kind == MAX, kind == MIN, kind == CHANCE
    if is_max.any():
        top[is_max] = np.maximum.reduceat(seen, seg)[is_max]
    if is_min.any():
        top[is_min] = np.minimum.reduceat(seen, seg)[is_min]
    own = vals[nodes]
    wrong = np.zeros(len(nodes), dtype=bool)
    if is_chance.any():
        weighted = np.zeros(len(graph.succ), dtype=vals.dtype)
        if scaled is None:
            weighted[:] = fmpq(0)
        weighted[arrays.chance_edges] = weights * seen[arrays.chance_edges]
        mean = np.add.reduceat(weighted, seg)[is_chance]
        wrong[is_chance] = np.asarray(own[is_chance] * scale != mean, dtype=bool)
    if wrong.any():
        raise NotCertified("a chance node's equation fails")  # pragma: no cover
    decision = arrays.decision[nodes]
    chosen = vals[graph.succ[choice[nodes[decision]]]]
    wrong[decision] = np.asarray((own[decision] != top[decision]) | (chosen != top[decision]), dtype=bool)
    bad = nodes[wrong]
    rows = np.empty((len(bad), 2), dtype=np.int64)
    position = np.searchsorted(nodes, bad)
    for i, (node, pos) in enumerate(zip(bad, position, strict=True)):
        edges = range(int(graph.start[node]), int(graph.start[node + 1]))
        target = top[pos]
        rows[i] = (node, next(e for e in edges if vals[graph.succ[e]] == target))
    return rows


LIMIT = 2**62 // 64
"""Scaled values times chance weights, summed over a node's edges, must stay in 64 bits."""


def _scaled(values: Objects, chance_scale: int) -> Ints | None:
    """The values (rationals in [-1, 1]) times their common denominator, as machine integers,
    or None when they would not fit (the products with the chance weights included)."""
    denominators = np.frompyfunc(lambda q: int(q.q), 1, 1)(values)
    common = math.lcm(*set(denominators.tolist()))
    if common * chance_scale >= LIMIT:
        return None
    numerators = np.frompyfunc(lambda q: int(q.p), 1, 1)(values)
    return (numerators * (common // denominators)).astype(np.int64)  # type: ignore[no-any-return]


def _end_component_violations(graph: GameGraph, arrays: _Arrays, values: Objects, choice: Ints) -> int:
    """Part (3) of the certificate: with the maximiser's strategy fixed, positions where the
    minimiser can keep play going forever must have values <= 0; symmetrically >= 0."""
    positive = np.asarray(values > 0, dtype=bool)
    negative = np.asarray(values < 0, dtype=bool)
    bad = 0
    for fixed, wrong in ((MAX, positive), (MIN, negative)):
        # Enough to look among the positions of the wrong sign: with (1) and (2) holding, a
        # set where play can stay forever that meets them holds one made only of them (its
        # positions of the largest value: chance averages, the fixed side's best move and
        # the other side's minimum keep to that value).
        stays = end_components(graph, arrays, choice, fixed, within=wrong)
        bad += int(np.count_nonzero(stays))
    return bad


def end_components(graph: GameGraph, arrays: _Arrays, choice: Ints, fixed: int, within: Bools | None = None) -> Bools:
    """The positions where the player other than ``fixed`` can keep play going forever, when
    ``fixed`` plays ``choice`` (the union of the maximal end components), staying ``within``
    the given positions if any."""
    src, dst = arrays.src, graph.succ
    allowed = np.ones(len(src), dtype=bool)
    mine = graph.kind[src] == fixed
    allowed[mine] = False
    allowed[choice[graph.kind == fixed]] = True
    alive = graph.kind != END
    if within is not None:
        alive = alive & within
    while True:
        edge_ok = allowed & alive[src] & alive[dst]
        labels = _components(graph.size, src[edge_ok], dst[edge_ok])
        same = edge_ok & (labels[src] == labels[dst])
        inside = np.bincount(src, weights=same, minlength=graph.size)
        total = np.bincount(src, weights=allowed, minlength=graph.size)
        kind = graph.kind
        all_stay = inside >= total  # chance and the fixed player: every allowed move stays
        some_stay = inside > 0  # the other player: one move that stays is enough
        keep = np.where((kind == CHANCE) | (kind == fixed), all_stay, some_stay) & alive
        if np.array_equal(keep, alive):
            return np.asarray(alive, dtype=bool)
        alive = keep
