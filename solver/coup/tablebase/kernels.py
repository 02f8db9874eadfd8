"""Compiled sweeps (numba) for value iteration and the attractor, when numba is installed.

The same sweeps as the whole-pass numpy code of :mod:`.generate` and :mod:`.attract` (passes
by height, then the turn starts), with a worklist: a cell is looked at again only when a cell
it reads changed (value iteration) or escaped (the attractor) since it was last looked at,
which gives the same results as looking at every cell. The passes are packed into flat
arrays once per family (:class:`Packed`). Nothing here is exact: value iteration is a search,
and the attractor's choices are checked by the exact certificate like the numpy ones.

``available()`` says whether numba can be used (``COUP_TABLEBASE_NUMBA=0`` turns it off);
importing numba and loading the compiled code costs about half a second, once per process.

>>> from solver.coup.cards import Variant
>>> from solver.coup.tablebase.expand import Expansion
>>> from solver.coup.tablebase.index import Family
>>> from solver.coup.tablebase.layout import Layout
>>> layout = Layout.of(Expansion(Variant.AMBASSADOR), Family(Variant.AMBASSADOR, (1, 0, 0, 1, 1), court=1),
...                    lambda states: None)
>>> if available():
...     packed = Packed.of(layout, [np.zeros(p.prob.shape) for p in layout.dyn_passes])
...     print(packed, int(packed.rstart[-1]) == int(np.sum(packed.tgt < layout.inside)))
... else:
...     print("<Packed 6 passes, 6 arrangements, 53,742 reads> True")
<Packed 6 passes, 6 arrangements, 53,742 reads> True
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

from .index import CELLS
from .layout import LEAF_OF, Layout

ROOT = 3
"""The kind of the turn starts' pass (a maximum over the moves available at each cell)."""
NEAR = 1e-9

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]


@cache
def compiled() -> ModuleType | None:
    """The compiled kernels, or None without numba (or with ``COUP_TABLEBASE_NUMBA=0``)."""
    if os.environ.get("COUP_TABLEBASE_NUMBA", "1") == "0":
        return None
    try:
        from . import _compiled
    except ImportError:
        return None
    return _compiled


SMALL = 1_000_000
"""Families with fewer reads than this use the numpy sweeps until numba is loaded anyway
(loading it costs more than it saves there)."""
_loaded = False


def available() -> bool:
    return compiled() is not None


def wanted(reads: int) -> bool:
    """Whether to use the compiled kernels for a family of ``reads`` reads."""
    global _loaded
    if not (_loaded or reads >= SMALL) or compiled() is None:
        return False
    _loaded = True
    return True


@dataclass(frozen=True, repr=False)
class Packed:
    """A family's dynamic passes and turn starts in flat arrays: pass ``p`` has ``n[p]`` states
    of ``k[p]`` edges from row ``lo[p]``, its reads at ``tgt[toff[p]:]`` (edges, states, 169),
    its weights at ``w[woff[p]:]`` (edges, states), its cells numbered from ``coff[p]``; the
    last pass is the turn starts (``avail``: where each move is offered). ``rstart``/``rlist``:
    per flat cell of the family's leaves and dynamic rows, the cells that read it."""

    kind: Ints
    lo: Ints
    n: Ints
    k: Ints
    toff: Ints
    woff: Ints
    coff: Ints
    tgt: Ints
    w: Floats
    avail: Bools
    inside: int
    count: int
    rstart: Ints
    rlist: Ints

    def __repr__(self) -> str:
        return f"<Packed {len(self.kind) - 1} passes, {self.count} arrangements, {len(self.tgt):,} reads>"

    @classmethod
    def of(cls, layout: Layout, weights: list[Floats]) -> Packed:
        passes = [*layout.dyn_passes, layout.roots]
        kind = np.array([p.kind for p in layout.dyn_passes] + [ROOT], dtype=np.int64)
        lo = np.array([p.lo for p in passes], dtype=np.int64)
        n = np.array([p.tgt.shape[1] for p in passes], dtype=np.int64)
        k = np.array([p.tgt.shape[0] for p in passes], dtype=np.int64)
        sizes = k * n * CELLS
        toff = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int64)
        woff = np.concatenate(([0], np.cumsum(k * n)[:-1])).astype(np.int64)
        coff = np.concatenate(([0], np.cumsum(n * CELLS))).astype(np.int64)
        tgt = np.concatenate([p.tgt.ravel() for p in passes])
        w = np.concatenate([*(x.ravel() for x in weights), np.zeros(k[-1] * n[-1])])
        avail = layout.available.ravel()
        kernels = compiled()
        assert kernels is not None
        rstart, rlist = kernels.readers(tgt, kind, n, k, toff, coff, layout.inside)
        return cls(kind, lo, n, k, toff, woff, coff, tgt, w, avail, layout.inside, layout.count, rstart, rlist)

    def args(self) -> tuple[Any, ...]:
        return (self.kind, self.lo, self.n, self.k, self.toff, self.woff, self.coff, self.tgt, self.w, self.avail)


def value_iteration(packed: Packed, f: Floats, value: Floats, tolerance: float, most: int) -> int:
    """Sweeps of value iteration in place (``f`` the flat floats, ``value`` the turn starts');
    returns how many, or -1 if they did not settle within ``most``."""
    kernels = compiled()
    assert kernels is not None
    return int(kernels.value_iteration(*packed.args(), packed.rstart, packed.rlist, LEAF_OF, f, value, tolerance, most))


def attract(
    packed: Packed, f: Floats, x: Ints | None, root: tuple[Floats, Ints | None]
) -> tuple[list[Ints], Ints, bool]:
    """The attractor's choices per dynamic pass and at the turn starts, and whether every
    turn start of nonzero value escapes. ``f``: flat floats (of ``x`` when exact); ``root``:
    the turn starts' values (floats, and ids when exact)."""
    kernels = compiled()
    assert kernels is not None
    exact = x is not None
    ids = x if x is not None else np.zeros(1, dtype=np.int64)
    root_ids = root[1] if root[1] is not None else np.zeros(1, dtype=np.int64)
    choice = np.zeros(int(packed.coff[-1]), dtype=np.int64)
    covered = kernels.attract(
        *packed.args(), packed.rstart, packed.rlist, LEAF_OF, packed.inside, f, ids, root[0], root_ids, exact, choice
    )
    parts = [choice[packed.coff[p] : packed.coff[p + 1]].reshape(-1, CELLS) for p in range(len(packed.kind))]
    return parts[:-1], parts[-1], bool(covered)


__all__ = ["NEAR", "ROOT", "Packed", "attract", "available", "compiled", "value_iteration", "wanted"]
