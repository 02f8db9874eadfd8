"""The big passes of :mod:`solver.coup.placements` in numpy, on the arrays of
:mod:`solver.coup.worlds_bulk`: from :data:`~solver.coup.worlds.BULK` terms up (an 8-player
crowd reaches a million), a pass costs a few array operations per term instead of a Python
tuple and dict operation per (term, move). Imported only when a table is that big.

A term is packed like a world: its mask in the low bits, then :data:`EVERY`, all its cards
together (:func:`~solver.coup.weighted._cards`, where a world keeps its pool), then each
place's state. The fields hold small numbers of the terms' own (:class:`Terms`: the states
and the sets of cards they have met, in order), so that they fit whatever the process
interned before. Cards moved between places keep ``EVERY``, so the kernels of
:meth:`~solver.coup.placements.Placements._pair` keep the union of the two states they touch
and run as matrices (:func:`~solver.coup.worlds_bulk._pairwise_blocks`); a card seen or
assumed changes a state and ``EVERY`` together: a kernel on the pair. The contents and the
totals group the terms by (mask, ``EVERY``, a state), all they depend on.

A pass returns None when a factor does not fit the limbs, or when the terms have met more
states than a field holds (the caller goes on one term at a time).

>>> from solver.coup.placements import Placements
>>> p = Placements.dealt((2, 2, 2, 9)).reveal(0, 0, None)
>>> unpacked(packed(p.terms, 4), 4) == p.terms
True
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import numpy as np

from . import limbs
from .limbs import Ints, Words
from .placements import Key, _leaving, _left, _opened
from .vectors import Vec, interning, vid
from .weighted import _CARDS, _STATES, Moves, _card_id, _cards, _others, _state, _tagged
from .worlds import FIELD, MASK_BITS, POOLED, WIDTH, shift
from .worlds_bulk import Bulk, Kernel, _pairs, _spread, counted, kernel_bulk, remasked_bulk, removed_bulk

EVERY = MASK_BITS
"""The field of a term's cards all together."""
LOW = (1 << MASK_BITS) - 1


class TooMany(Exception):
    """A number does not fit a field."""


def _fits(value: int) -> int:
    if value >= FIELD:
        raise TooMany
    return value


class Numbers:
    """Small numbers for interned ids (states, or sets of cards), in the order met; shared
    by the terms that derive from one another (only ever appended to)."""

    __slots__ = ("ids", "local")

    def __init__(self) -> None:
        self.ids: list[int] = []
        self.local: dict[int, int] = {}

    def of(self, interned: int) -> int:
        """The number of an interned id (a new one if it was not met); raises TooMany past a
        field."""
        found = self.local.get(interned)
        if found is None:
            found = self.local[interned] = _fits(len(self.ids))
            self.ids.append(interned)
        return found


class Terms(Bulk):
    """Placements as arrays: the keys' fields hold numbers of ``states`` and ``cards``."""

    __slots__ = ("cards", "states")

    def __init__(self, rows: Words, data: limbs.Raw, states: Numbers, cards: Numbers) -> None:
        super().__init__(rows, data)
        self.states = states
        self.cards = cards

    def __repr__(self) -> str:
        return f"<Terms {len(self.rows)} terms>"

    def like(self, found: Bulk | None) -> Terms | None:
        """``found`` (arrays of a pass) with these numbers."""
        return None if found is None else Terms(found.rows, found.data, self.states, self.cards)


def packed(terms: dict[Key, int], places: int) -> Terms:
    """The terms as arrays."""
    states, cards = Numbers(), Numbers()
    keys: list[int] = []
    for key in terms:
        k = key[0] | cards.of(_cards(key[1:])) << EVERY
        for i, s in enumerate(key[1:]):
            k |= states.of(s) << shift(i)
        keys.append(k)
    return Terms(limbs.words(keys, shift(places)), limbs.raw(list(terms.values())), states, cards)


def unpacked(terms: Terms, places: int) -> dict[Key, int]:
    """The terms as a dict."""
    out: dict[Key, int] = {}
    ids = terms.states.ids
    for k, w in zip(limbs.ints(terms.rows), limbs.ints(terms.data), strict=True):
        out[(k & LOW, *(ids[(k >> shift(i)) & FIELD] for i in range(places)))] = w
    return out


def first(terms: Terms, places: int) -> Key:
    """One term's key."""
    return next(iter(unpacked(Terms(terms.rows[:1], terms.data[:1], terms.states, terms.cards), places)))


def states(terms: Terms, i: int) -> list[int]:
    """The distinct states of place ``i`` over the terms."""
    found, _ = limbs.compact(limbs.field(terms.rows, shift(i), WIDTH), FIELD + 1)
    return [terms.states.ids[s] for s in found.tolist()]


def masks(terms: Bulk) -> list[int]:
    """The distinct masks of the terms."""
    found, _ = limbs.compact(limbs.field(terms.rows, 0, MASK_BITS), 1 << MASK_BITS)
    return list(found.tolist())


def _run(
    terms: Terms, sa: int, sb: int, entries: Callable[[int], tuple[tuple[int, int], ...]], keeps: bool
) -> Terms | None:
    union = (lambda code: _union(terms.states.ids[code >> WIDTH], terms.states.ids[code & FIELD])) if keeps else None
    try:
        return terms.like(kernel_bulk(terms.rows, terms.data, sa, sb, Kernel(entries, union, cached=False)))
    except TooMany:
        return None


@lru_cache(maxsize=1 << 16)
def _union(a: int, b: int) -> int:
    return _state([*_STATES[a], *_STATES[b]])


def paired(terms: Terms, i: int, j: int, moves: Callable[[int, int], Moves]) -> Terms | None:
    """Each term's places ``i`` and ``j`` replaced as ``moves`` says (None: see the module)."""
    ids, of = terms.states.ids, terms.states.of

    def entries(code: int) -> tuple[tuple[int, int], ...]:
        return tuple((of(x) << WIDTH | of(y), f) for x, y, f in moves(ids[code >> WIDTH], ids[code & FIELD]) if f)

    return _run(terms, shift(i), shift(j), entries, True)


def mapped(terms: Terms, i: int, change: Callable[[int], tuple[tuple[int, int], ...]]) -> Terms | None:
    """Each term's place ``i`` replaced as ``change`` says: a kernel on (``EVERY``, the state)."""
    sids, cids = terms.states.ids, terms.cards.ids

    def entries(code: int) -> tuple[tuple[int, int], ...]:
        every, s = cids[code >> WIDTH], sids[code & FIELD]
        return tuple(
            (terms.cards.of(_replaced(every, s, n)) << WIDTH | terms.states.of(n), f) for n, f in change(s) if f
        )

    return _run(terms, EVERY, shift(i), entries, False)


@lru_cache(maxsize=1 << 16)
def _replaced(every: int, s: int, new: int) -> int:
    """The id of the cards ``every`` with those of the state ``s`` replaced by ``new``'s."""
    rest, fresh = _others(every, s)
    theirs, their_fresh = _tagged((new,))
    return _card_id((tuple(sorted(rest + theirs)), fresh + their_fresh))


def assumed(terms: Terms, i: int, split: Callable[[int], tuple[tuple[int, int, bool], ...]], bit: int) -> Terms | None:
    """Each term's place ``i`` split as ``split`` says, ``bit`` added to the mask of the parts
    that break the assumption; merged."""
    rows, data, at = terms.rows, terms.data, shift(i)
    codes, inv = _pairs(limbs.field(rows, EVERY, WIDTH), limbs.field(rows, at, WIDTH))
    table: list[tuple[int, int, int, int]] = []
    counts: list[int] = []
    try:
        for code in codes:
            every, s = terms.cards.ids[code >> WIDTH], terms.states.ids[code & FIELD]
            found = [
                (terms.cards.of(_replaced(every, s, n)), terms.states.of(n), f, bit if v else 0)
                for n, f, v in split(s)
                if f
            ]
            counts.append(len(found))
            table.extend(found)
    except TooMany:
        return None
    columns = (
        [np.array(column, dtype=np.int64) for column in zip(*table, strict=True)]
        if table
        else [np.zeros(0, np.int64)] * 4
    )
    source, entry = _spread(np.array(counts, dtype=np.int64), inv)
    width = limbs.width_for(int(columns[2].max(initial=0)), len(source))
    if not width:
        return None
    top = (1 << 64 * rows.shape[1]) - 1
    out = np.take(limbs.cleared(rows, top & ~(FIELD << EVERY | FIELD << at)), source, axis=0)
    for column, where in zip(columns, (EVERY, at, None, 0), strict=True):
        if where is not None:
            limbs.put(out, where, column[entry])
    keys, index, _ = limbs.distinct(out)
    _, sums = limbs.grouped(limbs.widen(data, width), source, columns[2][entry], index)
    return Terms(keys, limbs.join(sums, width), terms.states, terms.cards)


def removed(terms: Terms, i: int, places: int) -> Terms | None:
    """The terms where place ``i`` is empty, without it."""
    try:
        empty = terms.states.of(_state([]))
    except TooMany:
        return None
    return terms.like(removed_bulk(terms, i, places, empty))


def forgotten(terms: Terms, bits: int) -> Terms | None:
    """The masks without ``bits``; merged."""
    return terms.like(remasked_bulk(terms, 0, [], 0, bits))


def weights_by(terms: Terms, shifts: list[int | None]) -> list[dict[tuple[int, int, int], int]]:
    """For the state at each of ``shifts`` (None: no state, 0 in its place), the terms'
    weights summed by (mask, that state, ``EVERY``), as interned ids."""
    rows = terms.rows
    columns = limbs.widen_floats(terms.data, 32, by_column=True)  # the weights' 32-bit limbs, read once
    ms, mi = limbs.compact(limbs.field(rows, 0, MASK_BITS), 1 << MASK_BITS)
    es, ei = limbs.compact(limbs.field(rows, EVERY, WIDTH), FIELD + 1)
    out = []
    for at in shifts:
        ss, si = limbs.compact(limbs.field(rows, at, WIDTH), FIELD + 1) if at is not None else _zero(len(rows))
        group, bound = (mi * len(ss) + si) * len(es) + ei, len(ms) * len(ss) * len(es)
        if bound > limbs.COUNTED:  # renumbered first, for a table no bigger than the groups
            found, group = limbs.compact(group, bound)
            bound = len(found)
        else:
            found = np.arange(bound)
        ids, sums = counted(columns, group, bound, 32, 1 << 32)
        sids = np.array(terms.states.ids if at is not None else [0], dtype=np.int64)
        g, e = np.divmod(found[ids], len(es))
        m, s = np.divmod(g, len(ss))
        keys = zip(
            ms[m].tolist(), sids[ss[s]].tolist(), np.array(terms.cards.ids, dtype=np.int64)[es[e]].tolist(), strict=True
        )
        out.append(dict(zip(keys, sums, strict=True)))
    return out


def _zero(n: int) -> tuple[Ints, Ints]:
    return np.zeros(1, dtype=np.int64), np.zeros(n, dtype=np.int64)


def kept(terms: Terms, keep: Callable[[int], bool]) -> Terms:
    """The terms whose cards all together (an interned id) are kept."""
    everies, index = limbs.compact(limbs.field(terms.rows, EVERY, WIDTH), FIELD + 1)
    chosen = np.array([keep(terms.cards.ids[e]) for e in everies.tolist()], dtype=bool)[index]
    return terms if chosen.all() else Terms(terms.rows[chosen], terms.data[chosen], terms.states, terms.cards)


def converted(terms: Terms, sizes: tuple[int, ...], order: list[int], unseen: Vec, limit: int) -> Bulk | None:
    """The worlds of the terms (see :meth:`~solver.coup.placements.Placements.to_worlds`, the
    same steps): the places of ``order`` opened one after the other, each a kernel on (a code,
    its state), where the code, in ``EVERY``, says the total of the contents opened so far and
    the cards still to open (numbered afresh at each step); the last one leaves the pool's
    content there. None past ``limit`` partial worlds, counted before they merge (so that a
    step bound to fail is refused before it runs: at 8 players such steps took 3-7 s); raises
    ``TooMany`` when the codes of a step do not fit a field."""
    pool = sum(sizes) - sum(sizes[i] for i in order)
    bound = vid(unseen)
    codes: list[tuple[int, int]] = []
    code = interning(codes)
    everies, index = limbs.compact(limbs.field(terms.rows, EVERY, WIDTH), FIELD + 1)
    start = [_fits(code((vid((0, 0, 0, 0, 0)), _without_fresh(terms.cards.ids[e], pool)))) for e in everies.tolist()]
    top = (1 << 64 * terms.rows.shape[1]) - 1
    rows = limbs.cleared(terms.rows, top & ~(FIELD << EVERY))
    limbs.put(rows, EVERY, np.array(start, dtype=np.int64)[index])
    current = Bulk(rows, terms.data)
    for n, place in enumerate(order):
        if n == len(order) - 1:
            step = _closing(codes, terms.states.ids, pool, bound, sizes[place])
        else:
            step, codes = _opening(codes, terms.states.ids, pool, bound)
        found = kernel_bulk(current.rows, current.data, EVERY, shift(place), Kernel(step), limit)
        if found is None:  # more products than the limit
            return None
        current = found
    rows = current.rows
    for i in range(len(sizes)):
        if i not in order:
            rows = limbs.cleared(rows, top & ~(FIELD << shift(i)))
            limbs.put(rows, shift(i), np.full(len(rows), POOLED, dtype=np.int64))
    return Bulk(rows, current.data)


def _without_fresh(every: int, fresh: int) -> int:
    tagged, n = _CARDS[every]
    return _card_id((tagged, n - fresh))


def _opening(
    codes: list[tuple[int, int]], sids: list[int], pool: int, bound: int
) -> tuple[Callable[[int], tuple[tuple[int, int], ...]], list[tuple[int, int]]]:
    """A step opening a place: its entries, and the new codes they number."""
    empty = _state([])
    news: list[tuple[int, int]] = []
    code = interning(news)

    def entries(pair: int) -> tuple[tuple[int, int], ...]:
        (total, cards), s = codes[pair >> WIDTH], sids[pair & FIELD]
        after = _replaced(cards, s, empty)
        return tuple((_fits(code((t, after))) << WIDTH | y, h) for y, t, h in _opened(s, total, after, pool, bound))

    return entries, news


def _closing(
    codes: list[tuple[int, int]], sids: list[int], pool: int, bound: int, size: int
) -> Callable[[int], tuple[tuple[int, int], ...]]:
    nothing = _card_id(((), 0))

    def entries(pair: int) -> tuple[tuple[int, int], ...]:
        (total, _), s = codes[pair >> WIDTH], sids[pair & FIELD]
        ways = _leaving(s, total, pool, bound) if pool < size else _opened(s, total, nothing, pool, bound)
        return tuple((_left(bound, t) << WIDTH | y, h) for y, t, h in ways)

    return entries
