"""The Markov chain of the reported strategies between a family's turn starts, solved exactly.

Each turn start leads, under the strategies, to turn starts of the same family (the other player
to move: values change sign) and to values already known (smaller families, the end, states
whose value is fixed), each with an exact probability: :func:`follow` walks every turn start's
turn at once, pass by pass down the heights. Components of the chain are then solved sinks
first (:func:`solve_chain`), a layer of components at a time: the components of one element
by substitution, all at once (each distinct equation computed once), a cycle by one exact
linear solve (python-flint); a class that play never leaves is a draw. Ranks (turns to the end
on the quickest line of positive probability) come from relaxing the same edges.

>>> from fractions import Fraction
>>> from solver.coup.tablebase.exact import Rationals
>>> r = Rationals()
>>> half = r.id(Fraction(1, 2))
>>> one = np.array([r.one])
>>> # turn start 0 wins with 1/2 and else hands the move to turn start 1, which loses for sure
>>> value, draw, rank = solve_chain(r, 2, Entries(np.array([0]), np.array([1]), np.array([half])),
...     Known(np.array([0, 1]), np.array([r.one, r.minus_one]), np.array([r.zero, r.zero]),
...           np.array([0, 0]), np.array([half, r.one])))
>>> r.value(value[0]), r.value(value[1]), rank.tolist()
(Fraction(1, 1), Fraction(-1, 1), [1, 1])
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt
from flint import fmpq_mat

from ...values import _components
from .exact import Ids, Rationals
from .expand import CHANCE
from .index import CELLS
from .layout import LEAF_OF, Layout
from .store import NO_RANK

Ranks = npt.NDArray[np.int64]


class Entries(NamedTuple):
    """Chain edges: turn start ``src`` hands the move to turn start ``dst`` with probability ``p`` (ids)."""

    src: Ids
    dst: Ids
    p: Ids


class Known(NamedTuple):
    """Known exits: turn start ``src`` reaches a value ``value`` (its draw ``draw``, its rank
    ``rank``) with probability ``p``, from the mover's side."""

    src: Ids
    value: Ids
    draw: Ids
    rank: Ranks
    p: Ids


def follow(
    layout: Layout,
    choice: list[npt.NDArray[np.int64]],
    root_choice: npt.NDArray[np.int64],
    arrays: tuple[Ids, Ids, Ranks],
    probs: list[Ids],
    rationals: Rationals,
) -> tuple[Entries, Known]:
    """Every turn start's turn under the strategies (``choice`` per dynamic pass, the place of
    the chosen edge per state and cell; ``root_choice`` per turn start), as chain edges and
    known exits. ``arrays``: the flat value, draw and rank ids; ``probs``: per pass, the
    probability ids of its edges."""
    r = rationals
    x, d, k = arrays
    count = layout.count
    passes = layout.dyn_passes
    lows = np.array([p.lo for p in passes], dtype=np.int64)
    chain: list[tuple[Ids, Ids, Ids]] = []
    known: list[tuple[Ids, Ids, Ids]] = []
    pending: list[list[tuple[Ids, Ids, Ids]]] = [[] for _ in passes]

    def deliver(src: Ids, t: Ids, p: Ids) -> None:
        leaf = t < count * CELLS
        chain.append((src[leaf], (t[leaf] // CELLS) * CELLS + LEAF_OF[t[leaf] % CELLS], p[leaf]))
        dyn = ~leaf & (t < layout.inside)
        known.append((src[~leaf & ~dyn], t[~leaf & ~dyn], p[~leaf & ~dyn]))
        if dyn.any():
            where = np.searchsorted(lows, t[dyn] // CELLS, side="right") - 1
            order = np.argsort(where, kind="stable")
            cuts = np.flatnonzero(np.diff(where[order])) + 1
            for part in np.split(order, cuts):
                pending[int(where[part[0]])].append((src[dyn][part], t[dyn][part], p[dyn][part]))

    starts = np.arange(count * CELLS, dtype=np.int64)
    target = layout.roots.tgt[root_choice.ravel(), starts // CELLS, starts % CELLS]
    deliver(starts, target, np.full(len(starts), r.one, dtype=np.int64))
    for i in reversed(range(len(passes))):
        if not pending[i]:
            continue
        src, t, p = (np.concatenate(part) for part in zip(*pending[i], strict=True))
        ps = passes[i]
        state, cell = t // CELLS - ps.lo, t % CELLS
        if ps.kind == CHANCE:
            many = len(ps.tgt)
            outcome = probs[i][:, state]  # (outcomes, arrivals)
            deliver(np.tile(src, many), ps.tgt[:, state, cell].ravel(), r.times(np.tile(p, many), outcome.ravel()))
        else:
            deliver(src, ps.tgt[choice[i][state, cell], state, cell], p)
    c_src, c_dst, c_p = (np.concatenate(part) for part in zip(*chain, strict=True))
    k_src, k_t, k_p = (np.concatenate(part) for part in zip(*known, strict=True))
    return Entries(c_src, c_dst, c_p), Known(k_src, x[k_t], d[k_t], k[k_t].astype(np.int64), k_p)


def solve_chain(rationals: Rationals, n: int, chain: Entries, known: Known) -> tuple[Ids, Ids, Ranks]:
    """Exact values, draw probabilities and ranks of ``n`` turn starts from their chain."""
    rank = _ranks(n, chain, known)
    labels = _components(n, chain.src, chain.dst)
    sizes = np.bincount(labels)
    cyclic = sizes > 1
    cyclic[labels[chain.src[chain.src == chain.dst]]] = True
    value = np.full(n, -1, dtype=np.int64)
    draw = np.full(n, -1, dtype=np.int64)
    by_c = _Grouped(chain.src, n)
    by_k = _Grouped(known.src, n)
    members = _Grouped(labels, len(sizes))
    cs, cd = labels[chain.src], labels[chain.dst]
    between = cs != cd
    waiting = np.bincount(cs[between], minlength=len(sizes))
    feeders = _Grouped(cd[between], len(sizes))
    feeder_of = cs[between]
    frontier = np.flatnonzero(waiting == 0)
    while len(frontier):
        single = frontier[~cyclic[frontier]]
        if len(single):
            nodes = members.order[members.start[single]]
            _substitute(rationals, nodes, chain, known, by_c, by_k, value, draw)
        for comp in frontier[cyclic[frontier]]:
            nodes = members.order[members.start[comp] : members.start[comp + 1]]
            _cycle(rationals, nodes, chain, known, by_c, by_k, value, draw)
        fed = feeder_of[feeders.members(frontier)]
        np.subtract.at(waiting, fed, 1)
        fed = np.unique(fed)
        frontier = fed[waiting[fed] == 0]
    if np.any(value < 0):  # pragma: no cover
        raise AssertionError("a component of the chain was left unsolved")
    return value, draw, rank


class _Grouped:
    """The indices of ``keys`` grouped by key (0 to ``n`` - 1): ``order[start[k]:start[k + 1]]``."""

    def __init__(self, keys: Ids, n: int) -> None:
        self.order = np.argsort(keys, kind="stable")
        self.start = np.searchsorted(keys[self.order], np.arange(n + 1))

    def members(self, which: Ids) -> Ids:
        lo, hi = self.start[which], self.start[which + 1]
        total = int((hi - lo).sum())
        if total == 0:
            return np.zeros(0, dtype=np.int64)
        offsets = np.repeat(lo - np.cumsum(np.concatenate(([0], (hi - lo)[:-1]))), hi - lo)
        out: Ids = self.order[offsets + np.arange(total)]
        return out


def _ranks(n: int, chain: Entries, known: Known) -> Ranks:
    """1 + the quickest way to the end, through chance outcomes of positive probability: the
    known exits' ranks, then breadth first back along the chain, one rank at a time."""
    rank = np.full(n, NO_RANK, dtype=np.int64)
    if len(known.src):
        np.minimum.at(rank, known.src, np.minimum(known.rank + 1, NO_RANK))
    into = _Grouped(chain.dst, n)
    done = np.zeros(n, dtype=bool)
    level = int(rank.min()) if n else NO_RANK
    while level < NO_RANK:
        frontier = np.flatnonzero((rank == level) & ~done)
        done[frontier] = True
        before = chain.src[into.members(frontier)]
        np.minimum.at(rank, before, level + 1)
        waiting = rank[~done]
        level = int(waiting.min()) if len(waiting) else NO_RANK
    return rank


def _substitute(
    r: Rationals, nodes: Ids, chain: Entries, known: Known, by_c: _Grouped, by_k: _Grouped, value: Ids, draw: Ids
) -> None:
    """Turn starts whose exits are all solved: V = sum p v - sum p V', D = sum p d + sum p D'."""
    ke, ce = by_k.members(nodes), by_c.members(nodes)
    owner = np.concatenate((known.src[ke], chain.src[ce]))
    p = np.concatenate((known.p[ke], chain.p[ce]))
    v = np.concatenate((known.value[ke], r.negated(value[chain.dst[ce]])))
    dd = np.concatenate((known.draw[ke], draw[chain.dst[ce]]))
    for out, terms in ((value, v), (draw, dd)):
        out[nodes] = _sums(r, nodes, owner, p, terms)


def _sums(r: Rationals, nodes: Ids, owner: Ids, p: Ids, v: Ids) -> Ids:
    """Per node: sum of p * v over its terms (``owner``), each distinct multiset of terms once."""
    code = (p << 32) | v
    place = _place(nodes, owner)
    order = np.lexsort((code, place))
    place, code = place[order], code[order]
    counts = np.bincount(place, minlength=len(nodes))
    width = int(counts.max()) if len(counts) else 0
    pad = (r.zero << 32) | r.zero
    grid = np.full((len(nodes), max(width, 1)), pad, dtype=np.int64)
    column = np.arange(len(owner)) - np.repeat(np.cumsum(counts) - counts, counts)
    grid[place, column] = code
    return r.sums(grid >> 32, grid & 0xFFFFFFFF)


def _place(nodes: Ids, owner: Ids) -> Ids:
    where = np.empty(int(nodes.max()) + 1, dtype=np.int64)
    where[nodes] = np.arange(len(nodes))
    out: Ids = where[owner]
    return out


def _cycle(
    r: Rationals, members: Ids, chain: Entries, known: Known, by_c: _Grouped, by_k: _Grouped, value: Ids, draw: Ids
) -> None:
    """One cyclic class of the chain: V = b - P V and D = b' + P D, exactly."""
    values = r.flint
    where = {int(m): i for i, m in enumerate(members)}
    size = len(members)
    av, ad = fmpq_mat(size, size), fmpq_mat(size, size)
    bv, bd = fmpq_mat(size, 1), fmpq_mat(size, 1)
    exits = False
    for i, m in enumerate(members.tolist()):
        av[i, i] += 1
        ad[i, i] += 1
        for e in by_c.order[by_c.start[m] : by_c.start[m + 1]].tolist():
            p = values[int(chain.p[e])]
            t = int(chain.dst[e])
            j = where.get(t)
            if j is None:
                exits = True
                bv[i, 0] -= p * values[int(value[t])]
                bd[i, 0] += p * values[int(draw[t])]
            else:
                av[i, j] += p
                ad[i, j] -= p
        for e in by_k.order[by_k.start[m] : by_k.start[m + 1]].tolist():
            exits = True
            p = values[int(known.p[e])]
            bv[i, 0] += p * values[int(known.value[e])]
            bd[i, 0] += p * values[int(known.draw[e])]
    if not exits:  # play stays here forever: a draw
        value[members] = r.zero
        draw[members] = r.one
        return
    xv, xd = av.solve(bv), ad.solve(bd)
    for i, m in enumerate(members):
        value[m] = r.id_of(xv[i, 0])
        draw[m] = r.id_of(xd[i, 0])
