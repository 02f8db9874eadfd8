"""Exact values as small integers: every distinct rational met is interned once.

A family's values are arrays of *ids* into a :class:`Rationals` table. Equal ids are equal
rationals (each is interned once), so the certificate's equalities are integer comparisons; order
comes from the floats, which are correctly rounded (hence monotone), with exact comparison only
where two different rationals round to the same float. New rationals are made only at chance
nodes and in the Markov chain's equations: whole arrays of sums at once, each distinct sum
computed once (rows are grouped by a hash, then compared exactly) and remembered.

>>> r = Rationals()
>>> half = r.id(Fraction(1, 2))
>>> r.value(r.negated(np.array([half]))[0]), r.id(Fraction(2, 4)) == half
(Fraction(-1, 2), True)
>>> quarter, three = r.id(Fraction(1, 4)), r.id(Fraction(3, 4))
>>> p = np.array([[quarter, three], [quarter, three]])
>>> sums = r.sums(p, np.array([[r.one, r.minus_one], [r.one, r.one]]))
>>> r.value(sums[0]), r.value(sums[1])
(Fraction(-1, 2), Fraction(1, 1))
>>> top, first = r.best(np.array([[r.one, half], [half, r.one]]), lowest=False)
>>> r.value(top[0]), int(first[1])
(Fraction(1, 1), 1)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
from flint import fmpq

Ids = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]

_MIX = np.array([0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9], dtype=np.uint64)


class Rationals:
    """The distinct exact values of a build, each with its id, its float and its negation."""

    def __init__(self) -> None:
        self.values: list[Fraction] = []
        self.flint: list[fmpq] = []  # the same values as python-flint rationals (fast arithmetic)
        self._floats = np.zeros(1024)
        self._signs = np.zeros(1024, dtype=np.int8)  # of the floats: -1, 0, 1
        self._negated = np.zeros(1024, dtype=np.int64)
        self._index: dict[tuple[int, int], int] = {}  # (numerator, denominator) -> id
        self._sums: dict[bytes, int] = {}
        self._products: dict[int, int] = {}
        self.zero = self.id(Fraction(0))
        self.one = self.id(Fraction(1))
        self.minus_one = self.id(Fraction(-1))

    def __repr__(self) -> str:
        return f"<Rationals {len(self.values):,} values>"

    def __len__(self) -> int:
        return len(self.values)

    def id(self, q: Fraction) -> int:
        """The id of ``q`` (interned, with its negation, on first sight)."""
        found = self._index.get((q.numerator, q.denominator))
        return self._add(q) if found is None else found

    def id_of(self, q: fmpq) -> int:
        """The id of a python-flint rational."""
        key = (int(q.p), int(q.q))
        found = self._index.get(key)
        return self._add(Fraction(*key)) if found is None else found

    def _add(self, q: Fraction) -> int:
        """Intern ``q`` and its negation (values are found by numerator and denominator: a
        pair of integers hashes at once, a Fraction each time in Python)."""
        for value in (q, -q) if q else (q,):
            n = len(self.values)
            if n == len(self._floats):
                self._floats = np.concatenate((self._floats, np.zeros(n)))
                self._signs = np.concatenate((self._signs, np.zeros(n, dtype=np.int8)))
                self._negated = np.concatenate((self._negated, np.zeros(n, dtype=np.int64)))
            self._index[value.numerator, value.denominator] = n
            self.values.append(value)
            self.flint.append(fmpq(value.numerator, value.denominator))
            self._floats[n] = f = float(value)
            self._signs[n] = (f > 0) - (f < 0)
        qi = self._index[q.numerator, q.denominator]
        ni = self._index[-q.numerator, q.denominator]
        self._negated[qi], self._negated[ni] = ni, qi
        return qi

    def value(self, i: int) -> Fraction:
        return self.values[int(i)]

    def floats(self, ids: npt.NDArray[np.integer[Any]], out: Floats | None = None) -> Floats:
        """The floats of ``ids`` (any shape; into ``out`` when given)."""
        if out is not None:
            return np.take(self._floats, ids, out=out, mode="clip")  # (with out, "raise" buffers)
        found: Floats = self._floats[ids]
        return found

    def signs(self, ids: npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.int8]:
        """The signs (-1, 0, 1) of the floats of ``ids``, one byte each (a gather of bytes, not
        of floats compared after).

        >>> r = Rationals()
        >>> r.signs(np.array([r.one, r.zero, r.minus_one, r.id(Fraction(-1, 7))])).tolist()
        [1, 0, -1, -1]
        """
        out: npt.NDArray[np.int8] = np.take(self._signs, ids)
        return out

    def negated(self, ids: npt.NDArray[np.integer[Any]]) -> Ids:
        out: Ids = self._negated[ids]
        return out

    def best(
        self, ids: Ids, lowest: bool, available: Bools | None = None, scratch: Floats | None = None
    ) -> tuple[Ids, Ids]:
        """Along the first axis of ``ids`` (the options; any shape after it): the id of the
        largest (``lowest``: smallest) value, exactly, and the first option holding it.
        ``available`` leaves options out (each place keeps one); ``scratch``, at least as
        large as ``ids``, holds their floats meanwhile."""
        chosen, first, _ = self.best_at(ids, lowest, available, scratch)
        return chosen, first

    def best_at(
        self, ids: Ids, lowest: bool, available: Bools | None = None, scratch: Floats | None = None
    ) -> tuple[Ids, Ids, Bools]:
        """:meth:`best`, and where the options hold the best value (``ids == chosen``). Two
        values with the same float are told apart exactly:

        >>> r = Rationals()
        >>> third, above = r.id(Fraction(1, 3)), r.id(Fraction(1, 3) + Fraction(1, 10**30))
        >>> chosen, first, at = r.best_at(np.array([[third], [above], [third]]), lowest=False)
        >>> r.value(chosen[0]) > Fraction(1, 3), int(first[0]), at[:, 0].tolist()
        (True, 1, [False, True, False])
        >>> chosen, first, at = r.best_at(np.array([[third], [above], [third]]), lowest=True)
        >>> int(first[0]), at[:, 0].tolist()
        (0, [True, False, True])
        """
        f = self.floats(ids, None if scratch is None else scratch[: ids.size].reshape(ids.shape))
        if available is not None:
            f = np.where(available, f, np.inf if lowest else -np.inf)
        top = f.min(axis=0) if lowest else f.max(axis=0)
        is_top = f == top[None]
        first = first_true(is_top)
        chosen = pick(ids, first)
        at = ids == chosen[None]
        tied = np.any(is_top & ~at, axis=0)
        if tied.any():  # two different rationals with the same float: compare them exactly
            for where in zip(*np.nonzero(tied), strict=True):
                column = (slice(None), *where)
                options = [(self.values[int(i)], j) for j, i in enumerate(ids[column]) if is_top[column][j]]
                option = min(options) if lowest else max(options, key=lambda o: (o[0], -o[1]))
                chosen[where] = self.id(option[0])
                first[where] = option[1]
            at = ids == chosen[None]
        return chosen, first, at

    def sums(self, p: Ids, v: Ids) -> Ids:
        """Per row: the id of sum(p[k] * v[k]) over the row (``p``, ``v``: ids of the same shape;
        a term with p = 0 adds nothing). Each distinct row is computed once (and remembered)."""
        if len(p) == 0:
            return np.zeros(0, dtype=np.int64)
        codes = (p.astype(np.uint64) << np.uint64(32)) | v.astype(np.uint64)
        h = (codes * _MIX[0]) ^ (codes >> np.uint64(29))
        h = h * (_MIX[1] + np.arange(codes.shape[1], dtype=np.uint64) * _MIX[2])
        key = np.bitwise_xor.reduce(h, axis=1) if codes.shape[1] > 1 else h[:, 0]
        _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
        if not np.array_equal(codes[first[inverse]], codes):  # a hash collision: group exactly
            _, first, inverse = np.unique(codes, axis=0, return_index=True, return_inverse=True)
        rows = codes[first]  # the distinct rows, each read once as Python values (no array per row)
        blob, width = rows.tobytes(), rows.shape[1] * rows.itemsize
        made = np.array(
            [
                self._sum(blob[i * width : (i + 1) * width], ps, vs)
                for i, (ps, vs) in enumerate(zip(p[first].tolist(), v[first].tolist(), strict=True))
            ],
            dtype=np.int64,
        )
        out: Ids = made[inverse.ravel()]
        return out

    def _sum(self, key: bytes, p: list[int], v: list[int]) -> int:
        """The id of sum(p[k] * v[k]) (ids), remembered by ``key`` (the row's codes)."""
        found = self._sums.get(key)
        if found is None:
            flint, zero = self.flint, self.zero
            total = fmpq(0)
            for a, b in zip(p, v, strict=True):
                if a != zero:
                    total += flint[a] * flint[b]
            found = self._sums[key] = self.id_of(total)
        return found

    def times(self, a: Ids, b: Ids) -> Ids:
        """The ids of ``a[i] * b[i]`` (each distinct pair computed once, and remembered)."""
        if len(a) == 0:
            return np.zeros(0, dtype=np.int64)
        pairs = (a.astype(np.int64) << 32) | b.astype(np.int64)
        distinct, inverse = np.unique(pairs, return_inverse=True)
        made = np.empty(len(distinct), dtype=np.int64)
        memo, flint = self._products, self.flint
        for i, pair in enumerate(distinct.tolist()):
            found = memo.get(pair)
            if found is None:
                found = memo[pair] = self.id_of(flint[pair >> 32] * flint[pair & 0xFFFFFFFF])
            made[i] = found
        out: Ids = made[inverse.ravel()]
        return out


# -- along the options (the first axis, a few): quicker than numpy's strided reductions --------


def pick(options: npt.NDArray[Any], place: Ids) -> npt.NDArray[Any]:
    """``options[place[c], c]`` at every place ``c`` of the shape after the first axis (as
    ``take_along_axis`` along it, by one flat gather).

    >>> pick(np.array([[1, 2], [3, 4]]), np.array([1, 0])).tolist()
    [3, 2]
    """
    n = place.size
    flat = place.ravel() * n + np.arange(n)
    out: npt.NDArray[Any] = np.take(options.reshape(-1), flat).reshape(place.shape)
    return out


def first_true(mask: Bools) -> Ids:
    """Along the first axis: the first place where ``mask`` holds (0 where none), as
    ``argmax`` along it, an option at a time.

    >>> first_true(np.array([[False, False], [True, False], [True, True]])).tolist()
    [1, 2]
    """
    out = np.zeros(mask.shape[1:], dtype=np.int64)
    found = mask[0].copy()
    for j in range(1, len(mask)):
        new = mask[j] & ~found
        out[new] = j
        found |= mask[j]
    return out


def first_least(values: Ids) -> Ids:
    """Along the first axis: the first place of the least value, as ``argmin`` along it, an
    option at a time.

    >>> first_least(np.array([[3, 1], [2, 1]])).tolist()
    [1, 0]
    """
    out = np.zeros(values.shape[1:], dtype=np.int64)
    least = values[0].copy()
    for j in range(1, len(values)):
        better = values[j] < least
        out[better] = j
        np.minimum(least, values[j], out=least)
    return out
