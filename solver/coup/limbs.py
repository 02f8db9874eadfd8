"""Exact grouped sums of big integers in numpy: each integer split into limbs.

The worlds' weights are exact Python ints of a few hundred bits. To sum many products
``weight * factor`` by group without a dict operation per product, each weight is split into
``width``-bit limbs held in int64; a product of a limb by a factor, summed over a group, stays
below 2**62 whenever ``2**width * factor * count < 2**62`` (``fits``), so every limb sum is
exact; the carries are propagated before the integers are joined back.

Rows are gathered with ``np.take(..., axis=0)``, several times faster than indexing a 2-D
array by an array of rows (numpy 2.4, 780,000 rows of two words: 1.5 ms against 9.8; of 16
bytes: 7 ms against 59).

>>> limbs = split([5, 2**70 + 1, 7], 32)
>>> ids, out = grouped(limbs, np.array([0, 1, 2]), np.array([3, 1, 2]), np.array([4, 9, 4]))
>>> ids.tolist(), ints(join(out, 32))
([4, 9], [29, 1180591620717411303425])
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

Limbs = NDArray[np.int64]
Ints = NDArray[np.int64]
Words = NDArray[np.uint64]

SAFE = 62
"""Bits a limb sum may reach (a carry added to the next limb stays below 2**63)."""


def width_for(factor: int, count: int) -> int:
    """The widest limb (32 or 16 bits) whose sums of ``count`` products by factors up to
    ``factor`` stay exact in int64, or 0 when none does (the caller falls back to ints)."""
    for width in (32, 16):
        if (factor * count) << width < 1 << SAFE:
            return width
    return 0


FLOAT_BITS = 53
"""Integers below 2**53 add up exactly in float64 (what lets a pass use BLAS or ``np.bincount``)."""


def floats_exact(width: int, factor: int, count: int) -> bool:
    """True if sums of ``count`` products of ``width``-bit limbs by factors up to ``factor``
    stay below 2**53, where float64 is exact: such a pass may run on floats."""
    return (1 << width) * factor * count < 1 << FLOAT_BITS


def _dtype(width: int) -> np.dtype[np.unsignedinteger]:
    return np.dtype("<u4") if width == 32 else np.dtype("<u2")


Raw = NDArray[np.uint8]
"""Nonnegative integers as rows of little-endian bytes (a multiple of 4 per row)."""


def raw(values: list[int]) -> Raw:
    """The nonnegative ``values`` as rows of bytes."""
    size = 4 * max(1, -(-max(values, default=0).bit_length() // 32))
    buf = b"".join([v.to_bytes(size, "little") for v in values])
    return np.frombuffer(buf, dtype=np.uint8).reshape(len(values), size)


def widen(data: Raw, width: int) -> Limbs:
    """Rows of bytes as rows of ``width``-bit limbs (int64), lowest first."""
    return np.ascontiguousarray(data).view(_dtype(width)).astype(np.int64)


def widen_floats(data: Raw, width: int, by_column: bool = False) -> NDArray[np.float64]:
    """``widen`` as float64 (exact: a limb is below 2**32), in one copy; ``by_column``: each
    limb's column contiguous (Fortran order), for passes that read a column at a time."""
    limbs = np.ascontiguousarray(data).view(_dtype(width))
    return np.asfortranarray(limbs, dtype=np.float64) if by_column else limbs.astype(np.float64)


def split(values: list[int], width: int) -> Limbs:
    """The nonnegative ``values`` as rows of ``width``-bit limbs (int64), lowest first."""
    return widen(raw(values), width)


def join(limbs: Limbs, width: int) -> Raw:
    """The integers whose limbs (nonnegative, each below 2**62, carries not yet propagated)
    are the rows of ``limbs``, as rows of bytes (see ``ints``)."""
    rows, n = limbs.shape
    out = np.empty((room(n, width), rows), np.int64)  # a limb's column of every row contiguous: the carries pass whole
    out[:n] = limbs.T
    out[n:] = 0
    return carried(out, width)


def room(n: int, width: int) -> int:
    """How many limbs the sums of ``n`` limbs take once their carries are propagated."""
    full = n + -(-(SAFE + 1) // width)
    return full + -full % (32 // width)


def carried(columns: Limbs, width: int) -> Raw:
    """``join`` for limbs given as columns (one limb a row, ``room`` rows, the rows above the
    limbs zero), the carries propagated in place: no copy of them, for a pass that writes its
    sums there directly."""
    carry = np.empty(columns.shape[1], np.int64)  # one buffer for every carry: big tables fault fresh memory in slowly
    for j in range(len(columns) - 1):
        np.right_shift(columns[j], width, out=carry)
        columns[j + 1] += carry
        columns[j] &= (1 << width) - 1
    used = int(np.flatnonzero(columns.any(axis=1)).max(initial=0)) + 1
    used += -used % (32 // width)  # whole 4-byte words: the weights stay as short as they are
    return columns[:used].T.astype(_dtype(width), order="C").view(np.uint8)


def divided(data: Raw, d: int) -> Raw | None:
    """The integers of ``data`` each divided by ``0 < d < 2**31``, or None if ``d`` does not
    divide them all: a long division over 32-bit limbs from the top, every row at once (a
    limb's column contiguous; a remainder and a limb fit 64 bits unsigned).

    >>> ints(divided(raw([6, 3 * 2**70]), 3))
    [2, 1180591620717411303424]
    >>> divided(raw([6, 7]), 3) is None
    True
    """
    columns = np.ascontiguousarray(data).view(_dtype(32)).T.astype(np.uint64)
    quotient = np.empty_like(columns)
    rest = np.zeros(columns.shape[1], np.uint64)
    divisor = np.uint64(d)
    for j in range(len(columns) - 1, -1, -1):
        current = rest << np.uint64(32) | columns[j]
        np.floor_divide(current, divisor, out=quotient[j])
        rest = current - quotient[j] * divisor
    return None if rest.any() else join(quotient.T.view(np.int64), 32)


def ints(rows: Raw | Words) -> list[int]:
    """The nonnegative integers whose little-endian bytes (or words) are the rows."""
    buf = np.ascontiguousarray(rows).tobytes()
    size = len(buf) // len(rows) if len(rows) else 1
    return [int.from_bytes(buf[i : i + size], "little") for i in range(0, len(buf), size)]


def grouped(limbs: Limbs, rows: Ints, factors: Ints, groups: Ints) -> tuple[Ints, Limbs]:
    """For each distinct group id (ascending), the sum of ``limbs[rows[e]] * factors[e]`` over
    the entries ``e`` of that group: the ids and the limbs of the sums (carries pending).
    Fastest when ``groups`` is nearly sorted."""
    if not len(groups):
        return groups, limbs[:0]
    order = np.argsort(groups, kind="stable")  # fast when the groups are nearly sorted
    ordered = groups[order]
    starts = np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1])))
    products = np.take(limbs, rows[order], axis=0)
    products *= factors[order, None]
    return ordered[starts], np.add.reduceat(products, starts, axis=0)


def words(keys: list[int], bits: int = 0) -> Words:
    """The nonnegative ``keys`` as rows of 64-bit words, lowest first (at least ``bits``)."""
    n = max(1, -(-max(max(keys, default=0).bit_length(), bits) // 64))
    buf = b"".join([k.to_bytes(8 * n, "little") for k in keys])
    return np.frombuffer(buf, dtype=np.dtype("<u8")).reshape(len(keys), n)


def field(rows: Words, at: int, bits: int) -> Ints:
    """The ``bits``-bit field at bit ``at`` of each row of words.

    >>> field(words([0xABC << 60, 5]), 60, 12).tolist()
    [2748, 0]
    """
    w, o = divmod(at, 64)
    out = rows[:, w] >> np.uint64(o)
    if o + bits > 64 and w + 1 < rows.shape[1]:
        out = out | rows[:, w + 1] << np.uint64(64 - o)
    return (out & np.uint64((1 << bits) - 1)).astype(np.int64)


def distinct(rows: Words) -> tuple[Words, Ints, Ints]:
    """The distinct rows of words (ascending), each row's index among them, and the rows'
    order by that index. When the bits any row sets fit 64 (a table's keys leave most of
    theirs zero), the rows are sorted as one word made of those bits, in the same order: 2-3
    times faster than sorting by every word.

    >>> distinct(words([7, 2**70, 7]))[1:]
    (array([0, 1, 0]), array([0, 2, 1]))
    """
    key = _packed(rows)
    if key is None:
        order = np.lexsort(rows.T)
        ordered = np.take(rows, order, axis=0)
        new = np.concatenate(([True], (ordered[1:] != ordered[:-1]).any(axis=1)))
    else:
        order = np.argsort(key, kind="stable")
        ordered = key[order]
        new = np.concatenate(([True], ordered[1:] != ordered[:-1]))
    index = np.empty(len(rows), np.int64)
    index[order] = np.cumsum(new) - 1
    return np.take(rows, order[new], axis=0), index, order


def _packed(rows: Words) -> NDArray[np.uint64] | None:
    """Each row as one word of the bits that any row sets (the higher words' first), in the
    rows' order; None when those bits are more than 64. Runs of set bits a few zero bits apart
    are taken whole, fewer shifts, while that still fits."""
    runs: list[tuple[int, int, int]] = []  # (word, lowest bit, width), the most significant first
    for j in range(rows.shape[1] - 1, -1, -1):
        used = int(np.bitwise_or.reduce(rows[:, j])) if len(rows) else 0
        while used:
            high = used.bit_length()
            low = (~used & ((1 << high) - 1)).bit_length()  # above the highest zero bit below
            runs.append((j, low, high - low))
            used &= (1 << low) - 1
    total = sum(width for _, _, width in runs)
    if total > 64:
        return None
    merged: list[tuple[int, int, int]] = []
    for j, low, width in runs:
        gap = merged[-1][1] - low - width if merged and merged[-1][0] == j else 64
        if gap <= 4 and total + gap <= 64:  # the run above and this one taken as one
            total += gap
            merged[-1] = (j, low, merged[-1][1] + merged[-1][2] - low)
        else:
            merged.append((j, low, width))
    key = np.zeros(len(rows), np.uint64)
    part = np.empty(len(rows), np.uint64)
    words = {j: np.ascontiguousarray(rows[:, j]) for j in {j for j, _, _ in merged}}  # each column read once
    at = total
    for j, low, width in merged:
        at -= width
        np.right_shift(words[j], np.uint64(low), out=part)
        if low + width < 64:
            np.bitwise_and(part, np.uint64((1 << width) - 1), out=part)
        np.left_shift(part, np.uint64(at), out=part)
        key |= part
    return key


def cleared(rows: Words, clear: int) -> Words:
    """The rows of words ANDed with the nonnegative int ``clear``."""
    parts = [(clear >> (64 * j)) & ((1 << 64) - 1) for j in range(rows.shape[1])]
    return rows & np.array(parts, dtype=np.uint64)


def padded(rows: Words, bits: int) -> Words:
    """The rows of words with zero words added up to at least ``bits`` bits."""
    more = -(-bits // 64) - rows.shape[1]
    return np.hstack([rows, np.zeros((len(rows), more), np.uint64)]) if more > 0 else rows


def put(rows: Words, at: int, values: Ints) -> None:
    """OR the nonnegative ``values`` (at most 64 bits) into each row at bit ``at``."""
    w, o = divmod(at, 64)
    v = values.astype(np.uint64)
    rows[:, w] |= v << np.uint64(o)
    if o and w + 1 < rows.shape[1]:
        rows[:, w + 1] |= v >> np.uint64(64 - o)


COUNTED = 1 << 22
"""Values below this are numbered (and grouped) by counting, a table of this size (``compact``,
``np.bincount``); above it, by a sort."""


def compact(values: Ints, bound: int) -> tuple[Ints, Ints]:
    """The distinct ``values`` (each in ``range(bound)``), ascending, and each value's index
    among them: ``np.unique`` by counting, no sort (a sort past :data:`COUNTED`).

    >>> compact(np.array([5, 3, 5, 9]), 16)
    (array([3, 5, 9]), array([1, 0, 1, 2]))
    """
    if bound > COUNTED:
        distinct, index = np.unique(values, return_inverse=True)
        return distinct, index
    seen = np.zeros(bound, bool)
    seen[values] = True
    distinct = np.flatnonzero(seen)
    index = np.zeros(bound, np.int64)
    index[distinct] = np.arange(len(distinct))
    return distinct, index[values]
