"""The Markov chain of the reported strategies between a family's turn starts, solved exactly.

Each turn start leads, under the strategies, to turn starts of the same family (the other player
to move: values change sign) and to values already known (smaller families, the end, states
whose value is fixed), each with an exact probability. Components of the chain are solved sinks
first: a singleton by substitution (one computation per distinct combination of inputs), a
cycle by one exact linear solve (python-flint); a class that play never leaves is a draw. Ranks
(turns to the end on the quickest line of positive probability) come from relaxing the same edges.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import numpy.typing as npt
from flint import fmpq, fmpq_mat

from ...values import _components
from .exact import Ids, Rationals
from .index import CELLS
from .store import NO_RANK


def solve_chain(
    rationals: Rationals,
    count: int,
    chain: list[tuple[Ids, Ids, Ids]],
    const: list[tuple[Ids, Ids, Ids, npt.NDArray[np.int64], Ids]],
) -> tuple[Ids, Ids, npt.NDArray[np.int64]]:
    r = rationals
    n = count * CELLS
    empty = np.zeros(0, dtype=np.int64)
    c_src = np.concatenate([c[0] for c in chain]) if chain else empty
    c_dst = np.concatenate([c[1] for c in chain]) if chain else empty
    c_p = np.concatenate([c[2] for c in chain]) if chain else empty
    k_src = np.concatenate([c[0] for c in const]) if const else empty
    k_val = np.concatenate([c[1] for c in const]) if const else empty
    k_draw = np.concatenate([c[2] for c in const]) if const else empty
    k_rank = np.concatenate([c[3] for c in const]) if const else empty
    k_p = np.concatenate([c[4] for c in const]) if const else empty
    # ranks: 1 + the quickest way to the end, through chance outcomes of positive probability
    rank = np.full(n, NO_RANK, dtype=np.int64)
    if len(k_src):
        np.minimum.at(rank, k_src, np.minimum(k_rank + 1, NO_RANK))
    while len(c_src):
        step = rank.copy()
        np.minimum.at(step, c_src, np.minimum(rank[c_dst] + 1, NO_RANK))
        if np.array_equal(step, rank):
            break
        rank = step
    # exact values and draws: components sinks first
    labels = _components(n, c_src, c_dst)
    order = np.argsort(labels, kind="stable")
    bounds = np.flatnonzero(np.diff(labels[order])) + 1
    by_c = np.argsort(c_src, kind="stable")
    c_start = np.searchsorted(c_src[by_c], np.arange(n + 1))
    by_k = np.argsort(k_src, kind="stable")
    k_start = np.searchsorted(k_src[by_k], np.arange(n + 1))
    value = np.full(n, -1, dtype=np.int64)
    draw = np.full(n, -1, dtype=np.int64)
    values = r.values
    memo: dict[tuple[object, ...], tuple[int, int]] = {}
    for members in np.split(order, bounds):
        if len(members) == 1:
            s = int(members[0])
            ce = by_c[c_start[s] : c_start[s + 1]]
            if not np.any(c_dst[ce] == s):
                ke = by_k[k_start[s] : k_start[s + 1]]
                key = (
                    tuple(zip(k_p[ke].tolist(), k_val[ke].tolist(), k_draw[ke].tolist(), strict=True)),
                    tuple(zip(c_p[ce].tolist(), value[c_dst[ce]].tolist(), draw[c_dst[ce]].tolist(), strict=True)),
                )
                found = memo.get(key)
                if found is None:
                    v = sum((values[p] * values[x] for p, x, _ in key[0]), Fraction(0)) - sum(
                        (values[p] * values[x] for p, x, _ in key[1]), Fraction(0)
                    )
                    d = sum((values[p] * values[x] for p, _, x in key[0]), Fraction(0)) + sum(
                        (values[p] * values[x] for p, _, x in key[1]), Fraction(0)
                    )
                    found = memo[key] = (r.id(v), r.id(d))
                value[s], draw[s] = found
                continue
        _cycle(r, members, by_c, c_start, c_dst, c_p, by_k, k_start, k_val, k_draw, k_p, value, draw)
    return value, draw, rank


def _cycle(
    rationals: Rationals,
    members: Ids,
    by_c: Ids,
    c_start: Ids,
    c_dst: Ids,
    c_p: Ids,
    by_k: Ids,
    k_start: Ids,
    k_val: Ids,
    k_draw: Ids,
    k_p: Ids,
    value: Ids,
    draw: Ids,
) -> None:
    """One cyclic class of the chain: V = b - P V and D = b' + P D, exactly."""
    r = rationals
    values = r.values
    where = {int(m): i for i, m in enumerate(members)}
    size = len(members)
    av, ad = fmpq_mat(size, size), fmpq_mat(size, size)
    bv, bd = fmpq_mat(size, 1), fmpq_mat(size, 1)
    exits = False
    for i, m in enumerate(members):
        s = int(m)
        av[i, i] += 1
        ad[i, i] += 1
        for e in by_c[c_start[s] : c_start[s + 1]]:
            p = _q(values[int(c_p[e])])
            t = int(c_dst[e])
            j = where.get(t)
            if j is None:
                exits = True
                bv[i, 0] -= p * _q(values[int(value[t])])
                bd[i, 0] += p * _q(values[int(draw[t])])
            else:
                av[i, j] += p
                ad[i, j] -= p
        for e in by_k[k_start[s] : k_start[s + 1]]:
            exits = True
            p = _q(values[int(k_p[e])])
            bv[i, 0] += p * _q(values[int(k_val[e])])
            bd[i, 0] += p * _q(values[int(k_draw[e])])
    if not exits:  # play stays here forever: a draw
        value[members] = r.zero
        draw[members] = r.one
        return
    xv, xd = av.solve(bv), ad.solve(bd)
    for i, m in enumerate(members):
        value[m] = r.id(_fraction(xv[i, 0]))
        draw[m] = r.id(_fraction(xd[i, 0]))


def _q(value: Fraction) -> fmpq:
    return fmpq(value.numerator, value.denominator)


def _fraction(q: fmpq) -> Fraction:
    return Fraction(int(q.p), int(q.q))
