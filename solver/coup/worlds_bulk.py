"""The big passes of :mod:`solver.coup.worlds` in numpy: from :data:`~solver.coup.worlds.BULK`
worlds up, a kernel's pass and the contents' pass run over arrays, the exact weights cut into
integer limbs (:mod:`solver.coup.limbs`: no float anywhere, and no sum that could overflow; a
pass that could is refused with None and done one world at a time). Imported only when a table
is that big, so that starting a command does not pay for numpy.

>>> from solver.coup.worlds import Worlds, _pairwise_dicts, shift
>>> w = Worlds.pooled((2, 2, 2, 2, 5), (3, 3, 3, 2, 2))  # four hands and a court, pooled
>>> dealt = pairwise_bulk(w.worlds, MASK_BITS, shift(1), "split", 2)  # the second hand dealt
>>> dealt.ints() == _pairwise_dicts(w.worlds, MASK_BITS, shift(1), "split", 2), len(dealt)
(True, 15)
"""

from __future__ import annotations

import numpy as np

from . import limbs
from .limbs import Ints, Words
from .worlds import _VECS, FIELD, MASK_BITS, WIDTH, Step, Vec, _entries, layered_dicts, multinomial


def _kernel_table(kind: str, param: int, codes: list[int], same: bool) -> tuple[Ints, Ints, Ints, Ints]:
    """The kernels of the field pairs ``codes`` in flat arrays: each pair's first entry and
    entry count; each entry's new pair and factor."""
    starts: list[int] = []
    counts: list[int] = []
    news: list[int] = []
    factors: list[int] = []
    for code in codes:
        entries = _entries(kind, param, code >> WIDTH, code & FIELD, same)
        starts.append(len(news))
        counts.append(len(entries))
        news.extend(n for n, _ in entries)
        factors.extend(f for _, f in entries)
    table = [np.array(x, dtype=np.int64) for x in (starts, counts, news, factors)]
    return table[0], table[1], table[2], table[3]


def contents_bulk(worlds: dict[int, int] | Bulk, shifts: list[int]) -> list[dict[int, dict[Vec, int]]] | None:
    """For the fields at each of ``shifts``: for each mask, the mass of each content, in numpy
    (None when the pools' orderings are too many for the limbs)."""
    rows, data = _arrays(worlds, max(shifts) + WIDTH)
    pools, inv = np.unique(limbs.field(rows, MASK_BITS, WIDTH), return_inverse=True)
    orderings = [multinomial(p) for p in pools.tolist()]
    width = limbs.width_for(max(orderings), len(rows))
    if not width:
        return None
    factors = np.array(orderings, dtype=np.int64)[inv]
    masks = limbs.field(rows, 0, MASK_BITS) << WIDTH
    groups = np.concatenate([k << 40 | masks | limbs.field(rows, s, WIDTH) for k, s in enumerate(shifts)])
    n = len(shifts)
    ids, sums = limbs.grouped(limbs.widen(data, width), np.tile(np.arange(len(rows)), n), np.tile(factors, n), groups)
    out: list[dict[int, dict[Vec, int]]] = [{} for _ in shifts]
    for g, mass in zip(ids.tolist(), limbs.ints(limbs.join(sums, width)), strict=True):
        out[g >> 40].setdefault(g >> WIDTH & ((1 << MASK_BITS) - 1), {})[_VECS[g & FIELD]] = mass
    return out


def pools_bulk(worlds: dict[int, int] | Bulk) -> dict[tuple[int, int], int] | None:
    """The weight of the worlds of each (mask, pool content), in numpy (None when the sums
    could overflow the limbs)."""
    rows, data = _arrays(worlds, MASK_BITS + WIDTH)
    width = limbs.width_for(1, len(rows))
    if not width:
        return None
    groups = limbs.field(rows, 0, MASK_BITS) << WIDTH | limbs.field(rows, MASK_BITS, WIDTH)
    ids, sums = limbs.grouped(limbs.widen(data, width), np.arange(len(rows)), np.ones(len(rows), np.int64), groups)
    low = (1 << WIDTH) - 1
    return {(g >> WIDTH, g & low): w for g, w in zip(ids.tolist(), limbs.ints(limbs.join(sums, width)), strict=True)}


def pairwise_bulk(worlds: dict[int, int] | Bulk, sa: int, sb: int, kind: str, param: int) -> Bulk | None:
    """``_pairwise`` in numpy: the worlds expanded by their pairs' kernels and summed by new
    world in exact limbs (None when the factors are too big for them)."""
    rows, data = _arrays(worlds, max(sa, sb) + WIDTH)
    codes, inv = _pairs(limbs.field(rows, sa, WIDTH), limbs.field(rows, sb, WIDTH))
    starts, counts, news, factors = _kernel_table(kind, param, codes, sa == sb)
    top = (1 << 64 * rows.shape[1]) - 1
    rests, rest, order = limbs.distinct(limbs.cleared(rows, top & ~(FIELD << sa | FIELD << sb)))
    per = counts[inv[order]]  # the worlds taken by rest: the new worlds come nearly sorted
    total = int(per.sum())
    width = limbs.width_for(int(factors.max(initial=0)), total)
    if not width or not total:
        return Bulk(rows[:0], data[:0]) if width else None
    source = np.repeat(order, per)
    entry = np.arange(total) + np.repeat(starts[inv[order]] - (np.cumsum(per) - per), per)
    ids, sums = limbs.grouped(limbs.widen(data, width), source, factors[entry], rest[source] << 2 * WIDTH | news[entry])
    low = (1 << 2 * WIDTH) - 1
    return Bulk(_placed(rests[ids >> 2 * WIDTH], ids & low, sa, sb), limbs.join(sums, width))


def _pairs(a: Ints, b: Ints) -> tuple[list[int], Ints]:
    """The distinct pairs of fields (packed) and each world's index among them."""
    da, ia = limbs.compact(a, FIELD + 1)
    db, ib = limbs.compact(b, FIELD + 1)
    if len(da) * len(db) > 1 << 20:  # too many for counting
        found, index = np.unique(a << WIDTH | b, return_inverse=True)
        return found.tolist(), index
    pairs, index = limbs.compact(ia * len(db) + ib, len(da) * len(db))
    first, second = da[pairs // len(db)], db[pairs % len(db)]
    return (first << WIDTH | second).tolist(), index


def _placed(rows: Words, pairs: Ints, sa: int, sb: int) -> Words:
    """Copies of ``rows`` with the pairs of fields put at shifts ``sa`` and ``sb``."""
    out = rows.copy()
    limbs.put(out, sa, pairs >> WIDTH)
    if sb != sa:
        limbs.put(out, sb, pairs & FIELD)
    return out


class Bulk:
    """Worlds as arrays, in the big passes: the keys as rows of words, the weights as rows of
    bytes (``limbs``), in the same order."""

    __slots__ = ("data", "rows")

    def __init__(self, rows: Words, data: limbs.Raw) -> None:
        self.rows = rows
        self.data = data

    def __repr__(self) -> str:
        return f"<Bulk {len(self.rows)} worlds>"

    def __len__(self) -> int:
        return len(self.rows)

    def ints(self) -> dict[int, int]:
        """The worlds as a dict of ints."""
        return dict(zip(limbs.ints(self.rows), limbs.ints(self.data), strict=True))


def _arrays(worlds: dict[int, int] | Bulk, bits: int) -> tuple[Words, limbs.Raw]:
    """The words of the worlds' keys (at least ``bits``) and the bytes of their weights."""
    if isinstance(worlds, Bulk):
        return limbs.padded(worlds.rows, bits), worlds.data
    return limbs.words(list(worlds), bits), limbs.raw(list(worlds.values()))


def layered_bulk(
    start: dict[tuple[int, int], int], steps: list[Step], bits: int, limit: int | None
) -> dict[int, int] | Bulk | None:
    """:func:`~solver.coup.worlds.layered` in numpy. A step only sets fields that are zero in
    every partial world before it, so a new partial world is told by its parent's key, what
    it gained and its new code: numbered in one int64 (no sort of the keys' words); merged by
    that number in exact limbs. Goes on one world at a time if the numbers or the factors are
    too big; None past ``limit``."""
    ids: dict[int, int] = {}
    parent = np.array([ids.setdefault(key, len(ids)) for key, _ in start], dtype=np.int64)
    rows = limbs.words(list(ids), bits)  # the distinct keys, numbered by ``parent``
    codes = np.array([code for _, code in start], dtype=np.int64)
    data = limbs.raw(list(start.values()))
    for n, step in enumerate(steps):
        last = n == len(steps) - 1
        found, inv = np.unique(codes, return_inverse=True)
        table = [step(code) for code in found.tolist()]
        flat = [entry for entries in table for entry in entries]
        gained: dict[int, int] = {}
        gain = np.array([gained.setdefault(more, len(gained)) for more, _, _ in flat], dtype=np.int64)
        news = np.array([0 if last else new for _, new, _ in flat], dtype=np.int64)
        factors = np.array([f for _, _, f in flat], dtype=np.int64)
        counts = np.array([len(entries) for entries in table], dtype=np.int64)
        per = counts[inv]
        total = int(per.sum())
        if not total:
            return Bulk(rows[:0], data[:0])
        kinds, width = len(rows) * max(1, len(gained)), limbs.width_for(int(factors.max()), total)
        if not width or kinds * (int(news.max()) + 1) >= 1 << 62:
            return _go_on_in_python(rows, parent, codes, data, steps[n:], limit)
        source = np.repeat(np.arange(len(parent)), per)
        entry = np.arange(total) + np.repeat((np.cumsum(counts) - counts)[inv] - (np.cumsum(per) - per), per)
        key = parent[source] * len(gained) + gain[entry]  # the new key, numbered
        group = key * (int(news.max()) + 1) + news[entry]
        order = np.argsort(group, kind="stable")
        group = group[order]
        starts = np.flatnonzero(np.concatenate(([True], group[1:] != group[:-1])))
        if limit is not None and len(starts) > limit:
            return None
        _, sums = limbs.grouped(limbs.widen(data, width), source[order], factors[entry[order]], group)
        data = limbs.join(sums, width)
        first = order[starts]
        keys, parent = np.unique(key[first], return_inverse=True)
        gains = limbs.words(list(gained), bits)
        rows = rows[keys // len(gained)] | gains[keys % len(gained)]
        codes = news[entry[first]]
    return Bulk(rows[parent], data)


def _go_on_in_python(
    rows: Words, parent: Ints, codes: Ints, data: limbs.Raw, steps: list[Step], limit: int | None
) -> dict[int, int] | None:
    """``layered_bulk``'s partial worlds as ints, the rest of the steps one world at a time."""
    keys = limbs.ints(rows)
    current = {(keys[p], c): w for p, c, w in zip(parent.tolist(), codes.tolist(), limbs.ints(data), strict=True)}
    found = layered_dicts(current, steps, limit)
    return None if found is None else {key: w for (key, _), w in found.items()}
