"""Strategies from values: best moves, and for the side whose value is positive, the best move
that leaves soonest.

The *attractor* is part (3) of the certificate and the progress of the winning side: the
positions from which that side, playing best moves, forces play out of the family (or to a
position of another sign, or to the end) with positive probability, whatever the other side
does. It is a least fixed point, computed in sweeps of whole passes: every inner state by
height (a chance node escapes if an outcome does; the positive side's decision if one of its
best moves does, and that move is then its choice; the other side's if every move does), then
every turn start, until the turn starts settle. Sweep ``k`` finds the positions that escape in
``k`` turns; each escaping choice is the first best move (engine order) that escapes in the
sweep its position first does.

>>> from solver.coup.cards import Variant
>>> from solver.coup.tablebase.generate import Generator
>>> from solver.coup.tablebase.index import Family
>>> solved = Generator(Variant.AMBASSADOR).solve(Family(Variant.AMBASSADOR, (1, 0, 0, 1, 1), court=1))
>>> solved.rounds
1
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .exact import Bools, Floats, Ids, Rationals, first_true
from .expand import CHANCE, MOVER
from .index import CELLS
from .layout import LEAF_OF, Layout, Pass

NEAR = 1e-9
"""Floats this close are the same value while searching (the exact round decides)."""
NONE = 255

Places = npt.NDArray[np.int64]
Signs = npt.NDArray[np.int8]


@dataclass(repr=False)
class Choice:
    """Per dynamic pass and per turn start, the place of the chosen edge at every state and
    coin cell; whether every turn start of nonzero value escapes (``covered``); and what the
    choice was made from (best moves, staying edges, signs), to reuse it when they recur."""

    inner: list[Places]
    root: Places
    covered: bool
    seen: list[tuple[Bools, Bools, Signs]]

    def __repr__(self) -> str:
        return f"<Choice {len(self.inner)} passes, {self.root.size:,} turn starts, covered={self.covered}>"

    def same(self, other: Choice) -> bool:
        """The same choices everywhere."""
        return np.array_equal(self.root, other.root) and all(
            np.array_equal(a, b) for a, b in zip(self.inner, other.inner, strict=True)
        )


def _signs(values: Floats, exact: bool) -> Signs:
    """-1, 0 or 1 per value (searching: 0 within :data:`NEAR` of 0), one byte each."""
    near = 0.0 if exact else NEAR
    out: Signs = (values > near).view(np.int8) - (values < -near).view(np.int8)
    return out


def _first(mask: Bools) -> Places:
    """Per state and cell: the place of the first edge where ``mask`` holds (NONE if none)."""
    out: Places = np.where(mask.any(axis=0), np.argmax(mask, axis=0), NONE)
    return out


def _look(
    p: Pass,
    inside: int,
    f: Floats | None,
    exact: tuple[Ids, Ids] | None,
    r: Rationals,
    here_f: Floats,
    scratch: Floats | None = None,
) -> tuple[Bools, Bools, Signs]:
    """Best moves, edges that stay (inside the family, the same sign) and signs of one pass,
    from the floats ``f`` or, when given, the ``exact`` ids (of the layout, and here); the
    values read held in ``scratch`` when given (at least the pass's size)."""
    sign = _signs(here_f, exact is not None)
    shape = p.tgt.shape
    if exact is not None:
        x, here_x = exact
        into = None if scratch is None else scratch.view(np.int64)[: p.tgt.size].reshape(shape)
        seen_x = np.take(x, p.tgt, out=into, mode="clip")
        best = seen_x == here_x[None]
        same = r.signs(seen_x) == sign[None]  # exact: the signs of the floats, as _signs gives them
    elif f is not None:
        seen = np.take(f, p.tgt, out=None if scratch is None else scratch[: p.tgt.size].reshape(shape), mode="clip")
        same = _signs(seen, False) == sign[None]
        gap = np.subtract(seen, here_f[None], out=seen)
        best = np.abs(gap, out=gap) <= NEAR
    else:
        raise ValueError("a pass is looked at from the floats or the exact ids")
    if p.kind == CHANCE:
        best = np.zeros(best.shape, dtype=bool)
    stay = (p.tgt < inside) & same
    return best, stay, sign


def choose(
    layout: Layout,
    f: Floats | None,
    x: Ids | None,
    r: Rationals,
    root: tuple[Floats, Ids | None],
    previous: Choice | None = None,
    scratch: Floats | None = None,
) -> Choice:
    """The strategies under the values ``f`` (floats: a search) or, when given, the exact ids
    ``x`` (flat arrays of the layout; ``f`` unused, may be None), the turn starts' values being
    ``root`` (floats, ids: the best of their first moves). ``previous`` is reused if it was
    made from the same best moves, staying edges and signs; ``scratch`` (at least the size of
    every pass) holds what a pass reads meanwhile. Raises ValueError without either."""
    lay = layout
    seen = []
    for p in lay.dyn_passes:
        if x is not None:
            here_x = x[p.cells].reshape(-1, CELLS)
            here_f, here = r.floats(here_x), (x, here_x)
        elif f is not None:
            here_f, here = f[p.cells].reshape(-1, CELLS), None
        else:
            raise ValueError("choose needs the floats or the exact ids")
        seen.append(_look(p, lay.inside, f, here, r, here_f, scratch))
    if (x is None) != (root[1] is None):
        raise ValueError("the turn starts' exact ids go with the exact ids of the layout")
    exact = None if x is None or root[1] is None else (x, root[1].reshape(-1, CELLS))
    best, stay, sign = _look(lay.roots, lay.inside, f, exact, r, root[0].reshape(-1, CELLS))
    seen.append((best & lay.available, stay & lay.available, sign))
    if previous is not None and all(
        all(np.array_equal(a, b) for a, b in zip(old, new, strict=True))
        for old, new in zip(previous.seen, seen, strict=True)
    ):
        return previous
    return _attract(lay, seen)


def _attract(lay: Layout, seen: list[tuple[Bools, Bools, Signs]]) -> Choice:
    """The attractor's sweeps (see the module docstring), with the choices they fix. A cell
    that escapes stays so: each sweep looks only at the cells still open."""
    passes = [*lay.dyn_passes, lay.roots]
    roots = len(passes) - 1
    esc = np.zeros(lay.rows * CELLS, dtype=bool)
    steps = [_Open(p, i == roots, lay, *look, esc) for i, (p, look) in enumerate(zip(passes, seen, strict=True))]
    while True:
        moved = [step.sweep(esc) for step in steps]
        if not moved[-1] or not len(steps[-1].open):
            return Choice([step.choice for step in steps[:-1]], steps[-1].choice, not len(steps[-1].open), seen)


class _Open:
    """One pass in the attractor: its cells still open, what they read, the choices fixed so far."""

    def __init__(self, p: Pass, root: bool, lay: Layout, best: Bools, stay: Bools, sign: Signs, esc: Bools) -> None:
        k = len(p.tgt)
        self.kind = p.kind
        self.tgt, self.leave, self.best = p.tgt.reshape(k, -1), ~stay.reshape(k, -1), best.reshape(k, -1)
        self.choice = first_true(best)  # no best move (an exact round after a failure): the first
        # its cells in ``esc``: the turn starts' leaf cells (coins swapped), else its own rows
        self.where: Places | slice = (
            (np.arange(lay.count)[:, None] * CELLS + LEAF_OF[None, :]).ravel() if root else p.cells
        )
        flat = sign.ravel()
        self.fixed = flat > 0 if root or p.kind == MOVER else flat < 0
        self._escape(esc, flat == 0)
        self.open = np.flatnonzero(flat != 0)

    def _escape(self, esc: Bools, which: Places | Bools) -> None:
        """Mark the cells ``which`` (of this pass's) as escaping."""
        if isinstance(self.where, slice):
            esc[self.where][which] = True  # a view of esc
        else:
            esc[self.where[which]] = True

    def sweep(self, esc: Bools) -> bool:
        """Look at the open cells once; returns whether any escaped."""
        cells = self.open
        if not len(cells):
            return False
        whole = 2 * len(cells) > self.tgt.shape[1]
        if whole:
            out = self.leave | np.take(esc, self.tgt)
            best, fixed = self.best, self.fixed
        else:
            out = np.take(self.leave, cells, axis=1) | esc[np.take(self.tgt, cells, axis=1)]
            best, fixed = np.take(self.best, cells, axis=1), self.fixed[cells]
        if self.kind == CHANCE:
            now = out.any(axis=0)
        else:
            good = best & out
            now = np.where(fixed, good.any(axis=0), out.all(axis=0))
            new = fixed & now
            if whole:
                new &= ~esc[self.where]
            if len(good) > 1 and new.any():  # (one edge: its choice is already 0)
                place = cells[new] if not whole else new
                self.choice.ravel()[place] = first_true(good)[new]
        if whole:
            now &= ~esc[self.where]
            self._escape(esc, now)
            self.open = np.flatnonzero(~esc[self.where])
            return bool(now.any())
        self._escape(esc, cells[now])
        self.open = cells[~now]
        return bool(now.any())
