"""The big passes of :mod:`solver.coup.placements` in numpy, on the arrays of
:mod:`solver.coup.worlds_bulk`: from :data:`~solver.coup.worlds.BULK` terms up (an 8-player
crowd reaches a million), a pass costs a few array operations per term instead of a Python
tuple and dict operation per (term, move). Imported only when a table is that big.

A term is packed like a world: its mask in the low bits, then :data:`EVERY`, the id of all
its cards together (:func:`~solver.coup.placements._cards`, where a world keeps its pool),
then each place's interned state. Cards moved between places keep ``EVERY``, so the kernels
of :meth:`~solver.coup.placements.Placements._pair` keep the union of the two states they
touch and run as matrices (:func:`~solver.coup.worlds_bulk._pairwise_blocks`); a card seen
or assumed changes a state and ``EVERY`` together, a kernel on the pair. The contents and
the totals group the terms by (mask, ``EVERY``, a state), the only things they depend on.

Every pass returns None when an id or a factor does not fit the arrays (the caller goes on
one term at a time).

>>> from solver.coup.placements import Placements
>>> p = Placements.dealt((2, 2, 2, 9)).reveal(0, 0, None)
>>> back = unpacked(packed(p.terms, 4), 4)
>>> back == p.terms
True
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import numpy as np

from . import limbs
from .limbs import Ints
from .placements import _CARDS, _STATES, Key, Moves, _card_id, _cards, _state, _tagged
from .worlds import FIELD, MASK_BITS, WIDTH, shift
from .worlds_bulk import Bulk, Kernel, _pairs, _spread, kernel_bulk, remasked_bulk, removed_bulk

EVERY = MASK_BITS
"""The field of a term's cards all together."""
LOW = (1 << MASK_BITS) - 1


class _TooMany(Exception):
    """An id does not fit a field."""


def _fits(value: int) -> int:
    if value >= FIELD:
        raise _TooMany
    return value


def packed(terms: dict[Key, int], places: int) -> Bulk | None:
    """The terms as arrays (None if a state or a set of cards has an id too big for a field)."""
    keys: list[int] = []
    try:
        for key in terms:
            k = key[0] | _fits(_cards(key[1:])) << EVERY
            for i, s in enumerate(key[1:]):
                k |= _fits(s) << shift(i)
            keys.append(k)
    except _TooMany:
        return None
    return Bulk(limbs.words(keys, shift(places)), limbs.raw(list(terms.values())))


def unpacked(terms: Bulk, places: int) -> dict[Key, int]:
    """The terms as a dict."""
    out: dict[Key, int] = {}
    for k, w in zip(limbs.ints(terms.rows), limbs.ints(terms.data), strict=True):
        out[(k & LOW, *((k >> shift(i)) & FIELD for i in range(places)))] = w
    return out


def first(terms: Bulk, places: int) -> Key:
    """One term's key."""
    return next(iter(unpacked(Bulk(terms.rows[:1], terms.data[:1]), places)))


def states(terms: Bulk, i: int) -> list[int]:
    """The distinct states of place ``i`` over the terms."""
    found, _ = limbs.compact(limbs.field(terms.rows, shift(i), WIDTH), FIELD + 1)
    return list(found.tolist())


def masks(terms: Bulk) -> list[int]:
    """The distinct masks of the terms."""
    found, _ = limbs.compact(limbs.field(terms.rows, 0, MASK_BITS), 1 << MASK_BITS)
    return list(found.tolist())


def _run(kernel: Kernel, terms: Bulk, sa: int, sb: int) -> Bulk | None:
    try:
        return kernel_bulk(terms.rows, terms.data, sa, sb, kernel)
    except _TooMany:
        return None


@lru_cache(maxsize=1 << 10)
def pair_kernel(moves: Callable[[int, int], Moves]) -> Kernel:
    """The kernel of ``moves`` between two places' states: it keeps their union."""

    def entries(code: int) -> tuple[tuple[int, int], ...]:
        return tuple((_fits(x) << WIDTH | _fits(y), f) for x, y, f in moves(code >> WIDTH, code & FIELD) if f)

    return Kernel(entries, _union)


@lru_cache(maxsize=1 << 16)
def _union(code: int) -> int:
    return _state([*_STATES[code >> WIDTH], *_STATES[code & FIELD]])


def paired(terms: Bulk, i: int, j: int, moves: Callable[[int, int], Moves]) -> Bulk | None:
    """Each term's places ``i`` and ``j`` replaced as ``moves`` says (``moves`` cached by
    the caller: it names the kernel)."""
    return _run(pair_kernel(moves), terms, shift(i), shift(j))


@lru_cache(maxsize=1 << 10)
def map_kernel(change: Callable[[int], tuple[tuple[int, int], ...]]) -> Kernel:
    """The kernel of ``change`` on a place's state, on the pair (``EVERY``, the state)."""

    def entries(code: int) -> tuple[tuple[int, int], ...]:
        every, s = code >> WIDTH, code & FIELD
        return tuple((_fits(_replaced(every, s, n)) << WIDTH | _fits(n), f) for n, f in change(s) if f)

    return Kernel(entries)


@lru_cache(maxsize=1 << 16)
def _replaced(every: int, s: int, new: int) -> int:
    """The id of the cards ``every`` with those of the state ``s`` replaced by ``new``'s."""
    tagged, fresh = _CARDS[every]
    mine, mine_fresh = _tagged((s,))
    theirs, their_fresh = _tagged((new,))
    rest = list(tagged)
    for v in mine:
        rest.remove(v)
    return _card_id((tuple(sorted(rest + list(theirs))), fresh - mine_fresh + their_fresh))


def mapped(terms: Bulk, i: int, change: Callable[[int], tuple[tuple[int, int], ...]]) -> Bulk | None:
    """Each term's place ``i`` replaced as ``change`` says (cached by the caller)."""
    return _run(map_kernel(change), terms, EVERY, shift(i))


def assumed(terms: Bulk, i: int, split: Callable[[int], tuple[tuple[int, int, bool], ...]], bit: int) -> Bulk | None:
    """Each term's place ``i`` split as ``split`` says, ``bit`` added to the mask of the parts
    that break the assumption; merged."""
    rows, data = terms.rows, terms.data
    at = shift(i)
    codes, inv = _pairs(limbs.field(rows, EVERY, WIDTH), limbs.field(rows, at, WIDTH))
    table: list[tuple[int, int, int, bool]] = []
    counts: list[int] = []
    try:
        for code in codes:
            every, s = code >> WIDTH, code & FIELD
            found = [(_fits(_replaced(every, s, n)), _fits(n), f, v) for n, f, v in split(s) if f]
            counts.append(len(found))
            table.extend(found)
    except _TooMany:
        return None
    factors = np.array([f for _, _, f, _ in table], dtype=np.int64)
    source, entry = _spread(np.array(counts, dtype=np.int64), inv)
    width = limbs.width_for(int(factors.max(initial=0)), len(source))
    if not width:
        return None
    top = (1 << 64 * rows.shape[1]) - 1
    out = limbs.cleared(rows, top & ~(FIELD << EVERY | FIELD << at))[source]
    limbs.put(out, EVERY, np.array([e for e, _, _, _ in table], dtype=np.int64)[entry])
    limbs.put(out, at, np.array([n for _, n, _, _ in table], dtype=np.int64)[entry])
    limbs.put(out, 0, np.array([bit if v else 0 for _, _, _, v in table], dtype=np.int64)[entry])
    keys, index, _ = limbs.distinct(out)
    _, sums = limbs.grouped(limbs.widen(data, width), source, factors[entry], index)
    return Bulk(keys, limbs.join(sums, width))


def removed(terms: Bulk, i: int, places: int) -> Bulk:
    """The terms where place ``i`` is empty, without it."""
    return removed_bulk(terms, i, places, _state([]))


def forgotten(terms: Bulk, bits: int) -> Bulk:
    """The masks without ``bits``; merged."""
    return remasked_bulk(terms, 0, [], 0, bits)


def weights_by(terms: Bulk, at: int | None) -> dict[tuple[int, int, int], int]:
    """The terms' weights summed by (mask, the state at shift ``at``, ``EVERY``): the state
    0 when ``at`` is None."""
    rows = terms.rows
    parts = [limbs.compact(limbs.field(rows, 0, MASK_BITS), 1 << MASK_BITS)]
    parts.append(limbs.compact(limbs.field(rows, at, WIDTH), FIELD + 1) if at is not None else _zero(len(rows)))
    parts.append(limbs.compact(limbs.field(rows, EVERY, WIDTH), FIELD + 1))
    group = np.zeros(len(rows), dtype=np.int64)
    bound = 1
    for values, index in parts:
        group = group * len(values) + index
        bound *= len(values)
    if bound > 1 << 24:  # too many for counting
        found, group = np.unique(group, return_inverse=True)
        bound = len(found)
    ids, sums = summed(terms.data, group, bound)
    out: dict[tuple[int, int, int], int] = {}
    (ms, _), (ss, _), (es, _) = parts
    for g, w in zip(ids.tolist(), sums, strict=True):
        g, e = divmod(g, len(es))
        m, s = divmod(g, len(ss))
        out[(int(ms[m]), int(ss[s]), int(es[e]))] = w
    return out


def _zero(n: int) -> tuple[Ints, Ints]:
    return np.zeros(1, dtype=np.int64), np.zeros(n, dtype=np.int64)


def summed(data: limbs.Raw, group: Ints, bound: int) -> tuple[Ints, list[int]]:
    """For each group (ids in ``range(bound)``) that has rows, ascending: the exact sum of its
    rows' weights ``data``, by counting 16-bit limbs in float64 (exact: each sum stays below
    2**53 while there are fewer than 2**37 rows)."""
    assert limbs.floats_exact(16, 1, len(group))
    columns = limbs.widen_floats(data, 16, by_column=True)
    found = np.flatnonzero(np.bincount(group, minlength=bound))
    sums = np.stack([np.bincount(group, weights=c, minlength=bound)[found] for c in columns.T], axis=1)
    return found, limbs.ints(limbs.join(sums.astype(np.int64), 16))


def kept(terms: Bulk, keep: Callable[[int], bool]) -> Bulk:
    """The terms whose ``EVERY`` is kept."""
    everies, index = limbs.compact(limbs.field(terms.rows, EVERY, WIDTH), FIELD + 1)
    chosen = np.array([keep(e) for e in everies.tolist()], dtype=bool)[index]
    return terms if chosen.all() else Bulk(terms.rows[chosen], terms.data[chosen])
