"""Exact counting by worlds: one count vector per place, the untouched places pooled.

A *world* says how many of each character every *opened* place holds. Places nothing has
singled out yet are *pooled*: the cards of the pooled places are, whatever the world, a
uniformly random split of the *pool* (the unseen cards no opened place holds), so a world
stores only the pool's content, and a pooled place's content is a hypergeometric split of it.
Worlds also carry a *mask*: the behavioural assumptions (bits) they break, so that an
assumption can be dropped after the fact by re-reading the masks, never by replaying.

A world is a Python int: the mask in the low 16 bits, then 12 bits for the pool's content and
12 bits per place (an interned count vector, or ``POOLED``); its weight an exact integer. The
world's mass is its weight times M(pool) = |pool|! / prod(pool_c!), the number of ways to lay
the pool's characters on its physical cards. The number of worlds never exceeds the number of
ways to fill the opened places under the unseen counts (times the masks in use): a bound set
by the table (204 for 3 players, 2,319 for 4, 19,854 for 5, 107,940 for 6), not the history.

>>> w = Worlds.pooled((2, 2, 9), (3, 3, 3, 2, 2))   # two hands and a court of 9, nothing seen
>>> len(w), w.opened
(1, (False, False, False))
>>> w = w.open(0)                                     # the first hand, card by card
>>> len(w), sum(w.totals().values()) == multinomial(vid((3, 3, 3, 2, 2)))
(15, True)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from functools import lru_cache
from math import comb
from typing import TYPE_CHECKING

from .vectors import _VECS, ID_BITS, ONE, TWO, Vec, multinomial, splits, vid

if TYPE_CHECKING:
    from .worlds_bulk import Bulk


MASK_BITS = 16
WIDTH = ID_BITS
FIELD = (1 << WIDTH) - 1
POOLED = FIELD
"""The field of a pooled place."""
BULK = 2048
"""Passes over at least this many worlds run in numpy (exact limbs), fewer one at a time."""
LAYERED_BULK = 256
""":func:`layered` goes on in numpy from a step with at least this many partial worlds (each
step multiplies them)."""

REDUCE_FROM = 1 << 16
"""Big tables' weights are divided by their common factor once it reaches this (a pass over
the weights: not every line)."""
LAYERED_CODES = 50_000
""":func:`layered` gives up (None, when given a limit) on a step with more distinct codes than
this: each is asked of its step in Python, some 30 us (an 8-player crowd's conversion reached
3.3 million of them: 150 s)."""


class Worlds:
    """Worlds of opened places and a pool, with integer weights. Immutable: every update
    returns new worlds. ``sizes``: the cards each place holds; ``opened``: which places have
    a count vector in each world (the others are pooled)."""

    __slots__ = ("_marginals", "_source", "_totals", "opened", "sizes")

    def __init__(self, sizes: tuple[int, ...], opened: tuple[bool, ...], worlds: dict[int, int] | Bulk) -> None:
        self.sizes = sizes
        self.opened = opened
        self._source = worlds
        self._totals: dict[int, int] | None = None
        self._marginals: dict[int, dict[int, dict[Vec, int]]] = {}

    def __repr__(self) -> str:
        return f"<Worlds {len(self)} worlds, {sum(self.opened)} of {len(self.sizes)} places opened>"

    def __len__(self) -> int:
        return len(self._source)

    @property
    def worlds(self) -> dict[int, int]:
        """Each world's key and weight (the big passes keep them as arrays until asked)."""
        if not isinstance(self._source, dict):
            self._source = self._source.ints()
        return self._source

    @classmethod
    def pooled(cls, sizes: tuple[int, ...], unseen: Vec) -> Worlds:
        """Nothing seen: every place pooled, one world."""
        key = vid(unseen) << MASK_BITS
        for i in range(len(sizes)):
            key |= POOLED << shift(i)
        return cls(sizes, (False,) * len(sizes), {key: 1})

    @classmethod
    def listed(cls, sizes: tuple[int, ...], worlds: Iterable[tuple[tuple[Vec, ...], int, int]]) -> Worlds:
        """Every place opened: each (contents per place, mask, weight)."""
        out: dict[int, int] = defaultdict(int)
        empty = vid((0, 0, 0, 0, 0))
        for contents, mask, weight in worlds:
            key = mask | empty << MASK_BITS
            for i, y in enumerate(contents):
                key |= vid(y) << shift(i)
            out[key] += weight
        return cls(sizes, (True,) * len(sizes), dict(out))

    def _with(self, worlds: dict[int, int] | Bulk, sizes: tuple[int, ...] | None = None) -> Worlds:
        return Worlds(self.sizes if sizes is None else sizes, self.opened, worlds)

    def _moved(
        self, worlds: dict[int, int] | Bulk, sizes: tuple[int, ...], changed: tuple[int, ...], factor: int
    ) -> Worlds:
        """New worlds after random cards moved between the ``changed`` places, each world's
        weight spread with total ``factor``: every other place's contents are as they were,
        times ``factor`` (a move touches no other place), so they are carried over."""
        out = Worlds(sizes, self.opened, worlds)
        if factor:
            for i, by_mask in self._marginals.items():
                if i not in changed:
                    out._marginals[i] = {m: {y: n * factor for y, n in d.items()} for m, d in by_mask.items()}
            if self._totals is not None:
                out._totals = {m: n * factor for m, n in self._totals.items()}
        return out

    def reduced(self) -> Worlds:
        """The same worlds, every weight divided by their common factor of small primes once it
        reaches :data:`REDUCE_FROM` (the answers are ratios): the exchanges multiply every
        weight alike, and smaller weights are fewer limbs for every pass after."""
        if isinstance(self._source, dict) or len(self) < BULK:
            return self
        from .worlds_bulk import Bulk, common_factor  # numpy, only for big tables

        data, factor = common_factor(self._source.data, REDUCE_FROM)
        if factor == 1:
            return self
        out = Worlds(self.sizes, self.opened, Bulk(self._source.rows, data))
        out._totals = None if self._totals is None else {m: n // factor for m, n in self._totals.items()}
        out._marginals = {i: _over(by_mask, factor) for i, by_mask in self._marginals.items()}
        return out

    def content(self, key: int, i: int) -> Vec:
        """The content of place ``i`` in a world (opened places only)."""
        return _VECS[(key >> shift(i)) & FIELD]

    # -- updates ------------------------------------------------------------------------------

    def open(self, *places: int) -> Worlds:
        """The same worlds with ``places`` opened (each pooled one split out of the pool)."""
        worlds = self
        for i in places:
            if worlds.opened[i]:
                continue
            out = _pairwise(worlds._source, MASK_BITS, shift(i), "split", worlds.sizes[i])
            opened = worlds.opened[:i] + (True,) + worlds.opened[i + 1 :]
            worlds = Worlds(worlds.sizes, opened, out)._moved_from(worlds)
        return worlds

    def _moved_from(self, same: Worlds) -> Worlds:
        """These worlds, the same distribution as ``same``'s: its contents carried over."""
        self._marginals = dict(same._marginals)
        self._totals = same._totals
        return self

    def _one(self, i: int, kind: str, param: int, grows: int = 0) -> Worlds:
        opened = self.open(i)
        out = _pairwise(opened._source, shift(i), shift(i), kind, param)
        return opened._with(out, self.sizes[:i] + (self.sizes[i] + grows,) + self.sizes[i + 1 :])

    def reveal(self, i: int, card: int) -> Worlds:
        """A ``card`` leaves place ``i``, in the worlds where it held one (their weights kept)."""
        return self._one(i, "taken", card, -1)

    def seen(self, i: int, card: int) -> Worlds:
        """Only the worlds where place ``i`` holds a ``card``."""
        return self._one(i, "holding", card)

    def add(self, place: int, cards: Vec) -> Worlds:
        """Known ``cards`` (counts) join ``place`` (opened first)."""
        return self._one(place, "add", vid(cards), sum(cards))

    def tag(self, i: int, card: int, bit: int) -> Worlds:
        """The worlds where place ``i`` holds a ``card`` get ``bit`` (an assumption they break)."""
        assert 0 < bit < 1 << MASK_BITS, "one bit per assumption, at most one per player"
        opened = self.open(i)
        if len(opened) >= BULK:
            from .worlds_bulk import remasked_bulk  # numpy, only for big tables

            holding = [v for v, counts in enumerate(_VECS) if counts[card]]
            return opened._with(remasked_bulk(opened._source, shift(i), holding, bit, 0))
        s = shift(i)
        out: dict[int, int] = defaultdict(int)
        for key, w in opened.worlds.items():
            out[key | bit if _VECS[(key >> s) & FIELD][card] else key] += w
        return opened._with(out)

    def move(self, source: int, target: int, k: int) -> Worlds:
        """``k`` physical cards of ``source``, chosen uniformly, go to ``target``."""
        sizes = _resized(self.sizes, source, target, k)
        if not self.opened[source] and not self.opened[target]:
            return Worlds(sizes, self.opened, self._source)  # the pool stays a uniform split
        opened = self.open(source, target)
        out = _pairwise(opened._source, shift(source), shift(target), "move", k)
        return opened._moved(out, sizes, (source, target), comb(self.sizes[source], k))

    def exchange(self, hand: int, court: int, draw: int, keep: int) -> Worlds:
        """``hand`` draws ``draw`` uniform cards from ``court``, keeps ``keep`` uniform cards of
        them all and returns the rest (one kernel: no world holds the cards in between)."""
        back = self.sizes[hand] + draw - keep
        sizes = _resized(_resized(self.sizes, court, hand, draw), hand, court, back)
        if not self.opened[hand] and not self.opened[court]:
            return Worlds(sizes, self.opened, self._source)
        opened = self.open(hand, court)
        out = _pairwise(opened._source, shift(hand), shift(court), "exchange", draw << 8 | back)
        ways = comb(self.sizes[court], draw) * comb(self.sizes[hand] + draw, back)
        return opened._moved(out, sizes, (hand, court), ways)

    def swap_random(self, hand: int, court: int) -> Worlds:
        opened = self.open(hand, court)
        out = _pairwise(opened._source, shift(hand), shift(court), "swap", 0)
        return opened._moved(out, self.sizes, (hand, court), self.sizes[hand] * self.sizes[court])

    def swap_known(self, hand: int, court: int, card: int) -> Worlds:
        opened = self.open(hand, court)
        out = _pairwise(opened._source, shift(hand), shift(court), "swap_known", card)
        return opened._with(out)

    def draw_seen(self, court: int, cards: Vec) -> Worlds:
        """Uniform court cards, seen to be ``cards`` (counts), leave the court (and the unseen
        cards): each world weighed by the ways to draw them."""
        k = sum(cards)
        sizes = self.sizes[:court] + (self.sizes[court] - k,) + self.sizes[court + 1 :]
        if self.opened[court]:
            return self._with(_pairwise(self._source, shift(court), shift(court), "draw", vid(cards)), sizes)
        # a pooled court: any k of its pooled cards are ``cards`` in M(cards) M(pool - cards) of
        # the pool's M(pool) orderings, whatever the world (the choice of the k: one constant)
        return self._with(_pairwise(self._source, MASK_BITS, MASK_BITS, "split_seen", vid(cards)), sizes)

    def remove(self, i: int) -> Worlds:
        """Forget the empty place ``i``."""
        assert self.sizes[i] == 0, "only an empty place is forgotten"
        opened = self.opened[:i] + self.opened[i + 1 :]
        sizes = self.sizes[:i] + self.sizes[i + 1 :]
        if len(self) >= BULK:
            from .worlds_bulk import removed_bulk  # numpy, only for big tables

            empty = vid((0, 0, 0, 0, 0)) if self.opened[i] else None
            return Worlds(sizes, opened, removed_bulk(self._source, i, len(self.sizes), empty))
        low, s = (1 << shift(i)) - 1, shift(i)
        out: dict[int, int] = defaultdict(int)
        for key, w in self.worlds.items():
            if self.opened[i] and any(_VECS[(key >> s) & FIELD]):
                continue
            out[(key & low) | (key >> (s + WIDTH)) << s] += w
        return Worlds(sizes, opened, dict(out))

    def forget(self, bits: int) -> Worlds:
        """The masks without ``bits`` (assumptions dropped for good): their worlds merge."""
        if len(self) >= BULK:
            from .worlds_bulk import remasked_bulk  # numpy, only for big tables

            return self._with(remasked_bulk(self._source, 0, [], 0, bits))
        out: dict[int, int] = defaultdict(int)
        for key, w in self.worlds.items():
            out[key & ~bits] += w
        return Worlds(self.sizes, self.opened, dict(out))

    # -- questions ----------------------------------------------------------------------------

    def totals(self) -> dict[int, int]:
        """The total mass of the worlds of each mask."""
        if self._totals is None:
            out: dict[int, int] = defaultdict(int)
            if any(self.opened):  # one pass for every opened place's contents and the totals
                for mask, dist in self.contents(self.opened.index(True)).items():
                    out[mask] = sum(dist.values())
            else:
                for (mask, pool), w in self._pools().items():
                    out[mask] += w * multinomial(pool)
            self._totals = dict(out)
        return self._totals

    def contents(self, i: int) -> dict[int, dict[Vec, int]]:
        """For each mask, the mass of each content of place ``i`` (every opened place's are
        counted in the same pass over the worlds)."""
        found = self._marginals.get(i)
        if found is not None:
            return found
        if self.opened[i]:
            missing = [j for j, o in enumerate(self.opened) if o and j not in self._marginals]
            if 2 * len(missing) <= sum(self.opened):  # a few: this one alone (the others carried)
                missing = [i]
            self._marginals.update(self._opened_contents(missing))
            return self._marginals[i]
        out: dict[int, dict[Vec, int]] = defaultdict(lambda: defaultdict(int))
        for (mask, pool), w in self._pools().items():
            for left, taken, m in splits(pool, self.sizes[i]):
                out[mask][_VECS[taken]] += w * m * multinomial(left)
        found = self._marginals[i] = {mask: dict(d) for mask, d in out.items()}
        return found

    def _pools(self) -> dict[tuple[int, int], int]:
        """The weight of the worlds of each (mask, pool content)."""
        if len(self) >= BULK:
            from .worlds_bulk import pools_bulk  # numpy, only for big tables

            found = pools_bulk(self._source)
            if found is not None:
                return found
        low = (1 << MASK_BITS) - 1
        pools: dict[tuple[int, int], int] = defaultdict(int)
        for key, w in self.worlds.items():
            pools[(key & low, (key >> MASK_BITS) & FIELD)] += w
        return pools

    def _opened_contents(self, places: list[int]) -> dict[int, dict[int, dict[Vec, int]]]:
        """The contents of the opened ``places``, in one pass over the worlds."""
        if len(self) >= BULK:
            from .worlds_bulk import contents_bulk  # numpy, only for big tables

            found = contents_bulk(self._source, [shift(i) for i in places])
            if found is not None:
                return dict(zip(places, found, strict=True))
        return self._contents_dicts(places)

    def _contents_dicts(self, places: list[int]) -> dict[int, dict[int, dict[Vec, int]]]:
        """``_opened_contents`` one world at a time."""
        low = (1 << MASK_BITS) - 1
        shifts = [shift(i) for i in places]
        sums: list[dict[int, int]] = [{} for _ in places]
        masses: dict[int, int] = {}
        for key, w in self.worlds.items():
            pool = (key >> MASK_BITS) & FIELD
            m = masses.get(pool)
            if m is None:
                m = masses[pool] = multinomial(pool)
            mass = w * m if m != 1 else w
            mask = (key & low) << WIDTH
            for acc, s in zip(sums, shifts, strict=True):
                k = mask | (key >> s) & FIELD
                acc[k] = acc.get(k, 0) + mass
        out: dict[int, dict[int, dict[Vec, int]]] = {}
        for i, acc in zip(places, sums, strict=True):
            by_mask: dict[int, dict[Vec, int]] = defaultdict(dict)
            for k, n in acc.items():
                by_mask[k >> WIDTH][_VECS[k & FIELD]] = n
            out[i] = dict(by_mask)
        return out

    def joint(self, places: tuple[int, ...]) -> dict[int, dict[tuple[Vec, ...], int]]:
        """For each mask, the mass of each combination of contents of ``places``."""
        opened = self.open(*places)
        low = (1 << MASK_BITS) - 1
        out: dict[int, dict[tuple[Vec, ...], int]] = defaultdict(lambda: defaultdict(int))
        for key, w in opened.worlds.items():
            contents = tuple(_VECS[(key >> shift(i)) & FIELD] for i in places)
            out[key & low][contents] += w * multinomial((key >> MASK_BITS) & FIELD)
        return {mask: dict(d) for mask, d in out.items()}


def _over(by_mask: dict[int, dict[Vec, int]], factor: int) -> dict[int, dict[Vec, int]]:
    """Masses per mask and content, each divided by ``factor`` (which divides them all)."""
    return {m: {y: n // factor for y, n in d.items()} for m, d in by_mask.items()}


def shift(i: int) -> int:
    return MASK_BITS + WIDTH * (i + 1)


def _resized(sizes: tuple[int, ...], source: int, target: int, k: int) -> tuple[int, ...]:
    out = list(sizes)
    out[source] -= k
    out[target] += k
    return tuple(out)


@lru_cache(maxsize=1 << 18)
def _deltas(kind: str, param: int, a: int, b: int, sa: int, sb: int) -> tuple[tuple[int, int], ...]:
    """What a kernel adds to a world whose fields at shifts ``sa``, ``sb`` hold ``a``, ``b``."""
    if sa == sb:
        return tuple(((na - a) << sa, f) for na, _, f in ONE[kind](a, param) if f)
    return tuple((((na - a) << sa) + ((nb - b) << sb), f) for na, nb, f in TWO[kind](a, b, param) if f)


def _pairwise(worlds: dict[int, int] | Bulk, sa: int, sb: int, kind: str, param: int) -> dict[int, int] | Bulk:
    """Each world's fields at shifts ``sa`` and ``sb`` (possibly the same field) replaced as
    the kernel ``kind`` says, the weights multiplied by its factors; merged."""
    if len(worlds) >= BULK:
        from .worlds_bulk import pairwise_bulk  # numpy, only for big tables

        found = pairwise_bulk(worlds, sa, sb, kind, param)
        if found is not None:
            return found
    return _pairwise_dicts(worlds if isinstance(worlds, dict) else worlds.ints(), sa, sb, kind, param)


def _pairwise_dicts(worlds: dict[int, int], sa: int, sb: int, kind: str, param: int) -> dict[int, int]:
    """``_pairwise`` one world at a time (few worlds, or factors too big for the limbs)."""
    out: dict[int, int] = {}
    get = out.get
    local: dict[int, tuple[tuple[int, int], ...]] = {}
    for key, w in worlds.items():
        a, b = (key >> sa) & FIELD, (key >> sb) & FIELD
        pair = a << WIDTH | b
        entries = local.get(pair)
        if entries is None:
            entries = local[pair] = _deltas(kind, param, a, b, sa, sb)
        for delta, f in entries:
            k = key + delta
            out[k] = get(k, 0) + w * f
    return out


Step = Callable[[int], "tuple[tuple[int, int, int], ...]"]
"""One step of :func:`layered`: for a partial world's code, each (bits it gains, its new code,
factor)."""


def layered(
    start: dict[tuple[int, int], int], steps: list[Step], bits: int, limit: int | None = None
) -> dict[int, int] | Bulk | None:
    """Worlds grown from partial worlds ``start`` ((key, code) -> weight), a step at a time:
    each partial world becomes one per entry of its code's step (the bits ORed into its key,
    the weight times the factor), merged by (key, code); after the last step, merged by key.
    ``bits``: the keys' width. None when a step's partial worlds outnumber ``limit``.

    >>> grow = lambda code: ((code << 20, code + 1, 2), (1 << 30, 0, 1))
    >>> layered({(0, 1): 5}, [grow, grow], 32)
    {3145728: 20, 1074790400: 10, 1073741824: 15}
    """
    current = start
    for n, step in enumerate(steps):
        if len(current) >= LAYERED_BULK:
            from .worlds_bulk import layered_bulk  # numpy, only for big tables

            return layered_bulk(current, steps[n:], bits, limit)
        found = layered_dicts(current, [step], limit, last=n == len(steps) - 1)
        if found is None:
            return None
        current = found
    return {key: w for (key, _), w in current.items()}


def layered_dicts(
    current: dict[tuple[int, int], int], steps: list[Step], limit: int | None, last: bool = True
) -> dict[tuple[int, int], int] | None:
    """``layered``'s steps one partial world at a time: the partial worlds after ``steps``
    (their codes 0 after the ``last`` step), or None past ``limit``."""
    for n, step in enumerate(steps):
        final = last and n == len(steps) - 1
        out: dict[tuple[int, int], int] = defaultdict(int)
        for (key, code), w in current.items():
            for more, new, f in step(code):
                out[(key | more, 0 if final else new)] += w * f
            if limit is not None and len(out) > limit:
                return None
        current = out
    return current


@lru_cache(maxsize=1 << 16)
def _entries(kind: str, param: int, a: int, b: int, same: bool) -> tuple[tuple[int, int], ...]:
    """A kernel's entries for the fields ``a``, ``b``: (new fields packed as a pair, factor)."""
    if same:
        return tuple((na << WIDTH | na, f) for na, _, f in ONE[kind](a, param) if f)
    return tuple((na << WIDTH | nb, f) for na, nb, f in TWO[kind](a, b, param) if f)
