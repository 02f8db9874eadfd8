"""Exact counting by placements: weighted physical cards routed between places.

Under a uniform deal the unseen cards' characters are a uniformly random arrangement of a known
multiset (``unseen``). Every observation is local to one hand, so each card can carry its own
*weight vector* over the characters (a fresh card weighs 1 for every one; a card known to be a
duke only the duke; the card left after a duke was turned up from a hand of two fresh cards
weighs 2 for every other character and 1 for a second duke). A world's weight is the product of
its cards' weights, the characters adding up to ``unseen``: the coefficient of z^unseen in the
product of the cards' linear forms (v . z), fresh cards giving a multinomial. Random moves are
uniform over physical cards, so they only route cards: a *term* is one placement of weighted
cards (a multiset per place, interned as a small int) with an integer weight, and a *mask*,
the behavioural assumptions its worlds break. Fresh cards never branch.

This stays small while few cards are singled out (one term for a fresh deal; a few for reveals
at 8 players) but grows with the cards singled out and moved since: :mod:`solver.coup.counting`
turns placements into :mod:`solver.coup.worlds` once those would be smaller.

>>> p = Placements.dealt((2, 2, 9))
>>> p = p.reveal(0, 0, None)            # place 0 turns a duke face up; the unseen lose one
>>> p.states(next(iter(p.terms)))[0]    # the card left: 2 for each other character, 1 for a duke
((1, 2, 2, 2, 2),)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator
from functools import cache, lru_cache
from math import comb
from typing import TYPE_CHECKING

from .vectors import Vec, compositions, interning, minus, plus, vec, vid
from .weighted import (
    _CARDS,
    _STATES,
    FRESH,
    Moves,
    State,
    _adding,
    _assume,
    _assuming,
    _cards,
    _cards_mass,
    _coef,
    _drawing_seen,
    _exchanging,
    _masses,
    _moving,
    _revealing,
    _swap,
    _swapping_known,
    _tagged,
    expand,
    is_fresh,
    sid,
)
from .worlds import BULK, MASK_BITS, POOLED, REDUCE_FROM, Step, Worlds, _over, layered, shift

if TYPE_CHECKING:
    from .placements_bulk import Terms

__all__ = ["FRESH", "Key", "Moves", "Placements", "State", "configurations"]

Key = tuple[int, ...]
"""A term: its mask, then the interned state of each place."""


class Placements:
    """Terms of weighted cards per place. Immutable: every update returns new placements.
    From :data:`~solver.coup.worlds.BULK` terms up, the passes run in numpy
    (:mod:`solver.coup.placements_bulk`)."""

    __slots__ = ("_dict", "_memo", "_source", "places")

    def __init__(self, terms: dict[Key, int] | Terms, places: int | None = None) -> None:
        self._source = terms
        self._dict = terms if isinstance(terms, dict) else None
        if places is None:  # told by a key (arrays always say)
            assert isinstance(terms, dict), "placements as arrays say how many places they have"
            places = len(next(iter(terms))) - 1
        self.places = places
        self._memo: dict[object, object] = {}

    def __repr__(self) -> str:
        return f"<Placements {len(self)} terms>"

    def __len__(self) -> int:
        return len(self._source)

    @property
    def terms(self) -> dict[Key, int]:
        """Each term's key and weight (the big passes keep them as arrays until asked)."""
        if self._dict is None:
            from .placements_bulk import unpacked  # numpy, only for big tables

            assert not isinstance(self._source, dict)
            self._dict = unpacked(self._source, self.places)
        return self._dict

    def _bulk(self) -> Terms | None:
        """The terms as arrays, if there are enough of them (and their states fit)."""
        if isinstance(self._source, dict):
            if len(self._source) < BULK:
                return None
            from .placements_bulk import TooMany, packed  # numpy, only for big tables

            try:
                self._source = packed(self._source, self.places)
            except TooMany:
                return None
        return self._source

    def first(self) -> Key:
        """One term's key."""
        if self._dict is not None:
            return next(iter(self._dict))
        from .placements_bulk import first

        assert not isinstance(self._source, dict)
        return first(self._source, self.places)

    def masks(self) -> set[int]:
        """The masks in use."""
        bulk = self._bulk()
        if bulk is not None:
            from .placements_bulk import masks

            return set(masks(bulk))
        return {key[0] for key in self.terms}

    def reduced(self) -> Placements:
        """The same placements, every weight divided by their common factor of small primes
        once it reaches :data:`~solver.coup.worlds.REDUCE_FROM` (see
        :meth:`~solver.coup.worlds.Worlds.reduced`)."""
        if isinstance(self._source, dict):
            return self
        from .placements_bulk import Terms
        from .worlds_bulk import common_factor

        terms = self._source
        data, factor = common_factor(terms.data, REDUCE_FROM)
        if factor == 1:
            return self
        out = Placements(Terms(terms.rows, data, terms.states, terms.cards), self.places)
        for memo, found in self._memo.items():
            assert isinstance(memo, tuple) and isinstance(found, dict)
            out._memo[memo] = (
                {m: n // factor for m, n in found.items()} if memo[0] == "totals" else _over(found, factor)
            )
        return out

    @classmethod
    def dealt(cls, sizes: tuple[int, ...]) -> Placements:
        """Fresh cards: ``sizes`` per place."""
        return cls({(0, *(sid((FRESH,) * n) for n in sizes)): 1})

    @staticmethod
    def states(key: Key) -> list[State]:
        """The cards per place of a term."""
        return [_STATES[s] for s in key[1:]]

    def _map(self, i: int, change: Callable[[int], tuple[tuple[int, int], ...]]) -> Placements:
        """Each term's place ``i`` replaced as ``change`` says (cached: it names the pass)."""
        bulk = self._bulk()
        if bulk is not None:
            from .placements_bulk import mapped

            found = mapped(bulk, i, change)
            if found is not None:
                return Placements(found, self.places)
        out: dict[Key, int] = defaultdict(int)
        for key, w in self.terms.items():
            for s, f in change(key[1 + i]):
                out[(*key[: 1 + i], s, *key[2 + i :])] += w * f
        return Placements(dict(out), self.places)

    def _pair(self, i: int, j: int, moves: Callable[[int, int], Moves], ways: int = 0) -> Placements:
        """Each term's places ``i`` and ``j`` replaced as ``moves`` says (cached: it names the
        pass). When ``ways`` is given (random cards moved between them, each term spread with
        that total weight), the cards of every term are the same, and so are every other
        place's contents: the totals and those contents are carried over, times ``ways``."""
        moved = self._paired(i, j, moves)
        for memo, found in self._memo.items() if ways else ():
            assert isinstance(memo, tuple) and isinstance(found, dict)
            if memo[0] == "totals":
                moved._memo[memo] = {m: n * ways for m, n in found.items()}
            elif memo[1] not in (i, j):
                moved._memo[memo] = {m: {y: n * ways for y, n in d.items()} for m, d in found.items()}
        return moved

    def _paired(self, i: int, j: int, moves: Callable[[int, int], Moves]) -> Placements:
        bulk = self._bulk()
        if bulk is not None:
            from .placements_bulk import paired

            found = paired(bulk, i, j, moves)
            if found is not None:
                return Placements(found, self.places)
        a, b = (1 + i, 1 + j) if i < j else (1 + j, 1 + i)
        out: dict[Key, int] = defaultdict(int)
        for key, w in self.terms.items():
            for si, sj, f in moves(key[1 + i], key[1 + j]):
                x, y = (si, sj) if i < j else (sj, si)
                out[(*key[:a], x, *key[a + 1 : b], y, *key[b + 1 :])] += w * f
        return Placements(dict(out), self.places)

    def _size(self, i: int) -> int:
        return len(_STATES[self.first()[1 + i]])

    # -- updates ------------------------------------------------------------------------------

    def reveal(self, i: int, c: int, court: int | None) -> Placements:
        """A card of ``c`` leaves place ``i`` (evidence only that it held one); into the court
        when ``court`` is given, else out of the unseen cards."""
        out = self._map(i, _revealing(c, False))
        return out._map(court, _adding(c)) if court is not None else out

    def seen(self, i: int, c: int) -> Placements:
        return self._map(i, _revealing(c, True))

    def assume(self, i: int, c: int, bit: int) -> Placements:
        """The worlds where place ``i`` holds a ``c`` get ``bit`` in their mask."""
        bulk = self._bulk()
        if bulk is not None:
            from .placements_bulk import assumed

            found = assumed(bulk, i, _assuming(c), bit)
            if found is not None:
                return Placements(found, self.places)
        out: dict[Key, int] = defaultdict(int)
        for key, w in self.terms.items():
            for s, f, violates in _assume(key[1 + i], c):
                out[(key[0] | bit if violates else key[0], *key[1 : 1 + i], s, *key[2 + i :])] += w * f
        return Placements(dict(out), self.places)

    def move(self, i: int, j: int, k: int) -> Placements:
        return self._pair(i, j, _moving(k), comb(self._size(i), k))

    def exchange(self, i: int, court: int, draw: int, back: int) -> Placements:
        """Place ``i`` draws ``draw`` uniform cards from ``court``, then returns ``back``
        uniform cards of them all."""
        ways = comb(self._size(court), draw) * comb(self._size(i) + draw, back)
        return self._pair(i, court, _exchanging(draw, back), ways)

    def swap_random(self, i: int, court: int) -> Placements:
        return self._pair(i, court, _swap, self._size(i) * self._size(court))

    def swap_known(self, i: int, court: int, c: int) -> Placements:
        return self._pair(i, court, _swapping_known(c))

    def draw_seen(self, court: int, c: int) -> Placements:
        return self._map(court, _drawing_seen(c))

    def add(self, place: int, c: int) -> Placements:
        return self._map(place, _adding(c))

    def remove(self, i: int) -> Placements:
        bulk = self._bulk()
        if bulk is not None:
            from .placements_bulk import removed

            found = removed(bulk, i, self.places)
            if found is not None:
                return Placements(found, self.places - 1)
        empty = sid(())
        terms = {key[: 1 + i] + key[2 + i :]: w for key, w in self.terms.items() if key[1 + i] == empty}
        return Placements(terms, self.places - 1)

    def forget(self, bits: int) -> Placements:
        bulk = self._bulk()
        if bulk is not None:
            from .placements_bulk import forgotten

            found = forgotten(bulk, bits)
            if found is not None:
                return Placements(found, self.places)
        out: dict[Key, int] = defaultdict(int)
        for key, w in self.terms.items():
            out[(key[0] & ~bits, *key[1:])] += w
        return Placements(dict(out), self.places)

    # -- questions ----------------------------------------------------------------------------

    def totals(self, unseen: Vec) -> dict[int, int]:
        """The total mass of each mask's worlds."""
        found = self._memo.get(("totals", unseen))
        if found is None:
            found = self.pruned(unseen)._memo[("totals", unseen)]
        assert isinstance(found, dict)
        return found

    def pruned(self, unseen: Vec) -> Placements:
        """The terms whose worlds can add up to ``unseen`` (the others weigh nothing), their
        totals per mask counted on the way (known totals: nothing to prune)."""
        if ("totals", unseen) in self._memo:
            return self
        totals: dict[int, int] = defaultdict(int)
        bulk = self._bulk()
        if bulk is not None:
            from .placements_bulk import kept, weights_by

            for (mask, _, every), w in weights_by(bulk, [None])[0].items():
                totals[mask] += w * _cards_mass(every, unseen)
            out = Placements(kept(bulk, lambda every: _cards_mass(every, unseen) != 0), self.places)
        else:
            keep: dict[Key, int] = {}
            for key, w in self.terms.items():
                m = _cards_mass(_cards(key[1:]), unseen)
                if m:
                    keep[key] = w
                    totals[key[0]] += w * m
            out = self if len(keep) == len(self.terms) else Placements(keep, self.places)
        out._memo[("totals", unseen)] = {m: n for m, n in totals.items() if n}
        return out

    def contents(self, i: int, unseen: Vec) -> dict[int, dict[Vec, int]]:
        """For each mask, the mass of each content of place ``i`` (every place's counted in one
        pass over the terms, and kept: a table asks for them all)."""
        found = self._memo.get(("contents", i, unseen))
        if found is None:
            for place, by_mask in enumerate(self._all_contents(unseen)):
                self._memo[("contents", place, unseen)] = by_mask
            found = self._memo[("contents", i, unseen)]
        assert isinstance(found, dict)
        return found

    def _all_contents(self, unseen: Vec) -> list[dict[int, dict[Vec, int]]]:
        """Each place's contents per mask. A term's other places matter only through their
        cards all together: the terms are grouped by (mask, the place's state, all the term's
        cards), and the other places' cards are all of them but the place's."""
        bulk = self._bulk()
        if bulk is not None:
            from .placements_bulk import weights_by

            groups = weights_by(bulk, [shift(i) for i in range(self.places)])
        else:
            groups = [defaultdict(int) for _ in range(self.places)]
            for key, w in self.terms.items():
                mask, states = key[0], key[1:]
                every = _cards(states)
                for group, s in zip(groups, states, strict=True):
                    group[(mask, s, every)] += w
        return [_contents(group, unseen) for group in groups]

    def joint(self, places: tuple[int, ...], unseen: Vec) -> dict[int, dict[tuple[Vec, ...], int]]:
        """For each mask, the mass of each combination of contents of ``places``; when they are
        every place, the largest one's content is what the others leave (a coefficient, not an
        enumeration of its contents)."""
        sizes = [len(_STATES[s]) for s in self.first()[1:]]
        derived = max(range(len(places)), key=lambda k: sizes[places[k]])
        if set(places) != set(range(len(sizes))) or len(places) < 2:
            derived = -1
        listed = [i for k, i in enumerate(places) if k != derived]
        groups: dict[tuple[int, tuple[int, ...], tuple[int, ...]], int] = defaultdict(int)
        for key, w in self.terms.items():
            others = tuple(sorted(s for i, s in enumerate(key[1:]) if i not in listed))
            groups[(key[0], tuple(key[1 + i] for i in listed), others)] += w
        out: dict[int, dict[tuple[Vec, ...], int]] = defaultdict(lambda: defaultdict(int))
        for (mask, states, others), w in groups.items():
            tagged, fresh = _tagged(others)
            for contents, h in _combinations([expand(s) for s in states]):
                total: Vec = (0, 0, 0, 0, 0)
                for y in contents:
                    total = plus(total, y)
                rest = minus(unseen, total)
                if min(rest) < 0:
                    continue
                c = _coef(tagged, fresh, rest, unseen)
                if c:
                    combined = contents if derived < 0 else (*contents[:derived], rest, *contents[derived:])
                    out[mask][combined] += w * h * c
        return {m: dict(d) for m, d in out.items()}

    def tagged_places(self) -> tuple[int, ...]:
        """The places where some term has a card that is not fresh."""
        bulk = self._bulk()
        if bulk is not None:
            from .placements_bulk import states

            seen = [states(bulk, i) for i in range(self.places)]
        else:
            seen = [list({key[1 + i] for key in self.terms}) for i in range(self.places)]
        return tuple(i for i in range(self.places) if not all(is_fresh(s) for s in seen[i]))

    def to_worlds(self, unseen: Vec, limit: int | None = None) -> Worlds | None:
        """The same distribution as worlds: the places with a card singled out opened (their
        contents expanded place by place, the largest last, merging as it goes), the others
        pooled. With nothing pooled, the last place's content is what the others leave. None
        if the partial worlds of a step outnumber ``limit`` (an 8-player table after many
        exchanges went past 9 million of them on its way to 300,000 worlds: minutes, and
        gigabytes; for terms held in numpy, counted before they merge), or, for those, if a
        step's codes do not fit a field."""
        sizes = tuple(len(_STATES[s]) for s in self.first()[1:])
        order = sorted(self.tagged_places(), key=lambda i: sizes[i])
        bulk = self._bulk()
        if bulk is not None and order:
            from .placements_bulk import TooMany, converted

            try:
                found = converted(bulk, sizes, order, unseen, 1 << 62 if limit is None else limit)
            except TooMany:  # a step's codes too many for a field: one term at a time would take minutes
                return None
            return None if found is None else Worlds(sizes, tuple(i in order for i in range(len(sizes))), found)
        pool = sum(sizes) - sum(sizes[i] for i in order)
        bound = vid(unseen)
        pooled = 0
        for i in range(len(sizes)):
            if i not in order:
                pooled |= POOLED << shift(i)
        # a partial world: its key (mask, the contents of the places opened) and its code, the
        # id of (their sum, the states still to open)
        codes: list[tuple[int, tuple[int, ...]]] = []
        code = interning(codes)
        start: dict[tuple[int, int], int] = defaultdict(int)
        for key, w in self.terms.items():
            start[(key[0] | pooled, code((vid((0, 0, 0, 0, 0)), tuple(key[1 + i] for i in order))))] += w

        def opening(place: int) -> Step:
            at = shift(place)

            @cache
            def step(c: int) -> tuple[tuple[int, int, int], ...]:
                total, rest = codes[c]
                after = rest[1:]
                ways = _opened(rest[0], total, _cards(after), pool, bound)
                return tuple((y << at, code((t, after)), h) for y, t, h in ways)

            return step

        # the last place opened straight into the worlds, the pool's remainder with it (the
        # smaller side enumerated: the place's contents, or the pool's when it is smaller)
        at, last = (shift(order[-1]), sizes[order[-1]]) if order else (0, 0)

        @cache
        def closing(c: int) -> tuple[tuple[int, int, int], ...]:
            total, rest = codes[c]
            if not rest:
                ways: tuple[tuple[int, int, int], ...] = ((0, total, 1),)
            elif pool < last:
                ways = _leaving(rest[0], total, pool, bound)
            else:
                ways = _opened(rest[0], total, _cards(()), pool, bound)
            return tuple((y << at | _left(bound, t) << MASK_BITS, 0, h) for y, t, h in ways)

        worlds = layered(dict(start), [*map(opening, order[:-1]), closing], shift(len(sizes)), limit)
        return None if worlds is None else Worlds(sizes, tuple(i in order for i in range(len(sizes))), worlds)


def _contents(group: dict[tuple[int, int, int], int], unseen: Vec) -> dict[int, dict[Vec, int]]:
    """A place's contents per mask, from the terms' weights summed by (mask, the place's
    state, all the term's cards)."""
    by_mask: dict[int, dict[Vec, int]] = defaultdict(dict)
    for (mask, s, every), w in group.items():
        found = by_mask[mask]
        for y, mass in _masses(s, every, unseen):
            found[y] = found.get(y, 0) + w * mass
    return {m: d for m, d in by_mask.items() if d}


@lru_cache(maxsize=1 << 16)
def _within(total: int, y: int, bound: int) -> int:
    """The id of total + y, or -1 if it exceeds ``bound`` (ids of count vectors)."""
    t = plus(vec(total), vec(y))
    return vid(t) if all(a <= b for a, b in zip(t, vec(bound), strict=True)) else -1


@lru_cache(maxsize=1 << 18)
def _opened(s: int, total: int, cards: int, pool: int, bound: int) -> tuple[tuple[int, int, int], ...]:
    """Each content a place in state ``s`` can hold after ``total`` (ids of count vectors), the
    places still to open holding ``cards`` (an id of :func:`_cards`) and the pool ``pool`` fresh
    ones: (its id, the new total's, its weight), those the rest can complete."""
    out = []
    for y, h in expand(s).items():
        t = _within(total, vid(y), bound)
        if t >= 0 and _completes(cards, pool, t, bound):
            out.append((vid(y), t, h))
    return tuple(out)


@lru_cache(maxsize=1 << 16)
def _leaving(s: int, total: int, pool: int, bound: int) -> tuple[tuple[int, int, int], ...]:
    """The last place to open, in state ``s``, after ``total``: each content it can hold, the
    pool of ``pool`` fresh cards taking the rest (its id, the new total's, its weight)."""
    weights = expand(s)
    left = vec(_left(bound, total))
    out = []
    for r in compositions(pool, left):
        y = minus(left, r)
        h = weights.get(y, 0)
        if h:
            out.append((vid(y), vid(plus(vec(total), y)), h))
    return tuple(out)


@lru_cache(maxsize=1 << 18)
def _completes(cards: int, pool: int, total: int, bound: int) -> bool:
    """True if the cards ``cards`` (an id of :func:`_cards`) and ``pool`` fresh ones can make
    what ``total`` leaves of ``bound`` (ids of count vectors): a partial world that cannot be
    completed is dropped at once, not carried to the last place."""
    tagged, fresh = _CARDS[cards]
    left = vec(_left(bound, total))
    return _coef(tagged, fresh + pool, left, vec(bound)) != 0


@lru_cache(maxsize=1 << 16)
def _left(bound: int, total: int) -> int:
    return vid(minus(vec(bound), vec(total)))


def _combinations(options: list[dict[Vec, int]]) -> Iterator[tuple[tuple[Vec, ...], int]]:
    """Every choice of one content per place, with the product of their weights."""
    if not options:
        yield (), 1
        return
    for rest, w in _combinations(options[1:]):
        for y, h in options[0].items():
            yield (y, *rest), h * w


def configurations(sizes: tuple[int, ...], unseen: Vec) -> int:
    """How many ways places of ``sizes`` cards can be filled (count vectors) under ``unseen``:
    what their worlds can number at most, per mask."""
    return _configurations(tuple(sorted(sizes)), unseen)


@lru_cache(maxsize=1024)
def _configurations(sizes: tuple[int, ...], unseen: Vec) -> int:
    sums: dict[Vec, int] = {(0, 0, 0, 0, 0): 1}
    for n in sizes:
        nxt: dict[Vec, int] = defaultdict(int)
        for t, count in sums.items():
            for y in compositions(n, minus(unseen, t)):
                nxt[plus(t, y)] += count
        sums = nxt
    return sum(sums.values())
