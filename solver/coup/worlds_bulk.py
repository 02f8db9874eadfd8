"""The big passes of :mod:`solver.coup.worlds` in numpy: from :data:`~solver.coup.worlds.BULK`
worlds up, a kernel's pass and the contents' pass run over arrays, the exact weights cut into
integer limbs (:mod:`solver.coup.limbs`: no sum that could overflow; a pass that could is
refused with None and done one world at a time). Imported only when a table is that big, so
that starting a command does not pay for numpy.

A world's fields add up to the unseen cards, which spares most sorting:

- a kernel on one field (a card shown, taken, drawn) makes distinct worlds of distinct worlds:
  no merging (:func:`_pairwise_field`);
- a kernel on two fields that keeps their union (an exchange, a swap, a move) maps each *rest*
  (the worlds equal but for those fields, which share the union) through one small integer
  matrix per union (:func:`_pairwise_blocks`);
- the contents are sums by (mask, content), counted with ``np.bincount`` over 16-bit limbs:
  floats, but every sum stays below 2**53, where float64 adds integers exactly
  (:func:`_contents_counted`);
- placements become worlds a place at a time, each partial world numbered by its parent, its
  gain and its code in one int64 (:func:`layered_bulk`).

Anything else expands every (world, kernel entry) and sums by new world after a sort.

>>> from solver.coup.worlds import Worlds, _pairwise_dicts, shift
>>> w = Worlds.pooled((2, 2, 2, 2, 5), (3, 3, 3, 2, 2))  # four hands and a court, pooled
>>> dealt = pairwise_bulk(w.worlds, MASK_BITS, shift(1), "split", 2)  # the second hand dealt
>>> dealt.ints() == _pairwise_dicts(w.worlds, MASK_BITS, shift(1), "split", 2), len(dealt)
(True, 15)
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from math import gcd
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from . import limbs
from .limbs import Ints, Words
from .vectors import _VECS, Vec, multinomial, plus, vid
from .worlds import FIELD, LAYERED_CODES, MASK_BITS, POOLED, WIDTH, Step, _entries, layered_dicts, shift


class Kernel(NamedTuple):
    """A kernel on a pair of fields of packed keys, for the big passes. ``entries(code)``: for
    the fields ``code`` (the first << WIDTH | the second), each (their new values packed the
    same way, factor). ``union(code)``: the id of the fields' union (what the kernel keeps,
    see :func:`_pairwise_blocks`), or None when it has none; a kernel with no ``union`` keeps
    none. ``cached``: its entries are kept across passes (a kernel made for one pass is not)."""

    entries: Callable[[int], tuple[tuple[int, int], ...]]
    union: Callable[[int], int | None] | None = None
    cached: bool = True


@lru_cache(maxsize=1 << 16)
def _vec_union(code: int) -> int | None:
    a, b = code >> WIDTH, code & FIELD
    return None if a == POOLED or b == POOLED else vid(plus(_VECS[a], _VECS[b]))


@lru_cache(maxsize=1 << 10)
def worlds_kernel(kind: str, param: int, same: bool) -> Kernel:
    """The kernel ``kind`` of :mod:`solver.coup.worlds` (on one field when ``same``)."""
    return Kernel(lambda code: _entries(kind, param, code >> WIDTH, code & FIELD, same), None if same else _vec_union)


def _kernel_table(kernel: Kernel, codes: list[int]) -> tuple[Ints, Ints, Ints, Ints]:
    """The kernels of the field pairs ``codes`` in flat arrays: each pair's first entry and
    entry count; each entry's new pair and factor."""
    starts: list[int] = []
    counts: list[int] = []
    news: list[int] = []
    factors: list[int] = []
    for code in codes:
        entries = kernel.entries(code)
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
    if limbs.floats_exact(16, max(orderings), len(rows)):
        return _contents_counted(rows, data, np.array(orderings, dtype=np.float64)[inv], shifts)
    factors = np.array(orderings, dtype=np.int64)[inv]
    masks = limbs.field(rows, 0, MASK_BITS) << WIDTH
    groups = np.concatenate([k << 40 | masks | limbs.field(rows, s, WIDTH) for k, s in enumerate(shifts)])
    n = len(shifts)
    ids, sums = limbs.grouped(limbs.widen(data, width), np.tile(np.arange(len(rows)), n), np.tile(factors, n), groups)
    out: list[dict[int, dict[Vec, int]]] = [{} for _ in shifts]
    for g, mass in zip(ids.tolist(), limbs.ints(limbs.join(sums, width)), strict=True):
        out[g >> 40].setdefault(g >> WIDTH & ((1 << MASK_BITS) - 1), {})[_VECS[g & FIELD]] = mass
    return out


def _contents_counted(
    rows: Words, data: limbs.Raw, factors: NDArray[np.float64], shifts: list[int]
) -> list[dict[int, dict[Vec, int]]]:
    """``contents_bulk`` by counting, no sort: each limb times its world's factor, summed per
    (mask, content) by ``np.bincount``, exact since no sum reaches 2**53 (the caller's bound
    for 16-bit limbs; 32-bit limbs when the factors are small enough)."""
    masks, mask = limbs.compact(limbs.field(rows, 0, MASK_BITS), 1 << MASK_BITS)
    factor = int(factors.max(initial=1))
    width = 32 if limbs.floats_exact(32, factor, 1 << 16) else 16  # half the columns, 65,536 rows a count
    products = limbs.widen_floats(data, width, by_column=True)  # columns read whole
    products *= factors[:, None]
    size = len(masks) << WIDTH
    out: list[dict[int, dict[Vec, int]]] = []
    for s in shifts:
        groups = mask << WIDTH | limbs.field(rows, s, WIDTH)
        found, sums = counted(products, groups, size, width, factor << width)
        by_mask: dict[int, dict[Vec, int]] = {}
        for g, mass in zip(found.tolist(), sums, strict=True):
            by_mask.setdefault(int(masks[g >> WIDTH]), {})[_VECS[g & FIELD]] = mass
        out.append(by_mask)
    return out


def counted(
    columns: NDArray[np.float64], groups: Ints, size: int, width: int = 16, most: int = 1 << 16
) -> tuple[Ints, list[int]]:
    """For each group in ``range(size)`` that has rows (ascending), the exact integer sum of
    its rows, given as ``width``-bit limbs in float ``columns`` (one column a limb, each value
    below ``most``): counted by ``np.bincount``, no sort, as many rows at a time as keep every
    sum below 2**53, where float64 is exact."""
    found = np.flatnonzero(np.bincount(groups, minlength=size))
    step = max(1, (1 << limbs.FLOAT_BITS) // most)
    sums = np.zeros((len(found), columns.shape[1]), np.int64)
    for start in range(0, len(groups), step):
        rows = slice(start, start + step)
        for j, column in enumerate(columns.T):
            sums[:, j] += np.bincount(groups[rows], weights=column[rows], minlength=size)[found].astype(np.int64)
    return found, limbs.ints(limbs.join(sums, width))


def removed_bulk(worlds: dict[int, int] | Bulk, i: int, places: int, empty: int | None) -> Bulk:
    """``Worlds.remove`` in numpy: the field of the place ``i`` (of ``places``) cut out, the
    fields above it moved down one; the worlds where that field is not ``empty`` (when given)
    dropped. The other fields keep the worlds distinct."""
    rows, data = _arrays(worlds, shift(places))
    if empty is not None:
        keep = limbs.field(rows, shift(i), WIDTH) == empty
        rows, data = rows[keep], data[keep]
    out = limbs.cleared(rows, (1 << shift(i)) - 1)
    for j in range(i + 1, places):
        limbs.put(out, shift(j - 1), limbs.field(rows, shift(j), WIDTH))
    return Bulk(out, data)


def remasked_bulk(worlds: dict[int, int] | Bulk, at: int, values: list[int], bit: int, clear: int) -> Bulk:
    """The worlds whose field at ``at`` is one of ``values`` with ``bit`` added to their mask,
    and every mask without the bits ``clear``; the worlds that then share a key merged."""
    rows, data = _arrays(worlds, MASK_BITS)
    masks = limbs.field(rows, 0, MASK_BITS)
    found = masks & ~clear
    if bit:
        found |= np.where(np.isin(limbs.field(rows, at, WIDTH), values), bit, 0)
    out = limbs.cleared(rows, ~((1 << MASK_BITS) - 1) & ((1 << 64 * rows.shape[1]) - 1))
    limbs.put(out, 0, found)
    if not ((masks & (bit | clear)) != 0).any():  # no new mask was in use: no world merges
        return Bulk(out, data)
    keys, index, _ = limbs.distinct(out)
    width = limbs.width_for(1, len(out))
    _, sums = limbs.grouped(limbs.widen(data, width), np.arange(len(out)), np.ones(len(out), np.int64), index)
    return Bulk(keys, limbs.join(sums, width))


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
    kernel = worlds_kernel(kind, param, sa == sb)
    if sa == sb:
        codes, inv = _pairs(limbs.field(rows, sa, WIDTH), limbs.field(rows, sb, WIDTH))
        return _pairwise_field(rows, data, codes, inv, sa, kernel)
    return kernel_bulk(rows, data, sa, sb, kernel)


def kernel_bulk(rows: Words, data: limbs.Raw, sa: int, sb: int, kernel: Kernel, most: int | None = None) -> Bulk | None:
    """The keys ``rows`` (weights ``data``) with their fields at shifts ``sa`` != ``sb``
    replaced as ``kernel`` says, the weights times its factors, merged by new key in exact
    limbs (None when the factors are too big for them, or when a kernel that keeps no union
    would make more than ``most`` products)."""
    codes, inv = _pairs(limbs.field(rows, sa, WIDTH), limbs.field(rows, sb, WIDTH))
    found = _pairwise_blocks(rows, data, codes, inv, sa, sb, kernel) if kernel.union else None
    if found is not None:
        return found
    _, counts, news, factors = _kernel_table(kernel, codes)
    if most is not None and int(counts[inv].sum()) > most:
        return None
    top = (1 << 64 * rows.shape[1]) - 1
    rests, rest, order = limbs.distinct(limbs.cleared(rows, top & ~(FIELD << sa | FIELD << sb)))
    source, entry = _spread(counts, inv, order)  # the worlds taken by rest: the new worlds come nearly sorted
    width = limbs.width_for(int(factors.max(initial=0)), len(source))
    if not width or not len(source):
        return Bulk(rows[:0], data[:0]) if width else None
    ids, sums = limbs.grouped(limbs.widen(data, width), source, factors[entry], rest[source] << 2 * WIDTH | news[entry])
    low = (1 << 2 * WIDTH) - 1
    return Bulk(_placed(np.take(rests, ids >> 2 * WIDTH, axis=0), ids & low, sa, sb), limbs.join(sums, width))


def _spread(counts: Ints, inv: Ints, order: Ints | None = None) -> tuple[Ints, Ints]:
    """Each world (in ``order``) repeated once per entry of its code's (``counts[inv]``, the
    codes' entries laid out one code after the other): each repeat's world and entry."""
    worlds = np.arange(len(inv)) if order is None else order
    per = counts[inv[worlds]]
    total = int(per.sum())
    entry = np.arange(total) + np.repeat((np.cumsum(counts) - counts)[inv[worlds]] - (np.cumsum(per) - per), per)
    return np.repeat(worlds, per), entry


def _pairwise_field(rows: Words, data: limbs.Raw, codes: list[int], inv: Ints, at: int, kernel: Kernel) -> Bulk | None:
    """``pairwise_bulk`` for a kernel on the one field at ``at``. A world's fields add up to the
    unseen cards, so its other fields tell that one: no two worlds differ only there, and the
    new worlds need no merging, each world becoming one per new content of the field (None
    when the factors are too big for the limbs)."""
    merged = []
    for code in codes:
        entries: dict[int, int] = {}
        for new, f in kernel.entries(code):
            entries[new >> WIDTH] = entries.get(new >> WIDTH, 0) + f
        merged.append(entries)
    counts = np.array([len(entries) for entries in merged], dtype=np.int64)
    news = np.array([new for entries in merged for new in entries], dtype=np.int64)
    factors = np.array([f for entries in merged for f in entries.values()], dtype=np.int64)
    width = limbs.width_for(int(factors.max(initial=0)), 1)
    if not width:
        return None
    source, entry = _spread(counts, inv)
    top = (1 << 64 * rows.shape[1]) - 1
    placed = np.take(limbs.cleared(rows, top & ~(FIELD << at)), source, axis=0)
    limbs.put(placed, at, news[entry])
    return Bulk(placed, limbs.join(np.take(limbs.widen(data, width), source, axis=0) * factors[entry, None], width))


def _union_entries_of(kernel: Kernel, code: int) -> tuple[int, tuple[tuple[int, int], ...]] | None:
    """The union of the pair of fields ``code`` and the kernel's entries for it, or None if
    the pair has no union or an entry changes it (``_union_entries``: the same, kept across
    passes, for a kernel that is ``cached``)."""
    assert kernel.union is not None
    union = kernel.union(code)
    entries = kernel.entries(code)
    if union is None or any(kernel.union(new) != union for new, _ in entries):
        return None
    return union, entries


_union_entries = lru_cache(maxsize=1 << 16)(_union_entries_of)
"""``_union_entries_of`` kept across passes."""


class _Blocks:
    """A two-field kernel that keeps the fields' union, as one small matrix per union: the
    pairs it maps from (rows) and to (columns), numbered within their union."""

    def __init__(self, kernel: Kernel, codes: list[int]) -> None:
        self.unions: dict[int, int] = {}
        self.block: list[int] = []  # each pair's union (block) and row in it
        self.row: list[int] = []
        self.columns: list[dict[int, int]] = []  # per block: each new pair's column
        self.cells: list[list[tuple[int, int, int]]] = []  # per block: (row, column, factor)
        self.rows: list[int] = []
        self.kept = True
        for code in codes:
            found = (_union_entries if kernel.cached else _union_entries_of)(kernel, code)
            if found is None:
                self.kept = False
                return
            union, entries = found
            block = self.unions.setdefault(union, len(self.unions))
            if block == len(self.columns):
                self.columns.append({})
                self.cells.append([])
                self.rows.append(0)
            row = self.rows[block]
            self.rows[block] += 1
            self.block.append(block)
            self.row.append(row)
            columns, cells = self.columns[block], self.cells[block]
            for new, f in entries:
                cells.append((row, columns.setdefault(new, len(columns)), f))

    def matrix(self, block: int) -> Ints:
        out = np.zeros((self.rows[block], len(self.columns[block])), dtype=np.int64)
        rows, columns, factors = np.array(self.cells[block], dtype=np.int64).reshape(-1, 3).T
        np.add.at(out, (rows, columns), factors)
        return out


def _pairwise_blocks(
    rows: Words, data: limbs.Raw, codes: list[int], inv: Ints, sa: int, sb: int, kernel: Kernel
) -> Bulk | None:
    """``pairwise_bulk`` for a kernel that keeps the union of its two fields (exchanges,
    swaps, moves between opened places). The worlds that differ only in those fields (a
    *rest*) then share the union, so each rest is a vector over the union's pairs and the
    kernel one small integer matrix per union: a matrix product per union, not a product per
    (world, kernel entry) sorted and summed. None when that does not hold."""
    blocks = _Blocks(kernel, codes)
    if not blocks.kept:
        return None
    top = (1 << 64 * rows.shape[1]) - 1
    rests, rest, _ = limbs.distinct(limbs.cleared(rows, top & ~(FIELD << sa | FIELD << sb)))
    block = np.array(blocks.block, dtype=np.int64)[inv]
    local = np.array(blocks.row, dtype=np.int64)[inv]
    of_rest = np.zeros(len(rests), dtype=np.int64)
    of_rest[rest] = block
    if (of_rest[rest] != block).any():  # a rest with two unions: the kernel does not keep them
        return None
    factor = max((f for cells in blocks.cells for _, _, f in cells), default=1)
    width = limbs.width_for(factor, max(blocks.rows))
    if not width:
        return None
    # BLAS on floats when no sum can reach 2**53 (float64 adds integers exactly below it)
    exact = limbs.floats_exact(width, factor, max(blocks.rows))
    n = len(blocks.rows)
    small = np.int16 if n < 1 << 15 else np.int64  # a stable sort of 16-bit ints is a radix sort
    rest_order = np.argsort(of_rest.astype(small), kind="stable")
    rest_start = np.searchsorted(of_rest[rest_order], np.arange(n + 1))
    position = np.empty(len(rests), dtype=np.int64)  # each rest's place among its union's
    position[rest_order] = np.arange(len(rests)) - rest_start[of_rest[rest_order]]
    world_order = np.argsort(block.astype(small), kind="stable")
    world_start = np.searchsorted(block[world_order], np.arange(n + 1))
    # the worlds block by block, each with its cell in its block's (rest, pair) vectors
    at, pair = position[rest][world_order], local[world_order]
    ordered = np.take(data, world_order, axis=0)  # the weights' bytes in block order, widened once
    wide = limbs.widen_floats(ordered, width) if exact else limbs.widen(ordered, width)
    size = wide.shape[1]
    found_rests, found_pairs, found_limbs = [], [], []
    for b in range(n):
        these = slice(world_start[b], world_start[b + 1])
        count, m = rest_start[b + 1] - rest_start[b], blocks.rows[b]
        vectors = np.zeros((count, size, m), dtype=wide.dtype)  # per rest, each limb of its m pairs
        vectors[at[these], :, pair[these]] = wide[these]
        product = (vectors.reshape(count * size, m) @ blocks.matrix(b).astype(wide.dtype)).reshape(count, size, -1)
        r, c = np.nonzero(product.any(axis=1))
        found_rests.append(rest_order[rest_start[b] + r])
        found_pairs.append(np.array(list(blocks.columns[b]), dtype=np.int64)[c])
        found_limbs.append(product[r, :, c].T)  # one limb a row, as the sums are carried
    placed = _placed(np.take(rests, np.concatenate(found_rests), axis=0), np.concatenate(found_pairs), sa, sb)
    sums = np.empty((limbs.room(size, width), len(placed)), np.int64)  # the blocks' sums, carried in place
    np.concatenate(found_limbs, axis=1, out=sums[:size], casting="unsafe")  # (integers: exact)
    sums[size:] = 0
    return Bulk(placed, limbs.carried(sums, width))


def _pairs(a: Ints, b: Ints) -> tuple[list[int], Ints]:
    """The distinct pairs of fields (packed) and each world's index among them."""
    da, ia = limbs.compact(a, FIELD + 1)
    db, ib = limbs.compact(b, FIELD + 1)
    pairs, index = limbs.compact(ia * len(db) + ib, len(da) * len(db))
    first, second = da[pairs // len(db)], db[pairs % len(db)]
    return (first << WIDTH | second).tolist(), index


def _placed(rows: Words, pairs: Ints, sa: int, sb: int) -> Words:
    """``rows`` (a fresh array, changed in place) with the pairs of fields put at shifts
    ``sa`` and ``sb`` (zero there before)."""
    limbs.put(rows, sa, pairs >> WIDTH)
    if sb != sa:
        limbs.put(rows, sb, pairs & FIELD)
    return rows


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


SMALL_PRIMES = (2, 3, 5, 7)


def common_factor(data: limbs.Raw, least: int) -> tuple[limbs.Raw, int]:
    """``data`` divided by the common factor of its integers made of small primes (found on a
    sample, every row divided exactly), and that factor; ``data`` itself and 1 when the
    factor is below ``least``.

    >>> data, factor = common_factor(limbs.raw([12 * 7**30, 18 * 7**31]), 2**10)
    >>> limbs.ints(data), factor == 6 * 7**30
    ([2, 21], True)
    """
    rows = np.unique(np.linspace(0, len(data) - 1, 32).astype(np.int64))
    found = 0
    for w in limbs.ints(data[rows]):
        found = gcd(found, w)
    smooth = 1
    for p in SMALL_PRIMES:
        while found and found % p == 0:
            found //= p
            smooth *= p
    factor = 1
    while smooth >= least and smooth > 1:
        d = 1
        for p in SMALL_PRIMES:
            while smooth % p == 0 and d * p < 1 << 31:
                d *= p
                smooth //= p
        divided = limbs.divided(data, d)
        if divided is None:  # the sample's factor does not divide every row
            break
        data, factor, least = divided, factor * d, 1
    return data, factor


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
        if limit is not None and len(found) > min(limit, LAYERED_CODES):
            return None
        table = [step(code) for code in found.tolist()]
        flat = [entry for entries in table for entry in entries]
        gained: dict[int, int] = {}
        gain = np.array([gained.setdefault(more, len(gained)) for more, _, _ in flat], dtype=np.int64)
        news = np.array([0 if last else new for _, new, _ in flat], dtype=np.int64)
        factors = np.array([f for _, _, f in flat], dtype=np.int64)
        counts = np.array([len(entries) for entries in table], dtype=np.int64)
        source, entry = _spread(counts, inv)
        if not len(source):
            return Bulk(rows[:0], data[:0])
        kinds, width = len(rows) * max(1, len(gained)), limbs.width_for(int(factors.max()), len(source))
        if not width or kinds * (int(news.max()) + 1) >= 1 << 62:
            return _go_on_in_python(rows, parent, codes, data, steps[n:], limit)
        key = parent[source] * len(gained) + gain[entry]  # the new key, numbered
        group = key * (int(news.max()) + 1) + news[entry]
        order = np.argsort(group, kind="stable")
        group = group[order]
        starts = np.flatnonzero(np.concatenate(([True], group[1:] != group[:-1])))
        if limit is not None and len(starts) > limit:
            return None
        products = np.take(limbs.widen(data, width), source[order], axis=0)  # already in order: no grouped()
        products *= factors[entry[order], None]
        data = limbs.join(np.add.reduceat(products, starts, axis=0), width)
        first = order[starts]
        keys, parent = np.unique(key[first], return_inverse=True)
        gains = limbs.words(list(gained), bits)
        rows = np.take(rows, keys // len(gained), axis=0) | np.take(gains, keys % len(gained), axis=0)
        codes = news[entry[first]]
    return Bulk(np.take(rows, parent, axis=0), data)


def _go_on_in_python(
    rows: Words, parent: Ints, codes: Ints, data: limbs.Raw, steps: list[Step], limit: int | None
) -> dict[int, int] | None:
    """``layered_bulk``'s partial worlds as ints, the rest of the steps one world at a time."""
    keys = limbs.ints(rows)
    current = {(keys[p], c): w for p, c, w in zip(parent.tolist(), codes.tolist(), limbs.ints(data), strict=True)}
    found = layered_dicts(current, steps, limit)
    return None if found is None else {key: w for (key, _), w in found.items()}
