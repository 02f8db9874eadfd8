"""Exact values as small integers: every distinct rational met is interned once.

A family's values are arrays of *ids* into a :class:`Rationals` table. Equal ids are equal
rationals (each is interned once), so the certificate's equalities are integer comparisons; order
comes from the floats, which are correctly rounded (hence monotone), with exact comparison only
where two different rationals round to the same float. New rationals are made only at chance
nodes and in the Markov chain's equations, once per distinct combination of inputs.

>>> r = Rationals()
>>> half = r.id(Fraction(1, 2))
>>> r.value(r.negated(np.array([half]))[0]), r.id(Fraction(2, 4)) == half
(Fraction(-1, 2), True)
>>> means = r.mean(np.array([[r.one, r.minus_one], [r.one, r.one]]), [Fraction(1, 4), Fraction(3, 4)])
>>> r.value(means[0]), r.value(means[1])
(Fraction(1, 1), Fraction(1, 2))
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

Ids = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]


class Rationals:
    """The distinct exact values of a build, each with its id, its float and its negation."""

    def __init__(self) -> None:
        self.values: list[Fraction] = []
        self._floats = np.zeros(1024)
        self._negated = np.zeros(1024, dtype=np.int64)
        self._index: dict[Fraction, int] = {}
        self.zero = self.id(Fraction(0))
        self.one = self.id(Fraction(1))
        self.minus_one = self.id(Fraction(-1))

    def __repr__(self) -> str:
        return f"<Rationals {len(self.values):,} values>"

    def __len__(self) -> int:
        return len(self.values)

    def id(self, q: Fraction) -> int:
        """The id of ``q`` (interned, with its negation, on first sight)."""
        found = self._index.get(q)
        if found is not None:
            return found
        for value in (q, -q) if q else (q,):
            n = len(self.values)
            if n == len(self._floats):
                self._floats = np.concatenate((self._floats, np.zeros(n)))
                self._negated = np.concatenate((self._negated, np.zeros(n, dtype=np.int64)))
            self._index[value] = n
            self.values.append(value)
            self._floats[n] = float(value)
        qi, ni = self._index[q], self._index[-q]
        self._negated[qi], self._negated[ni] = ni, qi
        return qi

    def value(self, i: int) -> Fraction:
        return self.values[int(i)]

    def floats(self, ids: npt.NDArray[np.integer[Any]]) -> Floats:
        """The floats of ``ids`` (any shape)."""
        out: Floats = self._floats[ids]
        return out

    def negated(self, ids: npt.NDArray[np.integer[Any]]) -> Ids:
        out: Ids = self._negated[ids]
        return out

    def best(self, ids: Ids, lowest: bool) -> tuple[Ids, Ids]:
        """Per column of ``ids`` (axis 0: the options): the id of the largest (``lowest``: the
        smallest) value, exactly, and the first row holding it."""
        f = self.floats(ids)
        row = np.argmin(f, axis=0) if lowest else np.argmax(f, axis=0)
        chosen = np.take_along_axis(ids, row[None], axis=0)[0]
        top = np.take_along_axis(f, row[None], axis=0)[0]
        tied = np.flatnonzero(np.any((f == top[None]) & (ids != chosen[None]), axis=0))
        for col in tied:  # two different rationals with the same float: compare them exactly
            options = [(self.values[int(i)], r) for r, i in enumerate(ids[:, col])]
            pick = min(options, key=lambda o: (o[0], o[1])) if lowest else max(options, key=lambda o: (o[0], -o[1]))
            row[col] = pick[1]
            chosen[col] = ids[pick[1], col]
        first = np.argmax(ids == chosen[None], axis=0)
        return chosen, first

    def mean(self, ids: Ids, probabilities: Sequence[Fraction]) -> Ids:
        """Per column of ``ids`` (axis 0: the outcomes): the id of sum(p * value), computed
        once per distinct column."""
        same = np.all(ids == ids[:1], axis=0)
        out = ids[0].copy()
        rest = np.flatnonzero(~same)
        if len(rest):
            columns, inverse = np.unique(ids[:, rest], axis=1, return_inverse=True)
            made = np.array(
                [
                    self.id(
                        sum((p * self.values[int(i)] for p, i in zip(probabilities, col, strict=True)), Fraction(0))
                    )
                    for col in columns.T
                ],
                dtype=np.int64,
            )
            out[rest] = made[inverse.ravel()]
        result: Ids = out
        return result

    def times(self, ids: Ids, p: Fraction) -> Ids:
        """The ids of ``p * value`` for each of ``ids``."""
        if p == 1:
            return ids.copy()
        distinct, inverse = np.unique(ids, return_inverse=True)
        made = np.array([self.id(p * self.values[int(i)]) for i in distinct], dtype=np.int64)
        out: Ids = made[inverse.ravel()]
        return out
