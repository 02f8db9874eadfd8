"""The numba kernels of :mod:`.kernels` (imported only when numba is installed).

Arrays as in :class:`~.kernels.Packed`. A read of pass ``p``, edge ``j``, cell ``q`` (state
``q // 169``) is ``tgt[toff[p] + j * n[p] * 169 + q]``; the cell's number is ``coff[p] + q``.
The turn starts (the last pass) are looked at all from the same leaves, then written, as the
numpy sweeps do.

>>> import numpy as np
>>> tgt = np.zeros(169, dtype=np.int64)  # one pass of one state of one edge, every cell reading cell 0
>>> start, cells = readers(tgt, np.array([3]), np.array([1]), np.array([1]), np.array([0]), np.array([0, 169]), 2)
>>> start.tolist(), len(cells)
([0, 169, 169], 169)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np

CELLS = 169
MOVER, OTHER, CHANCE, ROOT = 0, 1, 2, 3
NEAR = 1e-9
SETTLED = 1e-15
"""A change this small is not passed on (the sweeps only search; the exact rounds decide)."""

F = TypeVar("F", bound=Callable[..., Any])
_jit = cast(Callable[[F], F], numba.njit(cache=True, nogil=True))
"""Compiled once, cached beside the module (later processes load it)."""


@_jit
def readers(tgt: Any, kind: Any, n: Any, k: Any, toff: Any, coff: Any, inside: int) -> Any:
    """Per flat cell below ``inside``, the cells that read it (a counting sort)."""
    start = np.zeros(inside + 1, dtype=np.int64)
    for p in range(len(kind)):
        m = n[p] * CELLS
        for j in range(k[p]):
            base = toff[p] + j * m
            for q in range(m):
                t = tgt[base + q]
                if t < inside:
                    start[t + 1] += 1
    for t in range(inside):
        start[t + 1] += start[t]
    fill = start[:-1].copy()
    out = np.empty(start[inside], dtype=np.int64)
    for p in range(len(kind)):
        m = n[p] * CELLS
        for j in range(k[p]):
            base = toff[p] + j * m
            for q in range(m):
                t = tgt[base + q]
                if t < inside:
                    out[fill[t]] = coff[p] + q
                    fill[t] += 1
    return start, out


@_jit
def _queues(kind: Any, n: Any, coff: Any) -> Any:
    """Every cell queued (the first sweep), and each cell's pass."""
    queue = np.arange(coff[-1])
    count = n * CELLS
    owner = np.empty(coff[-1], dtype=np.int64)
    for p in range(len(kind)):
        owner[coff[p] : coff[p + 1]] = p
    return queue, count.copy(), owner


@_jit
def value_iteration(
    kind: Any, lo: Any, n: Any, k: Any, toff: Any, woff: Any, coff: Any, tgt: Any, w: Any, avail: Any,
    rstart: Any, rlist: Any, leaf_of: Any, f: Any, value: Any, tolerance: float, most: int,
) -> int:  # fmt: skip
    """Sweeps until the turn starts change by at most ``tolerance``; each pass looks at its
    queued cells only (queued when a cell they read changed). Returns the sweeps, -1 if more
    than ``most``."""
    roots = len(kind) - 1
    dirty = np.ones(coff[-1], dtype=np.bool_)
    queue, queued, owner = _queues(kind, n, coff)
    m_root = n[roots] * CELLS
    changed = np.zeros(m_root, dtype=np.bool_)
    done = np.zeros(m_root, dtype=np.int64)
    for sweep in range(1, most + 1):
        for p in range(roots):
            m = n[p] * CELLS
            for at in range(coff[p], coff[p] + queued[p]):
                g = queue[at]
                dirty[g] = False
                q = g - coff[p]
                i = q // CELLS
                if kind[p] == CHANCE:
                    acc = 0.0
                    for j in range(k[p]):
                        acc += w[woff[p] + j * n[p] + i] * f[tgt[toff[p] + j * m + q]]
                elif kind[p] == OTHER:
                    acc = np.inf
                    for j in range(k[p]):
                        acc = min(acc, f[tgt[toff[p] + j * m + q]])
                else:
                    acc = -np.inf
                    for j in range(k[p]):
                        acc = max(acc, f[tgt[toff[p] + j * m + q]])
                cell = lo[p] * CELLS + q
                if abs(acc - f[cell]) > SETTLED:
                    f[cell] = acc
                    for r in range(rstart[cell], rstart[cell + 1]):
                        reader = rlist[r]
                        if not dirty[reader]:
                            dirty[reader] = True
                            o = owner[reader]
                            queue[coff[o] + queued[o]] = reader
                            queued[o] += 1
            queued[p] = 0
        change = 0.0
        looked = queued[roots]
        for at in range(looked):
            g = queue[coff[roots] + at]
            dirty[g] = False
            q = g - coff[roots]
            done[at] = q
            best = -np.inf
            for j in range(k[roots]):
                if avail[j * m_root + q]:
                    best = max(best, f[tgt[toff[roots] + j * m_root + q]])
            change = max(change, abs(best - value[q]))
            if best != value[q]:
                value[q] = best
                changed[q] = True
        queued[roots] = 0  # the turn starts are written once all are looked at, as in the numpy sweeps
        for at in range(looked):
            q = done[at]
            if changed[q]:
                changed[q] = False
                leaf = (q // CELLS) * CELLS + leaf_of[q % CELLS]
                f[leaf] = -value[q]
                for r in range(rstart[leaf], rstart[leaf + 1]):
                    reader = rlist[r]
                    if not dirty[reader]:
                        dirty[reader] = True
                        o = owner[reader]
                        queue[coff[o] + queued[o]] = reader
                        queued[o] += 1
        if change <= tolerance:
            return sweep
    return -1


@_jit
def attract(
    kind: Any, lo: Any, n: Any, k: Any, toff: Any, woff: Any, coff: Any, tgt: Any, w: Any, avail: Any,
    rstart: Any, rlist: Any, leaf_of: Any, inside: int, f: Any, x: Any, root_f: Any, root_x: Any, exact: bool,
    choice: Any,
) -> bool:  # fmt: skip
    """The attractor (see :mod:`.attract`): ``choice`` per cell (numbered as in ``Packed``);
    returns whether every turn start of nonzero value escapes. Helpers taking arrays are
    written out in the loops (a call passing arrays costs more than the loop body)."""
    roots = len(kind) - 1
    esc = np.zeros(inside, dtype=np.bool_)
    dirty = np.ones(coff[-1], dtype=np.bool_)
    closed = np.zeros(coff[-1], dtype=np.bool_)
    sign = np.zeros(coff[-1], dtype=np.int64)
    here = np.zeros(coff[-1])
    here_id = np.zeros(coff[-1] if exact else 1, dtype=np.int64)
    place = np.zeros(coff[-1], dtype=np.int64)  # each cell's flat index among the escape flags
    m_root = n[roots] * CELLS
    lim = 0.0 if exact else NEAR  # floats this close to 0 count as 0 while searching
    for p in range(roots + 1):  # values, signs, sign-0 cells escaped, first best moves
        m = n[p] * CELLS
        for q in range(m):
            g = coff[p] + q
            if p == roots:
                cell = (q // CELLS) * CELLS + leaf_of[q % CELLS]
                v = root_f[q]
                if exact:
                    here_id[g] = root_x[q]
            else:
                cell = lo[p] * CELLS + q
                v = f[cell]
                if exact:
                    here_id[g] = x[cell]
            place[g], here[g] = cell, v
            sign[g] = 1 if v > lim else (-1 if v < -lim else 0)
            if sign[g] == 0:
                closed[g] = True
                esc[cell] = True
            choice[g] = 0
            if kind[p] != CHANCE:
                for j in range(k[p]):
                    if p == roots and not avail[j * m + q]:
                        continue
                    t = tgt[toff[p] + j * m + q]
                    if (x[t] == here_id[g]) if exact else (abs(f[t] - v) <= NEAR):
                        choice[g] = j
                        break
    late = np.zeros(m_root, dtype=np.bool_)
    while True:
        moved = False
        for p in range(roots + 1):
            m = n[p] * CELLS
            chance = kind[p] == CHANCE
            for q in range(m):
                g = coff[p] + q
                if closed[g] or not dirty[g]:
                    continue
                dirty[g] = False
                s = sign[g]
                fixed = s > 0 if (p == roots or kind[p] == MOVER) else s < 0
                found = -1
                every = True
                for j in range(k[p]):
                    if p == roots and not avail[j * m + q]:
                        continue
                    t = tgt[toff[p] + j * m + q]
                    stay = False
                    if t < inside:
                        ft = f[t]
                        stay = (1 if ft > lim else (-1 if ft < -lim else 0)) == s
                    out = (not stay) or esc[t]
                    if chance:
                        if out:
                            found = j
                            break
                    elif fixed:
                        if out and ((x[t] == here_id[g]) if exact else (abs(f[t] - here[g]) <= NEAR)):
                            found = j
                            break
                    elif not out:
                        every = False
                        break
                if not (found >= 0 if (chance or fixed) else every):
                    continue
                closed[g] = True
                if fixed and not chance:
                    choice[g] = found
                if p == roots:
                    late[q] = True
                    moved = True
                else:
                    cell = place[g]
                    esc[cell] = True
                    for r in range(rstart[cell], rstart[cell + 1]):
                        dirty[rlist[r]] = True
        for q in range(m_root):
            if late[q]:
                late[q] = False
                leaf = place[coff[roots] + q]
                esc[leaf] = True
                for r in range(rstart[leaf], rstart[leaf + 1]):
                    dirty[rlist[r]] = True
        if not moved:
            break
    return bool(np.all(closed[coff[roots] :]))
